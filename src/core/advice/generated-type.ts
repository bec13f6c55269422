// The SQL type of a generated column that holds a wrapped expression (MariaDB needs one declared;
// MySQL's own derivation would pick the table's collation, not the expression's).
//
// Design note: the type is derived from the expression's result type by the servers' rules, never
// guessed: integer/DECIMAL arithmetic (scale and UNSIGNED as MySQL and MariaDB compute them, a
// division adding div_precision_increment decimals), date parts, string functions keeping the
// column's length, character set and collation, CAST/CONVERT to an exact type, CONCAT of one
// collation, DATE_FORMAT with a letter-free format (date-format-type.ts). Anything else returns a reason,
// and no generated column is proposed.

import type { ColumnInfo, TableInfo } from '../model/schema.js';
import { type AstNode, columnRefs, functionArgs, isNode } from '../sql/ast.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import {
  declaredLength,
  effectiveCharset,
  effectiveCollation,
  isIntegerColumn,
  isStringColumn,
  isUnsigned,
} from './column-types.js';
import { JSON_CHAR_LENGTH, jsonShape } from './index-ddl.js';
import { literalOf } from './literals.js';
import { dateFormatCaveat, dateFormatType } from './date-format-type.js';

/** A generated column's SQL type for a wrapped expression, or a reason it cannot be derived. */
export type ResultType =
  | {
      ok: true;
      sql: string;
      string: boolean;
      /** MariaDB's form of the expression when it refuses the query's (DATE_FORMAT needs a locale there). */
      mariadbExpression?: (expression: string) => string;
      /** Why the column may compare unlike the original for this operator and constants (null: it does not). */
      caveat?: (operator: string, others: readonly unknown[]) => string | null;
    }
  | { ok: false; reason: string };

/** Derive the generated column's type from the expression's result type; strings always get CHARACTER SET and COLLATE. */
export function generatedColumnType(
  wrapped: WrappedOperand,
  column: ColumnInfo,
  table: TableInfo,
): ResultType {
  const stringType = (
    length: number | undefined,
    collation: string | null,
    charset: string | null,
  ): ResultType => {
    if (!length) return { ok: false, reason: `the length of ${column.name} is unknown` };
    if (!collation || !charset)
      return {
        ok: false,
        reason: `the collation of ${column.name} is unknown (declare it, or connect to the server)`,
      };
    return {
      ok: true,
      sql: `VARCHAR(${length}) CHARACTER SET ${charset} COLLATE ${collation}`,
      string: true,
    };
  };
  const collation = effectiveCollation(column, table);
  const charset = effectiveCharset(column, table);
  if (wrapped.kind === 'json') {
    if (jsonShape(wrapped) !== 'unquoted')
      return {
        ok: false,
        reason: 'a raw JSON value cannot be indexed; unquote it (->> or JSON_UNQUOTE) and compare the scalar',
      };
    return {
      ok: true,
      sql: `VARCHAR(${JSON_CHAR_LENGTH}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
      string: true,
    };
  }
  if (wrapped.kind === 'arithmetic') {
    // An integer column with an integer constant: BIGINT (signed for a subtraction). With a decimal
    // constant (`i - 0.01`, `u * 1.2`) the result is DECIMAL: a BIGINT column would round it, and MySQL,
    // which reads the generated column in place of the expression, would then return other rows.
    if (
      isIntegerColumn(column) &&
      ['+', '-', '*'].includes(wrapped.name) &&
      columnRefs(wrapped.node).length === 1 &&
      numericTypeOf(wrapped.node, table)?.kind === 'integer'
    )
      return {
        ok: true,
        sql: isUnsigned(column) && wrapped.name !== '-' ? 'BIGINT UNSIGNED' : 'BIGINT',
        string: false,
      };
    const numeric = numericTypeOf(wrapped.node, table);
    if (!numeric)
      return {
        ok: false,
        reason:
          'the result type of the arithmetic is not derived (only integer and DECIMAL columns and constants)',
      };
    if (numeric.kind === 'integer')
      return { ok: true, sql: numeric.unsigned ? 'BIGINT UNSIGNED' : 'BIGINT', string: false };
    if (numeric.scale > 30)
      return { ok: false, reason: `the result has ${numeric.scale} decimals, more than DECIMAL allows (30)` };
    return { ok: true, sql: `DECIMAL(65,${numeric.scale})`, string: false };
  }
  if (wrapped.kind === 'cast' || (wrapped.kind === 'function' && wrapped.name === 'CONVERT'))
    return castType(wrapped.node);
  if (wrapped.kind === 'concat') return concatType(wrapped, table);
  if (wrapped.kind === 'coalesce')
    return { ok: true, sql: column.columnType.toUpperCase(), string: isStringColumn(column) } as ResultType;
  if (wrapped.kind !== 'function')
    return { ok: false, reason: `the result type of ${wrapped.name} is not derived` };
  const args = functionArgs(wrapped.node);
  switch (wrapped.name) {
    case 'MONTH':
    case 'DAYOFWEEK':
    case 'WEEKDAY':
    case 'QUARTER':
    case 'HOUR':
    case 'MINUTE':
    case 'SECOND':
    case 'DAYOFMONTH':
    case 'DAY':
    case 'WEEK':
    case 'WEEKOFYEAR':
      return { ok: true, sql: 'TINYINT', string: false };
    case 'YEAR':
    case 'DAYOFYEAR':
      return { ok: true, sql: 'SMALLINT', string: false };
    case 'TO_DAYS':
    case 'YEARWEEK':
    case 'CHAR_LENGTH':
    case 'LENGTH':
    case 'CRC32':
      return { ok: true, sql: 'BIGINT', string: false };
    case 'DATE':
      return { ok: true, sql: 'DATE', string: false };
    case 'DATE_FORMAT': {
      const type = dateFormatType(wrapped.node, column);
      if (!type.ok) return type;
      const format = literalOf(args[1]);
      return {
        ok: true,
        sql: type.sql,
        string: true,
        mariadbExpression: type.mariadbExpression,
        caveat: (operator, others) =>
          dateFormatCaveat(operator, format?.kind === 'string' ? format.value : '', others),
      };
    }
    case 'LOWER':
    case 'UPPER':
    case 'LCASE':
    case 'UCASE':
    case 'TRIM':
    case 'LTRIM':
    case 'RTRIM':
    case 'REVERSE':
      return isStringColumn(column)
        ? stringType(declaredLength(column), collation, charset)
        : { ok: false, reason: `${column.name} is not a string column` };
    case 'LEFT':
    case 'SUBSTRING':
    case 'SUBSTR':
    case 'MID': {
      const length = literalOf(wrapped.name === 'LEFT' ? args[1] : args[2]);
      const declared = declaredLength(column);
      const n = length?.kind === 'integer' ? Number(length.value) : declared;
      return isStringColumn(column)
        ? stringType(n && declared ? Math.min(n, declared) : n, collation, charset)
        : { ok: false, reason: `${column.name} is not a string column` };
    }
    default:
      return { ok: false, reason: `the result type of ${wrapped.name}() is not derived` };
  }
}

/** Numeric result type of arithmetic over integer/DECIMAL columns and constants (MySQL's and MariaDB's rules). */
export type NumericType = { kind: 'integer'; unsigned: boolean } | { kind: 'decimal'; scale: number };

/** `div_precision_increment`'s default: a division adds 4 decimals to its dividend's. */
export const DIV_PRECISION_INCREMENT = 4;

/** The numeric type of an expression, or undefined when it is not integer/DECIMAL arithmetic. */
export function numericTypeOf(node: unknown, table: TableInfo): NumericType | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'column_ref') {
    const info = table.columns.find(
      (column) => column.name.toLowerCase() === String(node.column).toLowerCase(),
    );
    if (!info) return undefined;
    if (isIntegerColumn(info)) return { kind: 'integer', unsigned: isUnsigned(info) };
    const decimal = /^(?:decimal|numeric)(?:\((\d+)(?:,(\d+))?\))?/i.exec(info.columnType);
    return decimal ? { kind: 'decimal', scale: Number(decimal[2] ?? 0) } : undefined;
  }
  if (node.type === 'number') {
    const text = String(node.value);
    if (/^-?\d+$/.test(text)) return { kind: 'integer', unsigned: false };
    const match = /^-?\d*\.(\d*)$/.exec(text);
    return match ? { kind: 'decimal', scale: (match[1] ?? '').length } : undefined;
  }
  if (node.type === 'unary_expr' && node.operator === '-') {
    const inner = numericTypeOf(node.expr, table);
    return inner?.kind === 'integer' ? { kind: 'integer', unsigned: false } : inner;
  }
  if (node.type !== 'binary_expr') return undefined;
  const operator = String(node.operator).toUpperCase();
  const left = numericTypeOf(node.left, table);
  const right = numericTypeOf(node.right, table);
  if (!left || !right) return undefined;
  const scale = (type: NumericType): number => (type.kind === 'decimal' ? type.scale : 0);
  switch (operator) {
    case '+':
    case '-':
    case '*':
      if (left.kind === 'integer' && right.kind === 'integer')
        return { kind: 'integer', unsigned: left.unsigned || right.unsigned };
      return {
        kind: 'decimal',
        scale: operator === '*' ? scale(left) + scale(right) : Math.max(scale(left), scale(right)),
      };
    case '/':
      return { kind: 'decimal', scale: scale(left) + DIV_PRECISION_INCREMENT };
    case 'DIV':
      return { kind: 'integer', unsigned: left.kind === 'integer' && left.unsigned };
    case '%':
    case 'MOD':
      return left.kind === 'integer' && right.kind === 'integer'
        ? { kind: 'integer', unsigned: left.unsigned }
        : { kind: 'decimal', scale: Math.max(scale(left), scale(right)) };
    default:
      return undefined;
  }
}

/** The declared type of a CAST/CONVERT target, when it is exact (strings take the connection's collation: not known). */
function castType(node: AstNode): ResultType {
  const target =
    node.type === 'cast'
      ? (node.target as { dataType?: string; length?: number; scale?: number }[] | undefined)?.[0]
      : (functionArgs(node)[1] as { dataType?: string; length?: number; scale?: number } | undefined);
  const type = String(target?.dataType ?? '').toUpperCase();
  const length = target?.length;
  switch (type) {
    case 'SIGNED':
    case 'SIGNED INTEGER':
    case 'INTEGER':
      return { ok: true, sql: 'BIGINT', string: false };
    case 'UNSIGNED':
    case 'UNSIGNED INTEGER':
      return { ok: true, sql: 'BIGINT UNSIGNED', string: false };
    case 'DECIMAL':
    case 'DEC':
    case 'NUMERIC':
      return { ok: true, sql: `DECIMAL(${length ?? 10},${target?.scale ?? 0})`, string: false };
    case 'DATE':
      return { ok: true, sql: 'DATE', string: false };
    case 'DATETIME':
    case 'TIME':
      return { ok: true, sql: length ? `${type}(${length})` : type, string: false };
    default:
      return {
        ok: false,
        reason: `CAST(… AS ${type || '?'}) takes the connection's character set and collation, unknown before the query runs`,
      };
  }
}

/** CONCAT of string columns of one collation, integer/DECIMAL columns and string literals: VARCHAR of the summed length. */
function concatType(wrapped: WrappedOperand, table: TableInfo): ResultType {
  if (wrapped.name !== 'CONCAT')
    return { ok: false, reason: `the result type of ${wrapped.name}() is not derived` };
  let length = 0;
  const collations = new Set<string>();
  const charsets = new Set<string>();
  for (const arg of functionArgs(wrapped.node)) {
    const literal = literalOf(arg);
    if (literal?.kind === 'string') {
      length += [...literal.value].length;
      continue;
    }
    if (literal) {
      length += literal.kind === 'integer' ? String(literal.value).length : literal.text.length;
      continue;
    }
    if (!isNode(arg) || arg.type !== 'column_ref')
      return { ok: false, reason: 'CONCAT() has an argument that is neither a column nor a constant' };
    const info = table.columns.find(
      (column) => column.name.toLowerCase() === String(arg.column).toLowerCase(),
    );
    if (!info) return { ok: false, reason: `the type of ${String(arg.column)} is unknown` };
    if (isStringColumn(info)) {
      const declared = declaredLength(info);
      const collation = effectiveCollation(info, table);
      const charset = effectiveCharset(info, table);
      if (!declared || !collation || !charset)
        return { ok: false, reason: `the length or collation of ${info.name} is unknown` };
      length += declared;
      collations.add(collation);
      charsets.add(charset);
    } else if (isIntegerColumn(info)) length += 20;
    else {
      const decimal = /^(?:decimal|numeric)\((\d+)/i.exec(info.columnType);
      if (!decimal)
        return { ok: false, reason: `${info.name} (${info.columnType}) has no derived text length` };
      length += Number(decimal[1]) + 2;
    }
  }
  const [collation] = collations;
  const [charset] = charsets;
  if (collations.size !== 1 || !collation || !charset)
    return {
      ok: false,
      reason:
        collations.size === 0
          ? 'CONCAT() of numbers and constants takes the connection collation, unknown before the query runs'
          : `CONCAT() mixes collations (${[...collations].join(', ')})`,
    };
  if (length > 16383) return { ok: false, reason: `CONCAT() can be ${length} characters long` };
  return { ok: true, sql: `VARCHAR(${length}) CHARACTER SET ${charset} COLLATE ${collation}`, string: true };
}
