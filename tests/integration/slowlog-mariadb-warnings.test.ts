// MariaDB's slow log with log_slow_verbosity=warnings: messages are written verbatim, and a value in one can hold newlines and `;\n#`.
/*
 * MariaDB ≥ 10.6.16 / 10.11.6 writes a `# Warnings` block after the other header lines, one
 * `# <Level> <code> <message>` per warning, before `use` and `SET timestamp`. The message is not
 * escaped: `SELECT CAST('1\nfoo' AS INT)` warns "Truncated incorrect INTEGER value: '1\nfoo'",
 * so the log holds a header line that does not start with `#`, and with `;\n#` in the value the
 * record is cut inside its header. The server is our own (startServer) with the slow log on from
 * the start; the truth is how often each statement ran. pt-query-digest is compared through
 * `--pt-compatible` when it is installed (it misreads these events too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestFilesInThread } from '../../src/main/services/slowlog-file.js';
import { mariadb114Available, startServer, type TestServer } from '../support/servers.js';
import { ours, theirs } from '../unit/slowlog/pt-json.js';
import {
  classCounts as counts,
  classKey as key,
  ptAvailable,
  ptDigest,
  waitForLog,
} from '../support/slowlog-logs.js';

/** Statements that make the server write a warning holding the user's value, and how often each runs. */
const CASES: { sql: string; times: number }[] = [
  { sql: 'SELECT 0 AS before_warnings', times: 1 },
  { sql: "SELECT CAST('1\nfoo' AS INT) AS w_one", times: 2 },
  { sql: "SELECT CAST('2;\n# Query_time: 5' AS INT) AS w_two", times: 2 },
  { sql: "SELECT CAST('4;\n# User@Host: root[root] @ localhost []' AS INT) AS w_four", times: 1 },
  { sql: 'DROP TABLE IF EXISTS mysql.no_such_table', times: 1 }, // a Note, on one line
  { sql: 'SELECT 9 AS after_warnings', times: 3 },
];

const releases: { name: string; release?: '11.4' }[] = [
  { name: 'MariaDB 10.11' },
  ...(mariadb114Available() ? [{ name: 'MariaDB 11.4', release: '11.4' as const }] : []),
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-slowlog-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.sequential.each(releases)('slow-log warnings read right: $name', ({ name, release }) => {
  let server: TestServer;
  let connection: mysql.Connection;
  beforeAll(async () => {
    server = await startServer('mariadb', {
      ...(release ? { mariadbRelease: release } : {}),
      extraArgs: [
        '--slow-query-log=ON',
        `--slow-query-log-file=${path.join(dir, `${name.replace(/\W+/g, '-')}-start.log`)}`,
        '--long-query-time=0',
        '--log-output=FILE',
        '--log-slow-verbosity=query_plan,explain,warnings',
      ],
    });
    connection = await mysql.createConnection({ uri: server.url });
  }, 180_000);

  afterAll(async () => {
    await connection?.end().catch(() => undefined);
    await server?.stop();
  });

  let attempt = 0;
  it('counts every statement as often as it ran; --pt-compatible prints what pt-query-digest prints', async () => {
    // A file of its own per attempt (a retry must not count the statements twice).
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}-${++attempt}.log`);
    await connection.query('SET GLOBAL slow_query_log_file = ?', [file]);
    for (const { sql, times } of CASES) for (let i = 0; i < times; i++) await connection.query(sql);
    await connection.query("SELECT 'warnings done' AS marker");
    const text = await waitForLog(file, 'warnings done');
    // The server wrote the messages verbatim (the case this test is about).
    expect(text).toContain("# Warnings\n# Warning 1292 Truncated incorrect INTEGER value: '1\nfoo'\n");
    expect(text).toContain("value: '2;\n# Query_time: 5'\n");

    const result = await digestFilesInThread([file]);
    const found = counts(result);
    for (const { sql, times } of CASES)
      expect({ sql, count: found[key(sql)] }).toEqual({ sql, count: times });
    // No message line became a statement, and the fake Query_time in a value was not read.
    const junk = result.classes.filter((c) => /truncated|user@host|query_time|^foo/i.test(c.fingerprint));
    expect(junk.map((c) => c.fingerprint)).toEqual([]);
    expect(result.skipped).toEqual([]);
    const two = result.classes.find((c) => c.fingerprint === key(CASES[2]!.sql))!;
    expect(two.queryTime!.max).toBeLessThan(1);

    // pt-query-digest's reading differs on this very log, and --pt-compatible is exactly it.
    const pt = await digestFilesInThread([file], { ptCompatible: true });
    expect(counts(pt)[key(CASES[1]!.sql)] ?? 0).toBeLessThan(2);
    const ptJson = ptDigest(file);
    if (ptAvailable()) expect(ptJson).toBeDefined();
    if (ptJson) expect(ours(pt)).toEqual(theirs(ptJson));
  }, 60_000);
});
