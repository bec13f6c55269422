// `col + INTERVAL n unit OP x` → `col OP x - INTERVAL n unit`: moving a fixed-length interval to the
// other side of a comparison (exact rewrites, see rewrites.ts).

import { type AstNode, columnRefs, isNode } from '../sql/ast.js';
import { isTemporalColumn } from './column-types.js';
import { listItems, literalOf } from './literals.js';
import type { Rewrite, RewriteInput } from './rewrite-input.js';
import { columnNode, compareNode, logicalNode, numberNode, stringNode } from './sql-edit.js';

/** Units whose length is fixed, so `col + INTERVAL n unit` can be moved to the other side exactly. */
const FIXED_UNITS: Readonly<Record<string, number>> = {
  MICROSECOND: 0.001,
  SECOND: 1_000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 604_800_000,
};

/** `YYYY-MM-DD[ HH:MM:SS.ffffff]` of the latest value of a type, shifted back by `ms`. */
function latestBefore(type: string, ms: number): string {
  const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  const shifted = new Date(max - ms);
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const date = `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  return type === 'date'
    ? date
    : `${date} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}.999999`;
}

/**
 * `col + INTERVAL n unit OP x` → `col OP x - INTERVAL n unit` for units of fixed length (a MONTH or
 * YEAR interval clamps at month ends and cannot be undone). Where `col + n` would pass 9999-12-31
 * the original is NULL, so `>`-like comparisons keep an upper bound on the column.
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
  if (FIXED_UNITS[unit] === undefined) {
    refusals.push(
      `INTERVAL … ${unit} has no fixed length (month ends clamp: 2024-01-31 + INTERVAL 1 MONTH = 2024-02-29), so it cannot be moved to the other side exactly.`,
    );
    return undefined;
  }
  if (amount?.kind !== 'integer' || (type === 'date' && unit !== 'DAY' && unit !== 'WEEK')) return undefined;
  const operator = input.operator;
  const values = operator === 'BETWEEN' ? listItems(input.other) : [input.other];
  if (!['=', '<=>', '<', '<=', '>', '>=', 'BETWEEN'].includes(operator)) return undefined;
  if (values.length === 0 || values.some((value) => !isNode(value) || columnRefs(value).length > 0))
    return undefined;
  const step = Number(amount.value) * sign; // the column is shifted by this many units
  const shiftedInterval: AstNode = {
    type: 'interval',
    expr: numberNode(BigInt(Math.abs(step))),
    unit: unit.toLowerCase(),
  };
  const moved = (value: AstNode): AstNode =>
    step === 0
      ? value
      : {
          type: 'binary_expr',
          operator: step > 0 ? '-' : '+',
          left: stripLoc(value),
          right: shiftedInterval,
        };
  const target = columnNode(column.qualifier, column.column);
  let replacement: AstNode =
    operator === 'BETWEEN'
      ? compareNode('BETWEEN', target, { type: 'expr_list', value: (values as AstNode[]).map(moved) })
      : compareNode(operator, target, moved(values[0] as AstNode));
  const notes = [
    `${unit} intervals have a fixed length, so moving INTERVAL ${Math.abs(step)} ${unit} to the other side keeps every row.`,
  ];
  // The original is NULL where col + interval passes 9999-12-31 (a common "no end" sentinel).
  if (step > 0 && type !== 'timestamp' && !['<', '<='].includes(operator)) {
    const limit = latestBefore(type, step * (FIXED_UNITS[unit] ?? 0));
    replacement = logicalNode('AND', replacement, compareNode('<=', target, stringNode(limit)));
    notes.push(
      `${column.column} + INTERVAL ${step} ${unit} is NULL after ${limit} (past 9999-12-31), so the rewrite keeps that bound.`,
    );
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
  return { target: 'site', replacement, notes, equivalent: !timestamp && zeroSafe };
}

function stripLoc(node: AstNode): AstNode {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) =>
    key === 'loc' ? undefined : value,
  ) as AstNode;
}
