// Server truth for the query-shape rules QRY005–QRY007 and COR004–COR005: what each one claims the
// server does (plans, rows), on both servers, next to whether the rule fires.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import type { Suggestion } from '../../src/core/model/report.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE t (id int NOT NULL AUTO_INCREMENT, a int, s varchar(20) COLLATE utf8mb4_general_ci, b int, nonkey int,
  PRIMARY KEY (id), KEY ka (a), KEY ks (s), KEY kb (b))`;
// 900 rows: a in 0..49, s = 'v' || a (mixed case every other row), b in 0..6, nonkey NULL every 10th row.
const LOAD = `INSERT INTO t (a, s, b, nonkey)
  WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 900)
  SELECT n % 50, IF(n % 2 = 0, CONCAT('v', n % 50), CONCAT('V', n % 50)), n % 7, IF(n % 10 = 0, NULL, n) FROM r;
ANALYZE TABLE t`;

interface PlanRow {
  type: string;
  key: string | null;
  Extra: string | null;
}

async function explain(connection: Connection, sql: string): Promise<PlanRow> {
  const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
  return rows[0] as PlanRow;
}

describe.each(testServers())('query-shape rules on $flavor', ({ flavor, url }) => {
  const schema = schemaFromDdl(DDL, flavor).schema;
  const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0');
  const rewriteOf = (sql: string): Suggestion | undefined =>
    analyze(sql, { server, source: 'flags', schema })
      .statements.flatMap((statement) => statement.findings)
      .find((finding) => finding.rule === 'QRY005')
      ?.suggestions.find((suggestion) => suggestion.kind === 'rewrite');
  const rulesOf = (sql: string): string[] =>
    analyze(sql, { server, source: 'flags', schema }).statements.flatMap((statement) =>
      statement.findings.map((finding) => finding.rule),
    );

  it('QRY006: <>, NOT IN and NOT BETWEEN are index ranges over nearly every row; NOT LIKE is never a range', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      for (const condition of ['a <> 5', 'a NOT IN (1, 2, 3)', 'a NOT BETWEEN 1 AND 40']) {
        const sql = `SELECT id FROM t WHERE ${condition}`;
        expect(rulesOf(sql)).toContain('QRY006');
        expect(
          await explain(connection, `SELECT id FROM t FORCE INDEX (ka) WHERE ${condition}`),
        ).toMatchObject({ type: 'range', key: 'ka' });
        // Without the hint the optimizer may use the range as a covering scan, never as a seek to few rows.
        const [count] = await connection.query<RowDataPacket[]>(
          `SELECT COUNT(*) AS n FROM t WHERE ${condition}`,
        );
        expect(Number(count[0]?.n)).toBeGreaterThan(150);
      }
      const notLike = "SELECT id FROM t WHERE s NOT LIKE 'v1%'";
      expect(rulesOf(notLike)).toContain('QRY006');
      expect(
        (await explain(connection, "SELECT id FROM t FORCE INDEX (ks) WHERE s NOT LIKE 'v1%'")).type,
      ).not.toBe('range');
      // Canary: the positive LIKE prefix is a range, and a narrowing equality silences the rule.
      expect((await explain(connection, "SELECT id FROM t FORCE INDEX (ks) WHERE s LIKE 'v1%'")).type).toBe(
        'range',
      );
      expect(rulesOf("SELECT id FROM t WHERE b = 3 AND s NOT LIKE 'v1%'")).not.toContain('QRY006');
    });
  });

  it('QRY007: an OR over two indexed columns merges (index_merge); with an unindexed branch the table is scanned', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const merged = 'SELECT id FROM t WHERE a = 3 OR b = 200';
      expect(rulesOf(merged)).not.toContain('QRY007');
      expect(await explain(connection, merged)).toMatchObject({ type: 'index_merge' });
      const scanned = 'SELECT id FROM t WHERE a = 3 OR nonkey = 20';
      expect(rulesOf(scanned)).toContain('QRY007');
      expect(await explain(connection, scanned)).toMatchObject({ type: 'ALL' });
    });
  });

  it('QRY005: a HAVING condition on a grouped column, moved to WHERE, keeps the same groups and counts (NULLs, case-insensitive groups)', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(
        `${DDL};\n${LOAD};\nINSERT INTO t (a, s, b) VALUES (NULL, NULL, NULL), (NULL, 'v7 ', 1)`,
      );
      const pairs: [string, string][] = [
        [
          "SELECT s, COUNT(*) AS n, SUM(b) AS sb FROM t GROUP BY s HAVING s <> 'v1' AND s IN ('v7', 'V3', 'v1') ORDER BY s",
          "SELECT s, COUNT(*) AS n, SUM(b) AS sb FROM t WHERE s <> 'v1' AND s IN ('v7', 'V3', 'v1') GROUP BY s ORDER BY s",
        ],
        [
          'SELECT a, COUNT(*) AS n FROM t GROUP BY 1 HAVING a IS NULL OR a > 45 ORDER BY a',
          'SELECT a, COUNT(*) AS n FROM t WHERE a IS NULL OR a > 45 GROUP BY 1 ORDER BY a',
        ],
      ];
      for (const [having, where] of pairs) {
        expect(rulesOf(having)).toContain('QRY005');
        expect(rulesOf(where)).not.toContain('QRY005');
        const [a] = await connection.query<RowDataPacket[]>(having);
        const [b] = await connection.query<RowDataPacket[]>(where);
        expect(a.length).toBeGreaterThan(0);
        expect(a).toEqual(b);
        // The rule's own rewrite (marked equivalent) returns the same rows.
        const rewrite = rewriteOf(having);
        expect(rewrite?.equivalent, having).toBe(true);
        const [c] = await connection.query<RowDataPacket[]>(rewrite?.rewrittenSql ?? '');
        expect(c).toEqual(a);
      }
      // An alias, an ordinal and an aggregate condition that stays in HAVING.
      const mixed =
        "SELECT s AS k, a, COUNT(*) AS n FROM t WHERE b > 0 OR b IS NULL GROUP BY k, 2 HAVING k IN ('v7', 'v9') AND COUNT(*) > 1 AND (a IS NULL OR a < 40) ORDER BY k, a";
      const mixedRewrite = rewriteOf(mixed);
      expect(mixedRewrite?.rewrittenSql).toMatch(/HAVING COUNT\(\*\) > 1/);
      const [m1] = await connection.query<RowDataPacket[]>(mixed);
      const [m2] = await connection.query<RowDataPacket[]>(mixedRewrite?.rewrittenSql ?? '');
      expect(m1.length).toBeGreaterThan(0);
      expect(m2).toEqual(m1);
      // Canary: LIKE does not pad. MySQL groups 'v7 ' with 'V7' (PAD SPACE), and in WHERE LIKE 'v7' drops it
      // from the count; MariaDB 10.11 puts 'v7 ' in a group of its own, so there the rows agree. The rewrite
      // is offered as not equivalent on both.
      const like = "SELECT s, COUNT(*) AS n FROM t GROUP BY s HAVING s LIKE 'v7'";
      const likeRewrite = rewriteOf(like);
      expect(likeRewrite?.equivalent).toBe(false);
      const [l1] = await connection.query<RowDataPacket[]>(like);
      const [l2] = await connection.query<RowDataPacket[]>(likeRewrite?.rewrittenSql ?? '');
      if (flavor === 'mysql') expect(l2).not.toEqual(l1);
      else expect(l2).toEqual(l1);
      // Canary: a condition on an aggregate is HAVING's job; moving it would be an error, and the rule is quiet.
      expect(rulesOf('SELECT s, COUNT(*) FROM t GROUP BY s HAVING COUNT(*) > 5')).not.toContain('QRY005');
    });
  });

  it('COR004: COUNT(col) over a NULLable column differs from COUNT(*) once a NULL is stored', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const sql = 'SELECT COUNT(nonkey) AS c, COUNT(*) AS n FROM t';
      expect(rulesOf(sql)).toContain('COR004');
      const [rows] = await connection.query<RowDataPacket[]>(sql);
      expect(Number(rows[0]?.c)).toBe(810);
      expect(Number(rows[0]?.n)).toBe(900);
      expect(rulesOf('SELECT COUNT(id) FROM t')).not.toContain('COR004'); // NOT NULL: the same number
    });
  });

  it('COR005: GROUP BY without ORDER BY is sorted on MariaDB (filesort) and not on MySQL 8.0; the rule fires exactly on MySQL', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const sql = 'SELECT nonkey % 7 AS g, COUNT(*) FROM t GROUP BY nonkey % 7';
      const plan = await explain(connection, sql);
      const sorts = /filesort/.test(plan.Extra ?? '');
      expect(sorts).toBe(flavor === 'mariadb');
      expect(rulesOf(sql).includes('COR005')).toBe(!sorts);
      // Canary: ORDER BY NULL removes MariaDB's sort as well, and the rule never reports it.
      expect((await explain(connection, `${sql} ORDER BY NULL`)).Extra ?? '').not.toMatch(/filesort/);
      expect(rulesOf(`${sql} ORDER BY NULL`)).not.toContain('COR005');
    });
  });

  it('CNV003: a VARCHAR compared with CURDATE() or a DATE literal is compared as dates: the index is scanned, never searched', async () => {
    const ddl =
      'CREATE TABLE ev (id int NOT NULL AUTO_INCREMENT, day varchar(20), PRIMARY KEY (id), KEY kd (day))';
    const ddlSchema = schemaFromDdl(ddl, flavor).schema;
    const cnv = (sql: string): string[] =>
      analyze(sql, { server, source: 'flags', schema: ddlSchema }).statements.flatMap((statement) =>
        statement.findings.map((finding) => finding.rule),
      );
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${ddl};
INSERT INTO ev (day) WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 900)
  SELECT DATE_FORMAT(DATE '2024-01-01' + INTERVAL n DAY, '%Y-%m-%d') FROM r;
INSERT INTO ev (day) VALUES ('2024-3-1');
ANALYZE TABLE ev`);
      for (const value of ['CURDATE()', 'NOW() - INTERVAL 1 DAY', "DATE '2024-03-01'"]) {
        const sql = `SELECT id FROM ev WHERE day = ${value}`;
        expect(cnv(sql)).toContain('CNV003');
        expect(['ALL', 'index']).toContain((await explain(connection, sql)).type);
      }
      // Canary: the string constant is searched (ref), and the rule is quiet.
      const plain = "SELECT id FROM ev WHERE day = '2024-03-01'";
      expect(cnv(plain)).not.toContain('CNV003');
      expect(await explain(connection, plain)).toMatchObject({ type: 'ref', key: 'kd' });
      // Why the string constant is not equivalent: the date comparison also matches the non-canonical '2024-3-1'.
      const [asDate] = await connection.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM ev WHERE day = DATE '2024-03-01'",
      );
      const [asString] = await connection.query<RowDataPacket[]>(
        `SELECT COUNT(*) AS n FROM ev WHERE day = '2024-03-01'`,
      );
      expect([Number(asDate[0]?.n), Number(asString[0]?.n)]).toEqual([2, 1]);
    });
  });

  it('ANSI_QUOTES: "…" is a column name, so LIK001 and the constant rewrites stay quiet; without it, a string', async () => {
    await withScratchDatabase(url, async (connection) => {
      await connection.query(`${DDL};\n${LOAD}`);
      const like = 'SELECT id FROM t WHERE s LIKE "%1"';
      const ansi = (sql: string): string[] => rulesOf(`SET SESSION sql_mode = 'ANSI_QUOTES';\n${sql}`);
      expect(rulesOf(like)).toContain('LIK001');
      expect(ansi(like)).not.toContain('LIK001');
      const [rows] = await connection.query<RowDataPacket[]>(like);
      expect(rows.length).toBeGreaterThan(0);
      await connection.query("SET SESSION sql_mode = 'ANSI_QUOTES'");
      const refused = await connection.query(like).then(
        () => null,
        (error: { errno?: number }) => error.errno,
      );
      expect(refused).toBe(1054); // unknown column '%1'
    });
  });
});
