// An OR across columns (issue 22, core/indexing/or-branches.ts) on both servers: the UNION ALL rewrite the
// design calls equivalent returns exactly the original's rows (as a multiset) on data with NULLs in both
// columns and rows that match both branches, and after the design's DDL the EXPLAIN of every branch of the
// rewrite uses one of the indexes the design names for it.
//
// Canaries: on the same data, the naive guard `AND NOT (branch 1)` loses rows (branch 1 NULL, branch 2 TRUE)
// and a UNION ALL without guards returns rows twice — so the data does exercise both traps.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const SETUP = [
  'CREATE TABLE digits (n tinyint NOT NULL PRIMARY KEY)',
  'INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)',
  `CREATE TABLE t (
     id int NOT NULL, a int NULL, b varchar(12) NULL, c int NOT NULL, created_at datetime NOT NULL,
     pad varchar(40) NOT NULL, PRIMARY KEY (id)
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  // 20,000 rows; 5% NULL in a, 5% NULL in b (different rows); a = 7 and b = 'k7' both hold for n ≡ 7 (mod 3500).
  `INSERT INTO t SELECT n + 1, IF(n % 20 = 3, NULL, n % 500), IF(n % 20 = 11, NULL, CONCAT('k', n % 700)),
     n % 13, TIMESTAMP('2024-01-01') + INTERVAL (n * 7919) % 100000 MINUTE, REPEAT('x', 30)
   FROM (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n + 10000 * e.n AS n
           FROM digits a, digits b, digits c, digits d, digits e) AS seq WHERE n < 20000`,
  // Rows where a is NULL and b matches, and rows where b is NULL and a matches: the guards' NULL case.
  "UPDATE t SET a = NULL WHERE b = 'k8' AND id % 2 = 0",
  'UPDATE t SET b = NULL WHERE a = 9 AND id % 2 = 0',
  'ANALYZE TABLE t',
];

/** Statements with an OR across columns the design must rewrite as an equivalent UNION (ALL). */
const STATEMENTS = [
  "SELECT id, c FROM t WHERE a = 7 OR b = 'k7'",
  "SELECT id, a, b FROM t WHERE b = 'k8' OR a = 9",
  "SELECT * FROM t WHERE a IN (7, 9) OR b LIKE 'k12%' OR c = 12 AND created_at < '2024-01-03'",
  "SELECT DISTINCT c FROM t WHERE a = 7 OR b = 'k8'",
  "SELECT id, created_at FROM t WHERE a = 9 OR b = 'k8' ORDER BY created_at DESC, id DESC LIMIT 15",
  "SELECT id, pad FROM t WHERE pad <> 'y' AND (a = 7 OR b IS NULL)",
];

/** The rows as a sorted list of JSON lines: equal lists are equal multisets. */
async function multiset(db: Connection, sql: string): Promise<string[]> {
  const [rows] = await db.query<RowDataPacket[]>(sql);
  return rows.map((row) => JSON.stringify(Object.values(row))).sort();
}

describe.each(testServers())('OR across columns on $flavor', ({ url }) => {
  async function design(db: Connection, database: string, server: ServerInfo, sql: string) {
    const schema = await loadSchema(db, server, database);
    const report = analyze(sql, { server, source: 'dsn', schema });
    return report.statements[0]!.indexPlan;
  }

  it('the data has both traps (canary): NOT (branch) loses NULL rows, no guard duplicates rows', async () => {
    await withScratchDatabase(url, async (db) => {
      for (const statement of SETUP) await db.query(statement);
      const original = await multiset(db, "SELECT id FROM t WHERE b = 'k8' OR a = 9");
      const naive = await multiset(
        db,
        "SELECT id FROM t WHERE b = 'k8' UNION ALL SELECT id FROM t WHERE a = 9 AND NOT (b = 'k8')",
      );
      const unguarded = await multiset(
        db,
        "SELECT id FROM t WHERE a = 7 UNION ALL SELECT id FROM t WHERE b = 'k7'",
      );
      expect(naive.length).toBeLessThan(original.length);
      expect(unguarded.length).toBeGreaterThan(
        (await multiset(db, "SELECT id FROM t WHERE a = 7 OR b = 'k7'")).length,
      );
    });
  }, 120_000);

  it('the UNION ALL rewrite returns the same rows, its DDL is accepted, and EXPLAIN uses the branch indexes', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      for (const sql of STATEMENTS) {
        const plan = await design(db, database, server, sql);
        const rewrite = plan?.orRewrite;
        const detail = JSON.stringify({ sql, plan }, null, 1);
        expect(rewrite?.sql, detail).toBeTruthy();
        expect(rewrite?.equivalent, detail).toBe(true);
        const before = await multiset(db, sql);
        expect(before.length, sql).toBeGreaterThan(0);
        expect(await multiset(db, rewrite!.sql!), sql).toEqual(before);

        const ddl = plan!.tables.flatMap((table) => table.ddl);
        for (const text of ddl) await db.query(text);
        // After the DDL: still the same rows, and every branch reads t by one of its designed indexes.
        expect(await multiset(db, rewrite!.sql!), sql).toEqual(before);
        const designed = new Set(
          plan!.tables.map((table) => (table.indexName ?? table.existingIndex ?? '').toLowerCase()),
        );
        const [explain] = await db.query<RowDataPacket[]>(`EXPLAIN ${rewrite!.sql!}`);
        const branches = explain.filter((row) => row.table === 't');
        expect(branches.length, sql).toBe(rewrite!.branches.length);
        for (const row of branches)
          expect(
            designed.has(String(row.key ?? '').toLowerCase()),
            `${sql}\n${JSON.stringify(explain)}`,
          ).toBe(true);
        for (const table of plan!.tables)
          if (table.verdict === 'create' && table.ddl.length > 0)
            await db.query(`ALTER TABLE t DROP INDEX \`${table.indexName}\``);
      }
    });
  }, 240_000);
});
