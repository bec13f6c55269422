// Server truth for FUN001 on join conditions: a function on the table that drives the join leaves the other
// table's index usable (ref on func), so it is not reported; a function on the table that must be looked up
// (inner side of an outer join) or with no index on the other column is. Plans from both servers.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE customers (id int NOT NULL, email varchar(100) NOT NULL, note varchar(100),
  PRIMARY KEY (id), KEY k_email (email));
CREATE TABLE accounts (id int NOT NULL, login varchar(100) NOT NULL, PRIMARY KEY (id), KEY k_login (login))`;
// 900 customers (upper-case e-mails), 60 accounts (lower-case logins matching some of them).
const LOAD = `INSERT INTO customers
  WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 900)
  SELECT n, CONCAT('USER', n, '@EXAMPLE.COM'), CONCAT('NOTE', n) FROM r;
INSERT INTO accounts
  WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 60)
  SELECT n, CONCAT('user', n * 7, '@example.com') FROM r;
ANALYZE TABLE customers, accounts`;

interface PlanRow {
  table: string;
  type: string;
  key: string | null;
}

async function plan(connection: Connection, sql: string): Promise<Record<string, PlanRow>> {
  const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
  return Object.fromEntries(rows.map((row) => [String(row.table), row as PlanRow]));
}

const SOUGHT = ['ref', 'eq_ref'];

describe.each(testServers())('FUN001 join sides on $flavor', ({ flavor, url }) => {
  const schema = schemaFromDdl(DDL, flavor).schema;
  const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0');
  const fun001 = (sql: string): number =>
    analyze(sql, { server, source: 'flags', schema })
      .statements.flatMap((statement) => statement.findings)
      .filter((finding) => finding.rule === 'FUN001').length;

  it('a function on the driving table: the other table is sought through its index, and nothing is reported', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      for (const sql of [
        'SELECT c.id FROM customers c JOIN accounts a ON c.email = UPPER(a.login)',
        'SELECT c.id FROM accounts a LEFT JOIN customers c ON c.email = UPPER(a.login)',
        'SELECT c.id FROM accounts a STRAIGHT_JOIN customers c ON c.email = UPPER(a.login)',
      ]) {
        expect(fun001(sql), sql).toBe(0);
        const rows = await plan(connection, sql);
        expect(SOUGHT, sql).toContain(rows.c?.type);
        expect(rows.c?.key, sql).toBe('k_email');
      }
      // Arithmetic (ARI001) is the same: accounts drives, customers is sought through its primary key.
      const arithmetic = 'SELECT c.id FROM customers c JOIN accounts a ON c.id = a.id + 1';
      expect(
        analyze(arithmetic, { server, source: 'flags', schema }).statements.flatMap((statement) =>
          statement.findings.filter((finding) => finding.rule === 'ARI001'),
        ),
      ).toEqual([]);
      expect((await plan(connection, arithmetic)).c).toMatchObject({ type: 'eq_ref', key: 'PRIMARY' });
      const [matched] = await connection.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM customers c JOIN accounts a ON c.email = UPPER(a.login)',
      );
      expect(Number(matched[0]?.n)).toBe(60);
    });
  });

  it('a function on the table that must be looked up: its index is not used, and FUN001 reports it', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      for (const sql of [
        'SELECT c.id FROM customers c LEFT JOIN accounts a ON c.email = UPPER(a.login)',
        'SELECT c.id FROM customers c STRAIGHT_JOIN accounts a ON c.email = UPPER(a.login)',
      ]) {
        expect(fun001(sql), sql).toBe(1);
        const rows = await plan(connection, sql);
        expect(SOUGHT, sql).not.toContain(rows.a?.type);
      }
      // Canary: the same outer join without the function seeks accounts through k_login.
      const bare = 'SELECT c.id FROM customers c LEFT JOIN accounts a ON c.email = a.login';
      const rows = await plan(connection, bare);
      expect(SOUGHT).toContain(rows.a?.type);
      expect(rows.a?.key).toBe('k_login');
    });
  });

  it('no index on the other column: neither table is sought, and FUN001 reports it with the other index as a fix', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const sql = 'SELECT c.id FROM customers c JOIN accounts a ON c.note = UPPER(a.login)';
      const findings = analyze(sql, { server, source: 'flags', schema })
        .statements.flatMap((statement) => statement.findings)
        .filter((finding) => finding.rule === 'FUN001');
      expect(findings).toHaveLength(1);
      expect(findings[0]?.notes?.some((note) => note.startsWith('Or index c.note'))).toBe(true);
      const rows = await plan(connection, sql);
      expect(SOUGHT).not.toContain(rows.a?.type);
      expect(SOUGHT).not.toContain(rows.c?.type);
      // The advised index on c.note makes c sought from a's rows.
      await connection.query('ALTER TABLE customers ADD INDEX k_note (note)');
      const after = await plan(connection, sql);
      expect(SOUGHT).toContain(after.c?.type);
      expect(after.c?.key).toBe('k_note');
    });
  });
});
