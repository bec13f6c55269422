// CNV003: a string column compared with a date/time value (CURDATE(), NOW(), DATE '…'): compared as dates row by row, no index.
/*
 * Design note.
 * - When one side of a comparison is temporal (a DATE/DATETIME function, a typed literal, or such a
 *   value ± INTERVAL) and the other a CHAR/VARCHAR/TEXT column, both servers convert each stored string
 *   to a date and compare temporally: the index on the column is only scanned whole (EXPLAIN type
 *   index/ALL, never ref/range) — proven in tests/integration/advice-rules-shape.test.ts on MySQL 8.0.33
 *   and MariaDB 10.11.
 * - The temporal comparison also matches strings that are not written canonically ('2024-3-1' equals
 *   DATE '2024-03-01'), so comparing with a string constant instead is faster but equivalent only when
 *   every stored value is canonical: no rewrite is called equivalent; the docs give the check and the
 *   lasting fix (a DATE/DATETIME column).
 * - Needs the column type (live schema or DDL): with an unknown schema nothing is reported.
 */

import { isStringColumn } from '../advice/column-types.js';
import { functionName, isNode } from '../sql/ast.js';
import { defineRule, spanOf } from './engine.js';
import { columnComparisons } from './utils/column-comparisons.js';

/** Functions that return DATE, DATETIME or TIMESTAMP values. */
const TEMPORAL_FUNCTIONS = new Set([
  'CURDATE',
  'CURRENT_DATE',
  'NOW',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'SYSDATE',
  'UTC_DATE',
  'UTC_TIMESTAMP',
  'DATE',
  'TIMESTAMP',
  'DATE_ADD',
  'DATE_SUB',
  'ADDDATE',
  'SUBDATE',
  'FROM_UNIXTIME',
  'STR_TO_DATE',
  'LAST_DAY',
  'MAKEDATE',
  'FROM_DAYS',
]);

/** The temporal expression's text kind, or undefined when the value is not temporal. */
function temporal(node: unknown): boolean {
  if (!isNode(node)) return false;
  if (node.type === 'date' || node.type === 'datetime' || node.type === 'timestamp') return true;
  if (node.type === 'function') return TEMPORAL_FUNCTIONS.has(functionName(node));
  if (node.type === 'binary_expr' && (node.operator === '+' || node.operator === '-'))
    return (
      (temporal(node.left) && isNode(node.right) && node.right.type === 'interval') ||
      (temporal(node.right) && isNode(node.left) && node.left.type === 'interval')
    );
  return false;
}

export const rule = defineRule({
  meta: {
    id: 'CNV003',
    name: 'predicate.string-compared-with-temporal',
    category: 'implicit-conversion',
    severity: 'warning',
    title: 'String column compared with a date or time',
    rationale:
      'A CHAR/VARCHAR column compared with CURDATE(), NOW() or a DATE literal is compared as a date: the server converts every stored string, so the index on the column is scanned whole instead of searched.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      temporal:
        '{{column}} is a {{type}} column compared with the date/time value {{value}}: every stored string is converted to a date, so an index on {{column}} cannot be searched (only scanned).',
    },
    docs: {
      antiPattern: 'SELECT id FROM events WHERE event_day = CURDATE()',
      bestPractice: "SELECT id FROM events WHERE event_day = '2024-05-01'",
      notes: [
        'The lasting fix is a DATE (or DATETIME) column: ALTER TABLE events MODIFY event_day DATE (it fails on values that are not dates; check first with SELECT COUNT(*) FROM events WHERE event_day IS NOT NULL AND CAST(event_day AS DATE) IS NULL).',
        "Comparing with a string constant (computed by the application, or CAST(CURDATE() AS CHAR) when the collations agree) uses the index but is not equivalent: the date comparison also matches strings written differently ('2024-5-1', '2024-05-01 00:00:00'); it is the same only when every stored value has the canonical YYYY-MM-DD form (check: SELECT COUNT(*) FROM events WHERE event_day NOT REGEXP '^[0-9]{4}-[0-9]{2}-[0-9]{2}$').",
        'Needs column types (live schema or DDL); with an unknown schema nothing is reported.',
      ],
    },
    peers: { soar: ['ARG.003'], sqle: ['dml_check_where_exist_implicit_conversion'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      for (const { column: columnSide, values } of columnComparisons(site)) {
        const found = values.find(temporal);
        if (!found) continue;
        const [resolved] = context.resolveColumns(site, columnSide);
        if (!resolved?.info || !isStringColumn(resolved.info)) continue;
        const span = spanOf(site.node);
        if (!span) continue;
        context.report({
          messageId: 'temporal',
          data: {
            column: resolved.info.name,
            type: resolved.info.dataType.toUpperCase(),
            value: context.textOf(found) || 'a date',
          },
          span,
          table: resolved.table?.name ?? null,
          columns: [resolved.info.name],
          expression: context.textOf(site.node),
        });
      }
    }
  },
});
