// QRY001: SELECT * in the result list: more columns than needed, no covering index, and a result that changes with the table.

import { isNode, type AstNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'QRY001',
    name: 'query.select-star',
    category: 'query-shape',
    severity: 'info',
    title: 'SELECT * reads every column',
    rationale:
      'SELECT * sends every column, including TEXT/BLOB ones, and makes a covering index impossible: the server must read the full row for each match. The result also changes shape when a column is added, which breaks code that reads by position.',
    appliesTo: ['select', 'insert', 'replace'],
    messages: {
      star: '{{star}} reads every column of {{tables}}: name the columns the caller uses, so an index with them can cover the query.',
    },
    docs: {
      antiPattern: 'SELECT * FROM orders WHERE customer_id = 7',
      bestPractice: 'SELECT id, total FROM orders WHERE customer_id = 7',
      notes: [
        'Off by default (it would flag most ad-hoc queries): enable it with `sargable analyze --enable QRY001`, the Findings panel’s "Opt-in rules" checkbox, or the analysis option enabledRules: ["QRY001"].',
        'Not reported inside EXISTS (…) or for COUNT(*): they read no column values.',
        'Reported once per query block (each UNION part or derived table separately).',
      ],
    },
    optIn: true,
    peers: { soar: ['COL.001'], sqle: ['dml_disable_select_all_column'], ptQueryAdvisor: ['COL.001'] },
  },
  detect(context) {
    const blocks: { block: AstNode; inExists: boolean }[] = [];
    const visit = (value: unknown, inExists: boolean): void => {
      if (Array.isArray(value)) return value.forEach((item) => visit(item, inExists));
      if (!isNode(value)) return;
      if (value.type === 'select') blocks.push({ block: value, inExists });
      const exists = value.type === 'function' && /EXISTS/i.test(JSON.stringify(value.name ?? ''));
      for (const key in value) if (key !== 'loc') visit(value[key], inExists || exists);
    };
    visit(context.ast, false);
    for (const { block, inExists } of blocks) {
      if (inExists) continue;
      const columns = Array.isArray(block.columns) ? (block.columns as { expr?: AstNode }[]) : [];
      const star = columns.find((column) => column.expr?.type === 'column_ref' && column.expr.column === '*');
      if (!star?.expr || !Array.isArray(block.from)) continue;
      const qualifier = typeof star.expr.table === 'string' ? star.expr.table : null;
      const tables = (block.from as { table?: string; as?: string | null }[])
        .map((from) => from.as ?? from.table)
        .filter((name): name is string => typeof name === 'string' && (!qualifier || name === qualifier));
      if (tables.length === 0) continue;
      const text = qualifier ? `${qualifier}.*` : '*';
      context.report({
        messageId: 'star',
        data: { star: `SELECT ${text}`, tables: tables.join(', ') },
        span: spanNear(context.sql, star.expr, text),
        table: tables.length === 1 ? (tables[0] ?? null) : null,
        columns: [],
        expression: text,
      });
    }
  },
});
