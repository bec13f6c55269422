// e2e: connect the web UI to the MySQL 8.0.33 test server, analyze the seeds' query, see the finding and its marker.
import { expect, test } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  openWorkbench,
  setEditorText,
  squiggleLine,
  squiggles,
} from './helpers/workbench.js';

const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;';
const productsDdl =
  'CREATE TABLE products (id int unsigned NOT NULL AUTO_INCREMENT, description longtext, ' +
  'price decimal(8,2) DEFAULT NULL, create_time timestamp NULL DEFAULT NULL, PRIMARY KEY (id)) ' +
  'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4';

test.describe('analyze against MySQL 8.0.33', () => {
  const database = useScratchDatabase('sargable_e2e', productsDdl);

  test('connect with the form, Ctrl+Enter, finding in the panel and a marker in the editor', async ({
    page,
  }) => {
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await connectWithForm(page, {
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database,
    });
    await expect(page.getByTestId('status-connection')).toContainText(/MySQL 8\.0\.33/);
    await expect(page.getByTestId('status-connection')).not.toContainText('offline');
    await expect(page.getByTestId('readonly-badge')).toHaveText('read-only');

    await setEditorText(page, `-- The seeds' query: MONTH() hides create_time from any index.\n${seedQuery}`);
    await analyzeWithShortcut(page);

    const finding = page.getByTestId('finding');
    await expect(finding).toHaveCount(1);
    await expect(finding.getByTestId('finding-rule')).toHaveText('FUN001');
    await expect(finding.getByTestId('finding-target')).toHaveText('products.create_time');
    await expect(finding.getByTestId('finding-expression')).toHaveText('MONTH(create_time)');
    await expect(finding.getByTestId('finding-category')).toHaveText('function-wrapped-predicate');
    await expect(page.getByTestId('parse-error')).toHaveCount(0);

    // The marker: one warning squiggle on line 2, whose hover names the rule.
    const squiggle = squiggles(page, 'warning');
    await expect(squiggle).toHaveCount(1);
    expect(await squiggleLine(page, squiggle)).toBe(2);
    await squiggle.hover({ force: true });
    await expect(page.locator('.monaco-hover').filter({ hasText: 'FUN001:' })).toBeVisible();

    // Clicking the finding selects the flagged expression in the editor.
    await finding.getByRole('button', { name: /FUN001/ }).click();
    await expect(page.locator('.monaco-editor .selected-text')).toHaveCount(1);

    await page.mouse.move(0, 0);
    await squiggle.hover({ force: true });
    await expect(page.locator('.monaco-hover').filter({ hasText: 'FUN001:' })).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/analyze-mysql.png' });
  });

  test('connect with a DSN, then disconnect back to offline', async ({ page }) => {
    const url = mysqlTestUrl();
    url.pathname = `/${database}`;
    await openWorkbench(page);
    await page.getByTestId('open-connect').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByLabel('Connection URL').check();
    await dialog.getByLabel('DSN').fill(url.href);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('status-connection')).toContainText(`@${url.hostname}:${url.port}`);
    await expect(page.getByTestId('status-connection')).toContainText('MySQL 8.0.33');
    await page.getByTestId('disconnect').click();
    await expect(page.getByTestId('status-connection')).toHaveText('offline — MySQL 8.0.33');
  });

  test('a wrong password shows the server error in the dialog', async ({ page }) => {
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await page.getByTestId('open-connect').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByLabel('Host').fill(url.hostname);
    await dialog.getByLabel('Port').fill(url.port || '3306');
    await dialog.getByLabel('User').fill(decodeURIComponent(url.username));
    await dialog.getByLabel('Password').fill('definitely-not-the-password');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    const error = dialog.getByTestId('connection-error');
    await expect(error).toContainText('AUTH_FAILED');
    await expect(error).toContainText('1045');
    await expect(dialog).toBeVisible();
  });
});
