// Index use on live data: the access predicate of each proposed index, the break-even shares measured
// on the servers, and the withdrawal of a proposal the server would not read (with its reason).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { applySelectivity, selectivityRequests } from '../../../src/core/advice/index.js';
import {
  indexAccess,
  plainKeyColumns,
  predictIndexUse,
  rangeBreakEven,
  type IndexAccess,
} from '../../../src/core/advice/index-use.js';
import type { AnalysisReport } from '../../../src/core/model/report.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const DDL = `CREATE TABLE film (film_id int NOT NULL, title varchar(100) NOT NULL, length int NOT NULL,
  rate int NOT NULL, last_update datetime NOT NULL, note text, PRIMARY KEY (film_id), KEY idx_title (title));
  CREATE TABLE lang (id int NOT NULL, name int NOT NULL, PRIMARY KEY (id))`;

function setup(flavor: 'mysql' | 'mariadb') {
  const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.6');
  const schema = schemaFromDdl(DDL, flavor).schema;
  return { schema, run: (sql: string) => analyze(sql, { server, source: 'flags', schema }) };
}

/** Access of every DDL suggestion in the report. */
function accesses(
  report: AnalysisReport,
  flavor: 'mysql' | 'mariadb' = 'mysql',
): (IndexAccess | undefined)[] {
  return report.statements.flatMap((statement) =>
    statement.findings.flatMap((finding) =>
      finding.suggestions
        .filter((suggestion) => suggestion.ddl.length > 0)
        .map((suggestion) => indexAccess(finding, suggestion, statement.sql, flavor, ['film_id'])),
    ),
  );
}

describe('index use', () => {
  it('reads the key columns of plain index DDL, and refuses expression parts', () => {
    expect(plainKeyColumns('ALTER TABLE film ADD INDEX idx_a (length, `rate` DESC, title(20));')).toEqual([
      'length',
      'rate',
      'title',
    ]);
    expect(plainKeyColumns('ALTER TABLE film ADD INDEX idx_b ((MONTH(last_update)));')).toBeUndefined();
  });

  it('finds the access predicate: equalities on the leading key parts, then one range', () => {
    const { run } = setup('mysql');
    const [range] = accesses(run('SELECT * FROM film f WHERE f.length > 100'));
    expect(range).toMatchObject({ access: 'range', predicate: '(length > 100)', covering: false });
    const [between] = accesses(run('DELETE FROM film WHERE length BETWEEN 60 AND 84'));
    expect(between).toMatchObject({ access: 'range', statement: 'delete' });
    const [ordered] = accesses(run('SELECT * FROM film WHERE rate = 1 ORDER BY length LIMIT 10'));
    expect(ordered).toMatchObject({
      access: 'equality',
      predicate: '(rate = 1)',
      ordered: true,
      limit: true,
    });
    // A covering read: only key and primary-key columns.
    const [covering] = accesses(run('SELECT film_id, length FROM film WHERE length > 100'));
    expect(covering).toMatchObject({ access: 'range', covering: true });
    // The rewrite's range is what the index serves (FUN001's plain index on the bare column).
    const rewritten = accesses(run("SELECT * FROM film WHERE DATE(last_update) = '2006-02-15'")).find(
      (access) => access?.index.includes('last_update') && access.access === 'range',
    );
    expect(rewritten?.predicate).toBe("(`last_update` >= '2006-02-15') AND (`last_update` < '2006-02-16')");
  });

  it('in a join, judges the constant predicate on its own table, by qualifier or by its columns', () => {
    const { run } = setup('mysql');
    const sql = 'SELECT * FROM film f LEFT JOIN lang l ON l.id = f.rate WHERE length > 100';
    const report = run(sql);
    const statement = report.statements[0]!;
    const columns = ['film_id', 'title', 'length', 'rate', 'last_update', 'note'];
    const found = statement.findings.flatMap((finding) =>
      finding.suggestions
        .filter((suggestion) => finding.table === 'film' && suggestion.ddl.length > 0)
        .map((suggestion) => indexAccess(finding, suggestion, statement.sql, 'mysql', ['film_id'], columns)),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      access: 'range',
      predicate: '(length > 100)',
      joined: true,
      covering: false,
    });
    // Only film's columns, all in the designed index (length, title, rate): a covering read, not judged.
    const covered = run('SELECT f.title FROM film f JOIN lang l ON l.id = f.rate WHERE f.length > 100')
      .statements[0]!;
    const coveredAccess = covered.findings.flatMap((finding) =>
      finding.suggestions
        .filter((suggestion) => finding.table === 'film' && suggestion.ddl.length > 0)
        .map((suggestion) => indexAccess(finding, suggestion, covered.sql, 'mysql', ['film_id'], columns)),
    );
    expect(coveredAccess).toMatchObject([{ access: 'range', covering: true, joined: true }]);
    expect(predictIndexUse(coveredAccess[0]!, 0.9, 1_000, 'mysql')).toBeUndefined();
    // Without the table's columns an unqualified name cannot be placed: not judged.
    const blind = statement.findings.flatMap((finding) =>
      finding.suggestions
        .filter((suggestion) => finding.table === 'film' && suggestion.ddl.length > 0)
        .map((suggestion) => indexAccess(finding, suggestion, statement.sql, 'mysql', ['film_id'])),
    );
    expect(blind).toEqual([undefined]);
  });

  it('judges nothing it cannot measure: self-joins, placeholders', () => {
    const { run } = setup('mysql');
    const joined = accesses(
      run('SELECT * FROM film f JOIN film g ON g.film_id = f.film_id WHERE f.length > 100'),
    ).filter((access) => access !== undefined);
    expect(joined).toEqual([]);
    expect(accesses(run('SELECT * FROM film WHERE length > ?')).filter(Boolean)).toEqual([]);
  });

  it('asks for no predicate over a column the advice only proposes (a MariaDB generated column)', () => {
    const { run, schema } = setup('mariadb');
    const report = run('SELECT film_id FROM film WHERE YEAR(last_update) = 2019 AND rate = 5');
    const proposed = report.statements[0]!.findings.flatMap((finding) =>
      finding.suggestions.flatMap((suggestion) => suggestion.ddl),
    );
    // Canary: the advice does name a generated column the table does not have yet.
    expect(proposed.join('\n')).toMatch(/ADD COLUMN (\w+)/);
    const column = /ADD COLUMN (\w+)/.exec(proposed.join('\n'))![1]!;
    const predicates = selectivityRequests(report, 'mariadb', schema).flatMap(
      (request) => request.predicates ?? [],
    );
    expect(predicates.every((predicate) => !predicate.sql.includes(column))).toBe(true);
    const unfiltered = selectivityRequests(report, 'mariadb').flatMap((request) => request.predicates ?? []);
    expect(unfiltered.some((predicate) => predicate.sql.includes(column))).toBe(true);
  });

  it('uses the break-even shares measured on both servers', () => {
    expect(rangeBreakEven('mysql', 1_000)).toBe(0.285);
    expect(rangeBreakEven('mysql', 100_000)).toBe(0.155);
    expect(rangeBreakEven('mysql', 5_000_000)).toBe(0.135);
    const between = rangeBreakEven('mysql', 30_000);
    expect(between).toBeLessThan(0.285);
    expect(between).toBeGreaterThan(0.185);
    expect(rangeBreakEven('mariadb', 1_000)).toBe(0.165);
    expect(rangeBreakEven('mariadb', 1_000_000)).toBe(0.085);
  });

  it('predicts a scan for a wide range and an ORDER BY-only index without LIMIT, never for covering reads', () => {
    const base: IndexAccess = {
      index: 'idx',
      table: 'film',
      access: 'range',
      predicate: '(length > 100)',
      predicateKey: 'predicate:(length>100)',
      reads: ['length'],
      statement: 'select',
      ordered: false,
      orderBy: false,
      groupBy: 'none',
      limit: false,
      covering: false,
      joined: false,
    };
    expect(predictIndexUse(base, 0.61, 1_000, 'mysql')).toEqual({
      used: false,
      share: 0.61,
      breakEven: 0.285,
    });
    expect(predictIndexUse(base, 0.1, 1_000, 'mysql')?.used).toBe(true);
    expect(predictIndexUse(base, 0.2, 1_000, 'mysql')?.used).toBe(true);
    expect(predictIndexUse(base, 0.2, 1_000, 'mariadb')?.used).toBe(false);
    expect(predictIndexUse({ ...base, covering: true }, 0.9, 1_000, 'mysql')).toBeUndefined();
    expect(
      predictIndexUse({ ...base, ordered: true, orderBy: true, limit: true }, 0.9, 1_000, 'mysql'),
    ).toBeUndefined();
    expect(predictIndexUse(base, 0.9, 50, 'mysql')).toBeUndefined();
    // MySQL 8 reads an equality through `ref` at any share; MariaDB and MySQL's DELETE do not.
    const equality = { ...base, access: 'equality' as const };
    expect(predictIndexUse(equality, 0.9, 1_000, 'mysql')).toBeUndefined();
    // … except over nearly all of a small table, where MySQL scans even with ORDER BY … LIMIT.
    expect(predictIndexUse(equality, 0.975, 599, 'mysql')).toEqual({
      used: false,
      share: 0.975,
      breakEven: 0.96,
    });
    expect(
      predictIndexUse({ ...equality, ordered: true, orderBy: true, limit: true }, 0.975, 599, 'mysql')?.used,
    ).toBe(false);
    expect(predictIndexUse(equality, 0.975, 5_000, 'mysql')).toBeUndefined();
    expect(predictIndexUse({ ...equality, statement: 'delete' }, 0.9, 1_000, 'mysql')?.used).toBe(false);
    expect(predictIndexUse(equality, 0.9, 1_000, 'mariadb')?.used).toBe(false);
    const none = {
      ...base,
      access: 'none' as const,
      predicate: null,
      predicateKey: null,
      ordered: true,
      orderBy: true,
    };
    expect(predictIndexUse(none, undefined, 1_000, 'mysql')).toEqual({ used: false, share: 1 });
    expect(predictIndexUse({ ...none, limit: true }, undefined, 1_000, 'mysql')).toBeUndefined();
    expect(
      predictIndexUse({ ...none, ordered: false, orderBy: false }, undefined, 1_000, 'mysql'),
    ).toBeUndefined();
    // GROUP BY: in key order not judged; starting with another column the index serves nothing.
    const grouped = { ...none, orderBy: false };
    expect(predictIndexUse({ ...grouped, groupBy: 'leads' }, undefined, 1_000, 'mariadb')).toBeUndefined();
    expect(predictIndexUse({ ...grouped, groupBy: 'other' }, undefined, 1_000, 'mariadb')).toEqual({
      used: false,
      share: 1,
    });
  });

  it('withdraws an unused proposal with the reason and numbers; keeps a narrow one; offline unchanged', () => {
    const { run, schema } = setup('mysql');
    const report = run('SELECT * FROM film WHERE length > 100; SELECT * FROM film WHERE rate > 4');
    const [request] = selectivityRequests(report, 'mysql');
    expect(request?.predicates?.map((predicate) => predicate.sql)).toEqual(['(length > 100)', '(rate > 4)']);
    const sample = {
      table: 'film',
      sampledRows: 1_000,
      limit: 10_000,
      distinct: {},
      matching: { 'predicate:(length>100)': 610, 'predicate:(rate>4)': 40 },
      tableRows: 1_000,
    };
    const weighed = applySelectivity(report, [sample], 'mysql', schema);
    const [wide, narrow] = weighed.statements.map((statement) =>
      statement.findings.find((f) => f.rule === 'IDX001'),
    );
    expect(wide?.suggestions.filter((s) => s.ddl.length > 0)).toEqual([]);
    expect(wide?.notes).toContainEqual(
      expect.stringMatching(
        /^Index idx_film_length not proposed \(live data\): \(length > 100\) matches ~61% of the rows of film \(610 of all 1,000 rows\); above ~28\.5% MySQL .* the index would not be used/,
      ),
    );
    expect(narrow?.suggestions.some((s) => s.indexName === 'idx_film_rate')).toBe(true);
    // The statement's Index plan drops the withdrawn index too (same DDL), with the reason; the narrow one stays.
    const plans = weighed.statements.map((statement) => statement.indexPlan?.tables[0]);
    expect(report.statements[0]?.indexPlan?.tables[0]?.ddl.length).toBeGreaterThan(0);
    expect(plans[0]).toMatchObject({ verdict: 'none', ddl: [], indexName: null });
    expect(plans[0]?.notes.at(-1)).toMatch(/^Index idx_film_length not proposed \(live data\)/);
    expect(plans[1]).toMatchObject({ verdict: 'create', indexName: 'idx_film_rate' });
    // Canary: without the predicate counts nothing is withdrawn.
    const unmeasured = applySelectivity(report, [{ ...sample, matching: {} }], 'mysql', schema);
    expect(
      unmeasured.statements[0]?.findings
        .find((f) => f.rule === 'IDX001')
        ?.suggestions.some((s) => s.ddl.length > 0),
    ).toBe(true);
  });
});
