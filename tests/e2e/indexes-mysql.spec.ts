// e2e against MySQL 8.0.33: the Indexes panel — per query the Index plan (key parts and why, what it replaces,
// EXPLAIN before/after through what-if), per workload the Index set (benefit bars, accept into the export, reject
// takes it out again).
import { expect, test } from '@playwright/test';
import { ordersSeed, script } from '../support/seed.js';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

// 4,000 orders over 200 customers, 4 statuses (tests/support/seed.ts), with an index the design extends.
const setup = script(
  ordersSeed({
    extra: [{ definition: 'note VARCHAR(200)', value: 'NULL' }],
    keys: ['KEY idx_orders_customer (customer_id)'],
  }),
);

const workload = [
  '-- weight: 10',
  "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10;",
  '-- weight: 2',
  "SELECT id FROM orders WHERE customer_id = 7 AND status = 'open';",
].join('\n');

test.describe('Indexes panel (MySQL)', () => {
  const database = useScratchDatabase('e2e_indexes', setup);

  test('Index plan shows the designed key, why, what it replaces and EXPLAIN before/after; Index set accepts into the export and rejects out of it', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, { ...formFromUrl(mysqlTestUrl(), database), allowWhatIf: true });
    await setEditorText(page, workload);
    await analyzeWithShortcut(page);
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 12; index++) await page.keyboard.press('ArrowUp');

    // Index plan: statement 1 extends idx_orders_customer (a left prefix) to the one composite index.
    await page.getByTestId('panel-tab-indexes').click();
    const first = page.getByTestId('index-plan-statement').first();
    const table = first.getByTestId('index-plan-table');
    await expect(table).toHaveAttribute('data-verdict', 'extend');
    await expect(table.getByTestId('index-part')).toHaveText([
      /customer_id\s*equality/,
      /status\s*equality/,
      /created_at\s*ORDER BY/,
      /total\s*covers/,
    ]);
    await expect(table.getByTestId('index-plan-replaces')).toContainText('Replaces idx_orders_customer');
    await expect(table).toContainText('equality columns seek a single key prefix');

    // EXPLAIN before/after: the what-if builds it invisibly, measures, drops it; the result stays in the plan.
    await table.getByTestId('index-plan-explain').click();
    const whatIf = page.getByTestId('what-if-dialog');
    // An extension is tried next to the old index (…_whatif), so a what-if never drops the existing one.
    await expect(whatIf.getByTestId('what-if-step').filter({ hasText: 'ADD INDEX' })).toContainText(
      'idx_orders_customer_whatif',
    );
    await whatIf.getByTestId('what-if-run').click();
    await expect(whatIf.getByTestId('what-if-verdict')).toContainText('Improved on orders');
    await whatIf.getByRole('button', { name: 'Close' }).click();
    await expect(table.getByTestId('what-if-result')).toBeVisible();
    await expect(table.getByTestId('what-if-result')).toContainText('idx_orders_customer');
    await page.screenshot({ path: 'docs/screenshots/index-plan.png' });

    // Index set: one index serves both statements (merged by prefix), with its benefit bar.
    await page.getByTestId('index-set-design').click();
    await expect(page.getByTestId('index-set-summary')).toHaveText('1 index for 2 statements');
    const index = page.getByTestId('index-set-index');
    await expect(index).toContainText('serves #1, #2');
    await expect(index.getByTestId('index-part')).toHaveCount(4);
    await expect(page.getByTestId('index-set-query')).toHaveCount(2);
    await expect(page.getByTestId('index-set-query').nth(1)).toContainText('orders: idx_orders_customer');
    // Hygiene from the server's counters (performance_schema is on on MySQL): measured, with its window.
    await expect(page.getByTestId('index-set-unused')).toHaveAttribute('data-status', 'measured');
    await expect(page.getByTestId('index-set-unused')).toContainText('since the server started');
    await index.getByTestId('index-set-accept').click();
    await expect(index).toHaveAttribute('data-decision', 'accepted');
    await expect(index.getByText('in export')).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/index-set.png' });

    // Straight into the export: the same statement, included.
    await page.getByTestId('panel-tab-export').click();
    const item = page.locator('.export__item', { hasText: 'idx_orders_customer' });
    await expect(item.getByTestId('export-toggle')).toBeChecked();
    await expect(page.getByTestId('code-view')).toContainText('DROP INDEX `idx_orders_customer`');

    // Reject: out of the export again.
    await page.getByTestId('panel-tab-indexes').click();
    await page.getByTestId('index-set-index').getByTestId('index-set-reject').click();
    await expect(page.getByTestId('index-set-index')).toHaveAttribute('data-decision', 'rejected');
    await page.getByTestId('panel-tab-export').click();
    await expect(page.getByTestId('code-view')).not.toContainText('DROP INDEX `idx_orders_customer`');
  });
});
