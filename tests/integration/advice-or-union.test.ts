// QRY007's suggestions on both servers (advice/or-union.ts over indexing/or-branches.ts): the finding's
// DDL is accepted, every rewrite it marks equivalent returns exactly the original's rows (as a multiset)
// on data built for the traps — NULL in one branch's column while another branch is TRUE, rows that
// match several branches, NULL in every column — and EXPLAIN of each branch of the rewrite seeks an index.
//
// Canary: on the same data, the UNION ALL without the `IS NOT TRUE` guards returns rows twice and the
// guard `NOT (branch)` loses the rows where an earlier branch is NULL, so the equality checks can fail.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import type { Finding } from '../../src/core/model/report.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const SETUP = [
  `CREATE TABLE users (
     id int NOT NULL, email varchar(60) NULL, phone varchar(20) NULL, city varchar(30) NULL,
     score int NULL, PRIMARY KEY (id), KEY (email)
   ) DEFAULT CHARSET=utf8mb4`,
  // 900 rows (recursion limits: MySQL 1000, MariaDB max_recursive_iterations 1000): email NULL every 7th, phone NULL every 5th, city NULL every 11th; values repeat, so a
  // row often matches several branches.
  `INSERT INTO users
     WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 900)
     SELECT n, IF(n % 7 = 0, NULL, CONCAT('u', n % 40, '@example.com')), IF(n % 5 = 0, NULL, CONCAT('555-', n % 30)),
            IF(n % 11 = 0, NULL, CONCAT('c', n % 60)), IF(n % 13 = 0, NULL, n % 100)
     FROM r`,
  // Rows n ≡ 9 (mod 120) match both branches of the first statements. Then rows whose email is NULL
  // and phone matches, and whose phone is NULL and email matches (some of the both-branch rows remain).
  "UPDATE users SET email = NULL WHERE phone = '555-9' AND id % 90 = 39",
  "UPDATE users SET phone = NULL WHERE email = 'u9@example.com' AND id % 80 = 49",
  'ANALYZE TABLE users',
];

const STATEMENTS = [
  "SELECT id FROM users WHERE email = 'u9@example.com' OR phone = '555-9'",
  "SELECT id, email, phone FROM users WHERE phone = '555-9' OR email = 'u9@example.com'",
  "SELECT * FROM users WHERE email = 'u1@example.com' OR phone = '555-1' OR city = 'c7'",
  "SELECT DISTINCT city FROM users WHERE email = 'u2@example.com' OR phone = '555-2'",
  "SELECT id, score FROM users WHERE (email = 'u3@example.com' OR phone = '555-9') AND city <> 'c3'",
  "SELECT id FROM users WHERE email IN ('u4@example.com', 'u5@example.com') OR phone IS NULL",
];

async function multiset(db: Connection, sql: string): Promise<string[]> {
  const [rows] = await db.query<RowDataPacket[]>(sql);
  return rows.map((row) => JSON.stringify(Object.values(row))).sort();
}

describe.each(testServers())('QRY007 UNION ALL rewrite on $flavor', ({ url }) => {
  it('canary: the data has the traps the guards avoid', async () => {
    await withScratchDatabase(url, async (db) => {
      for (const statement of SETUP) await db.query(statement);
      const original = await multiset(db, STATEMENTS[1]!);
      const unguarded = await multiset(
        db,
        "SELECT id, email, phone FROM users WHERE phone = '555-9' UNION ALL SELECT id, email, phone FROM users WHERE email = 'u9@example.com'",
      );
      const negated = await multiset(
        db,
        "SELECT id, email, phone FROM users WHERE phone = '555-9' UNION ALL SELECT id, email, phone FROM users WHERE email = 'u9@example.com' AND NOT (phone = '555-9')",
      );
      expect(unguarded.length).toBeGreaterThan(original.length);
      expect(negated.length).toBeLessThan(original.length);
    });
  }, 60_000);

  it('the finding offers the design rewrite; equivalent ones return the same rows, DDL runs, branches seek', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      const findings: Finding[] = STATEMENTS.map((sql) => {
        const found = analyze(sql, { server, source: 'dsn', schema })
          .statements.flatMap((statement) => statement.findings)
          .find((finding) => finding.rule === 'QRY007');
        expect(found, sql).toBeDefined();
        return found!;
      });
      const ddl = new Set<string>();
      let checked = 0;
      for (const [k, finding] of findings.entries()) {
        const sql = STATEMENTS[k]!;
        const rewrite = finding.suggestions.find((suggestion) => suggestion.kind === 'rewrite');
        expect(rewrite?.rewrittenSql, sql).toMatch(/\bUNION( ALL)?\b/);
        expect(finding.suggestions[0]?.kind, sql).toBe('rewrite');
        for (const statement of rewrite!.ddl) ddl.add(statement);
        if (!rewrite!.equivalent) continue;
        expect(await multiset(db, rewrite!.rewrittenSql!), sql).toEqual(await multiset(db, sql));
        checked++;
      }
      expect(checked).toBe(STATEMENTS.length);
      // Every index the findings propose is accepted (each statement once: several findings share one).
      for (const statement of ddl) await db.query(statement);
      await db.query('ANALYZE TABLE users');
      for (const [k, finding] of findings.entries()) {
        const rewritten = finding.suggestions[0]!.rewrittenSql!;
        const [rows] = await db.query<RowDataPacket[]>(`EXPLAIN ${rewritten}`);
        const branches = rows.filter((row) => row.table === 'users');
        expect(branches.length, STATEMENTS[k]).toBeGreaterThan(1);
        for (const row of branches)
          expect(
            ['ref', 'range', 'ref_or_null', 'eq_ref', 'const'],
            `${rewritten}\n${JSON.stringify(row)}`,
          ).toContain(row.type);
      }
      // Same rows after the DDL too (plans changed; results must not).
      for (const [k, finding] of findings.entries())
        expect(await multiset(db, finding.suggestions[0]!.rewrittenSql!)).toEqual(
          await multiset(db, STATEMENTS[k]!),
        );
    });
  }, 60_000);
});
