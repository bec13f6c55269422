// MOD004: ONLY_FULL_GROUP_BY — selected or ordered columns neither grouped, aggregated nor functionally dependent → ERROR 1055 (1140 without GROUP BY).
/*
 * Design note.
 * - An expression is fine when its text equals a GROUP BY expression, or when every column it uses
 *   outside aggregate calls is grouped or functionally dependent on the grouped columns. Dependence is
 *   the `functionalDependence` capability (MySQL 5.7.5+); MariaDB implements none: `GROUP BY id` with
 *   another column of the table, or `WHERE b = 'x' … GROUP BY a` selecting b, fail there (verified 10.11).
 * - Dependence as MySQL derives it (manual "Detection of Functional Dependence", each case verified on
 *   8.0.33), computed as a closure over "determined" columns, starting from the grouped ones:
 *   - `col = constant` in a top-level AND of WHERE or an inner join's ON (either side; the constant
 *     may be an expression of literals, not NOW(), RAND(), UUID() or a user variable);
 *   - `a = b` there: each side determines the other; in a LEFT JOIN's ON only the outer side
 *     determines the inner table's column;
 *   - a table whose PRIMARY KEY or NOT NULL UNIQUE key is determined: all of its columns.
 *   Not derived (reported as MySQL does): `<=>`, IS NULL, OR.
 * - ORDER BY items that name a select-list alias are checked through that select item. MariaDB does not
 *   check ORDER BY at all under ONLY_FULL_GROUP_BY (`… GROUP BY a ORDER BY b` runs on 10.11), so only
 *   MySQL's ORDER BY is checked.
 * - GROUP BY 1 (ordinal) and GROUP BY x (a select alias, unless x is also a column of a FROM table:
 *   for GROUP BY the server looks there first) group the select expression they name. `*` and `t.*`
 *   expand to the table's columns (unknown definition: not checked), numbered as the server numbers
 *   them; an ordinal counts the expanded list (`SELECT * … GROUP BY 1` groups the first column).
 *   tests/integration/only-full-group-by.test.ts has both servers judge every fixture.
 * - A derived table `(SELECT … FROM one_table) alias` has that table's columns (and, unrenamed, its
 *   keys) on MySQL, which carries dependence through it; a more complex one is an unknown definition.
 *   MariaDB 10.11 accepts non-grouped derived-table columns, so they are not checked there.
 * - HAVING is not checked: a non-grouped column there is ERROR 1054 (unknown column) on both servers.
 */

import { findColumn, findTable, type TableInfo } from '../model/schema.js';
import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import { spanFor } from '../sqlmode/statement.js';
import { type AstNode, columnName, embeddedSelect, functionName, isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

interface FromTable {
  name: string;
  alias: string | null;
  db: string | null;
  info: TableInfo | undefined;
  /** The join this table is the right side of (`INNER JOIN`, `LEFT JOIN` …), null for the first/comma. */
  join: string | null;
  on: unknown;
  /** A derived table `(SELECT …) alias`: its columns are the subquery's select list. */
  derived: boolean;
}

/** The subquery of a FROM item `(SELECT …) alias`, else null. */
function derivedSelect(item: AstNode): AstNode | null {
  const sub = isNode(item.expr) && isNode(item.expr.ast) ? item.expr.ast : null;
  return sub && sub.type === 'select' && typeof item.as === 'string' && item.as ? sub : null;
}

/**
 * The columns (and keys) of a derived table, for the simple shape whose dependence MySQL carries
 * through: one base table, no join, grouping, DISTINCT, LIMIT, UNION or window; the select list `*`
 * or plain columns (renamed ones lose their key). Anything else: undefined (not checked), since the
 * server may derive dependencies this rule does not follow.
 */
function derivedTable(
  sub: AstNode,
  alias: string,
  schema: Parameters<typeof findTable>[0],
  database: string | null,
): TableInfo | undefined {
  if (sub._next || sub.distinct || sub.groupby || sub.having || sub.limit || sub.window || sub.with)
    return undefined;
  const [base, ...others] = Array.isArray(sub.from) ? sub.from.filter(isNode) : [];
  if (!base || others.length > 0 || typeof base.table !== 'string') return undefined;
  const table = findTable(schema, base.table, typeof base.db === 'string' ? base.db : database);
  if (!table) return undefined;
  const items = Array.isArray(sub.columns) ? sub.columns.filter(isNode) : [];
  const columns: TableInfo['columns'] = [];
  const kept = new Set<string>();
  for (const item of items) {
    const expr = isNode(item.expr) ? item.expr : undefined;
    if (!expr || expr.type !== 'column_ref' || hasAggregate(expr)) return undefined;
    const name = columnName(expr);
    if (name === '*') {
      columns.push(...table.columns);
      for (const column of table.columns) kept.add(column.name.toLowerCase());
      continue;
    }
    const info = name ? findColumn(table, name) : undefined;
    if (!info) return undefined;
    const as = typeof item.as === 'string' && item.as ? item.as : info.name;
    columns.push({ ...info, name: as });
    if (as.toLowerCase() === info.name.toLowerCase()) kept.add(as.toLowerCase());
  }
  const indexes = table.indexes.filter((index) =>
    index.parts.every((part) => part.column !== null && kept.has(part.column.toLowerCase())),
  );
  return { ...table, schema: null, name: alias, columns, indexes, kind: 'view' };
}

interface Ref {
  node: AstNode;
  qualifier: string | null;
  column: string;
}

/** Column references outside aggregate calls and subqueries. */
function bareRefs(expression: unknown): Ref[] {
  const found: Ref[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value) || embeddedSelect(value) || value.type === 'select') return;
    if (value.type === 'aggr_func') return;
    if (value.type === 'column_ref') {
      const column = columnName(value);
      if (column && column !== '*')
        found.push({ node: value, qualifier: typeof value.table === 'string' ? value.table : null, column });
      return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return found;
}

function hasAggregate(expression: unknown): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value) || embeddedSelect(value) || value.type === 'select') return;
    if (value.type === 'aggr_func' && !value.over) {
      found = true;
      return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return found;
}

/** Functions MySQL does not treat as constant for functional dependence (NOW() verified on 8.0.33). */
const NOT_CONSTANT = new Set([
  'RAND',
  'UUID',
  'UUID_SHORT',
  'NOW',
  'SYSDATE',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'CURDATE',
  'CURRENT_DATE',
  'CURTIME',
  'CURRENT_TIME',
  'UNIX_TIMESTAMP',
  'UTC_DATE',
  'UTC_TIME',
  'UTC_TIMESTAMP',
  'CONNECTION_ID',
  'LAST_INSERT_ID',
  'ROW_COUNT',
  'FOUND_ROWS',
  'SLEEP',
  'GET_LOCK',
  'RANDOM_BYTES',
  'USER',
  'CURRENT_USER',
  'SESSION_USER',
  'SYSTEM_USER',
  'DATABASE',
  'SCHEMA',
]);

/** An expression of literals only (no columns, subqueries, variables, parameters or volatile functions). */
function isConstant(expression: unknown): boolean {
  if (!isNode(expression)) return false;
  if (embeddedSelect(expression)) return false;
  switch (expression.type) {
    case 'number':
    case 'single_quote_string':
    case 'double_quote_string':
    case 'natural_string':
    case 'hex_string':
    case 'full_hex_string':
    case 'bit_string':
    case 'bool':
    case 'string':
    case 'date':
    case 'datetime':
    case 'time':
    case 'timestamp':
      return true;
    case 'binary_expr':
      return isConstant(expression.left) && isConstant(expression.right);
    case 'unary_expr':
      return isConstant(expression.expr);
    case 'cast':
      return isConstant(expression.expr);
    case 'function': {
      if (NOT_CONSTANT.has(functionName(expression).toUpperCase())) return false;
      const args = isNode(expression.args) ? expression.args.value : undefined;
      const list: unknown[] = Array.isArray(args) ? args : args === undefined ? [] : [args];
      return list.every(isConstant);
    }
    default:
      return false;
  }
}

/** The top-level AND conjuncts of a condition. */
function conjuncts(condition: unknown): AstNode[] {
  if (!isNode(condition)) return [];
  if (condition.type === 'binary_expr' && String(condition.operator).toUpperCase() === 'AND')
    return [...conjuncts(condition.left), ...conjuncts(condition.right)];
  return [condition];
}

const normalize = (text: string): string => text.replace(/[`\s]/g, '').toLowerCase();

export const rule = defineRule({
  meta: {
    id: 'MOD004',
    name: 'sql-mode.only-full-group-by',
    category: 'sql-mode',
    severity: 'error',
    title: 'Non-aggregated column not in GROUP BY',
    rationale:
      'With ONLY_FULL_GROUP_BY (default since MySQL 5.7.5) every selected or ordered column of a grouped query must be grouped, aggregated or functionally dependent on the grouped columns; otherwise the server refuses the query instead of returning an arbitrary row’s value.',
    appliesTo: ['select'],
    messages: {
      grouped:
        '{{column}} is neither in GROUP BY nor aggregated ({{where}}): ERROR 1055 under ONLY_FULL_GROUP_BY.',
      noGroup:
        '{{column}} is not aggregated but the query aggregates without GROUP BY ({{where}}): ERROR 1140 under ONLY_FULL_GROUP_BY.',
      groupedLax:
        '{{column}} is neither in GROUP BY nor aggregated ({{where}}): the server returns a value from an arbitrary row; ERROR 1055 under ONLY_FULL_GROUP_BY (the MySQL 5.7.5+ default).',
      noGroupLax:
        '{{column}} is not aggregated but the query aggregates without GROUP BY ({{where}}): arbitrary value now; ERROR 1140 under ONLY_FULL_GROUP_BY.',
    },
    docs: {
      antiPattern: 'SELECT profile_id, event_date, COUNT(*) FROM events_t GROUP BY profile_id',
      bestPractice: 'SELECT profile_id, MAX(event_date), COUNT(*) FROM events_t GROUP BY profile_id',
      notes: [
        'Fixes: add the column to GROUP BY, aggregate it (MAX(), MIN(), ANY_VALUE() on MySQL), or group by the primary key of its table (MySQL only).',
        'MariaDB does not recognise functional dependence on a primary key; MySQL does.',
      ],
    },
    peers: { soar: ['RES.001'], ptQueryAdvisor: ['RES.001'] },
  },
  detect(context) {
    const ast = context.ast;
    const columns = Array.isArray(ast.columns) ? ast.columns.filter(isNode) : [];
    if (columns.length === 0) return;
    const groupBy =
      isNode(ast.groupby) && Array.isArray(ast.groupby.columns) ? ast.groupby.columns.filter(isNode) : null;
    const aggregates = columns.some((item) => hasAggregate(item.expr));
    if (!groupBy && !aggregates) return;
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const active = modes.has('ONLY_FULL_GROUP_BY');
    const dependence = context.server.capabilities.functionalDependence;
    const database = context.server.database;

    const from: FromTable[] = (Array.isArray(ast.from) ? ast.from : [])
      .filter(isNode)
      .filter((item) => typeof item.table === 'string' || derivedSelect(item) !== null)
      .map((item) => {
        const derived = derivedSelect(item);
        if (derived)
          return {
            name: String(item.as),
            alias: String(item.as),
            db: null,
            info: derivedTable(derived, String(item.as), context.schema, database),
            join: typeof item.join === 'string' ? item.join.toUpperCase() : null,
            on: item.on,
            derived: true,
          };
        const db = typeof item.db === 'string' ? item.db : null;
        const name = String(item.table);
        return {
          name,
          alias: typeof item.as === 'string' ? item.as : null,
          db,
          info: findTable(context.schema, name, db ?? database),
          join: typeof item.join === 'string' ? item.join.toUpperCase() : null,
          on: item.on,
          derived: false,
        };
      });
    const tableOf = (ref: Ref): FromTable | undefined => {
      if (ref.qualifier) {
        const q = ref.qualifier.toLowerCase();
        return from.find((t) => (t.alias ?? t.name).toLowerCase() === q || t.name.toLowerCase() === q);
      }
      const owners = from.filter((t) => t.info && findColumn(t.info, ref.column));
      if (owners.length === 1) return owners[0];
      return from.length === 1 ? from[0] : undefined;
    };
    // A GROUP BY item names a select-list expression by ordinal (`GROUP BY 1`) or by alias (`GROUP BY x`,
    // unless x is also a column of a FROM table: for GROUP BY the server looks there first); either way
    // the select expression is what is grouped.
    const fromColumn = (name: string): boolean =>
      from.some((table) => table.info !== undefined && findColumn(table.info, name) !== undefined);
    // Ordinals count the select list after `*` / `t.*` expand into the tables' columns (null: unknown).
    const numbered: (AstNode | undefined)[] = [];
    let starUnknown = false;
    for (const item of columns) {
      const expr = isNode(item.expr) ? item.expr : undefined;
      if (!expr || expr.type !== 'column_ref' || columnName(expr) !== '*') {
        numbered.push(expr);
        continue;
      }
      const qualifier = typeof expr.table === 'string' ? expr.table.toLowerCase() : null;
      for (const table of from) {
        if (qualifier && (table.alias ?? table.name).toLowerCase() !== qualifier) continue;
        if (!table.info) starUnknown = true;
        for (const column of table.info?.columns ?? [])
          numbered.push({ type: 'column_ref', table: table.alias ?? table.name, column: column.name });
      }
    }
    const groupExpressions = (groupBy ?? []).map((node): AstNode => {
      if (node.type === 'number' && /^\d+$/.test(String(node.value))) {
        const item = starUnknown ? undefined : numbered[Number(node.value) - 1];
        return item ?? node;
      }
      if (node.type === 'column_ref' && !node.table) {
        const name = (columnName(node) ?? '').toLowerCase();
        const item = columns.find(
          (candidate) => typeof candidate.as === 'string' && candidate.as.toLowerCase() === name,
        );
        if (item && isNode(item.expr) && !fromColumn(name)) return item.expr;
      }
      return node;
    });
    const groupTexts = new Set(
      groupExpressions.map((node) => normalize(context.textOf(node))).filter((text) => text !== ''),
    );
    const groupRefs = groupExpressions
      .filter((node) => node.type === 'column_ref')
      .map((node) => ({
        node,
        qualifier: typeof node.table === 'string' ? node.table : null,
        column: columnName(node) ?? '',
      }));
    const isGrouped = (ref: Ref): boolean =>
      groupRefs.some(
        (group) =>
          group.column.toLowerCase() === ref.column.toLowerCase() &&
          (!group.qualifier || !ref.qualifier || tableOf(group) === tableOf(ref)),
      );
    // Columns determined by the grouped ones (see the design note), as `tableIndex:column` keys.
    const keyOf = (ref: Ref): string | undefined => {
      const table = tableOf(ref);
      return table ? `${from.indexOf(table)}:${ref.column.toLowerCase()}` : undefined;
    };
    const determined = new Set<string>();
    for (const group of groupRefs) {
      const key = keyOf(group);
      if (key) determined.add(key);
    }
    if (dependence && groupBy) {
      const edges: [string | null, string][] = [];
      const refOf = (node: unknown): Ref | undefined =>
        isNode(node) && node.type === 'column_ref'
          ? {
              node,
              qualifier: typeof node.table === 'string' ? node.table : null,
              column: columnName(node) ?? '',
            }
          : undefined;
      const equalities = (condition: unknown, inner: FromTable | null): void => {
        for (const conjunct of conjuncts(condition)) {
          if (conjunct.type !== 'binary_expr' || conjunct.operator !== '=') continue;
          const [left, right] = [refOf(conjunct.left), refOf(conjunct.right)];
          const [leftKey, rightKey] = [left && keyOf(left), right && keyOf(right)];
          const into = (key: string | undefined, ref: Ref | undefined): boolean =>
            Boolean(key) && (!inner || tableOf(ref as Ref) === inner);
          if (leftKey && rightKey) {
            if (into(rightKey, right)) edges.push([leftKey, rightKey]);
            if (into(leftKey, left)) edges.push([rightKey, leftKey]);
          } else if (!inner && leftKey && isConstant(conjunct.right)) edges.push([null, leftKey]);
          else if (!inner && rightKey && isConstant(conjunct.left)) edges.push([null, rightKey]);
        }
      };
      equalities(ast.where, null);
      for (const table of from) {
        if (!table.on) continue;
        if (table.join === 'LEFT JOIN' || table.join === 'LEFT OUTER JOIN') equalities(table.on, table);
        else if (table.join === null || /^(INNER |CROSS |STRAIGHT_)?JOIN$/.test(table.join))
          equalities(table.on, null);
      }
      for (let changed = true; changed;) {
        changed = false;
        const add = (key: string): void => {
          if (determined.has(key)) return;
          determined.add(key);
          changed = true;
        };
        for (const [source, target] of edges) if (source === null || determined.has(source)) add(target);
        from.forEach((table, index) => {
          const info = table.info;
          if (!info) return;
          const keyed = info.indexes.some(
            (key) =>
              (key.primary || key.unique) &&
              key.parts.length > 0 &&
              key.parts.every(
                (part) =>
                  part.column !== null &&
                  !part.prefixLength &&
                  determined.has(`${index}:${part.column.toLowerCase()}`) &&
                  (key.primary || findColumn(info, part.column)?.nullable === false),
              ),
          );
          if (keyed) for (const column of info.columns) add(`${index}:${column.name.toLowerCase()}`);
        });
      }
    }
    const dependent = (ref: Ref): boolean => {
      const key = keyOf(ref);
      return key !== undefined && determined.has(key);
    };
    const qualifiedName = (ref: Ref): string => {
      const table = tableOf(ref);
      if (!table) return ref.column;
      const db = table.db ?? database;
      const column = (table.info && findColumn(table.info, ref.column)?.name) ?? ref.column;
      return `${db && !table.derived ? `${db}.` : ''}${table.info?.name ?? table.name}.${column}`;
    };
    const reported = new Set<string>();
    const check = (
      expression: unknown,
      position: number,
      clause: 'SELECT list' | 'ORDER BY clause',
      refs: Ref[] = bareRefs(expression),
    ): void => {
      if (groupBy && groupTexts.has(normalize(context.textOf(expression)))) return;
      for (const ref of refs) {
        if (groupBy && (isGrouped(ref) || dependent(ref))) continue;
        // MariaDB 10.11 does not check a derived table's columns under ONLY_FULL_GROUP_BY (accepted).
        if (context.flavor === 'mariadb' && tableOf(ref)?.derived) continue;
        const column = qualifiedName(ref);
        if (reported.has(column)) continue;
        reported.add(column);
        const where = `expression #${position} of the ${clause}`;
        const code = groupBy ? 1055 : 1140;
        context.report({
          messageId: groupBy ? (active ? 'grouped' : 'groupedLax') : active ? 'noGroup' : 'noGroupLax',
          data: { column, where },
          severity: active ? 'error' : 'info',
          span: spanFor(context.sql, ref.node, columnName(ref.node) === '*' ? '*' : ref.column),
          table: tableOf(ref)?.info?.name ?? tableOf(ref)?.name ?? null,
          columns: [ref.column],
          expression: context.textOf(expression) || ref.column,
          ...(active
            ? { predictedError: predictError(code, context.flavor, { position, clause, column }) }
            : {}),
          notes: [
            `Fix: add ${ref.column} to GROUP BY, or aggregate it (MAX(${ref.column}), MIN(${ref.column})${context.flavor === 'mariadb' ? '' : `, ANY_VALUE(${ref.column})`}).`,
            ...(dependence && !tableOf(ref)?.info
              ? ['The table definition is unknown, so dependence on a grouped primary key was not checked.']
              : []),
          ],
        });
      }
    };
    const aliases = new Map<string, AstNode>();
    // The server numbers select expressions after expanding `*` / `t.*` into the tables' columns.
    let position = 0;
    columns.forEach((item) => {
      if (typeof item.as === 'string') aliases.set(item.as.toLowerCase(), item);
      const expr = item.expr;
      if (isNode(expr) && expr.type === 'column_ref' && columnName(expr) === '*') {
        const qualifier = typeof expr.table === 'string' ? expr.table.toLowerCase() : null;
        for (const table of from) {
          if (qualifier && (table.alias ?? table.name).toLowerCase() !== qualifier) continue;
          // Unknown definition: its columns (and how many there are) are unknown, so the rest is not checked.
          if (!table.info) return;
          for (const column of table.info.columns) {
            position += 1;
            const ref: Ref = { node: expr, qualifier: table.alias ?? table.name, column: column.name };
            if (groupBy) check(ref.node, position, 'SELECT list', [ref]);
          }
        }
        return;
      }
      position += 1;
      check(expr, position, 'SELECT list');
    });
    // MariaDB does not check ORDER BY under ONLY_FULL_GROUP_BY (verified on 10.11).
    if (!groupBy || context.flavor === 'mariadb') return;
    const orderBy = Array.isArray(ast.orderby) ? ast.orderby.filter(isNode) : [];
    orderBy.forEach((item, index) => {
      const expr = item.expr;
      if (
        isNode(expr) &&
        expr.type === 'column_ref' &&
        !expr.table &&
        aliases.has((columnName(expr) ?? '').toLowerCase())
      )
        return;
      if (isNode(expr) && expr.type === 'number') return;
      check(expr, index + 1, 'ORDER BY clause');
    });
  },
});
