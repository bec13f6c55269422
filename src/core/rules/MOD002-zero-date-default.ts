// MOD002: a DATE/DATETIME/TIMESTAMP column DEFAULT of '0000-00-00' or with a zero month/day → ERROR 1067 under the zero-date modes.

import { FAMILY_BEHAVIOUR } from '../sqlmode/data.js';
import { modeFamily, predictError, sqlModeSet } from '../sqlmode/modes.js';
import { findColumn } from '../model/schema.js';
import {
  dateProblem,
  isDateType,
  quoted,
  spanFor,
  stringLiteral,
  targetTable,
} from '../sqlmode/statement.js';
import { type AstNode, isNode, type Span } from '../sql/ast.js';
import { defineRule } from './engine.js';

/** Column definitions of CREATE TABLE and ALTER TABLE ADD/CHANGE/MODIFY. */
function columnDefinitions(ast: AstNode): AstNode[] {
  const items = Array.isArray(ast.create_definitions)
    ? ast.create_definitions
    : Array.isArray(ast.expr)
      ? ast.expr
      : [];
  return items.filter(
    (item): item is AstNode =>
      isNode(item) && isNode(item.column) && isNode(item.definition) && isNode(item.default_val),
  );
}

export const rule = defineRule({
  meta: {
    id: 'MOD002',
    name: 'sql-mode.zero-date-default',
    category: 'sql-mode',
    severity: 'error',
    title: 'Zero date as column DEFAULT',
    rationale:
      "MySQL 5.7.8+ and 8.0 run with NO_ZERO_DATE and NO_ZERO_IN_DATE plus strict mode by default, so a DEFAULT of '0000-00-00 …' or '2000-00-00 …' fails with ERROR 1067; DDL that worked on MySQL 5.6 or MariaDB stops working after an upgrade.",
    appliesTo: ['create', 'alter'],
    messages: {
      error: 'DEFAULT {{value}} for {{column}} is a {{problem}}: ERROR 1067 under {{modes}}.',
      warning:
        'DEFAULT {{value}} for {{column}} is a {{problem}}: accepted with warning 1264 because strict mode is off.',
      accepted:
        'DEFAULT {{value}} for {{column}} is a {{problem}}: accepted under the current sql_mode, but ERROR 1067 on servers with {{mode}} and strict mode (the MySQL 5.7.8+ default).',
    },
    docs: {
      antiPattern:
        "alter table events_t change event_date event_date datetime NOT NULL default '0000-00-00 00:00:00'",
      bestPractice:
        "alter table events_t change event_date event_date datetime NOT NULL default '2000-01-01 00:00:00'",
      notes: ['Fixes: a real date default, a NULL-able column (DEFAULT NULL), or DEFAULT CURRENT_TIMESTAMP.'],
    },
  },
  detect(context) {
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const behaviour = FAMILY_BEHAVIOUR[modeFamily(context.flavor)];
    // Column definitions (CREATE, ADD/CHANGE/MODIFY) and ALTER [COLUMN] c SET DEFAULT (a tolerated fact:
    // the parser rejects it; the column's type comes from the schema).
    const table = targetTable(context.ast, context.schema, context.server.database);
    const defaults = [
      ...columnDefinitions(context.ast).map((item) => ({
        dataType: String((item.definition as AstNode).dataType ?? ''),
        value: stringLiteral((item.default_val as AstNode).value),
        column: String((item.column as AstNode).column ?? ''),
        span: undefined as Span | undefined,
      })),
      ...(context.tolerated?.columnDefaults ?? []).flatMap((fact) => {
        const info = table ? findColumn(table, fact.column) : undefined;
        if (!info || !fact.value || fact.value.string === null) return [];
        const start = fact.end - fact.value.text.length;
        return [
          {
            dataType: info.dataType,
            value: fact.value.string,
            column: info.name,
            span: { start, end: fact.end } as Span | undefined,
          },
        ];
      }),
    ];
    for (const { dataType, value, column, span } of defaults) {
      if (!isDateType(dataType)) continue;
      if (value === undefined) continue;
      const problem = dateProblem(value);
      if (problem !== 'zero-date' && problem !== 'zero-in-date') continue;
      const mode = problem === 'zero-date' ? 'NO_ZERO_DATE' : 'NO_ZERO_IN_DATE';
      const active = modes.has(mode);
      const error = active && (modes.strict || behaviour.zeroDefaultErrorWithoutStrict);
      const messageId = error ? 'error' : active ? 'warning' : 'accepted';
      context.report({
        messageId,
        data: {
          value: quoted(value),
          column,
          problem: problem === 'zero-date' ? 'zero date' : 'date with a zero month or day',
          modes: modes.strict ? `${mode} + strict mode` : mode,
          mode,
        },
        severity: error ? 'error' : active ? 'warning' : 'info',
        span: span ?? spanFor(context.sql, null, quoted(value)),
        table: null,
        columns: [column],
        expression: quoted(value),
        ...(active
          ? {
              predictedError: error
                ? predictError(1067, context.flavor, { column })
                : predictError(1264, context.flavor, { column, row: 1 }, true),
            }
          : {}),
        notes: [
          `Fix: use a real date (e.g. '2000-01-01 00:00:00'), allow NULL (DEFAULT NULL), or use ${/timestamp|datetime/i.test(dataType) ? 'DEFAULT CURRENT_TIMESTAMP' : 'a NULL-able column'}.`,
        ],
      });
    }
  },
});
