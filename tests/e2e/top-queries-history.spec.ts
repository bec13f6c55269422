// e2e (issue 21, 1280×800, MySQL 8.0.33): two live windows go to the capture history; Top queries shows the repeating class's trend over both and marks the class that is new in the second.
import { expect, test, type Page } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench } from './helpers/workbench.js';

test.describe('capture history against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_hist',
    `CREATE TABLE hist_repeat (id INT PRIMARY KEY AUTO_INCREMENT, note VARCHAR(40));
CREATE TABLE hist_fresh (id INT PRIMARY KEY AUTO_INCREMENT, amount INT);
INSERT INTO hist_repeat (note) VALUES ('a'), ('b'), ('r');
INSERT INTO hist_fresh (amount) VALUES (1), (2), (3);`,
  );

  /** Runs `statements` in turn, `times` times, from another session. */
  async function run(statements: string[], times: number): Promise<void> {
    const connection = await mysql.createConnection({ uri: mysqlTestUrl().href, database });
    try {
      for (let i = 0; i < times; i++) for (const sql of statements) await connection.query(sql);
    } finally {
      await connection.end();
    }
  }

  /** One live window: start, run the statements while it captures, wait for its end. */
  async function captureWindow(page: Page, statements: string[]): Promise<void> {
    await page.getByTestId('top-start').click();
    // The window's first snapshot is taken once its head shows: everything after it is counted.
    await expect(page.getByTestId('top-window-info')).toContainText('Live window from');
    await run(statements, 25);
    await expect(page.getByTestId('top-live-state')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('top-window-info')).toContainText('Window from');
  }

  const repeating = "SELECT * FROM hist_repeat WHERE note = 'r'";
  const fresh = 'SELECT amount FROM hist_fresh WHERE id = 2';

  test('two windows: 2 points for the class that ran in both, "new" for the one that ran only in the second, its history in the details', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-top').click();

    // The settings: samples from production profiles are placeholders only by default. Start from
    // an empty history (other specs of this run stored windows of the same server).
    await page.getByTestId('top-history-settings').click();
    const settings = page.getByTestId('history-settings');
    await expect(settings.getByTestId('history-samples-production')).toHaveValue('placeholders');
    await expect(settings.getByTestId('history-enabled')).toBeChecked();
    await settings.getByTestId('history-clear').click();
    await settings.getByTestId('history-clear-confirm').click();
    await expect(settings.getByTestId('history-settings-note')).toContainText(/^Cleared \d+ windows?\.$/);
    await settings.getByTestId('history-close').click();

    await page.getByTestId('top-source-digests').check();
    await page.getByTestId('top-window').fill('3');

    // Window 1: only the repeating statement. It is the first stored window: no trend to show yet.
    await captureWindow(page, [repeating]);
    await expect(page.getByTestId('top-history-note')).toContainText('first stored window');
    await expect(page.getByTestId('top-col-trend')).toHaveCount(0);

    // Window 2: the repeating statement again, and one that never ran before.
    await captureWindow(page, [repeating, fresh]);
    await expect(page.getByTestId('top-history-note')).toContainText('over the last 2 windows');
    await expect(page.getByTestId('top-col-trend')).toBeVisible();

    await page.getByTestId('top-filter').fill('hist_');
    const repeatRow = page.getByTestId('top-class').filter({ hasText: 'hist_repeat' });
    const freshRow = page.getByTestId('top-class').filter({ hasText: 'hist_fresh' });
    await expect(repeatRow).toHaveCount(1);
    await expect(freshRow).toHaveCount(1);
    // The repeating class: a point in each window, for count and for time; it is not new.
    await expect(repeatRow.getByTestId('top-trend')).toHaveAttribute('data-points', '2');
    await expect(repeatRow.getByTestId('top-spark-count').locator('circle')).toHaveCount(2);
    await expect(repeatRow.getByTestId('top-spark-time').locator('circle')).toHaveCount(2);
    await expect(repeatRow.getByTestId('top-marker-new')).toHaveCount(0);
    // The other ran only in window 2: new, one point.
    await expect(freshRow.getByTestId('top-marker-new')).toHaveText('new');
    await expect(freshRow.getByTestId('top-trend')).toHaveAttribute('data-points', '1');
    // The Trend cell fits its column at 1280×800 (nothing cut).
    for (const row of [repeatRow, freshRow]) {
      const cell = await row.getByTestId('top-trend').evaluate((trend) => {
        const td = trend.closest('td')!;
        return { overflow: td.scrollWidth - td.clientWidth, height: td.getBoundingClientRect().height };
      });
      expect(cell.overflow).toBeLessThanOrEqual(0);
      expect(cell.height).toBeLessThanOrEqual(30);
    }

    // The details of the repeating class: its two windows with count, total, 95th and max.
    await repeatRow.click();
    const history = page.getByTestId('top-class-history');
    await expect(history.getByTestId('top-class-history-row')).toHaveCount(2);
    const counts = await history
      .getByTestId('top-class-history-row')
      .evaluateAll((rows) => rows.map((row) => Number(row.querySelectorAll('td')[1]?.textContent)));
    // Each window ran it 25 times (the capture counts every execution).
    expect(counts).toEqual([25, 25]);
    // A taller panel for the screenshot: both classes and the details' history in view.
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let i = 0; i < 8; i++) await splitter.press('ArrowUp');
    await history.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/top-queries-history.png' });
  });
});
