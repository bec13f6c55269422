// e2e (offline): an opt-in rule (QRY001, SELECT *) is off until its checkbox in the Findings panel is ticked;
// ticking it analyzes again with the rule, unticking removes its finding again.
import { expect, test } from '@playwright/test';
import { openWorkbench, setEditorText, workOffline } from './helpers/workbench.js';

const ddl =
  'CREATE TABLE orders (id int NOT NULL, customer_id int NOT NULL, total decimal(10,2), PRIMARY KEY (id));';

test('the opt-in rule QRY001 runs only while its checkbox is ticked', async ({ page }) => {
  await openWorkbench(page);
  await workOffline(page, { flavor: 'MySQL', version: '8.0.33', schemaSql: ddl });
  await setEditorText(page, 'SELECT * FROM orders WHERE id = 7;');
  await page.getByTestId('analyze').click();
  await expect(page.getByTestId('findings-none')).toBeVisible();

  const toggle = page.locator('[data-testid="opt-in-rule"][data-rule="QRY001"]');
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  const finding = page.getByTestId('finding');
  await expect(finding).toHaveCount(1);
  await expect(finding.getByTestId('finding-rule')).toHaveText('QRY001');
  await expect(toggle).toBeChecked();

  await toggle.uncheck();
  await expect(page.getByTestId('findings-none')).toBeVisible();
});
