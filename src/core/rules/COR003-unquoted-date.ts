// COR003: a date written without quotes (`created < 2024-01-10`) is arithmetic: 2024 - 1 - 10 = 2013.

import { editStatement, stringNode } from '../advice/sql-edit.js';
import { isTemporalColumn } from '../advice/column-types.js';
import { isNode } from '../sql/ast.js';
import { defineRule, spanOf } from './engine.js';

export const rule = defineRule({
  meta: {
    id: 'COR003',
    name: 'correctness.unquoted-date',
    category: 'correctness',
    severity: 'error',
    title: 'Date written without quotes',
    rationale:
      'Without quotes, 2024-01-10 is a subtraction: the column is compared with the number 2013, which converts to no sensible date, and the query silently returns the wrong rows.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      unquoted:
        "{{text}} is not a date but the number {{value}} (a subtraction): quote it, {{column}} {{operator}} '{{text}}'.",
    },
    docs: {
      antiPattern: 'SELECT id FROM orders WHERE created < 2024-01-10',
      bestPractice: "SELECT id FROM orders WHERE created < '2024-01-10'",
      notes: ['Reported for DATE, DATETIME and TIMESTAMP columns when the column types are known.'],
    },
    peers: { soar: ['LIT.002'], ptQueryAdvisor: ['LIT.002'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      if (site.clause === 'order-by' || site.clause === 'group-by' || !site.operator) continue;
      for (const [columnSide, valueSide] of [
        [site.left, site.right],
        [site.right, site.left],
      ] as const) {
        if (!isNode(columnSide) || columnSide.type !== 'column_ref' || !isNode(valueSide)) continue;
        if (valueSide.type !== 'binary_expr' || valueSide.operator !== '-') continue;
        const text = context.textOf(valueSide).replace(/\s+/g, '');
        // YYYY-MM-DD or YY-MM-DD (both are dates once quoted: '18-01-10' is 2018-01-10).
        const match = /^(\d{2}|\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
        if (!match) continue;
        const [resolved] = context.resolveColumns(site, columnSide);
        if (!resolved?.info || !isTemporalColumn(resolved.info)) continue;
        const span = spanOf(site.node);
        if (!span) continue;
        const edited = editStatement(context.sql, context.ast, valueSide, stringNode(text), context.flavor);
        context.report({
          messageId: 'unquoted',
          data: {
            text,
            value: Number(match[1]) - Number(match[2]) - Number(match[3]),
            column: resolved.column,
            operator: site.operator,
          },
          span,
          table: resolved.table?.name ?? null,
          columns: [resolved.info.name],
          expression: context.textOf(site.node),
          suggestions: edited
            ? [
                {
                  kind: 'rewrite',
                  equivalent: false,
                  ddl: [],
                  rewrittenSql: edited.sql,
                  notes: [
                    'The date the statement meant: a different (correct) query, not an equivalent one.',
                  ],
                },
              ]
            : [],
        });
      }
    }
  },
});
