// DML002: UPDATE/DELETE … LIMIT without ORDER BY: which rows change is up to the plan.

import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'DML002',
    name: 'dml.limit-without-order-by',
    category: 'correctness',
    severity: 'warning',
    title: 'UPDATE or DELETE with LIMIT but no ORDER BY',
    rationale:
      'LIMIT without ORDER BY changes whichever rows the chosen plan reaches first: another index or server version picks other rows. With statement-based binary logging a replica may change different rows than the source (MySQL logs warning 1592, unsafe statement).',
    appliesTo: ['update', 'delete'],
    messages: {
      limitNoOrder:
        '{{verb}} … LIMIT without ORDER BY changes rows the plan happens to reach first: different rows on another server or replica.',
    },
    docs: {
      antiPattern: "DELETE FROM jobs WHERE status = 'done' LIMIT 1000",
      bestPractice: "DELETE FROM jobs WHERE status = 'done' ORDER BY id LIMIT 1000",
      notes: [
        'ORDER BY a unique key makes the rows deterministic; with an index on (status, id) the ordered DELETE also stays a seek.',
        'MariaDB and MySQL do not support LIMIT in multi-table UPDATE/DELETE; this rule concerns the single-table form.',
      ],
    },
    peers: { soar: ['RES.003'], sqle: ['dml_check_with_limit'] },
  },
  detect(context) {
    const ast = context.ast;
    const values = (ast.limit as { value?: unknown[] } | null)?.value;
    if (!Array.isArray(values) || values.length === 0) return;
    if (Array.isArray(ast.orderby) && ast.orderby.length > 0) return;
    const verb = context.kind === 'update' ? 'UPDATE' : 'DELETE';
    context.report({
      messageId: 'limitNoOrder',
      data: { verb },
      span: spanNear(context.sql, null, 'LIMIT'),
      table: null,
      columns: [],
      expression: 'LIMIT',
    });
  },
});
