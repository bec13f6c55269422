// e2e: offline analysis with a CREATE TABLE schema, and malformed SQL shown as an error entry and marker.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import {
  analyzeWithShortcut,
  openWorkbench,
  setEditorText,
  squiggleLine,
  squiggles,
  workOffline,
} from './helpers/workbench.js';

const productsDdl = `CREATE TABLE products (
  id int unsigned NOT NULL AUTO_INCREMENT,
  description longtext,
  price decimal(8,2) DEFAULT NULL,
  create_time timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`;

test('work offline with a schema: the seed query gets the finding and copyable DDL', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openWorkbench(page);
  await expect(page.getByTestId('findings-empty')).toContainText('to analyze');
  await workOffline(page, { flavor: 'MySQL', version: '8.0.33', schemaSql: productsDdl });
  await expect(page.getByTestId('status-connection')).toHaveText('offline — MySQL 8.0.33');
  await expect(page.getByTestId('status-bar')).toContainText('1 table');

  await setEditorText(page, 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;');
  await page.getByTestId('analyze').click();

  const finding = page.getByTestId('finding');
  await expect(finding).toHaveCount(1);
  await expect(finding.getByTestId('finding-rule')).toHaveText('FUN001');
  await expect(finding.getByTestId('finding-target')).toHaveText('products.create_time');
  await expect(finding.getByTestId('finding-expression')).toHaveText('MONTH(create_time)');
  await expect(squiggles(page, 'warning')).toHaveCount(1);

  // With the schema known, a suggestion carries DDL; Copy puts exactly that text on the clipboard.
  const ddl = finding
    .getByTestId('suggestion')
    .getByTestId('code-block')
    .filter({ hasText: 'ALTER TABLE' })
    .first();
  await expect(ddl).toContainText('create_time');
  const ddlText = await ddl.textContent();
  await ddl.locator('xpath=ancestor::figure').getByRole('button', { name: /^Copy/ }).click();
  await expect(ddl.locator('xpath=ancestor::figure').getByRole('button', { name: /^Copy/ })).toHaveText(
    'Copied',
  );
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ddlText);

  // Editing the flagged text drops its marker and says the report is out of date.
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('\n');
  await expect(squiggles(page, 'warning')).toHaveCount(1);
  await setEditorText(page, 'SELECT AVG(price) FROM products WHERE create_time >= NOW();');
  await expect(squiggles(page, 'warning')).toHaveCount(0);
  await expect(page.getByText('The SQL changed since this analysis')).toBeVisible();
});

test('malformed SQL: an error entry at its position, a marker there, and the other statements still analyzed', async ({
  page,
}) => {
  await openWorkbench(page);
  await setEditorText(
    page,
    [
      'SELECT id FROM products WHERE id = 1;',
      'SELECT FROM WHERE products;',
      'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;',
    ].join('\n'),
  );
  await analyzeWithShortcut(page);

  const error = page.getByTestId('parse-error');
  await expect(error).toHaveCount(1);
  await expect(error).toContainText(/Ln 2, Col \d+/);
  await expect(page.getByTestId('finding')).toHaveCount(1);
  await expect(page.getByTestId('finding').getByTestId('finding-rule')).toHaveText('FUN001');

  const errorSquiggle = squiggles(page, 'error');
  await expect(errorSquiggle).toHaveCount(1);
  expect(await squiggleLine(page, errorSquiggle)).toBe(2);
  expect(await squiggleLine(page, squiggles(page, 'warning'))).toBe(3);

  // Clicking the entry puts the cursor on the error's line.
  await error.getByRole('button').click();
  await expect(page.getByTestId('status-bar')).toContainText(/Ln 2, Col/);
});

test('keyboard: the dialog starts in Host and Escape closes it; arrows move between findings', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByTestId('open-connect').click();
  const dialog = page.getByTestId('connection-dialog');
  await expect(dialog.getByLabel('Host')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await setEditorText(
    page,
    'SELECT id FROM products WHERE MONTH(create_time) = 10;\nSELECT id FROM products WHERE YEAR(create_time) = 2024;',
  );
  await analyzeWithShortcut(page);
  const rows = page.getByTestId('finding').getByRole('button', { name: /FUN001/ });
  await expect(rows).toHaveCount(2);
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('status-bar')).toContainText(/Ln 2, Col/);
});

test('a pasted schema dump says what it loaded and what it skipped', async ({ page }) => {
  // The sakila-like schema (comments before every table: the form that once loaded 0 of 16 tables)
  // plus a statement the loader must skip and report.
  const sakila = readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/schemas/source/sakila-like.sql'),
    'utf8',
  );
  await openWorkbench(page);
  await workOffline(page, {
    flavor: 'MySQL',
    version: '8.0.33',
    schemaSql: `${sakila}\nCREATE TABLE broken (id INT,, x INT);\n`,
  });
  const schema = page.getByTestId('status-schema');
  await expect(schema).toHaveText('16 tables, 4 views, skipped 1');
  await expect(schema).toHaveAttribute('title', /CREATE TABLE broken: an empty element in the column list/);
});
