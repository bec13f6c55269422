// IDX001 against the server's truth (issue 17): "no index starts with <column>" is said only when no index
// does. For a predicate on the leading column of an existing index — beside a function-wrapped column
// (YEAR(created_at)), a sort with a LIMIT, or on a prefix key part — both servers seek that index
// (EXPLAIN key), and the advisor, on the schema loaded from the same server, reports no IDX001. A
// predicate on a column no index starts with is still reported, naming that column.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = [
  `CREATE TABLE digits (n tinyint NOT NULL PRIMARY KEY)`,
  `INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)`,
  `CREATE TABLE t17 (
    id int NOT NULL AUTO_INCREMENT, account_id int NOT NULL, created_at datetime NOT NULL,
    amount decimal(10,2) NOT NULL, note varchar(200) DEFAULT NULL,
    PRIMARY KEY (id), KEY idx_account_created (account_id, created_at), KEY idx_note (note(20))
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  // 10,000 rows over 500 accounts and four years: an account is 0.2% of the table.
  `INSERT INTO t17 (account_id, created_at, amount, note)
   SELECT 1 + n % 500, TIMESTAMP('2021-01-01') + INTERVAL ((n * 7919) % 1460) DAY, (n % 1000) / 10, CONCAT('note ', n)
   FROM (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n AS n FROM digits a, digits b, digits c, digits d) AS seq`,
  `ANALYZE TABLE t17`,
];

/** Statements whose leading-column predicate the existing index serves: no IDX001. */
const SERVED = [
  { sql: 'SELECT * FROM t17 WHERE YEAR(created_at) = 2024 AND account_id = 5', key: 'idx_account_created' },
  { sql: 'SELECT * FROM t17 WHERE account_id = 5 ORDER BY amount LIMIT 10', key: 'idx_account_created' },
  { sql: "SELECT * FROM t17 WHERE note = 'note 77' AND YEAR(created_at) = 2024", key: 'idx_note' },
  // amount leads no index, but account_id = 5 seeks idx_account_created: the server reads those rows
  // only, so "can only be evaluated by reading every row" would be false (found on SOAR over Sakila).
  {
    sql: 'SELECT * FROM t17 WHERE account_id = 5 AND YEAR(created_at) = 2024 AND amount > 90',
    key: 'idx_account_created',
  },
];

describe.each(testServers())('IDX001 and existing leading indexes on $flavor', ({ url }) => {
  it('reports no IDX001 where the server seeks an index leading with the column, and names the unindexed column otherwise', async () => {
    await withScratchDatabase(url, async (connection, database) => {
      for (const statement of DDL) await connection.query(statement);
      const server = { ...(await detectServerInfo(connection)), database };
      const schema = await loadSchema(connection, server, database);
      for (const { sql, key } of SERVED) {
        const [plan] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
        expect({ sql, key: plan[0]?.key }).toEqual({ sql, key });
        const report = analyze(sql, { server, source: 'dsn', schema });
        expect(report.errors).toEqual([]);
        const idx001 = report.statements[0]!.findings.filter((finding) => finding.rule === 'IDX001');
        expect({ sql, messages: idx001.map((finding) => finding.message) }).toEqual({ sql, messages: [] });
      }
      // Canary: a range on amount, which no index starts with, with nothing else seeking (account_id <> 5
      // reads the whole table), is reported and names amount; the server scans.
      const unindexed = 'SELECT * FROM t17 WHERE account_id <> 5 AND YEAR(created_at) = 2024 AND amount > 90';
      const [scan] = await connection.query<RowDataPacket[]>(`EXPLAIN ${unindexed}`);
      expect(scan[0]?.type).toBe('ALL');
      const report = analyze(unindexed, { server, source: 'dsn', schema });
      const messages = report.statements[0]!.findings.filter((finding) => finding.rule === 'IDX001').map(
        (finding) => finding.message,
      );
      expect(messages).toEqual([
        'No index starts with t17.amount: this predicate can only be evaluated by reading every row.',
      ]);
    });
  }, 120_000);
});
