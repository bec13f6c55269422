// Server truth for the correctness rules: what each one claims the server does, on both servers.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE customers (id int NOT NULL, referrer_id int DEFAULT NULL, PRIMARY KEY (id));
CREATE TABLE orders (id int NOT NULL, customer_id int NOT NULL, status varchar(20), created date NOT NULL, PRIMARY KEY (id))`;
const LOAD = `INSERT INTO customers VALUES (1, NULL), (2, 1), (3, 1), (4, 2);
INSERT INTO orders VALUES (10, 1, 'paid', '2024-01-05'), (11, 2, 'open', '2024-01-20'), (12, 2, 'paid', '2023-12-31')`;

describe.each(testServers())('correctness rules on $flavor', ({ flavor, url }) => {
  const schema = schemaFromDdl(DDL, flavor).schema;
  const rulesOf = (sql: string): string[] =>
    analyze(sql, {
      server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
      source: 'flags',
      schema,
    }).statements.flatMap((statement) => statement.findings.map((finding) => finding.rule));

  it('COR001: NOT IN over a NULLable subquery column returns no rows; NOT EXISTS returns them', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const notIn = 'SELECT id FROM customers WHERE id NOT IN (SELECT referrer_id FROM customers)';
      expect(rulesOf(notIn)).toContain('COR001');
      const [rows] = await connection.query<RowDataPacket[]>(notIn);
      expect(rows).toEqual([]);
      const [exists] = await connection.query<RowDataPacket[]>(
        'SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM customers r WHERE r.referrer_id = c.id) ORDER BY c.id',
      );
      expect(exists.map((row) => row.id)).toEqual([3, 4]);
      // Canary: with the NULL filtered out the same NOT IN returns the rows, and the rule is quiet for a NOT NULL column.
      const [filtered] = await connection.query<RowDataPacket[]>(
        'SELECT id FROM customers WHERE id NOT IN (SELECT referrer_id FROM customers WHERE referrer_id IS NOT NULL) ORDER BY id',
      );
      expect(filtered.map((row) => row.id)).toEqual([3, 4]);
      expect(
        rulesOf('SELECT id FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)'),
      ).not.toContain('COR001');
    });
  });

  it('COR002: a WHERE on the outer table returns exactly the INNER JOIN rows', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const left =
        "SELECT c.id, o.id AS o FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.status = 'paid' ORDER BY c.id, o.id";
      const inner =
        "SELECT c.id, o.id AS o FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'paid' ORDER BY c.id, o.id";
      const inOn =
        "SELECT c.id, o.id AS o FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.status = 'paid' ORDER BY c.id, o.id";
      expect(rulesOf(left)).toContain('COR002');
      expect(rulesOf(inOn)).not.toContain('COR002');
      const [a] = await connection.query<RowDataPacket[]>(left);
      const [b] = await connection.query<RowDataPacket[]>(inner);
      const [c] = await connection.query<RowDataPacket[]>(inOn);
      expect(a).toEqual(b);
      expect(c.length).toBeGreaterThan(a.length); // the customers without a paid order come back
    });
  });

  it('COR003: an unquoted date is arithmetic and selects other rows than the quoted one', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const unquoted = 'SELECT id FROM orders WHERE created < 2024-01-10 ORDER BY id';
      expect(rulesOf(unquoted)).toContain('COR003');
      const [value] = await connection.query<RowDataPacket[]>({
        sql: 'SELECT 2024-01-10 AS v',
        rowsAsArray: true,
      });
      expect(Number((value[0] as unknown[])[0])).toBe(2013);
      const quoted = await connection
        .query<RowDataPacket[]>("SELECT id FROM orders WHERE created < '2024-01-10' ORDER BY id")
        .then(([rows]) => rows.map((row) => row.id));
      const asNumber = await connection
        .query<RowDataPacket[]>(unquoted)
        .then(([rows]) => rows.map((row) => row.id))
        .catch((error: { errno?: number }) => `error ${error.errno}`);
      expect(quoted).toEqual([10, 12]);
      expect(asNumber).not.toEqual(quoted);
    });
  });

  it('QRY004: MySQL warns that SQL_CALC_FOUND_ROWS is deprecated (1287); MariaDB does not', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const sql = 'SELECT SQL_CALC_FOUND_ROWS id FROM orders LIMIT 1';
      expect(rulesOf(sql)).toContain('QRY004');
      await connection.query(sql);
      const [warnings] = await connection.query<RowDataPacket[]>('SHOW WARNINGS');
      expect(warnings.some((row) => Number(row.Code) === 1287)).toBe(flavor === 'mysql');
    });
  });

  it("MOD002: DEFAULT 0 / '0' and a DATETIME(6) DEFAULT CURRENT_TIMESTAMP are what the server refuses", async () => {
    await withScratchDatabase(url, async (connection) => {
      const mode = 'STRICT_TRANS_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE';
      await connection.query(`SET SESSION sql_mode = '${mode}'`);
      const cases = [
        'CREATE TABLE z0 (d datetime NOT NULL DEFAULT 0)',
        "CREATE TABLE z1 (d datetime NOT NULL DEFAULT '0')",
        "CREATE TABLE z2 (d datetime(6) NOT NULL DEFAULT '0000-00-00 00:00:00.000000')",
        'CREATE TABLE z3 (d datetime(6) DEFAULT CURRENT_TIMESTAMP)',
        'CREATE TABLE z4 (d datetime(6) DEFAULT CURRENT_TIMESTAMP(6))',
      ];
      const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0');
      for (const sql of cases) {
        const findings = analyze(sql, {
          server: { ...server, sqlMode: { session: mode, global: mode } },
          source: 'flags',
        }).statements.flatMap((statement) =>
          statement.findings.filter((finding) => finding.rule === 'MOD002'),
        );
        const predicted = findings.some((finding) => finding.severity === 'error');
        const refused = await connection.query(sql).then(
          () => false,
          (error: { errno?: number }) => error.errno === 1067,
        );
        expect({ sql, predicted }).toEqual({ sql, predicted: refused });
      }
    });
  });
});
