// Reads the mysql.slow_log table (log_output=TABLE) incrementally with bounded queries, into the file digest.
/*
 * Design note
 * -----------
 * `mysql.slow_log` is a CSV table without indexes: rows come back in the order they were written,
 * and a TRUNCATE (or a log rotation that renames the table) starts it over. `start_time` is when a
 * statement *started*, so a long statement is written after shorter ones that started later: a
 * start_time cursor would miss it. The cursor is therefore a row position plus an anchor (start
 * time, thread, query time and length of the row just before it). Each read is
 * `SELECT … LIMIT position-1, batch+1`: if the first row is not the anchor, the table was
 * truncated or rotated, and reading starts over at row 0 with `reset: true`. Reads stop after
 * `maxRows` rows per call; call again with the returned cursor for more.
 *
 * `sql_text` is read as bytes (MySQL: MEDIUMBLOB, MariaDB: MEDIUMTEXT) so fingerprints and
 * checksums equal the ones of the same statements in a slow-log file. Rows of the capture's own
 * statements (marked with CAPTURE_MARKER) are left out and counted.
 */
import type { Connection, QueryOptions, RowDataPacket } from 'mysql2/promise';
import {
  createTimeline,
  slowLogRowToEvent,
  timeToSeconds,
  type WorkloadTimeline,
} from '../../core/capture/index.js';
import {
  createDigest,
  type Digest,
  type DigestReportOptions,
  type DigestResult,
} from '../../core/slowlog/index.js';
import { AdvisorError } from '../../shared/errors.js';
import { CAPTURE_MARKER } from './capture.js';
import type { QueryKiller } from './connection.js';
import { boundedQuery } from './bounded-query.js';
import { mapMysqlError } from './mysql-errors.js';

/** Where the next read starts. Opaque to callers; serialisable. */
export interface SlowLogTableCursor {
  /** Rows before the next one to read. */
  position: number;
  /** Identity of the row at position-1, to detect a truncated or rotated table. */
  anchor: string | null;
}

/** Options for {@link readSlowLogTable}. */
export interface SlowLogTableReadOptions extends DigestReportOptions {
  cursor?: SlowLogTableCursor;
  /** Rows per query. Default 1000. */
  batchSize?: number;
  /** Rows per call. Default 100000. */
  maxRows?: number;
  /** Aggregate into this digest (to combine calls); default a new one. */
  digest?: Digest;
  /** Stops the read; with `killQuery` the batch SELECT in flight is killed on the server (KILL QUERY). */
  signal?: AbortSignal;
  killQuery?: QueryKiller;
  onProgress?(progress: { rows: number; events: number }): void;
}

/** The outcome of one incremental read. */
export interface SlowLogTableResult extends DigestResult {
  source: { table: 'mysql.slow_log'; rowsRead: number; ownRowsSkipped: number };
  /** Pass back to continue after the last row read. */
  cursor: SlowLogTableCursor;
  /** The table was truncated or rotated since the cursor: reading started over. */
  reset: boolean;
  /** False when `maxRows` stopped the read before the end of the table. */
  complete: boolean;
  /** Statements per time bucket by `start_time` (rows of this read only). */
  timeline: WorkloadTimeline;
}

const SELECT_COLUMNS = `SELECT ${CAPTURE_MARKER} UNIX_TIMESTAMP(start_time) AS start_epoch, slow_log.* FROM mysql.slow_log`;

/**
 * A condition true for every row, so that every row the scan reads passes a filter. MySQL 8.0 skips
 * the rows of `LIMIT offset` without looking at KILL QUERY (a batch deep into a large table ran on
 * for seconds after a cancel); a filter checks the kill flag after each row, so the batch stops at
 * once. `sql_text` is NOT NULL, so LENGTH() >= 0 always holds and the optimizer cannot drop it.
 */
const EVERY_ROW_KILLABLE = 'WHERE LENGTH(sql_text) >= 0';

function anchorOf(row: RowDataPacket): string {
  const sql = row.sql_text as Buffer | string;
  return `${String(row.start_epoch)}|${String(row.thread_id)}|${String(row.query_time)}|${sql.length}`;
}

/** Where the server writes its slow log: why mysql.slow_log can be empty. */
export interface SlowLogLogging {
  slowQueryLog: boolean;
  /** `FILE`, `TABLE`, `FILE,TABLE` or `NONE`. */
  logOutput: string;
  longQueryTime: number;
  /** The file the server writes when log_output has FILE (a path on the server's machine). */
  file: string | null;
}

/** The slow-log settings (SHOW GLOBAL VARIABLES, which every user may read). */
export async function readSlowLogLogging(connection: Connection): Promise<SlowLogLogging> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN ('slow_query_log', 'log_output', 'long_query_time', 'slow_query_log_file')`,
  );
  const values = new Map(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
  return {
    slowQueryLog: /^(ON|1)$/i.test(values.get('slow_query_log') ?? ''),
    logOutput: (values.get('log_output') ?? 'FILE').toUpperCase(),
    longQueryTime: Number(values.get('long_query_time') ?? 10),
    file: values.get('slow_query_log_file') || null,
  };
}

/** Errors reading mysql.slow_log, with the GRANT or setting that fixes them. */
export function slowLogTableError(error: unknown): AdvisorError {
  const mapped = mapMysqlError(error, { action: 'Reading mysql.slow_log' });
  if (mapped.code === 'PRIVILEGE_MISSING') {
    return new AdvisorError(
      'PRIVILEGE_MISSING',
      `Reading mysql.slow_log needs SELECT on it: ${mapped.userMessage}`,
      { ...mapped.details, hint: 'GRANT SELECT ON mysql.slow_log TO <user>;' },
      { cause: error },
    );
  }
  return mapped;
}

async function selectRows(
  connection: Connection,
  offset: number,
  count: number,
  cancel?: { signal?: AbortSignal; killQuery?: QueryKiller },
): Promise<RowDataPacket[]> {
  const statement: QueryOptions = {
    sql: `${SELECT_COLUMNS} ${EVERY_ROW_KILLABLE} LIMIT ?, ?`,
    values: [offset, count],
    // MariaDB's sql_text is MEDIUMTEXT: read its bytes, like MySQL's MEDIUMBLOB.
    typeCast: (field, next) => (field.name === 'sql_text' ? field.buffer() : next()),
  };
  if (cancel?.signal && cancel.killQuery) {
    // A batch of a large CSV table can take long: a cancel kills it on the server, not only here.
    return boundedQuery<RowDataPacket[]>(connection, statement, {
      timeoutMs: NO_TIME_LIMIT_MS,
      signal: cancel.signal,
      killQuery: cancel.killQuery,
    });
  }
  const [rows] = await connection.query<RowDataPacket[]>(statement);
  return rows;
}

/** The largest timer delay: a batch read has no time limit of its own, only cancel. */
const NO_TIME_LIMIT_MS = 2_147_483_647;

/** A cursor at the current end of the table: a later read returns only rows written after now. */
export async function slowLogTableEnd(connection: Connection): Promise<SlowLogTableCursor> {
  try {
    const [count] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} COUNT(*) AS n FROM mysql.slow_log`,
    );
    const position = Number(count[0]?.n ?? 0);
    if (position === 0) return { position: 0, anchor: null };
    const [last] = await selectRows(connection, position - 1, 1);
    return { position, anchor: last ? anchorOf(last) : null };
  } catch (error) {
    throw slowLogTableError(error);
  }
}

/** Reads rows after `cursor` (default: from the start) into a pt-query-digest-compatible digest. */
export async function readSlowLogTable(
  connection: Connection,
  options: SlowLogTableReadOptions = {},
): Promise<SlowLogTableResult> {
  const batchSize = Math.max(1, options.batchSize ?? 1000);
  const maxRows = Math.max(1, options.maxRows ?? 100_000);
  const digest =
    options.digest ?? createDigest(options.orderBy === undefined ? {} : { orderBy: options.orderBy });
  let cursor: SlowLogTableCursor = options.cursor ?? { position: 0, anchor: null };
  let reset = false;
  let rowsRead = 0;
  let own = 0;
  let complete = false;
  const timeline = createTimeline();
  try {
    while (rowsRead < maxRows) {
      if (options.signal?.aborted)
        throw new AdvisorError('CANCELLED', 'Reading mysql.slow_log was cancelled.');
      const want = Math.min(batchSize, maxRows - rowsRead);
      const withAnchor = cursor.position > 0 && cursor.anchor !== null;
      let rows = await selectRows(
        connection,
        withAnchor ? cursor.position - 1 : cursor.position,
        withAnchor ? want + 1 : want,
        options,
      );
      if (withAnchor) {
        const first = rows[0];
        if (!first || anchorOf(first) !== cursor.anchor) {
          // Truncated or rotated: start over (once).
          if (reset)
            throw new AdvisorError('INTERNAL', 'mysql.slow_log changed twice while reading; try again.');
          reset = true;
          cursor = { position: 0, anchor: null };
          continue;
        }
        rows = rows.slice(1);
      }
      for (const row of rows) {
        cursor = { position: cursor.position + 1, anchor: anchorOf(row) };
        rowsRead++;
        const sqlText = (row.sql_text as Buffer).toString('latin1');
        if (sqlText.includes(CAPTURE_MARKER)) {
          own++;
          continue;
        }
        const queryTime = timeToSeconds(String(row.query_time));
        timeline.add(Number(row.start_epoch), Number(queryTime));
        digest.add(
          slowLogRowToEvent(
            {
              startTime: String(row.start_epoch),
              userHost: String(row.user_host ?? ''),
              queryTime: String(row.query_time),
              lockTime: String(row.lock_time),
              rowsSent: String(row.rows_sent),
              rowsExamined: String(row.rows_examined),
              rowsAffected: row.rows_affected === undefined ? undefined : String(row.rows_affected),
              db: String(row.db ?? ''),
              threadId: String(row.thread_id),
              sqlText,
            },
            cursor.position,
          ),
        );
      }
      options.onProgress?.({ rows: rowsRead, events: digest.events });
      if (rows.length < want) {
        complete = true;
        break;
      }
    }
  } catch (error) {
    throw slowLogTableError(error);
  }
  const result = digest.result({
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  });
  return {
    ...result,
    source: { table: 'mysql.slow_log', rowsRead, ownRowsSkipped: own },
    cursor,
    reset,
    complete,
    timeline: timeline.result(),
  };
}
