// A live window's 95th percentile is the window's own (histogram bucket deltas on MySQL), not the digest's history; MariaDB says "since first seen".
/*
 * Own servers (startServer): the test truncates performance_schema tables. One statement shape,
 * `SELECT SLEEP(?)`, runs slow (200 ms) before a window and fast (5 ms) in it, then the other
 * way round, so the digest's since-first-seen p95 and the window's differ by 40×. A third window
 * has a TRUNCATE of the digest table between its polls (the per-row reset: the buckets count
 * from zero after it).
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topClassesFromDelta, type DigestDelta } from '../../src/core/capture/index.js';
import { captureDigestWindow } from '../../src/main/services/capture.js';
import { CaptureWindows } from '../../src/main/services/capture-windows.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';
import { waitFor } from '../support/wait.js';
import { watched } from '../support/watched.js';

const servers: { name: string; flavor: Flavor }[] = [
  { name: 'MySQL 8.0.33', flavor: 'mysql' },
  { name: 'MariaDB 10.11 (performance_schema ON)', flavor: 'mariadb' },
];

const SLOW = 0.2;
const FAST = 0.005;

function sleepClass(delta: DigestDelta) {
  return delta.classes.find((cls) => cls.schema === 'p95' && /SLEEP/i.test(cls.digestText ?? ''));
}

describe.sequential.each(servers)('live window p95: $name', ({ flavor }) => {
  let server: TestServer;
  let admin: mysql.Connection;
  let work: mysql.Connection;
  let info: ServerInfo;
  const run = async (seconds: number, times: number) => {
    for (let i = 0; i < times; i++) await work.query(`SELECT SLEEP(${seconds})`);
  };

  beforeAll(async () => {
    server = await startServer(flavor, flavor === 'mariadb' ? { performanceSchema: true } : {});
    admin = await mysql.createConnection({ uri: server.url });
    await admin.query('CREATE DATABASE p95');
    work = await mysql.createConnection({ uri: server.url, database: 'p95' });
    info = await detectServerInfo(admin);
  }, 180_000);

  afterAll(async () => {
    await work?.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await server?.stop();
  });

  it('fast in the window after a slow history: the window p95 is the fast one; then slow in a window: the slow one', async () => {
    await run(SLOW, 10);
    const windows = new CaptureWindows();
    const { windowId } = await windows.start('c', admin, info);
    await run(FAST, 20);
    const fast = sleepClass(await windows.poll('c', windowId, admin, info));
    expect(fast?.count).toBe(20);
    // The digest's history: a third of its executions took 200 ms.
    if (flavor === 'mysql') {
      expect(fast!.lifetime.p95Ms).toBeGreaterThan(150);
      // The window: every execution took ~5 ms (a bucket's upper bound is within ~5 % of it).
      expect(fast!.window).not.toBeNull();
      expect(fast!.window!.p95Ms).toBeGreaterThanOrEqual(FAST * 1000 * 0.9);
      // Nearer the fast executions than the slow history: a 5 ms SLEEP takes longer on a loaded machine.
      expect(fast!.window!.p95Ms).toBeLessThan((SLOW * 1000) / 2);
      expect(fast!.window!.p95Ms!).toBeLessThanOrEqual(fast!.lifetime.maxMs);
      const [row] = topClassesFromDelta({ classes: [fast!] });
      expect(row!.latency.windowQuantiles).toBe(true);
      expect(row!.latency.p95!).toBeCloseTo(fast!.window!.p95Ms! / 1000, 3);
      expect(row!.latency.p95!).toBeLessThan(SLOW / 2);
    } else {
      // MariaDB 10.11 has no events_statements_histogram_by_digest (nor quantiles): "since first seen" only.
      expect(info.capabilities.digestQuantiles).toBe(false);
      expect(fast!.window).toBeNull();
      expect(fast!.lifetime.p95Ms).toBeNull();
      expect(topClassesFromDelta({ classes: [fast!] })[0]!.latency.windowQuantiles).toBe(false);
    }

    // The other way round: a fast history, two slow executions among 21 in the window.
    const next = await windows.start('c', admin, info);
    await run(FAST, 19);
    await windows.poll('c', next.windowId, admin, info);
    await run(SLOW, 2);
    const slow = sleepClass(await windows.poll('c', next.windowId, admin, info));
    expect(slow?.count).toBe(21);
    if (flavor === 'mysql') {
      expect(slow!.window!.p95Ms).toBeGreaterThan(150);
      expect(slow!.window!.p95Ms!).toBeLessThanOrEqual(slow!.lifetime.maxMs);
      expect(slow!.window!.p99Ms!).toBeLessThanOrEqual(slow!.lifetime.maxMs);
    } else expect(slow!.window).toBeNull();
  }, 60_000);

  it('a TRUNCATE between polls: the buckets count from zero after it, the window p95 stays the window', async () => {
    await run(SLOW, 10);
    // 6 s: the steps below end well inside the window on a loaded machine.
    const polled = watched(admin);
    const window = captureDigestWindow(polled.connection, info, 6, { pollSeconds: 1 });
    await waitFor('the first snapshot', polled.idle, 30_000, 5);
    await run(FAST, 10);
    // A poll between the first executions and the TRUNCATE (a fixed 1.3 s raced with it under load).
    const afterRun = polled.started();
    await waitFor(
      'a poll after the first executions',
      () => polled.done() > afterRun && polled.idle(),
      30_000,
      5,
    );
    await admin.query('TRUNCATE TABLE performance_schema.events_statements_summary_by_digest');
    await run(FAST, 10);
    const cls = sleepClass(await window);
    expect(cls?.count).toBe(20);
    expect(cls?.status).toBe('reset');
    if (flavor === 'mysql') {
      expect(cls!.window).not.toBeNull();
      expect(cls!.window!.p95Ms).toBeLessThan((SLOW * 1000) / 2);
    } else expect(cls!.window).toBeNull();
  }, 60_000);
});
