// e2e against MySQL 8.0.33: the Locks panel shows the seeds' hot-row wait as a tree, with rewrites and a kill confirmation.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, openWorkbench } from './helpers/workbench.js';

const database = `sargable_locks_${randomBytes(4).toString('hex')}`;

test('Locks panel: root blocker and waiter, NOWAIT rewrite, pause, kill asks first naming thread, user and statement', async ({
  page,
}) => {
  const url = mysqlTestUrl();
  const admin = await mysql.createConnection({ uri: url.href, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
    CREATE TABLE product (p_id int NOT NULL AUTO_INCREMENT, p_name varchar(255) DEFAULT NULL,
      p_cost decimal(19,4) NOT NULL, p_availability enum('YES','NO') DEFAULT 'NO',
      PRIMARY KEY (p_id), KEY p_cost (p_cost), KEY p_name (p_name)) ENGINE=InnoDB;
    INSERT INTO product VALUES (1,'Item1',10,'YES'),(2,'Item2',20,'YES'),(3,'Item3',30,'YES'),(5,'Item5',50,'YES');`);
  const sessionA = await mysql.createConnection({ uri: url.href, database });
  const sessionB = await mysql.createConnection({ uri: url.href, database });
  try {
    await sessionA.query('START TRANSACTION');
    await sessionA.query('SELECT * FROM product WHERE p_cost >= 20 AND p_cost <= 30 FOR UPDATE');
    await sessionB.query('SET SESSION innodb_lock_wait_timeout = 50');
    const waiting = sessionB.query('SELECT * FROM product WHERE p_id = 3 FOR UPDATE').catch(() => undefined);

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
    const waiter = page.locator('[data-testid=locks-node][data-depth="1"]');
    await expect(waiter).toContainText('p_id = 3');
    await waiter.click();
    await expect(page.getByTestId('locks-rewrite').first()).toBeVisible();
    await expect(page.getByTestId('locks-details')).toContainText('NOWAIT');
    await page.getByTestId('locks-pause').click();
    await expect(page.getByTestId('locks-status')).toContainText('paused');
    await page.screenshot({ path: 'docs/screenshots/locks.png' });

    await page.locator('[data-testid=locks-node][data-depth="0"]').click();
    await page.getByTestId('kill-connection').click();
    const confirm = page.getByTestId('kill-confirm');
    await expect(confirm).toContainText(`thread ${sessionA.threadId}`);
    await expect(confirm).toContainText(decodeURIComponent(url.username));
    await expect(confirm.getByTestId('confirm-sql')).toContainText('p_cost');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await sessionA.query('ROLLBACK');
    await waiting;
  } finally {
    await sessionA.end().catch(() => undefined);
    await sessionB.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  }
});
