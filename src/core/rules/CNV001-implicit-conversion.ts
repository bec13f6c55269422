// CNV001: a string column compared with a number: the server compares as numbers, row by row, and no index helps.

import { plainIndexAdvice } from '../advice/plain-index.js';
import { isStringColumn } from '../advice/column-types.js';
import { literalOf } from '../advice/literals.js';
import { editStatement, stringNode } from '../advice/sql-edit.js';
import { type AstNode, isNode } from '../sql/ast.js';
import { defineRule, spanOf } from './engine.js';
import { columnComparisons } from './utils/column-comparisons.js';

export const rule = defineRule({
  meta: {
    id: 'CNV001',
    name: 'predicate.implicit-conversion',
    category: 'implicit-conversion',
    severity: 'warning',
    title: 'String column compared with a number',
    rationale:
      'When a string column is compared with a number, both sides are converted to numbers for every row (MySQL warning 1739, MariaDB note 1105), so no index on the column can be used. A number column compared with a string is fine.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      numberLiteral:
        '{{column}} is a {{type}} column compared with the number {{value}}: every row is converted to a number, so an index on {{column}} cannot be used.',
    },
    docs: {
      antiPattern: 'SELECT id FROM customers WHERE phone = 4155550123',
      bestPractice: "SELECT id FROM customers WHERE phone = '4155550123'",
      notes: [
        "Quoting the number is recommended but not equivalent: the numeric comparison also matches '04155550123' and ' 4155550123'.",
        'Needs column types (live schema or DDL); with an unknown schema nothing is reported.',
      ],
    },
    peers: { soar: ['ARG.003'], sqle: ['dml_check_where_exist_implicit_conversion'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      for (const { column: columnSide, values } of columnComparisons(site)) {
        const numbers = values.filter((value) => {
          const literal = literalOf(value);
          return literal?.kind === 'integer' || literal?.kind === 'decimal';
        });
        if (numbers.length === 0) continue;
        const [resolved] = context.resolveColumns(site, columnSide);
        if (!resolved?.info || !isStringColumn(resolved.info)) continue;
        const span = spanOf(site.node);
        if (!span) continue;
        const quoted = replaceIn(
          site.node,
          new Map(numbers.map((number) => [number, stringNode(String(number.value))])),
        );
        const edited = editStatement(context.sql, context.ast, site.node, quoted, context.flavor);
        // The index serves the quoted query only: the numeric comparison never uses it.
        const index = resolved.table
          ? plainIndexAdvice(resolved.table, resolved.info.name, [], edited?.sql)
          : {};
        context.report({
          messageId: 'numberLiteral',
          data: {
            column: resolved.column,
            type: resolved.info.dataType.toUpperCase(),
            value: context.textOf(numbers[0]) || String(numbers[0]?.value),
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
                    ...(index.note ? [index.note] : []),
                    `Recommended, but not equivalent: the numeric comparison also matches strings such as '0${String(numbers[0]?.value)}' or ' ${String(numbers[0]?.value)}' (leading zeros, spaces); the quoted literal matches only the exact string under the column's collation.`,
                  ],
                },
                ...(index.suggestion ? [index.suggestion] : []),
              ]
            : [],
        });
      }
    }
  },
});

function replaceIn(node: AstNode, replacements: ReadonlyMap<AstNode, AstNode>): AstNode {
  const copy = (value: unknown): unknown => {
    const replacement = isNode(value) ? replacements.get(value) : undefined;
    if (replacement) return replacement;
    if (Array.isArray(value)) return value.map(copy);
    if (!isNode(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, key === 'loc' ? undefined : copy(child)]),
    );
  };
  return copy(node) as AstNode;
}
