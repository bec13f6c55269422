// The oracle for the parser's fast paths: node-sql-parser's own full parse of a statement, compared with parseStatement's.
// Both sides get the AND/OR precedence fix (src/core/sql/precedence.ts, tested on its own in precedence.test.ts):
// the fast paths must agree with the grammar, the fix is applied after either.
import mysqlBuild from 'node-sql-parser/build/mysql.js';
import { expect } from 'vitest';
import { parseStatement } from '../../src/core/sql/parse.js';
import { associateAndOr } from '../../src/core/sql/precedence.js';
import { scanStatement } from '../../src/core/sql/tolerant.js';
import { equivalentForm, restoreEquivalent } from '../../src/core/sql/equivalents.js';

const reference = new (
  mysqlBuild as unknown as { Parser: new () => { astify(sql: string, o: object): unknown } }
).Parser();

/** Without the grammar's `columnList`/`tableList` bookkeeping (the fast paths drop it; nothing reads it). */
function withoutLists(ast: unknown): unknown {
  return JSON.parse(JSON.stringify(ast), (key, value: unknown) =>
    key === 'columnList' || key === 'tableList' ? undefined : value,
  );
}

/** node-sql-parser's MySQL grammar on the text as written, untouched (throws on a syntax error): for timing. */
export function grammarParse(sql: string): unknown {
  return reference.astify(sql, { database: 'MySQL', parseOptions: { includeLocations: true } });
}

/** The grammar's AST of the statement, comparable with {@link parsed} (throws on a syntax error). */
export function fullParse(sql: string): unknown {
  const result = grammarParse(sql);
  const ast = Array.isArray(result) ? result[0] : result;
  associateAndOr(ast);
  return withoutLists(ast);
}

/** parseStatement's AST (MySQL flavor), comparable with {@link fullParse}. */
export function parsed(sql: string): unknown {
  const result = parseStatement(sql, 'mysql');
  if (!result.ok) throw new Error(result.message);
  return withoutLists(result.ast);
}

/** parseStatement agrees with the full parse: the same AST, positions included, or both reject the text. */
export function expectSameAsFullParse(sql: string): void {
  let expected: unknown;
  try {
    expected = fullParse(sql);
  } catch {
    const result = parseStatement(sql, 'mysql');
    if (!result.ok) return;
    if (result.equivalents) {
      // Accepted in an equivalent form (`<=>`, `TABLE t`, …, equivalents.ts): then it is the grammar's AST
      // of that form (tolerant scan included), its positions mapped back onto the statement.
      const form = equivalentForm(sql, 'mysql')!;
      let ast: unknown;
      try {
        ast = fullParse(form.text);
      } catch {
        ast = fullParse(scanStatement(form.text, { lockingReads: true }).text.trimEnd());
      }
      expect(restoreEquivalent(ast as Record<string, unknown>, form, sql)).toBe(true);
      expect(withoutLists(result.ast)).toEqual(ast);
      return;
    }
    // Accepted only through the tolerant scan (index hints, GROUP BY … DESC, …): then it is exactly the
    // grammar's AST of the text the scan blanked.
    expect(result.tolerated).toBeDefined();
    expect(withoutLists(result.ast)).toEqual(
      fullParse(scanStatement(sql, { lockingReads: true }).text.trimEnd()),
    );
    return;
  }
  expect(parsed(sql)).toEqual(expected);
}
