// Server truth for CNV002's IN (SELECT col …) and JOIN … USING (col) shapes: a VARCHAR column compared
// with an INT one through them is read in full on both servers, the same query between INT columns is a
// lookup; the rule reports exactly the first.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE text_codes (id int NOT NULL PRIMARY KEY, code varchar(20), KEY (code)) DEFAULT CHARSET=utf8mb4;
CREATE TABLE int_codes (id int NOT NULL PRIMARY KEY, code int, KEY (code));
CREATE TABLE picks (id int NOT NULL PRIMARY KEY, code int, KEY (code))`;

describe.each(testServers())('CNV002 subquery and USING on $flavor', ({ flavor, url }) => {
  const schema = schemaFromDdl(DDL, flavor).schema;
  const reported = (sql: string): boolean =>
    analyze(sql, {
      server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
      source: 'flags',
      schema,
    }).statements[0]!.findings.some((finding) => finding.rule === 'CNV002');

  it.each([
    [
      'IN (SELECT …)',
      (table: string) => `SELECT * FROM ${table} t WHERE t.code IN (SELECT p.code FROM picks p)`,
    ],
    ['USING', (table: string) => `SELECT * FROM picks p JOIN ${table} t USING (code)`],
  ])(
    '%s: reported where the server reads the VARCHAR table in full, not where it looks up',
    async (_shape, query) => {
      await withScratchDatabase(url, async (connection) => {
        for (const statement of DDL.split(';')) await connection.query(statement);
        const rows = `WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 900) SELECT n, n FROM s`;
        await connection.query(`INSERT INTO text_codes ${rows}`);
        await connection.query(`INSERT INTO int_codes ${rows}`);
        await connection.query('INSERT INTO picks VALUES (1, 5), (2, 7), (3, 9)');
        await connection.query('ANALYZE TABLE text_codes, int_codes, picks');
        const access = async (sql: string): Promise<string> => {
          const [plan] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
          return String(plan.find((row) => row.table === 't')?.type);
        };
        // Canary: between INT columns the server seeks t's index and nothing is reported.
        expect(await access(query('int_codes'))).toMatch(/^(ref|eq_ref)$/);
        expect(reported(query('int_codes'))).toBe(false);
        // VARCHAR against INT: t is scanned (ALL, or a full index scan), and the rule says so.
        expect(await access(query('text_codes'))).toMatch(/^(ALL|index)$/);
        expect(reported(query('text_codes'))).toBe(true);
      });
    },
  );
});
