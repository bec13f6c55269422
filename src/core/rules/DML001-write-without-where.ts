// DML001: UPDATE or DELETE without WHERE changes every row of the table.

import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'DML001',
    name: 'dml.write-without-where',
    category: 'correctness',
    severity: 'error',
    title: 'UPDATE or DELETE without WHERE',
    rationale:
      'Without a WHERE clause the statement changes every row of the table (a LIMIT only caps how many). It is usually a mistake, and it locks every row while it runs.',
    appliesTo: ['update', 'delete'],
    messages: {
      noWhere:
        '{{verb}} without WHERE changes every row of {{table}}{{limited}}. Add the condition, or write WHERE TRUE if all rows are meant.',
    },
    docs: {
      antiPattern: "UPDATE users SET status = 'inactive'",
      bestPractice: "UPDATE users SET status = 'inactive' WHERE last_login < '2020-01-01'",
      notes: [
        'To empty a table on purpose, TRUNCATE TABLE is faster (but resets AUTO_INCREMENT and cannot be rolled back); an explicit `WHERE TRUE` documents the intent and silences this rule.',
        "MySQL's sql_safe_updates (mysql --safe-updates) refuses these statements with ERROR 1175.",
      ],
    },
    peers: {
      soar: ['CLA.015', 'CLA.014'],
      sqle: ['dml_check_update_or_delete_has_where', 'all_check_where_is_invalid'],
    },
  },
  detect(context) {
    const ast = context.ast;
    if (ast.where) return;
    const verb = context.kind === 'update' ? 'UPDATE' : 'DELETE';
    const tables = (Array.isArray(ast.table) ? ast.table : Array.isArray(ast.from) ? ast.from : []) as {
      table?: string;
    }[];
    const table = tables.map((entry) => entry.table).find((name): name is string => typeof name === 'string');
    const limited = Array.isArray((ast.limit as { value?: unknown[] } | null)?.value)
      ? ' (up to the LIMIT)'
      : '';
    context.report({
      messageId: 'noWhere',
      data: { verb, table: table ?? 'the table', limited },
      span: spanNear(context.sql, null, verb),
      table: table ?? null,
      columns: [],
      expression: verb,
    });
  },
});
