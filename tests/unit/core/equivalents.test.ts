// Syntax the servers accept and node-sql-parser rejects, parsed in an equivalent form (src/core/sql/equivalents.ts):
// each statement is analysed in full (no PRS001), the rules see its tables and columns, and every position is
// one of the statement as written. The canary in each case is FUN001 on a wrapped column of a named table: it
// is only reported when the parse resolved the table and kept the position.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { isNode, type AstNode } from '../../../src/core/sql/ast.js';
import { equivalentForm, offsetMapper } from '../../../src/core/sql/equivalents.js';
import { parseStatement } from '../../../src/core/sql/parse.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';

const { schema } = schemaFromDdl(
  'CREATE TABLE t1 (id INT PRIMARY KEY, d DATETIME, a INT, KEY (d));\n' +
    'CREATE TABLE t2 (id INT PRIMARY KEY, d DATETIME, b INT, KEY (d));\n' +
    'CREATE TABLE t3 (id INT PRIMARY KEY, d DATETIME, KEY (d));',
);
const servers = {
  mysql: offlineServerInfo('mysql', '8.0.33'),
  mariadb: offlineServerInfo('mariadb', '10.11.0'),
};

function findings(sql: string, flavor: 'mysql' | 'mariadb') {
  const report = analyze(sql, { server: servers[flavor], source: 'flags', schema });
  expect(report.errors).toEqual([]);
  return report.statements.flatMap((statement) =>
    statement.findings.map((finding) => ({
      rule: finding.rule,
      line: finding.line,
      column: finding.column,
      table: finding.table,
      text: finding.expression,
    })),
  );
}

/** Every `loc` in the AST lies inside the statement, and each column reference's loc holds its name. */
function checkPositions(sql: string, ast: unknown): number {
  let checked = 0;
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (isNode(value)) {
      const loc = value.loc as {
        start: { offset: number; line: number; column: number };
        end: { offset: number };
      };
      if (loc) {
        expect(loc.start.offset).toBeGreaterThanOrEqual(0);
        expect(loc.end.offset).toBeLessThanOrEqual(sql.length);
        const before = sql.slice(0, loc.start.offset).split('\n');
        expect([loc.start.line, loc.start.column]).toEqual([before.length, before.at(-1)!.length + 1]);
        if (value.type === 'column_ref' && typeof value.column === 'string' && value.column !== '*') {
          expect(sql.slice(loc.start.offset, loc.end.offset)).toContain(value.column);
          checked++;
        }
      }
      for (const key in value) if (key !== 'loc') stack.push(value[key]);
    }
  }
  return checked;
}

/** [statement with a YEAR(<table>.d) canary, the table FUN001 must name, the construct rewritten]. */
const BOTH: [string, string, string][] = [
  ['DELETE FROM t1, t2 USING t1 JOIN t2 ON t1.id = t2.id\n WHERE YEAR(t2.d) = 2020', 't2', 'DELETE … USING'],
  ['DELETE FROM t1 USING t1, t3 WHERE t1.id = t3.id AND YEAR(t3.d) = 2020', 't3', 'DELETE … USING'],
  ['DELETE t1.*, t2.* FROM t1, t2 WHERE t1.id = t2.id AND YEAR(t2.d) = 2020', 't2', 'DELETE t.*'],
  ['SELECT t2.b FROM t1 NATURAL JOIN t2 WHERE YEAR(t2.d) = 2020', 't2', 'NATURAL JOIN'],
  ['SELECT * FROM t1\n  NATURAL LEFT OUTER JOIN t2\n WHERE YEAR(t2.d) = 2020', 't2', 'NATURAL JOIN'],
  ['SELECT * FROM t1 WHERE a <=> NULL AND YEAR(d) = 2020', 't1', '<=>'],
  [
    'SELECT STRAIGHT_JOIN t1.a FROM t1 JOIN t2 ON t1.id = t2.id WHERE YEAR(t2.d) = 2020',
    't2',
    'SELECT STRAIGHT_JOIN',
  ],
  ['SELECT DISTINCTROW a FROM t1 WHERE YEAR(d) = 2020', 't1', 'SELECT DISTINCTROW'],
  ['SELECT HIGH_PRIORITY ALL a FROM t1 WHERE YEAR(d) = 2020', 't1', 'SELECT HIGH_PRIORITY'],
  ['SELECT * FROM t1 PARTITION (p0, p1) WHERE YEAR(d) = 2020', 't1', 'PARTITION selection'],
  [
    "SELECT a INTO OUTFILE '/tmp/a.txt'\n  FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'\n  LINES TERMINATED BY '\\n'\nFROM t1 WHERE YEAR(d) = 2020",
    't1',
    'INTO OUTFILE options',
  ],
  ['SELECT CAST(a AS UNSIGNED INT) FROM t1 WHERE YEAR(d) = 2020', 't1', 'CAST AS UNSIGNED INT'],
  ['SELECT .5 * a FROM t1 WHERE YEAR(d) = 2020', 't1', 'number without leading digit'],
  ['INSERT INTO t3 (id) SELECT id FROM t1 WHERE YEAR(d) = 2020 AND a <=> 1', 't1', '<=>'],
  ['UPDATE t1 SET a = DEFAULT, d = NOW()\n WHERE YEAR(d) = 2020', 't1', 'DEFAULT value'],
  ['INSERT INTO t3 () VALUES (), ()', '', 'empty VALUES row'],
  ['INSERT INTO t3 () VALUES (1, NOW(), DEFAULT)', '', 'empty column list'],
  ['SELECT SUBSTRING(d FROM 2 FOR 3) FROM t1 WHERE YEAR(d) = 2020', 't1', 'SUBSTRING … FROM'],
  ['SELECT CAST(a AS DEC) FROM t1 WHERE YEAR(d) = 2020', 't1', 'CAST AS DEC'],
  ['SELECT a FROM t1 WHERE YEAR(d) = 2020 EXCEPT ALL SELECT b FROM t2', 't1', 'EXCEPT ALL'],
];

const MYSQL_ONLY: [string, string, string][] = [
  // MariaDB 10.11: no RETURNING in JSON_VALUE, no row alias, no CAST AS REAL.
  [
    "SELECT a FROM t1 WHERE JSON_VALUE(a, '$.x' RETURNING UNSIGNED) = 3 AND YEAR(d) = 2020",
    't1',
    'JSON_VALUE … RETURNING',
  ],
  [
    'INSERT INTO t1 (id, a) SELECT id, b FROM t2 WHERE YEAR(d) = 2020 AS new ON DUPLICATE KEY UPDATE a = new.a',
    't2',
    'INSERT row alias',
  ],
  // MariaDB 10.11 has no WITH … DELETE.
  [
    'WITH c AS (SELECT id FROM t3)\nDELETE FROM t1 USING t1, c WHERE t1.id = c.id AND YEAR(t1.d) = 2020',
    't1',
    'DELETE … USING',
  ],
  ['SELECT * FROM t2 WHERE b IN (TABLE t3) AND YEAR(d) = 2020', 't2', 'TABLE statement'],
  ['INSERT INTO t3 TABLE t1;\nSELECT a FROM t1 UNION TABLE t2 ORDER BY 1', '', 'TABLE statement'],
  [
    'SELECT * FROM t1 WHERE a > ANY (VALUES ROW(2), ROW(4)) AND YEAR(d) = 2020',
    't1',
    'VALUES table constructor',
  ],
];

const MARIADB_ONLY: [string, string, string][] = [
  [
    'SELECT a FROM t1 WHERE YEAR(d) = 2020 ORDER BY a OFFSET 1 ROWS FETCH FIRST 3 ROWS ONLY',
    't1',
    'OFFSET … FETCH FIRST',
  ],
  ['SELECT a FROM t1 WHERE YEAR(d) = 2020 UNION VALUES (1), (2)', 't1', 'VALUES table constructor'],
];

describe('equivalent forms: analysed in full, with the rules seeing the tables', () => {
  for (const flavor of ['mysql', 'mariadb'] as const)
    it.each(flavor === 'mysql' ? [...BOTH, ...MYSQL_ONLY] : [...BOTH, ...MARIADB_ONLY])(
      `${flavor}: %s`,
      (sql, table, construct) => {
        const first = sql.split(';\n')[0]!;
        const parsed = parseStatement(first, flavor);
        expect(parsed.ok && parsed.equivalents).toContain(construct);
        if (!parsed.ok) return;
        checkPositions(first, parsed.ast);
        const found = findings(sql, flavor);
        expect(found.map((finding) => finding.rule)).not.toContain('PRS001');
        if (!table) return;
        const canary = found.find((finding) => finding.rule === 'FUN001' && finding.text.startsWith('YEAR('));
        const offset = first.indexOf('YEAR(');
        const before = first.slice(0, offset).split('\n');
        expect(canary).toMatchObject({ table, line: before.length, column: before.at(-1)!.length + 1 });
      },
    );

  it('DELETE … USING: the targets are the deleted tables, the USING tables are read', () => {
    const parsed = parseStatement('DELETE FROM t1, t2 USING t1 JOIN t2 JOIN t3 WHERE t1.id = t3.id', 'mysql');
    if (!parsed.ok) throw new Error(parsed.message);
    expect((parsed.ast.table as AstNode[]).map((entry) => entry.table)).toEqual(['t1', 't2']);
    expect((parsed.ast.from as AstNode[]).map((entry) => entry.table)).toEqual(['t1', 't2', 't3']);
  });

  it('NATURAL JOIN: the joined table is marked natural, the join kind kept', () => {
    const parsed = parseStatement(
      'SELECT * FROM t1 NATURAL LEFT JOIN t2 JOIN t3 ON t3.id = t1.id',
      'mariadb',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    const from = parsed.ast.from as AstNode[];
    expect(from.map((entry) => [entry.table, entry.join ?? null, entry.natural ?? false])).toEqual([
      ['t1', null, false],
      ['t2', 'LEFT JOIN', true],
      ['t3', 'INNER JOIN', false],
    ]);
  });

  it('<=> keeps its operator (not the = it was parsed as) and = stays =', () => {
    const parsed = parseStatement('SELECT * FROM t1 WHERE a <=> 1 AND id = 2 AND (d <=> NULL)', 'mysql');
    if (!parsed.ok) throw new Error(parsed.message);
    const where = parsed.ast.where as AstNode;
    const operators: string[] = [];
    const walk = (node: unknown): void => {
      if (!isNode(node)) return;
      if (node.type === 'binary_expr' && !/^(AND|OR)$/.test(String(node.operator)))
        operators.push(String(node.operator));
      walk(node.left);
      walk(node.right);
    };
    walk(where);
    expect(operators).toEqual(['<=>', '=', '<=>']);
  });

  it('TABLE t reads as SELECT * FROM t on MySQL; MariaDB has no TABLE statement and is not rewritten', () => {
    const mysql = parseStatement('TABLE t1 ORDER BY id LIMIT 3', 'mysql');
    if (!mysql.ok) throw new Error(mysql.message);
    expect(mysql.ast).toMatchObject({
      type: 'select',
      from: [{ table: 't1' }],
      limit: { value: [{ value: 3 }] },
    });
    expect(parseStatement('TABLE t1', 'mariadb').ok).toBe(false);
    expect(findings('TABLE t1', 'mariadb').map((finding) => finding.rule)).toEqual(['PRS001']);
  });

  it('VALUES: MySQL needs ROW, MariaDB has none; each reads as a UNION ALL of its rows', () => {
    const mysql = parseStatement('VALUES ROW(1, 2), ROW(3, 4)', 'mysql');
    const mariadb = parseStatement('VALUES (1, 2), (3, 4)', 'mariadb');
    for (const parsed of [mysql, mariadb]) {
      if (!parsed.ok) throw new Error(parsed.message);
      expect(parsed.ast).toMatchObject({ type: 'select', set_op: 'union all' });
    }
    expect(parseStatement('VALUES (1, 2)', 'mysql').ok).toBe(false);
    expect(parseStatement('VALUES ROW(1, 2)', 'mariadb').ok).toBe(false);
  });

  it('DEFAULT is a default value, not a column or NULL; JSON_VALUE … RETURNING keeps its type as a CAST', () => {
    const parsed = parseStatement('INSERT INTO t1 (id, a) VALUES (1, DEFAULT), (DEFAULT, 2)', 'mariadb');
    if (!parsed.ok) throw new Error(parsed.message);
    const rows = (parsed.ast.values as AstNode).values as AstNode[];
    expect(rows.map((row) => (row.value as AstNode[]).map((value) => value.type))).toEqual([
      ['number', 'default'],
      ['default', 'number'],
    ]);
    const empty = parseStatement('INSERT INTO t1 () VALUES (), ()', 'mysql');
    if (!empty.ok) throw new Error(empty.message);
    expect(empty.ast).toMatchObject({ columns: null, values: { values: [{ value: [] }, { value: [] }] } });
    const json = parseStatement(
      "SELECT JSON_VALUE(a, '$.x' RETURNING DECIMAL(4,2) NULL ON EMPTY) FROM t1",
      'mysql',
    );
    if (!json.ok) throw new Error(json.message);
    const column = (json.ast.columns as AstNode[])[0]!.expr as AstNode;
    expect(column).toMatchObject({ type: 'cast', expr: { type: 'function' } });
  });

  it('the row alias reads as VALUES(column), an alias column as the column it names', () => {
    const parsed = parseStatement(
      'INSERT INTO t1 (id, a) VALUES (1, 2) AS new (i, x) ON DUPLICATE KEY UPDATE a = x + new.id',
      'mysql',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    const value = ((parsed.ast.on_duplicate_update as AstNode).set as AstNode[])[0]!.value as AstNode;
    const argument = (side: unknown) => (((side as AstNode).args as AstNode).value as AstNode[])[0]!.column;
    expect([argument(value.left), argument(value.right)]).toEqual(['a', 'id']);
    // Alias columns without the statement's column list cannot be named: left to the grammar.
    expect(
      parseStatement('INSERT INTO t1 VALUES (1, 2) AS new (i, x) ON DUPLICATE KEY UPDATE a = x', 'mysql').ok,
    ).toBe(false);
  });

  it('keeps positions through edits that change the length, on later lines', () => {
    const sql = 'INSERT INTO t3\n  VALUE (1, .5),\n    (2, 3)';
    const form = equivalentForm(sql, 'mysql')!;
    expect(form.text).toBe('INSERT INTO t3\n  VALUES (1, 0.5),\n    (2, 3)');
    const toOriginal = offsetMapper(form.edits);
    expect(toOriginal(form.text.indexOf('(2'), 'start')).toBe(sql.indexOf('(2'));
    expect(toOriginal(form.text.indexOf('VALUES'), 'start')).toBe(sql.indexOf('VALUE'));
    expect(toOriginal(form.text.indexOf('VALUES') + 6, 'end')).toBe(sql.indexOf('VALUE') + 5);
    const parsed = parseStatement(sql, 'mysql');
    if (!parsed.ok) throw new Error(parsed.message);
    checkPositions(sql, parsed.ast);
  });

  it('leaves invalid multi-table DELETEs to the grammar (ORDER BY, LIMIT, aliased targets)', () => {
    for (const sql of [
      'DELETE t1.*, t2.* FROM t1, t2 ORDER BY t1.id DESC LIMIT 3',
      'DELETE FROM t1 AS a1, t2 AS a2 USING t1 INNER JOIN t2 WHERE a1.id=a2.id',
    ])
      expect(parseStatement(sql, 'mysql').ok).toBe(false);
    expect(parseStatement('WITH c AS (SELECT 1) DELETE FROM t1 USING t1, c', 'mariadb').ok).toBe(false);
    // MariaDB has no VALUES ROW(…) in INSERT: nothing around it is rewritten for MariaDB.
    expect(parseStatement('INSERT INTO t1 () VALUES ROW(1, 2)', 'mariadb').ok).toBe(false);
    expect(parseStatement('INSERT INTO t1 () VALUES ROW(1, 2)', 'mysql').ok).toBe(true);
  });

  it('is not applied to what is not the construct', () => {
    // A column named `all`, a `t.5` qualifier, `TABLE` in DDL, PARTITION in CREATE TABLE: no rewrite.
    expect(equivalentForm('SELECT `all` FROM t', 'mysql')).toBeNull();
    expect(equivalentForm('DROP TABLE t1', 'mysql')).toBeNull();
    expect(equivalentForm('CREATE TABLE p (a INT) PARTITION BY HASH (a) PARTITIONS 2', 'mysql')).toBeNull();
    expect(equivalentForm('SELECT t.5a FROM t', 'mysql')).toBeNull();
    // Invalid statements stay invalid for us too.
    for (const sql of ['DELETE FROM t1 USING', 'SELECT * FROM t1 NATURAL JOIN', 'TABLE']) {
      expect(parseStatement(sql, 'mysql').ok).toBe(false);
      const report = analyze(sql, { server: servers.mysql, source: 'flags', schema });
      const partial = report.statements.flatMap((entry) => entry.findings).filter((f) => f.rule === 'PRS001');
      expect(report.errors.length + partial.length).toBe(1);
    }
  });
});
