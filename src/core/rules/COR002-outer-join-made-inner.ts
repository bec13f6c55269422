// COR002: LEFT JOIN whose outer table is filtered in WHERE: NULL-extended rows are rejected, so it is an inner join.

import { ancestorsOf, isConjunct } from '../advice/sql-edit.js';
import { isNode, type AstNode } from '../sql/ast.js';
import { defineRule, spanOf } from './engine.js';

/** Comparisons that are never true for NULL: they reject the NULL-extended rows of an outer join. */
const NULL_REJECTING = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'LIKE',
  'NOT LIKE',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
]);

export const rule = defineRule({
  meta: {
    id: 'COR002',
    name: 'correctness.outer-join-made-inner',
    category: 'correctness',
    severity: 'warning',
    title: 'Outer join turned into an inner join by WHERE',
    rationale:
      'The rows a LEFT JOIN adds for unmatched outer rows have NULL in every column of the joined table. A WHERE condition on such a column that is never true for NULL removes exactly those rows, so the query returns what an INNER JOIN would — usually not what was meant.',
    appliesTo: ['select', 'update', 'delete'],
    messages: {
      madeInner:
        'WHERE {{expression}} rejects the NULL rows LEFT JOIN {{table}} adds, so the join is an INNER JOIN. Move the condition into ON to keep unmatched rows, or write INNER JOIN if that is meant.',
    },
    docs: {
      antiPattern:
        "SELECT c.id, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.status = 'paid'",
      bestPractice:
        "SELECT c.id, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.status = 'paid'",
      notes: [
        '`o.col IS NULL` (an anti-join) and `<=>` keep the NULL rows and are not reported; neither are conditions inside OR.',
        'Moving the condition into ON is a different query on purpose: it keeps customers without a paid order (with NULLs).',
      ],
    },
    peers: { soar: ['JOI.003'], ptQueryAdvisor: ['JOI.003'] },
  },
  detect(context) {
    const from = Array.isArray(context.ast.from) ? (context.ast.from as AstNode[]) : [];
    const outer = new Set<string>();
    from.forEach((entry, index) => {
      const join = String(entry.join ?? '').toUpperCase();
      const name = (entry.as ?? entry.table) as string | undefined;
      if (/LEFT/.test(join) && name) outer.add(name.toLowerCase());
      if (/RIGHT/.test(join))
        for (const earlier of from.slice(0, index)) {
          const earlierName = (earlier.as ?? earlier.table) as string | undefined;
          if (earlierName) outer.add(earlierName.toLowerCase());
        }
    });
    if (outer.size === 0) return;
    const reported = new Set<string>();
    for (const site of context.sites()) {
      if (site.clause !== 'where' || site.scope.parent !== null) continue;
      if (!site.operator || !NULL_REJECTING.has(site.operator)) continue;
      const column = site.left;
      if (!isNode(column) || column.type !== 'column_ref') continue;
      const [resolved] = context.resolveColumns(site, column);
      const name = resolved?.scopeTable?.visibleName?.toLowerCase();
      if (!name || !outer.has(name) || reported.has(name)) continue;
      if (!isConjunct(ancestorsOf(context.ast, site.node) ?? [])) continue;
      const span = spanOf(site.node);
      if (!span) continue;
      reported.add(name);
      context.report({
        messageId: 'madeInner',
        data: { expression: context.textOf(site.node), table: resolved?.scopeTable?.visibleName ?? name },
        span,
        table: resolved?.table?.name ?? resolved?.scopeTable?.table ?? null,
        columns: [resolved?.info?.name ?? resolved?.column ?? ''],
        expression: context.textOf(site.node),
      });
    }
  },
});
