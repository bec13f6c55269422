// AND binds tighter than OR in every parsed statement (src/core/sql/precedence.ts): node-sql-parser 5.4
// associates a chain of AND and OR left to right, the servers do not.
import { describe, expect, it } from 'vitest';
import { isNode, type AstNode } from '../../../src/core/sql/ast.js';
import { parseStatement } from '../../../src/core/sql/parse.js';

/** The WHERE condition as a compact string: (l OP r), terms as their column names. */
function shape(node: unknown): string {
  if (!isNode(node)) return '?';
  if (node.type === 'binary_expr' && /^(AND|OR|&&)$/i.test(String(node.operator)))
    return `(${shape(node.left)} ${String(node.operator).toUpperCase()} ${shape(node.right)})`;
  if (node.type === 'binary_expr') return shape(node.left);
  if (node.type === 'column_ref') return String(node.column);
  return String(node.type);
}

function where(sql: string, flavor: 'mysql' | 'mariadb' = 'mysql'): AstNode {
  const result = parseStatement(sql, flavor);
  if (!result.ok) throw new Error(result.message);
  return result.ast.where as AstNode;
}

describe('AND binds tighter than OR', () => {
  const cases: [string, string][] = [
    ['a = 1 OR b = 2 AND c = 3', '(a OR (b AND c))'],
    ['a = 1 AND b = 2 OR c = 3', '((a AND b) OR c)'],
    ['a = 1 OR b = 2 AND c = 3 OR d = 4', '((a OR (b AND c)) OR d)'],
    ['a = 1 AND b = 2 OR c = 3 AND d = 4', '((a AND b) OR (c AND d))'],
    ['(a = 1 OR b = 2) AND c = 3', '((a OR b) AND c)'],
    ['a = 1 OR (b = 2 OR c = 3) AND d = 4', '(a OR ((b OR c) AND d))'],
    ['a = 1 || b = 2', '?'],
    ['a = 1 OR b = 2 && c = 3', '(a OR (b && c))'],
  ];
  for (const flavor of ['mysql', 'mariadb'] as const)
    it.each(cases)(`${flavor}: %s reads %s`, (condition, expected) => {
      const actual = shape(where(`SELECT * FROM t WHERE ${condition}`, flavor));
      if (expected !== '?') expect(actual).toBe(expected);
    });

  it('in ON, HAVING and subqueries too', () => {
    const result = parseStatement(
      'SELECT * FROM t JOIN u ON t.a = u.a OR t.b = 1 AND u.c = 2 WHERE t.x IN (SELECT y FROM v WHERE p = 1 OR q = 2 AND r = 3)',
      'mysql',
    );
    if (!result.ok) throw new Error(result.message);
    const from = result.ast.from as AstNode[];
    expect(shape(from[1]!.on)).toBe('(a OR (b AND c))');
    const inner = ((result.ast.where as AstNode).right as AstNode).value as AstNode[];
    const sub = (inner[0]!.ast ?? inner[0]) as AstNode;
    expect(shape(sub.where)).toBe('(p OR (q AND r))');
  });

  it('a rebuilt node spans its first to its last term', () => {
    const sql = 'SELECT * FROM t WHERE a = 1 OR b = 2 AND c = 3';
    const condition = where(sql);
    const right = condition.right as AstNode;
    const loc = right.loc as { start: { offset: number }; end: { offset: number } };
    expect(sql.slice(loc.start.offset, loc.end.offset)).toBe('b = 2 AND c = 3');
  });

  it('a chain of 20,000 terms mixing AND and OR does not overflow the stack', () => {
    const terms = Array.from({ length: 20_000 }, (_, i) => `c${i % 50} = ${i}`);
    const condition = terms
      .map((term, i) => (i === 0 ? term : `${i % 3 === 0 ? 'OR' : 'AND'} ${term}`))
      .join(' ');
    const result = parseStatement(`SELECT * FROM t WHERE ${condition}`, 'mysql');
    expect(result.ok || /too complex/i.test(result.message)).toBe(true);
  });
});

/** Any expression as a compact string: (l OP r), NOT x, terms as column names or numbers. */
function tree(node: unknown): string {
  if (!isNode(node)) return '?';
  if (node.type === 'binary_expr') return `(${tree(node.left)} ${String(node.operator)} ${tree(node.right)})`;
  if (node.type === 'unary_expr') return `${String(node.operator)} ${tree(node.expr)}`;
  if (node.type === 'column_ref') return String(node.column);
  if (node.type === 'number') return String(node.value);
  return String(node.type);
}

describe('XOR and || (as OR) bind looser than comparisons and AND, NOT looser than comparisons', () => {
  const cases: [string, string][] = [
    // The grammar alone: ((a = (1 XOR b)) = 2).
    ['a = 1 XOR b = 2', '((a = 1) XOR (b = 2))'],
    ['a = 1 || b = 2', '((a = 1) || (b = 2))'],
    ['a XOR b AND c', '(a XOR (b AND c))'],
    ['a = 1 XOR b = 2 AND c = 3', '((a = 1) XOR ((b = 2) AND (c = 3)))'],
    ['a = 1 OR b = 2 XOR c = 3', '((a = 1) OR ((b = 2) XOR (c = 3)))'],
    ['a = 1 AND b = 2 XOR c = 3', '(((a = 1) AND (b = 2)) XOR (c = 3))'],
    ['a = 1 || b = 2 AND c = 3', '((a = 1) || ((b = 2) AND (c = 3)))'],
    ['NOT a = 1 XOR b = 2', '(NOT (a = 1) XOR (b = 2))'],
    ['a + 1 XOR b * 2', '((a + 1) XOR (b * 2))'],
    ['a XOR b XOR c', '((a XOR b) XOR c)'],
    ['a XOR b OR c XOR d', '((a XOR b) OR (c XOR d))'],
    ['a = 1 XOR (b = 2 OR c = 3)', '((a = 1) XOR ((b = 2) OR (c = 3)))'],
    ['a = 1 AND b = 2', '((a = 1) AND (b = 2))'],
  ];
  for (const flavor of ['mysql', 'mariadb'] as const)
    it.each(cases)(`${flavor}: %s reads %s`, (condition, expected) => {
      expect(tree(where(`SELECT * FROM t WHERE ${condition}`, flavor))).toBe(expected);
    });

  it('|| concatenates under PIPES_AS_CONCAT: left as the grammar reads it (tighter than =)', () => {
    const result = parseStatement("SELECT * FROM t WHERE a = 'x' || b", 'mysql', { pipesAsConcat: true });
    if (!result.ok) throw new Error(result.message);
    expect(tree(result.ast.where)).toBe('(a = (single_quote_string || b))');
    expect(tree(where("SELECT * FROM t WHERE a = 'x' || b"))).toBe('((a = single_quote_string) || b)');
  });

  it('rebuilt nodes span their terms, operators keep their own properties, the top object stays', () => {
    const sql = "SELECT * FROM t WHERE a LIKE 'x!%' ESCAPE '!' XOR b = 2 AND c = 3";
    const result = parseStatement(sql, 'mariadb');
    if (!result.ok) throw new Error(result.message);
    const condition = result.ast.where as AstNode;
    expect(condition.operator).toBe('XOR');
    const text = (node: unknown) => {
      const loc = (node as AstNode).loc as { start: { offset: number }; end: { offset: number } };
      return sql.slice(loc.start.offset, loc.end.offset).trim();
    };
    expect(text(condition.right)).toBe('b = 2 AND c = 3');
    expect(condition.left).toMatchObject({ operator: 'LIKE', right: { escape: expect.anything() } });
    expect(text(condition.left)).toBe("a LIKE 'x!%' ESCAPE '!'");
  });

  it('the analysis reads || by the session sql_mode', () => {
    const ansi = parseStatement('SELECT a = 1 || b = 2 FROM t', 'mysql', { pipesAsConcat: true });
    const plain = parseStatement('SELECT a = 1 || b = 2 FROM t', 'mysql');
    if (!ansi.ok || !plain.ok) throw new Error('parse');
    const first = (result: typeof ansi) => (result.ok ? (result.ast.columns as AstNode[])[0]!.expr : null);
    expect(tree(first(ansi))).toBe('((a = (1 || b)) = 2)');
    expect(tree(first(plain))).toBe('((a = 1) || (b = 2))');
  });

  it('a chain of 20,000 XORs does not overflow the stack', () => {
    const condition = Array.from({ length: 20_000 }, (_, i) => `c${i % 50} = ${i}`).join(' XOR ');
    const result = parseStatement(`SELECT * FROM t WHERE ${condition}`, 'mysql');
    expect(result.ok || /too complex/i.test(result.message)).toBe(true);
  });
});
