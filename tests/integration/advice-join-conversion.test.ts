// Server truth for CNV002: the converted side's index is not used for the join, and the finding's ALTER makes it usable.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE customers (
  id int NOT NULL,
  code varchar(20) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci NOT NULL,
  token varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  PRIMARY KEY (id), KEY code (code), KEY token (token)
) DEFAULT CHARSET=utf8mb4;
CREATE TABLE orders (
  id int NOT NULL,
  customer_code varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  customer_token varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  PRIMARY KEY (id)
) DEFAULT CHARSET=utf8mb4`;

describe.each(testServers())('CNV002 on $flavor', ({ flavor, url }) => {
  const schema = schemaFromDdl(DDL, flavor).schema;
  const finding = (sql: string) =>
    analyze(sql, {
      server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
      source: 'flags',
      schema,
    }).statements[0]?.findings.find((candidate) => candidate.rule === 'CNV002');

  it.each([
    ['charsets', 'c.code = o.customer_code', 'code'],
    ['collations', 'c.token = o.customer_token', 'token'],
  ])('%s: index unused before, used after the ALTER', async (kind, condition, key) => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(DDL);
      await connection.query(
        `INSERT INTO customers WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 500) SELECT n, CONCAT('c', n), CONCAT('t', n) FROM s`,
      );
      await connection.query("INSERT INTO orders VALUES (1, 'c7', 't7'), (2, 'c9', 't9')");
      await connection.query('ANALYZE TABLE customers, orders');
      const sql = `SELECT o.id FROM orders o JOIN customers c ON ${condition}`;
      const found = finding(sql);
      const explain = `EXPLAIN SELECT o.id FROM orders o STRAIGHT_JOIN customers c ON ${condition}`;
      if (kind === 'collations' && flavor === 'mariadb') {
        // MariaDB seeks the _ci index for a _bin comparison (and filters): nothing to report, and the server agrees.
        expect(found).toBeUndefined();
        const row = (await connection.query<RowDataPacket[]>(explain))[0].find(
          (candidate) => candidate.table === 'c',
        );
        expect({ key: row?.key, type: row?.type }).toEqual({ key, type: 'ref' });
        return;
      }
      expect(found, sql).toBeDefined();
      expect(found?.message).toContain(kind === 'charsets' ? 'utf8mb3' : 'utf8mb4_bin');
      // orders drives (STRAIGHT_JOIN), customers is looked up per order row: that lookup needs the index.
      const before = (await connection.query<RowDataPacket[]>(explain))[0].find((row) => row.table === 'c');
      // Not a seek: a full scan, or a full index scan (type index) of the converted side for every order row.
      expect(['ref', 'eq_ref', 'range'], JSON.stringify(before)).not.toContain(String(before?.type));
      const alter = /Aligning ALTER \(review before running\): (.*)$/.exec(
        (found?.notes ?? []).find((note) => note.startsWith('Aligning ALTER')) ?? '',
      )?.[1];
      expect(alter).toBeDefined();
      await connection.query(alter ?? '');
      await connection.query('ANALYZE TABLE customers');
      const after = (await connection.query<RowDataPacket[]>(explain))[0].find((row) => row.table === 'c');
      expect({ key: after?.key, type: after?.type }).toEqual({ key, type: 'ref' });
    });
  });

  it('two different _ci collations: the finding says ERROR 1267, and the server raises it', async () => {
    await withScratchDatabase(url, async (connection) => {
      const ddl = `CREATE TABLE a (id int PRIMARY KEY, x varchar(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL);
CREATE TABLE b (id int PRIMARY KEY, y varchar(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL)`;
      await connection.query(ddl);
      const sql = 'SELECT a.id FROM a JOIN b ON a.x = b.y';
      const report = analyze(sql, {
        server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
        source: 'flags',
        schema: schemaFromDdl(ddl, flavor).schema,
      });
      const found = report.statements[0]?.findings.find((candidate) => candidate.rule === 'CNV002');
      expect(found?.message).toMatch(/ERROR 1267/);
      await expect(connection.query(sql)).rejects.toMatchObject({ errno: 1267 });
    });
  });
});
