// Exactly equivalent sargable rewrites of wrapped predicates, built as AST and proven by re-parsing.
//
// Each rewrite below returns the same rows as the original for every table content (not just
// the data at hand); anything that is only "usually" equivalent is not offered here. The proofs
// are in docs/rules and in tests/integration/advisor.test.ts (result checksums on both servers).

import { type AstNode, functionArgs, isNode } from '../sql/ast.js';
import type { ResolvedColumn } from '../rules/engine.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import {
  caseSensitivity,
  isIntegerColumn,
  isStringColumn,
  isTemporalColumn,
  isUnsigned,
} from './column-types.js';
import { likePrefixPattern, listItems, literalOf, nextDay, parseDate, type Literal } from './literals.js';
import { columnNode, compareNode, isNullNode, logicalNode, numberNode, stringNode } from './sql-edit.js';

/** What to replace and with what: the whole comparison (`site`) or only the wrapped operand. */
export interface Rewrite {
  target: 'site' | 'operand';
  replacement: AstNode;
  notes: string[];
  /** False when the rows differ for some data (default true); the notes say where. */
  equivalent?: boolean;
}

/** The inputs of a rewrite: the comparison seen from the wrapped side. */
export interface RewriteInput {
  wrapped: WrappedOperand;
  /** Operator from the wrapped side (`10 < f(c)` is seen as `f(c) > 10`). */
  operator: string;
  /** The other side: a value, or an expr_list for BETWEEN / IN. */
  other: AstNode | null;
  columns: readonly ResolvedColumn[];
  backslashEscapes: boolean;
}

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
  if (wrapped.kind === 'arithmetic') return arithmeticRewrite(input);
  if (wrapped.kind === 'coalesce') return coalesceRewrite(input);
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
  bounds: (value: Literal) => { start: string; next: string } | undefined,
): AstNode | undefined {
  if (operator === 'BETWEEN') {
    const [low, high] = listItems(other).map((item) => literalOf(item));
    const from = low && bounds(low);
    const to = high && bounds(high);
    return from && to ? rangeNode(column, from.start, to.next) : undefined;
  }
  const value = literalOf(other);
  const range = value && bounds(value);
  if (!range) return undefined;
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
  const replacement = intervalRewrite(bare.node, input.operator, input.other, (value) => {
    if (value.kind !== 'integer' || value.value < 1000n || value.value > 9998n) return undefined;
    return { start: `${value.value}-01-01`, next: `${value.value + 1n}-01-01` };
  });
  return replacement
    ? { target: 'site', replacement, notes: temporalNotes(bare.column, 'YEAR()') }
    : undefined;
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
    return date
      ? { start: value.kind === 'string' ? value.value.trim() : '', next: nextDay(date) }
      : undefined;
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
  return {
    target: 'site',
    replacement,
    notes: ['`%`, `_` and `\\` in the prefix are escaped, so they match themselves.'],
  };
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function arithmeticRewrite(input: RewriteInput): Rewrite | undefined {
  const node = input.wrapped.node;
  const operator = input.wrapped.name;
  if (operator !== '+' && operator !== '-') return undefined;
  const left = node.left as AstNode;
  const right = node.right as AstNode;
  const columnSide =
    isNode(left) && left.type === 'column_ref'
      ? 'left'
      : isNode(right) && right.type === 'column_ref'
        ? 'right'
        : undefined;
  if (!columnSide) return undefined;
  const columnAst = columnSide === 'left' ? left : right;
  const constant = literalOf(columnSide === 'left' ? right : left);
  const column = input.columns.find((candidate) => candidate.node === columnAst);
  if (!column?.info || !isIntegerColumn(column.info) || constant?.kind !== 'integer') return undefined;
  // c + k, k + c → c = v - k; c - k → c = v + k; k - c → c = k - v with the comparison flipped.
  const negated = operator === '-' && columnSide === 'right';
  const solve = (value: bigint): bigint =>
    operator === '+'
      ? value - constant.value
      : columnSide === 'left'
        ? value + constant.value
        : constant.value - value;
  const items =
    input.operator === 'BETWEEN' || input.operator.endsWith('IN') ? listItems(input.other) : [input.other];
  const values = items.map((item) => literalOf(item));
  if (values.length === 0 || values.some((value) => value?.kind !== 'integer')) return undefined;
  const solved = values.map((value) => numberNode(solve((value as { value: bigint }).value)));
  const target = columnNode(column.qualifier, column.column);
  let replacement: AstNode | undefined;
  if (input.operator === 'BETWEEN') {
    const [low, high] = negated ? [solved[1], solved[0]] : [solved[0], solved[1]];
    if (!low || !high) return undefined;
    replacement = compareNode('BETWEEN', target, { type: 'expr_list', value: [low, high] });
  } else if (input.operator === 'IN' || input.operator === 'NOT IN') {
    replacement = compareNode(input.operator, target, {
      type: 'expr_list',
      value: solved,
      parentheses: true,
    });
  } else if (['=', '<>', '!=', '<=>'].includes(input.operator) || FLIP[input.operator]) {
    const first = solved[0];
    if (!first) return undefined;
    replacement = compareNode(
      negated ? (FLIP[input.operator] ?? input.operator) : input.operator,
      target,
      first,
    );
  }
  if (!replacement) return undefined;
  const notes = ['Integer arithmetic is exact, so solving for the column keeps every row.'];
  if (isUnsigned(column.info) && operator === '-')
    notes.push(
      `${column.column} is UNSIGNED: where the original raised ERROR 1690 (value out of range) the rewrite simply returns rows.`,
    );
  return { target: 'site', replacement, notes };
}

function coalesceRewrite(input: RewriteInput): Rewrite | undefined {
  const args = functionArgs(input.wrapped.node);
  const bare = bareColumn(input, args);
  if (!bare || args.length !== 2 || input.operator !== '=') return undefined;
  const fallback = literalOf(args[1], input.backslashEscapes);
  const value = literalOf(input.other, input.backslashEscapes);
  if (!fallback || !value || fallback.kind !== value.kind) return undefined;
  if (fallback.kind === 'decimal') return undefined;
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
