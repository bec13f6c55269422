// Samples live selectivity for the advisor: COUNT(DISTINCT …) over a bounded sample, read-only, time-limited.

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { SelectivityRequest, TableSample } from '../../core/advice/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';

/** Rows read per table (the first rows the server returns; the whole table when smaller). */
export const SAMPLE_ROWS = 10_000;
/** Time limit per sampling statement. */
export const SAMPLE_TIMEOUT_MS = 2_000;

/** Options for {@link sampleSelectivity}. */
export interface SampleOptions {
  rows?: number;
  timeoutMs?: number;
}

function quote(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/**
 * One read-only statement per table: `SELECT COUNT(*), COUNT(DISTINCT col), COUNT(DISTINCT (expr))
 * FROM (SELECT <columns read> FROM db.table LIMIT n) AS sample`, under MAX_EXECUTION_TIME (MySQL) or
 * `SET STATEMENT max_statement_time` (MariaDB), so it passes the analysis session's statement guard.
 * A table whose sample fails or times out is left out (its suggestions get no selectivity note).
 */
export async function sampleSelectivity(
  connection: Connection,
  server: ServerInfo,
  database: string,
  requests: readonly SelectivityRequest[],
  options: SampleOptions = {},
): Promise<TableSample[]> {
  const limit = options.rows ?? SAMPLE_ROWS;
  const timeoutMs = options.timeoutMs ?? SAMPLE_TIMEOUT_MS;
  const samples: TableSample[] = [];
  for (const request of requests) {
    if (request.reads.length === 0) continue;
    const measures = [
      ...request.columns.map((column) => ({ key: `column:${column.toLowerCase()}`, sql: quote(column) })),
      ...request.expressions.map((expression) => ({
        key: `expression:${expression.key}`,
        sql: `(${expression.sql})`,
      })),
    ];
    const select = `SELECT COUNT(*) AS sampled, ${measures
      .map((measure, index) => `COUNT(DISTINCT ${measure.sql}) AS d${index}`)
      .join(', ')} FROM (SELECT ${request.reads.map(quote).join(', ')} FROM ${quote(database)}.${quote(
      request.table,
    )} LIMIT ${limit}) AS sargable_sample`;
    const sql = server.capabilities.maxExecutionTimeHint
      ? select.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${timeoutMs}) */ `)
      : server.capabilities.maxStatementTime
        ? `SET STATEMENT max_statement_time=${(timeoutMs / 1000).toFixed(3)} FOR ${select}`
        : select;
    try {
      const [rows] = await connection.query<RowDataPacket[]>(sql);
      const row = rows[0];
      if (!row) continue;
      const distinct: Record<string, number> = {};
      measures.forEach((measure, index) => {
        distinct[measure.key] = Number(row[`d${index}`]);
      });
      samples.push({ table: request.table, sampledRows: Number(row.sampled), limit, distinct });
    } catch {
      // Timed out, a column vanished, or an expression the server rejects: no note for this table.
    }
  }
  return samples;
}
