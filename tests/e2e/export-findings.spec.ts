// e2e (offline, MySQL 8.0.33): "in export" badges follow their finding through edits and re-analysis; the functional
// index and the generated column of one finding are alternatives (accepting one replaces the other, in the panel and
// in the export); the Export panel offers the CLI's --split-online as "Columns first, then indexes"; the pt-osc
// variant is a bash script.
import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { analyzeWithShortcut, openWorkbench, setEditorText, workOffline } from './helpers/workbench.js';

const suffix = randomBytes(3).toString('hex');
const products = `prod_${suffix}`;
const orders = `ord_${suffix}`;
const schemaSql = `CREATE TABLE ${products} (id INT PRIMARY KEY, price DECIMAL(8,2), create_time DATETIME);
CREATE TABLE ${orders} (id INT PRIMARY KEY, total INT, created DATETIME);`;
const productsQuery = `SELECT AVG(price) FROM ${products} WHERE MONTH(create_time) = 10;`;
const ordersQuery = `SELECT id, total FROM ${orders} WHERE MONTH(created) = 3;`;

/** The finding whose flagged expression is `expression` (its suggestions shown). */
async function findingOf(page: Page, expression: string): Promise<Locator> {
  const finding = page
    .getByTestId('finding')
    .filter({ has: page.getByTestId('finding-expression').getByText(expression, { exact: true }) });
  await expect(finding).toHaveCount(1);
  const toggle = finding.locator('details.suggestions-toggle');
  if ((await toggle.getAttribute('open')) === null) await toggle.locator('summary').click();
  return finding;
}

function suggestion(finding: Locator, kind: string): Locator {
  return finding.locator(`[data-testid=suggestion][data-kind=${kind}]`);
}

test('badges follow their finding after an edit and re-analysis; alternatives replace each other; split online', async ({
  page,
}) => {
  await openWorkbench(page);
  await workOffline(page, { flavor: 'MySQL', version: '8.0.33', schemaSql });
  await setEditorText(page, `${productsQuery}\n${ordersQuery}`);
  await analyzeWithShortcut(page);

  // Accept the functional index of the second statement's finding.
  let ordersFinding = await findingOf(page, 'MONTH(created)');
  await suggestion(ordersFinding, 'functional-index').getByTestId('accept').click();
  await expect(suggestion(ordersFinding, 'functional-index')).toContainText('in export');

  // Edit: the two swapped and a new statement after them, so the accepted finding's position belongs to another
  // finding now (position keys would move the badge onto the products finding); analyse again.
  await setEditorText(
    page,
    `${ordersQuery}\n${productsQuery}\nSELECT id FROM ${orders} WHERE total + 1 = 5;`,
  );
  await analyzeWithShortcut(page);
  ordersFinding = await findingOf(page, 'MONTH(created)');
  const productsFinding = await findingOf(page, 'MONTH(create_time)');
  await expect(suggestion(ordersFinding, 'functional-index')).toContainText('in export');
  await expect(ordersFinding.getByText('in export', { exact: true })).toHaveCount(1);
  await expect(productsFinding.getByText('in export', { exact: true })).toHaveCount(0);
  for (const other of await page.getByTestId('finding').all()) {
    if ((await other.getByTestId('finding-expression').textContent()) === 'MONTH(created)') continue;
    await expect(other.getByText('in export', { exact: true })).toHaveCount(0);
  }

  // The generated column is the alternative: "Accept instead" replaces the functional index.
  const generated = suggestion(ordersFinding, 'generated-column');
  await expect(generated.getByTestId('accept')).toHaveText('Accept instead');
  await generated.getByTestId('accept').click();
  await expect(generated).toContainText('in export');
  await expect(suggestion(ordersFinding, 'functional-index')).not.toContainText('in export');
  await expect(suggestion(ordersFinding, 'functional-index').getByTestId('accept')).toHaveText(
    'Accept instead',
  );
  await suggestion(ordersFinding, 'functional-index').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'docs/screenshots/export-alternatives.png' });

  // The export holds one fix for the finding: the generated column in, the functional index out.
  await page.getByTestId('panel-tab-export').click();
  const table = page.getByTestId('export-table').filter({ has: page.locator('legend', { hasText: orders }) });
  const items = table.locator('.export__item');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'generated-column' }).getByTestId('export-toggle')).toBeChecked();
  await expect(items.filter({ hasText: 'functional-index' }).getByTestId('export-toggle')).not.toBeChecked();

  // The LOCK=SHARED warning names the panel's option, and the option splits the statement.
  const warning = page
    .locator('.export__warning')
    .filter({ hasText: 'Columns first, then indexes' })
    .filter({ hasText: orders });
  await expect(warning).toHaveCount(1);
  await page.getByTestId('export-split-online').check();
  await expect(warning).toHaveCount(0);
  // The split script's column statement is INSTANT and its index statement LOCK=NONE: no LOCK=SHARED warning is left
  // for the table (the offline workspace may hold other tables' changes, so the check is on this table's warning).
  await page.getByTestId('export-split-online').uncheck();
  await expect(warning).toHaveCount(1);
  await page.getByTestId('export-split-online').check();
  await expect(warning).toHaveCount(0);
  await page.screenshot({ path: 'docs/screenshots/export-split-online.png' });

  // The pt-online-schema-change variant is a bash script that dry-runs first (item 6).
  await page.getByLabel('Variant').selectOption('pt-osc');
  const code = page.getByTestId('code-view');
  await expect(code).toContainText('#!/usr/bin/env bash');
  await expect(code).toContainText('pt-online-schema-change --dry-run for every table');
  await page.screenshot({ path: 'docs/screenshots/export-pt-osc.png' });
  await page.getByLabel('Variant').selectOption('sql');

  // Toggling the functional index back on replaces the generated column in the export.
  await items.filter({ hasText: 'functional-index' }).getByTestId('export-toggle').click();
  await expect(items.filter({ hasText: 'functional-index' }).getByTestId('export-toggle')).toBeChecked();
  await expect(items.filter({ hasText: 'generated-column' }).getByTestId('export-toggle')).not.toBeChecked();
});
