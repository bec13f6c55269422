// e2e: Run (read-only) — the statement at the cursor runs on MySQL and its rows show in the grid as
// text; a statement with side effects is refused and says why (issue 18 item 15).
import { expect, test } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

test.describe('Run (read-only) against MySQL', () => {
  const database = useScratchDatabase(
    'sargable_e2e_run',
    "CREATE TABLE items (id int PRIMARY KEY, label varchar(20), raw varbinary(2)); INSERT INTO items VALUES (1, 'one', 0x0A0B), (2, '<b>two</b>', NULL), (3, 'three', 0xFF00);",
  );

  test('runs the SELECT at the cursor and shows its grid; a GET_LOCK select is refused with the reason', async ({
    page,
  }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-run').click();
    await setEditorText(page, 'SELECT 1;\nSELECT id, label, raw FROM items ORDER BY id');
    await page.getByTestId('run-readonly').click();

    const grid = page.getByTestId('run-grid');
    await expect(grid).toBeVisible();
    await expect(grid.locator('thead th')).toHaveText(['id', 'label', 'raw']);
    const rows = grid.locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0).locator('td')).toHaveText(['1', 'one', '0x0A0B']);
    // Markup in a value is text, never HTML.
    await expect(rows.nth(1).locator('td')).toHaveText(['2', '<b>two</b>', 'NULL']);
    await expect(grid.locator('b')).toHaveCount(0);
    await expect(page.getByTestId('run-summary')).toContainText('3 rows in');

    await setEditorText(page, "SELECT GET_LOCK('sargable_e2e_run', 0)");
    await page.getByTestId('run-readonly').click();
    await expect(page.getByTestId('run-error')).toContainText('Not run');
    await expect(page.getByTestId('run-error')).toContainText('GET_LOCK');
    await expect(grid).toHaveCount(0);
  });
});
