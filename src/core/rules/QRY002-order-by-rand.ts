// QRY002: ORDER BY RAND() sorts the whole result to keep a few rows.

import { functionName, isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { limitOf, selectBlocks, spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'QRY002',
    name: 'query.order-by-rand',
    category: 'query-shape',
    severity: 'warning',
    title: 'ORDER BY RAND()',
    rationale:
      'ORDER BY RAND() computes a random number for every row that passes the WHERE clause, writes them all to a temporary table and sorts it (EXPLAIN: Using temporary; Using filesort), only to keep LIMIT rows. The cost grows with the table, not with the rows returned.',
    appliesTo: ['select', 'update', 'delete'],
    messages: {
      rand: 'ORDER BY RAND() sorts every matching row to return {{limit}}: the cost grows with the table.',
    },
    docs: {
      antiPattern: 'SELECT id, name FROM products ORDER BY RAND() LIMIT 1',
      bestPractice:
        'SELECT id, name FROM products WHERE id >= (SELECT FLOOR(RAND() * MAX(id)) FROM products) ORDER BY id LIMIT 1',
      notes: [
        'The best practice picks a random starting key and seeks from it: cheap, but ids with gaps before them are picked more often. Where a uniform choice matters, pick a random offset in the application from COUNT(*), or keep a dense sequence column.',
      ],
    },
    peers: { soar: ['CLA.002'], sqle: ['dml_not_recommend_order_by_rand'], ptQueryAdvisor: ['CLA.002'] },
  },
  detect(context) {
    const blocks = [...selectBlocks(context.ast), ...(context.ast.type !== 'select' ? [context.ast] : [])];
    for (const block of blocks) {
      const order = Array.isArray(block.orderby) ? (block.orderby as { expr?: unknown }[]) : [];
      const rand = order.find(
        (item) => isNode(item.expr) && item.expr.type === 'function' && functionName(item.expr) === 'RAND',
      );
      if (!rand) continue;
      const limit = limitOf(block);
      context.report({
        messageId: 'rand',
        data: {
          limit:
            limit.count !== undefined ? `${limit.count} row${limit.count === 1 ? '' : 's'}` : 'all of them',
        },
        span: spanNear(context.sql, rand.expr, 'RAND()'),
        table: null,
        columns: [],
        expression: 'ORDER BY RAND()',
      });
    }
  },
});
