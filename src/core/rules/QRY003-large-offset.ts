// QRY003: LIMIT … OFFSET n with a large n reads and throws away n rows on every page.

import { isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { limitOf, selectBlocks, spanNear } from './utils/statement.js';

/** From this offset on the skipped rows dominate the page's cost. */
export const LARGE_OFFSET = 1000;

export const rule = defineRule({
  meta: {
    id: 'QRY003',
    name: 'query.large-offset',
    category: 'query-shape',
    severity: 'warning',
    title: 'Large OFFSET in LIMIT',
    rationale:
      'The server cannot jump to row n: OFFSET n reads n rows (and their lookups) and discards them, so page 1,000 costs a thousand times page 1. Keyset pagination remembers the last row of the page and seeks past it.',
    appliesTo: ['select'],
    messages: {
      offset:
        'OFFSET {{offset}} reads and discards {{offset}} rows before returning {{count}}: paginate by the last seen key instead.',
    },
    docs: {
      antiPattern: 'SELECT id, title FROM posts ORDER BY id LIMIT 20 OFFSET 100000',
      bestPractice: 'SELECT id, title FROM posts WHERE id > 100020 ORDER BY id LIMIT 20',
      notes: [
        `Reported from OFFSET ${LARGE_OFFSET} on (literal offsets only; a parameter's value is unknown).`,
        'Keyset pagination needs an ORDER BY on a unique key (or the key appended as a tie-breaker) and the last row of the previous page: `WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 20`. It returns the same pages when no rows are inserted or deleted meanwhile, and it cannot jump to an arbitrary page number.',
      ],
    },
    peers: { soar: ['CLA.003'], sqle: ['dml_check_limit_offset_num'], ptQueryAdvisor: ['CLA.003'] },
  },
  detect(context) {
    for (const block of selectBlocks(context.ast)) {
      const limit = limitOf(block);
      if (limit.offset === undefined || limit.offset < LARGE_OFFSET) continue;
      const order = Array.isArray(block.orderby) ? (block.orderby as { expr?: unknown }[]) : [];
      const keys = order
        .map((item) =>
          isNode(item.expr) && item.expr.type === 'column_ref' ? String(item.expr.column) : null,
        )
        .filter((name): name is string => name !== null);
      const limitNode = (block.limit as { value?: unknown[] } | null)?.value?.[0];
      context.report({
        messageId: 'offset',
        data: { offset: limit.offset, count: limit.count !== undefined ? `${limit.count} rows` : 'the page' },
        span: spanNear(context.sql, limitNode, 'LIMIT'),
        table: null,
        columns: keys,
        expression: `OFFSET ${limit.offset}`,
        notes: [
          keys.length > 0
            ? `Keyset form: WHERE (${keys.join(', ')}) > (last values of the previous page) ORDER BY ${keys.join(', ')} LIMIT ${limit.count ?? 'n'} — with ${keys.length > 1 ? 'these columns' : keys[0]} ending in a unique key; an index starting with them makes each page a seek.`
            : 'Keyset pagination needs an ORDER BY on a unique key: add one, then seek past the last row of the previous page.',
        ],
      });
    }
  },
});
