// Solving `m * col + c OP v` for the column, exactly, for INTEGER and DECIMAL columns.
//
// Design note: the expression is read as a linear form over exact rationals (BigInt numerator and
// denominator). The bound for the column is moved onto the column's grid (integers, or multiples of
// 10^-scale for DECIMAL(p, s)) with floor/ceil, so `qty * 3 > 10` becomes `qty > 3` and
// `amount * 1.2 > 100` on DECIMAL(8,2) becomes `amount > 83.33`: the same rows for every value of the
// column. What the server does that algebra does not — ERROR 1690 when an intermediate result
// leaves BIGINT (or goes below 0 with an UNSIGNED operand), DECIMAL rounding of a division — is
// checked from the column's range; where the original can fail the rewrite is marked not equivalent.

import { columnRefs, isNode } from '../sql/ast.js';
import type { AstNode } from '../sql/ast.js';
import type { ColumnInfo } from '../model/schema.js';
import { isIntegerColumn, isUnsigned } from './column-types.js';
import { DIV_PRECISION_INCREMENT } from './generated-type.js';
import { isLossyNumber } from './literals.js';

/** An exact rational n/d, d > 0. */
interface Q {
  n: bigint;
  d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a || 1n;
}
function q(n: bigint, d = 1n): Q {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return { n: n / g, d: d / g };
}
const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q): Q => q(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
const div = (a: Q, b: Q): Q => q(a.n * b.d, a.d * b.n);
const cmp = (a: Q, b: Q): number => {
  const diff = a.n * b.d - b.n * a.d;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
};
const floorDiv = (a: bigint, b: bigint): bigint => {
  const r = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? r - 1n : r;
};

/** A numeric literal as an exact rational, or undefined. */
export function literalQ(node: unknown): Q | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'unary_expr' && node.operator === '-') {
    const inner = literalQ(node.expr);
    return inner && q(-inner.n, inner.d);
  }
  if ((node.type !== 'number' && node.type !== 'bigint') || isLossyNumber(node)) return undefined;
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(String(node.value));
  if (!match) return undefined;
  const decimals = match[3] ?? '';
  const n = BigInt(`${match[2]}${decimals}` || '0') * (match[1] ? -1n : 1n);
  return q(n, 10n ** BigInt(decimals.length));
}

/** `m * col + c` with the value range each intermediate result can take. */
interface Linear {
  m: Q;
  c: Q;
  /** The subexpression uses integer arithmetic (no decimal literal, no division). */
  integer: boolean;
  /** An UNSIGNED column takes part (integer arithmetic on it is UNSIGNED: below 0 is ERROR 1690). */
  unsigned: boolean;
}

interface SolveContext {
  column: AstNode;
  /** The column is an integer type (its arithmetic is BIGINT, not DECIMAL). */
  integerColumn: boolean;
  lo: Q;
  hi: Q;
  /** Reasons the original can fail where the rewrite does not. */
  errors: string[];
  text: (node: AstNode) => string;
}

const I64_MIN = q(-(2n ** 63n));
const I64_MAX = q(2n ** 63n - 1n);
const U64_MAX = q(2n ** 64n - 1n);

function rangeOf(linear: Linear, context: SolveContext): [Q, Q] {
  const a = add(mul(linear.m, context.lo), linear.c);
  const b = add(mul(linear.m, context.hi), linear.c);
  return cmp(a, b) <= 0 ? [a, b] : [b, a];
}

/** Record where integer arithmetic on this subexpression can raise ERROR 1690. */
function checkRange(node: AstNode, linear: Linear, context: SolveContext): void {
  if (!linear.integer || (linear.m.n === 0n && !linear.unsigned)) return;
  const [low, high] = rangeOf(linear, context);
  if (linear.unsigned && cmp(low, q(0n)) < 0)
    context.errors.push(
      `${context.text(node)} is UNSIGNED arithmetic and goes below 0 for some values of the column: the original fails with ERROR 1690 (BIGINT UNSIGNED value is out of range) there`,
    );
  else if (linear.unsigned ? cmp(high, U64_MAX) > 0 : cmp(low, I64_MIN) < 0 || cmp(high, I64_MAX) > 0)
    context.errors.push(
      `${context.text(node)} can leave the BIGINT range for extreme values of the column: the original fails with ERROR 1690 there`,
    );
}

function linearOf(node: unknown, context: SolveContext, unsignedColumn: boolean): Linear | undefined {
  if (!isNode(node)) return undefined;
  if (node === context.column)
    return { m: q(1n), c: q(0n), integer: context.integerColumn, unsigned: unsignedColumn };
  const constant = literalQ(node);
  if (constant) {
    // An integer literal is BIGINT up to 2^63 - 1, BIGINT UNSIGNED up to 2^64 - 1, DECIMAL beyond.
    const integer = constant.d === 1n && !/\./.test(String(node.value ?? '')) && cmp(constant, U64_MAX) <= 0;
    return { m: q(0n), c: constant, integer, unsigned: integer && cmp(constant, I64_MAX) > 0 };
  }
  let result: Linear | undefined;
  if (node.type === 'unary_expr' && node.operator === '-') {
    const inner = linearOf(node.expr, context, unsignedColumn);
    if (!inner) return undefined;
    result = { ...inner, m: q(-inner.m.n, inner.m.d), c: q(-inner.c.n, inner.c.d) };
    // MySQL negates an UNSIGNED value as signed BIGINT: fails above 2^63 only.
    if (inner.unsigned && inner.integer) {
      const [, high] = rangeOf(inner, context);
      if (cmp(high, q(2n ** 63n)) > 0)
        context.errors.push(`${context.text(node)} fails with ERROR 1690 for values above 2^63`);
      result.unsigned = false;
      return result;
    }
  } else if (node.type === 'binary_expr') {
    const operator = String(node.operator).toUpperCase();
    const left = linearOf(node.left, context, unsignedColumn);
    const right = linearOf(node.right, context, unsignedColumn);
    if (!left || !right) return undefined;
    const integer = left.integer && right.integer;
    const unsigned = left.unsigned || right.unsigned;
    if (operator === '+') result = { m: add(left.m, right.m), c: add(left.c, right.c), integer, unsigned };
    else if (operator === '-')
      result = { m: sub(left.m, right.m), c: sub(left.c, right.c), integer, unsigned };
    else if (operator === '*') {
      if (left.m.n !== 0n && right.m.n !== 0n) return undefined;
      const [variable, factor] = left.m.n !== 0n ? [left, right.c] : [right, left.c];
      result = { m: mul(variable.m, factor), c: mul(variable.c, factor), integer, unsigned };
    } else if (operator === '/') {
      // Exact only when dividing by a constant d with 10^4 divisible by d: the quotient then
      // has at most div_precision_increment (4) more decimals than the dividend, and no rounding.
      if (right.m.n !== 0n || right.c.n === 0n || left.m.n === 0n) return undefined;
      const divisor = right.c;
      const tenK = 10n ** BigInt(DIV_PRECISION_INCREMENT);
      if (divisor.d !== 1n || tenK % (divisor.n < 0n ? -divisor.n : divisor.n) !== 0n) return undefined;
      result = { m: div(left.m, divisor), c: div(left.c, divisor), integer: false, unsigned: false };
    } else return undefined;
  } else return undefined;
  checkRange(node, result, context);
  return result;
}

/** The value range of an integer or DECIMAL column, and its grid step (as a power of ten). */
export function columnDomain(info: ColumnInfo): { lo: Q; hi: Q; scale: number } | undefined {
  if (isIntegerColumn(info)) {
    const bits = { tinyint: 8n, smallint: 16n, mediumint: 24n, int: 32n, integer: 32n, bigint: 64n }[
      info.dataType.toLowerCase() as 'int'
    ];
    if (!bits) return undefined;
    return isUnsigned(info)
      ? { lo: q(0n), hi: q(2n ** bits - 1n), scale: 0 }
      : { lo: q(-(2n ** (bits - 1n))), hi: q(2n ** (bits - 1n) - 1n), scale: 0 };
  }
  const decimal = /^(?:decimal|numeric)(?:\((\d+)(?:,\s*(\d+))?\))?/i.exec(info.columnType);
  if (!decimal) return undefined;
  const precision = BigInt(decimal[1] ?? 10);
  const scale = Number(decimal[2] ?? 0);
  const max = q(10n ** precision - 1n, 10n ** BigInt(scale));
  return { lo: isUnsigned(info) ? q(0n) : q(-max.n, max.d), hi: max, scale };
}

/** The text of a rational on the column's grid (`950`, `83.33`). */
function gridText(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, -scale);
  const fraction = digits.slice(-scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** One solved comparison: the operator on the bare column and the bound's text. */
export interface SolvedBound {
  operator: string;
  value: string;
}

export interface Solved {
  /** The comparison on the bare column, per compared value (one for most operators, two for BETWEEN, n for IN). */
  bounds: SolvedBound[];
  /** For IN / NOT IN: values that no column value can equal, dropped from the list. */
  dropped: number;
  /** Why the original can fail where the rewrite does not (then the rewrite is not equivalent). */
  errors: string[];
  /** Division was solved (exact only with div_precision_increment at its default, 4). */
  division: boolean;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * Solve `expression OP value(s)` for the single column `column` (a node inside `expression`).
 * Undefined when it is not linear in the column, a value is not a number, or no bound exists
 * (`qty * 2 = 11` has no solution: refused, not rewritten to something else); `reason` says why.
 */
export function solveLinear(
  expression: AstNode,
  column: AstNode,
  info: ColumnInfo,
  operator: string,
  values: readonly AstNode[],
  text: (node: AstNode) => string,
  reasons: string[],
): Solved | undefined {
  const domain = columnDomain(info);
  if (!domain || columnRefs(expression).length !== 1) return undefined;
  const context: SolveContext = {
    column,
    integerColumn: isIntegerColumn(info),
    lo: domain.lo,
    hi: domain.hi,
    errors: [],
    text,
  };
  const linear = linearOf(expression, context, isUnsigned(info) && isIntegerColumn(info));
  if (!linear || linear.m.n === 0n) return undefined;
  const constants = values.map((value) => literalQ(value));
  if (constants.length === 0 || constants.some((value) => value === undefined)) return undefined;
  const step = 10n ** BigInt(domain.scale);
  // t = (v - c) / m, and the column's grid units around it.
  const solutions = (constants as Q[]).map((value) => {
    const t = div(sub(value, linear.c), linear.m);
    const scaled = mul(t, q(step));
    const floor = floorDiv(scaled.n, scaled.d);
    const ceil = scaled.n % scaled.d === 0n ? floor : floor + 1n;
    return { onGrid: scaled.d === 1n, floor, ceil };
  });
  const negative = linear.m.n < 0n;
  const op = negative ? (FLIP[operator] ?? operator) : operator;
  const bound = (operatorText: string, units: bigint): SolvedBound => ({
    operator: operatorText,
    value: gridText(units, domain.scale),
  });
  const first = solutions[0]!;
  let bounds: SolvedBound[] | undefined;
  let dropped = 0;
  switch (op) {
    case '=':
    case '<=>':
    case '<>':
    case '!=':
      if (!first.onGrid) {
        reasons.push(
          `No ${info.columnType.toUpperCase()} value solves it exactly, so the comparison is ${op === '=' || op === '<=>' ? 'never true' : 'true for every non-NULL row'}: rewrite it by hand if that is what is meant.`,
        );
        return undefined;
      }
      bounds = [bound(op, first.floor)];
      break;
    case '>':
    case '<=':
      bounds = [bound(op, first.floor)];
      break;
    case '>=':
    case '<':
      bounds = [bound(op, first.ceil)];
      break;
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const [low, high] = negative ? [solutions[1], solutions[0]] : [solutions[0], solutions[1]];
      if (!low || !high) return undefined;
      bounds = [bound(op, low.ceil), bound(op, high.floor)];
      break;
    }
    case 'IN':
    case 'NOT IN': {
      // A list mixing integers and decimals is compared in DOUBLE when a value is beyond 2^53 (measured on
      // both servers: bu + 0 IN (9223372036854775808, -1, 9.99) matches 9223372036854775807 too), while
      // the rewritten list, without the dropped decimals, compares exactly.
      const beyond = (value: Q): boolean => cmp(value, q(2n ** 53n)) > 0 || cmp(value, q(-(2n ** 53n))) < 0;
      const decimals = values.filter((value) => /\./.test(text(value))).length;
      if ((constants as Q[]).some(beyond) && decimals > 0 && decimals < values.length) {
        reasons.push(
          'The list mixes decimals with integers beyond 2^53, which the server compares as DOUBLE (inexactly); not rewritten.',
        );
        return undefined;
      }
      const kept = solutions.filter((solution) => solution.onGrid);
      dropped = solutions.length - kept.length;
      if (kept.length === 0) {
        reasons.push(`No ${info.columnType.toUpperCase()} value solves any of the listed values exactly.`);
        return undefined;
      }
      bounds = kept.map((solution) => bound(op, solution.floor));
      break;
    }
    default:
      return undefined;
  }
  return { bounds, dropped, errors: [...new Set(context.errors)], division: /\//.test(text(expression)) };
}
