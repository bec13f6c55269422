// Syntax errors only when provable (issue #19): what the grammar rejects but may be valid becomes a
// PRS001 "not fully analysed" finding; typos and broken statements stay syntax errors.
import { describe, expect, it } from 'vitest';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { analyze } from '../../../src/core/analyze.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { provablyInvalid } from '../../../src/core/sql/validity.js';
import { withoutUnsupported } from '../../../src/core/sql/salvage.js';

const run = (sql: string, flavor: 'mysql' | 'mariadb' = 'mysql') =>
  analyze(sql, {
    server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
    source: 'default',
  });

describe('provable syntax errors', () => {
  it.each([
    ['SELEC * FROM t1', /starts no statement/],
    ['SELECT FROM t1', /no select list/],
    ['SELECT * FROM WHERE a = 1', /names no table/],
    ['SELECT * FROM t1 WHERE', /no condition/],
    ['SELECT * FROM t1 WHERE a = ', /no right operand/],
    ['SELECT * FROM t1 WHERE a = 1 AND', /no right operand/],
    ['SELECT * FROM t1 ORDER a', /without BY/],
    ['SELECT, a FROM t1', /no select list/],
    ['INSERT INTO t1 SELECT FROM t2', /no select list/],
    ['INSERT INTO t1 VALUES (1,,2)', /list item is missing/],
    ['CREATE TABLE t9 (a INT,)', /list item is missing/],
    ['SELECT * FORM t1', /cannot be followed/],
    ['SELECT (1 + 2', /never closed/],
    ["SELECT 'abc", /never closed/],
  ])('%s', (sql, reason) => {
    expect(provablyInvalid(sql, 'mysql')?.reason).toMatch(reason);
    const report = run(sql);
    expect(report.errors).toHaveLength(1);
    expect(report.statements).toEqual([]);
  });

  it.each([
    'SELECT * FROM t1 WHERE 3 MEMBER OF (j)',
    "SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$')) AS jt",
    'SELECT a, PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY a) OVER () FROM t1',
    'XA START 0x123',
    'CREATE RESOURCE GROUP rg TYPE = USER VCPU = 0',
    'SELECT * FROM t1 GROUP BY a WITH ROLLUP',
    // Privilege lists (percona-toolkit's and grammars-v4's test statements): SELECT names a privilege.
    "GRANT SELECT, INSERT, UPDATE, REPLICATION CLIENT ON *.* TO 'u'@'localhost'",
    'GRANT SELECT, INSERT ON *.* TO u4 AS u1 WITH ROLE r1',
    'REVOKE SELECT, UPDATE ON db.* FROM u1',
    "ALTER LOGFILE GROUP lg_1 ADD UNDOFILE 'undo_10.dat' WAIT ENGINE=NDB",
  ])('not provably invalid: %s', (sql) => {
    expect(provablyInvalid(sql, 'mysql')).toBeNull();
  });

  it('reports a statement the grammar does not know as PRS001 at the parser position, not as a syntax error', () => {
    const report = run('SELECT 1;\nSELECT * FROM t1 WHERE 3 MEMBER OF (j);\nSELECT FROM t1;');
    expect(report.errors.map((error) => error.index)).toEqual([2]);
    const statement = report.statements.find((entry) => entry.index === 1)!;
    expect(statement.findings).toHaveLength(1);
    expect(statement.findings[0]).toMatchObject({ rule: 'PRS001', severity: 'info', line: 2 });
    expect(statement.findings[0]!.message).toMatch(/^Not fully analysed: unsupported syntax at 2:\d+/);
  });

  it('honours disabling PRS001: the statement is still not a syntax error', () => {
    const report = analyze('SELECT * FROM t1 WHERE 3 MEMBER OF (j)', {
      server: offlineServerInfo('mysql', '8.0.33'),
      source: 'default',
      disabledRules: ['PRS001'],
    });
    expect(report.errors).toEqual([]);
    expect(report.statements[0]!.findings).toEqual([]);
  });

  it('still checks the queries inside such a statement, at their positions, without rewriting the part', () => {
    const { schema } = schemaFromDdl('CREATE TABLE t1 (id INT PRIMARY KEY, d DATETIME, j JSON, KEY (d));');
    const sql =
      "SELECT 1;\nSELECT * FROM t1 WHERE j SOUNDS LIKE 'x'\n  AND id IN (SELECT id FROM t1 WHERE YEAR(d) = 2020);\n" +
      'DECLARE c CURSOR FOR SELECT id FROM t1 WHERE MONTH(d) = 1;';
    const report = analyze(sql, { server: offlineServerInfo('mysql', '8.0.33'), source: 'flags', schema });
    expect(report.errors).toEqual([]);
    const [member, cursor] = [report.statements[1]!, report.statements[2]!];
    expect(member.findings.map((finding) => [finding.rule, finding.line, finding.column])).toEqual([
      ['PRS001', 2, 26],
      ['FUN001', 3, 38],
    ]);
    expect(member.findings[0]!.message).toContain('Only the query at 3:14 was checked, on its own');
    // A rewrite of the subquery is not a rewrite of the statement: none is offered.
    expect(member.findings[1]!.suggestions.filter((suggestion) => suggestion.rewrittenSql)).toEqual([]);
    expect(cursor.findings.map((finding) => [finding.rule, finding.line, finding.column])).toEqual([
      ['PRS001', 4, 9],
      ['FUN001', 4, 46],
    ]);
    // Nothing inside to read on its own: the statement says it was not checked.
    const alone = analyze("SELECT * FROM t1 WHERE j SOUNDS LIKE 'x' AND YEAR(d) = 1", {
      server: offlineServerInfo('mysql', '8.0.33'),
      source: 'flags',
      schema,
    });
    expect(alone.statements[0]!.findings.map((finding) => finding.rule)).toEqual(['PRS001']);
    expect(alone.statements[0]!.findings[0]!.message).toContain('was not checked');
  });

  // Constructs of one query the grammar cannot read are set aside; the rest of the statement is checked.
  it.each([
    ['mysql', 'SELECT * FROM t1 WHERE 3 MEMBER OF (j) AND YEAR(d) = 2020', 'MEMBER OF', 44],
    [
      'mysql',
      "SELECT * FROM t1 WHERE j->'$.a' MEMBER OF(CAST('[1]' AS JSON)) AND YEAR(d) = 2020",
      'MEMBER OF',
      68,
    ],
    [
      'mysql',
      "SELECT t1.id, jt.a FROM t1, JSON_TABLE(t1.j, '$[*]' COLUMNS (a INT PATH '$')) AS jt WHERE MONTH(t1.d) = 3",
      'JSON_TABLE',
      91,
    ],
    [
      'mariadb',
      "SELECT * FROM t1 FOR SYSTEM_TIME AS OF TIMESTAMP '2016-10-09 08:07:06' WHERE YEAR(d) = 2020",
      'FOR SYSTEM_TIME',
      78,
    ],
    [
      'mariadb',
      'SELECT * FROM t1 FOR SYSTEM_TIME BETWEEN (NOW() - INTERVAL 1 YEAR) AND NOW() AS x WHERE YEAR(x.d) = 2020',
      'FOR SYSTEM_TIME',
      89,
    ],
    ['mariadb', 'SELECT * FROM t1 FOR SYSTEM_TIME ALL WHERE YEAR(d) = 2020', 'FOR SYSTEM_TIME', 44],
    [
      'mysql',
      "SELECT * FROM t1 WHERE COLLATION(_utf8mb4'x') = 'a' AND YEAR(d) = 2020",
      'charset introducer',
      57,
    ],
  ] as const)('%s: %s is checked without its construct', (flavor, sql, construct, column) => {
    const { schema } = schemaFromDdl('CREATE TABLE t1 (id INT PRIMARY KEY, d DATETIME, j JSON, KEY (d));');
    const report = analyze(sql, {
      server: offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0'),
      source: 'flags',
      schema,
    });
    expect(report.errors).toEqual([]);
    const findings = report.statements[0]!.findings;
    expect(findings.map((finding) => [finding.rule, finding.column])).toEqual([
      ['PRS001', expect.any(Number)],
      ['FUN001', column],
    ]);
    expect(findings[0]!.message).toContain(`checked without its ${construct}`);
    expect(findings[1]!.suggestions.filter((suggestion) => suggestion.rewrittenSql)).toEqual([]);
  });

  it('sets aside only the construct: positions and lines are kept, nothing inside it is reported', () => {
    const sql =
      "SELECT * FROM t1\nWHERE YEAR(d) = 1 AND\n  LOWER(j->>'$.a')\n  MEMBER OF (j) AND MONTH(d) = 2";
    const blanked = withoutUnsupported(sql)!;
    expect(blanked.text).toHaveLength(sql.length);
    expect(blanked.text.split('\n').length).toBe(sql.split('\n').length);
    expect(blanked.constructs).toEqual([
      { construct: 'MEMBER OF', start: sql.indexOf('LOWER'), end: sql.indexOf(' AND MONTH') },
    ]);
    const { schema } = schemaFromDdl('CREATE TABLE t1 (id INT PRIMARY KEY, d DATETIME, j JSON, KEY (d));');
    const report = analyze(sql, { server: offlineServerInfo('mysql', '8.0.33'), source: 'flags', schema });
    // LOWER() inside the set-aside condition is not reported; YEAR() and MONTH() around it are.
    expect(
      report.statements[0]!.findings.map((finding) => [finding.rule, finding.line, finding.column]),
    ).toEqual([
      ['PRS001', 4, 3],
      ['FUN001', 2, 7],
      ['FUN001', 4, 21],
    ]);
    // Nothing to set aside, or a construct the parser still cannot read around: null / the parts path.
    expect(withoutUnsupported('SELECT * FROM t1 WHERE id = 1')).toBeNull();
    expect(withoutUnsupported('CREATE TABLE t (a INT, PERIOD FOR SYSTEM_TIME (s, e))')).toBeNull();
    // `_name` is an introducer only for a character set, before a string or hex/bit literal.
    expect(withoutUnsupported("SELECT _col 'alias' FROM t")).toBeNull();
    expect(withoutUnsupported("SELECT HEX(_binary X'41')")?.constructs).toEqual([
      { construct: 'charset introducer', start: 11, end: 18 },
    ]);
  });
});
