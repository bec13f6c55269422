// Which side of a join comparison an index lookup would use: a function on the driving side is harmless.
//
// Design note: in `t1 JOIN t2 ON t1.a = UPPER(t2.b)` the function stops an index on t2.b from serving the
// join, so t2 cannot be the inner (looked-up) table through b. t1 can: for each row of t2 the server
// computes UPPER(t2.b) once and seeks t1's index on a (EXPLAIN: t1 type ref, ref func). The function is only
// a problem when no such access exists: t2 is forced to be the inner table (it is the right side of a LEFT
// JOIN, the left side of a RIGHT JOIN, or after STRAIGHT_JOIN), or no index starts with t1.a. Without a
// schema for t1 nothing proves the index is missing, so nothing is reported (the common case is an indexed
// join key). SOAR's FUN.001 looks only at WHERE (and at function-first comparisons), never at join sides;
// this is the narrower reading the issue asks for. Both servers' plans for these shapes are checked in
// tests/integration/advice-join-side.test.ts.

import type { ColumnInfo, TableInfo } from '../../model/schema.js';
import { type AstNode, isNode } from '../../sql/ast.js';
import type { PredicateSite, ScopeTable } from '../../sql/predicates.js';
import type { WrappedOperand } from '../../sql/wrapping.js';
import type { ResolvedColumn, RuleContext } from '../engine.js';

/** Comparisons a lookup into the other table's index can serve (ref for = / <=>, range checked per row). */
const LOOKUP_OPERATORS = new Set(['=', '<=>', '<', '<=', '>', '>=']);

export type JoinSide =
  /** Not a join comparison between a wrapped column of one table and a bare column of another. */
  | { kind: 'not-a-join' }
  /** The wrapped table can drive the join and the other table's column can be sought: nothing to report. */
  | { kind: 'driving'; reason: string }
  /** The wrapped table has to be (or, without an index on the other column, would be) looked up. */
  | { kind: 'lookup'; note: string | null };

/** How the join order constrains the wrapped table (`w`) against the other table (`o`). */
type Order = 'w-first' | 'o-first' | 'free';

export function joinSideOf(
  context: Pick<RuleContext, 'ast' | 'resolveColumns'>,
  site: PredicateSite,
  wrapped: WrappedOperand,
  columns: readonly ResolvedColumn[],
): JoinSide {
  if (site.clause !== 'on' && site.clause !== 'where') return { kind: 'not-a-join' };
  if (!site.operator || !LOOKUP_OPERATORS.has(site.operator)) return { kind: 'not-a-join' };
  const other = site.left === wrapped.node ? site.right : site.right === wrapped.node ? site.left : null;
  if (!isNode(other)) return { kind: 'not-a-join' };
  if (other.type !== 'column_ref' || other.collate) return bothSidesWrapped(context, site, other, columns);
  const wrappedTable = singleScopeTable(columns);
  if (!wrappedTable || !site.scope.tables.includes(wrappedTable)) return { kind: 'not-a-join' };
  const [otherColumn] = context.resolveColumns(site, other);
  const otherTable = otherColumn?.scopeTable;
  // The other column must belong to another table of the same query block (an outer query's column is a
  // constant for this block: the wrapped side is then the one sought).
  if (!otherColumn || !otherTable || otherTable === wrappedTable || !site.scope.tables.includes(otherTable))
    return { kind: 'not-a-join' };
  const order = joinOrder(context.ast, site.node, wrappedTable, otherTable);
  const otherName = `${otherTable.visibleName}.${otherColumn.info?.name ?? otherColumn.column}`;
  if (order === 'o-first')
    return {
      kind: 'lookup',
      note: `${wrappedTable.visibleName} is the inner table of this outer join (read after ${otherTable.visibleName}), so it is looked up through this condition: the function keeps an index on its column from serving the join.`,
    };
  if (order === 'w-first')
    return {
      kind: 'driving',
      reason: `${wrappedTable.visibleName} is read first (outer side of the join): the function is computed once per row and ${otherName} is what is sought.`,
    };
  if (!otherColumn.table || !otherColumn.info)
    return { kind: 'driving', reason: `unknown whether ${otherName} is indexed` };
  if (leadsAnIndex(otherColumn.table, otherColumn.info))
    return {
      kind: 'driving',
      reason: `${wrappedTable.visibleName} can drive the join and ${otherName} is sought through its index.`,
    };
  return {
    kind: 'lookup',
    note: `Or index ${otherName} (no index starts with it): then ${wrappedTable.visibleName} drives the join, the function is computed once per row of ${wrappedTable.visibleName}, and ${otherTable.visibleName} is sought.`,
  };
}

/**
 * `ON CAST(t1.id AS FLOAT) = CONVERT(t2.id, FLOAT)` (SQLE's Test_DMLCheckJoinFieldType): the other side
 * is an expression over another table too, so neither index serves the join. The wrapped table's
 * function costs nothing when that table is read first anyway (the outer side of an outer join, the
 * first of STRAIGHT_JOIN); the other table's is still reported (as the inner table, it is looked up).
 */
function bothSidesWrapped(
  context: Pick<RuleContext, 'ast' | 'resolveColumns'>,
  site: PredicateSite,
  other: AstNode,
  columns: readonly ResolvedColumn[],
): JoinSide {
  const wrappedTable = singleScopeTable(columns);
  const otherTable = singleScopeTable(context.resolveColumns(site, other));
  if (!wrappedTable || !otherTable || otherTable === wrappedTable) return { kind: 'not-a-join' };
  if (!site.scope.tables.includes(wrappedTable) || !site.scope.tables.includes(otherTable))
    return { kind: 'not-a-join' };
  if (joinOrder(context.ast, site.node, wrappedTable, otherTable) !== 'w-first')
    return { kind: 'not-a-join' };
  return {
    kind: 'driving',
    reason: `${wrappedTable.visibleName} is read first (outer side of the join): the function is computed once per row.`,
  };
}

/** The one scope table every column of the wrapped expression belongs to. */
function singleScopeTable(columns: readonly ResolvedColumn[]): ScopeTable | null {
  const tables = new Set(columns.map((column) => column.scopeTable));
  if (tables.size !== 1) return null;
  const [only] = tables;
  return only ?? null;
}

function leadsAnIndex(table: TableInfo, column: ColumnInfo): boolean {
  const name = column.name.toLowerCase();
  return table.indexes.some(
    (index) => index.visible && index.kind === 'btree' && index.parts[0]?.column?.toLowerCase() === name,
  );
}

/**
 * The order the FROM list forces between the two tables. MySQL and MariaDB read the outer table of a LEFT
 * JOIN before its inner table (a RIGHT JOIN is the mirrored LEFT JOIN) and STRAIGHT_JOIN reads left to right;
 * inner joins and comma joins leave the order to the optimizer.
 */
function joinOrder(ast: AstNode, condition: AstNode, wrapped: ScopeTable, other: ScopeTable): Order {
  const list = fromListHolding(ast, condition);
  if (!list) return 'free';
  const w = list.findIndex((item) => matches(item, wrapped));
  const o = list.findIndex((item) => matches(item, other));
  if (w < 0 || o < 0) return 'free';
  const later = list[Math.max(w, o)];
  const join = typeof later?.join === 'string' ? later.join.toUpperCase() : '';
  // In `a LEFT JOIN b` the later item (b) is read after a; in `a RIGHT JOIN b`, before it.
  const laterFirst = join.includes('RIGHT');
  const earlierFirst = join.includes('LEFT') || join.includes('STRAIGHT');
  if (!laterFirst && !earlierFirst) return 'free';
  const wrappedIsLater = w > o;
  return laterFirst === wrappedIsLater ? 'w-first' : 'o-first';
}

function matches(item: AstNode, table: ScopeTable): boolean {
  const name = typeof item.as === 'string' && item.as ? item.as : item.table;
  return typeof name === 'string' && name.toLowerCase() === table.visibleName.toLowerCase();
}

/** The FROM list of the query block whose WHERE or one of whose ON conditions holds `condition`. */
function fromListHolding(node: unknown, condition: AstNode): AstNode[] | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = fromListHolding(item, condition);
      if (found) return found;
    }
    return null;
  }
  if (!isNode(node)) return null;
  // Nested blocks first: an outer WHERE also contains the conditions of its subqueries.
  for (const key in node) {
    if (key === 'loc') continue;
    const child = node[key];
    if (isNode(child) || Array.isArray(child)) {
      const found = fromListHolding(child, condition);
      if (found) return found;
    }
  }
  const lists = [node.from, node.type === 'update' ? node.table : undefined];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const items = list.filter(isNode);
    if (contains(node.where, condition) || items.some((item) => contains(item.on, condition))) return items;
  }
  return null;
}

function contains(node: unknown, target: AstNode): boolean {
  if (node === target) return true;
  if (Array.isArray(node)) return node.some((item) => contains(item, target));
  if (!isNode(node)) return false;
  for (const key in node) {
    if (key === 'loc') continue;
    const child = node[key];
    if ((isNode(child) || Array.isArray(child)) && contains(child, target)) return true;
  }
  return false;
}
