// Capture against real servers: performance_schema deltas, mysql.slow_log reads and the slow-log window helper.
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksum, fingerprint } from '../../src/core/fingerprint/index.js';
import type { DigestDelta } from '../../src/core/capture/index.js';
import { takeDigestSnapshot, digestDelta } from '../../src/main/services/capture.js';
import { CaptureWindows } from '../../src/main/services/capture-windows.js';
import { ConnectionService, resolveTarget } from '../../src/main/services/connection.js';
import { readSlowLogSettings, withSlowLogWindow } from '../../src/main/services/slowlog-window.js';
import { readSlowLogTable, slowLogTableEnd } from '../../src/main/services/slowlog-table.js';
import { AdvisorError } from '../../src/shared/errors.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';

const SELECTS = 7;
const INSERTS = 3;
const TABLE_ROWS = 20;

/** The known workload: 7 unindexed point selects and 3 inserts, on a fresh connection. */
async function runWorkload(url: string, database: string): Promise<void> {
  const connection = await connect(url, database);
  try {
    for (let i = 1; i <= SELECTS; i++) await connection.query(`SELECT * FROM t WHERE v = ${i}`);
    for (let i = 1; i <= INSERTS; i++) await connection.query(`INSERT INTO t (v) VALUES (${100 + i})`);
  } finally {
    await connection.end();
  }
}

async function createTable(connection: mysql.Connection): Promise<void> {
  await connection.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
  const values = Array.from({ length: TABLE_ROWS }, (_, i) => `(${i + 1})`).join(', ');
  await connection.query(`INSERT INTO t (v) VALUES ${values}`);
}

/**
 * The server writes a slow-log row after it has answered the client, so a read right after the
 * workload can miss the last rows: wait until the workload's last insert is in the table.
 */
async function waitForSlowLog(admin: mysql.Connection, database: string, inserts: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM mysql.slow_log WHERE db = ? AND sql_text LIKE 'INSERT INTO t (v) VALUES (10_)'",
      [database],
    );
    if (Number(rows[0]?.n) >= inserts) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Wait until a slow_log row of `database` whose text matches `pattern` (LIKE) is written. */
async function waitForRow(admin: mysql.Connection, database: string, pattern: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM mysql.slow_log WHERE db = ? AND sql_text LIKE ?',
      [database, pattern],
    );
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function selectOf(delta: DigestDelta, database: string, prefix: string) {
  return delta.classes.find((c) => c.schema === database && c.digestText?.startsWith(prefix));
}

describe('performance_schema off (MariaDB default)', () => {
  it('says a restart is needed and offers the slow log', async () => {
    const server = testServers().find((s) => s.flavor === 'mariadb')!;
    const connections = new ConnectionService();
    const opened = await connections.openConnection({ dsn: server.url });
    try {
      const { connection, server: info } = connections.get(opened.connectionId);
      expect(info.capabilities.performanceSchema).toBe(false);
      const error = await takeDigestSnapshot(connection, info).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AdvisorError);
      expect((error as AdvisorError).code).toBe('UNSUPPORTED');
      expect((error as AdvisorError).userMessage).toMatch(/performance_schema is OFF.*restart/);
      expect((error as AdvisorError).details.hint).toMatch(/slow-log-table/);
    } finally {
      await connections.closeAll();
    }
  });
});

describe.each(['mysql', 'mariadb'] as Flavor[])(
  'capture on %s (own throwaway server, performance_schema ON)',
  (flavor) => {
    let server: TestServer;
    const connections = new ConnectionService();

    beforeAll(async () => {
      server = await startServer(flavor, flavor === 'mariadb' ? { performanceSchema: true } : {});
    });
    afterAll(async () => {
      await connections.closeAll();
      await server?.stop();
    });

    it('counts a known workload exactly between two snapshots', async () => {
      const opened = await connections.openConnection({ dsn: server.readOnlyUrl });
      const { connection, server: info } = connections.get(opened.connectionId);
      expect(info.capabilities.performanceSchema).toBe(true);
      await withScratchDatabase(server.url, async (admin, database) => {
        await createTable(admin);
        const before = await takeDigestSnapshot(connection, info);
        await runWorkload(server.url, database);
        const after = await takeDigestSnapshot(connection, info);
        const delta = await digestDelta(connection, info, before, after);
        const select = selectOf(delta, database, 'SELECT * FROM `t` WHERE `v` = ?');
        const insert = selectOf(delta, database, 'INSERT INTO `t`');
        expect({
          select: select && [
            select.count,
            select.rowsSent,
            select.rowsExamined,
            select.examinedPerSent,
            select.noIndexUsed,
            select.errors,
          ],
          insert: insert && [insert.count, insert.rowsAffected],
          fingerprint: select?.fingerprint?.fingerprint,
          exact: select?.fingerprint?.exact,
          checksum: select?.fingerprint?.checksum,
          quantiles: select?.lifetime.p95Ms !== null,
          own: delta.classes.filter((c) => /events_statements_summary_by_digest/.test(c.digestText ?? ''))
            .length,
          notes: delta.notes,
        }).toEqual({
          select: [SELECTS, SELECTS, SELECTS * TABLE_ROWS, TABLE_ROWS, SELECTS, 0],
          insert: [INSERTS, INSERTS],
          fingerprint: 'select * from t where v = ?',
          // MySQL 8 has QUERY_SAMPLE_TEXT (exact); MariaDB maps DIGEST_TEXT (approximate).
          exact: flavor === 'mysql',
          checksum: checksum(fingerprint('SELECT * FROM t WHERE v = 1')),
          quantiles: flavor === 'mysql',
          own: 0,
          notes: [],
        });
        expect(select?.totalMs).toBeGreaterThan(0);
      });
    });

    it('a polled window reads sample texts only for classes that have none yet, 200 digests a query', async () => {
      const opened = await connections.openConnection({ dsn: server.readOnlyUrl });
      const { connection, server: info } = connections.get(opened.connectionId);
      // Every text read the capture sends: the column, and the digests asked for.
      const reads: { column: string; digests: string[] }[] = [];
      let maxSqlReads = 0;
      // The session is a proxy (reconnects, read-only guard): count through a proxy of it.
      const query = connection.query.bind(connection) as (sql: string, values?: unknown) => Promise<unknown>;
      const counting = (sql: string, values?: unknown) => {
        const text = /SCHEMA_NAME, DIGEST, (DIGEST_TEXT|QUERY_SAMPLE_TEXT) FROM/.exec(sql);
        if (text) reads.push({ column: text[1]!, digests: (values as string[][])[0]! });
        if (sql.includes('performance_schema_max_sql_text_length')) maxSqlReads++;
        return query(sql, values);
      };
      const counted = new Proxy(connection, {
        get: (target, property) => (property === 'query' ? counting : Reflect.get(target, property)),
      });
      const windows = new CaptureWindows();
      await withScratchDatabase(server.url, async (_admin, database) => {
        const workload = await connect(server.url, database);
        const many = 250;
        const runMany = async () => {
          for (let i = 0; i < many; i++) await workload.query(`SELECT ${i} AS c${i}`);
        };
        try {
          const { windowId } = await windows.start(opened.connectionId, counted, info);
          const poll = async () => {
            reads.length = 0;
            const delta = await windows.poll(opened.connectionId, windowId, counted, info);
            const ours = delta.classes.filter(
              (c) => c.schema === database && /^SELECT \? AS `c/.test(c.digestText ?? ''),
            );
            return {
              delta,
              ours,
              samples: reads.filter((r) => r.column === 'QUERY_SAMPLE_TEXT'),
              digestTexts: reads.filter((r) => r.column === 'DIGEST_TEXT'),
            };
          };
          const oursIn = (polled: Awaited<ReturnType<typeof poll>>, column: 'samples' | 'digestTexts') => {
            const mine = new Set(polled.ours.map((c) => c.digest));
            return polled[column].flatMap((r) => r.digests).filter((d) => mine.has(d)).length;
          };

          await runMany();
          const first = await poll();
          expect(first.ours).toHaveLength(many);
          // Every class is new: all of ours are asked for, at most 200 digests in one query.
          expect(first.digestTexts.every((r) => r.digests.length <= 200)).toBe(true);
          expect(oursIn(first, 'digestTexts')).toBe(many);
          if (flavor === 'mysql') {
            expect(first.samples.length).toBeGreaterThanOrEqual(2);
            expect(first.samples.every((r) => r.digests.length <= 200)).toBe(true);
            expect(oursIn(first, 'samples')).toBe(many);
            expect(first.ours.find((c) => c.digestText === 'SELECT ? AS `c7`')?.sampleText).toBe(
              'SELECT 7 AS c7',
            );
          } else {
            // MariaDB has no QUERY_SAMPLE_TEXT: never asked.
            expect(first.samples).toEqual([]);
          }

          // The same classes again: nothing to read (they all have their text and sample).
          await runMany();
          const second = await poll();
          expect(second.ours).toHaveLength(many);
          expect(second.ours.every((c) => c.count === 2)).toBe(true);
          expect([oursIn(second, 'digestTexts'), oursIn(second, 'samples')]).toEqual([0, 0]);
          expect(second.samples).toEqual([]);
          if (flavor === 'mysql') {
            expect(
              second.ours.every(
                (c) =>
                  c.sampleText ===
                  c.digestText!.replace('?', /`c(\d+)`/.exec(c.digestText!)![1]!).replace(/`/g, ''),
              ),
            ).toBe(true);
          }

          // One new class: only it is asked for.
          await workload.query('SELECT 1 AS fresh_class');
          const third = await poll();
          const fresh = third.delta.classes.find(
            (c) => c.schema === database && /^SELECT \? AS `fresh_class`/.test(c.digestText ?? ''),
          );
          expect(fresh).toBeDefined();
          // (The server's own activity between polls may add a class of its own.)
          expect(third.digestTexts.flatMap((r) => r.digests)).toContain(fresh!.digest);
          expect([oursIn(third, 'digestTexts'), oursIn(third, 'samples')]).toEqual([0, 0]);
          if (flavor === 'mysql') {
            expect(third.samples).toHaveLength(1);
            expect(third.samples[0]!.digests).toContain(fresh!.digest);
            expect(fresh!.sampleText).toBe('SELECT 1 AS fresh_class');
            // The server's read-only max_sql_text_length: once per window.
            expect(maxSqlReads).toBe(1);
          } else {
            expect(third.samples).toEqual([]);
            expect(maxSqlReads).toBe(0);
          }
        } finally {
          await workload.end();
        }
      });
    });

    it('names the GRANT when performance_schema is not readable', async () => {
      const admin = await connect(server.url);
      const user = `cap_noperm_${flavor}`;
      try {
        await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
        const target = resolveTarget({ dsn: server.url });
        const opened = await connections.openConnection({
          dsn: `mysql://${user}:pw@${target.host}:${target.port}/`,
        });
        const { connection, server: info } = connections.get(opened.connectionId);
        const error = (await takeDigestSnapshot(connection, info).catch((e: unknown) => e)) as AdvisorError;
        expect([error.code, error.details.hint]).toEqual([
          'PRIVILEGE_MISSING',
          'GRANT SELECT ON performance_schema.* TO <user>;',
        ]);
      } finally {
        await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
        await admin.end();
      }
    });

    it('reads mysql.slow_log incrementally into pt-query-digest classes', async () => {
      const admin = await connect(server.url);
      const saved = await readSlowLogSettings(admin);
      const opened = await connections.openConnection({ dsn: server.readOnlyUrl });
      const { connection } = connections.get(opened.connectionId);
      try {
        await admin.query("SET GLOBAL log_output = 'TABLE', long_query_time = 0, slow_query_log = ON");
        await withScratchDatabase(server.url, async (setup, database) => {
          await createTable(setup);
          // The setup INSERT has the workload's fingerprint: let its (late-written) row land before the cursor.
          await waitForRow(admin, database, 'INSERT INTO t (v) VALUES (1), %');
          const start = await slowLogTableEnd(connection);
          await runWorkload(server.url, database);
          await waitForSlowLog(admin, database, INSERTS);
          // Two small batches force several bounded queries and the anchor check.
          const first = await readSlowLogTable(connection, { cursor: start, batchSize: 3 });
          await runWorkload(server.url, database);
          await waitForSlowLog(admin, database, 2 * INSERTS);
          const second = await readSlowLogTable(connection, { cursor: first.cursor, batchSize: 4 });
          const count = (r: typeof first, fp: string) => r.classes.find((c) => c.fingerprint === fp);
          const select = 'select * from t where v = ?';
          const insert = 'insert into t (v) values(?+)';
          expect(
            [first, second].map((r) => ({
              reset: r.reset,
              complete: r.complete,
              select: [
                count(r, select)?.queryCount,
                count(r, select)?.schemas,
                count(r, select)?.rowsExamined?.sum,
              ],
              selectChecksum: count(r, select)?.checksum,
              insert: count(r, insert)?.queryCount,
              own: r.classes.filter((c) => c.fingerprint.includes('slow_log')).length,
            })),
          ).toEqual(
            // The second round scans the rows the first round inserted too.
            [0, 1].map((round) => ({
              reset: false,
              complete: true,
              select: [SELECTS, [database], SELECTS * (TABLE_ROWS + round * INSERTS)],
              selectChecksum: checksum(select),
              insert: INSERTS,
              own: 0,
            })),
          );
        });
      } finally {
        await admin.query(
          `SET GLOBAL slow_query_log = ${saved.slow_query_log}, long_query_time = ${Number(saved.long_query_time)}, log_output = '${saved.log_output}'`,
        );
        await admin.end();
      }
    });

    it('a connection opened while the slow log records everything leaves its own set-up statements out of mysql.slow_log reads', async () => {
      const admin = await connect(server.url);
      const saved = await readSlowLogSettings(admin);
      const reader = new ConnectionService();
      try {
        await admin.query("SET GLOBAL log_output = 'TABLE', long_query_time = 0, slow_query_log = ON");
        const start = await slowLogTableEnd(admin);
        // Opened after the change: its session set-up (read-only transaction, version query) is logged.
        const opened = await reader.openConnection({ dsn: server.readOnlyUrl });
        const { connection } = reader.get(opened.connectionId);
        await withScratchDatabase(server.url, async (setup, database) => {
          await createTable(setup);
          await runWorkload(server.url, database);
          await waitForSlowLog(admin, database, INSERTS);
        });
        const result = await readSlowLogTable(connection, { cursor: start });
        const fingerprints = result.classes.map((c) => c.fingerprint);
        // Canary: the workload is there, and some rows were ours (the set-up and the reads).
        expect(fingerprints).toContain('select * from t where v = ?');
        expect(result.source.ownRowsSkipped).toBeGreaterThanOrEqual(3);
        expect(fingerprints.filter((fp) => /transaction read only|version\(\)|slow_log/.test(fp))).toEqual(
          [],
        );
      } finally {
        await reader.closeAll();
        await admin.query(
          `SET GLOBAL slow_query_log = ${saved.slow_query_log}, long_query_time = ${Number(saved.long_query_time)}, log_output = '${saved.log_output}'`,
        );
        await admin.end();
      }
    });

    it('the window helper needs consent, captures the window and restores the settings, also when the workload throws', async () => {
      const admin = await connect(server.url);
      const opened = await connections.openConnection({ dsn: server.readOnlyUrl });
      const { connection, server: info } = connections.get(opened.connectionId);
      const target = resolveTarget({ dsn: server.url });
      try {
        const saved = await readSlowLogSettings(admin);
        expect(saved.slow_query_log).toBe('OFF');
        await withScratchDatabase(server.url, async (setup, database) => {
          await createTable(setup);
          const refused = (await withSlowLogWindow(target, info, { consent: false }, async () => 1).catch(
            (e: unknown) => e,
          )) as AdvisorError;
          expect([refused.code, refused.userMessage.includes('SET GLOBAL slow_query_log = ON')]).toEqual([
            'CONSENT_REQUIRED',
            true,
          ]);
          expect(await readSlowLogSettings(admin)).toEqual(saved);

          const during: unknown[] = [];
          const outcome = await withSlowLogWindow(target, info, { consent: true }, async () => {
            during.push(await readSlowLogSettings(admin));
            await runWorkload(server.url, database);
            await waitForSlowLog(admin, database, INSERTS);
          });
          expect(during).toEqual([outcome.plan.during]);
          expect(await readSlowLogSettings(admin)).toEqual(saved);
          const result = await readSlowLogTable(connection, { cursor: outcome.cursor });
          expect(
            result.classes.find((c) => c.fingerprint === 'select * from t where v = ?')?.queryCount,
          ).toBe(SELECTS);

          const failed = await withSlowLogWindow(target, info, { consent: true }, async () => {
            await runWorkload(server.url, database);
            throw new Error('workload failed');
          }).catch((e: unknown) => e);
          expect((failed as Error).message).toBe('workload failed');
          expect(await readSlowLogSettings(admin)).toEqual(saved);
        });
      } finally {
        await admin.end();
      }
    });
  },
);
