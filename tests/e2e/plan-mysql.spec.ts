// e2e against MySQL 8.0.33: the plan tree of a join (screenshot), its link to a finding, EXPLAIN ANALYZE consent, what-if Verify.
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

const joinQuery = `SELECT p.id, p.price, pr.p_name
FROM products p JOIN product pr ON pr.p_cost = p.price
WHERE MONTH(p.create_time) = 10
ORDER BY p.price DESC;`;

test.describe('Plan panel against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_plan',
    `CREATE TABLE products (id int unsigned NOT NULL AUTO_INCREMENT, description longtext,
price decimal(8,2) DEFAULT NULL, create_time timestamp NULL DEFAULT NULL, PRIMARY KEY (id))
ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE product (p_id int NOT NULL AUTO_INCREMENT, p_name varchar(255) DEFAULT NULL,
p_cost decimal(19,4) NOT NULL, p_availability enum('YES','NO') DEFAULT 'NO',
PRIMARY KEY (p_id), KEY p_cost (p_cost), KEY p_name (p_name)) ENGINE=InnoDB;
INSERT INTO product VALUES (1,'Item1',10,'YES'),(2,'Item2',20,'YES'),(3,'Item3',30,'YES'),(5,'Item5',50,'YES');
SET SESSION cte_max_recursion_depth = 5000;
INSERT INTO products (price, create_time)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
SELECT (i % 60) + 1, TIMESTAMP('2019-01-01') + INTERVAL i * 2 HOUR FROM n;
ANALYZE TABLE products, product;`,
  );

  test('Ctrl+E renders the join as a plan tree; the full scan links to FUN001; ANALYZE asks first; Verify compares plans', async ({
    page,
  }) => {
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await connectWithForm(page, { ...formFromUrl(url, database), allowWhatIf: true });
    await expect(page.getByTestId('what-if-badge')).toBeVisible();

    await setEditorText(page, joinQuery);
    await page.keyboard.press('ControlOrMeta+E');
    const tree = page.getByTestId('plan-tree');
    await expect(tree).toBeVisible();
    const tables = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
    await expect(tables).toHaveCount(2);
    const scan = tables.filter({ has: page.getByTestId('plan-node-table').getByText('p', { exact: true }) });
    await expect(scan.getByTestId('plan-node-access')).toHaveText('ALL');
    await expect(scan).toHaveAttribute('data-tone', 'bad');
    await expect(scan.getByTestId('plan-flag').first()).toHaveText('full-scan');
    await expect(scan.getByTestId('plan-node-condition')).toContainText('month');
    await expect(scan.getByTestId('plan-node-finding')).toContainText('FUN001');
    await expect(page.getByTestId('plan-node').filter({ hasText: 'filesort' }).first()).toBeVisible();
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 8; index++) await page.keyboard.press('ArrowUp');
    await page.getByRole('button', { name: 'Expand all' }).click();
    await page.screenshot({ path: 'docs/screenshots/plan-tree.png' });

    // Collapse the root: its children disappear; expand again.
    const rootToggle = page.getByTestId('plan-node').first().getByRole('button', { name: 'Collapse' });
    await rootToggle.click();
    await expect(tables).toHaveCount(0);
    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect(tables).toHaveCount(2);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect(page.getByTestId('plan-zoom')).toHaveText('90%');
    await page.getByTestId('plan-view-raw').click();
    await expect(page.getByTestId('plan-raw')).toContainText('query_block');
    await page.getByTestId('plan-view-tree').click();

    // The link opens the finding that explains the scan.
    await scan.getByTestId('plan-node-finding').click();
    await expect(page.locator('[data-testid=finding].is-selected [data-testid=finding-rule]')).toHaveText(
      'FUN001',
    );

    // EXPLAIN ANALYZE executes the query: never without the confirmation, which says so.
    await page.getByTestId('panel-tab-plan').click();
    await page.getByTestId('plan-analyze').click();
    const confirm = page.getByTestId('analyze-confirm');
    await expect(confirm).toContainText('executes the query');
    await expect(confirm.getByTestId('confirm-sql')).toContainText('JOIN product');
    await confirm.getByRole('button', { name: 'Execute and measure' }).click();
    await expect(page.getByTestId('plan-node-actual').first()).toBeVisible();

    // What-if: the functional index suggestion, verified with an invisible index.
    await setEditorText(page, 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;');
    await page.keyboard.press('ControlOrMeta+Enter');
    const suggestion = page
      .getByTestId('suggestion')
      .filter({ has: page.locator('[data-kind=functional-index]') })
      .or(page.locator('[data-testid=suggestion][data-kind=functional-index]'));
    await suggestion.first().getByTestId('verify').click();
    const whatIf = page.getByTestId('what-if-dialog');
    await expect(whatIf.getByTestId('what-if-size')).toContainText('rows');
    // Every statement it sends is listed before it runs, in order (issue 18 item 2).
    const steps = whatIf.getByTestId('what-if-step');
    await expect(steps.first()).toContainText('SET SESSION lock_wait_timeout = 5');
    await expect(steps.filter({ hasText: 'ADD INDEX' })).toContainText(/INVISIBLE/);
    await expect(steps.filter({ hasText: 'ANALYZE TABLE `products`' })).toHaveCount(1);
    await expect(steps.filter({ hasText: 'use_invisible_indexes=on' })).toHaveCount(1);
    await expect(steps.last()).toContainText(
      /ALTER TABLE `products` DROP INDEX `idx_products_month_create_time`/,
    );
    await page.screenshot({ path: 'docs/screenshots/what-if-confirm.png' });
    await whatIf.getByTestId('what-if-run').click();
    // The verdict names the table and the numbers that decided it.
    await expect(whatIf.getByTestId('what-if-verdict')).toContainText(
      /Improved on products: .*rows examined/,
    );
    await page.screenshot({ path: 'docs/screenshots/what-if-result.png' });
    await whatIf.getByRole('button', { name: 'Close' }).click();
    await expect(suggestion.first().getByTestId('suggestion-verified')).toContainText('verified: improved');

    // The measured plans are kept in the workspace: listed (not yet included) in Export, and in the
    // script once accepted.
    await page.getByTestId('panel-tab-export').click();
    // A taller panel, so the script's verification lines are on screen (Monaco renders visible lines only).
    await splitter.focus();
    for (let index = 0; index < 12; index++) await page.keyboard.press('ArrowUp');
    const verifiedItem = page.locator('.export__item', { has: page.getByTestId('export-verified') });
    await expect(verifiedItem.getByTestId('export-verified')).toContainText('verified: improved');
    await expect(verifiedItem.getByTestId('export-toggle')).not.toBeChecked();
    await verifiedItem.getByTestId('export-toggle').click();
    await expect(verifiedItem.getByTestId('export-toggle')).toBeChecked();
    await expect(page.getByTestId('code-view')).toContainText('EXPLAIN before: products type=ALL');
    await expect(page.getByTestId('code-view')).toContainText(
      'EXPLAIN after:  products type=ref key=idx_products_month_create_time',
    );
    await page.getByTestId('panel-tab-findings').click();

    // No index left behind.
    const admin = await mysql.createConnection(mysqlTestUrl().href);
    try {
      const [rows] = await admin.query(`SHOW CREATE TABLE \`${database}\`.products`);
      expect(JSON.stringify(rows)).not.toContain('idx_products');
    } finally {
      await admin.end();
    }
  });
  test('placeholders (?) get values before EXPLAIN; the editor keeps the filled statement', async ({
    page,
  }) => {
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(url, database));
    await setEditorText(page, "SELECT id FROM products WHERE price > ? AND description <> '?';");
    await page.keyboard.press('ControlOrMeta+e');
    const fill = page.getByTestId('placeholders-dialog');
    await expect(fill.getByTestId('placeholder-value')).toHaveCount(1); // the quoted '?' is a string, not a placeholder
    await fill.getByTestId('placeholder-value').fill('50');
    await fill.getByTestId('placeholders-submit').click();
    await expect(fill).toHaveCount(0);
    await expect(page.locator('.monaco-editor .view-lines')).toContainText(
      "price > 50 AND description <> '?'",
    );
    const scan = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
    await expect(scan.first().getByTestId('plan-node-access')).toHaveText('ALL');
  });
});
