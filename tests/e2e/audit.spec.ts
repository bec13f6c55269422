// e2e audit against MySQL 8.0.33: with the general query log on, a full session through the web UI sends no write.
/*
 * The server is reconfigured through the admin URL: general_log = ON with log_output = TABLE for the
 * duration of the test, restored afterwards. The UI connects as a dedicated user with ALL PRIVILEGES
 * (so nothing but the app itself stops a write), and only that user's threads are judged — found from
 * its Connect entries, never the admin's. The session: connect, complete from the schema, analyze,
 * EXPLAIN, accept a suggestion into the export (without applying it), Top queries digest, Locks polls,
 * Modes server view and upgrade check, the export script and its rollback, disconnect.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { isStatement, offendingEntries, statementKinds, type LogEntry } from '../support/audit.js';
import { mysqlTestUrl } from './helpers/env.js';
import { analyzeWithShortcut, connectWithForm, openWorkbench, setEditorText } from './helpers/workbench.js';

const suffix = randomBytes(4).toString('hex');
const database = `sargable_audit_${suffix}`;
const user = `sargable_audit_${suffix}`;
const password = randomBytes(12).toString('hex');
const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time) = 10;';

test.describe('Audit through the web UI', () => {
  let admin: mysql.Connection;
  let previous: { generalLog: number; logOutput: string } | undefined;

  test.beforeAll(async () => {
    admin = await mysql.createConnection({ uri: mysqlTestUrl().href, multipleStatements: true });
    await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
      CREATE TABLE products (id int unsigned NOT NULL AUTO_INCREMENT, description longtext,
        price decimal(8,2) DEFAULT NULL, create_time timestamp NULL DEFAULT NULL, PRIMARY KEY (id));
      INSERT INTO products (price, create_time) VALUES (10, '2019-10-01'), (20, '2019-11-01'), (30, '2020-10-05');
      CREATE USER '${user}'@'%' IDENTIFIED BY '${password}';
      GRANT ALL PRIVILEGES ON *.* TO '${user}'@'%';`);
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      'SELECT @@GLOBAL.general_log AS general_log, @@GLOBAL.log_output AS log_output',
    );
    previous = { generalLog: Number(rows[0]?.general_log), logOutput: String(rows[0]?.log_output) };
    await admin.query("SET GLOBAL log_output = 'TABLE'; SET GLOBAL general_log = 1");
  });

  test.afterAll(async () => {
    if (!admin) return;
    try {
      if (previous) {
        await admin.query('SET GLOBAL general_log = ?; SET GLOBAL log_output = ?', [
          previous.generalLog,
          previous.logOutput,
        ]);
      }
      await admin.query(`DROP USER IF EXISTS '${user}'@'%'; DROP DATABASE IF EXISTS \`${database}\``);
    } finally {
      await admin.end();
    }
  });

  test('connect, complete, analyze, EXPLAIN, top queries, locks, modes and export reach the server only as reads', async ({
    page,
  }) => {
    const started = new Date();
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await connectWithForm(page, {
      host: url.hostname,
      port: Number(url.port || 3306),
      user,
      password,
      database,
    });

    // Completion reads the schema outline.
    await setEditorText(page, 'SELECT * FROM ');
    await page.keyboard.type('prod');
    await expect(page.locator('.monaco-editor .suggest-widget .monaco-list-row')).toContainText(['products']);
    await page.keyboard.press('Escape');

    // Analyze and EXPLAIN.
    await setEditorText(page, seedQuery);
    await analyzeWithShortcut(page);
    const finding = page.getByTestId('finding').filter({ hasText: 'FUN001' });
    await expect(finding).toHaveCount(1);
    await page.keyboard.press('ControlOrMeta+E');
    await expect(page.getByTestId('plan-tree')).toBeVisible();

    // Accept a suggestion into the export (the workspace is local; nothing is applied).
    await page.getByTestId('panel-tab-findings').click();
    await finding.getByTestId('accept').first().click();
    await expect(finding.getByText('in export')).toBeVisible();

    // Top queries: digest a slow log file.
    await page.getByTestId('panel-tab-top').click();
    await page.getByTestId('top-path').fill('tests/fixtures/slowlogs/percona/slow052.txt');
    await page.getByTestId('top-start').click();
    await expect(page.getByTestId('top-progress')).toContainText('done');

    // Locks: a few polls with nothing waiting.
    await page.getByTestId('panel-tab-locks').click();
    await expect(page.getByTestId('locks-none')).toBeVisible();
    await page.waitForTimeout(2500);

    // Modes: the server view and the upgrade check.
    await page.getByTestId('panel-tab-modes').click();
    await page.getByTestId('modes-load').click();
    await expect(page.getByTestId('modes-server')).toBeVisible();
    await page.getByTestId('modes-upgrade-run').click();
    await expect(page.getByTestId('modes-upgrade')).toBeVisible();

    // Export: the script and its rollback, previewed only.
    await page.getByTestId('panel-tab-export').click();
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 6; index++) await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('code-view')).toContainText('-- Table products');
    await expect(page.getByTestId('code-view')).toContainText('+ INDEX `idx_products_month_create_time`');
    await page.getByTestId('export-rollback').click();
    await expect(page.getByTestId('code-view')).toContainText('DROP');

    await page.getByTestId('disconnect').click();
    await expect(page.getByTestId('status-connection')).toContainText('offline');

    // The app's threads: those that connected as the audit user (never the admin's own thread).
    await admin.query('SET GLOBAL general_log = 0');
    const [[self]] = await admin.query<mysql.RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
    const [connects] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT DISTINCT thread_id FROM mysql.general_log
        WHERE command_type = 'Connect' AND event_time >= ? AND CONVERT(argument USING utf8mb4) LIKE ?`,
      [started, `${user}@%`],
    );
    const threads = connects.map((row) => Number(row.thread_id));
    expect(threads.length).toBeGreaterThan(0);
    expect(threads).not.toContain(Number(self?.id));
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT thread_id, command_type, CONVERT(argument USING utf8mb4) AS argument FROM mysql.general_log
        WHERE event_time >= ? AND thread_id IN (?) ORDER BY event_time`,
      [started, threads],
    );
    const entries: LogEntry[] = rows.map((row) => ({
      command: String(row.command_type),
      text: String(row.argument),
    }));
    const statements = entries.filter(isStatement);
    console.info(
      `audit (web UI, MySQL): ${threads.length} sessions, ${statements.length} statements: ${statementKinds(statements).join(' | ')}`,
    );
    // The log really captured the session (else the test could not fail)…
    expect(statements.some((entry) => /SET SESSION TRANSACTION READ ONLY/i.test(entry.text))).toBe(true);
    expect(statements.some((entry) => /^\s*EXPLAIN/i.test(entry.text))).toBe(true);
    expect(statements.some((entry) => /information_schema\.(TABLES|COLUMNS)/i.test(entry.text))).toBe(true);
    expect(statements.some((entry) => /performance_schema\.data_lock/i.test(entry.text))).toBe(true);
    expect(statements.some((entry) => /sql_mode/i.test(entry.text))).toBe(true);
    // …and none of it writes or changes server state.
    expect(offendingEntries(entries)).toEqual([]);
  });
});
