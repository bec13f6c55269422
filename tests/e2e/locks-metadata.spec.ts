// e2e on MySQL 8.0.33 and MariaDB 10.11 (issue 18, item 11): a real metadata-lock pile-up — a holder idle in an
// open transaction, an ALTER waiting for it, two readers queued behind the ALTER — shown as the wait tree,
// and Kill of the holder behind a confirmation that names the session (id, user, host, last statement).
// MySQL reads performance_schema.metadata_locks (exact holders and modes). The MariaDB test server runs as
// users get it (performance_schema OFF, no metadata_lock_info plugin): the view says the holders are
// inferred from the open transactions older than the wait, labels each "likely holder", and names the fix.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { e2eServers } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench } from './helpers/workbench.js';

for (const server of e2eServers) {
  const mysqlFlavor = server.flavor === 'mysql';
  const database = `sargable_mdl_${randomBytes(4).toString('hex')}`;

  test(`Locks panel (${server.name}): metadata-lock wait tree (ALTER → holder → queued readers) and Kill of the holder after confirmation`, async ({
    page,
  }) => {
    const url = server.url();
    const admin = await mysql.createConnection({ uri: url.href, multipleStatements: true });
    await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
    CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL);
    INSERT INTO orders VALUES (1, 7), (2, 8);`);
    const open = () => mysql.createConnection({ uri: url.href, database });
    const [holder, alterer, readerA, readerB] = [await open(), await open(), await open(), await open()];
    const waiting = async (count: number) => {
      for (let tries = 0; tries < 100; tries++) {
        const [rows] = await admin.query<RowDataPacket[]>(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE LIKE 'Waiting for%metadata lock'",
          [database],
        );
        if (Number(rows[0]?.n) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the pile-up did not form');
    };
    try {
      await holder.query('START TRANSACTION');
      // Hostile-looking text in the holder's last statement: shown escaped, never run.
      await holder.query(
        'SELECT COUNT(*) FROM orders WHERE customer_id = 7 /* <img src=x onerror=alert(1)> */',
      );
      await alterer.query('SET SESSION lock_wait_timeout = 60');
      const alter = alterer.query('ALTER TABLE orders ADD COLUMN note INT').then(() => 'done');
      await waiting(1);
      const readers = [
        readerA.query('SELECT COUNT(*) FROM orders').then(() => 'done'),
        readerB.query('SELECT id FROM orders WHERE id = 2').then(() => 'done'),
      ];
      await waiting(3);

      await openWorkbench(page);
      await connectWithForm(page, formFromUrl(url, database));
      await page.getByTestId('panel-tab-locks').click();
      const group = page
        .getByTestId('mdl-group')
        .filter({ hasText: 'ALTER TABLE orders ADD COLUMN note INT' });
      await expect(group).toHaveCount(1);
      await expect(group).toHaveAttribute('data-source', mysqlFlavor ? 'metadata_locks' : 'inferred');
      await expect(group.getByTestId('mdl-waiter')).toContainText(`thread ${alterer.threadId}`);
      await expect(group.getByTestId('mdl-waiter')).toContainText('EXCLUSIVE');
      const holderRow = group.getByTestId('mdl-holder').filter({ hasText: `thread ${holder.threadId}` });
      await expect(holderRow).toHaveCount(1);
      await expect(holderRow).toContainText(/transaction open \d+ s/);
      if (mysqlFlavor) {
        // Exact: the one holder, its mode, its last statement (hostile-looking text shown as text).
        await expect(group.getByTestId('mdl-holder')).toHaveCount(1);
        await expect(holderRow).toContainText('holds SHARED_READ');
        await expect(holderRow).toContainText('<img src=x onerror=alert(1)>');
        await expect(holderRow.locator('img')).toHaveCount(0);
      } else {
        // Inferred, and said so: every holder is a "likely holder", never the waiting ALTER itself; the
        // source line and the problem note name why and the fix (MariaDB's plugin or the MDL instrument).
        await expect(holderRow).toContainText('likely holder');
        await expect(
          group.getByTestId('mdl-holder').filter({ hasText: `thread ${alterer.threadId}` }),
        ).toHaveCount(0);
        await expect(group.getByTestId('mdl-holder').filter({ hasNotText: 'likely holder' })).toHaveCount(0);
        await expect(group).toContainText('Source: inferred: open transactions older than the wait');
        await expect(
          page.getByTestId('locks-problem').filter({ hasText: 'Metadata locks are not instrumented' }),
        ).toContainText("INSTALL SONAME 'metadata_lock_info'");
      }
      await expect(group.getByTestId('mdl-queued-session')).toHaveCount(2);
      await expect(group.getByTestId('mdl-queued')).toContainText(`thread ${readerA.threadId}`);
      await expect(group.getByTestId('mdl-queued')).toContainText(`thread ${readerB.threadId}`);
      await page.getByTestId('locks-pause').click();

      await page.getByRole('separator', { name: 'Resize panels' }).focus();
      for (let step = 0; step < 8; step++) await page.keyboard.press('ArrowUp');
      await group.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.screenshot({
        path: mysqlFlavor
          ? 'docs/screenshots/locks-metadata.png'
          : 'docs/screenshots/locks-metadata-mariadb.png',
      });

      // Kill query on an idle holder would change nothing: the confirmation says so.
      await holderRow.getByTestId('mdl-kill-query').click();
      const confirm = page.getByTestId('kill-confirm');
      await expect(confirm.getByTestId('kill-idle-note')).toBeVisible();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);

      // Kill connection: the dialog names the session; nothing is sent before the user confirms.
      await holderRow.getByTestId('mdl-kill-connection').click();
      await expect(confirm).toContainText(`thread ${holder.threadId}`);
      await expect(confirm).toContainText(`${decodeURIComponent(url.username)}@`);
      if (mysqlFlavor) await expect(confirm.getByTestId('confirm-sql')).toContainText('customer_id = 7');
      const [stillWaiting] = await admin.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE LIKE 'Waiting for%metadata lock'",
        [database],
      );
      expect(Number(stillWaiting[0]?.n)).toBe(3);
      await confirm.getByTestId('confirm-ok').click();
      await expect(page.getByRole('status')).toContainText(`KILL CONNECTION ${holder.threadId} sent.`);
      expect(await alter).toBe('done');
      expect(await Promise.all(readers)).toEqual(['done', 'done']);
      await page.getByRole('button', { name: 'Poll now' }).click();
      await expect(page.getByTestId('mdl-group')).toHaveCount(0);
    } finally {
      for (const connection of [holder, alterer, readerA, readerB])
        await connection.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    }
  });
}
