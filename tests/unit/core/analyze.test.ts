import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const productsDdl = readFileSync(new URL('../../fixtures/seed/products.sql', import.meta.url), 'utf8');
const { schema } = schemaFromDdl(productsDdl);
const mysql8 = offlineServerInfo('mysql', '8.0.33');

function findingsOf(sql: string, server = mysql8, ddl = schema) {
  return analyze(sql, { server, source: 'flags', schema: ddl }).statements.flatMap((statement) =>
    statement.findings.map(({ rule, line, column, endColumn, table, columns, expression, severity }) => ({
      rule,
      line,
      column,
      endColumn,
      table,
      columns,
      expression,
      severity,
    })),
  );
}

describe('analyze: the seed query', () => {
  it('reports MONTH(create_time) with exact location, table and column', () => {
    expect(findingsOf('SELECT AVG(price) FROM products WHERE MONTH(create_time)=10')).toEqual([
      {
        rule: 'FUN001',
        line: 1,
        column: 39,
        endColumn: 57,
        table: 'products',
        columns: ['create_time'],
        expression: 'MONTH(create_time)',
        severity: 'warning',
      },
    ]);
  });

  it('keeps positions right on later lines and through aliases', () => {
    const sql = 'SELECT 1;\nSELECT p.id\n  FROM products AS p\n WHERE DATE(p.create_time) = ?';
    expect(findingsOf(sql)).toEqual([
      {
        rule: 'FUN001',
        line: 4,
        column: 8,
        endColumn: 27,
        table: 'products',
        columns: ['create_time'],
        expression: 'DATE(p.create_time)',
        severity: 'warning',
      },
    ]);
  });
});

describe('analyze: what is and is not flagged', () => {
  const cases: [string, string[]][] = [
    // Functions on constants are fine; the bare column is unindexed in this schema, hence IDX001 (info).
    ['SELECT * FROM products WHERE create_time >= NOW() - INTERVAL 1 DAY', ['IDX001']],
    ["SELECT * FROM products WHERE create_time = DATE('2020-01-01')", ['IDX001']],
    ['SELECT MONTH(create_time) FROM products', []],
    // HAVING on an aggregate is not a row filter (QRY005) nor a wrapped column; the groups are unordered on 8.0 (COR005).
    ['SELECT COUNT(*) FROM products GROUP BY price HAVING COUNT(*) > 1', ['COR005']],
    ['SELECT * FROM products WHERE id + 1 = 5', ['ARI001']],
    ['UPDATE products SET price = 1 WHERE YEAR(create_time) = 2019', ['FUN001']],
    ["DELETE FROM products WHERE LOWER(description) = 'x'", ['FUN001']],
    ['SELECT * FROM products WHERE id IN (SELECT id FROM products WHERE MONTH(create_time) = 1)', ['FUN001']],
    ['WITH c AS (SELECT * FROM products WHERE price * 2 > 10) SELECT * FROM c', ['ARI001']],
    // a drives the join and b is sought through its primary key (ref func): the arithmetic costs nothing.
    ['SELECT * FROM products a JOIN products b ON a.id + 1 = b.id', []],
    // b is the inner table of the LEFT JOIN, looked up through b.id + 1: no index serves that.
    ['SELECT * FROM products a LEFT JOIN products b ON a.id = b.id + 1', ['ARI001']],
    [
      "SELECT * FROM products WHERE id = 1 UNION SELECT * FROM products WHERE UPPER(description) = 'A'",
      ['FUN001'],
    ],
    ["SELECT * FROM products WHERE CAST(price AS CHAR) = '1'", ['FUN001']],
    ['SELECT * FROM products WHERE COALESCE(price, 0) = 0', ['FUN001']],
    ['SELECT * FROM products ORDER BY LOWER(description)', ['FUN001']],
    ["SELECT * FROM products WHERE description COLLATE utf8mb4_bin = 'x'", ['FUN001']],
    ['-- sargable-disable FUN.001\nSELECT * FROM products WHERE MONTH(create_time) = 1', []],
  ];
  it.each(cases)('%s', (sql, rules) => {
    expect(findingsOf(sql).map((finding) => finding.rule)).toEqual(rules);
  });

  it('marks ORDER BY findings as info', () => {
    expect(findingsOf('SELECT * FROM products ORDER BY LOWER(description)')[0]?.severity).toBe('info');
  });

  it('does not flag an expression an existing functional index serves on MySQL 8.0.13+', () => {
    const { schema: indexed } = schemaFromDdl(
      productsDdl.replace('PRIMARY KEY (id)', 'PRIMARY KEY (id), KEY fi ((MONTH(create_time)))'),
    );
    expect(findingsOf('SELECT * FROM products WHERE MONTH(create_time) = 10', mysql8, indexed)).toEqual([]);
  });

  it('still flags it on MariaDB when only an indexed generated column has the expression', () => {
    const ddl = productsDdl.replace(
      'PRIMARY KEY (id)',
      'create_month tinyint GENERATED ALWAYS AS (MONTH(create_time)) VIRTUAL, PRIMARY KEY (id), KEY cm (create_month)',
    );
    const { schema: generated } = schemaFromDdl(ddl, 'mariadb');
    const mariadb = offlineServerInfo('mariadb', '10.11.0');
    const report = analyze('SELECT * FROM products WHERE MONTH(create_time) = 10', {
      server: mariadb,
      source: 'flags',
      schema: generated,
    });
    expect(report.statements[0]?.findings.map((finding) => finding.message)).toEqual([
      'MONTH() wraps column create_time. Generated column create_month is indexed with this expression, but MariaDB does not substitute it: name create_month in the query.',
    ]);
    // MySQL substitutes the same column, so nothing is reported there.
    expect(
      findingsOf('SELECT * FROM products WHERE MONTH(create_time) = 10', mysql8, schemaFromDdl(ddl).schema),
    ).toEqual([]);
  });

  it('reports unknown tables with a note instead of guessing types', () => {
    const report = analyze('SELECT * FROM nowhere WHERE DATE(ts) = ?', {
      server: mysql8,
      source: 'flags',
      schema,
    });
    expect(report.statements[0]?.findings[0]).toMatchObject({
      rule: 'FUN001',
      table: 'nowhere',
      columns: ['ts'],
    });
    expect(report.statements[0]?.findings[0]?.notes?.[0]).toMatch(/unknown/);
  });
});

describe('analyze: bad input', () => {
  it('reports a parse error with its position and still analyzes the other statements', () => {
    const report = analyze(
      'SELECT * FROM products WHERE MONTH(create_time)=1;\nSELECT FROM WHERE;\nSELECT * FROM products WHERE id+1=2',
      {
        server: mysql8,
        source: 'flags',
        schema,
      },
    );
    expect(report.errors).toEqual([{ index: 1, message: "Syntax error near 'WHERE'.", line: 2, column: 13 }]);
    expect(
      report.statements.map((statement) => [
        statement.index,
        statement.findings.map((finding) => finding.rule),
      ]),
    ).toEqual([
      [0, ['FUN001']],
      [2, ['ARI001']],
    ]);
  });

  it('never throws on garbage', () => {
    for (const text of ['', ';', "'unterminated", '/* open comment', 'SELECT (((', '\u0000\u0001binary']) {
      expect(() => analyze(text, { server: mysql8, source: 'default' })).not.toThrow();
    }
  });
});

describe('analyze: the schema follows the script', () => {
  it('predicts the seeds events_t sequence: 1364, 1067 twice, then success after the fixed CREATE', () => {
    const table = (dflt: string) =>
      `CREATE TABLE events_t (id int NOT NULL AUTO_INCREMENT, event_date datetime NOT NULL${dflt}, profile_id int, PRIMARY KEY (id))`;
    const insert = 'insert into events_t (profile_id) values (1)';
    const script = [
      table(''),
      insert,
      'DROP TABLE events_t',
      table(" DEFAULT '0000-00-00 00:00:00'"),
      table(" DEFAULT '2000-00-00 00:00:00'"),
      table(" DEFAULT '2000-01-01 00:00:00'"),
      insert,
    ].join(';\n');
    const report = analyze(script, { server: mysql8, source: 'flags' });
    expect(
      report.statements.map((statement) =>
        statement.findings.map((finding) => finding.predictedError?.code ?? finding.rule),
      ),
    ).toEqual([[], [1364], [], [1067], [1067], [], []]);
  });
});

describe('analyze: the schema follows ALTER TABLE', () => {
  const predictions = (script: string, server = mysql8) =>
    analyze(script, { server, source: 'flags' }).statements.map((statement) =>
      statement.findings
        .filter((finding) => finding.predictedError)
        .map(
          (finding) =>
            `${finding.rule} ${finding.predictedError?.code}${finding.predictedError?.warningOnly ? ' warning' : ''}`,
        ),
    );

  it('the seeds sequence with ALTER … CHANGE: 1364, 1067, 1067, then success', () => {
    const script = [
      'CREATE TABLE events_t (id int NOT NULL AUTO_INCREMENT, event_date datetime NOT NULL, profile_id int, PRIMARY KEY (id))',
      'insert into events_t (profile_id) values (1)',
      "alter table events_t change event_date event_date datetime NOT NULL default '0000-00-00 00:00:00'",
      "alter table events_t change event_date event_date datetime NOT NULL default '2000-00-00 00:00:00'",
      "alter table events_t change event_date event_date datetime NOT NULL default '2000-01-01 00:00:00'",
      'insert into events_t (profile_id) values (1)',
    ].join(';\n');
    expect(predictions(script)).toEqual([[], ['MOD001 1364'], ['MOD002 1067'], ['MOD002 1067'], [], []]);
  });

  it('ADD/DROP/MODIFY/CHANGE/RENAME COLUMN, ALTER COLUMN … DEFAULT, indexes and RENAME TO reach later statements', () => {
    const script = [
      'CREATE TABLE t (id int NOT NULL, a int, b varchar(3), PRIMARY KEY (id))',
      // a NOT NULL column without default: the INSERT that omits it fails
      'ALTER TABLE t ADD COLUMN c int NOT NULL AFTER id, MODIFY b varchar(10)',
      "INSERT INTO t (id, a, b) VALUES (1, 1, 'abcdefgh')",
      // a default for c: the same INSERT succeeds; b is varchar(10) now, 11 characters do not fit
      'ALTER TABLE t ALTER COLUMN c SET DEFAULT 0',
      "INSERT INTO t (id, a, b) VALUES (2, 1, 'abcdefghijk')",
      'ALTER TABLE t ALTER c DROP DEFAULT, CHANGE a a2 tinyint, DROP COLUMN b',
      // c again without default; the column list without names follows the new order (id, c, a2)
      'INSERT INTO t VALUES (3, 0, 300)',
      'INSERT INTO t (id, a2) VALUES (4, 1)',
      'ALTER TABLE t RENAME COLUMN a2 TO a3, RENAME TO t_new',
      'INSERT INTO t_new (id, c, a3) VALUES (5, 1, 1000)',
      // ONLY_FULL_GROUP_BY through a UNIQUE key added by ALTER
      'ALTER TABLE t_new ADD UNIQUE KEY uc (c)',
      'SELECT c, a3 FROM t_new GROUP BY c',
      'ALTER TABLE t_new DROP INDEX uc',
      'SELECT c, a3 FROM t_new GROUP BY c',
    ].join(';\n');
    expect(predictions(script)).toEqual([
      [],
      [],
      ['MOD001 1364'],
      [],
      ['MOD005 1406'],
      [],
      ['MOD005 1264'],
      ['MOD001 1364'],
      [],
      ['MOD005 1264'],
      [],
      [],
      [],
      ['MOD004 1055'],
    ]);
  });
});

describe('analyze: statements on tables the schema does not know', () => {
  it('are still checked for what needs no schema, and say what was not checked', () => {
    const ddl = schemaFromDdl('CREATE TABLE t (id int NOT NULL PRIMARY KEY, a varchar(2))').schema;
    const report = analyze(
      [
        "INSERT INTO nosuch (a, d) VALUES ('abcdef', '2020-02-30')",
        'WITH c AS (SELECT 1 AS a) SELECT a FROM c',
        'SELECT t.a FROM t JOIN other.o ON o.id = t.id',
        "INSERT INTO t (id, a) VALUES (1, 'abc')",
      ].join(';\n'),
      { server: mysql8, source: 'flags', schema: ddl },
    );
    const note = (table: string) =>
      `Table ${table} is not in the schema: only checks that need no column definitions were made (give the CREATE TABLE or connect to a server to check the rest).`;
    expect(
      report.statements.map((statement) => ({
        notes: statement.notes ?? [],
        rules: statement.findings.map((finding) => finding.rule),
      })),
    ).toEqual([
      // the invalid date needs no schema (MOD003); the too-long string does (MOD005 needs the column)
      { notes: [note('nosuch')], rules: ['MOD003'] },
      { notes: [], rules: [] },
      { notes: [note('other.o')], rules: [] },
      { notes: [], rules: ['MOD005'] },
    ]);
  });
});
