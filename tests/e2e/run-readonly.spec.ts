// e2e: Run (read-only) — the statement at the cursor runs on MySQL and its rows show in the grid as
// text; a statement with side effects is refused and says why; the row and time limits are the panel's
// controls, Ctrl/Cmd+Enter in the panel runs, Cancel stops our own running query (issue 18 item 15).
import { expect, test } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

test.describe('Run (read-only) against MySQL', () => {
  const database = useScratchDatabase(
    'sargable_e2e_run',
    "CREATE TABLE items (id int PRIMARY KEY, label varchar(20), raw varbinary(2)); INSERT INTO items VALUES (1, 'one', 0x0A0B), (2, '<b>two</b>', NULL), (3, 'three', 0xFF00); " +
      'CREATE TABLE nums (n int PRIMARY KEY, name varchar(20)); ' +
      "INSERT INTO nums WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 400) SELECT n, CONCAT('name ', n) FROM seq;",
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

  /** A query that runs for minutes (400⁴ rows) unless stopped; `marker` finds it in the processlist. */
  const slow = (marker: string) =>
    `SELECT MAX(CONCAT(a.name, b.name, c.name, d.name)) AS ${marker} FROM nums a, nums b, nums c, nums d`;

  async function runningOnServer(marker: string): Promise<number> {
    const admin = await mysql.createConnection(mysqlTestUrl().href);
    try {
      const [rows] = await admin.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
        [`%${marker}%`],
      );
      return Number(rows[0]?.n);
    } finally {
      await admin.end();
    }
  }

  test('row and time limits are the panel’s controls; Ctrl/Cmd+Enter in the panel runs; Cancel stops our query on the server', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-run').click();
    const rowLimit = page.getByTestId('run-row-limit');
    const timeLimit = page.getByTestId('run-time-limit');
    await expect(rowLimit).toHaveValue('1000');
    await expect(timeLimit).toHaveValue('10');

    // Row limit 2, run with Ctrl/Cmd+Enter from the panel: two rows, and the summary says more exist. The
    // statement has a finding (arithmetic on the column), so an analysis would show a count on Findings.
    await setEditorText(page, 'SELECT n FROM nums WHERE n + 1 > 1 ORDER BY n');
    await rowLimit.fill('2');
    await rowLimit.press('ControlOrMeta+Enter');
    await expect(page.getByTestId('run-grid').locator('tbody tr')).toHaveCount(2);
    await expect(page.getByTestId('run-summary')).toContainText('First 2 rows');
    // The shortcut ran the query, not an analysis (canary: in the editor the same keys analyse).
    await expect(page.getByTestId('findings-count')).toHaveCount(0);
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(page.getByTestId('findings-count')).toBeVisible();
    await page.getByTestId('panel-tab-run').click();

    // A limit out of range is refused in the panel: Run is disabled and says why.
    await rowLimit.fill('0');
    await expect(page.getByTestId('run-limit-problem')).toContainText('Row limit');
    await expect(page.getByTestId('run-readonly')).toBeDisabled();
    await rowLimit.fill('1000');
    await expect(page.getByTestId('run-limit-problem')).toHaveCount(0);

    // Time limit 1 s: the server stops the slow query.
    await setEditorText(page, slow('e2e_timed'));
    await timeLimit.fill('1');
    const timed = Date.now();
    await page.getByTestId('run-readonly').click();
    await expect(page.getByTestId('run-error')).toContainText('Stopped after 1 s', { timeout: 10_000 });
    expect(Date.now() - timed).toBeLessThan(8000);

    // Cancel: a 60 s limit, the query runs on the server until Cancel stops it there.
    await timeLimit.fill('60');
    await setEditorText(page, slow('e2e_cancelled'));
    await page.getByTestId('run-readonly').click();
    await expect(page.getByTestId('run-cancel')).toBeVisible();
    await expect.poll(() => runningOnServer('e2e_cancelled')).toBe(1);
    await page.screenshot({ path: 'docs/screenshots/run-cancel.png' });
    const cancelled = Date.now();
    await page.getByTestId('run-cancel').click();
    // A third of the 60 s limit an uncancelled query runs for (a loaded machine needs seconds).
    await expect(page.getByTestId('run-error')).toContainText('Cancelled', { timeout: 20_000 });
    expect(Date.now() - cancelled).toBeLessThan(20_000);
    await expect(page.getByTestId('run-cancel')).toHaveCount(0);
    await expect.poll(() => runningOnServer('e2e_cancelled')).toBe(0);
  });
});
