// Finds every predicate an index could serve, with the tables in scope, across a whole statement.
//
// Design note: one recursive walk over the AST. Each query block (SELECT, UPDATE, DELETE, the
// SELECT of INSERT … SELECT, each CTE, derived table, subquery and UNION branch) opens a scope
// listing its FROM tables by alias; scopes chain to their parent so correlated references
// resolve. Inside WHERE / ON / HAVING we descend through AND / OR / NOT / XOR and record each
// comparison as a PredicateSite; ORDER BY and GROUP BY items are recorded as sites too (their
// findings are info-level). Subqueries met anywhere are walked with a child scope.

import { type AstNode, embeddedSelect, isNode, nodeType } from './ast.js';

/** A table visible in a query block. `table` is null for derived tables and CTE references. */
export interface ScopeTable {
  table: string | null;
  database: string | null;
  alias: string | null;
  /** Name a reference can use: alias or table name. */
  visibleName: string;
  derived: boolean;
}

export interface Scope {
  tables: ScopeTable[];
  parent: Scope | null;
  /** CTE names visible here (they shadow base tables). */
  ctes: Set<string>;
}

export type Clause = 'where' | 'on' | 'having' | 'order-by' | 'group-by';

/**
 * Comparisons of two values (`=`, `<`, `IN`, `BETWEEN` …): a string column compared with a number here is
 * compared as numbers (what CNV001 reports). LIKE compares as strings and IS tests NULL/TRUE/FALSE, so they
 * are left out.
 */
export const VALUE_COMPARISON_OPERATORS: ReadonlySet<string> = new Set([
  '=',
  '<=>',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'BETWEEN',
  'NOT BETWEEN',
  'IN',
  'NOT IN',
]);

/** Comparison operators whose column side an index can serve: the value comparisons, LIKE and IS. */
export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set([
  ...VALUE_COMPARISON_OPERATORS,
  'LIKE',
  'NOT LIKE',
  'IS',
  'IS NOT',
]);

/** One predicate (or ORDER/GROUP BY item) in its scope. */
export interface PredicateSite {
  clause: Clause;
  /** The comparison node (binary_expr), or the ORDER/GROUP BY expression itself. */
  node: AstNode;
  operator: string | null;
  /** Operands: left first. For BETWEEN the right operand is an expr_list of two values. */
  left: AstNode | null;
  right: AstNode | null;
  scope: Scope;
  /** Statement type of the query block: select, update, delete … */
  blockType: string;
}

const BOOLEAN_OPERATORS = new Set(['AND', 'OR', 'XOR', '&&', '||_bool']);

/** Collect every predicate site in a parsed statement. */
export function collectPredicateSites(ast: AstNode): PredicateSite[] {
  const sites: PredicateSite[] = [];
  visitBlock(ast, null, sites);
  return sites;
}

function visitBlock(block: AstNode, parent: Scope | null, sites: PredicateSite[]): void {
  const type = nodeType(block) ?? 'unknown';
  const scope: Scope = { tables: [], parent, ctes: new Set(parent?.ctes ?? []) };

  // WITH: each CTE is its own block; its name is visible to the main block.
  if (Array.isArray(block.with)) {
    for (const cte of block.with.filter(isNode)) {
      const name = (cte.name as { value?: string } | undefined)?.value;
      if (name) scope.ctes.add(name.toLowerCase());
      const statement = cte.stmt as { ast?: AstNode } | AstNode | undefined;
      const inner =
        isNode(statement) && isNode(statement.ast) ? statement.ast : (statement as AstNode | undefined);
      if (isNode(inner)) visitBlock(inner, scope, sites);
    }
  }

  if (type === 'insert' || type === 'replace') {
    const values = block.values as unknown;
    if (isNode(values) && (values.type === 'select' || isNode(values.ast))) {
      visitBlock(embeddedSelect(values) ?? values, scope, sites);
    }
    return;
  }

  // FROM (SELECT, DELETE … FROM) and the table list of UPDATE / multi-table DELETE.
  const fromLists = [block.from, type === 'update' ? block.table : undefined];
  for (const list of fromLists) {
    if (!Array.isArray(list)) continue;
    for (const item of list.filter(isNode)) addFromItem(item, scope, sites);
  }
  // Join conditions after all tables are known (ON may reference any table to its left).
  for (const list of fromLists) {
    if (!Array.isArray(list)) continue;
    for (const item of list.filter(isNode)) {
      if (item.on) visitCondition(item.on, 'on', scope, type, sites);
    }
  }

  if (block.where) visitCondition(block.where, 'where', scope, type, sites);
  if (block.having) visitCondition(block.having, 'having', scope, type, sites);

  const groupBy = block.groupby as { columns?: unknown[] } | unknown[] | null | undefined;
  const groupColumns = Array.isArray(groupBy) ? groupBy : groupBy?.columns;
  for (const item of (groupColumns ?? []).filter(isNode)) {
    sites.push({
      clause: 'group-by',
      node: item,
      operator: null,
      left: item,
      right: null,
      scope,
      blockType: type,
    });
  }
  if (Array.isArray(block.orderby)) {
    for (const item of block.orderby.filter(isNode)) {
      const expr = isNode(item.expr) ? item.expr : item;
      sites.push({
        clause: 'order-by',
        node: expr,
        operator: null,
        left: expr,
        right: null,
        scope,
        blockType: type,
      });
    }
  }

  // Subqueries in the select list and SET values have their own scopes.
  for (const key of ['columns', 'set']) visitSubqueries(block[key], scope, sites);

  // UNION / INTERSECT / EXCEPT branches share the parent scope, not this one.
  if (isNode(block._next)) visitBlock(block._next, parent, sites);
}

function addFromItem(item: AstNode, scope: Scope, sites: PredicateSite[]): void {
  const derived = isNode(item.expr) ? embeddedSelect(item.expr) : undefined;
  if (derived) {
    visitBlock(derived, scope, sites);
    const alias = typeof item.as === 'string' ? item.as : null;
    scope.tables.push({ table: null, database: null, alias, visibleName: alias ?? '', derived: true });
    return;
  }
  if (typeof item.table !== 'string') return;
  const alias = typeof item.as === 'string' ? item.as : null;
  const isCte = scope.ctes.has(item.table.toLowerCase()) && !item.db;
  scope.tables.push({
    table: isCte ? null : item.table,
    database: typeof item.db === 'string' ? item.db : null,
    alias,
    visibleName: alias ?? item.table,
    derived: isCte,
  });
}

function visitCondition(
  condition: unknown,
  clause: Clause,
  scope: Scope,
  blockType: string,
  sites: PredicateSite[],
): void {
  if (!isNode(condition)) return;
  const sub = embeddedSelect(condition);
  if (sub) {
    visitBlock(sub, scope, sites);
    return;
  }
  if (condition.type === 'unary_expr' || (condition.type === 'function' && isNotFunction(condition))) {
    visitCondition(
      condition.expr ?? (condition.args as { value?: unknown[] } | undefined)?.value?.[0],
      clause,
      scope,
      blockType,
      sites,
    );
    return;
  }
  if (condition.type !== 'binary_expr') {
    visitSubqueries(condition, scope, sites);
    return;
  }
  const operator = String(condition.operator ?? '').toUpperCase();
  if (BOOLEAN_OPERATORS.has(operator)) {
    visitCondition(condition.left, clause, scope, blockType, sites);
    visitCondition(condition.right, clause, scope, blockType, sites);
    return;
  }
  if (COMPARISON_OPERATORS.has(operator)) {
    sites.push({
      clause,
      node: condition,
      operator,
      left: isNode(condition.left) ? condition.left : null,
      right: isNode(condition.right) ? condition.right : null,
      scope,
      blockType,
    });
  }
  visitSubqueries(condition, scope, sites);
}

function isNotFunction(node: AstNode): boolean {
  const name = (node.name as { name?: { value?: string }[] } | undefined)?.name?.[0]?.value;
  return typeof name === 'string' && name.toUpperCase() === 'NOT';
}

/** Walk any subquery found below `value` as a child block. */
function visitSubqueries(value: unknown, scope: Scope, sites: PredicateSite[]): void {
  if (Array.isArray(value)) {
    value.forEach((item) => visitSubqueries(item, scope, sites));
    return;
  }
  if (!isNode(value)) return;
  const sub = embeddedSelect(value);
  if (sub) {
    visitBlock(sub, scope, sites);
    return;
  }
  for (const key in value) {
    if (key === 'loc') continue;
    const child = value[key];
    if (isNode(child) || Array.isArray(child)) visitSubqueries(child, scope, sites);
  }
}

/** Resolve a (possibly qualified) column to the scope table it belongs to. */
export function resolveScopeTable(
  scope: Scope,
  qualifier: string | null,
  hasColumn: (table: ScopeTable) => boolean | undefined,
): ScopeTable | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) {
    if (qualifier) {
      const lower = qualifier.toLowerCase();
      const match = current.tables.find((table) => table.visibleName.toLowerCase() === lower);
      if (match) return match;
      continue;
    }
    if (current.tables.length === 1) {
      const only = current.tables[0];
      if (only && hasColumn(only) !== false) return only;
    }
    const withColumn = current.tables.filter((table) => hasColumn(table) === true);
    if (withColumn.length === 1) return withColumn[0];
    if (withColumn.length > 1) return undefined; // ambiguous: the server would reject it
  }
  return undefined;
}
