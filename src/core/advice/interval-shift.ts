// `col + INTERVAL n unit OP x` → `col OP x'` (x' = x - INTERVAL n unit): moving a fixed-length interval to
// the other side of a comparison (exact rewrites, see rewrites.ts).
//
// Design note (found by tests/integration/advice-rewrites-property.test.ts on both servers): the
// server's date arithmetic is exact only inside 0001-01-01 … 9999-12-31 23:59:59.999999. Outside it
// the original is NULL (past 9999-12-31 on both; below 0001-01-01 MariaDB gives NULL and MySQL
// '0000-00-00', or NULL, and a year-0 column value gives NULL on MariaDB even for + 0 DAY), and a moved
// literal such as '0001-01-01' - INTERVAL 1 DAY is a zero date that strict mode rejects (ERROR 1525).
// So a literal x is moved here, exactly (BigInt microseconds), and refused when x or x' leaves that
// range; the column keeps an upper bound where col + n passes 9999-12-31 for `>`-like comparisons, and
// a lower bound of 0001-01-01 (plus the interval when it is subtracted) for `<`-like ones. Literals whose
// meaning depends on the type the server compares in (a datetime string against a DATE expression, a
// non-canonical '2024-5-1') are refused. NOW(), CURRENT_DATE and parameters are moved as
// `x - INTERVAL n unit` (they are inside the range).

import { type AstNode, isNode, functionName } from '../sql/ast.js';
import { isTemporalColumn } from './column-types.js';
import { listItems, literalOf } from './literals.js';
import type { Rewrite, RewriteInput } from './rewrite-input.js';
import { columnNode, compareNode, logicalNode, numberNode, stringNode } from './sql-edit.js';

/** Units whose length is fixed (in microseconds), so `col + INTERVAL n unit` can be moved exactly. */
const FIXED_UNITS: Readonly<Record<string, bigint>> = {
  MICROSECOND: 1n,
  SECOND: 1_000_000n,
  MINUTE: 60_000_000n,
  HOUR: 3_600_000_000n,
  DAY: 86_400_000_000n,
  WEEK: 604_800_000_000n,
};

/** Clock values that are always inside the supported range: moved as `x - INTERVAL n unit`. */
const CLOCK_FUNCTIONS = new Set([
  'NOW',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'CURDATE',
  'CURRENT_DATE',
  'UTC_TIMESTAMP',
  'UTC_DATE',
]);

const DAY_US = 86_400_000_000n;
const pad = (n: number | bigint, width = 2): string => String(n).padStart(width, '0');

/** Microseconds since 0001-01-01 of a canonical `YYYY-MM-DD[ HH:MM:SS[.ffffff]]` in 0001 … 9999, or undefined. */
function parseMoment(text: string): { us: bigint; time: boolean } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  const days = BigInt(Math.round((date.getTime() - EPOCH_MS) / 86_400_000));
  const fraction = BigInt((match[7] ?? '').padEnd(6, '0') || '0');
  const us = days * DAY_US + BigInt((hour * 60 + minute) * 60 + second) * 1_000_000n + fraction;
  return { us, time: match[4] !== undefined };
}
const EPOCH_MS = (() => {
  const date = new Date(Date.UTC(2000, 0, 1));
  date.setUTCFullYear(1);
  return date.getTime();
})();
/** The last microsecond of 9999-12-31. */
const MAX_US = parseMoment('9999-12-31 23:59:59.999999')!.us;

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS[.ffffff]` of microseconds since 0001-01-01 (negative: year 0). */
function formatMoment(us: bigint, withTime: boolean): string {
  const days = us >= 0n ? us / DAY_US : -((-us + DAY_US - 1n) / DAY_US); // floor (year 0 is negative)
  const rest = us - days * DAY_US;
  const date = new Date(EPOCH_MS + Number(days) * 86_400_000);
  const text = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  if (!withTime) return text;
  const seconds = rest / 1_000_000n;
  const fraction = rest % 1_000_000n;
  const clock = `${pad(seconds / 3600n)}:${pad((seconds / 60n) % 60n)}:${pad(seconds % 60n)}`;
  return `${text} ${clock}${fraction > 0n ? `.${pad(fraction, 6)}` : ''}`;
}

/** A compared value moved by the interval: a computed literal, or `x ∓ INTERVAL` for a clock/parameter. */
function moveValue(
  value: unknown,
  shift: bigint,
  type: string,
  interval: AstNode,
  step: bigint,
): AstNode | undefined {
  if (!isNode(value)) return undefined;
  if (value.type === 'origin' && value.value === '?') return movedExpression(value, interval, step);
  if (value.type === 'param') return movedExpression(value, interval, step);
  if (value.type === 'function' && CLOCK_FUNCTIONS.has(functionName(value)))
    return movedExpression(value, interval, step);
  const literal = literalOf(value);
  if (literal?.kind !== 'string') return undefined;
  const moment = parseMoment(literal.value);
  // A DATE expression compared with a datetime string is compared in a type the servers disagree on.
  if (!moment || (type === 'date' && moment.time)) return undefined;
  const moved = moment.us - shift;
  if (moved < 0n || moved > MAX_US) return undefined;
  return stringNode(formatMoment(moved, type !== 'date'));
}

function movedExpression(value: AstNode, interval: AstNode, step: bigint): AstNode {
  if (step === 0n) return value;
  return {
    type: 'binary_expr',
    operator: step > 0n ? '-' : '+',
    left: stripLoc(value),
    right: { type: 'interval', expr: numberNode(step < 0n ? -step : step), unit: interval.unit },
  };
}

/**
 * `col + INTERVAL n unit OP x` → `col OP x'` for units of fixed length (a MONTH or YEAR interval clamps
 * at month ends and cannot be undone), with the bounds that keep the rows where the original is NULL out.
 */
export function intervalShiftRewrite(
  input: RewriteInput,
  columnArg: unknown,
  interval: AstNode,
  sign: 1 | -1,
  refusals: string[],
): Rewrite | undefined {
  if (!isNode(columnArg) || columnArg.type !== 'column_ref') return undefined;
  const column = input.columns.find((candidate) => candidate.node === columnArg);
  const info = column?.info;
  if (!column || !info || !isTemporalColumn(info)) return undefined;
  const type = info.dataType.toLowerCase();
  const unit = String(interval.unit ?? '').toUpperCase();
  const amount = literalOf(interval.expr);
  const length = FIXED_UNITS[unit];
  if (length === undefined) {
    refusals.push(
      `INTERVAL … ${unit} has no fixed length (month ends clamp: 2024-01-31 + INTERVAL 1 MONTH = 2024-02-29), so it cannot be moved to the other side exactly.`,
    );
    return undefined;
  }
  if (amount?.kind !== 'integer' || (type === 'date' && unit !== 'DAY' && unit !== 'WEEK')) return undefined;
  const operator = input.operator;
  const values = operator === 'BETWEEN' ? listItems(input.other) : [input.other];
  if (!['=', '<=>', '<', '<=', '>', '>=', 'BETWEEN'].includes(operator) || values.length === 0)
    return undefined;
  const step = amount.value * BigInt(sign); // the column is shifted by this many units
  const shift = step * length;
  const unitNode: AstNode = { ...interval, unit: unit.toLowerCase() };
  const moved = values.map((value) => moveValue(value, shift, type, unitNode, step));
  if (moved.some((value) => !value)) {
    refusals.push(
      `The compared value is not a canonical ${type === 'date' ? 'date' : 'date or datetime'} literal inside 0001-01-01 … 9999-12-31 once the interval is moved (nor NOW(), CURRENT_DATE or a parameter), so moving the interval is not proven exact.`,
    );
    return undefined;
  }
  const target = columnNode(column.qualifier, column.column);
  let replacement: AstNode =
    operator === 'BETWEEN'
      ? compareNode('BETWEEN', target, { type: 'expr_list', value: moved as AstNode[] })
      : compareNode(operator, target, moved[0] as AstNode);
  const magnitude = step < 0n ? -step : step;
  const notes = [
    `${unit} intervals have a fixed length, so moving INTERVAL ${magnitude} ${unit} to the other side keeps every row.`,
  ];
  const asType = (us: bigint): string => formatMoment(us, type !== 'date');
  // The original is NULL where col + interval passes 9999-12-31 (a common "no end" sentinel).
  if (step > 0n && !['<', '<='].includes(operator)) {
    const limit = type === 'date' ? asType(MAX_US - shift) : `${formatMoment(MAX_US - shift, true)}`;
    replacement = logicalNode('AND', replacement, compareNode('<=', target, stringNode(limit)));
    notes.push(
      `${column.column} + INTERVAL ${step} ${unit} is NULL after ${limit} (past 9999-12-31), so the rewrite keeps that bound.`,
    );
  }
  // Year 0 (0000-01-01 … 0000-12-31, storable in every sql_mode): MariaDB's arithmetic gives NULL for a
  // year-0 value or result, so `<`-like comparisons keep a lower bound; MySQL's gives '0000-00-00' (or
  // NULL further back), which `<` keeps, and no bound reproduces that.
  let yearZero = true;
  if (['<', '<='].includes(operator)) {
    if (input.flavor === 'mariadb') {
      const lower = asType(-shift); // col + shift >= 0001-01-01 (a year-0 bound when the interval is added)
      replacement = logicalNode('AND', replacement, compareNode('>=', target, stringNode(lower)));
      notes.push(
        `MariaDB's date arithmetic gives NULL for a result before 0001-01-01 (year 0), so the rewrite keeps ${column.column} >= '${lower}'.`,
      );
    } else {
      yearZero = false;
      notes.push(
        `Not equivalent for dates in year 0 (0000-01-01 … 0000-12-31, which every sql_mode stores): MySQL's arithmetic gives '0000-00-00' or NULL there, so the original keeps some of those rows and drops others. Same rows when no value is before 0001-01-01${step < 0n ? ` + INTERVAL ${magnitude} ${unit}` : ''}.`,
      );
    }
  }
  const zeroSafe = /NO_ZERO_IN_DATE/i.test(input.sqlMode ?? '');
  notes.push(
    zeroSafe
      ? 'Assumes values in the documented range (1000-01-01 … 9999-12-31); zero parts such as 2024-05-00 cannot be stored under this sql_mode (NO_ZERO_IN_DATE), and the original gives NULL for them.'
      : 'Not equivalent for zero-in-date values such as 2024-05-00 (this sql_mode lacks NO_ZERO_IN_DATE, so they can be stored): the original gives NULL for them, the rewrite compares them.',
  );
  const timestamp = type === 'timestamp';
  if (timestamp)
    notes.push(
      `Not equivalent in every session: ${column.column} is a TIMESTAMP, and where the session time_zone has daylight saving time the repeated hour converts differently on the two sides; with a fixed-offset time zone (UTC, +02:00) the rows are the same.`,
    );
  return { target: 'site', replacement, notes, equivalent: !timestamp && zeroSafe && yearZero };
}

function stripLoc(node: AstNode): AstNode {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) =>
    key === 'loc' ? undefined : value,
  ) as AstNode;
}
