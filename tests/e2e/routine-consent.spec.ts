// e2e against MySQL 8.0.33: an EXPLAIN refused because the statement calls a stored function offers the UI equivalent
// of the CLI's --allow-routines (issue 18 item 7): the hint names the button, and the button explains it.
import { expect, test } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

test.describe('stored functions in EXPLAIN', () => {
  const database = useScratchDatabase(
    'sargable_routine',
    `CREATE TABLE items (id INT PRIMARY KEY, price INT);
INSERT INTO items VALUES (1, 10), (2, 20), (3, 30);
CREATE FUNCTION half_of(x INT) RETURNS INT DETERMINISTIC NO SQL RETURN x DIV 2;`,
  );

  test('the refusal names the Plan panel button, and the button explains the statement', async ({ page }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await setEditorText(page, 'SELECT id FROM items WHERE price = half_of(40);');
    await page.keyboard.press('ControlOrMeta+E');
    const error = page.getByTestId('plan-error');
    await expect(error).toContainText('CONSENT_REQUIRED');
    await expect(error).toContainText('I trust these functions');
    await page.getByTestId('plan-allow-routines').click();
    // A confirmation names the function first (issue 20); only its confirm button explains.
    await expect(page.getByTestId('plan-routine-names')).toHaveText('half_of');
    await page.getByTestId('plan-allow-routines-confirm').click();
    const tables = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
    await expect(tables.first().getByTestId('plan-node-table')).toHaveText('items');
    await expect(page.getByTestId('plan-error')).toHaveCount(0);
  });
});
