// e2e against MySQL 8.0.33: the Locks panel shows the seeds' hot-row wait as a tree, rewrites loaded on selection
// (loading, copy, empty state), record counts on demand, the deadlock history and a kill confirmation.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, openWorkbench } from './helpers/workbench.js';

const database = `sargable_locks_${randomBytes(4).toString('hex')}`;

test('Locks panel: root blocker and waiters, lazily loaded rewrites (loading, copy, empty state), record counts, deadlock history, pause, kill asks first', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const url = mysqlTestUrl();
  const admin = await mysql.createConnection({ uri: url.href, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
    CREATE TABLE product (p_id int NOT NULL AUTO_INCREMENT, p_name varchar(255) DEFAULT NULL,
      p_cost decimal(19,4) NOT NULL, p_availability enum('YES','NO') DEFAULT 'NO',
      PRIMARY KEY (p_id), KEY p_cost (p_cost), KEY p_name (p_name)) ENGINE=InnoDB;
    INSERT INTO product VALUES (1,'Item1',10,'YES'),(2,'Item2',20,'YES'),(3,'Item3',30,'YES'),(5,'Item5',50,'YES');`);
  const sessionA = await mysql.createConnection({ uri: url.href, database });
  const sessionB = await mysql.createConnection({ uri: url.href, database });
  const sessionC = await mysql.createConnection({ uri: url.href, database });
  const [deadlockA, deadlockB] = [
    await mysql.createConnection({ uri: url.href, database }),
    await mysql.createConnection({ uri: url.href, database }),
  ];
  try {
    // A deadlock first (the panel keeps it in the workspace): two sessions lock rows 1 and 5 crosswise.
    await deadlockA.query('START TRANSACTION');
    await deadlockB.query('START TRANSACTION');
    await deadlockA.query('SELECT * FROM product WHERE p_id = 1 FOR UPDATE');
    await deadlockB.query('SELECT * FROM product WHERE p_id = 5 FOR UPDATE');
    const crossing = deadlockA.query("UPDATE product SET p_name = 'a' WHERE p_id = 5").catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await deadlockB.query("UPDATE product SET p_name = 'b' WHERE p_id = 1").catch(() => undefined);
    await crossing;
    await Promise.all([deadlockA.query('ROLLBACK'), deadlockB.query('ROLLBACK')]);

    await sessionA.query('START TRANSACTION');
    await sessionA.query('SELECT * FROM product WHERE p_cost >= 20 AND p_cost <= 30 FOR UPDATE');
    await sessionB.query('SET SESSION innodb_lock_wait_timeout = 50');
    const waiting = sessionB.query('SELECT * FROM product WHERE p_id = 3 FOR SHARE').catch(() => undefined);
    // Not a locking read: its details show the empty state instead of rewrites.
    await sessionC.query('SET SESSION innodb_lock_wait_timeout = 50');
    const updating = sessionC.query("UPDATE product SET p_name = 'c' WHERE p_id = 2").catch(() => undefined);
    // Slow the rewrites call down so the loading state is visible.
    await page.route('**/rpc/locks.rewrites*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });

    await openWorkbench(page);
    await connectWithForm(page, {
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database,
    });
    await page.getByTestId('panel-tab-locks').click();
    await expect(page.locator('[data-testid=locks-node][data-depth="0"]')).toHaveCount(1);
    const waiters = page.locator('[data-testid=locks-node][data-depth="1"]');
    await expect(waiters).toHaveCount(2);
    await page.getByTestId('locks-pause').click();
    await expect(page.getByTestId('locks-status')).toContainText('paused');

    // The UPDATE waiter: no NOWAIT / SKIP LOCKED for it, and the panel says why.
    await waiters.filter({ hasText: 'UPDATE product' }).click();
    await expect(page.getByTestId('locks-rewrites-loading')).toBeVisible();
    await expect(page.getByTestId('locks-rewrites-empty')).toContainText('Not a locking read');

    // The FOR SHARE waiter (a clause the SQL parser cannot read): rewrites load, then Copy puts the SQL on the clipboard.
    await waiters.filter({ hasText: 'p_id = 3' }).click();
    await expect(page.getByTestId('locks-rewrites-loading')).toBeVisible();
    const nowait = page.locator('[data-testid=locks-rewrite][data-kind=nowait]');
    await expect(nowait).toContainText('FOR SHARE NOWAIT');
    await expect(nowait).toContainText('ERROR 3572');
    await expect(page.locator('[data-testid=locks-rewrite][data-kind=skip-locked]')).toContainText(
      'FOR SHARE SKIP LOCKED',
    );
    await nowait.getByRole('button', { name: 'Copy nowait' }).click();
    await expect(nowait.getByRole('button', { name: 'Copy nowait' })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'SELECT * FROM `product` WHERE `p_id` = 3 FOR SHARE NOWAIT',
    );

    // The deadlock above is listed, kept in the workspace.
    const deadlock = page.getByTestId('locks-deadlock').filter({ hasText: 'victim' }).last();
    await expect(deadlock).toBeVisible();
    await deadlock.getByRole('button').click();
    await expect(deadlock).toContainText("UPDATE product SET p_name = 'b' WHERE p_id = 1");
    // Give the panel room for the picture (the splitter resizes with the keyboard), tree and rewrites in view.
    await page.getByRole('separator', { name: 'Resize panels' }).focus();
    for (let step = 0; step < 8; step++) await page.keyboard.press('ArrowUp');
    await page.getByTestId('locks-tree').evaluate((tree) => tree.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'docs/screenshots/locks.png' });

    // Record locks of the root blocker, counted on request: the seed's 3 on p_cost and 2 on PRIMARY.
    await page.locator('[data-testid=locks-node][data-depth="0"]').click();
    await page.getByTestId('locks-count').click();
    await expect(page.getByTestId('locks-counts')).toContainText('p_cost3');
    await expect(page.getByTestId('locks-counts')).toContainText('PRIMARY2');

    await page.getByTestId('kill-connection').click();
    const confirm = page.getByTestId('kill-confirm');
    await expect(confirm).toContainText(`thread ${sessionA.threadId}`);
    await expect(confirm).toContainText(decodeURIComponent(url.username));
    await expect(confirm.getByTestId('confirm-sql')).toContainText('p_cost');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await sessionA.query('ROLLBACK');
    await waiting;
    await updating;
  } finally {
    for (const connection of [sessionA, sessionB, sessionC, deadlockA, deadlockB])
      await connection.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  }
});
