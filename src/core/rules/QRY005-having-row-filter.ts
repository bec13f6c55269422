// QRY005: a HAVING condition on grouped columns only, with no aggregate: a row filter that belongs in WHERE.
/*
 * Design note.
 * - Reported per top-level AND conjunct of HAVING in a block with GROUP BY, when the conjunct has no
 *   aggregate, no subquery, no non-deterministic function, and every column it names is grouped: a
 *   GROUP BY column (by name, by ordinal `GROUP BY 1`, or by a select-list alias of a plain column),
 *   or a select-list alias of such a column. Then every row of a group has the same value for the
 *   condition's columns (as the grouping collation compares them), so filtering rows before grouping
 *   keeps exactly the groups HAVING keeps — and WHERE can use an index, HAVING cannot.
 * - Not reported: WITH ROLLUP (its super-aggregate rows have NULL in the grouped columns, so
 *   `HAVING a IS NULL` means something else there); HAVING without GROUP BY (MySQL's way to filter on
 *   a select alias, a different question); conditions on non-grouped columns (moving them would
 *   change which rows are aggregated).
 * - A condition that does not respect the column's collation (BINARY, LENGTH() under PAD SPACE) can
 *   tell apart rows that GROUP BY put together: the note says so; no rewrite is offered as equivalent.
 * - The suggestion (advice/having-to-where.ts) moves every row filter of the block into WHERE, aliases
 *   replaced by their columns; equivalent for plain comparisons with constants.
 */

import { columnName, columnRefs, containsAggregate, functionName, isNode, type AstNode } from '../sql/ast.js';
import { havingToWhere } from '../advice/having-to-where.js';
import { defineRule } from './engine.js';
import { andConjuncts, groupByItems, hasRollup, selectBlocks, spanNear } from './utils/statement.js';

const VOLATILE = new Set(['RAND', 'UUID', 'UUID_SHORT', 'SYSDATE', 'NOW', 'CURRENT_TIMESTAMP', 'SLEEP']);

function impure(expression: unknown): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (
      isNode(value.ast) ||
      value.type === 'select' ||
      value.type === 'var' ||
      (value.type === 'function' && VOLATILE.has(functionName(value)))
    ) {
      found = true;
      return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return found;
}

export const rule = defineRule({
  meta: {
    id: 'QRY005',
    name: 'query.having-row-filter',
    category: 'query-shape',
    severity: 'warning',
    title: 'HAVING used as a row filter (belongs in WHERE)',
    rationale:
      'HAVING is applied after every group has been built: a condition on grouped columns alone makes the server read, group and aggregate rows only to throw whole groups away. In WHERE the same condition removes the rows first and can use an index.',
    appliesTo: ['select', 'insert', 'replace'],
    messages: {
      rowFilter:
        'HAVING {{condition}} names only grouped columns ({{columns}}) and no aggregate: move it to WHERE, so rows are filtered before grouping and an index can serve it.',
    },
    docs: {
      antiPattern:
        'SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id HAVING customer_id <> 1660 AND customer_id <> 2',
      bestPractice:
        'SELECT customer_id, COUNT(*) FROM orders WHERE customer_id <> 1660 AND customer_id <> 2 GROUP BY customer_id',
      notes: [
        'Only conditions without aggregates on grouped columns are reported; HAVING COUNT(*) > 1 is what HAVING is for.',
        'The suggested rewrite moves every such condition of the query block into WHERE (after the existing WHERE, aliases replaced by their columns) and keeps the aggregate conditions in HAVING. It is marked equivalent when each moved condition is a comparison of grouped columns with constants (=, <>, <, >, IN, BETWEEN, IS NULL, and AND/OR/NOT of those); LIKE, BINARY and functions are offered as not equivalent.',
        'In WHERE, write the column, not its select-list alias (WHERE cannot see aliases).',
        'Not reported WITH ROLLUP: the super-aggregate rows carry NULL in the grouped columns, which a condition in HAVING sees and one in WHERE does not.',
        'A condition that ignores the column’s collation (BINARY s = …, LENGTH(s) with trailing spaces) can separate rows that GROUP BY put in one group: check such a condition before moving it.',
      ],
    },
    peers: { soar: ['CLA.013'], sqle: ['dml_not_recommend_having'] },
  },
  detect(context) {
    for (const block of selectBlocks(context.ast)) {
      const groups = groupByItems(block);
      if (groups.length === 0 || !isNode(block.having) || hasRollup(block)) continue;
      const items = (Array.isArray(block.columns) ? block.columns : []).filter(isNode);
      const plainColumn = (node: unknown): AstNode | undefined =>
        isNode(node) && node.type === 'column_ref' && columnName(node) !== '*' ? node : undefined;
      const aliasItem = (name: string): AstNode | undefined =>
        items.find((item) => typeof item.as === 'string' && item.as.toLowerCase() === name.toLowerCase());
      // Grouped columns as `qualifier.column` (qualifier may be empty): by name, ordinal or alias.
      const grouped: { table: string | null; column: string }[] = [];
      for (const group of groups) {
        let column = plainColumn(group);
        if (group.type === 'number') column = plainColumn(items[Number(group.value) - 1]?.expr);
        else if (column && !column.table) {
          const aliased = aliasItem(columnName(column) ?? '');
          if (aliased) column = plainColumn(aliased.expr);
        }
        if (column)
          grouped.push({
            table: typeof column.table === 'string' ? column.table.toLowerCase() : null,
            column: (columnName(column) ?? '').toLowerCase(),
          });
      }
      const isGrouped = (table: string | null, column: string): boolean =>
        grouped.some(
          (group) =>
            group.column === column.toLowerCase() &&
            (!group.table || !table || group.table === table.toLowerCase()),
        );
      const found: { conjunct: AstNode; names: string[] }[] = [];
      for (const conjunct of andConjuncts(block.having)) {
        if (containsAggregate(conjunct) || impure(conjunct)) continue;
        const refs = columnRefs(conjunct);
        if (refs.length === 0) continue;
        const names: string[] = [];
        const movable = refs.every((ref) => {
          if (!ref.table) {
            const aliased = aliasItem(ref.column);
            if (aliased) {
              const column = plainColumn(aliased.expr);
              if (!column || containsAggregate(aliased.expr)) return false;
              names.push(columnName(column) ?? ref.column);
              return isGrouped(
                typeof column.table === 'string' ? column.table : null,
                columnName(column) ?? '',
              );
            }
          }
          names.push(ref.column);
          return isGrouped(ref.table, ref.column);
        });
        if (movable) found.push({ conjunct, names });
      }
      if (found.length === 0) continue;
      // One rewrite moves every row filter of the block; each finding offers it.
      const aliases = new Map<string, AstNode>();
      for (const item of items)
        if (typeof item.as === 'string' && plainColumn(item.expr))
          aliases.set(item.as.toLowerCase(), item.expr as AstNode);
      const rewrite = havingToWhere({
        ast: context.ast,
        block,
        conjuncts: found.map((entry) => entry.conjunct),
        aliases,
        flavor: context.flavor,
      });
      for (const { conjunct, names } of found) {
        const text = context.textOf(conjunct);
        context.report({
          messageId: 'rowFilter',
          data: { condition: text, columns: [...new Set(names)].join(', ') },
          span: spanNear(context.sql, conjunct),
          table: null,
          columns: [...new Set(names)],
          expression: text,
          suggestions: rewrite ? [rewrite] : [],
        });
      }
    }
  },
});
