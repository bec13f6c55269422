// The generated-column type of DATE_FORMAT(temporal_column, 'literal format'): VARCHAR(n) with n the longest
// result the format can produce.
//
// Design note: only formats whose result has no letters are typed — digits, punctuation and spaces — so the
// comparison means the same under any collation for an ASCII constant: the original compares in the
// connection's collation (DATE_FORMAT's result and the literal both carry it, coercibility 4), the generated
// column in the declared utf8mb4_bin. Locale names (%a %b %M %W follow lc_time_names), AM/PM (%p, %r),
// ordinal suffixes (%D) and letters written into the format are refused with the reason. MariaDB refuses the
// two-argument DATE_FORMAT in a generated column (ERROR 1901: it depends on lc_time_names) and accepts the
// three-argument form with a fixed locale; without letters the locale changes nothing, so the column is
// declared with DATE_FORMAT(col, fmt, 'en_US') there. Both servers accept the DDL and seek the index in
// tests/integration/advice-generated-types.test.ts.

import type { ColumnInfo } from '../model/schema.js';
import type { AstNode } from '../sql/ast.js';
import { functionArgs } from '../sql/ast.js';
import { literalOf } from './literals.js';

/** The longest output of each letter-free specifier, in characters. */
const WIDTHS: Record<string, number> = {
  Y: 4,
  y: 2,
  X: 4,
  x: 4,
  m: 2,
  c: 2,
  d: 2,
  e: 2,
  j: 3,
  H: 2,
  k: 2,
  h: 2,
  I: 2,
  l: 2,
  i: 2,
  s: 2,
  S: 2,
  f: 6,
  T: 8,
  U: 2,
  u: 2,
  V: 2,
  v: 2,
  w: 1,
  '%': 1,
};
const LOCALE_NAMES = new Set(['a', 'b', 'M', 'W']);
const LETTERS = new Set(['p', 'r', 'D']);

export type DateFormatType =
  | { ok: true; sql: string; length: number; mariadbExpression: (expression: string) => string }
  | { ok: false; reason: string };

/** The type of DATE_FORMAT(column, 'format') as a generated column, or why it is not derived. */
export function dateFormatType(node: AstNode, column: ColumnInfo): DateFormatType {
  const args = functionArgs(node);
  if (args.length !== 2)
    return { ok: false, reason: 'DATE_FORMAT() with a locale argument is not typed here' };
  if (!/^(date|datetime|timestamp)$/i.test(column.dataType))
    return {
      ok: false,
      reason: `${column.name} is ${column.dataType.toUpperCase()}, not a DATE, DATETIME or TIMESTAMP column`,
    };
  const format = literalOf(args[1]);
  if (format?.kind !== 'string')
    return { ok: false, reason: 'the DATE_FORMAT() format is not a string constant' };
  let length = 0;
  const text = [...format.value];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char !== '%') {
      if (/\p{L}/u.test(char))
        return {
          ok: false,
          reason: `the format writes the letter '${char}', which compares by the connection's collation (unknown before the query runs)`,
        };
      length += 1;
      continue;
    }
    const specifier = text[index + 1];
    index += 1;
    if (specifier === undefined) break;
    if (LOCALE_NAMES.has(specifier))
      return { ok: false, reason: `%${specifier} writes a name in the session's lc_time_names language` };
    if (LETTERS.has(specifier))
      return {
        ok: false,
        reason: `%${specifier} writes letters, which compare by the connection's collation (unknown before the query runs)`,
      };
    const width = WIDTHS[specifier];
    // An unknown specifier is written as the character itself (%Q → Q).
    if (width === undefined) {
      if (/\p{L}/u.test(specifier))
        return {
          ok: false,
          reason: `%${specifier} is not a DATE_FORMAT specifier (it writes '${specifier}')`,
        };
      length += 1;
      continue;
    }
    length += width;
  }
  if (length === 0) return { ok: false, reason: 'the DATE_FORMAT() format is empty' };
  return {
    ok: true,
    sql: `VARCHAR(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    length,
    mariadbExpression: (expression) => expression.replace(/\)\s*$/, ", 'en_US')"),
  };
}

/**
 * Why the generated column may not compare like the original for this comparison, or null when it does. The
 * original compares in the connection's collation, the column in utf8mb4_bin: the same for an equality with
 * a printable-ASCII constant without trailing space (a UCA collation equates full-width digits with ASCII
 * ones; PAD SPACE and NO PAD differ on trailing spaces), and for an ordering when the format and the
 * constant use only digits, space, '-', '.' and '/' (':' sorts after the digits in binary, before them in
 * UCA collations).
 */
export function dateFormatCaveat(
  operator: string,
  format: string,
  others: readonly unknown[],
): string | null {
  const equality = ['=', '<=>', '<>', '!=', 'IN', 'NOT IN'].includes(operator);
  const ordering = ['<', '<=', '>', '>=', 'BETWEEN', 'NOT BETWEEN'].includes(operator);
  const plain = (text: string): boolean =>
    equality ? /^[\x20-\x7e]*$/.test(text) && !/ $/.test(text) : /^[0-9 ./-]*$/.test(text);
  const fixedOutput = format.replace(/%[YyXxmcdejHkhIlisSfUuVvw%]/g, '');
  const exact =
    (equality || ordering) &&
    (equality || plain(fixedOutput)) &&
    others.length > 0 &&
    others.every((other) => {
      const literal = literalOf(other);
      return literal?.kind === 'string' && plain(literal.value);
    });
  return exact
    ? null
    : `Not equivalent for every constant: the generated column compares in utf8mb4_bin, the original in the connection's collation; the same rows for ${ordering ? "constants of digits, space, '-', '.' and '/' only" : 'printable ASCII constants without a trailing space'}.`;
}
