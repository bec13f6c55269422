// Syntax errors only when provable (issue #19): what the grammar rejects but may be valid becomes a
// PRS001 "not fully analysed" finding; typos and broken statements stay syntax errors.
import { describe, expect, it } from 'vitest';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { analyze } from '../../../src/core/analyze.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { provablyInvalid } from '../../../src/core/sql/validity.js';

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
      'SELECT 1;\nSELECT * FROM t1 WHERE 3 MEMBER OF (j)\n  AND id IN (SELECT id FROM t1 WHERE YEAR(d) = 2020);\n' +
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
    const alone = analyze('SELECT * FROM t1 WHERE 3 MEMBER OF (j) AND YEAR(d) = 1', {
      server: offlineServerInfo('mysql', '8.0.33'),
      source: 'flags',
      schema,
    });
    expect(alone.statements[0]!.findings.map((finding) => finding.rule)).toEqual(['PRS001']);
    expect(alone.statements[0]!.findings[0]!.message).toContain('was not checked');
  });
});
