// e2e: SQL completion in the editor from the connected MySQL 8.0.33 schema (tables after FROM, columns after an alias) and offline DDL.
import { expect, test, type Page } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import {
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
  workOffline,
} from './helpers/workbench.js';

/** The suggest widget and its rows. */
function suggestions(page: Page) {
  return page.locator('.monaco-editor .suggest-widget .monaco-list-row');
}

/** The editor's text as displayed (Monaco renders spaces as no-break spaces). */
async function editorText(page: Page): Promise<string> {
  return (await page.locator('.monaco-editor .view-lines').innerText()).replace(/\u00a0/g, ' ');
}

test.describe('SQL completion', () => {
  const database = useScratchDatabase(
    'sargable_completion',
    `CREATE TABLE products (id int unsigned NOT NULL AUTO_INCREMENT, description longtext,
price decimal(8,2) DEFAULT NULL, create_time timestamp NULL DEFAULT NULL, PRIMARY KEY (id));
CREATE TABLE product (p_id int NOT NULL AUTO_INCREMENT, p_name varchar(255) DEFAULT NULL,
p_cost decimal(19,4) NOT NULL, PRIMARY KEY (p_id));`,
  );

  test('connected: tables after FROM, the alias columns after "p.", accepted with Enter', async ({
    page,
  }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));

    // After FROM: the server's tables, filtered by the typed prefix.
    await setEditorText(page, '');
    await page.keyboard.type('SELECT * FROM prod');
    const rows = suggestions(page);
    // The first request waits for the schema outline; if Monaco's quick suggestions gave up meanwhile
    // (seen once in CI), ask explicitly as a user would (Ctrl+Space).
    await rows
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => page.keyboard.press('Control+Space'));
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasText: /^products/ })).toHaveCount(1);
    await expect(rows.filter({ hasText: /^product(?!s)/ })).toHaveCount(1);
    await page.keyboard.press('Escape');

    // After the alias: that table's columns with their types; accept one.
    await setEditorText(page, 'SELECT * FROM products p WHERE ');
    await page.keyboard.type('p.');
    await expect(rows).toHaveCount(4);
    await expect(rows.first()).toContainText('int unsigned');
    await page.screenshot({ path: 'docs/screenshots/completion.png' });
    await page.keyboard.type('cr');
    const column = rows.filter({ hasText: 'create_time' });
    await expect(column).toHaveCount(1);
    await expect(column).toContainText('timestamp');
    await page.keyboard.press('Enter');
    await expect(page.locator('.monaco-editor .suggest-widget.visible')).toHaveCount(0);
    await expect.poll(() => editorText(page)).toBe('SELECT * FROM products p WHERE p.create_time');

    // Before any table is named: the default database's columns; Tab accepts too.
    await setEditorText(page, 'SELECT ');
    await page.keyboard.type('p_n');
    await expect(rows.filter({ hasText: 'p_name' })).toHaveCount(1);
    await page.keyboard.press('Tab');
    await expect.poll(() => editorText(page)).toBe('SELECT p_name');
  });

  test('offline: completes from the pasted CREATE TABLE statements', async ({ page }) => {
    await openWorkbench(page);
    await workOffline(page, {
      flavor: 'MySQL',
      version: '8.0.33',
      schemaSql: 'CREATE TABLE events_t (id INT PRIMARY KEY, created_at DATETIME, kind VARCHAR(20));',
    });
    await setEditorText(page, 'SELECT * FROM ');
    await page.keyboard.type('ev');
    await expect(suggestions(page).filter({ hasText: 'events_t' })).toHaveCount(1);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' e WHERE e.cre');
    await expect(suggestions(page).filter({ hasText: 'created_at' })).toContainText('datetime');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toBe('SELECT * FROM events_t e WHERE e.created_at');
  });
});
