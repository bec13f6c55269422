// QRY005's rewrite: the HAVING conjuncts that are row filters move into WHERE (aliases replaced by the
// columns they name, since WHERE cannot see select-list aliases).
//
// Design note: the statement's AST is copied, the conjuncts are taken out of the block's HAVING (the
// remaining ones stay, HAVING disappears when none remain) and AND-ed after the block's WHERE, each in
// parentheses; the copy is printed in the flavor's dialect and must parse again. Equivalent when every
// moved conjunct is a plain comparison of grouped columns with constants (=, <>, <, >, IN, BETWEEN,
// IS [NOT] NULL …): such a comparison follows the grouping collation, so it holds for every row of a
// group or for none. Anything else (LIKE, which does not pad trailing spaces; BINARY; LENGTH(); other
// functions) may separate rows GROUP BY put together, so the rewrite is offered as not equivalent with
// that note. Rows on NULLs and case-insensitive groups are compared on both servers in
// tests/integration/advice-rules-shape.test.ts.

import type { Flavor } from '../flavors/capabilities.js';
import type { Suggestion } from '../model/report.js';
import { columnName, isNode, type AstNode } from '../sql/ast.js';
import { parseStatement, printSql } from '../sql/parse.js';
import { hasLossyNumber, isConstant } from './literals.js';

const PLAIN_COMPARISONS = new Set([
  '=',
  '<=>',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
  'IS',
  'IS NOT',
]);

export interface HavingMove {
  /** The statement's AST and the SELECT block (an object inside it) whose HAVING is rewritten. */
  ast: AstNode;
  block: AstNode;
  /** The conjuncts (objects inside `block.having`) that move. */
  conjuncts: readonly AstNode[];
  /** Select-list aliases the conjuncts may name, by lower-case alias, and the expression each names. */
  aliases: ReadonlyMap<string, AstNode>;
  flavor: Flavor;
}

/** The rewrite suggestion, or null when the rewritten statement cannot be printed and parsed back. */
export function havingToWhere(move: HavingMove): Suggestion | null {
  const path = pathTo(move.ast, move.block);
  if (!path) return null;
  const copy = JSON.parse(JSON.stringify(move.ast)) as AstNode;
  const block = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
  if (!isNode(block)) return null;
  const moving = new Set(move.conjuncts);
  const kept: AstNode[] = [];
  const moved: AstNode[] = [];
  const split = (original: unknown, copied: unknown): void => {
    if (!isNode(original) || !isNode(copied)) return;
    if (!moving.has(original) && isAnd(original)) {
      split(original.left, copied.left);
      split(original.right, copied.right);
      return;
    }
    (moving.has(original) ? moved : kept).push(copied);
  };
  split(move.block.having, block.having);
  if (moved.length === 0) return null;
  const conditions = moved.map((condition) => ({
    ...(unalias(condition, move.aliases) as AstNode),
    parentheses: true,
  }));
  const where = isNode(block.where) ? [{ ...block.where, parentheses: true }, ...conditions] : conditions;
  block.where = conjoin(where);
  block.having = kept.length > 0 ? conjoin(kept) : null;
  // Printing the whole statement would write a rounded big integer (-9223372036854775808 → …776000).
  if (hasLossyNumber(copy)) return null;
  let sql: string;
  try {
    sql = printSql(copy, move.flavor);
  } catch {
    return null;
  }
  if (!parseStatement(sql, move.flavor).ok) return null;
  const exact = move.conjuncts.every((conjunct) => plainComparison(conjunct, move.aliases));
  return {
    kind: 'rewrite',
    equivalent: exact,
    ddl: [],
    rewrittenSql: sql,
    notes: [
      exact
        ? 'Same groups and aggregates: the moved condition compares grouped columns by their collation, so it keeps or drops whole groups.'
        : 'Not equivalent for every table: the moved condition is not a plain comparison of grouped columns with constants (LIKE, BINARY, a function, a constant the parser cannot read exactly), and may keep only some rows of a group that GROUP BY formed under the column’s collation (trailing spaces, letter case), changing its aggregates.',
    ],
  };
}

function isAnd(node: AstNode): boolean {
  return node.type === 'binary_expr' && ['AND', '&&'].includes(String(node.operator).toUpperCase());
}

function conjoin(conditions: AstNode[]): AstNode | null {
  return conditions.reduce<AstNode | null>(
    (left, right) => (left ? { type: 'binary_expr', operator: 'AND', left, right } : right),
    null,
  );
}

/** A copy of `node` where unqualified references to select aliases are the aliased expressions. */
function unalias(node: unknown, aliases: ReadonlyMap<string, AstNode>): unknown {
  if (Array.isArray(node)) return node.map((item) => unalias(item, aliases));
  if (!isNode(node)) return node;
  if (node.type === 'column_ref' && !node.table) {
    const name = columnName(node);
    const target = name ? aliases.get(name.toLowerCase()) : undefined;
    if (target) return JSON.parse(JSON.stringify(target)) as unknown;
  }
  const copy: AstNode = {};
  for (const key in node) copy[key] = key === 'loc' ? node[key] : unalias(node[key], aliases);
  return copy;
}

/** `column op constant(s)` with a bare column (or an alias of one) on one side, or a boolean combination of those. */
function plainComparison(node: AstNode, aliases: ReadonlyMap<string, AstNode>): boolean {
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT')
    return isNode(node.expr) && plainComparison(node.expr, aliases);
  if (node.type !== 'binary_expr') return false;
  const operator = String(node.operator).toUpperCase();
  // An OR (AND, XOR) of plain comparisons also holds for every row of a group or for none.
  if (['OR', '||', 'AND', '&&', 'XOR'].includes(operator))
    return (
      isNode(node.left) &&
      isNode(node.right) &&
      plainComparison(node.left, aliases) &&
      plainComparison(node.right, aliases)
    );
  if (!PLAIN_COMPARISONS.has(operator)) return false;
  const bare = (side: unknown): boolean => {
    if (!isNode(side) || side.type !== 'column_ref' || side.collate) return false;
    if (side.table) return true;
    const target = aliases.get((columnName(side) ?? '').toLowerCase());
    return !target || (target.type === 'column_ref' && !target.collate);
  };
  const constant = (side: unknown): boolean =>
    isNode(side) && side.type === 'expr_list' && Array.isArray(side.value)
      ? side.value.every((item) => isConstant(item))
      : isConstant(side) || (isNode(side) && (side.type === 'null' || side.type === 'bool'));
  return (bare(node.left) && constant(node.right)) || (constant(node.left) && bare(node.right));
}

/** The keys leading from `root` to `target` (object identity), or null. */
function pathTo(root: unknown, target: AstNode, path: (string | number)[] = []): (string | number)[] | null {
  if (root === target) return path;
  if (Array.isArray(root)) {
    for (let index = 0; index < root.length; index += 1) {
      const found = pathTo(root[index], target, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (!isNode(root)) return null;
  for (const key in root) {
    if (key === 'loc') continue;
    const found = pathTo(root[key], target, [...path, key]);
    if (found) return found;
  }
  return null;
}
