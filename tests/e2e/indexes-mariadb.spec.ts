// e2e against MariaDB 10.11: the Indexes panel as tests/e2e/indexes-mysql.spec.ts and index-set-proof-mysql.spec.ts
// run it on MySQL — the Index plan with EXPLAIN before/after, the Index set designed, proven index by index and
// as a whole set on the sandbox (MariaDB has no invisible index a session can be told to use: plain indexes,
// built and dropped again), a rejected index that cannot be accepted, Accept into the export (Reject out of
// it), and a duplicate's drop exported as the safe IGNORED step first.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ordersSeed, script } from '../support/seed.js';
import { useScratchDatabase } from './helpers/database.js';
import { mariadbTestUrl } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

// 4,000 orders over 200 customers, 4 statuses (tests/support/seed.ts): an index the design extends, created_at
// indexed twice (a duplicate for the hygiene), a two-valued flag.
const setup = script(
  ordersSeed({
    extra: [{ definition: 'flag TINYINT NOT NULL', value: 'i % 2' }],
    keys: [
      'KEY idx_orders_customer (customer_id)',
      'KEY idx_created (created_at)',
      'KEY idx_created_dup (created_at)',
    ],
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

test.describe('Indexes panel and Index set proof (MariaDB)', () => {
  const database = useScratchDatabase('e2e_indexes_maria', setup, mariadbTestUrl);

  test('Index plan with EXPLAIN before/after; Index set proven on the sandbox, each and as a set; accept, reject, hygiene', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await openWorkbench(page);
    await connectWithForm(page, { ...formFromUrl(mariadbTestUrl(), database), allowWhatIf: true });
    await setEditorText(page, workload);
    await analyzeWithShortcut(page);
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 14; index++) await page.keyboard.press('ArrowUp');

    // Index plan: statement 1 extends idx_orders_customer (a left prefix) to the one composite index.
    await page.getByTestId('panel-tab-indexes').click();
    const first = page.getByTestId('index-plan-statement').first();
    const table = first.getByTestId('index-plan-table');
    await expect(table).toHaveAttribute('data-verdict', 'extend');
    await expect(table.getByTestId('index-part').first()).toHaveText(/customer_id\s*equality/);
    await expect(table.getByTestId('index-plan-replaces')).toContainText('Replaces idx_orders_customer');
    // EXPLAIN before/after on the sandbox: a plain index next to the old one, no INVISIBLE.
    await table.getByTestId('index-plan-explain').click();
    const whatIf = page.getByTestId('what-if-dialog');
    const build = whatIf.getByTestId('what-if-step').filter({ hasText: 'ADD INDEX' });
    await expect(build).toContainText('idx_orders_customer_whatif');
    await expect(build).not.toContainText('INVISIBLE');
    await whatIf.getByTestId('what-if-run').click();
    await expect(whatIf.getByTestId('what-if-verdict')).toContainText('Improved on orders');
    await whatIf.getByRole('button', { name: 'Close' }).click();
    await expect(table.getByTestId('what-if-result')).toBeVisible();

    // Index set: designed, then proven index by index on the sandbox.
    await page.getByTestId('index-set-design').click();
    const rows = page.getByTestId('index-set-index');
    const designed = rows.filter({ hasText: 'customer_id' });
    const rejected = rows.filter({ hasText: 'flag' });
    await expect(designed).toHaveAttribute('data-proof', 'unproven');
    await page.getByTestId('index-proof-start').click();
    let dialog = page.getByTestId('index-proof-dialog');
    let steps = dialog.getByTestId('what-if-step');
    await expect(steps.filter({ hasText: 'ADD INDEX' }).first()).toBeVisible();
    await expect(steps.filter({ hasText: 'INVISIBLE' })).toHaveCount(0);
    await expect(steps.filter({ hasText: 'optimizer_switch' })).toHaveCount(0);
    await expect(steps.filter({ hasText: 'DROP INDEX' }).first()).toBeVisible();
    await dialog.getByTestId('index-proof-run').click();
    await expect(page.getByTestId('index-proof-summary')).toContainText('Proven on the sandbox', {
      timeout: 60_000,
    });
    await expect(designed).toHaveAttribute('data-proof', 'chosen');
    const statement = designed.getByTestId('index-proof-statement').first();
    await expect(statement).toHaveAttribute('data-chosen', 'true');
    // MariaDB's EXPLAIN has no cost: rows before → after.
    await expect(statement).toContainText('n/a (no cost in EXPLAIN)');
    await expect(rejected).toHaveAttribute('data-proof', 'rejected');
    await expect(rejected.getByTestId('index-set-accept')).toBeDisabled();

    // The whole set together: one list of statements (build all, EXPLAIN with the set, drop all).
    await page.getByTestId('index-proof-set-start').click();
    dialog = page.getByTestId('index-proof-dialog');
    await expect(dialog).toContainText('builds all');
    steps = dialog.getByTestId('what-if-step');
    await expect(steps.filter({ hasText: 'the plan with the whole set' }).first()).toBeVisible();
    await expect(steps.filter({ hasText: 'INVISIBLE' })).toHaveCount(0);
    const drops = await steps.filter({ hasText: 'DROP INDEX' }).count();
    expect(drops).toBe(await steps.filter({ hasText: 'ADD INDEX' }).count());
    await dialog.getByTestId('index-proof-run').click();
    await expect(page.getByTestId('index-proof-summary')).toContainText('Proven as a set on the sandbox', {
      timeout: 60_000,
    });
    const perStatement = page.getByTestId('index-set-proof-statement');
    await expect(perStatement).toHaveCount(2);
    await expect(perStatement.first()).toContainText(/→ .*idx_orders_customer/);
    await expect(designed).toHaveAttribute('data-proof', 'chosen');
    await expect(rejected).toHaveAttribute('data-proof', 'rejected');
    await page.getByTestId('index-set-proof-statements').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/index-set-proof-mariadb.png' });

    // Accept the proven index into the export; Reject takes it out again; accept the duplicate's drop.
    await designed.getByTestId('index-set-accept').click();
    await expect(designed).toHaveAttribute('data-decision', 'accepted');
    const duplicate = page.getByTestId('index-set-drop').filter({ hasText: 'duplicate' }).first();
    const droppedName = ((await duplicate.getAttribute('data-index')) ?? '').split('.')[1]!;
    await duplicate.getByTestId('index-set-drop-accept').click();
    await expect(duplicate).toHaveAttribute('data-decision', 'accepted');
    await page.getByTestId('panel-tab-export').click();
    const exported = await downloadedScript(page);
    expect(exported).toMatch(/ADD INDEX `idx_orders_customer/);
    expect(exported).toContain(`ALTER INDEX \`${droppedName}\` IGNORED`);
    await page.getByTestId('panel-tab-indexes').click();
    await designed.getByTestId('index-set-reject').click();
    await expect(designed).toHaveAttribute('data-decision', 'rejected');
    await page.getByTestId('panel-tab-export').click();
    expect(await downloadedScript(page)).not.toMatch(/ADD INDEX `idx_orders_customer/);
  });
});
