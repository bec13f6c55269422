// An OR across columns (issue 22, core/indexing/or-branches.ts) on both servers: the UNION ALL rewrite the
// design calls equivalent returns exactly the original's rows (as a multiset) on data with NULLs in both
// columns and rows that match both branches, and after the design's DDL the EXPLAIN of every branch of the
// rewrite uses one of the indexes the design names for it.
//
// ORs on two tables of one block are both split (one SELECT per combination of branches): same rows, and
// every SELECT reads each table by one of its branch indexes.
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

/** A second table for ORs on two tables of one block: 6,000 rows, NULLs in x and y. */
const SETUP_U = [
  `CREATE TABLE u (
     id int NOT NULL, x int NULL, y varchar(12) NULL, pad varchar(40) NOT NULL, PRIMARY KEY (id)
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `INSERT INTO u SELECT n + 1, IF(n % 50 = 3, NULL, n % 300), IF(n % 10 = 7, NULL, CONCAT('y', n % 400)),
     REPEAT('z', 30)
   FROM (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n AS n FROM digits a, digits b, digits c, digits d) AS seq
   WHERE n < 6000`,
  // x = 5 and y = 'y5' both hold for n ≡ 5 (mod 1200); then rows where x is NULL and y = 'y5' (two of
  // those five rows keep both), and rows where y is NULL and x = 9: the guards' NULL case.
  "UPDATE u SET x = NULL WHERE y = 'y5' AND FLOOR(id / 400) % 2 = 0",
  'UPDATE u SET y = NULL WHERE x = 9 AND FLOOR(id / 300) % 2 = 0',
  'ANALYZE TABLE u',
];

/** ORs on two tables: split both, one SELECT per combination of branches. */
const TWO_TABLE_STATEMENTS = [
  "SELECT t.id AS tid, u.id AS uid FROM t, u WHERE (t.a = 7 OR t.b = 'k7') AND (u.x = 5 OR u.y = 'y5')",
  "SELECT DISTINCT t.c, u.x FROM t, u WHERE (t.a = 9 OR t.b = 'k8') AND u.pad <> 'q' AND (u.y = 'y5' OR u.x = 9)",
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

  it('ORs on two tables: one SELECT per combination returns the same rows, and each uses the branch indexes', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of [...SETUP, ...SETUP_U]) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      for (const sql of TWO_TABLE_STATEMENTS) {
        const plan = await design(db, database, server, sql);
        const rewrite = plan?.orRewrite;
        const detail = JSON.stringify({ sql, plan }, null, 1);
        expect(
          rewrite?.splits.map((split) => split.table),
          detail,
        ).toEqual(['t', 'u']);
        expect(rewrite?.equivalent, detail).toBe(true);
        const selects = rewrite!.splits.reduce((product, split) => product * split.branches.length, 1);
        expect(
          rewrite!.sql!.split(/\nUNION( ALL)?\n/).filter((part) => part?.startsWith('SELECT')),
        ).toHaveLength(selects);
        const before = await multiset(db, sql);
        expect(before.length, sql).toBeGreaterThan(0);
        expect(await multiset(db, rewrite!.sql!), sql).toEqual(before);
        if (!/DISTINCT/.test(sql)) {
          // Canary: without u's own guards, rows matching both of u's branches come back twice.
          const unguarded = rewrite!.sql!.replace(/ AND \(u\.[^()]*\) IS NOT TRUE/g, '');
          expect(unguarded).not.toBe(rewrite!.sql);
          expect((await multiset(db, unguarded)).length, sql).toBeGreaterThan(before.length);
        }

        const ddl = plan!.tables.flatMap((table) => table.ddl);
        for (const text of ddl) await db.query(text);
        expect(await multiset(db, rewrite!.sql!), sql).toEqual(before);
        const [explain] = await db.query<RowDataPacket[]>(`EXPLAIN ${rewrite!.sql!}`);
        for (const name of ['t', 'u']) {
          const designed = new Set(
            plan!.tables
              .filter((table) => table.table === name)
              .map((table) => (table.indexName ?? table.existingIndex ?? '').toLowerCase()),
          );
          const reads = explain.filter((row) => row.table === name);
          expect(reads.length, sql).toBe(selects);
          for (const row of reads)
            expect(
              designed.has(String(row.key ?? '').toLowerCase()),
              `${sql}\n${JSON.stringify(explain)}`,
            ).toBe(true);
        }
        for (const table of plan!.tables)
          if (table.verdict === 'create' && table.ddl.length > 0)
            await db.query(`ALTER TABLE \`${table.table}\` DROP INDEX \`${table.indexName}\``);
      }
    });
  }, 240_000);
});
