// DML003: INSERT/REPLACE without a column list depends on the table's column order.

import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'DML003',
    name: 'dml.insert-without-column-list',
    category: 'correctness',
    severity: 'warning',
    title: 'INSERT without a column list',
    rationale:
      'Without a column list the values go to the columns in table order. Adding, dropping or reordering a column makes the statement fail (ERROR 1136) or, worse, store values in the wrong columns when the types still convert.',
    appliesTo: ['insert', 'replace'],
    messages: {
      noColumns:
        '{{verb}} INTO {{table}} without a column list depends on the order of its columns: name them.',
    },
    docs: {
      antiPattern: "INSERT INTO users VALUES (1, 'ada', 'ada@example.com')",
      bestPractice: "INSERT INTO users (id, name, email) VALUES (1, 'ada', 'ada@example.com')",
      notes: ['INSERT … SET col = value names its columns and is not reported.'],
    },
    peers: { soar: ['COL.002'], sqle: ['dml_check_insert_columns_exist'], ptQueryAdvisor: ['COL.002'] },
  },
  detect(context) {
    const ast = context.ast;
    if (Array.isArray(ast.columns) && ast.columns.length > 0) return;
    if (ast.set) return;
    const verb = context.kind === 'replace' ? 'REPLACE' : 'INSERT';
    const table = (Array.isArray(ast.table) ? (ast.table as { table?: string }[]) : [])[0]?.table;
    context.report({
      messageId: 'noColumns',
      data: { verb, table: table ?? 'the table' },
      span: spanNear(context.sql, null, verb),
      table: table ?? null,
      columns: [],
      expression: verb,
    });
  },
});
