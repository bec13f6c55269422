// AST editing for rewrites: replace a node, print it, splice it into the statement text and prove it re-parses.
//
// Design note: a rewrite is built as new AST nodes and printed with node-sql-parser's printer.
// The printed predicate is spliced into the user's statement at the replaced node's span (so the
// rest of the statement keeps its formatting and comments). Operator precedence is handled from
// the node's ancestors: a compound replacement is parenthesized unless it is a conjunct of its
// clause. The printed predicate is parsed alone and must print back identically; the rule
// fixtures re-parse every rewritten statement. Ancestors come from a parent map built once per AST.

import type { Flavor } from '../flavors/capabilities.js';
import { type AstNode, isNode, spanOf } from '../sql/ast.js';
import { parseFragment, printSql } from '../sql/parse.js';
import { hasLossyNumber } from './literals.js';

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

const parentMaps = new WeakMap<AstNode, WeakMap<AstNode, AstNode>>();

/** Child → parent node links of a statement, computed once per AST (analysis asks for many ancestors). */
function parentsOf(root: AstNode): WeakMap<AstNode, AstNode> {
  let parents = parentMaps.get(root);
  if (parents) return parents;
  const map = new WeakMap<AstNode, AstNode>();
  const visit = (value: unknown, parent: AstNode | undefined): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, parent);
      return;
    }
    if (!isNode(value)) return;
    if (parent && !map.has(value)) map.set(value, parent);
    for (const key in value) {
      const child = value[key];
      if (key !== 'loc' && (isNode(child) || Array.isArray(child))) visit(child, value);
    }
  };
  visit(root, undefined);
  parents = map;
  parentMaps.set(root, parents);
  return parents;
}

/** The chain of nodes from `root` down to `target` (exclusive), or undefined when not found. */
export function ancestorsOf(root: AstNode, target: AstNode): AstNode[] | undefined {
  const parents = parentsOf(root);
  const path: AstNode[] = [];
  let current = parents.get(target);
  if (!current && target !== root) return undefined;
  while (current) {
    path.push(current);
    current = parents.get(current);
  }
  // Long AND chains are left-deep trees hundreds of levels high: push and reverse once (unshift was quadratic).
  return path.reverse();
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

/** Result of an edit: the rewritten statement text. */
export interface EditedStatement {
  sql: string;
}

/**
 * Replace `target` in the statement by `replacement`. The printed replacement is spliced at the
 * target's span, in parentheses unless it is a conjunct of its clause or a single comparison, and
 * checked by parsing it alone (re-parsing the whole statement per suggestion would cost more than
 * the analysis; the rule fixtures re-parse every rewritten statement). Without a span (MariaDB's
 * parser records few) the canonical print of the whole transformed statement is returned.
 */
export function editStatement(
  sql: string,
  ast: AstNode,
  target: AstNode,
  replacement: AstNode,
  flavor: Flavor,
): EditedStatement | undefined {
  const span = spanOf(target);
  if (!span) {
    // Printing the whole statement would write a rounded big integer (-9223372036854775808 → …776000).
    const edited = replaceNode(ast, target, replacement);
    return hasLossyNumber(edited) ? undefined : { sql: printSql(edited, flavor) };
  }
  let end = span.end;
  while (end > span.start && /\s/.test(sql[end - 1] ?? '')) end--;
  const printed = printSql(replacement, flavor);
  const operator = typeof replacement.operator === 'string' ? replacement.operator.toUpperCase() : '';
  const compound =
    replacement.type === 'binary_expr' &&
    (operator === 'AND' || operator === 'OR') &&
    !replacement.parentheses;
  const ancestors = ancestorsOf(ast, target) ?? [];
  const parent = ancestors[ancestors.length - 1];
  const inComparison =
    parent?.type === 'binary_expr' &&
    !['AND', 'OR', '&&', 'XOR'].includes(String(parent.operator).toUpperCase());
  const text =
    (compound && !isConjunct(ancestors)) || (inComparison && replacement.type === 'binary_expr')
      ? `(${printed})`
      : printed;
  const check = parseFragment(`SELECT 1 FROM t WHERE ${text}`, flavor);
  const where = check.ok ? (check.ast.where as AstNode | undefined) : undefined;
  if (!where || printSql(where, flavor).replace(/^\((.*)\)$/s, '$1') !== printed.replace(/^\((.*)\)$/s, '$1'))
    return undefined;
  return { sql: sql.slice(0, span.start) + text + sql.slice(end) };
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
