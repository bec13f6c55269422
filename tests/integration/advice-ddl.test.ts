// Server truth for the advice's DDL: every proposed statement runs on the target, and the query as
// advised uses the index it creates; where the server would refuse an index, none is proposed and
// the server's refusal of the naive DDL is checked as the canary.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { servedSql, type Finding } from '../../src/core/model/report.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const TABLE_DDL = `CREATE TABLE items (
  id int unsigned NOT NULL AUTO_INCREMENT,
  body text CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
  body_bin text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  title varchar(1000) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
  amount decimal(10,2) DEFAULT NULL,
  qty int DEFAULT NULL,
  code varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  num varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  created datetime DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`;

const ROWS = 5000;
// NULLs every 97th row; `code` holds some values that are not numbers, `num` only numbers (or NULL).
const LOAD = `INSERT INTO items (body, body_bin, title, amount, qty, code, num, created)
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS})
SELECT CONCAT('b', n), CONCAT(IF(n % 2 = 0, 'B', 'b'), n), CONCAT('t', n, REPEAT('x', n % 300)),
  IF(n % 97 = 0, NULL, n / 4), IF(n % 97 = 0, NULL, n),
  IF(n % 10 = 0, CONCAT('x', n), CONCAT('', n)), IF(n % 97 = 0, NULL, CONCAT(' ', n)),
  IF(n % 97 = 0, NULL, TIMESTAMP('2024-04-30 20:00:00') + INTERVAL n HOUR)
FROM seq`;

const SEEK = ['ref', 'range', 'eq_ref', 'const', 'ref_or_null'];

/** Statements whose every DDL suggestion must run and serve the advised query. */
const cases = [
  "SELECT id FROM items WHERE body = 'b17'",
  "SELECT id FROM items WHERE title = 't17xxxxxxxxxxxxxxxxx'",
  "SELECT id FROM items WHERE LOWER(body) = 'b17'",
  'SELECT id FROM items WHERE amount / 4 > 300',
  'SELECT id FROM items WHERE amount / 4 BETWEEN 100 AND 101',
  'SELECT id FROM items WHERE qty * 3 = 30',
  'SELECT id FROM items WHERE CAST(num AS SIGNED) = 17',
  // Generated-column types MariaDB needs declared: DATE_FORMAT (three-argument form there), CONCAT, DECIMAL
  // arithmetic over two columns.
  "SELECT id FROM items WHERE DATE_FORMAT(created, '%Y-%m-%d %H') = '2024-05-01 10'",
  "SELECT id FROM items WHERE DATE_FORMAT(created, '%Y%m%d%H') >= '2024112110'",
  "SELECT id FROM items WHERE CONCAT(code, '-', num) = '17- 17'",
  'SELECT id FROM items WHERE qty + amount = 30',
  'SELECT id FROM items WHERE nvl(qty, 0) = 5',
  // CNV001: the index serves the quoted (recommended, not equivalent) query, never the numeric comparison.
  'SELECT id FROM items WHERE code = 17',
];

describe.each(testServers())('advice DDL on $flavor', ({ flavor, url }) => {
  let connection: Connection;
  let database: string;
  let version: string;
  const schema = schemaFromDdl(TABLE_DDL, flavor).schema;

  beforeAll(async () => {
    connection = await connect(url);
    database = scratchDatabaseName('sargable_ddl');
    await connection.query(`CREATE DATABASE \`${database}\``);
    await connection.query(`USE \`${database}\``);
    await connection.query(
      flavor === 'mysql'
        ? 'SET SESSION cte_max_recursion_depth = 100000'
        : 'SET SESSION max_recursive_iterations = 100000',
    );
    const [rows] = await connection.query<RowDataPacket[]>('SELECT VERSION() AS v');
    version = String(rows[0]?.v).replace(/-.*/, '');
    await connection.query(TABLE_DDL);
    await connection.query(LOAD);
    await connection.query('ANALYZE TABLE items');
  });

  afterAll(async () => {
    await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection?.end();
  });

  function findings(sql: string): Finding[] {
    const report = analyze(sql, {
      server: offlineServerInfo(flavor, version),
      source: 'flags',
      schema,
    });
    expect(report.errors).toEqual([]);
    return report.statements.flatMap((statement) => statement.findings);
  }

  async function explainItems(sql: string): Promise<RowDataPacket> {
    const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
    const row = rows.find((candidate) => candidate.table === 'items');
    if (!row) throw new Error(`EXPLAIN gave no items row for ${sql}`);
    return row;
  }

  async function dropAdded(before: Set<string>, columnsBefore: Set<string>): Promise<void> {
    const [indexes] = await connection.query<RowDataPacket[]>('SHOW INDEX FROM items');
    for (const name of new Set(indexes.map((row) => String(row.Key_name))))
      if (!before.has(name)) await connection.query(`ALTER TABLE items DROP INDEX \`${name}\``);
    const [columns] = await connection.query<RowDataPacket[]>('SHOW COLUMNS FROM items');
    for (const row of columns)
      if (!columnsBefore.has(String(row.Field)))
        await connection.query(`ALTER TABLE items DROP COLUMN \`${String(row.Field)}\``);
  }

  it.each(cases)('every DDL runs and serves the advised query: %s', async (sql) => {
    const all = findings(sql);
    const withDdl = all.flatMap((finding) =>
      finding.suggestions
        .filter((suggestion) => suggestion.ddl.length > 0)
        .map((suggestion) => ({ finding, suggestion })),
    );
    const [indexes] = await connection.query<RowDataPacket[]>('SHOW INDEX FROM items');
    const [columns] = await connection.query<RowDataPacket[]>('SHOW COLUMNS FROM items');
    const indexesBefore = new Set(indexes.map((row) => String(row.Key_name)));
    const columnsBefore = new Set(columns.map((row) => String(row.Field)));
    let applied = 0;
    for (const { finding, suggestion } of withDdl) {
      for (const statement of suggestion.ddl) expect(statement).not.toMatch(/\?/);
      const advised = servedSql(finding, suggestion) ?? sql;
      try {
        for (const statement of suggestion.ddl) await connection.query(statement);
        await connection.query('ANALYZE TABLE items');
        const row = await explainItems(advised);
        expect({ sql: advised, key: row.key, seeks: SEEK.includes(String(row.type)) }).toEqual({
          sql: advised,
          key: suggestion.indexName,
          seeks: true,
        });
        // A generated column marked equivalent returns the original's rows through the query naming it.
        if (suggestion.kind === 'generated-column' && suggestion.equivalent && advised !== sql) {
          const [original] = await connection.query<RowDataPacket[]>(`${sql} ORDER BY id`);
          const [named] = await connection.query<RowDataPacket[]>(`${advised} ORDER BY id`);
          expect(original.length, sql).toBeGreaterThan(0);
          expect(named).toEqual(original);
        }
        applied++;
      } finally {
        await dropAdded(indexesBefore, columnsBefore);
      }
    }
    // MySQL has no NVL(): the statement fails there and nothing is proposed (see the canary below).
    if (!(flavor === 'mysql' && /nvl/.test(sql)))
      expect(applied, JSON.stringify(all, null, 1)).toBeGreaterThan(0);
  });

  it('proposes a prefix for TEXT and over-long VARCHAR columns, and the server refuses them whole', async () => {
    const body = findings("SELECT id FROM items WHERE body = 'b17'")
      .flatMap((finding) => finding.suggestions)
      .find((suggestion) => suggestion.kind === 'index');
    expect(body?.ddl[0]).toMatch(/\(body\(\d+\)\)/);
    const title = findings("SELECT id FROM items WHERE title = 't17'")
      .flatMap((finding) => finding.suggestions)
      .find((suggestion) => suggestion.kind === 'index');
    expect(title?.ddl[0]).toMatch(/\(title\(\d+\)\)/);
    // Canary: without the prefix the TEXT index is refused (1170); MariaDB shortens an over-long VARCHAR key itself.
    await expect(connection.query('ALTER TABLE items ADD INDEX whole_body (body)'))
      .rejects.toMatchObject(flavor === 'mysql' ? { errno: 1170 } : {})
      .catch(async () => {
        // MariaDB accepts it with note 1071 (a 768-character prefix): nothing to refuse there.
        await connection.query('ALTER TABLE items DROP INDEX whole_body');
      });
    if (flavor === 'mysql')
      await expect(connection.query('ALTER TABLE items ADD INDEX whole_title (title)')).rejects.toMatchObject(
        {
          errno: 1071,
        },
      );
  });

  it('proposes no index on an expression over the AUTO_INCREMENT column, and the server refuses one', async () => {
    const all = findings('SELECT id FROM items WHERE id * 2 + qty = 10');
    const ddl = all.flatMap((finding) => finding.suggestions.flatMap((suggestion) => suggestion.ddl));
    expect(ddl).toEqual([]);
    expect(all.flatMap((finding) => finding.notes ?? []).join(' ')).toMatch(/AUTO_INCREMENT/);
    const naive =
      flavor === 'mysql'
        ? 'ALTER TABLE items ADD INDEX bad ((id * 2 + qty))'
        : 'ALTER TABLE items ADD COLUMN bad bigint AS (id * 2 + qty) VIRTUAL, ADD INDEX bad (bad)';
    await expect(connection.query(naive)).rejects.toMatchObject({
      errno: flavor === 'mysql' ? 3754 : 1901,
    });
  });

  it('proposes no functional index over a TEXT result (MySQL 3757)', async () => {
    const all = findings("SELECT id FROM items WHERE UPPER(body_bin) = 'B17'");
    expect(all.flatMap((finding) => finding.suggestions.flatMap((suggestion) => suggestion.ddl))).toEqual([]);
    if (flavor === 'mysql') {
      expect(all.flatMap((finding) => finding.notes ?? []).join(' ')).toMatch(/3757/);
      await expect(
        connection.query('ALTER TABLE items ADD INDEX bad ((UPPER(body_bin)))'),
      ).rejects.toMatchObject({ errno: 3757 });
    }
  });

  it('flags a function the server does not have instead of copying it into DDL', async () => {
    const all = findings('SELECT id FROM items WHERE nvl(qty, 0) = 5');
    const ddl = all.flatMap((finding) => finding.suggestions.flatMap((suggestion) => suggestion.ddl));
    if (flavor === 'mysql') {
      expect(ddl.join(' ')).not.toMatch(/nvl/i);
      expect(all.flatMap((finding) => finding.notes ?? []).join(' ')).toMatch(/NVL\(\) is not a built-in/);
      await expect(connection.query('SELECT id FROM items WHERE nvl(qty, 0) = 5')).rejects.toMatchObject({
        errno: 1305,
      });
    } else {
      // MariaDB has NVL() (IFNULL's synonym): its advice is the server's business, checked above.
      expect((await connection.query('SELECT id FROM items WHERE nvl(qty, 0) = 5'))[0]).toBeDefined();
    }
  });

  it('never copies a placeholder into DDL', () => {
    for (const sql of [
      'SELECT id FROM items WHERE qty * ? = 10',
      'SELECT id FROM items WHERE LEFT(code, ?) = 12',
      "SELECT id FROM items WHERE CONCAT(code, ?) = 'x1'",
    ]) {
      const all = findings(sql);
      expect(all.length, sql).toBeGreaterThan(0);
      const ddl = all.flatMap((finding) => finding.suggestions.flatMap((suggestion) => suggestion.ddl));
      expect(ddl.join(' '), sql).not.toMatch(/\?/);
    }
  });

  it("CAST(varchar AS number): the risk note's check predicts whether the DDL runs", async () => {
    for (const [column, failing] of [
      ['num', false],
      ['code', true],
    ] as const) {
      const sql = `SELECT id FROM items WHERE CAST(${column} AS SIGNED) = 17`;
      const all = findings(sql);
      const notes = all.flatMap((finding) => [
        ...(finding.notes ?? []),
        ...finding.suggestions.flatMap((suggestion) => suggestion.notes),
      ]);
      const suggestion = all
        .flatMap((finding) => finding.suggestions)
        .find((candidate) => candidate.kind === 'functional-index' || candidate.kind === 'generated-column');
      if (!suggestion) continue; // MariaDB derives no CAST column type yet
      const check = /Check first \(0 means safe\): (SELECT .*)$/.exec(
        notes.find((note) => /^Risk:/.test(note)) ?? '',
      )?.[1];
      expect(check, JSON.stringify(notes)).toBeDefined();
      const [rows] = await connection.query<RowDataPacket[]>({ sql: check ?? '', rowsAsArray: true });
      const bad = Number((rows[0] as unknown[])[0]);
      expect(bad > 0).toBe(failing);
      const ddl = suggestion.ddl.join(' ');
      if (failing)
        await expect(connection.query(ddl)).rejects.toMatchObject({
          errno: expect.toSatisfy((errno: number) => [1366, 3751, 1292].includes(errno)),
        });
      else {
        await connection.query(ddl);
        await connection.query(`ALTER TABLE items DROP INDEX \`${suggestion.indexName}\``);
        if (suggestion.kind === 'generated-column') {
          const added = /ADD COLUMN (\w+)/.exec(ddl)?.[1];
          if (added) await connection.query(`ALTER TABLE items DROP COLUMN \`${added}\``);
        }
      }
    }
  });
});
