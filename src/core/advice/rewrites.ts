// Exactly equivalent sargable rewrites of wrapped predicates, built as AST and proven by re-parsing.
//
// Each rewrite below returns the same rows as the original for every table content (not just
// the data at hand); anything that is only "usually" equivalent is offered with equivalent: false and
// the difference in its notes. The server's word: tests/integration/advice-rewrites-property.test.ts
// compares the rows of every rewrite marked equivalent on edge data on both servers (docs/testing.md).

import { type AstNode, functionArgs, isNode } from '../sql/ast.js';
import type { ResolvedColumn } from '../rules/engine.js';
import {
  caseSensitivity,
  effectiveCollation,
  isIntegerColumn,
  isStringColumn,
  isTemporalColumn,
} from './column-types.js';
import { intervalShiftRewrite } from './interval-shift.js';
import type { Rewrite, RewriteInput } from './rewrite-input.js';
import { solveLinear } from './solve.js';
import { likePrefixPattern, listItems, literalOf, nextDay, parseDate, type Literal } from './literals.js';
import { columnNode, compareNode, isNullNode, logicalNode, numberNode, stringNode } from './sql-edit.js';

/** The first exact rewrite that applies, or undefined (with reasons in `refusals`). */
export function exactRewrite(input: RewriteInput, refusals: string[]): Rewrite | undefined {
  const { wrapped } = input;
  if (wrapped.kind === 'function') {
    const args = functionArgs(wrapped.node);
    switch (wrapped.name) {
      case 'YEAR':
        return yearRewrite(input, args);
      case 'DATE':
        return dateRewrite(input, args);
      case 'LOWER':
      case 'UPPER':
      case 'LCASE':
      case 'UCASE':
        return caseRewrite(input, args, refusals);
      case 'LEFT':
      case 'SUBSTRING':
      case 'SUBSTR':
      case 'MID':
        return prefixRewrite(input, args, refusals);
      case 'DATE_ADD':
      case 'ADDDATE':
      case 'DATE_SUB':
      case 'SUBDATE': {
        const interval = args[1];
        return args.length === 2 && isNode(interval) && interval.type === 'interval'
          ? intervalShiftRewrite(input, args[0], interval, /SUB/.test(wrapped.name) ? -1 : 1, refusals)
          : undefined;
      }
      case 'DATE_FORMAT':
        return dateFormatRewrite(input, args, refusals);
      case 'CONVERT':
        return castToCharRewrite(input, args[0], args[1], refusals);
      case 'MONTH':
      case 'DAYOFWEEK':
      case 'WEEKDAY':
      case 'DAYOFMONTH':
      case 'DAY':
      case 'QUARTER':
      case 'HOUR':
        refusals.push(
          `${wrapped.name}() repeats every year, so no single range on the column is equivalent; a range such as one year's slice is a different query (and BETWEEN would also include the upper bound).`,
        );
        return undefined;
      default:
        return undefined;
    }
  }
  if (wrapped.kind === 'arithmetic') {
    const node = wrapped.node;
    const right = node.right;
    if ((wrapped.name === '+' || wrapped.name === '-') && isNode(right) && right.type === 'interval')
      return intervalShiftRewrite(input, node.left, right, wrapped.name === '-' ? -1 : 1, refusals);
    const left = node.left;
    if (wrapped.name === '+' && isNode(left) && left.type === 'interval') {
      // The servers' grammar reads `INTERVAL 1 DAY + d > x` as `INTERVAL 1 DAY + (d > x)` (NULL), not as
      // the parser does: what the original means is not what the rewrite would keep.
      refusals.push(
        '`INTERVAL … + column` first: MySQL and MariaDB read the rest of the condition into the addition (`INTERVAL 1 DAY + (col > x)`, NULL), so the original does not compare what it seems to; write `column + INTERVAL …` instead.',
      );
      return undefined;
    }
    return arithmeticRewrite(input, refusals);
  }
  if (wrapped.kind === 'cast' && wrapped.node.type === 'cast')
    return castToCharRewrite(
      input,
      wrapped.node.expr,
      (wrapped.node.target as unknown[] | undefined)?.[0],
      refusals,
    );
  if (wrapped.kind === 'coalesce') return coalesceRewrite(input, refusals);
  return undefined;
}

/** The single bare column argument at `index`, with its resolved info. */
function bareColumn(
  input: RewriteInput,
  args: readonly AstNode[],
  index = 0,
): { node: AstNode; column: ResolvedColumn } | undefined {
  const arg = args[index];
  if (!isNode(arg) || arg.type !== 'column_ref') return undefined;
  const column = input.columns.find((candidate) => candidate.node === arg);
  return column?.info ? { node: columnNode(column.qualifier, column.column), column } : undefined;
}

/** Turn `[lower, upper)` bounds into `c >= lower AND c < upper`. */
function rangeNode(column: AstNode, lower: string | null, upper: string | null): AstNode | undefined {
  const parts: AstNode[] = [];
  if (lower !== null) parts.push(compareNode('>=', column, stringNode(lower)));
  if (upper !== null) parts.push(compareNode('<', column, stringNode(upper)));
  const [first, second] = parts;
  if (!first) return undefined;
  return second ? logicalNode('AND', first, second) : first;
}

/**
 * Half-open range for a value partitioned into consecutive intervals [start(v), start(v + 1)):
 * `f(c) = v` → [start(v), next(v)); `<` → [, start(v)); `<=` → [, next(v)); `>` → [next(v), ); `>=` → [start(v), ).
 */
function intervalRewrite(
  column: AstNode,
  operator: string,
  other: AstNode | null,
  bounds: (value: Literal) => { start: string; next: string | null } | undefined,
): AstNode | undefined {
  // `next` is null for the last period (9999-12-31: the day after is out of range, ERROR 1525 as a literal).
  if (operator === 'BETWEEN') {
    const [low, high] = listItems(other).map((item) => literalOf(item));
    const from = low && bounds(low);
    const to = high && bounds(high);
    return from && to ? rangeNode(column, from.start, to.next) : undefined;
  }
  const value = literalOf(other);
  const range = value && bounds(value);
  if (!range) return undefined;
  if (range.next === null && (operator === '<=' || operator === '>')) return undefined;
  const table: Record<string, [string | null, string | null]> = {
    '=': [range.start, range.next],
    '<': [null, range.start],
    '<=': [null, range.next],
    '>': [range.next, null],
    '>=': [range.start, null],
  };
  const pair = table[operator];
  return pair ? rangeNode(column, pair[0], pair[1]) : undefined;
}

function yearRewrite(input: RewriteInput, args: readonly AstNode[]): Rewrite | undefined {
  const bare = bareColumn(input, args);
  if (!bare || args.length !== 1 || !bare.column.info || !isTemporalColumn(bare.column.info))
    return undefined;
  // Where zero-in-date values can be stored (no NO_ZERO_IN_DATE), YEAR('2024-00-01') = 2024 but
  // '2024-00-01' < '2024-01-01': the bounds are then written YYYY-00-00, the first value of the year in
  // the servers' order (same rows and a range scan on both, measured by advice-rewrites-property.test.ts).
  // A TIMESTAMP stores no zero-in-date value (and a YYYY-00-00 bound would not seek its index on MariaDB).
  const zeroSafe =
    /NO_ZERO_IN_DATE/i.test(input.sqlMode ?? '') || bare.column.info.dataType.toLowerCase() === 'timestamp';
  const first = zeroSafe ? '01-01' : '00-00';
  const replacement = intervalRewrite(bare.node, input.operator, input.other, (value) => {
    if (value.kind !== 'integer' || value.value < 1000n || value.value > 9998n) return undefined;
    return { start: `${value.value}-${first}`, next: `${value.value + 1n}-${first}` };
  });
  if (!replacement) return undefined;
  return {
    target: 'site',
    replacement,
    notes: [
      ...temporalNotes(bare.column, 'YEAR()'),
      ...(zeroSafe
        ? []
        : [
            `The bounds are written YYYY-00-00: this sql_mode lacks NO_ZERO_IN_DATE, so values such as 2024-00-01 can be stored, and they sort before 2024-01-01 while YEAR() gives 2024.`,
          ]),
    ],
  };
}

function dateRewrite(input: RewriteInput, args: readonly AstNode[]): Rewrite | undefined {
  const bare = bareColumn(input, args);
  const info = bare?.column.info;
  if (!bare || args.length !== 1 || !info || !isTemporalColumn(info)) return undefined;
  if (info.dataType.toLowerCase() === 'date') {
    return {
      target: 'operand',
      replacement: bare.node,
      notes: ['DATE() of a DATE column is the column itself.'],
    };
  }
  const replacement = intervalRewrite(bare.node, input.operator, input.other, (value) => {
    const date = value.kind === 'string' ? parseDate(value.value) : undefined;
    if (!date) return undefined;
    const next = nextDay(date);
    return {
      start: value.kind === 'string' ? value.value.trim() : '',
      next: next.startsWith('10000') ? null : next,
    };
  });
  return replacement
    ? { target: 'site', replacement, notes: temporalNotes(bare.column, 'DATE()') }
    : undefined;
}

function temporalNotes(column: ResolvedColumn, fn: string): string[] {
  return column.info?.dataType.toLowerCase() === 'timestamp'
    ? [
        `${column.column} is a TIMESTAMP: ${fn} and the range are both evaluated in the session time_zone, so they agree; an index on the expression would not (it stores values computed in the time zone of whoever wrote the row).`,
      ]
    : [];
}

function caseRewrite(input: RewriteInput, args: readonly AstNode[], refusals: string[]): Rewrite | undefined {
  const bare = bareColumn(input, args);
  const info = bare?.column.info;
  if (!bare || args.length !== 1 || !info || !isStringColumn(info)) return undefined;
  const values =
    input.operator === 'BETWEEN' || input.operator.endsWith('IN') ? listItems(input.other) : [input.other];
  if (
    values.length === 0 ||
    values.some((value) => literalOf(value, input.backslashEscapes)?.kind !== 'string')
  )
    return undefined;
  const sensitivity = caseSensitivity(info, bare.column.table);
  if (sensitivity === 'sensitive' || sensitivity === 'unknown') {
    refusals.push(
      sensitivity === 'sensitive'
        ? `${bare.column.column} has a case-sensitive collation: ${input.wrapped.name}() is needed, dropping it would lose rows.`
        : `The collation of ${bare.column.column} is unknown, so dropping ${input.wrapped.name}() cannot be proven equivalent.`,
    );
    return undefined;
  }
  const notes = [
    `${bare.column.column} compares case-insensitively, so ${input.wrapped.name}() changes nothing.`,
  ];
  if (sensitivity === 'insensitive-by-default')
    notes.push(
      `No collation is declared for ${bare.column.column}; this assumes its character set's default collation (case-insensitive).`,
    );
  return { target: 'operand', replacement: bare.node, notes };
}

function prefixRewrite(
  input: RewriteInput,
  args: readonly AstNode[],
  refusals: string[],
): Rewrite | undefined {
  const bare = bareColumn(input, args);
  const info = bare?.column.info;
  if (!bare || !info || !isStringColumn(info) || input.operator !== '=') return undefined;
  const name = input.wrapped.name;
  const lengthArg = literalOf(name === 'LEFT' ? args[1] : args[2]);
  if (name !== 'LEFT') {
    const start = literalOf(args[1]);
    if (args.length !== 3 || start?.kind !== 'integer' || start.value !== 1n) return undefined;
  } else if (args.length !== 2) return undefined;
  const value = literalOf(input.other, input.backslashEscapes);
  if (lengthArg?.kind !== 'integer' || value?.kind !== 'string') return undefined;
  if (BigInt([...value.value].length) !== lengthArg.value || /\s$/.test(value.value)) {
    refusals.push(
      `The literal is not exactly ${lengthArg.value} characters without trailing spaces, so LIKE 'prefix%' would not be equivalent.`,
    );
    return undefined;
  }
  const replacement = compareNode(
    'LIKE',
    bare.node,
    stringNode(likePrefixPattern(value.value, input.backslashEscapes)),
  );
  // `=` compares collation elements, LIKE character by character: under a collation where one character
  // expands to a sequence (ß = ss, æ = ae, ä = ae in german2, å = aa in danish; UCA collations also map
  // compatibility characters such as ™ to TM), LEFT(s, 2) = 'ss' matches 'ß' and LIKE 'ss%' does not
  // (both servers, tests/integration/advice-prefix-collation.test.ts). A one-character literal cannot be
  // the expansion of another single character's prefix, so it stays exact.
  const collation = effectiveCollation(info, bare.column.table);
  const exact =
    [...value.value].length <= 1 || (collation !== null && NO_EXPANSION_COLLATION.test(collation));
  return {
    target: 'site',
    replacement,
    ...(exact ? {} : { equivalent: false }),
    notes: [
      '`%`, `_` and `\\` in the prefix are escaped, so they match themselves.',
      ...(exact
        ? []
        : [
            `Not equivalent under ${collation ?? 'an unknown collation'}: = compares collation elements and LIKE compares character by character, so where one character equals a sequence (ß = 'ss', æ = 'ae'${collation && /german2|de_pb/.test(collation) ? ", ä = 'ae'" : ''}${collation && /danish|da_0900/.test(collation) ? ", å = 'aa'" : ''}), ${input.text(input.wrapped.node)} = '${value.value}' also matches rows that LIKE '${value.value}%' does not. Same rows when no stored value starts with such a character.`,
          ]),
    ],
  };
}

/** Collations without expansions (one character never equals a sequence): `=` and LIKE agree on a prefix. */
const NO_EXPANSION_COLLATION =
  /^(?:[a-z0-9]+_(?:general_ci|general_cs|general_nopad_ci|general_mysql500_ci|bin|nopad_bin|0900_bin)|latin1_swedish_ci|latin1_general_ci|latin1_general_cs|latin1_spanish_ci|binary)$/;

function arithmeticRewrite(input: RewriteInput, refusals: string[]): Rewrite | undefined {
  const [column] = input.columns;
  if (input.columns.length !== 1 || !column?.info) return undefined;
  const values =
    input.operator.endsWith('BETWEEN') || input.operator.endsWith('IN')
      ? listItems(input.other)
      : [input.other];
  if (values.some((value) => !value)) return undefined;
  const solved = solveLinear(
    input.wrapped.node,
    column.node,
    column.info,
    input.operator,
    values as AstNode[],
    input.text,
    refusals,
  );
  if (!solved) return undefined;
  const target = columnNode(column.qualifier, column.column);
  const [first, second] = solved.bounds;
  if (!first) return undefined;
  const operator = first.operator;
  const replacement =
    operator.endsWith('BETWEEN') && second
      ? compareNode(operator, target, {
          type: 'expr_list',
          value: [numberNode(first.value), numberNode(second.value)],
        })
      : operator.endsWith('IN')
        ? compareNode(operator, target, {
            type: 'expr_list',
            value: solved.bounds.map((bound) => numberNode(bound.value)),
            parentheses: true,
          })
        : compareNode(operator, target, numberNode(first.value));
  const integer = isIntegerColumn(column.info);
  const notes =
    solved.errors.length > 0
      ? []
      : [
          `${integer ? 'Integer' : 'DECIMAL'} arithmetic is exact, so solving for the column keeps every row.`,
        ];
  if (solved.dropped > 0)
    notes.push(
      `${solved.dropped} listed value${solved.dropped > 1 ? 's' : ''} can never match (no ${column.info.columnType.toUpperCase()} value solves ${solved.dropped > 1 ? 'them' : 'it'}) and ${solved.dropped > 1 ? 'were' : 'was'} dropped.`,
    );
  if (solved.division)
    notes.push(
      'The division is exact at the default div_precision_increment (4); a session that lowers it rounds the original, not the rewrite.',
    );
  if (solved.errors.length > 0)
    notes.push(
      `Not equivalent for every row: ${solved.errors.join('; ')}. Where the original does not fail, the rows are the same.`,
    );
  return { target: 'site', replacement, notes, equivalent: solved.errors.length === 0 };
}

function coalesceRewrite(input: RewriteInput, refusals: string[]): Rewrite | undefined {
  // ISNULL() takes one argument in MySQL and MariaDB (ISNULL(x, v) is ERROR 1582): never rewritten.
  if (!['IFNULL', 'COALESCE', 'NVL'].includes(input.wrapped.name)) return undefined;
  const args = functionArgs(input.wrapped.node);
  const bare = bareColumn(input, args);
  if (!bare || args.length !== 2 || input.operator !== '=') return undefined;
  const fallback = literalOf(args[1], input.backslashEscapes);
  const value = literalOf(input.other, input.backslashEscapes);
  if (!fallback || !value || fallback.kind !== value.kind) return undefined;
  if (fallback.kind === 'decimal') return undefined;
  // IFNULL(col, v) has the type of both arguments: a number with a string column (or a string with a
  // number or date column) makes the original compare as a string where the rewrite compares numbers
  // or dates: IFNULL(int_col, '05') = '05' never matches 5, int_col = '05' does.
  const info = bare.column.info;
  const numericColumn =
    info !== null && (isIntegerColumn(info) || /^(decimal|numeric|float|double|real)$/i.test(info.dataType));
  const sameKind = fallback.kind === 'integer' ? numericColumn : info !== null && isStringColumn(info);
  if (!sameKind) {
    refusals.push(
      `${input.wrapped.name}() mixes ${bare.column.column}'s type with a ${fallback.kind === 'integer' ? 'number' : 'string'}, so it compares differently from ${bare.column.column} itself; not rewritten.`,
    );
    return undefined;
  }
  const same =
    fallback.kind === 'integer' && value.kind === 'integer'
      ? fallback.value === value.value
      : fallback.kind === 'string' && value.kind === 'string' && fallback.value === value.value
        ? true
        : fallback.kind === 'string'
          ? undefined // different strings may still be equal under the collation: not provable
          : false;
  if (same === undefined) return undefined;
  const equals = compareNode('=', bare.node, input.other as AstNode);
  const replacement = same
    ? logicalNode('OR', equals, isNullNode(columnNode(bare.column.qualifier, bare.column.column)))
    : equals;
  return {
    target: 'site',
    replacement,
    notes: same
      ? [
          `${input.wrapped.name}(x, v) = v holds when x = v or x IS NULL; \`x IS NULL\` alone would lose rows.`,
        ]
      : [`The fallback differs from the compared value, so only x = v can match.`],
  };
}

/** DATE_FORMAT formats whose text orders like the date, with the literal's shape and its period. */
const DATE_FORMATS: Readonly<Record<string, { pattern: RegExp; period: 'year' | 'month' | 'day' }>> = {
  '%Y': { pattern: /^(\d{4})$/, period: 'year' },
  '%Y-%m': { pattern: /^(\d{4})-(\d{2})$/, period: 'month' },
  '%Y%m': { pattern: /^(\d{4})(\d{2})$/, period: 'month' },
  '%Y-%m-%d': { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, period: 'day' },
  '%Y%m%d': { pattern: /^(\d{4})(\d{2})(\d{2})$/, period: 'day' },
};

/** `DATE_FORMAT(d, '%Y-%m') = '2024-05'` → `d >= '2024-05-01' AND d < '2024-06-01'` (and year / day formats). */
function dateFormatRewrite(
  input: RewriteInput,
  args: readonly AstNode[],
  refusals: string[],
): Rewrite | undefined {
  const bare = bareColumn(input, args);
  const info = bare?.column.info;
  if (!bare || !info || args.length !== 2 || !isTemporalColumn(info) || input.operator !== '=')
    return undefined;
  const format = literalOf(args[1], input.backslashEscapes);
  const value = literalOf(input.other, input.backslashEscapes);
  if (format?.kind !== 'string' || value?.kind !== 'string') return undefined;
  const shape = DATE_FORMATS[format.value];
  if (!shape) return undefined;
  const match = shape.pattern.exec(value.value);
  if (!match) {
    refusals.push(
      `'${value.value}' is not a value DATE_FORMAT(…, '${format.value}') produces for a valid date, so no range is equivalent.`,
    );
    return undefined;
  }
  const year = Number(match[1]);
  const month = match[2] ? Number(match[2]) : 1;
  const day = match[3] ? Number(match[3]) : 1;
  const start = new Date(Date.UTC(2000, month - 1, day));
  start.setUTCFullYear(year);
  if (year < 1000 || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return undefined;
  const next = new Date(start.getTime());
  if (shape.period === 'year') next.setUTCFullYear(year + 1);
  else if (shape.period === 'month') next.setUTCMonth(month);
  else next.setUTCDate(day + 1);
  if (next.getUTCFullYear() > 9999) return undefined;
  const text = (date: Date): string =>
    `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
  const replacement = rangeNode(bare.node, text(start), text(next));
  if (!replacement) return undefined;
  const zeroSafe = shape.period === 'day' || /NO_ZERO_IN_DATE/i.test(input.sqlMode ?? '');
  const notes = [
    `DATE_FORMAT(…, '${format.value}') = '${value.value}' holds exactly for the ${shape.period} starting ${text(start)}.`,
    ...temporalNotes(bare.column, 'DATE_FORMAT()'),
  ];
  if (!zeroSafe)
    notes.push(
      `Not equivalent for zero-in-date values: a stored ${shape.period === 'year' ? `${year}-00-00` : `${match[1]}-${match[2]}-00`} formats as '${value.value}' but is outside the range; sql_mode without NO_ZERO_IN_DATE lets such values be stored.`,
    );
  return { target: 'site', replacement, notes, equivalent: zeroSafe };
}

/**
 * `CAST(int_col AS CHAR) = '14716'` → `int_col = 14716`. CAST gives the canonical text of the
 * integer, so only a canonical literal is equivalent: '014716', ' 14716' or '14716.0' never equal
 * it, yet `int_col = '014716'` would match 14716 numerically.
 */
function castToCharRewrite(
  input: RewriteInput,
  expression: unknown,
  target: unknown,
  refusals: string[],
): Rewrite | undefined {
  if (!isNode(expression) || expression.type !== 'column_ref' || !isNode(target)) return undefined;
  const type = String(target.dataType ?? '').toUpperCase();
  if (type !== 'CHAR' && type !== 'NCHAR' && type !== 'VARCHAR') return undefined;
  const column = input.columns.find((candidate) => candidate.node === expression);
  const info = column?.info;
  if (!column || !info || !isIntegerColumn(info) || input.operator !== '=') return undefined;
  const length = typeof target.length === 'number' ? target.length : undefined;
  const value = literalOf(input.other, input.backslashEscapes);
  if (value?.kind !== 'string') return undefined;
  if (/\bzerofill\b/i.test(info.columnType)) {
    refusals.push(
      `${column.column} is ZEROFILL: CAST(${column.column} AS CHAR) is the zero-padded text ('000005'), so it equals '${value.value}' for other values than ${column.column} = ${value.value} does. Not rewritten.`,
    );
    return undefined;
  }
  if (!/^(0|-?[1-9]\d*)$/.test(value.value)) {
    refusals.push(
      `'${value.value}' is not the canonical text of an integer, so CAST(${column.column} AS CHAR) never equals it; ${column.column} = '${value.value}' would compare numerically and match. Not rewritten.`,
    );
    return undefined;
  }
  if (length !== undefined && length < 20) {
    refusals.push(
      `CAST(… AS CHAR(${length})) cuts longer numbers to ${length} characters, so other values can equal '${value.value}'; not rewritten.`,
    );
    return undefined;
  }
  return {
    target: 'site',
    replacement: compareNode(
      '=',
      columnNode(column.qualifier, column.column),
      numberNode(BigInt(value.value)),
    ),
    notes: [
      `CAST(${column.column} AS CHAR) is the canonical text of the integer, and '${value.value}' is canonical, so comparing the number is the same. Strings that are not canonical ('0${value.value}', ' ${value.value}', '${value.value}.0') never matched the CAST and are not offered this rewrite.`,
    ],
  };
}
