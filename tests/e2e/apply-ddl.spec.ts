// e2e against MySQL 8.0.33: Apply DDL from a suggestion (confirmation with the exact SQL, Cancel applies nothing, Apply creates the index) and from the Export script.
import { expect, test } from '@playwright/test';
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

test.describe('Apply DDL (MySQL)', () => {
  const database = useScratchDatabase(
    'e2e_apply',
    'CREATE TABLE products (id INT PRIMARY KEY, price DECIMAL(8,2) NOT NULL, create_time DATETIME NOT NULL); ' +
      "INSERT INTO products VALUES (1, 10, '2024-10-01'), (2, 20, '2024-11-02'), (3, 30, '2023-10-03');",
  );

  async function indexes(): Promise<string[]> {
    const admin = await mysql.createConnection(mysqlTestUrl().href);
    try {
      const [rows] = await admin.query<mysql.RowDataPacket[]>(
        'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database, 'products'],
      );
      return rows.map((row) => String(row.name)).sort();
    } finally {
      await admin.end();
    }
  }

  test('a suggestion: the confirmation shows the exact SQL, Cancel applies nothing, Apply creates the index; the Export script applies too', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));

    await setEditorText(page, 'SELECT id FROM products WHERE MONTH(create_time) = 10;');
    await analyzeWithShortcut(page);
    const suggestion = page
      .getByTestId('finding')
      .filter({ hasText: 'FUN001' })
      .getByTestId('suggestion')
      .filter({ has: page.getByTestId('apply-ddl') })
      .first();
    const ddl = (await suggestion.getByTestId('code-block').first().innerText()).trim();
    expect(ddl).toMatch(/^ALTER TABLE .*ADD INDEX `?(\w+)`?/);
    const indexName = /ADD INDEX `?(\w+)`?/.exec(ddl)![1]!;

    // Cancel: the dialog showed the exact statement, nothing reached the server.
    await suggestion.getByTestId('apply-ddl').click();
    const confirm = page.getByTestId('apply-ddl-confirm');
    await expect(confirm.getByTestId('confirm-sql')).toHaveText(`${ddl.replace(/;\s*$/, '')};`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(suggestion.getByTestId('ddl-applied')).toHaveCount(0);
    expect(await indexes()).toEqual(['PRIMARY']);

    // Apply: the index exists and the suggestion says so.
    await suggestion.getByTestId('apply-ddl').click();
    await expect(confirm.getByTestId('confirm-sql')).toHaveText(`${ddl.replace(/;\s*$/, '')};`);
    await page.screenshot({ path: 'docs/screenshots/apply-ddl.png' });
    await confirm.getByTestId('confirm-ok').click();
    await expect(suggestion.getByTestId('ddl-applied')).toContainText('Applied on the server: 1 statement');
    expect(await indexes()).toEqual(['PRIMARY', indexName].sort());

    // The Export script: accept an index for another predicate and apply the script.
    await setEditorText(page, "SELECT id FROM products WHERE DATE(create_time) = '2024-10-01';");
    await analyzeWithShortcut(page);
    const finding = page.getByTestId('finding').filter({ hasText: 'FUN001' });
    await finding.getByTestId('accept').first().click();
    await expect(finding.getByText('in export')).toBeVisible();
    await page.getByTestId('panel-tab-export').click();
    await expect(page.getByTestId('code-view')).toContainText('-- Table products');
    await page.getByTestId('export-apply').click();
    const sql = await confirm.getByTestId('confirm-sql').innerText();
    expect(sql).toMatch(/^ALTER TABLE `?products`?\s+ADD INDEX `?(\w+)`?/);
    await confirm.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('ddl-applied')).toContainText('Applied on the server');
    const scriptIndex = /ADD INDEX `?(\w+)`?/.exec(sql)![1]!;
    expect(await indexes()).toEqual(['PRIMARY', indexName, scriptIndex].sort());
  });
});
