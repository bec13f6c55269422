// e2e against MySQL 8.0.33 (issue 18 item 3): a generated column accepted into the export and applied from the app's
// Apply dialog; the export then regenerates against the server's schema, marks the item as applied and never emits
// the ADD again (re-emitting the existing column fails with ERROR 1060; the server keeps its own form of the
// expression, month(`created`), which the export compares with, not its own text).
// The whole script is read from its "Save as…" download (the Monaco view renders only the visible lines).
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

/** The whole export script, as the Save as… button downloads it. */
async function downloadedScript(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-save').click(),
  ]);
  const file = await download.path();
  return readFile(file, 'utf8');
}

/** The script without its comments: what would run. */
function sqlLines(script: string): string {
  return script
    .split('\n')
    .filter((line) => !/^\s*(--|$)/.test(line))
    .join('\n');
}

/** The finding whose flagged expression is `expression`, its suggestions shown. */
async function findingOf(page: Page, expression: string): Promise<Locator> {
  const finding = page
    .getByTestId('finding')
    .filter({ has: page.getByTestId('finding-expression').getByText(expression, { exact: true }) });
  await expect(finding).toHaveCount(1);
  const toggle = finding.locator('details.suggestions-toggle');
  if ((await toggle.getAttribute('open')) === null) await toggle.locator('summary').click();
  return finding;
}

test.describe('Export after Apply (MySQL)', () => {
  const database = useScratchDatabase(
    'e2e_applied',
    'CREATE TABLE orders (id INT PRIMARY KEY, total INT NOT NULL, created DATETIME NOT NULL); ' +
      "INSERT INTO orders VALUES (1, 10, '2024-10-01 10:00'), (2, 20, '2024-10-02 11:00'), (3, 30, '2023-10-03 12:00');",
  );

  async function columnsOfOrders(): Promise<Map<string, string>> {
    const admin = await mysql.createConnection(mysqlTestUrl().href);
    try {
      const [rows] = await admin.query<mysql.RowDataPacket[]>(
        'SELECT COLUMN_NAME AS name, GENERATION_EXPRESSION AS expression FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database, 'orders'],
      );
      return new Map(rows.map((row) => [String(row.name), String(row.expression ?? '')]));
    } finally {
      await admin.end();
    }
  }

  test('the applied generated column is marked applied and never emitted again', async ({ page }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));

    await setEditorText(page, 'SELECT id, total FROM orders WHERE MONTH(created) = 10;');
    await analyzeWithShortcut(page);
    const finding = await findingOf(page, 'MONTH(created)');
    const generated = finding.locator('[data-testid=suggestion][data-kind=generated-column]');
    await generated.getByTestId('accept').click();
    await expect(generated).toContainText('in export');

    // The script adds the column and its index; the item is not applied yet.
    await page.getByTestId('panel-tab-export').click();
    const item = page.locator('.export__item').filter({ hasText: 'generated-column' });
    await expect(item.getByTestId('export-toggle')).toBeChecked();
    await expect(item.getByTestId('export-item-applied')).toHaveCount(0);
    const before = await downloadedScript(page);
    const added = /ADD COLUMN `?(\w+)`?/.exec(before);
    expect(added, before).not.toBeNull();
    const column = added![1]!;
    // The same check that must find nothing after Apply finds the change now (canary).
    expect(sqlLines(before)).toMatch(/ALTER TABLE `?orders`?[\s\S]*ADD COLUMN[\s\S]*ADD INDEX/);
    expect((await columnsOfOrders()).has(column)).toBe(false);

    // Apply it from the app (the confirmation shows the statement).
    await page.getByTestId('export-apply').click();
    const confirm = page.getByTestId('apply-ddl-confirm');
    await expect(confirm.getByTestId('confirm-sql')).toContainText(`ADD COLUMN \`${column}\``);
    await confirm.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('ddl-applied')).toContainText('Applied on the server');
    // The server stores its own form of the expression (month(`created`)), not the text the export wrote.
    const stored = (await columnsOfOrders()).get(column);
    expect(stored).toBe('month(`created`)');

    // The export regenerated against the server's schema: the item is applied, the script adds nothing.
    await expect(item.getByTestId('export-item-applied')).toBeVisible();
    await expect(item.getByTestId('export-item-applied')).toHaveAttribute('title', /^already applied: /);
    const after = await downloadedScript(page);
    expect(sqlLines(after)).not.toMatch(/ALTER TABLE|ADD COLUMN|ADD INDEX/);
    expect(after).toMatch(/because already applied: /);
    await page.screenshot({ path: 'docs/screenshots/export-applied.png' });

    // Re-analysis and a fresh Export panel say the same (not a state the panel kept).
    await page.getByTestId('panel-tab-findings').click();
    await analyzeWithShortcut(page);
    await page.getByTestId('panel-tab-export').click();
    await expect(item.getByTestId('export-item-applied')).toBeVisible();
    const regenerated = await downloadedScript(page);
    expect(sqlLines(regenerated)).not.toMatch(/ALTER TABLE|ADD COLUMN|ADD INDEX/);
    expect(regenerated).toMatch(/because already applied: /);
  });
});
