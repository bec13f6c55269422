// Deep and long input (issue #19 limits, #20 item 8): 20,000 ORs and 2,500 nested parentheses are
// analysed; what is still deeper gets the documented INPUT_TOO_COMPLEX error, never a stack overflow.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { isNode } from '../../../src/core/sql/ast.js';
import { collapseRedundantParentheses, nestingDepth } from '../../../src/core/sql/limits.js';
import { parseStatement, printSql } from '../../../src/core/sql/parse.js';

const server = offlineServerInfo('mysql', '8.0.33');
const { schema } = schemaFromDdl('CREATE TABLE t (id INT PRIMARY KEY, a INT, d DATETIME, KEY (a));');
const run = (sql: string) => analyze(sql, { server, source: 'default', schema });

/** Depth of an AST, iteratively (the test must not overflow either). */
function astDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(node)) for (const item of node) stack.push([item, depth + 1]);
    else if (isNode(node)) for (const key in node) if (key !== 'loc') stack.push([node[key], depth + 1]);
  }
  return deepest;
}

describe('limits', () => {
  it(
    'analyses a WHERE of 20,000 ORs: the finding in the middle is found at its position',
    { timeout: 120_000 },
    () => {
      const terms = Array.from({ length: 20_000 }, (_, i) => (i === 12_345 ? 'YEAR(d) = 2020' : `a = ${i}`));
      const sql = `SELECT id FROM t WHERE ${terms.join(' OR ')}`;
      const report = run(sql);
      expect(report.errors).toEqual([]);
      const finding = report.statements[0]!.findings.find((entry) => entry.rule === 'FUN001');
      expect(finding?.column).toBe(sql.indexOf('YEAR(d)') + 1);
    },
  );

  it('balances long boolean chains without changing the printed SQL', () => {
    const sql = `SELECT id FROM t WHERE ${Array.from({ length: 1000 }, (_, i) => `a = ${i}`).join(' OR ')} AND (a = 1 OR a = 2)`;
    const parsed = parseStatement(sql, 'mysql');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(astDepth(parsed.ast)).toBeLessThan(80);
    const printed = printSql(parsed.ast, 'mysql');
    expect(printed.replace(/`/g, '')).toBe(sql.replace(/ AND \(/, ' AND (').replace(/\s+/g, ' '));
  });

  it(
    'analyses 2,500 nested parentheses (the servers accept 10,000): the finding inside is found',
    { timeout: 60_000 },
    () => {
      const sql = `SELECT id FROM t WHERE ${'('.repeat(2500)}YEAR(d) = 2020${')'.repeat(2500)}`;
      const report = run(sql);
      expect(report.errors).toEqual([]);
      const finding = report.statements[0]!.findings.find((entry) => entry.rule === 'FUN001');
      expect(finding?.column).toBe(sql.indexOf('YEAR(d)') + 1);
    },
  );

  it(
    'reports INPUT_TOO_COMPLEX, with the limit, for nesting it cannot follow; later statements still run',
    { timeout: 60_000 },
    () => {
      let nested = 'a = 0';
      for (let i = 1; i < 3000; i++) nested = `a = ${i} OR (${nested})`;
      const report = run(`SELECT id FROM t WHERE ${nested};\nSELECT id FROM t WHERE YEAR(d) = 2020;`);
      expect(report.errors).toHaveLength(1);
      expect(report.errors[0]).toMatchObject({ index: 0, code: 'INPUT_TOO_COMPLEX', line: 1 });
      expect(report.errors[0]!.message).toMatch(/limit is 1000 levels/);
      expect(report.statements.map((statement) => statement.index)).toEqual([1]);
      expect(report.statements[0]!.findings.map((finding) => finding.rule)).toContain('FUN001');
    },
  );

  it('collapses only redundant pairs, keeping offsets and function calls', () => {
    const deep = `SELECT COUNT((a)) FROM t WHERE ${'('.repeat(150)}a = 1${')'.repeat(150)} AND f(( b ))`;
    const collapsed = collapseRedundantParentheses(deep);
    expect(collapsed.length).toBe(deep.length);
    expect(nestingDepth(collapsed)).toBe(1);
    expect(collapsed).toMatch(/^SELECT COUNT\( a \) FROM t WHERE \( +a = 1 +\) AND f\( {2}b {2}\)$/);
    // Below 100 levels the text is parsed as written.
    expect(collapseRedundantParentheses('SELECT ((1))')).toBe('SELECT ((1))');
    // Parentheses in strings, names and comments are not code.
    const quoted = `SELECT '((((' , \`a(\` FROM t WHERE ${'('.repeat(120)}1${')'.repeat(120)} -- ((`;
    expect(nestingDepth(quoted)).toBe(120);
  });
});

describe('large INSERT … VALUES', () => {
  it('checks the first 1,000 rows of a 2 MB INSERT and says how many were left out', () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `(${i}, 'name ${i}', '2024-01-0${(i % 9) + 1}')`);
    const sql = `INSERT INTO t (id, a, d) VALUES ${rows.join(',\n')};\nSELECT id FROM t WHERE YEAR(d) = 2020;`;
    expect(sql.length).toBeGreaterThan(1_000_000);
    const report = run(sql);
    expect(report.errors).toEqual([]);
    expect(report.statements[0]!.notes?.[0]).toMatch(/^Only the first 1,000 of 40,000 rows were checked/);
    // Positions after the elided rows are still the script's own.
    const select = report.statements[1]!;
    expect(select.line).toBe(40_001);
    expect(select.findings.find((finding) => finding.rule === 'FUN001')?.line).toBe(40_001);
  });
});
