// AST editing for rewrites: replace a node, print it, splice it into the statement text and prove it re-parses.
//
// Design note: a rewrite is built as new AST nodes and printed with node-sql-parser's printer.
// The printed predicate is spliced into the user's statement at the replaced node's span (so the
// rest of the statement keeps its formatting and comments), then the whole statement is parsed
// again and its canonical print compared with the print of the transformed AST. If the splice
// changed the meaning (operator precedence), it is retried with parentheses, and if that still
// differs the canonical print of the transformed AST is returned instead.

import type { Flavor } from '../flavors/capabilities.js';
import { isNode, spanOf } from '../sql/ast.js';
import { parseStatement, printSql, type AstNode } from '../sql/parse.js';

/** A deep copy of `root` where the node `target` (by identity) is replaced by `replacement`. */
export function replaceNode(root: AstNode, target: AstNode, replacement: AstNode): AstNode {
  const copy = (value: unknown): unknown => {
    if (value === target) return replacement;
    if (Array.isArray(value)) return value.map(copy);
    if (!isNode(value)) return value;
    const result: AstNode = {};
    for (const [key, child] of Object.entries(value)) result[key] = key === 'loc' ? child : copy(child);
    return result;
  };
  return copy(root) as AstNode;
}

/** The chain of nodes from `root` down to `target` (exclusive), or undefined when not found. */
export function ancestorsOf(root: AstNode, target: AstNode): AstNode[] | undefined {
  const path: AstNode[] = [];
  const visit = (value: unknown): boolean => {
    if (value === target) return true;
    if (Array.isArray(value)) return value.some(visit);
    if (!isNode(value)) return false;
    path.push(value);
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'loc' && (isNode(child) || Array.isArray(child)) && visit(child)) return true;
    }
    path.pop();
    return false;
  };
  return visit(root) ? path : undefined;
}

/** True when the nearest logical ancestors of a predicate are only ANDs (it is a conjunct of its clause). */
export function isConjunct(ancestors: readonly AstNode[]): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i];
    if (!node) break;
    const operator = typeof node.operator === 'string' ? node.operator.toUpperCase() : '';
    if (node.type === 'binary_expr' && (operator === 'AND' || operator === '&&')) continue;
    if (node.type === 'binary_expr' && ['OR', 'XOR', '||'].includes(operator)) return false;
    if (node.type === 'unary_expr' || node.type === 'function') return false; // NOT (...), IF(...)
    if (node.type === 'expr_list') return false;
    return true;
  }
  return true;
}

/** Result of an edit: the statement text and whether the splice kept the user's formatting. */
export interface EditedStatement {
  sql: string;
  /** The AST of the rewritten statement (re-parsed). */
  ast: AstNode;
}

/**
 * Replace `target` in the statement by `replacement`, returning text that re-parses to exactly the
 * transformed AST (the canonical print of the whole statement when the target has no span), or
 * undefined when nothing re-parses.
 */
export function editStatement(
  sql: string,
  ast: AstNode,
  target: AstNode,
  replacement: AstNode,
  flavor: Flavor,
): EditedStatement | undefined {
  const span = spanOf(target);
  let end = span?.end ?? 0;
  while (span && end > span.start && /\s/.test(sql[end - 1] ?? '')) end--;
  const expected = printSql(replaceNode(ast, target, replacement), flavor);
  const printed = printSql(replacement, flavor);
  // Without a span (MariaDB's parser records few), only the canonical print of the whole statement is possible.
  for (const text of span ? [printed, `(${printed})`] : []) {
    const candidate = sql.slice(0, span?.start ?? 0) + text + sql.slice(end);
    const parsed = parseStatement(candidate, flavor);
    if (parsed.ok && printSql(parsed.ast, flavor) === expected) return { sql: candidate, ast: parsed.ast };
  }
  const parsed = parseStatement(expected, flavor);
  return parsed.ok ? { sql: expected, ast: parsed.ast } : undefined;
}

/** A fresh copy of a column reference without its source position (so printing never reuses it). */
export function columnNode(table: string | null, column: string): AstNode {
  return { type: 'column_ref', table, column, collate: null };
}

/** A string literal node; `raw` is the text between the quotes as it must appear in SQL. */
export function stringNode(raw: string): AstNode {
  return { type: 'single_quote_string', value: raw };
}

/** A number literal node. */
export function numberNode(value: bigint | number | string): AstNode {
  return { type: 'number', value: typeof value === 'bigint' ? value.toString() : value };
}

/** `left op right` */
export function compareNode(operator: string, left: AstNode, right: AstNode): AstNode {
  return { type: 'binary_expr', operator, left, right };
}

/** `left AND right` / `left OR right`; OR is parenthesized so it can stand anywhere. */
export function logicalNode(operator: 'AND' | 'OR', left: AstNode, right: AstNode): AstNode {
  return { type: 'binary_expr', operator, left, right, ...(operator === 'OR' ? { parentheses: true } : {}) };
}

/** `column IS NULL` */
export function isNullNode(column: AstNode): AstNode {
  return { type: 'binary_expr', operator: 'IS', left: column, right: { type: 'null', value: null } };
}
