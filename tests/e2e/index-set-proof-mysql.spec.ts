// e2e against MySQL 8.0.33 at 1280×800: the Index set view proves its indexes on the server (every statement
// listed before anything runs, progress, each index chosen or rejected by the optimizer with cost and key
// before/after; then the whole set together, built INVISIBLE, with cost per statement before → with the set), accepts a proven index into the export, and accepts a duplicate index's hygiene drop, which
// the export renders as the safe INVISIBLE step first and the DROP as the later drop step.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ordersSeed, script } from '../support/seed.js';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

// 4,000 orders over 200 customers, 4 statuses (tests/support/seed.ts); created_at indexed twice (a duplicate
// for the hygiene), a two-valued flag.
const setup = script(
  ordersSeed({
    extra: [{ definition: 'flag TINYINT NOT NULL', value: 'i % 2' }],
    keys: ['KEY idx_created (created_at)', 'KEY idx_created_dup (created_at)'],
  }),
);

const workload = [
  '-- weight: 10',
  "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10;",
  '-- weight: 3',
  // Every row has flag 0 or 1: an index on flag is designed (IN list) but the optimizer keeps the scan.
  'SELECT * FROM orders WHERE flag IN (0, 1);',
].join('\n');

/** The whole export script, as the Save as… button downloads it. */
async function downloadedScript(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-save').click(),
  ]);
  return readFile(await download.path(), 'utf8');
}

test.describe('Index set proof and hygiene (MySQL)', () => {
  const database = useScratchDatabase('e2e_index_proof', setup);

  test('proves each index (chosen or rejected, why), accepts into the export, hides then drops a duplicate', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, { ...formFromUrl(mysqlTestUrl(), database), allowWhatIf: true });
    await setEditorText(page, workload);
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 14; index++) await page.keyboard.press('ArrowUp');
    await page.getByTestId('panel-tab-indexes').click();
    await page.getByTestId('index-set-design').click();
    const rows = page.getByTestId('index-set-index');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(1);
    const designed = rows.filter({ hasText: 'customer_id' });
    await expect(designed).toHaveAttribute('data-proof', 'unproven');

    // Nothing runs before the confirmation, which lists every statement of every index's proof.
    await page.getByTestId('index-proof-start').click();
    const dialog = page.getByTestId('index-proof-dialog');
    const steps = dialog.getByTestId('what-if-step');
    await expect(steps.filter({ hasText: 'use_invisible_indexes=on' }).first()).toBeVisible();
    await expect(steps.filter({ hasText: 'ADD INDEX' }).first()).toContainText(/\) INVISIBLE/);
    await expect(steps.filter({ hasText: 'DROP INDEX' }).first()).toBeVisible();
    await dialog.getByTestId('index-proof-run').click();
    await expect(page.getByTestId('index-proof-summary')).toContainText('Proven with invisible indexes', {
      timeout: 60_000,
    });

    // The designed index: chosen by #1, key and cost before → after.
    await expect(designed).toHaveAttribute('data-proof', 'chosen');
    const proof = designed.getByTestId('index-proof');
    await expect(proof).toContainText('chosen by #1');
    const statement = proof.getByTestId('index-proof-statement').first();
    await expect(statement).toHaveAttribute('data-chosen', 'true');
    await expect(statement).toContainText(/→ idx_orders_/);
    await expect(statement).toContainText(/[\d,.]+ → [\d,.]+/);
    // Every other index has a verdict too; one the optimizer rejects cannot be accepted.
    for (const row of await rows.all()) await expect(row).not.toHaveAttribute('data-proof', 'unproven');
    const rejected = rows.filter({ hasText: 'flag' });
    await expect(rejected).toHaveAttribute('data-proof', 'rejected');
    await expect(rejected.getByTestId('index-proof')).toContainText('rejected by the optimizer');
    await expect(rejected.getByTestId('index-proof')).toContainText('#2 keeps no index (ALL)');
    await expect(rejected.getByTestId('index-set-accept')).toBeDisabled();
    await expect(page.getByTestId('index-set-query').nth(1)).toContainText('rejected by the optimizer');

    // The whole set together: every index built INVISIBLE, one EXPLAIN per statement with the whole set.
    await page.getByTestId('index-proof-set-start').click();
    const setDialog = page.getByTestId('index-proof-dialog');
    const setSteps = setDialog.getByTestId('what-if-step');
    await expect(setSteps.filter({ hasText: 'the plan with the whole set' })).toHaveCount(2);
    await expect(setSteps.filter({ hasText: 'ADD INDEX' })).toHaveCount(count);
    for (const build of await setSteps.filter({ hasText: 'ADD INDEX' }).all())
      await expect(build).toContainText(/\) INVISIBLE/);
    await expect(setSteps.filter({ hasText: 'use_invisible_indexes=on' })).toHaveCount(1);
    await expect(setSteps.filter({ hasText: 'DROP INDEX' })).toHaveCount(count);
    await setDialog.getByTestId('index-proof-run').click();
    await expect(page.getByTestId('index-proof-summary')).toContainText(
      'Proven as a set with invisible indexes',
      { timeout: 60_000 },
    );
    const perStatement = page.getByTestId('index-set-proof-statement');
    await expect(perStatement).toHaveCount(2);
    await expect(perStatement.first()).toContainText(/→ .*idx_orders_/);
    await expect(perStatement.first()).toContainText(/[\d,.]+ → [\d,.]+/);
    await expect(designed).toHaveAttribute('data-proof', 'chosen');
    await expect(rejected).toHaveAttribute('data-proof', 'rejected');

    // Accept the proven index; accept the duplicate's drop (hygiene).
    await designed.getByTestId('index-set-accept').click();
    await expect(designed).toHaveAttribute('data-decision', 'accepted');
    const duplicate = page.getByTestId('index-set-drop').filter({ hasText: 'duplicate' }).first();
    await expect(duplicate).toBeVisible();
    const droppedName = ((await duplicate.getAttribute('data-index')) ?? '').split('.')[1]!;
    await duplicate.getByTestId('index-set-drop-accept').click();
    await expect(duplicate).toHaveAttribute('data-decision', 'accepted');
    await designed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/index-set-proof.png' });
    // Further down: the rejected index (why, Accept disabled), then the accepted hygiene drop.
    await rejected.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/index-set-rejected.png' });
    await duplicate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/index-set-hygiene.png' });

    // The export: the index, and the duplicate hidden first (INVISIBLE), its DROP named as the later step.
    await page.getByTestId('panel-tab-export').click();
    // The whole script, as Save as… downloads it (the Monaco view renders only the visible lines).
    const hide = await downloadedScript(page);
    expect(hide).toContain(`ALTER TABLE \`orders\`\n  ALTER INDEX \`${droppedName}\` INVISIBLE;`);
    expect(hide).toMatch(/ADD INDEX `idx_orders_customer_id_status_created_at/);
    expect(hide).toContain(
      `Step 2, after watching the workload: ALTER TABLE \`orders\` DROP INDEX \`${droppedName}\``,
    );
    // The drop step: the DROP itself, no hiding.
    await page.getByTestId('export-drop-step').check();
    await expect(page.getByTestId('code-view')).toContainText('-- - INDEX');
    const drop = await downloadedScript(page);
    expect(drop).toContain(`DROP INDEX \`${droppedName}\`,\n  ALGORITHM=INPLACE, LOCK=NONE;`);
    expect(drop).not.toContain(`ALTER INDEX \`${droppedName}\` INVISIBLE`);
  });
});
