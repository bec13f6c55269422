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
import { castInvalidPredicate, EXAMPLE_CHARS, type CastSample } from '../../core/advice/index.js';
import type { CastCheck } from '../../core/model/report.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { boundedQuery, serverTimeLimitedSelect } from './bounded-query.js';
import { SAMPLE_ROWS, SAMPLE_TIMEOUT_MS, tableType, type SampleOptions } from './selectivity.js';

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

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
    const column = quote(check.column);
    const keep = described.rows === null || described.rows > limit;
    const select = `SELECT COUNT(*) AS sampled, COALESCE(SUM(bad), 0) AS invalid, MIN(CASE WHEN bad = 1 THEN LEFT(v, ${EXAMPLE_CHARS + 1}) END) AS example FROM (SELECT ${column} AS v, (${castInvalidPredicate(column, check.target)}) AS bad FROM ${quote(database)}.${quote(check.table)} WHERE ${column} IS NOT NULL${keep ? ' ORDER BY RAND()' : ''} LIMIT ${limit}) AS sargable_cast_sample`;
    const sql = serverTimeLimitedSelect(select, server, timeoutMs);
    try {
      const rows = await boundedQuery<RowDataPacket[]>(connection, sql, {
        timeoutMs: timeoutMs + 1_000,
        ...(options.killQuery ? { killQuery: options.killQuery } : {}),
      });
      const row = rows[0];
      if (!row) continue;
      const sampled = Number(row.sampled);
      samples.push({
        ...check,
        sampled,
        invalid: Number(row.invalid),
        example: row.example === null || row.example === undefined ? null : String(row.example),
        whole: sampled < limit,
      });
    } catch {
      // Timed out or refused: no live answer, the offline risk note stands.
    }
  }
  return samples;
}
