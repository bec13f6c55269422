// MOD003: a zero, zero-part or impossible date written by INSERT/REPLACE/UPDATE → ERROR 1292 under strict mode.

import { FAMILY_BEHAVIOUR } from '../sqlmode/data.js';
import { modeFamily, predictError, sqlModeSet } from '../sqlmode/modes.js';
import {
  columnOf,
  dateProblem,
  hasIgnore,
  isDateType,
  quoted,
  spanFor,
  stringLiteral,
  targetTable,
  targetTableName,
  unknownTableNote,
  writtenValues,
  type DateProblem,
} from '../sqlmode/statement.js';
import { defineRule } from './engine.js';

/** DateProblem, or a string the server cannot read as a date at all. */
type Problem = DateProblem | 'unreadable';

const MODE_FOR: Record<Problem, string | null> = {
  'zero-date': 'NO_ZERO_DATE',
  'zero-in-date': 'NO_ZERO_IN_DATE',
  'invalid-date': null,
  unreadable: null,
};
const PROBLEM_TEXT: Record<Problem, string> = {
  'zero-date': 'a zero date',
  'zero-in-date': 'a date with a zero month or day',
  'invalid-date': 'not a valid calendar date',
  unreadable: 'not a date the server can read (date parts may be separated by punctuation, not by spaces)',
};

/**
 * Digit groups separated only by whitespace ('1997 05 05', from the MySQL manual's date examples):
 * both servers refuse it for a DATE/DATETIME/TIMESTAMP column (ERROR 1292 under strict mode,
 * '0000-00-00' with warning 1265 otherwise), whatever ALLOW_INVALID_DATES says. Only this shape is
 * claimed: the servers read many other spellings ('19970505', '97.5.5', '1997/05/05', 'T' times).
 */
function unreadableDate(value: string): boolean {
  return /^\s*\d+(?:\s+\d+){2,}\s*$/.test(value);
}

export const rule = defineRule({
  meta: {
    id: 'MOD003',
    name: 'sql-mode.invalid-date-value',
    category: 'sql-mode',
    severity: 'error',
    title: 'Zero or invalid date written to a column',
    rationale:
      "Strict mode rejects '0000-00-00' (with NO_ZERO_DATE), '2017-00-16' (with NO_ZERO_IN_DATE) and '2017-02-30' (unless ALLOW_INVALID_DATES) with ERROR 1292; without strict mode the server stores '0000-00-00' or the value as is, with at most a warning.",
    appliesTo: ['insert', 'replace', 'update'],
    messages: {
      error: '{{value}} for {{column}} is {{problem}}: ERROR 1292 under {{modes}}.',
      warning:
        '{{value}} for {{column}} is {{problem}}: stored as {{stored}} with warning {{code}} ({{why}}).',
      accepted:
        '{{value}} for {{column}} is {{problem}}: accepted under the current sql_mode, but ERROR 1292 on servers with {{mode}} and strict mode (the MySQL 5.7.8+ default).',
    },
    docs: {
      antiPattern: "INSERT INTO events_t (event_date, profile_id) VALUES ('0000-00-00 00:00:00', 1)",
      bestPractice: 'INSERT INTO events_t (event_date, profile_id) VALUES (NOW(), 1)',
      notes: [
        'UPDATE only fails when its WHERE clause matches rows.',
        "A date whose parts are separated by spaces ('1997 05 05') is not read as a date by either server (ERROR 1292 under strict mode, '0000-00-00' with warning 1265 otherwise); punctuation delimiters and digit strings ('1997.05.05', '19970505') are fine.",
        'Without the table definition, date-shaped string literals are checked as if the column were DATE/DATETIME (noted on the finding).',
      ],
    },
  },
  detect(context) {
    const table = targetTable(context.ast, context.schema, context.server.database);
    const tableName = targetTableName(context.ast)?.table;
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const ignore = hasIgnore(context.ast, context.tolerated);
    const behaviour = FAMILY_BEHAVIOUR[modeFamily(context.flavor)];
    for (const written of writtenValues(context.ast, table)) {
      const value = stringLiteral(written.value);
      if (value === undefined) continue;
      const column = columnOf(table, written.column);
      if (column && !isDateType(column.dataType)) continue;
      const problem: Problem | undefined =
        dateProblem(value) ?? (column && unreadableDate(value) ? 'unreadable' : undefined);
      if (!problem) continue;
      const mode = MODE_FOR[problem];
      const checked =
        problem === 'unreadable' || (mode ? modes.has(mode) : !modes.has('ALLOW_INVALID_DATES'));
      const error = checked && modes.strict && !ignore;
      const type = column
        ? column.dataType.toLowerCase() === 'date'
          ? 'date'
          : 'datetime'
        : /\d:\d/.test(value)
          ? 'datetime'
          : 'date';
      const name = column?.name ?? written.column;
      const warningCode = problem === 'unreadable' ? 1265 : behaviour.dateWarning[problem];
      const notes = [
        `Fix: write a real date, NULL (if the column allows it), or NOW().`,
        ...(context.kind === 'update' ? ['UPDATE fails only when its WHERE clause matches rows.'] : []),
        ...(table ? [] : [unknownTableNote(tableName)]),
      ];
      const zero = type === 'date' ? "'0000-00-00'" : "'0000-00-00 00:00:00'";
      context.report({
        messageId: error ? 'error' : checked ? 'warning' : 'accepted',
        data: {
          value: quoted(value),
          column: name,
          problem: PROBLEM_TEXT[problem],
          modes: mode
            ? `strict mode + ${mode}`
            : problem === 'unreadable'
              ? 'strict mode'
              : 'strict mode (ALLOW_INVALID_DATES off)',
          stored: problem === 'zero-date' || checked ? zero : quoted(value),
          code: warningCode,
          why: ignore ? 'IGNORE turns the error into a warning' : 'strict mode is off',
          mode: mode ?? 'strict mode',
        },
        severity: error ? 'error' : checked ? 'warning' : 'info',
        span: spanFor(context.sql, written.value, quoted(value)),
        table: table?.name ?? tableName ?? null,
        columns: [name],
        expression: quoted(value),
        ...(checked
          ? {
              predictedError: error
                ? predictError(1292, context.flavor, {
                    type,
                    value,
                    column: name,
                    qualifiedColumn: `\`${context.server.database ?? ''}\`.\`${tableName ?? ''}\`.\`${name}\``,
                    row: written.row,
                  })
                : predictError(warningCode, context.flavor, { column: name, row: written.row }, true),
            }
          : {}),
        notes,
      });
    }
  },
});
