// Real slow logs from both test servers: every statement of a scripted workload is digested once, with its schema.
/*
 * The servers are shared by the suite, so the test saves the slow-log settings it touches and
 * restores them in afterAll (also when a test fails). It points `slow_query_log_file` at a temp
 * file of its own, sets long_query_time=0 (new connections pick it up) and, per server, the
 * richest format: MySQL `log_slow_extra=ON`, MariaDB `log_slow_verbosity=query_plan,explain`.
 *
 * With SARGABLE_UPDATE_SLOWLOG_FIXTURES=1 the captured log is also saved (machine paths and the
 * random schema name replaced) to tests/fixtures/slowlogs/generated/, with pt-query-digest's JSON
 * for it and our `sargable digest --format json` output; tests/unit/slowlog/generated.test.ts
 * checks those offline.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestToJson } from '../../src/cli/format.js';
import { fingerprint } from '../../src/core/fingerprint/index.js';
import { utf8ToBinaryString } from '../../src/core/slowlog/index.js';
import { digestFilesInThread } from '../../src/main/services/slowlog-file.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';

const fixtures = fileURLToPath(new URL('../fixtures/slowlogs/generated/', import.meta.url));
const UPDATE = process.env.SARGABLE_UPDATE_SLOWLOG_FIXTURES === '1';
const FIXTURE_SCHEMA = 'sargable_fixture';
const MARKER = 'sargable workload done';

/** One statement of the workload: text or a prepared statement with its parameter sets. */
type Step = { sql: string } | { prepared: string; params: (string | number)[][] };

/** Multi-line statements, comments, a multi-row insert, an error and prepared statements. */
const workload: Step[] = [
  {
    sql: 'CREATE TABLE orders (\n  id INT AUTO_INCREMENT PRIMARY KEY,\n  customer INT NOT NULL,\n  note VARCHAR(100),\n  KEY (customer)\n)',
  },
  { sql: "INSERT INTO orders (customer, note) VALUES (1, 'first'), (2, 'second'), (3, 'third'), (2, 'x')" },
  { sql: "SELECT id,\n       note\nFROM orders\nWHERE customer = 2\n  AND note LIKE 's%'\nORDER BY id" },
  { sql: '/* dashboard: totals */ SELECT COUNT(*) FROM orders WHERE customer > 1' },
  { sql: 'SELECT note FROM orders -- by id\nWHERE id = 3' },
  { sql: 'SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer HAVING n > 1' },
  { sql: "UPDATE orders SET note = CONCAT(note, '!') WHERE id IN (1, 2)" },
  { sql: 'SELECT missing_column FROM orders' }, // fails: ER_BAD_FIELD_ERROR
  { prepared: 'SELECT note FROM orders WHERE id = ?', params: [[1], [2], [4]] },
  {
    prepared: 'UPDATE orders SET customer = ? WHERE id = ?',
    params: [
      [5, 1],
      [6, 2],
    ],
  },
  { sql: 'DELETE FROM orders WHERE customer = 6' },
  { sql: `SELECT '${MARKER}' AS marker` },
];

/** How often each fingerprint must appear: once per execution. */
function expectedCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of workload) {
    const sql = 'sql' in step ? step.sql : step.prepared;
    const times = 'sql' in step ? 1 : step.params.length;
    const fp = fingerprint(utf8ToBinaryString(sql));
    counts[fp] = (counts[fp] ?? 0) + times;
  }
  return counts;
}

async function runWorkload(connection: mysql.Connection): Promise<void> {
  for (const step of workload) {
    if ('sql' in step) {
      await connection.query(step.sql).catch((error: { errno?: number }) => {
        if (error.errno !== 1054) throw error; // the deliberate error
      });
    } else {
      for (const params of step.params) await connection.execute(step.prepared, params);
    }
  }
}

async function waitForMarker(file: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const text = readFileSync(file, 'latin1');
    if (text.includes(MARKER)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the server never wrote the workload's last statement to ${file}`);
}

interface Variable {
  name: string;
  value: string;
}

async function readVariables(admin: mysql.Connection, names: string[]): Promise<Variable[]> {
  const [rows] = await admin.query<mysql.RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN (${names.map(() => '?').join(', ')})`,
    names,
  );
  return rows.map((row) => ({ name: String(row.Variable_name), value: String(row.Value) }));
}

async function setVariable(admin: mysql.Connection, name: string, value: string | number): Promise<void> {
  await admin.query(`SET GLOBAL ${name} = ?`, [name === 'long_query_time' ? Number(value) : value]);
}

/** Replaces machine paths and the random schema so the capture can be committed. */
function sanitize(text: string, schema: string): string {
  return text
    .replaceAll(schema, FIXTURE_SCHEMA)
    .replace(/^[^\n]*?(mysqld|mariadbd), Version:/gm, '/usr/sbin/$1, Version:')
    .replace(/Unix socket: [^\n]*/g, 'Unix socket: /run/mysqld/mysqld.sock')
    .replace(/Tcp port: \d+/g, 'Tcp port: 3306');
}

describe.each(testServers())('slow log file from $flavor', ({ flavor, url }) => {
  let admin: mysql.Connection;
  let saved: Variable[] = [];
  let dir = '';
  let logFile = '';

  beforeAll(async () => {
    admin = await connect(url);
    saved = await readVariables(admin, [
      'slow_query_log',
      'slow_query_log_file',
      'long_query_time',
      'log_output',
      'log_slow_extra',
      'log_slow_verbosity',
    ]);
    dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-slowlog-real-'));
    logFile = path.join(dir, 'slow.log');
    await setVariable(admin, 'slow_query_log_file', logFile);
    await setVariable(admin, 'log_output', 'FILE');
    await setVariable(admin, 'long_query_time', 0);
    if (flavor === 'mysql') await setVariable(admin, 'log_slow_extra', 'ON');
    else await setVariable(admin, 'log_slow_verbosity', 'query_plan,explain');
    await setVariable(admin, 'slow_query_log', 'ON');
  });

  afterAll(async () => {
    try {
      // slow_query_log first, so the server stops writing before the file setting changes.
      const order = [...saved].sort(
        (a, b) => Number(b.name === 'slow_query_log') - Number(a.name === 'slow_query_log'),
      );
      for (const variable of order) await setVariable(admin, variable.name, variable.value);
    } finally {
      await admin?.end();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('digests every statement of the workload once, with its schema', async () => {
    await withScratchDatabase(url, async (_setup, schema) => {
      const connection = await connect(url, schema);
      try {
        await runWorkload(connection);
      } finally {
        await connection.end();
      }
      await waitForMarker(logFile);
      const result = await digestFilesInThread([logFile]);
      const expected = expectedCounts();
      const found = Object.fromEntries(
        result.classes
          .filter((c) => c.fingerprint in expected)
          .map((c) => [c.fingerprint, { count: c.queryCount, schemas: c.schemas }]),
      );
      expect(found).toEqual(
        Object.fromEntries(Object.entries(expected).map(([fp, count]) => [fp, { count, schemas: [schema] }])),
      );
      expect(result.skipped).toEqual([]);

      if (UPDATE) await saveFixture(flavor, logFile, schema);
    });
  });
});

/** Writes `<flavor>.log`, pt-query-digest's JSON for it and our CLI JSON. */
async function saveFixture(flavor: string, logFile: string, schema: string): Promise<void> {
  const name = `${flavor}-workload`;
  const log = path.join(fixtures, `${name}.log`);
  writeFileSync(log, Buffer.from(sanitize(readFileSync(logFile, 'latin1'), schema), 'latin1'));
  const pt = spawnSync(
    'pt-query-digest',
    ['--no-version-check', '--output', 'json', '--limit', '1000000', log],
    { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } },
  );
  if (pt.status !== 0) throw new Error(`pt-query-digest failed: ${pt.stderr}`);
  const ptJson = JSON.parse(pt.stdout) as { global: Record<string, unknown> };
  delete ptJson.global.files; // holds the absolute path
  writeFileSync(path.join(fixtures, `${name}.pt.json`), `${JSON.stringify(ptJson, null, 2)}\n`);
  const ours = digestToJson(await digestFilesInThread([log]));
  writeFileSync(
    path.join(fixtures, `${name}.expected.json`),
    `${JSON.stringify({ ...ours, source: { ...ours.source, files: [], elapsedMs: 0 } }, null, 2)}\n`,
  );
}
