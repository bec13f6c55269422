// Run one read-only statement and return its result grid (issue 18 item 15).
/*
 * Design note.
 * - This executes the user's SQL on the user's server, so it is walled in four ways:
 *   1. The statement guard (statement-guard.ts) must prove it read-only and free of side-effect
 *      functions, read as the session's server and sql_mode would read it; functions that may be
 *      stored routines are refused (no allowRoutineCalls). On top of the guard only a query may run
 *      here: SELECT / WITH … SELECT / TABLE / VALUES (not SHOW, SET, USE …), checked on every
 *      lexical reading the guard tried.
 *   2. It runs on a dedicated connection (read-only session) inside START TRANSACTION READ ONLY, so
 *      the server refuses writes the guard might have missed; the connection is closed afterwards.
 *   3. A server-side time limit (MySQL: SET SESSION max_execution_time; MariaDB:
 *      SET STATEMENT max_statement_time=… FOR) plus a watchdog that stops the statement with KILL QUERY
 *      of our own thread from a second connection (bounded-query.ts) a little after the limit.
 *   4. A row limit that never edits the text: rows are streamed and, at the limit, the statement is
 *      stopped with KILL QUERY (the server would otherwise go on producing rows).
 * - Values go back as text (null stays null): binary strings and geometry as 0x… hex, JSON as its
 *   text, dates as the server prints them (dateStrings) and big numbers exactly (bigNumberStrings).
 *   The renderer shows them as text only, never as HTML.
 */

import type { Connection } from 'mysql2/promise';
import { AdvisorError } from '../../shared/errors.js';
import { lexicalContexts, lexSql } from '../../core/sql/lexer.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { connect, type ConnectionTarget } from './connection.js';
import { stopOnServer } from './bounded-query.js';
import { mapMysqlError } from './mysql-errors.js';
import { checkReadOnlyStatement, sessionLexicalContextOf } from './statement-guard.js';

export const DEFAULT_ROW_LIMIT = 1_000;
export const MAX_ROW_LIMIT = 10_000;
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
/** The watchdog fires this long after the server's own limit should have stopped the statement. */
const WATCHDOG_GRACE_MS = 1_000;

const QUERY_START = new Set(['SELECT', 'WITH', 'TABLE', 'VALUES']);

export interface ReadQueryOptions {
  rowLimit?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ReadQueryResult {
  columns: { name: string; type: string }[];
  /** Every value as text; null for SQL NULL. */
  rows: (string | null)[][];
  /** More rows existed: the statement was stopped after `rowLimit` rows. */
  truncated: boolean;
  rowLimit: number;
  elapsedMs: number;
}

/** Why `sql` may not run here, or null when it may (guard + query-only check). */
export function readQueryRefusal(sql: string, connection: object | undefined): string | null {
  const context = sessionLexicalContextOf(connection);
  const verdict = checkReadOnlyStatement(sql, { context });
  if (!verdict.allowed) return verdict.reason;
  for (const reading of lexicalContexts(context)) {
    const lexed = lexSql(sql, reading);
    if (!lexed.ok) return `the statement could not be read safely (${lexed.error})`;
    const first = lexed.tokens.find((token) => !(token.kind === 'punct' && token.value === '('));
    if (!first || first.kind !== 'word' || !QUERY_START.has(first.value)) {
      const what = !first ? 'an empty statement' : first.value;
      return `only a query (SELECT, WITH … SELECT, TABLE, VALUES) may be run here, not ${what}`;
    }
  }
  return null;
}

function refused(reason: string): AdvisorError {
  return new AdvisorError('UNSUPPORTED', `Not run: ${reason}.`, {
    hint: 'Run (read-only) only runs queries that provably do not write or call functions with side effects (stored functions included). Run anything else in your own client.',
  });
}

/** A value as text: binary as 0x hex, objects (JSON) as JSON text. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `0x${value.toString('hex').toUpperCase()}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface TypeCastField {
  type: string;
  buffer(): Buffer | null;
  string(encoding?: string): string | null;
}

/** Geometry as its raw bytes (hex later), JSON as the server's text. */
function typeCast(field: TypeCastField, next: () => unknown): unknown {
  if (field.type === 'GEOMETRY') return field.buffer();
  if (field.type === 'JSON') return field.string('utf8');
  return next();
}

/** Run `sql` (a query the guard proves read-only) on a dedicated read-only connection to `target`. */
export async function runReadQuery(
  target: ConnectionTarget,
  server: ServerInfo,
  sql: string,
  options: ReadQueryOptions = {},
): Promise<ReadQueryResult> {
  const rowLimit = Math.min(MAX_ROW_LIMIT, Math.max(1, Math.floor(options.rowLimit ?? DEFAULT_ROW_LIMIT)));
  const timeoutMs = Math.max(100, Math.floor(options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS));
  if (options.signal?.aborted) throw new AdvisorError('CANCELLED', 'Cancelled before it ran.');
  const connection = await connect(target, { readOnly: true });
  try {
    const reason = readQueryRefusal(sql, connection);
    if (reason) throw refused(reason);
    await connection.query('START TRANSACTION READ ONLY');
    const mariadb = server.flavor === 'mariadb';
    if (!mariadb) await connection.query(`SET SESSION max_execution_time = ${timeoutMs}`);
    const text = mariadb
      ? `SET STATEMENT max_statement_time=${(timeoutMs / 1000).toFixed(3)} FOR ${sql}`
      : sql;
    return await streamRows(connection, text, rowLimit, timeoutMs, options.signal);
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw mapMysqlError(error, {
      host: target.host,
      port: target.port,
      user: target.user,
      action: 'Running the query',
    });
  } finally {
    await connection.query('ROLLBACK').catch(() => undefined);
    await connection.end().catch(() => (connection as { destroy?: () => void }).destroy?.());
  }
}

interface RawQuery {
  on(
    event: 'fields',
    listener: (fields: { name: string; type?: number; columnType?: number }[]) => void,
  ): RawQuery;
  on(event: 'result', listener: (row: unknown) => void): RawQuery;
  on(event: 'error', listener: (error: Error) => void): RawQuery;
  on(event: 'end', listener: () => void): RawQuery;
}

function streamRows(
  connection: Connection,
  sql: string,
  rowLimit: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ReadQueryResult> {
  const started = Date.now();
  const raw = (connection as unknown as { connection: { query(options: object): RawQuery } }).connection;
  return new Promise<ReadQueryResult>((resolve, reject) => {
    const columns: ReadQueryResult['columns'] = [];
    const rows: (string | null)[][] = [];
    let truncated = false;
    let stopReason: 'timeout' | 'cancel' | 'limit' | undefined;
    let stopping: Promise<void> | undefined;
    const stop = (why: 'timeout' | 'cancel' | 'limit'): void => {
      if (stopping) return;
      stopReason = why;
      stopping = stopOnServer(connection, undefined);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs + WATCHDOG_GRACE_MS);
    const onAbort = (): void => stop('cancel');
    signal?.addEventListener('abort', onAbort, { once: true });
    // Cancelled while the connection was being set up: stop as soon as the statement is sent.
    if (signal?.aborted) queueMicrotask(onAbort);
    let finished = false;
    const finish = (error: unknown): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void (stopping ?? Promise.resolve()).then(() => {
        const elapsedMs = Date.now() - started;
        if (stopReason === 'limit' || (!error && stopReason === undefined)) {
          resolve({ columns, rows, truncated, rowLimit, elapsedMs });
        } else if (stopReason === 'cancel') {
          reject(new AdvisorError('CANCELLED', 'Cancelled: the query was stopped on the server.'));
        } else if (stopReason === 'timeout' || isTimeLimitError(error)) {
          reject(
            new AdvisorError(
              'TIMEOUT',
              `Stopped after ${Math.round(timeoutMs / 100) / 10} s: the query did not finish in time.`,
              {
                hint: 'The query was stopped on the server. Raise the time limit if the server is merely slow.',
              },
            ),
          );
        } else {
          reject(error);
        }
      });
    };
    const query = raw.query({ sql, rowsAsArray: true, typeCast });
    query.on('fields', (fields) => {
      if (columns.length > 0) return;
      for (const field of fields) columns.push({ name: field.name, type: columnTypeName(field) });
    });
    query.on('result', (row) => {
      if (stopReason) return;
      if (rows.length >= rowLimit) {
        truncated = true;
        stop('limit');
        return;
      }
      rows.push((row as unknown[]).map(cellText));
    });
    query.on('error', (error) => finish(error));
    query.on('end', () => finish(undefined));
  });
}

/** MySQL 3024 (max_execution_time exceeded), MariaDB 1969 (max_statement_time exceeded), 1317 (interrupted). */
function isTimeLimitError(error: unknown): boolean {
  const errno = (error as { errno?: number } | undefined)?.errno;
  return errno === 3024 || errno === 1969;
}

const TYPE_NAMES: Record<number, string> = {
  0: 'DECIMAL',
  1: 'TINYINT',
  2: 'SMALLINT',
  3: 'INT',
  4: 'FLOAT',
  5: 'DOUBLE',
  6: 'NULL',
  7: 'TIMESTAMP',
  8: 'BIGINT',
  9: 'MEDIUMINT',
  10: 'DATE',
  11: 'TIME',
  12: 'DATETIME',
  13: 'YEAR',
  15: 'VARCHAR',
  16: 'BIT',
  245: 'JSON',
  246: 'DECIMAL',
  247: 'ENUM',
  248: 'SET',
  249: 'BLOB',
  250: 'BLOB',
  251: 'BLOB',
  252: 'BLOB',
  253: 'VARCHAR',
  254: 'CHAR',
  255: 'GEOMETRY',
};

function columnTypeName(field: { type?: number; columnType?: number }): string {
  const code = field.columnType ?? field.type;
  return code === undefined ? 'UNKNOWN' : (TYPE_NAMES[code] ?? String(code));
}
