// Existing expression indexes recognised in the server's stored form (issue 22, core/indexing/expression-key.ts):
// the servers store `cast(`d` as date)` for DATE(d), `lcase(...)` for LOWER on MariaDB, `substr` for
// SUBSTRING, `((`n` * 2) + 3)` on MySQL, escaped quotes and charset introducers in information_schema.
//
// MySQL 8: the design's functional key part is applied, the live schema reloaded, and the statement
// designed again: no new index (the applied one serves). The same after indexing a generated column
// with the expression (MySQL substitutes the expression by it). MariaDB: a generated column per
// expression, read back from COLUMNS.GENERATION_EXPRESSION, is recognised as the expression (the design
// reuses the column and the advised statement names it). Canary: for some expressions the stored text differs from ours beyond case, spaces and
// backquotes, so a plain text comparison would have proposed the index again.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { expressionKey } from '../../src/core/indexing/expression-key.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const TABLE = `CREATE TABLE t (
  id int NOT NULL PRIMARY KEY, d datetime NOT NULL, s varchar(50) NOT NULL, n int NOT NULL, j json NULL,
  c int NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

/** Statements with a function-wrapped column, and the expression they wrap (as written). */
const CASES = [
  { sql: "SELECT id FROM t WHERE DATE(d) = '2024-01-05' AND c = 3", expression: 'DATE(d)', type: 'date' },
  { sql: "SELECT id FROM t WHERE LOWER(s) = 'abc'", expression: 'LOWER(s)', type: 'varchar(50)' },
  { sql: 'SELECT id FROM t WHERE MONTH(d) = 3 AND c = 2', expression: 'MONTH(d)', type: 'int' },
  { sql: 'SELECT id FROM t WHERE n * 2 + 3 = 11', expression: 'n * 2 + 3', type: 'bigint' },
  {
    sql: "SELECT id FROM t WHERE SUBSTRING(s, 1, 3) = 'abc'",
    expression: 'SUBSTRING(s, 1, 3)',
    type: 'varchar(3)',
  },
  { sql: "SELECT id FROM t WHERE UPPER(TRIM(s)) = 'X'", expression: 'UPPER(TRIM(s))', type: 'varchar(50)' },
  {
    sql: "SELECT id FROM t WHERE JSON_UNQUOTE(JSON_EXTRACT(j, '$.code')) = 'a'",
    expression: "j->>'$.code'",
    // MariaDB has no ->> operator.
    mariadb: "JSON_UNQUOTE(JSON_EXTRACT(j, '$.code'))",
    type: 'varchar(20)',
    generatedOnly: true,
  },
];

const plain = (text: string) => text.replace(/[`\s]/g, '').toLowerCase();

describe.each(testServers())('expression indexes in the stored form: $flavor', ({ flavor, url }) => {
  it('recognises every stored expression as ours (and some differ from ours as text: canary)', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query(TABLE);
      const written = (testCase: (typeof CASES)[number]) =>
        (flavor === 'mariadb' && 'mariadb' in testCase ? testCase.mariadb : undefined) ?? testCase.expression;
      let i = 0;
      for (const testCase of CASES)
        await db.query(
          `ALTER TABLE t ADD COLUMN g${++i} ${testCase.type} AS (${written(testCase)}) VIRTUAL, ADD INDEX ig${i} (g${i})`,
        );
      const [rows] = await db.query<RowDataPacket[]>(
        "SELECT COLUMN_NAME AS name, GENERATION_EXPRESSION AS expr FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND COLUMN_NAME LIKE 'g%' ORDER BY ORDINAL_POSITION",
        [database],
      );
      expect(rows).toHaveLength(CASES.length);
      let differ = 0;
      rows.forEach((row, k) => {
        const ours = written(CASES[k]!);
        expect(expressionKey(String(row.expr)), `${ours} stored as ${row.expr}`).toBe(expressionKey(ours));
        if (plain(String(row.expr)) !== plain(ours)) differ++;
      });
      expect(differ).toBeGreaterThanOrEqual(3);
      // The design reads the live schema and names the generated column for the statement's expression.
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      for (const [k, testCase] of CASES.entries()) {
        const plan = analyze(testCase.sql, { server, source: 'dsn', schema }).statements[0]!.indexPlan;
        const table = plan?.tables[0];
        if (flavor === 'mariadb') {
          // MariaDB does not substitute: the design reuses the column (no second one) and the advised
          // statement names it (core/indexing/generated-columns.ts).
          expect(plan?.generatedColumns, testCase.sql).toEqual([
            expect.objectContaining({ name: `g${k + 1}`, existing: true }),
          ]);
          expect(plan?.queryMustChange).toBe(true);
          expect(plan?.rewrittenSql, testCase.sql).toContain(`g${k + 1}`);
          expect(plan?.tables.flatMap((entry) => entry.ddl).join(' '), testCase.sql).not.toMatch(
            /ADD COLUMN/i,
          );
          expect(
            table?.parts.some((part) => part.column === `g${k + 1}`) || table?.existingIndex === `ig${k + 1}`,
            JSON.stringify(table),
          ).toBe(true);
        } else {
          // MySQL substitutes the expression by the indexed generated column: no new index for it.
          expect(
            table?.parts.some((part) => part.expression),
            JSON.stringify(table),
          ).toBe(false);
          expect(
            table?.parts.some((part) => part.column === `g${k + 1}`) || table?.existingIndex === `ig${k + 1}`,
            JSON.stringify(table),
          ).toBe(true);
        }
      }
    });
  }, 120_000);

  it.skipIf(flavor !== 'mysql')(
    'MySQL: after the design’s functional index is applied, the same statement gets no new index',
    async () => {
      await withScratchDatabase(url, async (db, database) => {
        await db.query(TABLE);
        await db.query(
          "INSERT INTO t VALUES (1, '2024-01-05 10:00:00', 'abc', 4, '{\"code\": \"a\"}', 3), (2, '2024-03-01', 'x', 1, NULL, 2)",
        );
        const server = { ...(await detectServerInfo(db)), database };
        for (const testCase of CASES.filter((candidate) => !candidate.generatedOnly)) {
          const before = analyze(testCase.sql, {
            server,
            source: 'dsn',
            schema: await loadSchema(db, server, database),
          }).statements[0]!.indexPlan!;
          const ddl = before.tables.flatMap((table) => table.ddl);
          expect(ddl.join(' '), testCase.sql).toMatch(/\(\(/); // a functional key part
          for (const text of ddl) await db.query(text);
          const after = analyze(testCase.sql, {
            server,
            source: 'dsn',
            schema: await loadSchema(db, server, database),
          }).statements[0]!.indexPlan!;
          expect(
            after.tables.flatMap((table) => table.ddl),
            JSON.stringify(after.tables),
          ).toEqual([]);
          expect(after.tables[0]?.verdict).toBe('served');
          for (const table of before.tables)
            if (table.indexName) await db.query(`ALTER TABLE t DROP INDEX \`${table.indexName}\``);
        }
      });
    },
    120_000,
  );
});
