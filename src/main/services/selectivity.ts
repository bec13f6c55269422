// Live selectivity for the advisor: the server's statistics first (histograms, index cardinality;
// column-statistics.ts), else COUNT(DISTINCT …) over a bounded random sample, read-only, time-limited.
/*
 * Not in index order (issue 18 item 8): `SELECT … LIMIT n` reads the first n rows of whatever index the
 * optimizer scans, so a column that correlates with it (a date with an auto-increment id) shows a few of
 * its values ("4 distinct months, 25%" where the table has 12). A table larger than the sample is
 * sampled with `ORDER BY RAND() LIMIT n`: n rows drawn over the whole table (a bounded priority queue;
 * RAND() is a built-in without side effects). Each number carries its basis: source, rows, confidence.
 */
/*
 * Safety (issue #20): the expressions come from the user's query, which may be pasted or captured
 * from another session, and a sample evaluates them over up to 10,000 rows with the DBA's
 * privileges. So an expression is sampled only when every function it calls is a built-in known to
 * be free of side effects (src/core/sql/side-effects.ts); a stored or loadable function, SLEEP,
 * GET_LOCK … are skipped, and so are views (selecting from one runs its definition). Each sample is
 * bounded by the server (MAX_EXECUTION_TIME / max_statement_time) and by a watchdog that stops it
 * one second later. Every skip is reported through `onSkip`, and the analysis shows it as a note.
 */

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { SelectivityRequest, TableSample } from '../../core/advice/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { lexSql, versionNumber } from '../../core/sql/lexer.js';
import { executionRisks } from '../../core/sql/side-effects.js';
import { AdvisorError } from '../../shared/errors.js';
import type { QueryKiller } from './connection.js';
import { boundedQuery, serverTimeLimitedSelect } from './bounded-query.js';
import { sampleConfidence, serverDistinctCounts, type DistinctBasis } from './column-statistics.js';

/** Rows read per table (the first rows the server returns; the whole table when smaller). */
export const SAMPLE_ROWS = 10_000;
/** Time limit per sampling statement. */
export const SAMPLE_TIMEOUT_MS = 2_000;

/** Options for {@link sampleSelectivity}. */
export interface SampleOptions {
  rows?: number;
  timeoutMs?: number;
  /** Stops a sample on the server when the watchdog fires (default: the connection's own killer, see connect()). */
  killQuery?: QueryKiller;
  /** Called for every table or expression that was not sampled, with the reason. */
  onSkip?(skip: SampleSkip): void;
}

/** A table's numbers with where each came from (statistics or the sample) and how far to trust it. */
export interface MeasuredSample extends TableSample {
  /** Same keys as `distinct`. */
  basis: Record<string, DistinctBasis>;
  /** information_schema.TABLES.TABLE_ROWS (an estimate for InnoDB), when known. */
  tableRows: number | null;
}

/** Something the sample left out, and why. */
export interface SampleSkip {
  table: string;
  /** The expression, or null when the whole table was skipped. */
  expression: string | null;
  reason: string;
}

/** Why evaluating `expression` over sample rows could do more than read; null when it is safe. */
export function expressionRisk(expression: string, server: ServerInfo): string | null {
  for (const flavor of server.flavor === 'mariadb' ? (['mariadb'] as const) : (['mysql'] as const)) {
    for (const ansiQuotes of [false, true]) {
      for (const noBackslashEscapes of [false, true]) {
        const lexed = lexSql(`SELECT (${expression})`, {
          flavor,
          version: versionNumber(server.version),
          ansiQuotes,
          noBackslashEscapes,
        });
        if (!lexed.ok) return `it could not be read safely (${lexed.error})`;
        const risk = executionRisks(lexed.tokens)[0];
        if (risk) return risk.message;
      }
    }
  }
  return null;
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
): Promise<MeasuredSample[]> {
  const limit = options.rows ?? SAMPLE_ROWS;
  const timeoutMs = options.timeoutMs ?? SAMPLE_TIMEOUT_MS;
  const samples: MeasuredSample[] = [];
  const skip = (table: string, expression: string | null, reason: string): void =>
    options.onSkip?.({ table, expression, reason });
  for (const request of requests) {
    if (request.reads.length === 0) continue;
    const described = await tableType(connection, database, request.table).catch(() => null);
    const kind = described?.type ?? null;
    const tableRows = described?.rows ?? null;
    if (kind !== 'BASE TABLE') {
      skip(
        request.table,
        null,
        kind === null
          ? 'its type could not be read'
          : `it is a ${kind.toLowerCase()}, and reading it would run its definition`,
      );
      continue;
    }
    const expressions = request.expressions.filter((expression) => {
      const risk = expressionRisk(expression.sql, server);
      if (risk) skip(request.table, expression.sql, risk);
      return risk === null;
    });
    const measures = [
      ...request.columns.map((column) => ({ key: `column:${column.toLowerCase()}`, sql: quote(column) })),
      ...expressions.map((expression) => ({
        key: `expression:${expression.key}`,
        sql: `(${expression.sql})`,
      })),
    ];
    // Access predicates of proposed indexes (index-use.ts): rows of the sample each matches.
    const predicates = (request.predicates ?? []).filter((predicate) => {
      const risk = expressionRisk(predicate.sql, server);
      if (risk) skip(request.table, predicate.sql, risk);
      return risk === null;
    });
    if (measures.length === 0 && predicates.length === 0) continue;
    // A table the sample reads whole is counted exactly; statistics (maybe stale) only for larger ones.
    const small = tableRows !== null && tableRows <= limit;
    const known = small
      ? {}
      : await serverDistinctCounts(
          connection,
          server,
          database,
          request.table,
          request.columns,
          expressions,
          tableRows,
        ).catch(() => ({}) as Awaited<ReturnType<typeof serverDistinctCounts>>);
    const distinct: Record<string, number> = {};
    const basis: Record<string, DistinctBasis> = {};
    for (const [key, value] of Object.entries(known)) {
      distinct[key] = value.distinct;
      basis[key] = value.basis;
    }
    const missing = measures.filter((measure) => known[measure.key] === undefined);
    if (missing.length === 0 && predicates.length === 0) {
      // Every number from the server's statistics: nothing to sample.
      const rows = tableRows ?? 0;
      samples.push({ table: request.table, sampledRows: rows, limit: rows, distinct, basis, tableRows });
      continue;
    }
    // Larger than the sample: `limit` rows drawn at random over the whole table (ORDER BY RAND() LIMIT n
    // keeps n rows in a priority queue while it scans; a RAND() < p filter with p from TABLE_ROWS, an
    // estimate, would stop early on an underestimate and see only the first part of the table again).
    const keep = tableRows === null || tableRows > limit;
    const sampleSql = (counted: readonly { key: string; sql: string }[]) =>
      serverTimeLimitedSelect(
        `SELECT ${[
          'COUNT(*) AS sampled',
          ...missing.map((measure, index) => `COUNT(DISTINCT ${measure.sql}) AS d${index}`),
          ...counted.map(
            (predicate, index) => `SUM(CASE WHEN (${predicate.sql}) THEN 1 ELSE 0 END) AS m${index}`,
          ),
        ].join(', ')} FROM (SELECT ${request.reads.map(quote).join(', ')} FROM ${quote(database)}.${quote(
          request.table,
        )}${keep ? ' ORDER BY RAND()' : ''} LIMIT ${limit}) AS sargable_sample`,
        server,
        timeoutMs,
      );
    const run = (sql: string) =>
      boundedQuery<RowDataPacket[]>(connection, sql, {
        timeoutMs: timeoutMs + 1_000,
        ...(options.killQuery ? { killQuery: options.killQuery } : {}),
      });
    try {
      let rows: RowDataPacket[];
      try {
        rows = await run(sampleSql(predicates));
      } catch (error) {
        // A predicate the server refuses costs only the index-use check, not the table's numbers.
        const errno = (error as { errno?: number }).errno;
        const refused = !(error instanceof AdvisorError) && ![3024, 1969, 1317].includes(errno ?? 0);
        if (predicates.length === 0 || !refused) throw error;
        skip(request.table, predicates.map((predicate) => predicate.sql).join(', '), 'the server refused it');
        predicates.length = 0;
        if (missing.length === 0) {
          const count = tableRows ?? 0;
          samples.push({
            table: request.table,
            sampledRows: count,
            limit: count,
            distinct,
            basis,
            tableRows,
          });
          continue;
        }
        rows = await run(sampleSql(predicates));
      }
      const row = rows[0];
      if (!row) continue;
      const sampled = Number(row.sampled);
      // Fewer rows than the limit: the whole table was read.
      const whole = sampled < limit;
      missing.forEach((measure, index) => {
        const count = Number(row[`d${index}`]);
        distinct[measure.key] = count;
        basis[measure.key] = {
          source: 'sample',
          confidence: sampleConfidence(count, sampled, whole ? sampled : tableRows),
          rows: sampled,
          detail: whole
            ? `all ${sampled} rows`
            : `random sample of ${sampled} of ~${tableRows ?? '?'} rows (not in index order)`,
        };
      });
      const matching: Record<string, number> = {};
      predicates.forEach((predicate, index) => {
        matching[predicate.key] = Number(row[`m${index}`] ?? 0);
      });
      samples.push({
        table: request.table,
        sampledRows: sampled,
        limit: whole ? limit : sampled,
        distinct,
        basis,
        tableRows,
        ...(predicates.length > 0 ? { matching } : {}),
      });
    } catch (error) {
      // Timed out, a column vanished, or an expression the server rejects: no numbers for this table.
      const errno = (error as { errno?: number }).errno;
      const timedOut =
        (error instanceof AdvisorError && error.code === 'TIMEOUT') ||
        errno === 3024 ||
        errno === 1969 ||
        errno === 1317;
      const reason = timedOut
        ? `sampling took longer than ${Math.round(timeoutMs / 100) / 10} s`
        : error instanceof AdvisorError
          ? error.userMessage
          : `the server refused the sample (${(error as Error).message})`;
      skip(request.table, null, reason);
    }
  }
  return samples;
}

/** `BASE TABLE`, `VIEW`, `SYSTEM VIEW`, `SEQUENCE` … of a table and its TABLE_ROWS, or null when it is not found. */
export async function tableType(
  connection: Connection,
  database: string,
  table: string,
): Promise<{ type: string; rows: number | null } | null> {
  const [rows] = await connection.query<RowDataPacket[]>(
    'SELECT TABLE_TYPE AS type, TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [database, table],
  );
  const row = rows[0];
  if (!row) return null;
  const count = row.n === null || row.n === undefined ? null : Number(row.n);
  return { type: String(row.type), rows: count !== null && Number.isFinite(count) ? count : null };
}
