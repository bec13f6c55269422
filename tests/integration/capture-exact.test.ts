// Live capture stays exact when performance_schema resets mid-window, and counts server-side prepared statements (or says how many it missed).
/*
 * Own servers (startServer): the test truncates performance_schema tables, which would disturb
 * every other test on a shared server. Six statement shapes run a known number of times, then
 * someone runs TRUNCATE TABLE performance_schema.events_statements_summary_by_digest, then they
 * run again; a prepared statement runs through mysql2 execute() (binary protocol) before and
 * after. The window's counts must be the executions, exactly.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/fingerprint/index.js';
import type { DigestDelta } from '../../src/core/capture/index.js';
import { captureDigestWindow } from '../../src/main/services/capture.js';
import { CaptureWindows } from '../../src/main/services/capture-windows.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';
import { waitFor } from '../support/wait.js';
import { watched } from '../support/watched.js';

/** Statement shapes (distinct digests) and how often each runs before and after the TRUNCATE. */
const SHAPES = [
  { sql: (i: number) => `SELECT v AS s1 FROM t WHERE id = ${i}`, before: 3, after: 2 },
  { sql: (i: number) => `SELECT COUNT(*) AS s2 FROM t WHERE v > ${i}`, before: 5, after: 0 },
  { sql: (i: number) => `SELECT MAX(v) AS s3 FROM t WHERE id < ${i + 2}`, before: 2, after: 4 },
  { sql: (i: number) => `UPDATE t SET v = v + ${i} WHERE id = 1`, before: 4, after: 1 },
  { sql: (i: number) => `SELECT id AS s5 FROM t ORDER BY v DESC LIMIT ${i + 1}`, before: 1, after: 3 },
  {
    sql: (i: number) => `INSERT INTO t (id, v) VALUES (${100 + i + Math.floor(Math.random() * 1e6)}, 0)`,
    before: 6,
    after: 2,
  },
];
const PREPARED = { sql: 'SELECT v AS p1 FROM t WHERE id = ?', before: 7, after: 5 };
const MARKERS = ['s1', 's2', 's3', 'UPDATE', 's5', 'INSERT'];

const servers: { name: string; flavor: Flavor }[] = [
  { name: 'MySQL 8.0.33', flavor: 'mysql' },
  { name: 'MariaDB 10.11 (performance_schema ON)', flavor: 'mariadb' },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runBatch(connection: mysql.Connection, phase: 'before' | 'after'): Promise<void> {
  for (const shape of SHAPES) for (let i = 0; i < shape[phase]; i++) await connection.query(shape.sql(i));
  for (let i = 0; i < PREPARED[phase]; i++) await connection.execute(PREPARED.sql, [i % 3]);
}

function shapeCounts(delta: DigestDelta): Record<string, number> {
  const out: Record<string, number> = {};
  for (const cls of delta.classes) {
    if (cls.status === 'prepared') continue;
    const marker = MARKERS.find((m) =>
      (cls.digestText ?? '').includes(m === 'UPDATE' || m === 'INSERT' ? m : `\`${m}\``),
    );
    if (marker && cls.schema === 'exact') out[marker] = (out[marker] ?? 0) + cls.count;
  }
  return out;
}

describe.sequential.each(servers)('live capture exact under resets: $name', ({ flavor }) => {
  let server: TestServer;
  let admin: mysql.Connection;
  let work: mysql.Connection;

  beforeAll(async () => {
    server = await startServer(flavor, flavor === 'mariadb' ? { performanceSchema: true } : {});
    admin = await mysql.createConnection({ uri: server.url });
    await admin.query('CREATE DATABASE exact');
    work = await mysql.createConnection({ uri: server.url, database: 'exact' });
    await work.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    await work.query('INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)');
  }, 180_000);

  afterAll(async () => {
    await work?.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await server?.stop();
  });

  async function windowWithTruncate(pollSeconds: number): Promise<DigestDelta> {
    const info = await detectServerInfo(admin);
    const polled = watched(admin);
    // Long enough for the steps below on a loaded machine: a statement after its end would be missed.
    const window = captureDigestWindow(polled.connection, info, 8, { pollSeconds });
    // The first snapshot is taken (a fixed sleep raced with it on a loaded machine).
    await waitFor('the first snapshot', polled.idle, 30_000, 5);
    await runBatch(work, 'before');
    const afterBatch = polled.started();
    // MariaDB's FIRST_SEEN has whole seconds: rows made again within the same second look unchanged.
    await sleep(1100);
    // With pollSeconds < 1: at least one poll after the first batch.
    if (pollSeconds < 1)
      await waitFor(
        'a poll after the first batch',
        () => polled.done() > afterBatch && polled.idle(),
        30_000,
        5,
      );
    await mysql.createConnection({ uri: server.url }).then(async (other) => {
      await other.query('TRUNCATE TABLE performance_schema.events_statements_summary_by_digest');
      await other.end();
    });
    await runBatch(work, 'after');
    return window;
  }

  it('a TRUNCATE mid-window: every digest counts its executions before and after it, with a note', async () => {
    const delta = await windowWithTruncate(0.5);
    const expected = Object.fromEntries(SHAPES.map((shape, i) => [MARKERS[i]!, shape.before + shape.after]));
    expect(shapeCounts(delta)).toEqual(expected);
    expect(delta.notes.map((note) => note.code)).toContain('counters-reset');
    // Our own polling never shows up among the classes.
    expect(delta.classes.filter((cls) => /performance_schema/i.test(cls.digestText ?? ''))).toEqual([]);

    const executions = PREPARED.before + PREPARED.after;
    const prepared = delta.classes.filter((cls) => cls.status === 'prepared');
    if (flavor === 'mysql') {
      expect(prepared.map((cls) => [cls.fingerprint?.fingerprint, cls.count])).toEqual([
        [fingerprint(PREPARED.sql), executions],
      ]);
      expect(delta.prepared).toEqual({ executions, attributed: executions, missed: 0, perStatement: true });
    } else {
      // MariaDB counts COM_STMT_EXECUTE only in total: the result says how many it missed.
      expect(prepared).toEqual([]);
      expect(delta.prepared).toEqual({ executions, attributed: 0, missed: executions, perStatement: false });
      const note = delta.notes.find((n) => n.code === 'prepared-statements');
      expect(note?.message).toContain(`${executions} executions`);
    }
  }, 60_000);

  it('two snapshots around the TRUNCATE (no poll between): since-reset counts, and the note says what is unknown', async () => {
    const delta = await windowWithTruncate(60);
    const counts = shapeCounts(delta);
    const expected = Object.fromEntries(
      SHAPES.map((shape, i) => [MARKERS[i]!, shape.after]).filter(([, n]) => (n as number) > 0),
    );
    expect(counts).toEqual(expected);
    const note = delta.notes.find((n) => n.code === 'counters-reset');
    expect(note?.message).toContain('is not known');
  }, 60_000);

  it("the API's polling window (capture.windowStart/Poll, what Top queries shows live): a TRUNCATE between two polls stays exact", async () => {
    const info = await detectServerInfo(admin);
    const windows = new CaptureWindows();
    const { windowId } = await windows.start('c', admin, info);
    await runBatch(work, 'before');
    const first = await windows.poll('c', windowId, admin, info);
    expect(shapeCounts(first)).toEqual(
      Object.fromEntries(SHAPES.map((shape, i) => [MARKERS[i]!, shape.before])),
    );
    // MariaDB's FIRST_SEEN has whole seconds: a row made again within the same second looks unchanged.
    await sleep(1100);
    const other = await mysql.createConnection({ uri: server.url });
    await other.query('TRUNCATE TABLE performance_schema.events_statements_summary_by_digest');
    await other.end();
    await runBatch(work, 'after');
    const second = await windows.poll('c', windowId, admin, info);
    expect(shapeCounts(second)).toEqual(
      Object.fromEntries(SHAPES.map((shape, i) => [MARKERS[i]!, shape.before + shape.after])),
    );
    expect(second.notes.map((note) => note.code)).toContain('counters-reset');
    expect(second.from.takenAt).toBe(first.from.takenAt);
    // Another connection's id cannot read it; an ended window is gone.
    await expect(windows.poll('other', windowId, admin, info)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(windows.end('c', windowId)).toBe(true);
    await expect(windows.poll('c', windowId, admin, info)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);
});
