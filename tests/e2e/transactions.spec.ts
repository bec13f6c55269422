// e2e on MySQL 8.0.33 and MariaDB 10.11 (issue 18, item 14): the Transactions view (innotop's T mode) in the
// Locks panel — an idle transaction that blocks an UPDATE, its last statements, rows locked/modified, the
// history list length, the processlist with filters — and Kill of the blocker behind a confirmation naming
// the session. The MariaDB test server runs as users get it (performance_schema OFF): the last statements
// are unknown there, and the view says so and how to turn them on.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { e2eServers } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench } from './helpers/workbench.js';

for (const server of e2eServers) {
  const mysqlFlavor = server.flavor === 'mysql';
  const database = `sargable_trx_${randomBytes(4).toString('hex')}`;

  test(`Transactions view (${server.name}): open transactions, blocking relation, last statements, processlist filters, Kill asks first`, async ({
    page,
  }) => {
    const url = server.url();
    const admin = await mysql.createConnection({ uri: url.href, multipleStatements: true });
    await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
    CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL) ENGINE=InnoDB;
    INSERT INTO accounts VALUES (1, 100), (2, 200), (3, 300);`);
    const open = () => mysql.createConnection({ uri: url.href, database });
    const [blocker, waiter, sleeper] = [await open(), await open(), await open()];
    try {
      await blocker.query('START TRANSACTION');
      await blocker.query('UPDATE accounts SET balance = balance - 10 WHERE id = 1 /* <b>transfer</b> */');
      await waiter.query('SET SESSION innodb_lock_wait_timeout = 50');
      const waiting = waiter
        .query('UPDATE accounts SET balance = balance + 10 WHERE id = 1')
        .then(() => 'done');
      await sleeper.query('SELECT 1');

      await openWorkbench(page);
      await connectWithForm(page, formFromUrl(url, database));
      await page.getByTestId('panel-tab-locks').click();
      await page.getByTestId('locks-view-transactions').click();
      const blockerRow = page.locator(`[data-testid=trx-row][data-thread="${blocker.threadId}"]`);
      const waiterRow = page.locator(`[data-testid=trx-row][data-thread="${waiter.threadId}"]`);
      await expect(blockerRow.getByTestId('trx-relations')).toContainText(`blocks ${waiter.threadId}`);
      await expect(waiterRow.getByTestId('trx-relations')).toContainText(`waits for ${blocker.threadId}`);
      await expect(waiterRow).toContainText('LOCK WAIT');
      await expect(blockerRow).toContainText('RUNNING');
      await expect(blockerRow).toContainText('/ 1'); // one row modified
      if (mysqlFlavor)
        await expect(blockerRow).toContainText(
          'last: UPDATE accounts SET balance = balance - 10 WHERE id = 1',
        );
      else
        await expect(
          page
            .getByTestId('trx-problem')
            .filter({ hasText: 'last statements of idle transactions are unknown' }),
        ).toContainText('performance_schema=ON');
      // The statement text is shown as text, not markup.
      await expect(blockerRow.locator('b')).toHaveCount(0);
      await expect(page.getByTestId('trx-status')).toContainText(/history list length \d+/);
      await page.getByTestId('trx-pause').click();

      // Processlist: the sleeping session without a transaction is hidden by default, shown when asked.
      const sleeperRow = page.locator(`[data-testid=proc-row][data-thread="${sleeper.threadId}"]`);
      await expect(page.locator(`[data-testid=proc-row][data-thread="${waiter.threadId}"]`)).toBeVisible();
      await expect(sleeperRow).toHaveCount(0);
      await page.getByTestId('proc-hide-sleeping').uncheck();
      await expect(sleeperRow).toContainText('Sleep');
      await page.getByTestId('proc-filter').fill('balance + 10');
      await expect(page.getByTestId('proc-row')).toHaveCount(1);
      await expect(page.getByTestId('proc-row')).toHaveAttribute('data-thread', String(waiter.threadId));
      await page.getByTestId('proc-filter').fill('');
      await page.getByTestId('proc-hide-sleeping').check();

      await page.getByRole('separator', { name: 'Resize panels' }).focus();
      for (let step = 0; step < 8; step++) await page.keyboard.press('ArrowUp');
      await page.getByTestId('trx-view').evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.screenshot({
        path: mysqlFlavor ? 'docs/screenshots/transactions.png' : 'docs/screenshots/transactions-mariadb.png',
      });

      // Kill the blocker: the confirmation names the session; Cancel sends nothing, confirming ends the wait.
      await blockerRow.getByTestId('trx-kill-connection').click();
      const confirm = page.getByTestId('kill-confirm');
      await expect(confirm).toContainText(`thread ${blocker.threadId}`);
      await expect(confirm).toContainText(`${decodeURIComponent(url.username)}@`);
      if (mysqlFlavor) await expect(confirm.getByTestId('confirm-sql')).toContainText('balance - 10');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      const [still] = await admin.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?',
        [blocker.threadId],
      );
      expect(Number(still[0]?.n)).toBe(1);
      await blockerRow.getByTestId('trx-kill-connection').click();
      // A monitoring tool polling INNODB_TRX (PMM, innotop, another test on the shared server) keeps its 100 ms
      // cache filled: the view's read right after the kill still lists the killed session's transaction, whose
      // connection has left the processlist. Its row must not stay (one refresh, paused polling: it stayed).
      const monitor = await mysql.createConnection(url.href);
      let monitoring = true;
      const polls = (async () => {
        while (monitoring) await monitor.query('SELECT COUNT(*) FROM information_schema.INNODB_TRX');
      })();
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await confirm.getByTestId('confirm-ok').click();
        expect(await waiting).toBe('done');
        await expect(blockerRow).toHaveCount(0, { timeout: 10_000 });
      } finally {
        monitoring = false;
        await polls;
        await monitor.end();
      }
    } finally {
      for (const connection of [blocker, waiter, sleeper]) await connection.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    }
  });
}
