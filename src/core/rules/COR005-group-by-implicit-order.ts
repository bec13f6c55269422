// COR005: GROUP BY without ORDER BY on MySQL 8.0+: the groups come back in no particular order.
/*
 * Design note.
 * - MySQL 5.7 and earlier sorted a GROUP BY result by the grouped columns (ORDER BY NULL turned it
 *   off); MySQL 8.0 removed the implicit sort (and GROUP BY … ASC/DESC, MOD011). MariaDB still sorts.
 *   Proven in tests/integration/advice-rules-shape.test.ts: the same query's EXPLAIN has "Using
 *   filesort" on MariaDB 10.11 and not on MySQL 8.0.33, and the rule fires exactly where it is absent.
 * - Reported for the statement's outermost SELECT (what the client reads) with GROUP BY and no ORDER
 *   BY, when the target is MySQL (or Percona Server) 8.0 or later. A warning with LIMIT (which groups
 *   are returned changes, not only their order), otherwise info. Not reported WITH ROLLUP (the
 *   super-aggregate rows need sorted groups, and MySQL still returns them in order) nor inside
 *   subqueries, derived tables or INSERT … SELECT (their order is not observable).
 */

import { parseVersion, satisfies } from '../flavors/version.js';
import { defineRule } from './engine.js';
import { groupByItems, hasRollup, limitOf, spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'COR005',
    name: 'correctness.group-by-implicit-order',
    category: 'correctness',
    severity: 'info',
    title: 'GROUP BY result order relied on (MySQL 8.0 no longer sorts it)',
    rationale:
      'Up to MySQL 5.7 a GROUP BY result came back sorted by the grouped columns. MySQL 8.0 removed that implicit sort: without ORDER BY the groups arrive in whatever order the plan produces (hash or index order), and with LIMIT a different set of groups can be returned after an upgrade.',
    appliesTo: ['select'],
    flavors: { mysql: '>=8.0' },
    messages: {
      unordered:
        'GROUP BY {{groups}} without ORDER BY: since MySQL 8.0 the groups are not sorted; add ORDER BY {{groups}} if the order matters.',
      unorderedLimit:
        'GROUP BY {{groups}} … LIMIT without ORDER BY: since MySQL 8.0 the groups are not sorted, so LIMIT keeps whichever groups the plan produces first; add ORDER BY {{groups}}.',
    },
    docs: {
      antiPattern: 'SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id LIMIT 10',
      bestPractice:
        'SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id ORDER BY customer_id LIMIT 10',
      notes: [
        'MariaDB still sorts GROUP BY results (ORDER BY NULL turns it off there), so the rule does not report on MariaDB targets.',
        'Only the outermost SELECT is checked: the order of a subquery or derived table is not observable.',
        'ORDER BY NULL says "any order" on purpose and is not reported.',
      ],
    },
    peers: { soar: ['CLA.008'], sqle: ['dml_hint_group_by_requires_conditions'] },
  },
  detect(context) {
    if (context.flavor === 'mariadb') return;
    const version = parseVersion(context.server.version);
    if (!version || !satisfies(version, '>=8.0')) return;
    const block = context.ast;
    if (block.type !== 'select' || block._next) return;
    const groups = groupByItems(block);
    if (groups.length === 0 || hasRollup(block)) return;
    if (Array.isArray(block.orderby) && block.orderby.length > 0) return;
    const text = groups
      .map((group) => context.textOf(group) || String(group.value ?? group.column ?? '?'))
      .join(', ');
    const limited = limitOf(block).present;
    context.report({
      messageId: limited ? 'unorderedLimit' : 'unordered',
      data: { groups: text },
      ...(limited ? { severity: 'warning' as const } : {}),
      span: spanNear(context.sql, null, 'GROUP BY'),
      table: null,
      columns: [],
      expression: `GROUP BY ${text}`,
    });
  },
});
