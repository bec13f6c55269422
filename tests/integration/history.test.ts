// The capture history against real servers: two live windows (capture.windowStart/Poll/End through the
// app's handlers) with known statements are recorded, the trend shows each window's counts, and a class
// that ran only in the second window is marked new.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorApi } from '../../src/shared/api.js';
import type { HistoryRecordReply, HistoryTrendsReply } from '../../src/shared/api/history.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type TestServer } from '../support/servers.js';
import { runCliCaptured } from '../support/cli.js';

const CANARY = 'canary_5e1f_literal';

/** One live window through the handlers around `work`; what the history stored. */
async function liveWindow(
  handlers: AdvisorApi,
  connectionId: string,
  work: () => Promise<void>,
): Promise<HistoryRecordReply> {
  const { windowId } = await handlers['capture.windowStart']({ connectionId });
  await work();
  await handlers['capture.windowPoll']({ connectionId, windowId });
  const ended = await handlers['capture.windowEnd']({ connectionId, windowId });
  expect(ended.ended).toBe(true);
  return ended.recorded!;
}

const TABLE_ROWS = 20;

/** Runs `statements` on a fresh connection to `database`. */
async function run(url: string, database: string, statements: string[]): Promise<void> {
  const connection = await connect(url, database);
  try {
    for (const sql of statements) await connection.query(sql);
  } finally {
    await connection.end();
  }
}

const points = (selects: number) =>
  Array.from({ length: selects }, (_, i) => `SELECT * FROM t WHERE v = ${i + 1}`);
const counts = (n: number) => Array.from({ length: n }, (_, i) => `SELECT COUNT(*) FROM t WHERE v > ${i}`);

describe.each(testServers().map((s) => [s.flavor, s] as const))(
  'history of live windows on %s',
  (flavor, shared) => {
    // Own servers: MariaDB's performance_schema is OFF on the shared server (its default), and the
    // shared MySQL's digest table (10,000 rows) may be full of other tests' statements by now, when
    // new statements are only counted as digest_lost and our classes never show (seen on a busy one).
    let own: TestServer | undefined;
    let url = shared.url;
    let readOnlyUrl = shared.readOnlyUrl ?? shared.url;
    beforeAll(async () => {
      own = await startServer(flavor, flavor === 'mariadb' ? { performanceSchema: true } : {});
      url = own.url;
      readOnlyUrl = own.readOnlyUrl;
    }, 180_000);
    afterAll(async () => {
      await own?.stop();
    });

    it('records two windows; the trend counts each, and a class only in the second is new', async () => {
      const { handlers, connections, userDataDir } = testHandlers('sargable-history');
      try {
        const opened = await handlers['connection.open']({ dsn: readOnlyUrl });
        const connectionId = opened.connectionId;
        await withScratchDatabase(url, async (admin, database) => {
          await admin.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
          await admin.query(
            `INSERT INTO t (v) VALUES ${Array.from({ length: TABLE_ROWS }, (_, i) => `(${i + 1})`).join(', ')}`,
          );
          const windowOf = async (statements: string[]): Promise<HistoryRecordReply> => {
            const { windowId } = await handlers['capture.windowStart']({ connectionId });
            await run(url, database, statements);
            await handlers['capture.windowPoll']({ connectionId, windowId });
            const ended = await handlers['capture.windowEnd']({ connectionId, windowId });
            expect(ended.ended).toBe(true);
            return ended.recorded!;
          };
          const first = await windowOf(points(5));
          const second = await windowOf([...points(3), ...counts(2)]);
          expect(first).toMatchObject({ samples: 'full', omitted: 0 });
          expect(first.windowId).toBeGreaterThan(0);
          expect(second.windowId).toBeGreaterThan(first.windowId!);

          const trends: HistoryTrendsReply = await handlers['history.trends']({ windowId: second.windowId! });
          expect(trends.windows.map((w) => w.id)).toEqual([first.windowId, second.windowId]);
          const host = new URL(readOnlyUrl);
          expect(trends.windows.map((w) => [w.source, w.profile, w.server])).toEqual([
            ['performance_schema', null, `${host.hostname}:${host.port}`],
            ['performance_schema', null, `${host.hostname}:${host.port}`],
          ]);
          const ours = trends.classes.filter((c) => c.classId.startsWith(`${database}/`));
          const select = ours.find((c) => c.fingerprint === 'select * from t where v = ?');
          const count = ours.find((c) => /^select count\(\*\) from t where v > \?$/.test(c.fingerprint));
          expect({
            select: select?.points.map((p) => p?.count ?? null),
            selectRows: select?.points.map((p) => p?.rowsExamined ?? null),
            selectNew: select?.markers.new,
            count: count?.points.map((p) => p?.count ?? null),
            countNew: count?.markers.new,
          }).toEqual({
            select: [5, 3],
            selectRows: [5 * TABLE_ROWS, 3 * TABLE_ROWS],
            selectNew: false,
            count: [null, 2],
            countNew: true,
          });
          // One class's history; the windows list; the stored sample (not production: the real statement).
          const history = await handlers['history.class']({ classId: select!.classId });
          expect(history.points.map((p) => p?.count ?? null)).toEqual([5, 3]);
          expect(history.schemas).toEqual([database]);
          if (flavor === 'mysql') expect(history.sample).toMatch(/^SELECT \* FROM t WHERE v = \d$/);
          const listed = await handlers['history.windows']({ profile: `${host.hostname}:${host.port}` });
          expect(listed.windows.map((w) => w.id)).toEqual([second.windowId, first.windowId]);
        });
      } finally {
        await connections.closeAll();
        fs.rmSync(userDataDir, { recursive: true, force: true });
      }
    }, 120_000);

    it('a production profile stores placeholders only: the literal is not in the file; without the flag it is (MySQL has samples)', async () => {
      const { handlers, connections, userDataDir } = testHandlers('sargable-history-prod');
      const file = path.join(userDataDir, 'history.sqlite');
      try {
        const ro = new URL(readOnlyUrl);
        await withScratchDatabase(url, async (admin, database) => {
          await admin.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(40))');
          await admin.query("INSERT INTO t (v) VALUES ('a'), ('b')");
          const canaryQuery = () => run(url, database, [`SELECT * FROM t WHERE v = '${CANARY}'`]);
          const saved = await handlers['profiles.save']({
            profile: {
              name: `Prod history ${flavor}`,
              color: 'red',
              host: ro.hostname,
              port: Number(ro.port),
              user: decodeURIComponent(ro.username),
              production: true,
            },
          });
          const prod = await handlers['profiles.connect']({
            id: saved.profile.id,
            password: decodeURIComponent(ro.password),
          });
          const stored = await liveWindow(handlers, prod.connectionId, canaryQuery);
          expect(stored.samples).toBe('placeholders');
          const windows = await handlers['history.windows']({ profile: `Prod history ${flavor}` });
          expect(windows.windows.map((w) => [w.id, w.production, w.samples])).toEqual([
            [stored.windowId, true, 'placeholders'],
          ]);
          const trends = await handlers['history.trends']({ windowId: stored.windowId! });
          const ours = trends.classes.find(
            (c) => c.classId.startsWith(`${database}/`) && /where v = \?/i.test(c.fingerprint),
          );
          expect(ours).toBeDefined();
          const detail = await handlers['history.class']({ classId: ours!.classId });
          expect(detail.sample).toMatch(/^SELECT \* FROM t WHERE v = \?$/);
          expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(false);
          if (flavor === 'mysql') {
            // The control: the same window on a connection without the production flag keeps the real statement.
            const plain = await handlers['connection.open']({ dsn: readOnlyUrl });
            const full = await liveWindow(handlers, plain.connectionId, canaryQuery);
            expect(full.samples).toBe('full');
            expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(true);
            // Clearing that server's windows takes the literal out of the file's bytes.
            await handlers['history.clear']({
              profile: `${ro.hostname}:${ro.port}`,
              source: 'performance_schema',
            });
            expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(false);
          }
        });
      } finally {
        await connections.closeAll();
        fs.rmSync(userDataDir, { recursive: true, force: true });
      }
    }, 120_000);

    it('sargable capture --record stores the live window; without --record nothing is stored', async () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-history-cli-'));
      const env = { XDG_CONFIG_HOME: home };
      const file = path.join(home, 'sargable', 'history.sqlite');
      try {
        const plain = await runCliCaptured(
          ['capture', '--dsn', readOnlyUrl, '--window', '0.5', '--format', 'json'],
          { cwd: home, env },
        );
        expect(plain.code).toBe(0);
        expect(fs.existsSync(file)).toBe(false);
        await withScratchDatabase(url, async (admin, database) => {
          await admin.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
          const capturing = runCliCaptured(
            [
              'capture',
              '--dsn',
              readOnlyUrl,
              '--window',
              '3',
              '--record',
              '--limit',
              '1',
              '--format',
              'json',
            ],
            { cwd: home, env },
          );
          await new Promise((resolve) => setTimeout(resolve, 1000));
          await run(url, database, points(4));
          const out = await capturing;
          expect(out.code).toBe(0);
          expect(out.stderr).toMatch(/recorded window #1 /);
          const exported = await runCliCaptured(
            ['history', '--format', 'json', '--source', 'performance_schema'],
            { cwd: home, env },
          );
          const report = JSON.parse(exported.stdout) as {
            windows: { source: string; server: string }[];
            rows: { classId: string; fingerprint: string; count: number }[];
          };
          const ro = new URL(readOnlyUrl);
          expect(report.windows.map((w) => [w.source, w.server])).toEqual([
            ['performance_schema', `${ro.hostname}:${ro.port}`],
          ]);
          // Every class is stored, not only the one --limit 1 showed.
          const ours = report.rows.filter((row) => row.classId.startsWith(`${database}/`));
          expect(ours.find((row) => row.fingerprint === 'select * from t where v = ?')?.count).toBe(4);
        });
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
