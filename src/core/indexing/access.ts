// What one query block asks of each table: constant equalities, IN lists, ranges, join equalities,
// ORDER BY / GROUP BY, the columns it reads, and whether it selects every column.
//
// Design note: only the conjuncts of WHERE and of each ON (a top-level AND chain) can drive an index
// access, so only they are read; an OR across columns is kept aside (it needs one index per branch or
// index_merge). A predicate counts as "constant" when its other side references no column of the block
// and holds no subquery: literals, placeholders and NOW() - INTERVAL … seek the same way.

import type { Flavor } from '../flavors/capabilities.js';
import { findColumn, findTable, type ColumnInfo, type SchemaModel, type TableInfo } from '../model/schema.js';
import { columnName, columnRefs, embeddedSelect, isNode, type AstNode } from '../sql/ast.js';
import { isStringColumn } from '../advice/column-types.js';
import { indexExpressionText } from '../advice/index-ddl.js';
import { literalOf } from '../advice/literals.js';
import { conditionTree } from './conditions.js';

/** A table of the block (base tables only; derived tables and CTEs are left out). */
export interface BlockTable {
  /** Position in FROM. */
  position: number;
  name: string;
  alias: string | null;
  visibleName: string;
  info: TableInfo;
  /** `LEFT`/`RIGHT` when the table is the optional side of an outer join, else null. */
  outer: 'left' | 'right' | null;
}

/** One sargable constant predicate on a bare column (or, for `expression`, on a deterministic expression). */
export interface ColumnPredicate {
  /** Schema spelling of the column; for expressions, the expression text without qualifiers. */
  column: string;
  expression?: string;
  /** The expression's node (expression predicates only): where a generated column replaces it. */
  expressionNode?: AstNode;
  kind: 'equality' | 'in' | 'range';
  /** Both ends bounded (BETWEEN, LIKE 'abc%', a pair of < and >). */
  closed: boolean;
  /** `IS NOT NULL`: a range that rarely narrows anything. */
  weak: boolean;
  /** The predicate node (for positions in findings). */
  node: AstNode;
}

/** `a.x = b.y`: an equality joining two tables of the block. */
export interface JoinEquality {
  left: { table: number; column: string };
  right: { table: number; column: string };
  node: AstNode;
}

export interface SortItem {
  table: number;
  column: string;
  desc: boolean;
}

/** Everything the design needs about one block. */
export interface BlockAccess {
  kind: 'select' | 'update' | 'delete';
  tables: BlockTable[];
  predicates: Map<number, ColumnPredicate[]>;
  joins: JoinEquality[];
  /** ORDER BY items when every item is a bare column of one table of the block; null otherwise. */
  orderBy: SortItem[] | null;
  /** True when the block has an ORDER BY that is not on bare columns of one table. */
  orderByOther: boolean;
  groupBy: SortItem[] | null;
  groupByOther: boolean;
  limit: boolean;
  /** Columns of each table the block reads anywhere (select list, predicates, ORDER/GROUP BY, HAVING). */
  referenced: Map<number, Set<string>>;
  /** Tables whose every column is selected (`*`, `t.*`). */
  star: Set<number>;
  /** The block holds a subquery (correlated columns it reads are not counted in `referenced`). */
  subqueries: boolean;
  /** Conjuncts that cannot seek: OR across columns, functions on columns the server cannot index … */
  notes: string[];
  /** Tables of the block that are unknown to the schema (no design for them). */
  unknownTables: string[];
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<=>': '<=>' };

/** Access facts of the statement's main block, or undefined when it is not a SELECT/UPDATE/DELETE over base tables. */
export function blockAccess(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  database: string | null,
  flavor: Flavor,
  /** Columns compared with an outer row outside the block's conditions (`x IN (SELECT c …)`: c). */
  outerEqualities: AstNode[] = [],
): BlockAccess | undefined {
  const type = String(ast.type ?? '').toLowerCase();
  if (type !== 'select' && type !== 'update' && type !== 'delete') return undefined;
  const fromList = (type === 'update' ? ast.table : ast.from) as unknown;
  if (!Array.isArray(fromList)) return undefined;
  const ctes = new Set<string>();
  if (Array.isArray(ast.with))
    for (const cte of ast.with)
      if (isNode(cte) && isNode(cte.name) && typeof cte.name.value === 'string')
        ctes.add(cte.name.value.toLowerCase());

  const access: BlockAccess = {
    kind: type,
    tables: [],
    predicates: new Map(),
    joins: [],
    orderBy: null,
    orderByOther: false,
    groupBy: null,
    groupByOther: false,
    limit: isNode(ast.limit) && Array.isArray(ast.limit.value) && ast.limit.value.length > 0,
    referenced: new Map(),
    star: new Set(),
    subqueries: false,
    notes: [],
    unknownTables: [],
  };
  const conditions: { node: unknown; from: number | null }[] = [{ node: ast.where, from: null }];
  const unresolvable = new Set<string>();
  fromList.forEach((item, position) => {
    if (!isNode(item)) return;
    const join = String(item.join ?? '').toUpperCase();
    const outer = join.startsWith('LEFT') ? 'left' : join.startsWith('RIGHT') ? 'right' : null;
    if (
      typeof item.table !== 'string' ||
      (isNode(item.expr) && embeddedSelect(item.expr)) ||
      ctes.has(item.table.toLowerCase())
    ) {
      if (typeof item.as === 'string') unresolvable.add(item.as.toLowerCase());
      access.subqueries = true;
    } else {
      const info = findTable(schema, item.table, typeof item.db === 'string' ? item.db : database);
      const alias = typeof item.as === 'string' ? item.as : null;
      if (!info) access.unknownTables.push(item.table);
      else
        access.tables.push({
          position,
          name: info.name,
          alias,
          visibleName: alias ?? item.table,
          info,
          outer,
        });
    }
    if (item.on) conditions.push({ node: item.on, from: position });
  });
  // RIGHT JOIN: the table before it becomes the optional side.
  for (const table of access.tables)
    if (table.outer === 'right') {
      const before = access.tables.find((candidate) => candidate.position === table.position - 1);
      if (before) before.outer = 'left';
      table.outer = null;
    }
  if (access.tables.length === 0) return access;
  // `JOIN t USING (c)` and `NATURAL JOIN t` join on equalities the statement does not write.
  const usingColumns = usingJoins(fromList, access);

  const resolve = (node: AstNode): { table: number; column: ColumnInfo } | undefined => {
    if (node.type !== 'column_ref' || node.collate) return undefined;
    const name = columnName(node);
    if (!name || name === '*') return undefined;
    const qualifier = typeof node.table === 'string' ? node.table.toLowerCase() : null;
    if (qualifier && unresolvable.has(qualifier)) return undefined;
    const candidates = access.tables
      .map((table, index) => ({ table, index }))
      .filter(({ table }) =>
        qualifier
          ? table.visibleName.toLowerCase() === qualifier || table.name.toLowerCase() === qualifier
          : true,
      )
      .map(({ table, index }) => ({ index, column: findColumn(table.info, name) }))
      .filter((candidate): candidate is { index: number; column: ColumnInfo } => Boolean(candidate.column));
    // An unqualified USING / NATURAL column is the joined tables' common value (equal on both sides).
    if (candidates.length > 1 && !qualifier && usingColumns.has(name.toLowerCase()))
      return { table: candidates[0]!.index, column: candidates[0]!.column };
    if (candidates.length !== 1) return undefined;
    const [only] = candidates;
    return only ? { table: only.index, column: only.column } : undefined;
  };

  // Columns read anywhere in the block.
  const noteRead = (value: unknown) => {
    for (const ref of columnRefs(value)) {
      if (ref.column === '*') continue;
      const resolved = resolve(ref.node);
      if (!resolved) continue;
      let set = access.referenced.get(resolved.table);
      if (!set) access.referenced.set(resolved.table, (set = new Set()));
      set.add(resolved.column.name);
    }
  };
  const columns = ast.columns as unknown;
  if (columns === '*' || (Array.isArray(columns) && columns.some((item) => isStar(item, null))))
    access.tables.forEach((_table, index) => access.star.add(index));
  else if (Array.isArray(columns))
    access.tables.forEach((table, index) => {
      if (columns.some((item) => isStar(item, table.visibleName))) access.star.add(index);
    });
  for (const key of ['columns', 'where', 'having', 'groupby', 'orderby', 'set']) noteRead(ast[key]);
  for (const item of fromList) if (isNode(item)) noteRead(item.on);
  if (blockHasSubquery(ast, fromList)) access.subqueries = true;

  // Conjuncts.
  // WHERE conjuncts that reject NULL on a column of the optional side of an outer join.
  const nullRejected = new Set<number>();
  for (const { node, from } of conditions) {
    for (const conjunct of conjunctsOf(conditionTree(node))) classify(conjunct, from === null);
  }
  // The server turns such an outer join into an inner join (MySQL manual, "Outer Join Simplification";
  // MariaDB likewise), so that table may drive the join: `a LEFT JOIN b … WHERE b.c = 'x'` seeks b.c.
  for (const index of nullRejected) {
    const table = access.tables[index];
    if (table?.outer === 'left') table.outer = null;
  }
  for (const node of outerEqualities) {
    const bare = resolve(node);
    if (bare)
      push(bare.table, { column: bare.column.name, kind: 'equality', closed: true, weak: false, node });
  }

  function classify(node: AstNode, inWhere: boolean): void {
    if (node.type !== 'binary_expr') return;
    const operator = String(node.operator ?? '').toUpperCase();
    if (operator === 'OR' || operator === '||') {
      access.notes.push(
        'An OR across columns cannot seek one index: each branch needs its own index (index_merge), or split the query into a UNION ALL of the branches.',
      );
      return;
    }
    let left = isNode(node.left) ? node.left : null;
    let right = isNode(node.right) ? node.right : null;
    if (!left || !right) return;
    let op = operator;
    const leftBare = resolve(left);
    const rightBare = resolve(right);
    // Join equality between two tables.
    if ((op === '=' || op === '<=>') && leftBare && rightBare) {
      if (leftBare.table !== rightBare.table)
        access.joins.push({
          left: { table: leftBare.table, column: leftBare.column.name },
          right: { table: rightBare.table, column: rightBare.column.name },
          node,
        });
      return;
    }
    // Constant on the left: flip.
    if (!leftBare && rightBare && FLIP[op] && constantSide(left)) {
      [left, right] = [right, left];
      op = FLIP[op] ?? op;
    }
    if (!constantSide(right)) return;
    const bare = resolve(left);
    if (bare) {
      const predicate = columnPredicate(op, right, bare.column, node);
      if (predicate) push(bare.table, predicate);
      if (predicate && inWhere && op !== '<=>' && !(op === 'IS' && right.type === 'null'))
        nullRejected.add(bare.table);
      return;
    }
    // An expression over one table's columns (functional key part candidates).
    const refs = columnRefs(left);
    if (refs.length === 0) return;
    const owners = new Set(refs.map((ref) => resolve(ref.node)?.table));
    if (owners.size !== 1 || owners.has(undefined)) return;
    const owner = [...owners][0] as number;
    const kind = predicateKind(op, right);
    if (!kind || /LIKE/.test(op)) return;
    push(owner, {
      column: refs[0]?.column ?? '',
      expression: indexExpressionText(sql, left, flavor),
      expressionNode: left,
      kind: kind.kind,
      closed: kind.closed,
      weak: false,
      node,
    });
  }

  function push(table: number, predicate: ColumnPredicate): void {
    let list = access.predicates.get(table);
    if (!list) access.predicates.set(table, (list = []));
    list.push(predicate);
  }

  // ORDER BY / GROUP BY on bare columns of one table.
  const sortItems = (items: unknown[], directions: boolean): { items: SortItem[] | null; other: boolean } => {
    if (items.length === 0) return { items: null, other: false };
    const result: SortItem[] = [];
    for (const item of items) {
      if (!isNode(item)) return { items: null, other: true };
      const expr = directions && isNode(item.expr) ? item.expr : item;
      const resolved = resolve(expr);
      if (!resolved) return { items: null, other: true };
      result.push({
        table: resolved.table,
        column: resolved.column.name,
        desc: directions && String(item.type ?? '').toUpperCase() === 'DESC',
      });
    }
    if (new Set(result.map((item) => item.table)).size !== 1) return { items: null, other: true };
    return { items: result, other: false };
  };
  if (Array.isArray(ast.orderby)) {
    const sorted = sortItems(ast.orderby, true);
    access.orderBy = sorted.items;
    access.orderByOther = sorted.other;
  }
  const groupBy = ast.groupby as { columns?: unknown[] } | unknown[] | null | undefined;
  const groupColumns = Array.isArray(groupBy) ? groupBy : groupBy?.columns;
  if (Array.isArray(groupColumns)) {
    const grouped = sortItems(groupColumns, false);
    access.groupBy = grouped.items;
    access.groupByOther = grouped.other;
  }
  return access;

  function constantSide(node: AstNode): boolean {
    if (hasSubquery(node)) return false;
    return columnRefs(node).every((ref) => {
      // A correlated column of an outer block is constant for this block.
      const qualifier = typeof ref.table === 'string' ? ref.table.toLowerCase() : null;
      if (!qualifier) return false;
      return !access.tables.some(
        (table) => table.visibleName.toLowerCase() === qualifier || table.name.toLowerCase() === qualifier,
      );
    });
  }
}

/**
 * The join equalities of `JOIN t USING (c, …)` and `NATURAL JOIN t` (every column name t shares with the
 * tables before it), added to `access.joins`; returns the (lower-case) names of those columns. Without
 * them a table joined this way looked unconnected, and its own filter got an index the plan never uses
 * (SOAR over Sakila: `city JOIN country USING (country_id) WHERE city.city_id = 59 AND country.country = …`
 * reads country by its primary key after the one city row).
 */
function usingJoins(fromList: unknown[], access: BlockAccess): Set<string> {
  const names = new Set<string>();
  access.tables.forEach((table, index) => {
    const item = fromList[table.position];
    if (!isNode(item)) return;
    const before = access.tables
      .map((candidate, position) => ({ candidate, position }))
      .filter(({ candidate }) => candidate.position < table.position);
    let columns: string[] = [];
    if (Array.isArray(item.using))
      columns = item.using.flatMap((entry: unknown) =>
        isNode(entry) && typeof entry.value === 'string'
          ? [entry.value]
          : typeof entry === 'string'
            ? [entry]
            : [],
      );
    else if (item.natural === true)
      columns = table.info.columns
        .map((column) => column.name)
        .filter((name) => before.some(({ candidate }) => findColumn(candidate.info, name)));
    for (const name of columns) {
      const mine = findColumn(table.info, name);
      if (!mine) continue;
      names.add(mine.name.toLowerCase());
      for (const { candidate, position } of before) {
        const theirs = findColumn(candidate.info, name);
        if (!theirs) continue;
        const node: AstNode = {
          type: 'binary_expr',
          operator: '=',
          left: { type: 'column_ref', table: candidate.visibleName, column: theirs.name },
          right: { type: 'column_ref', table: table.visibleName, column: mine.name },
        };
        access.joins.push({
          left: { table: position, column: theirs.name },
          right: { table: index, column: mine.name },
          node,
        });
      }
    }
  });
  return names;
}

function predicateKind(
  op: string,
  right: AstNode,
): { kind: ColumnPredicate['kind']; closed: boolean } | undefined {
  switch (op) {
    case '=':
    case '<=>':
      return { kind: 'equality', closed: true };
    case 'IN': {
      if (right.type !== 'expr_list' || !Array.isArray(right.value)) return undefined;
      return right.value.length === 1 ? { kind: 'equality', closed: true } : { kind: 'in', closed: true };
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return { kind: 'range', closed: false };
    case 'BETWEEN':
      return { kind: 'range', closed: true };
    default:
      return undefined;
  }
}

function columnPredicate(
  op: string,
  right: AstNode,
  column: ColumnInfo,
  node: AstNode,
): ColumnPredicate | undefined {
  const base = { column: column.name, node, weak: false };
  // A number compared with a string column converts every row's value (CNV001): no seek.
  const literal = literalOf(right);
  if (isStringColumn(column) && (literal?.kind === 'integer' || literal?.kind === 'decimal'))
    return undefined;
  if (op === 'IS') return right.type === 'null' ? { ...base, kind: 'equality', closed: true } : undefined;
  if (op === 'IS NOT')
    return right.type === 'null' ? { ...base, kind: 'range', closed: false, weak: true } : undefined;
  if (op === 'LIKE') {
    const pattern = literalOf(right);
    if (pattern?.kind !== 'string' || pattern.value === '' || /^[%_]/.test(pattern.value)) return undefined;
    if (!/[%_]/.test(pattern.value)) return { ...base, kind: 'equality', closed: true };
    return { ...base, kind: 'range', closed: true };
  }
  const kind = predicateKind(op, right);
  return kind ? { ...base, ...kind } : undefined;
}

function isStar(item: unknown, visibleName: string | null): boolean {
  if (!isNode(item) || !isNode(item.expr)) return false;
  const expr = item.expr;
  if (expr.type === 'star') return visibleName === null;
  if (expr.type !== 'column_ref' || columnName(expr) !== '*') return false;
  const qualifier = typeof expr.table === 'string' ? expr.table : null;
  return visibleName === null
    ? qualifier === null
    : qualifier !== null && qualifier.toLowerCase() === visibleName.toLowerCase();
}

/** The conjuncts of a condition: its top-level AND chain. */
export function conjunctsOf(condition: unknown): AstNode[] {
  if (!isNode(condition)) return [];
  if (condition.type === 'binary_expr' && /^(AND|&&)$/i.test(String(condition.operator)))
    return [...conjunctsOf(condition.left), ...conjunctsOf(condition.right)];
  if (condition.parentheses && condition.type === 'binary_expr') return [condition];
  return [condition];
}

function hasSubquery(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasSubquery);
  if (!isNode(node)) return false;
  if (embeddedSelect(node)) return true;
  for (const key in node) if (key !== 'loc' && hasSubquery(node[key])) return true;
  return false;
}

function blockHasSubquery(ast: AstNode, fromList: unknown[]): boolean {
  return (
    ['columns', 'where', 'having', 'orderby', 'groupby', 'set'].some((key) => hasSubquery(ast[key])) ||
    fromList.some((item) => isNode(item) && hasSubquery(item.on))
  );
}
