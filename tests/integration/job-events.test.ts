// Job progress as events (job.events): a real slow-log digest reports progress and completes, a cancel stops it,
// and the slow-log window's mysql.slow_log read is stopped on the server (KILL QUERY of our own connection) on both servers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHandlers } from '../../src/main/events.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { CaptureService } from '../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { FileGrants } from '../../src/main/services/file-grants.js';
import type { JobStatusReply } from '../../src/shared/api/capture.js';
import { createListen, localEventTransport } from '../../src/shared/events.js';
import { followJob } from '../../src/renderer/state/job.js';
import { connect } from '../support/db.js';
import { flavors, startServer, type TestServer } from '../support/servers.js';

const workload = fileURLToPath(new URL('../fixtures/slowlogs/generated/mysql-workload.log', import.meta.url));

let dir: string;
let bigLog: string;

beforeAll(() => {
  // A real server's slow log (generated fixture) repeated to about 60 MB, so the digest takes a while.
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-job-events-'));
  bigLog = path.join(dir, 'slow.log');
  const text = readFileSync(workload, 'utf8');
  writeFileSync(bigLog, text.repeat(Math.ceil((60 * 1024 * 1024) / text.length)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function faces() {
  const services: Parameters<typeof createHandlers>[0] = {
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    capture: new CaptureService(),
    // As `--allow-dir`: digest.start opens only files under folders the user chose.
    files: new FileGrants({ roots: [dir] }),
  };
  return {
    services,
    api: createHandlers(services),
    listen: createListen(localEventTransport(createEventHandlers(services))),
  };
}

describe('slow-log digest job as events', () => {
  it('reports growing progress, then completes with the classes; no job.status call is needed', async () => {
    const { api, listen } = faces();
    const { jobId } = await api['digest.start']({ paths: [bigLog], view: 'top' });
    const seen: JobStatusReply[] = [];
    const final = await followJob(listen, jobId, (status) => seen.push(status));
    const running = seen.filter((status) => status.state === 'running' && status.progress.bytesRead);
    expect(running.length).toBeGreaterThanOrEqual(2);
    const bytes = running.map((status) => status.progress.bytesRead!);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(bytes.at(-1)!).toBeLessThanOrEqual(running[0]!.progress.totalBytes!);
    expect(final).toMatchObject({ state: 'done', kind: 'digest' });
    const result = final!.result as { global: { events: number }; classes: unknown[] };
    expect(result.classes.length).toBeGreaterThan(0);
    expect(final!.progress.bytesRead).toBe(running[0]!.progress.totalBytes);
  });

  it('job.cancel stops it: the stream ends with cancelled before the end of the file', async () => {
    const { api, listen } = faces();
    const { jobId } = await api['digest.start']({ paths: [bigLog, bigLog, bigLog] });
    let cancelled: Promise<JobStatusReply> | undefined;
    const final = await followJob(listen, jobId, (status) => {
      if (!cancelled && status.state === 'running' && (status.progress.bytesRead ?? 0) > 0)
        cancelled = api['job.cancel']({ jobId });
    });
    expect(final).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED' } });
    expect(final!.progress.bytesRead ?? 0).toBeLessThan(final!.progress.totalBytes ?? Infinity);
    expect((await cancelled)?.state).toBe('cancelled');
  });
});

/*
 * The real job that runs SQL: the slow-log window (capture.slowLogWindow) reads mysql.slow_log once the
 * window is over. mysql.slow_log is a CSV table without indexes, so each batch SELECT scans the file up
 * to the cursor; the test adds earlier rows 150 MB at a time until one read takes seconds. A cancel during
 * that read must kill it on the server (KILL QUERY of our own connection): the processlist shows our
 * reader idle again well before the scan could have finished by itself. Own servers: the test fills
 * mysql.slow_log through the global slow-log settings.
 */
describe.each(flavors)('the slow-log window job, cancelled while it reads mysql.slow_log: %s', (flavor) => {
  let server: TestServer;
  /** How long one full scan of the filled mysql.slow_log takes on this server. */
  let scanMs: number;

  beforeAll(async () => {
    server = await startServer(flavor);
    const admin = await connect(server.url);
    /** Adds ~150 MB of rows to mysql.slow_log through the global slow-log settings. */
    const fill = async () => {
      await admin.query("SET GLOBAL log_output = 'TABLE'");
      await admin.query('SET GLOBAL long_query_time = 0');
      await admin.query('SET GLOBAL slow_query_log = ON');
      // A new session picks the global values up (MariaDB's slow_query_log is per session too).
      const filler = await connect(server.url);
      const pad = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 150; i++) await filler.query(`SELECT ${i} AS filler /* ${pad} */`);
      await filler.end();
      await admin.query('SET GLOBAL slow_query_log = OFF');
      await admin.query('SET GLOBAL long_query_time = 10');
      await admin.query("SET GLOBAL log_output = 'FILE'");
    };
    const scan = async () => {
      const started = Date.now();
      await admin.query('SELECT COUNT(*) FROM mysql.slow_log');
      return Date.now() - started;
    };
    // A fast machine scans 150 MB in under a second (914 ms measured on MySQL): fill until one scan
    // takes seconds, so a kill can be told from a read that just ended.
    await fill();
    scanMs = await scan();
    for (let round = 0; scanMs < 2500 && round < 6; round++) {
      await fill();
      scanMs = await scan();
    }
    await admin.end();
  });
  afterAll(async () => server?.stop());

  it('cancel kills our read on the server; the settings are restored and the connection stays usable', async () => {
    // Without a scan of seconds the check below could not tell a kill from a read that just ended.
    expect(scanMs).toBeGreaterThan(1500);
    const { services, listen } = faces();
    const api = createHandlers(services);
    const { connectionId } = await services.connections.openConnection({ dsn: server.url });
    const admin = await connect(server.url);
    try {
      const { connection } = services.connections.get(connectionId);
      const [idRows] = await connection.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
      const readerId = Number(idRows[0]?.id);
      /** What our reader session runs now (null when idle), from the processlist. */
      const readerRuns = async (): Promise<string | null> => {
        const [rows] = await admin.query<RowDataPacket[]>(
          'SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = ?',
          [readerId],
        );
        expect(rows).toHaveLength(1); // KILL QUERY, never KILL CONNECTION
        return (rows[0]?.INFO as string | null) ?? null;
      };
      const { jobId } = await api['capture.slowLogWindow']({
        connectionId,
        seconds: 1,
        longQueryTime: 0,
        consent: true,
      });
      const seen: JobStatusReply[] = [];
      const following = followJob(listen, jobId, (status) => seen.push(status));
      // The window runs (1 s), then the job reads mysql.slow_log on the reader session.
      const deadline = Date.now() + 60_000;
      let running = await readerRuns();
      while (!running?.includes('mysql.slow_log')) {
        expect(Date.now()).toBeLessThan(deadline);
        expect(seen.at(-1)?.state ?? 'running').toBe('running');
        await new Promise((resolve) => setTimeout(resolve, 50));
        running = await readerRuns();
      }
      const cancelledAt = Date.now();
      await api['job.cancel']({ jobId });
      const final = await following;
      expect(final).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED' } });
      // Gone from the processlist long before the scan would have ended by itself.
      let left = await readerRuns();
      while (left?.includes('mysql.slow_log') && Date.now() - cancelledAt < scanMs) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        left = await readerRuns();
      }
      expect(left).toBeNull();
      expect(Date.now() - cancelledAt).toBeLessThan(scanMs / 2);
      // The window restored the settings before the read, and the session still answers.
      const [settings] = await admin.query<RowDataPacket[]>(
        "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('slow_query_log', 'log_output', 'long_query_time')",
      );
      expect(Object.fromEntries(settings.map((row) => [row.Variable_name, row.Value]))).toEqual({
        log_output: 'FILE',
        long_query_time: '10.000000',
        slow_query_log: 'OFF',
      });
      const [rows] = await connection.query<RowDataPacket[]>('SELECT 1 AS one');
      expect(Number(rows[0]?.one)).toBe(1);
    } finally {
      await admin.end();
      await services.connections.closeAll();
    }
  });
});
