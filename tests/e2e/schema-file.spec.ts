// e2e (web mode in Chromium): a schema dump bigger than the 4 MiB a SQL-parsing request may carry is
// loaded from a file. The dump is a real mariadb-dump (with data) of a scratch database on the MySQL
// test server holding many tables; the page uploads it through "Load schema file…", the service
// reads it from disk as a job with progress, and the status bar and an analysis use it. Were the
// text sent through analyze.run, the bridge would answer 413 and the analysis would fail.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { openWorkbench, setEditorText } from './helpers/workbench.js';

const TABLES = 240;
/** Rows of ~1 KB in the data table: with the DDL, the dump is well over 4 MiB. */
const ROWS = 6000;

const setup = [
  ...Array.from(
    { length: TABLES },
    (_, index) => `CREATE TABLE t${index} (
      id INT UNSIGNED NOT NULL AUTO_INCREMENT,
      account_id INT NOT NULL,
      created_at DATETIME NOT NULL,
      status ENUM('new','paid','shipped') NOT NULL DEFAULT 'new',
      note VARCHAR(200) DEFAULT NULL,
      PRIMARY KEY (id),
      KEY idx_account_created (account_id, created_at)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`,
  ),
  `CREATE TABLE events (id INT PRIMARY KEY, created_at DATETIME NOT NULL, payload TEXT NOT NULL, KEY (created_at));`,
  `SET SESSION cte_max_recursion_depth = ${ROWS + 1};`,
  `INSERT INTO events
     WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
     SELECT i, '2024-01-01' + INTERVAL i MINUTE, REPEAT(SHA2(i, 256), 16) FROM n;`,
].join('\n');

const database = useScratchDatabase('e2e_schema_file', setup);
let dir: string;
let dump: string;

test.beforeAll(() => {
  test.setTimeout(180_000);
  const url = mysqlTestUrl();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-e2e-dump-'));
  dump = path.join(dir, `${database}.sql`);
  const dumper = ['mariadb-dump', 'mysqldump'].find((binary) => {
    try {
      execFileSync(binary, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!dumper) throw new Error('mariadb-dump (or mysqldump) must be installed (mariadb-client).');
  const text = execFileSync(
    dumper,
    [
      '--protocol=TCP',
      '-h',
      url.hostname,
      '-P',
      url.port,
      '-u',
      decodeURIComponent(url.username),
      '--routines',
      '--triggers',
      database,
    ],
    // The password goes in the environment, never in argv.
    { env: { ...process.env, MYSQL_PWD: decodeURIComponent(url.password) }, maxBuffer: 256 * 1024 * 1024 },
  );
  writeFileSync(dump, text);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a dump over 4 MiB loads from a file, with progress, and analyses use it', async ({ page }) => {
  expect(statSync(dump).size).toBeGreaterThan(4 * 1024 * 1024);
  await openWorkbench(page);
  await page.getByTestId('open-connect').click();
  const dialog = page.getByTestId('connection-dialog');
  await dialog.getByRole('tab', { name: 'Work offline' }).click();
  await dialog.getByLabel('Flavor').selectOption({ label: 'MySQL' });
  await dialog.getByLabel('Version').fill('8.0.33');

  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    dialog.getByTestId('schema-file-choose').click(),
  ]);
  await chooser.setFiles(dump);
  await expect(dialog.getByTestId('schema-file-loaded')).toContainText(
    `${path.basename(dump)}: ${TABLES + 1} tables`,
    { timeout: 60_000 },
  );
  // The pasted-schema box is not used while a file is loaded.
  await expect(dialog.getByLabel('Schema (CREATE TABLE statements)')).toBeDisabled();
  await dialog.getByRole('button', { name: 'Work offline' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('status-bar')).toContainText(`${TABLES + 1} tables`);

  // The analysis names the loaded schema by id: the table, its column and its index are known.
  await setEditorText(page, 'SELECT * FROM t17 WHERE YEAR(created_at) = 2024 AND account_id = 5;');
  await page.getByTestId('analyze').click();
  const finding = page.getByTestId('finding').filter({ hasText: 'FUN001' });
  await expect(finding).toHaveCount(1);
  await expect(finding.getByTestId('finding-target')).toHaveText('t17.created_at');
  // With the schema known, the advice names the table's index from the dump.
  await expect(finding).toContainText('Existing index idx_account_created serves the rewritten predicate');
  await expect(page.locator('body')).not.toContainText('not in the schema');
});
