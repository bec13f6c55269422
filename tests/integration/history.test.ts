// The capture history against real servers: two live windows (capture.windowStart/Poll/End through the
// app's handlers) with known statements are recorded, the trend shows each window's counts, and a class
// that ran only in the second window is marked new.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRecordReply, HistoryTrendsReply } from '../../src/shared/api/history.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type TestServer } from '../support/servers.js';

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
    // MariaDB's performance_schema is OFF on the shared server (its default): start our own with it ON.
    let own: TestServer | undefined;
    let url = shared.url;
    let readOnlyUrl = shared.readOnlyUrl ?? shared.url;
    beforeAll(async () => {
      if (flavor !== 'mariadb') return;
      own = await startServer('mariadb', { performanceSchema: true });
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
        const fs = await import('node:fs');
        fs.rmSync(userDataDir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
