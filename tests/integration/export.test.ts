// Server truth for the export: the combined script runs in the mysql/mariadb client, the indexes exist and are used, the rollback restores every table byte for byte.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { exportWorkspace, type ExportPlan } from '../../src/core/export/index.js';
import type { SchemaModel } from '../../src/core/model/schema.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { emptyWorkspace, fromAnalysis, type Workspace } from '../../src/core/workspace/model.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';
import { ensureMysqlBinaries } from '../support/servers.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/export');
const SCHEMA_DDL = readFileSync(path.join(FIXTURES, 'shop-schema.sql'), 'utf8');
const QUERIES = readFileSync(path.join(FIXTURES, 'shop-queries.sql'), 'utf8');
const TABLES = ['products', 'orders', 'customers'];
const ROWS = 6000;
// Explicit ids: a bulk INSERT … SELECT without them reserves AUTO_INCREMENT values in batches, and
// MariaDB re-derives the counter as MAX(id) + 1 when an ALTER reopens the table, so SHOW CREATE TABLE
// would differ in the AUTO_INCREMENT= value (runtime state, not structure) after any DDL, rollback or not.
const LOAD = [
  `INSERT INTO products (id, price, create_time, category, name, code)
   WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS - 1})
   SELECT n + 1, (n % 1000) / 10 + 1, TIMESTAMP('2018-01-01 00:00:00') + INTERVAL (n * 3607) SECOND, n % 50,
     CONCAT(ELT(1 + n % 5, 'Alpha', 'beta', 'GAMMA', 'delta', 'Epsilon'), '_', n),
     CONCAT(IF(n % 2 = 1, 'AB', 'ab'), LPAD(n, 6, '0')) FROM seq`,
  `INSERT INTO orders (id, customer_id, created, total)
   WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS - 1})
   SELECT n + 1, n % 400, TIMESTAMP('2018-01-01 00:00:00') + INTERVAL (n * 11 * 3607) SECOND, n % 97 FROM seq`,
  `INSERT INTO customers (id, email, signup, country, score)
   WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS - 1})
   SELECT n + 1, CONCAT('user', n, '@example.com'), DATE('2015-01-01') + INTERVAL (n % 3000) DAY,
     ELT(1 + n % 6, 'DE', 'FR', 'US', 'GB', 'ES', 'IT'), n % 1000 FROM seq`,
];

/** Run a script with the flavor's command-line client; returns stderr (empty on success) and the exit code. */
function runClient(
  client: string,
  url: string,
  database: string,
  script: string,
): { status: number | null; stderr: string } {
  const parsed = new URL(url);
  const result = spawnSync(
    client,
    [
      '--protocol=TCP',
      `--host=${parsed.hostname}`,
      `--port=${parsed.port}`,
      `--user=${decodeURIComponent(parsed.username)}`,
      `--database=${database}`,
    ],
    {
      input: script,
      encoding: 'utf8',
      env: { ...process.env, MYSQL_PWD: decodeURIComponent(parsed.password) },
      timeout: 120_000,
    },
  );
  return {
    status: result.status,
    stderr: (result.stderr ?? '')
      .split('\n')
      .filter((line) => line && !/Using a password/.test(line))
      .join('\n'),
  };
}

async function showCreate(connection: Connection, table: string): Promise<string> {
  const [rows] = await connection.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${table}\``);
  return String(rows[0]?.['Create Table']);
}

async function indexNames(connection: Connection, table: string): Promise<Set<string>> {
  const [rows] = await connection.query<RowDataPacket[]>(`SHOW INDEX FROM \`${table}\``);
  return new Set(rows.map((row) => String(row.Key_name)));
}

describe.each(testServers())('export: $flavor', ({ flavor, url }) => {
  let connection: Connection;
  let database: string;
  let client: string;
  let server: ServerInfo;
  let schema: SchemaModel;
  let workspace: Workspace;
  let plan: ExportPlan;
  let forward: string;
  let rollback: string;
  const before = new Map<string, string>();

  beforeAll(async () => {
    client = flavor === 'mysql' ? path.join(await ensureMysqlBinaries(), 'bin', 'mysql') : 'mariadb';
    connection = await connect(url);
    database = scratchDatabaseName('sargable_exp');
    await connection.query(`CREATE DATABASE \`${database}\``);
    await connection.query(`USE \`${database}\``);
    await connection.query("SET time_zone = '+00:00'");
    await connection.query(
      flavor === 'mysql'
        ? 'SET SESSION cte_max_recursion_depth = 100000'
        : 'SET SESSION max_recursive_iterations = 100000',
    );
    await connection.query(SCHEMA_DDL);
    for (const load of LOAD) await connection.query(load);
    await connection.query(`ANALYZE TABLE ${TABLES.join(', ')}`);
    for (const table of TABLES) before.set(table, await showCreate(connection, table));

    server = await detectServerInfo(connection);
    schema = await loadSchema(connection, server, database);
    const report = analyze(QUERIES, { server, source: 'dsn', schema });
    workspace = emptyWorkspace(
      { id: `test-${flavor}`, flavor: server.flavor, serverVersion: server.version, database },
      new Date().toISOString(),
    );
    fromAnalysis(workspace, report, new Date().toISOString());
    const options = {
      flavor: server.flavor,
      version: server.version,
      database,
      schema,
      generatedAt: new Date().toISOString(),
      sargableVersion: 'test',
    };
    const exported = exportWorkspace(workspace, options);
    plan = exported.plan;
    forward = exported.script.text;
    rollback = exportWorkspace(workspace, { ...options, rollback: true }).script.text;
  }, 120_000);

  afterAll(async () => {
    await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection?.end();
  });

  it('builds the workspace from at least 8 accepted suggestions over 3 tables, of the kinds the flavor needs', () => {
    const kinds = new Set(workspace.items.map((item) => item.suggestion.kind));
    expect(workspace.items.length).toBeGreaterThanOrEqual(8);
    expect(new Set(workspace.items.map((item) => item.table.toLowerCase()))).toEqual(new Set(TABLES));
    expect(kinds).toContain('index');
    expect(kinds).toContain(flavor === 'mysql' ? 'functional-index' : 'generated-column');
    expect(plan.skipped).toEqual([]);
    // One combined ALTER TABLE per table.
    expect(forward.match(/^ALTER TABLE /gm)?.length).toBe(TABLES.length);
  });

  it('runs in the command-line client; every index exists and the advised queries use it; the rollback restores SHOW CREATE TABLE', async () => {
    const applied = runClient(client, url, database, forward);
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    await connection.query(`ANALYZE TABLE ${TABLES.join(', ')}`);

    const missing: string[] = [];
    const unused: string[] = [];
    for (const table of plan.tables) {
      const existing = await indexNames(connection, table.table);
      for (const index of table.indexes)
        if (!existing.has(index.name)) missing.push(`${table.table}.${index.name}`);
      // The optimizer may prefer another exported index of the table (MONTH(c) alone over (category, MONTH(c))).
      const names = table.indexes.map((index) => index.name);
      for (const item of table.items) {
        const sql = workspace.items.find((candidate) => candidate.id === item.id)?.suggestion.rewrittenSql;
        for (const query of sql ? [sql] : item.sources.map((source) => source.sql)) {
          const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${query}`);
          const keys = rows.map((row) => String(row.key));
          if (!keys.some((key) => names.includes(key)))
            unused.push(`${query} → key ${keys.join(',')} (wanted ${names.join('|')})`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(unused).toEqual([]);

    const reverted = runClient(client, url, database, rollback);
    expect(reverted.stderr).toBe('');
    expect(reverted.status).toBe(0);
    for (const table of TABLES) expect(await showCreate(connection, table)).toBe(before.get(table));
  }, 120_000);

  it('after the script was applied, the export of the reloaded schema has nothing left to do (issue 18 item 3)', async () => {
    const applied = runClient(client, url, database, forward);
    expect(applied.stderr).toBe('');
    try {
      // The server's stored forms now: cast(x as date) for DATE(x), lcase() for LOWER() on MariaDB, (a + b).
      const reloaded = await loadSchema(connection, server, database);
      const again = exportWorkspace(workspace, {
        flavor: server.flavor,
        version: server.version,
        database,
        schema: reloaded,
        generatedAt: 'now',
        sargableVersion: 'test',
      });
      expect(
        again.plan.tables.map(
          (table) =>
            `${table.table}: ${table.columns.map((c) => c.name).join(',')} ${table.indexes.map((i) => i.name).join(',')}`,
        ),
      ).toEqual([]);
      expect(again.script.text).not.toMatch(/^ALTER TABLE /m);
      // Every item is accounted for as applied (its index exists, or the longer index the export
      // folded it into covers it), none as changed, conflicting or missing.
      expect(again.plan.skipped.length).toBe(workspace.items.length);
      for (const skipped of again.plan.skipped) {
        expect(skipped.reason).toMatch(/^already applied: |^existing index \S+ \(.*\) already covers /);
        // The flag the Export panel's "applied" badge shows goes with the reason.
        expect(skipped.applied === true).toBe(skipped.reason.startsWith('already applied'));
      }
      expect(
        again.plan.skipped.filter((skipped) => skipped.reason.startsWith('already applied')).length,
      ).toBeGreaterThanOrEqual(2);
      // Running the regenerated script changes nothing and raises nothing (no ERROR 1060 / 1061).
      const rerun = runClient(client, url, database, again.script.text);
      expect(rerun.stderr).toBe('');
      expect(rerun.status).toBe(0);
    } finally {
      const reverted = runClient(client, url, database, rollback);
      expect(reverted.stderr).toBe('');
    }
    for (const table of TABLES) expect(await showCreate(connection, table)).toBe(before.get(table));
  }, 120_000);

  it('the split-online and idempotent variants run too (idempotent twice where the server has guards)', async () => {
    const options = {
      flavor: server.flavor,
      version: server.version,
      database,
      schema,
      generatedAt: 'now',
      sargableVersion: 'test',
      idempotent: true,
    };
    const split = exportWorkspace(workspace, { ...options, splitOnline: true }).script;
    expect(runClient(client, url, database, split.text).stderr).toBe('');
    if (server.capabilities.alterIfExists) {
      const again = runClient(client, url, database, exportWorkspace(workspace, options).script.text);
      expect(again.status).toBe(0);
      expect(again.stderr).toBe('');
    }
    const back = exportWorkspace(workspace, { ...options, rollback: true }).script.text;
    expect(runClient(client, url, database, back).stderr).toBe('');
    if (server.capabilities.alterIfExists) expect(runClient(client, url, database, back).status).toBe(0);
    for (const table of TABLES) expect(await showCreate(connection, table)).toBe(before.get(table));
  }, 120_000);
});
