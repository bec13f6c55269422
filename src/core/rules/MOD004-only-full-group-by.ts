// MOD004: ONLY_FULL_GROUP_BY — selected or ordered columns neither grouped, aggregated nor functionally dependent → ERROR 1055 (1140 without GROUP BY).
/*
 * Design note.
 * - An expression is fine when its text equals a GROUP BY expression, or when every column it uses
 *   outside aggregate calls is grouped or (MySQL only, FAMILY_BEHAVIOUR.functionalDependence) belongs to a
 *   table whose PRIMARY KEY or NOT NULL UNIQUE key is fully grouped. MariaDB implements no functional
 *   dependence: `GROUP BY id` with another column of the same table fails there (verified on 10.11).
 * - MySQL also derives dependence from `WHERE col = constant` and from join equalities; this rule does
 *   not, so it can over-report on MySQL for such queries (the finding says so).
 * - ORDER BY items that name a select-list alias are checked through that select item.
 * - HAVING is not checked: a non-grouped column there is ERROR 1054 (unknown column) on both servers.
 */

import { findColumn, findTable, type TableInfo } from '../model/schema.js';
import { FAMILY_BEHAVIOUR } from '../sqlmode/data.js';
import { modeFamily, predictError, sqlModeSet } from '../sqlmode/modes.js';
import { spanFor } from '../sqlmode/statement.js';
import { columnName, embeddedSelect, isNode } from '../sql/ast.js';
import type { AstNode } from '../sql/parse.js';
import { defineRule } from './engine.js';

interface FromTable {
  name: string;
  alias: string | null;
  db: string | null;
  info: TableInfo | undefined;
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
    for (const [key, child] of Object.entries(value)) if (key !== 'loc') visit(child);
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
    for (const [key, child] of Object.entries(value)) if (key !== 'loc') visit(child);
  };
  visit(expression);
  return found;
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
    const behaviour = FAMILY_BEHAVIOUR[modeFamily(context.flavor)];
    const database = context.server.database;

    const from: FromTable[] = (Array.isArray(ast.from) ? ast.from : [])
      .filter(isNode)
      .filter((item) => typeof item.table === 'string')
      .map((item) => {
        const db = typeof item.db === 'string' ? item.db : null;
        const name = String(item.table);
        return {
          name,
          alias: typeof item.as === 'string' ? item.as : null,
          db,
          info: findTable(context.schema, name, db ?? database),
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
    const groupTexts = new Set((groupBy ?? []).map((node) => normalize(context.textOf(node))));
    const groupRefs = (groupBy ?? [])
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
    const dependent = (table: FromTable | undefined): boolean => {
      if (!behaviour.functionalDependence || !table?.info) return false;
      const grouped = new Set(
        groupRefs.filter((group) => tableOf(group) === table).map((group) => group.column.toLowerCase()),
      );
      return table.info.indexes.some(
        (index) =>
          (index.primary || index.unique) &&
          index.parts.length > 0 &&
          index.parts.every((part) => {
            if (!part.column || part.prefixLength) return false;
            const info = findColumn(table.info as TableInfo, part.column);
            return grouped.has(part.column.toLowerCase()) && (index.primary || info?.nullable === false);
          }),
      );
    };
    const qualifiedName = (ref: Ref): string => {
      const table = tableOf(ref);
      if (!table) return ref.column;
      const db = table.db ?? database;
      const column = (table.info && findColumn(table.info, ref.column)?.name) ?? ref.column;
      return `${db ? `${db}.` : ''}${table.info?.name ?? table.name}.${column}`;
    };
    const reported = new Set<string>();
    const check = (
      expression: unknown,
      position: number,
      clause: 'SELECT list' | 'ORDER BY clause',
    ): void => {
      if (groupBy && groupTexts.has(normalize(context.textOf(expression)))) return;
      for (const ref of bareRefs(expression)) {
        if (groupBy && (isGrouped(ref) || dependent(tableOf(ref)))) continue;
        const column = qualifiedName(ref);
        if (reported.has(column)) continue;
        reported.add(column);
        const where = `expression #${position} of the ${clause}`;
        const code = groupBy ? 1055 : 1140;
        context.report({
          messageId: groupBy ? (active ? 'grouped' : 'groupedLax') : active ? 'noGroup' : 'noGroupLax',
          data: { column, where },
          severity: active ? 'error' : 'info',
          span: spanFor(context.sql, ref.node, ref.column),
          table: tableOf(ref)?.info?.name ?? tableOf(ref)?.name ?? null,
          columns: [ref.column],
          expression: context.textOf(expression) || ref.column,
          ...(active
            ? { predictedError: predictError(code, context.flavor, { position, clause, column }) }
            : {}),
          notes: [
            `Fix: add ${ref.column} to GROUP BY, or aggregate it (MAX(${ref.column}), MIN(${ref.column})${context.flavor === 'mariadb' ? '' : `, ANY_VALUE(${ref.column})`}).`,
            ...(behaviour.functionalDependence && !tableOf(ref)?.info
              ? ['The table definition is unknown, so dependence on a grouped primary key was not checked.']
              : []),
          ],
        });
      }
    };
    const aliases = new Map<string, AstNode>();
    columns.forEach((item, index) => {
      if (typeof item.as === 'string') aliases.set(item.as.toLowerCase(), item);
      if (item.expr && isNode(item.expr) && item.expr.type === 'column_ref' && columnName(item.expr) === '*')
        return;
      check(item.expr, index + 1, 'SELECT list');
    });
    if (!groupBy) return;
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
