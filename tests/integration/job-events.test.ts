// Job progress as events (job.events): a real slow-log digest reports progress and completes, a cancel stops it,
// and a job that runs SQL is stopped on the server (KILL QUERY of our own connection) on both servers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHandlers } from '../../src/main/events.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { CaptureService } from '../../src/main/services/capture.js';
import { ConnectionService, queryKiller } from '../../src/main/services/connection.js';
import { FileGrants } from '../../src/main/services/file-grants.js';
import { boundedQuery } from '../../src/main/services/explain.js';
import type { JobStatusReply } from '../../src/shared/api/capture.js';
import { createListen, localEventTransport } from '../../src/shared/events.js';
import { followJob } from '../../src/renderer/state/job.js';
import { connect, testServers } from '../support/db.js';

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

describe.each(testServers())('a job that runs SQL: $flavor', ({ url }) => {
  it('cancel kills our statement on the server; the connection stays usable', async () => {
    const { services, listen } = faces();
    const { connectionId } = await services.connections.openConnection({ dsn: url });
    const admin = await connect(url);
    const tag = `sargable_job_${Math.random().toString(36).slice(2)}`;
    const inProcesslist = async () => {
      const [rows] = await admin.query<RowDataPacket[]>(
        'SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND ID <> CONNECTION_ID()',
        [`%${tag}%`],
      );
      return rows.length;
    };
    try {
      const { connection, target } = services.connections.get(connectionId);
      const jobId = services.capture!.startJob('sql', (signal) =>
        // A read the analysis session allows (SLEEP is refused there) that runs for minutes: a 4-way cross
        // join with a condition on every row (a bare COUNT(*) is answered from statistics).
        boundedQuery(
          connection,
          `SELECT /* ${tag} */ COUNT(*) FROM mysql.help_topic a, mysql.help_topic b, mysql.help_topic c, mysql.help_topic d WHERE a.help_topic_id + b.help_topic_id + c.help_topic_id + d.help_topic_id < 0`,
          {
            timeoutMs: 120_000,
            signal,
            killQuery: queryKiller(target),
          },
        ),
      );
      // The statement is running on the server.
      for (let tries = 0; (await inProcesslist()) === 0; tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seen: JobStatusReply[] = [];
      const following = followJob(listen, jobId, (status) => seen.push(status));
      const started = Date.now();
      await services.capture!.cancelJob(jobId);
      const final = await following;
      expect(final).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED' } });
      expect(Date.now() - started).toBeLessThan(10_000);
      // Gone from the processlist (KILL QUERY lands within moments), and the session still answers.
      let left = await inProcesslist();
      for (let tries = 0; left > 0 && tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        left = await inProcesslist();
      }
      expect(left).toBe(0);
      const [rows] = await connection.query<RowDataPacket[]>('SELECT 1 AS one');
      expect(Number(rows[0]?.one)).toBe(1);
    } finally {
      await admin.end();
      await services.connections.closeAll();
    }
  });
});
