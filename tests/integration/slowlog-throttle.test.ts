// MySQL's slow-log throttle summary (`throttle: N 'index not used' warning(s) suppressed.`) is not a statement: it is reported as N statements that were not logged.
/*
 * With log_queries_not_using_indexes=ON and log_throttle_queries_not_using_indexes=K, MySQL logs
 * at most K such statements per minute and then writes one summary event (user `[] @ []`) whose
 * "statement" is `throttle: N 'index not used' warning(s) suppressed.`. pt-query-digest makes it a
 * query class that ran once; the default reading reports it in skipped[] with N, and
 * `--pt-compatible` keeps pt's class. Changing log_throttle_queries_not_using_indexes flushes the
 * summary at once, so the test does not wait for the minute to end. MariaDB has no such setting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestFilesInThread } from '../../src/main/services/slowlog-file.js';
import { startServer, type TestServer } from '../support/servers.js';
import { ours, theirs } from '../unit/slowlog/pt-json.js';
import { classKey, ptAvailable, ptDigest, waitForLog } from '../support/slowlog-logs.js';

const NO_INDEX = 'SELECT * FROM noidx WHERE b = 1';
const RUNS = 7;
const ALLOWED = 2; // log_throttle_queries_not_using_indexes

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-slowlog-throttle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MySQL 8.0.33: the slow-log throttle summary', () => {
  let server: TestServer;
  let connection: mysql.Connection;

  beforeAll(async () => {
    server = await startServer('mysql', {
      extraArgs: [
        '--slow-query-log=ON',
        `--slow-query-log-file=${path.join(dir, 'start.log')}`,
        '--long-query-time=10',
        '--log-output=FILE',
        '--log-queries-not-using-indexes=ON',
        `--log-throttle-queries-not-using-indexes=${ALLOWED}`,
      ],
    });
    connection = await mysql.createConnection({ uri: server.url });
    await connection.query('CREATE DATABASE throttle_test');
    await connection.query('USE throttle_test');
    await connection.query('CREATE TABLE noidx (a INT, b INT)');
    await connection.query('INSERT INTO noidx VALUES (1, 1), (2, 2)');
  }, 180_000);

  afterAll(async () => {
    await connection?.end().catch(() => undefined);
    await server?.stop();
  });

  let attempt = 0;
  it('is reported as statements that were not logged, not as a statement', async () => {
    const file = path.join(dir, `throttle-${++attempt}.log`);
    await connection.query('SET GLOBAL slow_query_log_file = ?', [file]);
    for (let i = 0; i < RUNS; i++) await connection.query(NO_INDEX);
    // Setting the limit flushes the summary; MySQL counts N against the limit in force then (set
    // to 0 it would report every run of the window as suppressed), so it is set to itself.
    await connection.query(`SET GLOBAL log_throttle_queries_not_using_indexes = ${ALLOWED}`);
    const text = await waitForLog(file, 'suppressed.;');
    // The server wrote the summary (the case this test is about).
    const written = /^throttle: +(\d+) 'index not used' warning\(s\) suppressed\.;$/m.exec(text);
    expect(written).not.toBeNull();

    const result = await digestFilesInThread([file]);
    const logged = result.classes.find((c) => c.fingerprint === classKey(NO_INDEX));
    expect(logged?.queryCount).toBe(ALLOWED);
    expect(result.classes.filter((c) => c.fingerprint.startsWith('throttle'))).toEqual([]);
    const summaries = result.skipped.filter((skip) => skip.reason.startsWith("MySQL's throttle summary"));
    expect(summaries).toHaveLength(1);
    const suppressed = Number(/: (\d+) statement\(s\) not using indexes/.exec(summaries[0]!.reason)?.[1]);
    expect(suppressed).toBe(Number(written![1]));
    // Every run is accounted for: logged ones, and the ones the summary counts.
    expect(logged!.queryCount + suppressed).toBe(RUNS);

    // pt-query-digest counts it as a statement that ran once; --pt-compatible is exactly it.
    const pt = await digestFilesInThread([file], { ptCompatible: true });
    expect(pt.classes.filter((c) => c.fingerprint.startsWith('throttle:')).map((c) => c.queryCount)).toEqual([
      1,
    ]);
    const ptJson = ptDigest(file);
    if (ptAvailable()) expect(ptJson).toBeDefined();
    if (ptJson) expect(ours(pt)).toEqual(theirs(ptJson));
  }, 60_000);
});
