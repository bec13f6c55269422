// QRY004: SQL_CALC_FOUND_ROWS / FOUND_ROWS(): deprecated in MySQL 8.0.17 and slower than a separate COUNT(*).

import { functionName, isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'QRY004',
    name: 'query.sql-calc-found-rows',
    category: 'query-shape',
    severity: 'warning',
    title: 'SQL_CALC_FOUND_ROWS / FOUND_ROWS()',
    rationale:
      'SQL_CALC_FOUND_ROWS makes the server find every matching row even though LIMIT returns a few, so the index cannot stop early. MySQL deprecated it and FOUND_ROWS() in 8.0.17 (a warning now, removal later); a separate SELECT COUNT(*) is usually faster and can use a covering index.',
    appliesTo: ['select'],
    messages: {
      calc: 'SQL_CALC_FOUND_ROWS reads every matching row despite the LIMIT{{deprecated}}: run a separate SELECT COUNT(*) with the same WHERE.',
      foundRows:
        'FOUND_ROWS() relies on SQL_CALC_FOUND_ROWS{{deprecated}}: count with SELECT COUNT(*) and the same WHERE.',
    },
    docs: {
      antiPattern: 'SELECT SQL_CALC_FOUND_ROWS id, title FROM posts WHERE author_id = 7 LIMIT 20',
      bestPractice: 'SELECT id, title FROM posts WHERE author_id = 7 LIMIT 20',
      notes: [
        'The count query: `SELECT COUNT(*) FROM posts WHERE author_id = 7` (an index on author_id covers it).',
        'MariaDB has not deprecated them, but the cost is the same.',
      ],
    },
    peers: { soar: ['KWR.001'], ptQueryAdvisor: ['KWR.001'] },
  },
  detect(context) {
    const deprecated = context.flavor === 'mariadb' ? '' : ' (deprecated since MySQL 8.0.17, warning 1287)';
    const options = Array.isArray(context.ast.options) ? context.ast.options.map(String) : [];
    if (options.some((option) => option.toUpperCase() === 'SQL_CALC_FOUND_ROWS'))
      context.report({
        messageId: 'calc',
        data: { deprecated },
        span: spanNear(context.sql, null, 'SQL_CALC_FOUND_ROWS'),
        table: null,
        columns: [],
        expression: 'SQL_CALC_FOUND_ROWS',
      });
    let found: unknown;
    const visit = (value: unknown): void => {
      if (found) return;
      if (Array.isArray(value)) return value.forEach(visit);
      if (!isNode(value)) return;
      if (value.type === 'function' && functionName(value) === 'FOUND_ROWS') found = value;
      for (const key in value) if (key !== 'loc') visit(value[key]);
    };
    visit(context.ast);
    if (found)
      context.report({
        messageId: 'foundRows',
        data: { deprecated },
        span: spanNear(context.sql, found, 'FOUND_ROWS'),
        table: null,
        columns: [],
        expression: 'FOUND_ROWS()',
      });
  },
});
