// COR004: COUNT(col) over a NULLable column counts non-NULL values, not rows.
/*
 * Design note.
 * - COUNT(expr) counts the rows where expr IS NOT NULL; COUNT(*) counts rows. The two differ exactly
 *   when the column holds NULLs, so the rule needs the column's definition and reports only a
 *   NULLable column of a base table (unknown table or NOT NULL column: nothing to say).
 * - Not reported for the NULL-supplying side of an outer join (`COUNT(o.id)` after `LEFT JOIN o`
 *   counts the matches, the usual idiom), for COUNT(DISTINCT …) (it ignores NULLs by design) and for
 *   window COUNT(…) OVER (…) (same semantics, but reported would be noise of the same kind).
 * - COUNT(1) / COUNT(constant) count rows like COUNT(*): not a correctness question, not reported.
 */

import { findColumn, findTable } from '../model/schema.js';
import { columnName, isNode, type AstNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { selectBlocks, spanNear } from './utils/statement.js';

interface FromEntry {
  table?: string;
  as?: string | null;
  db?: string | null;
  join?: string;
}

export const rule = defineRule({
  meta: {
    id: 'COR004',
    name: 'correctness.count-nullable-column',
    category: 'correctness',
    severity: 'info',
    title: 'COUNT(column) over a NULLable column',
    rationale:
      'COUNT(col) counts the rows where col is not NULL, COUNT(*) counts rows. On a NULLable column the two differ as soon as one NULL is stored, and a query meant to count rows silently undercounts.',
    appliesTo: ['select', 'insert', 'replace'],
    messages: {
      nullable:
        'COUNT({{column}}) skips the rows where {{column}} is NULL ({{column}} is NULLable): write COUNT(*) to count rows; keep COUNT({{column}}) only if non-NULL values are what you mean.',
    },
    docs: {
      antiPattern: 'SELECT customer_id, COUNT(shipped_at) AS orders FROM orders GROUP BY customer_id',
      bestPractice: 'SELECT customer_id, COUNT(*) AS orders FROM orders GROUP BY customer_id',
      notes: [
        'COUNT(*) is never slower: InnoDB counts through the smallest index, and COUNT(col) must also read col.',
        'Not reported for a column of the NULL-supplying side of an outer join: COUNT(o.id) after LEFT JOIN o counts the matches, which COUNT(*) would not.',
        'Not reported for COUNT(DISTINCT …), for NOT NULL columns (COUNT(col) equals COUNT(*) there) or when the table definition is unknown.',
      ],
    },
    peers: { soar: ['FUN.005'], sqle: ['dml_hint_count_func_with_col'] },
  },
  detect(context) {
    const database = context.server.database;
    for (const block of selectBlocks(context.ast)) {
      const from = (Array.isArray(block.from) ? block.from : []).filter(isNode) as FromEntry[];
      const joins = from.map((entry) =>
        String(entry.join ?? '')
          .toUpperCase()
          .replace(/\s+/g, ''),
      );
      const rightAt = joins.findIndex((join) => join.startsWith('RIGHT'));
      // Tables whose columns may be NULL-extended by an outer join of this block.
      const nullSupplying = (index: number): boolean =>
        joins[index]?.startsWith('LEFT') === true ||
        joins[index]?.startsWith('FULL') === true ||
        (rightAt >= 0 && index < rightAt);
      const count = (node: AstNode): void => {
        const args = node.args as { distinct?: unknown; expr?: unknown } | undefined;
        if (args?.distinct || node.over) return;
        const expr = args?.expr;
        if (!isNode(expr) || expr.type !== 'column_ref') return;
        const column = columnName(expr);
        if (!column || column === '*') return;
        const qualifier = typeof expr.table === 'string' ? expr.table.toLowerCase() : null;
        const candidates = from
          .map((entry, index) => ({ entry, index }))
          .filter(({ entry }) => typeof entry.table === 'string')
          .map(({ entry, index }) => ({
            entry,
            index,
            info: findTable(context.schema, entry.table as string, entry.db ?? database),
          }))
          .filter(({ entry, info }) =>
            qualifier
              ? (entry.as ?? entry.table ?? '').toLowerCase() === qualifier ||
                (!entry.as && entry.table?.toLowerCase() === qualifier)
              : Boolean(info && findColumn(info, column)),
          );
        if (candidates.length !== 1) return;
        const [{ index, info }] = candidates as [(typeof candidates)[number]];
        const definition = info ? findColumn(info, column) : undefined;
        if (!info || !definition?.nullable || nullSupplying(index)) return;
        context.report({
          messageId: 'nullable',
          data: { column: definition.name },
          span: spanNear(context.sql, node, 'COUNT'),
          table: info.name,
          columns: [definition.name],
          expression: `COUNT(${context.textOf(expr) || definition.name})`,
        });
      };
      const visit = (value: unknown): void => {
        if (Array.isArray(value)) return value.forEach(visit);
        if (!isNode(value) || value.type === 'select' || isNode(value.ast)) return;
        if (value.type === 'aggr_func' && String(value.name).toUpperCase() === 'COUNT') count(value);
        for (const key in value) if (key !== 'loc') visit(value[key]);
      };
      visit([block.columns, block.having, block.orderby]);
    }
  },
});
