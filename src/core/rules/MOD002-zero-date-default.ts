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
      precision:
        '{{column}} is {{type}} but its {{clause}} is {{value}}: MySQL requires the same fractional-seconds precision (ERROR {{code}}); write {{fix}}.',
    },
    docs: {
      antiPattern:
        "alter table events_t change event_date event_date datetime NOT NULL default '0000-00-00 00:00:00'",
      bestPractice:
        "alter table events_t change event_date event_date datetime NOT NULL default '2000-01-01 00:00:00'",
      notes: [
        'Fixes: a real date default, a NULL-able column (DEFAULT NULL), or DEFAULT CURRENT_TIMESTAMP.',
        "DEFAULT 0 is the zero date too (ERROR 1067 on both servers under NO_ZERO_DATE + strict mode). DEFAULT '0' is no date at all: ERROR 1067 on MariaDB under every sql_mode, on MySQL under strict mode.",
        'MySQL also refuses DATETIME(n)/TIMESTAMP(n) with DEFAULT CURRENT_TIMESTAMP of another precision (ERROR 1067); MariaDB accepts it.',
      ],
    },
  },
  detect(context) {
    if (context.flavor !== 'mariadb') reportPrecisionMismatch(context);
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const behaviour = FAMILY_BEHAVIOUR[modeFamily(context.flavor)];
    // Column definitions (CREATE, ADD/CHANGE/MODIFY) and ALTER [COLUMN] c SET DEFAULT (a tolerated fact:
    // the parser rejects it; the column's type comes from the schema).
    const table = targetTable(context.ast, context.schema, context.server.database);
    const defaults = [
      ...columnDefinitions(context.ast).map((item) => ({
        dataType: String((item.definition as AstNode).dataType ?? ''),
        value: defaultText((item.default_val as AstNode).value),
        string: stringLiteral((item.default_val as AstNode).value) !== undefined,
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
            string: true,
            column: info.name,
            span: { start, end: fact.end } as Span | undefined,
          },
        ];
      }),
    ];
    for (const { dataType, value, string, column, span } of defaults) {
      if (!isDateType(dataType)) continue;
      if (value === undefined) continue;
      if (string && dateProblem(value) === undefined && /^\s*0+(\.0*)?\s*$/.test(value)) {
        reportZeroString(context, { value, column, span, strict: modes.strict });
        continue;
      }
      // DEFAULT 0 / '0' / '00000000' is the zero date too (ERROR 1067 like '0000-00-00').
      const problem = dateProblem(value) ?? (/^\s*0+(\.0*)?\s*$/.test(value) ? 'zero-date' : undefined);
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

/**
 * DEFAULT '0' (a string of zeros that is no date): not the zero date but an invalid date string.
 * Checked on both servers: MariaDB 10.11 refuses it (1067) under every sql_mode, even '';
 * MySQL 8.0 refuses it under strict mode alone (without NO_ZERO_DATE) and accepts it without.
 * `DEFAULT 0` (a number) is the zero date and follows NO_ZERO_DATE.
 */
function reportZeroString(
  context: Parameters<typeof rule.detect>[0],
  found: { value: string; column: string; span: Span | undefined; strict: boolean },
): void {
  const error = context.flavor === 'mariadb' || found.strict;
  context.report({
    messageId: error ? 'error' : 'accepted',
    data: {
      value: quoted(found.value),
      column: found.column,
      problem: 'string that is no date',
      modes: context.flavor === 'mariadb' ? 'every sql_mode on MariaDB' : 'strict mode',
      mode: 'STRICT_TRANS_TABLES',
    },
    severity: error ? 'error' : 'info',
    span: found.span ?? spanFor(context.sql, null, quoted(found.value)),
    table: null,
    columns: [found.column],
    expression: quoted(found.value),
    ...(error ? { predictedError: predictError(1067, context.flavor, { column: found.column }) } : {}),
    notes: [
      `Fix: write the date itself ('2000-01-01 00:00:00'), allow NULL (DEFAULT NULL), or use DEFAULT CURRENT_TIMESTAMP.`,
    ],
  });
}

/** The DEFAULT's text: a string literal's value, or a number as written (`DEFAULT 0`). */
function defaultText(node: unknown): string | undefined {
  const text = stringLiteral(node);
  if (text !== undefined) return text;
  return isNode(node) && node.type === 'number' ? String(node.value) : undefined;
}

const NOW_FUNCTIONS = new Set(['CURRENT_TIMESTAMP', 'NOW', 'LOCALTIME', 'LOCALTIMESTAMP']);

/** `DATETIME(6) DEFAULT CURRENT_TIMESTAMP`: MySQL needs CURRENT_TIMESTAMP(6) (ERROR 1067). */
function reportPrecisionMismatch(context: Parameters<typeof rule.detect>[0]): void {
  for (const item of columnDefinitions(context.ast)) {
    const definition = item.definition as AstNode;
    const type = String(definition.dataType ?? '').toUpperCase();
    if (type !== 'DATETIME' && type !== 'TIMESTAMP') continue;
    const fsp = typeof definition.length === 'number' ? definition.length : 0;
    const value = (item.default_val as AstNode).value;
    if (!isNode(value) || value.type !== 'function') continue;
    const name =
      JSON.stringify(value.name ?? '')
        .replace(/[^A-Z_]/gi, ' ')
        .trim()
        .split(/\s+/)
        .pop()
        ?.toUpperCase() ?? '';
    const named = [...NOW_FUNCTIONS].find((candidate) =>
      JSON.stringify(value.name ?? '')
        .toUpperCase()
        .includes(`"${candidate}"`),
    );
    if (!named && !NOW_FUNCTIONS.has(name)) continue;
    const args = (value.args as { value?: AstNode[] } | undefined)?.value ?? [];
    const defaultFsp = args[0]?.type === 'number' ? Number(args[0].value) : 0;
    const column = String((item.column as AstNode).column ?? '');
    const columnType = `${type}${fsp ? `(${fsp})` : ''}`;
    const fix = `CURRENT_TIMESTAMP${fsp ? `(${fsp})` : ''}`;
    if (defaultFsp !== fsp)
      context.report({
        messageId: 'precision',
        data: {
          column,
          type: columnType,
          clause: 'DEFAULT',
          value: `CURRENT_TIMESTAMP${defaultFsp ? `(${defaultFsp})` : ''}`,
          code: 1067,
          fix: `DEFAULT ${fix}`,
        },
        severity: 'error',
        span: spanFor(context.sql, null, 'CURRENT_TIMESTAMP'),
        table: null,
        columns: [column],
        expression: 'DEFAULT CURRENT_TIMESTAMP',
        predictedError: predictError(1067, context.flavor, { column }),
      });
  }
}
