// e2e fault test against MySQL 8.0.33: the server is killed and restarted while a Top queries capture and Locks polling run; the UI pauses, recovers, and the workspace keeps what was saved.
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { findServerProcess, killServer, startAgain, type ServerProcess } from './helpers/restart.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

test.describe('server killed and restarted (MySQL)', () => {
  const database = useScratchDatabase(
    'e2e_fault',
    'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME NOT NULL, note VARCHAR(40)); ' +
      "INSERT INTO orders VALUES (1, '2024-10-01', 'a'), (2, '2024-11-02', 'b'), (3, '2024-10-03', 'c');",
  );
  let killed: ServerProcess | null = null;

  // Whatever happens in the test, later specs need the server back on its port with its datadir.
  test.afterAll(async () => {
    const url = mysqlTestUrl();
    const up = await mysql
      .createConnection({ uri: url.href, connectTimeout: 2_000 })
      .then(async (probe) => {
        await probe.end();
        return true;
      })
      .catch(() => false);
    if (!up && killed) await startAgain(killed, url);
  });

  /** A few statements from another session, so the capture has something to count. */
  async function workload(times: number): Promise<void> {
    const admin = await mysql.createConnection({ uri: mysqlTestUrl().href, database });
    try {
      for (let index = 0; index < times; index += 1) {
        await admin.query("SELECT id, note FROM orders WHERE note = 'fault e2e'");
      }
    } finally {
      await admin.end();
    }
  }

  test('Top queries capture and Locks polling pause while the server is down, resume after the restart, and the workspace keeps its items', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(url, database));
    await expect(page.getByTestId('status-link')).toHaveText('connected');

    // Saved before the fault: a suggestion accepted into the workspace (the export).
    await setEditorText(page, 'SELECT id FROM orders WHERE MONTH(created) = 10;');
    await analyzeWithShortcut(page);
    const finding = page.getByTestId('finding').filter({ hasText: 'FUN001' });
    await finding.getByTestId('accept').first().click();
    await expect(finding.getByText('in export')).toBeVisible();

    // A long live capture (a snapshot every 15 s), then Locks polling while it runs.
    await page.getByTestId('panel-tab-top').click();
    await page.getByTestId('top-source-digests').check();
    await page.getByTestId('top-window').fill('300');
    await page.getByTestId('top-start').click();
    await expect(page.getByTestId('top-live-state')).toHaveText('capturing');
    await workload(5);
    await page.getByTestId('panel-tab-locks').click();
    await expect(page.getByTestId('locks-status')).toContainText(/^live · /);

    const pidBefore = findServerProcess(Number(url.port)).pid;
    killed = await killServer(url);
    await expect(page.getByTestId('status-link')).toContainText(/reconnecting|lost/, { timeout: 30_000 });
    await expect(page.getByTestId('connection-banner')).toBeVisible();
    await expect(page.getByTestId('locks-status')).toContainText('paused: reconnecting');
    await page.getByTestId('panel-tab-top').click();
    await expect(page.getByTestId('top-live-state')).toContainText('paused: reconnecting');
    await expect(page.getByTestId('top-error')).toHaveCount(0);

    const pidAfter = await startAgain(killed, url);
    expect(pidAfter).not.toBe(pidBefore);
    await expect(page.getByTestId('status-link')).toHaveText('connected', { timeout: 60_000 });
    await expect(page.getByTestId('connection-banner')).toContainText('Reconnected');
    await workload(4);
    // The next step's delta sees Uptime go down: the window restarts from the first snapshot after it.
    await expect(page.getByTestId('top-restart-note')).toContainText('The server restarted', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('top-live-state')).toHaveText('capturing');
    await workload(3);
    await page.screenshot({ path: 'docs/screenshots/fault-restart.png' });
    await page.getByTestId('top-cancel').click();
    await expect(page.getByTestId('top-summary')).toContainText('statements', { timeout: 60_000 });
    await expect(page.getByTestId('top-error')).toHaveCount(0);

    await page.getByTestId('panel-tab-locks').click();
    await expect(page.getByTestId('locks-status')).toContainText(/^live · /);

    // Nothing saved before the fault is lost: the export still has the accepted index.
    // (The script's per-table part may sit below Monaco's visible lines: check the list and the header.)
    await page.getByTestId('panel-tab-export').click();
    await expect(
      page.getByTestId('export-table').filter({ hasText: 'orders' }).getByTestId('export-toggle').first(),
    ).toBeChecked();
    await expect(page.getByTestId('code-view')).toContainText('1 change(s) on 1 table(s)');
  });
});
