// e2e: the Modes panel's upgrade view over captured classes — a lax-mode workload runs on MySQL 8.0.33, is captured from performance_schema and checked against the MySQL 8.0 defaults.
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench } from './helpers/workbench.js';

// The seeds' events_t: event_date is NOT NULL without a default.
const eventsDdl =
  'CREATE TABLE events_t (id int NOT NULL AUTO_INCREMENT, event_date datetime NOT NULL, ' +
  'profile_id int DEFAULT NULL, PRIMARY KEY (id))';

/** An application that still runs with an empty (MySQL 5.6-like) sql_mode: every statement succeeds. */
const workload: [sql: string, times: number][] = [
  ['INSERT INTO events_t (profile_id) VALUES (1)', 3],
  ['SELECT profile_id, event_date FROM events_t GROUP BY profile_id', 2],
  ['SELECT id, profile_id FROM events_t WHERE id = 1', 4],
];

test.describe('Modes panel against MySQL 8.0.33', () => {
  const database = useScratchDatabase('sargable_e2e_modes', eventsDdl);

  test('upgrade view over captured classes: capture, run a lax workload, see what fails under the 8.0 defaults, per class with its count', async ({
    page,
  }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-modes').click();

    await page.getByTestId('modes-source').selectOption('digest');
    await expect(page.getByTestId('modes-upgrade-run')).toBeDisabled();
    await page.getByTestId('modes-capture-start').click();
    await expect(page.getByTestId('modes-capture-state')).toContainText('Capturing since');

    // The application runs its workload on its own connection, with its lax sql_mode: nothing fails today.
    const app = await mysql.createConnection(`${mysqlTestUrl().href.replace(/\/$/, '')}/${database}`);
    try {
      await app.query("SET SESSION sql_mode = ''");
      for (const [sql, times] of workload) for (let run = 0; run < times; run++) await app.query(sql);
    } finally {
      await app.end();
    }

    await page.getByTestId('modes-upgrade-run').click();
    const summary = page.getByTestId('modes-upgrade-summary');
    await expect(summary).toContainText('performance_schema');
    await expect(summary).toContainText('4 classes (10 executions)');
    await expect(summary).toContainText('2 classes (5 executions) would fail');
    await expect(summary).toContainText('1 class (1 execution) would change behaviour');
    const rows = page.getByTestId('modes-upgrade-class');
    await expect(rows).toHaveCount(3);
    // Failing classes first, the most executed first: the INSERT (3 runs) → 1364, the SELECT (2) → 1055.
    await expect(rows.nth(0)).toContainText('3');
    await expect(rows.nth(0)).toContainText("ERROR 1364: Field 'event_date' doesn't have a default value");
    await expect(rows.nth(0)).toContainText('insert into events_t');
    await expect(rows.nth(1)).toContainText('2');
    await expect(rows.nth(1)).toContainText('ERROR 1055');
    await expect(rows.nth(1)).toContainText('event_date');
    // The application's own SET sql_mode = '' is a class too: it turns strict mode off.
    await expect(rows.nth(2)).toContainText('MOD007');
    await expect(rows.nth(2)).toContainText('changes');
    // Give the panel room for the picture (the splitter resizes with the keyboard).
    await page.getByLabel('Resize panels').focus();
    for (let step = 0; step < 8; step++) await page.keyboard.press('ArrowUp');
    await page.screenshot({ path: 'docs/screenshots/modes-captured-classes.png' });

    // Back to the editor's statements: the other source still works from the same panel.
    await page.getByTestId('modes-source').selectOption('editor');
    await expect(page.getByTestId('modes-upgrade-run')).toHaveText('Check the editor’s statements');
  });
});
