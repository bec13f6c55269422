// Expressions an index DDL evaluates on every stored row that can raise an error there (issue 17).
/*
 * Creating a functional index or an indexed generated column computes the expression for every row,
 * and later INSERTs/UPDATEs compute it for theirs. Measured on MySQL 8.0.33 and MariaDB 10.11 with
 * their default (strict) sql_mode, the ALTER fails on existing data:
 * - ERROR 1690 when integer arithmetic leaves its range: an UNSIGNED integer operand makes + - * UNSIGNED
 *   (`1 - id`, `u - 5`, `u + -5`, `u * -1`, `u - d` with u < d), and BIGINT arithmetic can pass
 *   ±9.2e18 (`b * 2`); unary minus of an INT UNSIGNED and `u + 5` are accepted.
 * - ERROR 1365 when a divisor (/, DIV, %, MOD) is 0 on a stored row, under STRICT_*_TABLES with
 *   ERROR_FOR_DIVISION_BY_ZERO (both servers' default); without them the value is NULL and the DDL runs.
 * Offline the data is unknown: the suggestion says so and gives the read-only check to run. Connected,
 * main/services/cast-check.ts runs that check (the extremes MIN/MAX of each column, read through an
 * index when there is one, combined as corners: exact for one column, conservative for several; and
 * one row with a zero divisor), and applyEvaluationChecks (cast-check.ts) withdraws the DDL when it would fail.
 * CAST of strings is the other data-dependent failure, checked by the same mechanism (cast-check.ts).
 */

import type { ColumnInfo } from '../model/schema.js';
import { type AstNode, columnRefs, functionArgs, functionName, isNode } from '../sql/ast.js';
import { isUnsignedInteger, quoteIdentifier } from './index-ddl.js';
import { type Literal, literalOf } from './literals.js';

/** A live check as model/report.ts's EvaluationCheck carries it (declared here: report.ts imports the design, which imports this). */
export interface EvaluationCheck {
  table: string;
  column: string;
  target: string;
  evaluate?: { expression: string; overflow: string[]; divisors: string[]; columns: string[] };
}

/** What can fail when the expression is computed for stored rows. */
export interface EvaluationRisk {
  /** Columns whose integer arithmetic can leave its range (ERROR 1690). */
  overflow: string[];
  /** Divisor expressions (text) that are 0 on some row would raise ERROR 1365. */
  divisors: string[];
  /** Every column the expression reads (the range check combines their extremes). */
  columns: string[];
}

const numberOf = (literal: Literal | undefined): number | undefined =>
  literal?.kind === 'integer'
    ? Number(literal.value)
    : literal?.kind === 'decimal'
      ? Number(literal.text)
      : undefined;

const DIVISION = new Set(['/', 'DIV', '%', 'MOD']);

/** True when a division by zero fails a write (and so the DDL) under this sql_mode. */
export function divisionByZeroFails(sqlMode: string): boolean {
  return /STRICT_(TRANS|ALL)_TABLES/i.test(sqlMode) && /ERROR_FOR_DIVISION_BY_ZERO/i.test(sqlMode);
}

/**
 * The risks of computing `node` for every stored row, or undefined when none. `columns` are the
 * expression's columns (schema info); `text` prints a sub-expression as the DDL writes it.
 */
export function evaluationRisk(
  node: AstNode,
  columns: readonly ColumnInfo[],
  sqlMode: string,
  text: (node: AstNode) => string,
): EvaluationRisk | undefined {
  const byName = new Map(columns.map((column) => [column.name.toLowerCase(), column]));
  const columnOf = (ref: AstNode): ColumnInfo | undefined =>
    ref.type === 'column_ref' && typeof ref.column === 'string'
      ? byName.get(ref.column.toLowerCase())
      : undefined;
  const overflow = new Set<string>();
  const divisors: string[] = [];
  const refsOf = (value: unknown): ColumnInfo[] =>
    columnRefs(value).flatMap((ref) => {
      const info = byName.get(ref.column.toLowerCase());
      return info ? [info] : [];
    });
  const nonNegativeConstant = (value: unknown): boolean => {
    const literal = literalOf(value);
    return numberOf(literal) !== undefined && numberOf(literal)! >= 0;
  };
  const unsignedOnly = (value: unknown): boolean =>
    nonNegativeConstant(value) ||
    (isNode(value) && columnOf(value) !== undefined && isUnsignedInteger(columnOf(value)!));
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    const operator = String(value.operator ?? '').toUpperCase();
    if (value.type === 'binary_expr' && ['+', '-', '*'].includes(operator)) {
      const operands = [value.left, value.right];
      for (const [index, operand] of operands.entries()) {
        if (!isNode(operand)) continue;
        const info = columnOf(operand);
        if (!info) continue;
        const other = operands[1 - index];
        // UNSIGNED arithmetic: a subtraction, or a signed / negative other operand.
        if (isUnsignedInteger(info) && (operator === '-' || !unsignedOnly(other))) overflow.add(info.name);
        // BIGINT arithmetic near ±9.2e18
        // (INT and smaller are computed in 64 bits: only a product or a sum with another column can.)
        if (/^bigint$/i.test(info.dataType) && (operator === '*' || columnRefs(other).length > 0))
          overflow.add(info.name);
      }
      // An UNSIGNED sub-expression (`(u + 1) - 5`): its columns decide the range too.
      if (operator === '-')
        for (const info of refsOf(value.left)) if (isUnsignedInteger(info)) overflow.add(info.name);
    }
    const divisor =
      value.type === 'binary_expr' && DIVISION.has(operator)
        ? value.right
        : value.type === 'function' && functionName(value) === 'MOD'
          ? functionArgs(value)[1]
          : undefined;
    if (isNode(divisor) && divisionByZeroFails(sqlMode)) {
      const literal = literalOf(divisor);
      if (columnRefs(divisor).length > 0 || numberOf(literal) === 0) divisors.push(text(divisor));
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(node);
  if (overflow.size === 0 && divisors.length === 0) return undefined;
  return {
    overflow: [...overflow],
    divisors: [...new Set(divisors)],
    columns: [...new Set(refsOf(node).map((info) => info.name))],
  };
}

/** The live check of a risk, as the CAST checks carry it (target EVALUATE). */
export function evaluationCheck(table: string, expression: string, risk: EvaluationRisk): EvaluationCheck {
  return {
    table,
    column: risk.overflow[0] ?? risk.divisors[0] ?? '',
    target: 'EVALUATE',
    evaluate: { expression, overflow: risk.overflow, divisors: risk.divisors, columns: risk.columns },
  };
}

/**
 * Read-only SELECTs that show whether computing the expression fails on stored rows: the expression
 * over every combination of each overflow column's MIN and MAX (fails with ERROR 1690 itself), and
 * one row per divisor that is 0 (a count above 0 means ERROR 1365).
 */
export function evaluationCheckQueries(
  database: string | null,
  check: EvaluationCheck,
): { corners?: string; zeroDivisors: { divisor: string; sql: string }[] } {
  const evaluate = check.evaluate;
  if (!evaluate) return { zeroDivisors: [] };
  const from = `${database ? `${quoteIdentifier(database)}.` : ''}${quoteIdentifier(check.table)}`;
  const corners =
    evaluate.overflow.length === 0
      ? undefined
      : `SELECT COUNT(${evaluate.expression}) AS n FROM ${evaluate.columns
          .map((name, index) => {
            const column = quoteIdentifier(name);
            return `(SELECT MIN(${column}) AS ${column} FROM ${from} UNION ALL SELECT MAX(${column}) FROM ${from}) AS sargable_corner_${index}`;
          })
          .join(' CROSS JOIN ')}`;
  return {
    ...(corners ? { corners } : {}),
    zeroDivisors: evaluate.divisors.map((divisor) => ({
      divisor,
      sql: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE (${divisor}) = 0 LIMIT 1) AS sargable_zero_divisor`,
    })),
  };
}

/**
 * In a SELECT a division by 0 is NULL (with a warning), so dividing by NULLIF(divisor, 0) returns the
 * same rows, and an index on that expression cannot fail on a zero (UPDATE/DELETE under strict mode
 * raise ERROR 1365 instead: not the same there).
 */
export const NULLIF_HINT = (divisors: readonly string[]): string =>
  `In a SELECT, dividing by ${divisors.map((divisor) => `NULLIF(${divisor}, 0)`).join(' / ')} returns the same rows (a division by 0 is NULL there) and an index on that expression, written the same way in the query, cannot fail on a 0.`;

/** The offline note: what can fail, and the checks to run first. */
export function evaluationRiskNote(table: string, expression: string, risk: EvaluationRisk): string {
  const check = evaluationCheckQueries(null, evaluationCheck(table, expression, risk));
  const parts: string[] = [];
  if (risk.overflow.length > 0)
    parts.push(
      `if stored ${risk.columns.join(', ')} values put ${expression} outside its integer range (an UNSIGNED result below 0, or beyond BIGINT), the DDL fails with ERROR 1690`,
    );
  if (risk.divisors.length > 0)
    parts.push(
      `if ${risk.divisors.join(' or ')} is 0 on a stored row, the DDL fails with ERROR 1365 (division by 0 under strict sql_mode with ERROR_FOR_DIVISION_BY_ZERO)`,
    );
  const checks = [
    ...(check.corners ? [`${check.corners} (an error means it fails)`] : []),
    ...check.zeroDivisors.map((zero) => `${zero.sql} (0 means safe)`),
  ];
  return `Risk: building the index computes ${expression} for every stored row; ${parts.join('; ')}. Later writes of such rows fail the same way. Check first: ${checks.join('; ')}.${risk.divisors.length > 0 ? ` ${NULLIF_HINT(risk.divisors)}` : ''}`;
}
