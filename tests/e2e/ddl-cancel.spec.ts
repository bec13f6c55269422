// e2e on MySQL 8.0.33 and MariaDB 10.11 (issue 18, item 1): Cancel of a running Apply DDL and of a running
// what-if. An open transaction holds the table, so the ALTER waits for the metadata lock; Cancel must stop it
// (KILL QUERY of our own statement) well before the 5 s lock_wait_timeout would, and change nothing. Left
// alone, the Apply gives up after the lock wait set in its dialog (session lock_wait_timeout, default 5 s) and
// names the holding session and the online alternatives.
import { expect, test, type Page } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { e2eServers } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

for (const server of e2eServers) {
  test.describe(`Cancel of Apply DDL and what-if (${server.name})`, () => {
    const database = useScratchDatabase(
      'e2e_cancel',
      'CREATE TABLE products (id INT PRIMARY KEY, price DECIMAL(8,2) NOT NULL, create_time DATETIME NOT NULL); ' +
        "INSERT INTO products VALUES (1, 10, '2024-10-01'), (2, 20, '2024-11-02'), (3, 30, '2023-10-03');",
      server.url,
    );

    async function withHolder(
      run: (admin: mysql.Connection, holderThread: number) => Promise<void>,
    ): Promise<void> {
      const url = server.url();
      const admin = await mysql.createConnection(url.href);
      const holder = await mysql.createConnection({ uri: url.href, database });
      try {
        await holder.query('START TRANSACTION');
        await holder.query('SELECT COUNT(*) FROM products');
        await run(admin, holder.threadId);
        // The holder's transaction was never touched.
        const [trx] = await admin.query<RowDataPacket[]>(
          'SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?',
          [holder.threadId],
        );
        expect(Number(trx[0]?.n)).toBe(1);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
        await admin.end();
      }
    }

    async function alterWaits(admin: mysql.Connection): Promise<void> {
      await expect
        .poll(async () => {
          const [rows] = await admin.query<RowDataPacket[]>(
            "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE LIKE 'Waiting for%metadata lock' AND INFO LIKE 'ALTER TABLE%'",
            [database],
          );
          return Number(rows[0]?.n);
        })
        .toBe(1);
    }

    async function indexes(admin: mysql.Connection): Promise<string[]> {
      const [rows] = await admin.query<RowDataPacket[]>(
        'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database, 'products'],
      );
      return rows.map((row) => String(row.name)).sort();
    }

    async function analyzed(page: Page, allowWhatIf: boolean) {
      await openWorkbench(page);
      await connectWithForm(page, { ...formFromUrl(server.url(), database), allowWhatIf });
      await setEditorText(page, 'SELECT id FROM products WHERE MONTH(create_time) = 10;');
      await analyzeWithShortcut(page);
      return page.getByTestId('finding').filter({ hasText: 'FUN001' }).getByTestId('suggestion');
    }

    test('Apply DDL behind an open transaction: Cancel stops the waiting ALTER at once', async ({ page }) => {
      const suggestion = (await analyzed(page, false)).filter({ has: page.getByTestId('apply-ddl') }).first();
      await withHolder(async (admin) => {
        await suggestion.getByTestId('apply-ddl').click();
        // A 60 s lock wait: a Cancel that does not stop the ALTER leaves it waiting that long.
        await page.getByTestId('apply-ddl-confirm').getByTestId('apply-lock-wait').fill('60');
        await page.getByTestId('apply-ddl-confirm').getByTestId('confirm-ok').click();
        await expect(suggestion.getByTestId('ddl-running')).toBeVisible();
        await alterWaits(admin);
        await suggestion.scrollIntoViewIfNeeded();
        if (server.flavor === 'mysql')
          await page.screenshot({ path: 'docs/screenshots/apply-ddl-cancel.png' });
        const started = Date.now();
        await suggestion.getByTestId('ddl-cancel').click();
        // Cancelled, not the lock_wait_timeout's "gave up" error; within a quarter of the 60 s wait
        // (a loaded machine needs seconds for the click, the KILL and the reply).
        await expect(suggestion.getByTestId('ddl-error')).toContainText('Cancelled', { timeout: 15_000 });
        expect(Date.now() - started).toBeLessThan(15_000);
        await expect(suggestion.getByTestId('ddl-error')).toContainText('Nothing was changed');
        expect(await indexes(admin)).toEqual(['PRIMARY']);
      });
    });

    test('Apply DDL behind an open transaction, left alone: gives up after the lock wait set in the dialog, names the holder and the online alternatives', async ({
      page,
    }) => {
      const suggestion = (await analyzed(page, false)).filter({ has: page.getByTestId('apply-ddl') }).first();
      await withHolder(async (admin, holderThread) => {
        await suggestion.getByTestId('apply-ddl').click();
        const confirm = page.getByTestId('apply-ddl-confirm');
        // The session lock_wait_timeout is the dialog's field (default 5 s); out of range, Apply is disabled.
        const lockWait = confirm.getByTestId('apply-lock-wait');
        await expect(lockWait).toHaveValue('5');
        await lockWait.fill('0');
        await expect(confirm.getByTestId('confirm-ok')).toBeDisabled();
        await expect(confirm.getByTestId('apply-lock-wait-problem')).toBeVisible();
        await lockWait.fill('2');
        await confirm.getByTestId('confirm-ok').click();
        const started = Date.now();
        await alterWaits(admin);
        const error = suggestion.getByTestId('ddl-error');
        await expect(error).toContainText('gave up after waiting 2 s for the metadata lock', {
          timeout: 15_000,
        });
        const waited = Date.now() - started;
        expect(waited).toBeGreaterThan(1000);
        expect(waited).toBeLessThan(8000);
        await expect(error).toContainText(`session ${holderThread}`);
        await expect(error).toContainText('pt-online-schema-change or gh-ost');
        await expect(error).toContainText('set in the Apply dialog');
        expect(await indexes(admin)).toEqual(['PRIMARY']);
        if (server.flavor === 'mariadb') {
          await suggestion.scrollIntoViewIfNeeded();
          await page.screenshot({ path: 'docs/screenshots/apply-ddl-timeout-mariadb.png' });
        }
      });
    });

    test('what-if behind an open transaction: Cancel stops it and leaves the table as it was', async ({
      page,
    }) => {
      const suggestion = (await analyzed(page, true)).filter({ has: page.getByTestId('verify') }).first();
      await withHolder(async (admin) => {
        await suggestion.getByTestId('verify').click();
        const whatIf = page.getByTestId('what-if-dialog');
        await whatIf.getByTestId('what-if-run').click();
        await alterWaits(admin);
        const started = Date.now();
        await whatIf.getByTestId('what-if-cancel').click();
        // Cancelled, not the "gave up" error of the what-if's fixed 5 s lock wait.
        await expect(whatIf.getByTestId('what-if-error')).toContainText('cancelled', { timeout: 10_000 });
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await indexes(admin)).toEqual(['PRIMARY']);
      });
    });
  });
}
