// The live schema loader reads views (and, on MariaDB, sequences), issue 19: in connected mode a query
// on a view resolves its columns (no "not in the schema" note), a function-wrapped view column is still
// found, and no index is proposed on a view or a sequence (ALTER TABLE on a view fails: ERROR 1347).
// The loaded views and sequences are compared with information_schema on both servers.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { findTable } from '../../src/core/model/schema.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';

describe.each(testServers())('live schema: views and sequences on $flavor', ({ flavor, url }) => {
  it('loads views with their columns and kind, sequences on MariaDB, and proposes no index on them', async () => {
    await withScratchDatabase(url, async (connection, database) => {
      await connection.query(`CREATE TABLE orders (
        id int NOT NULL AUTO_INCREMENT, customer_id int NOT NULL, created_at datetime NOT NULL,
        status varchar(16) NOT NULL, PRIMARY KEY (id), KEY idx_customer (customer_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
      await connection.query(
        `CREATE VIEW recent_orders AS SELECT id AS order_id, customer_id, created_at, UPPER(status) AS status_uc FROM orders`,
      );
      if (flavor === 'mariadb') await connection.query('CREATE SEQUENCE order_numbers');
      const server = { ...(await detectServerInfo(connection)), database };
      const schema = await loadSchema(connection, server, database);

      // What the server says about the view's and sequence's columns.
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('recent_orders', 'order_numbers') ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [database],
      );
      const columnsOf = (name: string) =>
        rows.filter((row) => row.t === name).map((row) => `${String(row.c)}:${String(row.d).toLowerCase()}`);
      const view = findTable(schema, 'recent_orders', database);
      expect(view?.kind).toBe('view');
      expect(view?.indexes).toEqual([]);
      expect(view?.columns.map((column) => `${column.name}:${column.dataType}`)).toEqual(
        columnsOf('recent_orders'),
      );
      expect(columnsOf('recent_orders')).toEqual([
        'order_id:int',
        'customer_id:int',
        'created_at:datetime',
        'status_uc:varchar',
      ]);
      expect(view?.columns.some((column) => column.autoIncrement || column.generated)).toBe(false);
      expect(findTable(schema, 'orders', database)?.kind).toBeUndefined();
      if (flavor === 'mariadb') {
        const sequence = findTable(schema, 'order_numbers', database);
        expect(sequence?.kind).toBe('sequence');
        expect(sequence?.columns.map((column) => `${column.name}:${column.dataType}`)).toEqual(
          columnsOf('order_numbers'),
        );
        expect(columnsOf('order_numbers')).toContain('next_not_cached_value:bigint');
      }

      // A function-wrapped view column: found (columns resolve through the view), no DDL on the view.
      const wrapped = 'SELECT * FROM recent_orders WHERE YEAR(created_at) = 2024';
      const report = analyze(wrapped, { server, source: 'dsn', schema });
      expect(report.errors).toEqual([]);
      const statement = report.statements[0]!;
      expect(statement.notes ?? []).not.toContainEqual(expect.stringContaining('not in the schema'));
      const fun = statement.findings.filter((finding) => finding.rule === 'FUN001');
      expect(fun.length).toBe(1);
      expect(fun[0]!.notes ?? []).toContainEqual(expect.stringContaining('recent_orders is a view'));
      for (const finding of statement.findings)
        expect({ rule: finding.rule, kinds: finding.suggestions.map((s) => s.kind) }).toEqual({
          rule: finding.rule,
          kinds: finding.suggestions.filter((s) => s.kind === 'rewrite').map((s) => s.kind),
        });
      expect(statement.indexPlan?.tables.map((entry) => entry.table) ?? []).not.toContain('recent_orders');

      // An unindexed view column: no index proposed on the view (the server refuses ALTER TABLE on it).
      const plain = analyze("SELECT order_id FROM recent_orders WHERE status_uc = 'PAID'", {
        server,
        source: 'dsn',
        schema,
      }).statements[0]!;
      expect(plain.notes ?? []).not.toContainEqual(expect.stringContaining('not in the schema'));
      expect(plain.findings.flatMap((finding) => finding.suggestions.flatMap((s) => s.ddl))).toEqual([]);
      await expect(connection.query('ALTER TABLE recent_orders ADD INDEX i (customer_id)')).rejects.toThrow();

      if (flavor === 'mariadb') {
        const sequenceQuery = analyze('SELECT * FROM order_numbers WHERE next_not_cached_value > 5', {
          server,
          source: 'dsn',
          schema,
        }).statements[0]!;
        expect(sequenceQuery.notes ?? []).not.toContainEqual(expect.stringContaining('not in the schema'));
        expect(
          sequenceQuery.findings.flatMap((finding) => finding.suggestions.flatMap((s) => s.ddl)),
        ).toEqual([]);
      }
    });
  }, 120_000);
});
