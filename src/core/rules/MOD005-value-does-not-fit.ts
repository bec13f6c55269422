// MOD005: a literal that does not fit its column — string longer than CHAR/VARCHAR(n) (1406) or number out of the type's range (1264).

import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import {
  columnOf,
  hasIgnore,
  quoted,
  spanFor,
  stringLiteral,
  targetTable,
  writtenValues,
} from '../sqlmode/statement.js';
import type { ColumnInfo } from '../model/schema.js';
import { isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

const INTEGER_BITS: Record<string, number> = {
  tinyint: 8,
  smallint: 16,
  mediumint: 24,
  int: 32,
  integer: 32,
  bigint: 64,
};

/** Integer range of a column, or undefined for non-integer types. */
function integerRange(column: ColumnInfo): { min: bigint; max: bigint } | undefined {
  const bits = INTEGER_BITS[column.dataType.toLowerCase()];
  if (!bits) return undefined;
  if (/unsigned/i.test(column.columnType)) return { min: 0n, max: 2n ** BigInt(bits) - 1n };
  return { min: -(2n ** BigInt(bits - 1)), max: 2n ** BigInt(bits - 1) - 1n };
}

/** Declared character length of CHAR/VARCHAR/BINARY/VARBINARY, or undefined. */
function charLength(column: ColumnInfo): number | undefined {
  if (!/^(var)?(char|binary)$/i.test(column.dataType)) return undefined;
  const match = /\((\d+)\)/.exec(column.columnType);
  return match ? Number(match[1]) : undefined;
}

export const rule = defineRule({
  meta: {
    id: 'MOD005',
    name: 'sql-mode.value-does-not-fit',
    category: 'sql-mode',
    severity: 'error',
    title: 'Value longer or larger than its column',
    rationale:
      'Strict mode rejects a string longer than the column (ERROR 1406) or a number outside the type’s range (ERROR 1264); without strict mode the server silently cuts the string or clips the number to the nearest limit and only warns.',
    appliesTo: ['insert', 'replace', 'update'],
    messages: {
      tooLong: '{{value}} is {{length}} characters but {{column}} is {{type}}: ERROR 1406 under strict mode.',
      tooLongLax:
        '{{value}} is {{length}} characters but {{column}} is {{type}}: stored cut to {{max}} with warning 1265 ({{why}}).',
      outOfRange:
        '{{value}} is outside the range of {{column}} {{type}} ({{min}}…{{max}}): ERROR 1264 under strict mode.',
      outOfRangeLax:
        '{{value}} is outside the range of {{column}} {{type}} ({{min}}…{{max}}): stored as {{clipped}} with warning 1264 ({{why}}).',
    },
    docs: {
      antiPattern: "INSERT INTO users (id, country) VALUES (1, 'Germany')  -- country char(2)",
      bestPractice: "INSERT INTO users (id, country) VALUES (1, 'DE')",
      notes: ['Needs the table definition. Only literals are checked; expressions and parameters are not.'],
    },
  },
  detect(context) {
    const table = targetTable(context.ast, context.schema, context.server.database);
    if (!table) return;
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const ignore = hasIgnore(context.ast, context.tolerated);
    const error = modes.strict && !ignore;
    const why = ignore ? 'IGNORE turns the error into a warning' : 'strict mode is off';
    for (const written of writtenValues(context.ast, table)) {
      const column = columnOf(table, written.column);
      if (!column) continue;
      const text = stringLiteral(written.value);
      const max = charLength(column);
      if (text !== undefined && max !== undefined && [...text].length > max) {
        context.report({
          messageId: error ? 'tooLong' : 'tooLongLax',
          data: {
            value: quoted(text),
            length: [...text].length,
            column: column.name,
            type: column.columnType,
            max,
            why,
          },
          severity: error ? 'error' : 'warning',
          span: spanFor(context.sql, written.value, quoted(text)),
          table: table.name,
          columns: [column.name],
          expression: quoted(text),
          predictedError: error
            ? predictError(1406, context.flavor, { column: column.name, row: written.row })
            : predictError(1265, context.flavor, { column: column.name, row: written.row }, true),
          notes: [`Fix: shorten the value or widen the column (ALTER TABLE … MODIFY ${column.name} …).`],
        });
        continue;
      }
      const range = integerRange(column);
      if (!range || !isNode(written.value) || written.value.type !== 'number') continue;
      const raw = String(written.value.value);
      if (!/^-?\d+$/.test(raw)) continue;
      const value = BigInt(raw);
      if (value >= range.min && value <= range.max) continue;
      context.report({
        messageId: error ? 'outOfRange' : 'outOfRangeLax',
        data: {
          value: raw,
          column: column.name,
          type: column.columnType,
          min: String(range.min),
          max: String(range.max),
          clipped: String(value < range.min ? range.min : range.max),
          why,
        },
        severity: error ? 'error' : 'warning',
        span: spanFor(context.sql, written.value, raw),
        table: table.name,
        columns: [column.name],
        expression: raw,
        predictedError: predictError(1264, context.flavor, { column: column.name, row: written.row }, !error),
        notes: [`Fix: use a value in range or a wider type for ${column.name}.`],
      });
    }
  },
});
