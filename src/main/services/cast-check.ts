// Live check of a CAST in proposed DDL: would every stored value convert? (issue 17)
/*
 * For each CAST check of the report (core/advice/cast-check.ts), one read-only SELECT over a bounded
 * sample of the column's non-NULL values: the rows are drawn at random over the whole table (ORDER BY
 * RAND() LIMIT n, as the selectivity sample does, not the first n in index order) when the table is
 * larger than the sample, and read whole otherwise. The statement is time-limited on the server
 * (MAX_EXECUTION_TIME / max_statement_time) and by the watchdog of boundedQuery. It counts the values
 * castInvalidPredicate rejects and returns one of them, truncated. Views are skipped (selecting from one
 * runs its definition). A check that fails or times out is left out: the offline risk note stays.
 */

import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  castInvalidPredicate,
  evaluationCheckQueries,
  EXAMPLE_CHARS,
  isTemporalTarget,
  type CastSample,
} from '../../core/advice/index.js';
import type { CastCheck } from '../../core/model/report.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { boundedQuery, serverTimeLimitedSelect } from './bounded-query.js';
import { SAMPLE_ROWS, SAMPLE_TIMEOUT_MS, tableType, type SampleOptions } from './selectivity.js';

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/**
 * Warnings a conversion raises that turn into an error when the DDL stores or indexes the value:
 * 1292 truncated/incorrect date/time value, 1366 incorrect value, 1265 data truncated, 1264 out of
 * range, 1411 incorrect value for a function, 1441 datetime function field overflow.
 */
const FAILING_WARNINGS = new Set([1292, 1366, 1265, 1264, 1411, 1441]);

/** The value a conversion warning quotes ("Truncated incorrect date value: '2024-01-02abc'"). */
export function warnedValue(message: string): string | null {
  const match = /value: '(.*)'(?: for column .*)?$/s.exec(message);
  return match ? match[1]! : null;
}

/** Sample each check's column and count the values its CAST would reject. */
export async function sampleCastChecks(
  connection: Connection,
  server: ServerInfo,
  database: string,
  checks: readonly CastCheck[],
  options: Pick<SampleOptions, 'rows' | 'timeoutMs' | 'killQuery'> = {},
): Promise<CastSample[]> {
  const limit = options.rows ?? SAMPLE_ROWS;
  const timeoutMs = options.timeoutMs ?? SAMPLE_TIMEOUT_MS;
  const samples: CastSample[] = [];
  for (const check of checks) {
    const described = await tableType(connection, database, check.table).catch(() => null);
    if (described?.type !== 'BASE TABLE') continue;
    if (check.evaluate) {
      const sample = await evaluateCheck(connection, server, database, check, {
        timeoutMs,
        ...(options.killQuery ? { killQuery: options.killQuery } : {}),
      });
      if (sample) samples.push(sample);
      continue;
    }
    const column = quote(check.column);
    const keep = described.rows === null || described.rows > limit;
    const temporal = isTemporalTarget(check.target);
    const rowsRead = `SELECT ${column} AS v FROM ${quote(database)}.${quote(check.table)} WHERE ${column} IS NOT NULL${keep ? ' ORDER BY RAND()' : ''} LIMIT ${limit}`;
    const select = `SELECT COUNT(*) AS sampled, COALESCE(SUM(bad), 0) AS invalid, MIN(CASE WHEN bad = 1 THEN LEFT(v, ${EXAMPLE_CHARS + 1}) END) AS example FROM (SELECT v, (${castInvalidPredicate('v', check.target)}) AS bad FROM (${rowsRead}) AS sargable_cast_rows LIMIT ${limit}) AS sargable_cast_sample`;
    const sql = serverTimeLimitedSelect(select, server, timeoutMs);
    try {
      const rows = await boundedQuery<RowDataPacket[]>(connection, sql, {
        timeoutMs: timeoutMs + 1_000,
        ...(options.killQuery ? { killQuery: options.killQuery } : {}),
      });
      const row = rows[0];
      if (!row) continue;
      const sampled = Number(row.sampled);
      let invalid = Number(row.invalid);
      let example = row.example === null || row.example === undefined ? null : String(row.example);
      let atLeast = false;
      if (temporal) {
        // The same statement's warnings: nothing else ran on this connection since.
        const warned = await warningsOf(connection);
        if (warned.count > invalid) {
          invalid = Math.min(warned.count, sampled);
          example = warned.example ?? example;
          atLeast = warned.full;
        }
      }
      samples.push({
        ...check,
        sampled,
        invalid,
        example,
        whole: sampled < limit,
        ...(atLeast ? { atLeast } : {}),
      });
    } catch {
      // Timed out or refused: no live answer, the offline risk note stands.
    }
  }
  return samples;
}

/**
 * An arithmetic check (core/advice/evaluation-risk.ts): the expression over the columns' stored
 * extremes (MIN/MAX, served by an index when one leads with the column) raises ERROR 1690 when the
 * DDL would; a stored zero divisor means ERROR 1365. Undefined when a query times out or is refused
 * for another reason (the offline risk note stays).
 */
async function evaluateCheck(
  connection: Connection,
  server: ServerInfo,
  database: string,
  check: CastCheck,
  options: { timeoutMs: number; killQuery?: SampleOptions['killQuery'] },
): Promise<CastSample | undefined> {
  const queries = evaluationCheckQueries(database, check);
  const run = (sql: string) =>
    boundedQuery<RowDataPacket[]>(connection, serverTimeLimitedSelect(sql, server, options.timeoutMs), {
      timeoutMs: options.timeoutMs + 1_000,
      ...(options.killQuery ? { killQuery: options.killQuery } : {}),
    });
  const base = { ...check, sampled: 0, invalid: 0, example: null, whole: true };
  try {
    if (queries.corners) await run(queries.corners);
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    if (errno !== 1690) return undefined;
    return {
      ...base,
      invalid: 1,
      failure: `ERROR 1690 for the stored extremes of ${check.evaluate?.columns.join(', ')}: ${(error as Error).message.slice(0, 120)}`,
    };
  }
  for (const zero of queries.zeroDivisors) {
    try {
      const rows = await run(zero.sql);
      if (Number(rows[0]?.n) > 0)
        return { ...base, invalid: 1, failure: `ERROR 1365: ${zero.divisor} is 0 on a stored row` };
    } catch {
      return undefined;
    }
  }
  return base;
}

/** The conversion warnings of the statement just run: how many, one value they quote, and whether the list was full. */
async function warningsOf(
  connection: Connection,
): Promise<{ count: number; example: string | null; full: boolean }> {
  const [rows] = await connection.query<RowDataPacket[]>('SHOW WARNINGS');
  const [limitRows] = await connection.query<RowDataPacket[]>('SELECT @@max_error_count AS n');
  const failing = rows.filter((warning) => FAILING_WARNINGS.has(Number(warning.Code)));
  const example = failing.map((warning) => warnedValue(String(warning.Message ?? ''))).find(Boolean) ?? null;
  const cap = Number(limitRows[0]?.n);
  return { count: failing.length, example, full: Number.isFinite(cap) && rows.length >= cap };
}
