// Two functional key parts over one expression on a MySQL table (issue 22): once `((MONTH(create_time)))` and
// `(category, (MONTH(create_time)), create_time)` are both on a table, a query on MONTH(create_time) alone loses
// its index. The design must not propose the second one.
//
// Canary: the same server, given the second functional key part by hand, does lose the first index for the
// MONTH-only query — so the test would fail if the design proposed it. MariaDB has no functional key parts.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { designWorkloadIndexes, workloadFromText } from '../../src/core/indexing/index.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const mysql = testServers().filter((server) => server.flavor === 'mysql');

const setup = (m: string) => [
  `CREATE TABLE products (id INT PRIMARY KEY, category INT NOT NULL, create_time DATETIME NOT NULL,
     price DECIMAL(8,2) NOT NULL, KEY m (${m})) ENGINE=InnoDB`,
  'SET SESSION cte_max_recursion_depth = 20000',
  `INSERT INTO products WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
     SELECT i, i % 40, TIMESTAMP('2023-01-01') + INTERVAL (i * 7919) % 525600 MINUTE, i % 100 FROM n`,
  'ANALYZE TABLE products',
];
const MONTH_ONLY = 'SELECT id FROM products WHERE MONTH(create_time) = 10';
const QUERY =
  'SELECT id, price FROM products WHERE category = 3 AND MONTH(create_time) = 10 ORDER BY create_time LIMIT 5';

async function keyOf(db: Connection, sql: string): Promise<string | null> {
  const [rows] = await db.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
  return (rows[0]?.key as string | null) ?? null;
}

describe.each(mysql)('shared expression: $flavor', ({ url }) => {
  it('does not extend a functional index (no in-place ALTER can): the new index leaves the expression to it', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of setup('(MONTH(create_time))')) await db.query(statement);
      // The extension a design would write is refused in place by the server: why it is never proposed.
      await expect(
        db.query(
          'ALTER TABLE products DROP INDEX m, ADD INDEX m ((MONTH(create_time)), category), ALGORITHM=INPLACE, LOCK=NONE',
        ),
      ).rejects.toMatchObject({ errno: 1846 });
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      const table = analyze(QUERY, { server, source: 'dsn', schema }).statements[0]!.indexPlan!.tables[0]!;
      expect(table.verdict).toBe('create');
      expect(table.parts.some((part) => part.expression)).toBe(false);
      for (const statement of table.ddl) await db.query(statement);
      const [parts] = await db.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'products' AND EXPRESSION IS NOT NULL",
        [database],
      );
      expect(Number(parts[0]!.n)).toBe(1);
      expect(await keyOf(db, MONTH_ONLY)).toBe('m');
      expect(await keyOf(db, QUERY)).toBe(table.indexName);
    });
  });

  it('never proposes a second functional key part over an expression another index keys on', async () => {
    await withScratchDatabase(url, async (db, database) => {
      // m cannot be extended (price follows the expression): a new index must not key on MONTH() again.
      for (const statement of setup('(MONTH(create_time)), price')) await db.query(statement);
      expect(await keyOf(db, MONTH_ONLY)).toBe('m');
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);

      // Per query: MONTH(create_time) is left out of the new index, with the reason.
      const plan = analyze(QUERY, { server, source: 'dsn', schema }).statements[0]!.indexPlan!;
      const table = plan.tables[0]!;
      expect(table.verdict).toBe('create');
      expect(table.parts.some((part) => part.expression)).toBe(false);
      expect(table.parts.map((part) => part.column)).toEqual(['category', 'create_time', 'price']);
      expect(table.notes.join(' ')).toContain('already a functional key part of m');

      // Per workload: the same.
      const set = designWorkloadIndexes(workloadFromText(`${QUERY};\n${MONTH_ONLY};`), schema, server);
      const functionalParts = set.indexes.flatMap((index) => index.parts.filter((part) => part.expression));
      expect(functionalParts).toEqual([]);

      // Applied: the MONTH-only query keeps m, and the query uses the new index.
      for (const statement of [...table.ddl, ...set.indexes.flatMap((index) => index.ddl)])
        await db.query(statement).catch((error: { errno?: number }) => {
          if (error.errno !== 1061) throw error; // the set may repeat the per-query index (duplicate name)
        });
      expect(await keyOf(db, MONTH_ONLY)).toBe('m');
      expect(await keyOf(db, QUERY)).toBe(table.indexName);

      // Canary: the second functional key part, added by hand, takes m away from the MONTH-only query.
      await db.query('ALTER TABLE products ADD INDEX canary (category, (MONTH(create_time)), create_time)');
      expect(await keyOf(db, MONTH_ONLY)).not.toBe('m');
    });
  });
});
