// Live capture from performance_schema statement digests: bounded snapshots, texts, deltas and polled windows (the API's snapshot/job state is capture-jobs.ts).
/*
 * Design note
 * -----------
 * A snapshot is one bounded SELECT of the counters of `events_statements_summary_by_digest`
 * (ORDER BY SUM_TIMER_WAIT DESC LIMIT maxRows, no texts) plus one SELECT of the server clock,
 * `Uptime` and `Performance_schema_digest_lost`. We never TRUNCATE the user's tables. A delta
 * subtracts two snapshots in the core (`computeDigestDelta`); only the digests that changed get
 * their DIGEST_TEXT read, in batches by DIGEST, and only the ranked ones shown get their
 * QUERY_SAMPLE_TEXT (MySQL >= 8.0.3). Every statement carries `/* sargable capture *\/`, and the
 * delta hides the capture's own digests.
 *
 * Gates: performance_schema OFF (MariaDB's default) is an UNSUPPORTED error that says a restart
 * with `performance_schema=ON` is needed and offers the slow log; a privilege error names
 * `GRANT SELECT ON performance_schema.*`. Optional columns come from the capability table.
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  DigestDeltaAccumulator,
  digestCounterColumns,
  mapDigestToFingerprint,
  picosToMs,
  type DigestCounter,
  type DigestDelta,
  type DigestDeltaOptions,
  type DigestRow,
  type DigestBucket,
  type DigestSnapshot,
  type LatencyBucket,
  type PreparedSnapshot,
} from '../../core/capture/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { AdvisorError } from '../../shared/errors.js';
import { mapMysqlError } from './mysql-errors.js';
import { CAPTURE_MARKER } from './own-statements.js';
import { isConnectionLostError } from './reconnect.js';

export { CAPTURE_MARKER };

/** Default row limit of a snapshot (MySQL's autosized performance_schema_digests_size is 10000). */
export const DEFAULT_SNAPSHOT_ROWS = 10_000;

const TEXT_BATCH = 200;

/** Options for {@link takeDigestSnapshot}. */
export interface SnapshotOptions {
  /** Row limit (bounded query). Default 10000. */
  maxRows?: number;
}

/** The error for a server whose performance_schema is off. */
export function performanceSchemaOffError(server: ServerInfo): AdvisorError {
  return new AdvisorError(
    'UNSUPPORTED',
    `performance_schema is OFF on this ${server.flavor === 'mariadb' ? 'MariaDB' : 'MySQL'} server, so there are no statement digests to capture. Turning it on needs a restart: set performance_schema=ON in the server's configuration file ([mysqld] section) and restart the server.`,
    {
      hint: 'Until then, use the slow log: in Top queries the “mysql.slow_log” source (log_output=TABLE, or a slow-log window it opens for you) or the “Slow log file” source; in the CLI sargable capture --source slow-log-table, sargable capture --enable-slow-log --allow-write for a window, or sargable digest FILE.',
    },
  );
}

/** Maps a failed performance_schema read to an error naming the GRANT that fixes it. */
export function captureError(error: unknown, action: string): AdvisorError {
  const mapped = mapMysqlError(error, { action });
  if (mapped.code === 'PRIVILEGE_MISSING') {
    return new AdvisorError(
      'PRIVILEGE_MISSING',
      `${action} needs SELECT on performance_schema: ${mapped.userMessage}`,
      { ...mapped.details, hint: 'GRANT SELECT ON performance_schema.* TO <user>;' },
      { cause: error },
    );
  }
  return mapped;
}

function toBig(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return 0n;
}

function toNumber(value: unknown): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

function requirePerformanceSchema(server: ServerInfo): void {
  if (!server.capabilities.performanceSchema) throw performanceSchemaOffError(server);
}

/** Reads one bounded snapshot of the digest counters (no texts). */
export async function takeDigestSnapshot(
  connection: Connection,
  server: ServerInfo,
  options: SnapshotOptions = {},
): Promise<DigestSnapshot> {
  requirePerformanceSchema(server);
  const maxRows = Math.max(1, Math.trunc(options.maxRows ?? DEFAULT_SNAPSHOT_ROWS));
  const counters = Object.values(digestCounterColumns).join(', ');
  const quantiles = server.capabilities.digestQuantiles ? ', QUANTILE_95, QUANTILE_99' : '';
  try {
    const [status] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} UNIX_TIMESTAMP(NOW(6)) AS now_epoch, ` +
        "(SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Uptime') AS uptime, " +
        "(SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Performance_schema_digest_lost') AS digest_lost, " +
        "(SELECT COUNT_STAR FROM performance_schema.events_statements_summary_global_by_event_name WHERE EVENT_NAME = 'statement/com/Execute') AS executions",
    );
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} SCHEMA_NAME, DIGEST, ${counters}, MAX_TIMER_WAIT, ` +
        `UNIX_TIMESTAMP(FIRST_SEEN) AS FIRST_SEEN_EPOCH, UNIX_TIMESTAMP(LAST_SEEN) AS LAST_SEEN_EPOCH${quantiles} ` +
        'FROM performance_schema.events_statements_summary_by_digest ORDER BY SUM_TIMER_WAIT DESC LIMIT ?',
      [maxRows],
    );
    const head = status[0] ?? ({} as RowDataPacket);
    const prepared = await readPrepared(connection, server, maxRows, toNumber(head.executions));
    return {
      takenAt: toNumber(head.now_epoch),
      uptime: toNumber(head.uptime),
      digestLost: toNumber(head.digest_lost),
      truncated: rows.length >= maxRows,
      rows: rows.map((row) => toDigestRow(row, server)),
      ...(prepared ? { prepared } : {}),
    };
  } catch (error) {
    throw captureError(error, 'Reading performance_schema.events_statements_summary_by_digest');
  }
}

/**
 * Server-side prepared statements (binary protocol, COM_STMT_EXECUTE), which the digest table
 * does not count: MySQL counts their executions per statement in
 * `prepared_statements_instances`; MariaDB has the table but leaves COUNT_EXECUTE at 0, so only
 * the total (`statement/com/Execute`) is known there. Undefined when the table cannot be read.
 */
async function readPrepared(
  connection: Connection,
  server: ServerInfo,
  maxRows: number,
  executeTotal: number,
): Promise<PreparedSnapshot | undefined> {
  const counters = Object.values(digestCounterColumns)
    .map((column) =>
      column === 'COUNT_STAR'
        ? 'COUNT_EXECUTE AS COUNT_STAR'
        : column === 'SUM_TIMER_WAIT'
          ? 'SUM_TIMER_EXECUTE AS SUM_TIMER_WAIT'
          : column,
    )
    .join(', ');
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} OBJECT_INSTANCE_BEGIN, OWNER_THREAD_ID, SQL_TEXT, ${counters}, MAX_TIMER_EXECUTE ` +
        'FROM performance_schema.prepared_statements_instances WHERE COUNT_EXECUTE > 0 ORDER BY SUM_TIMER_EXECUTE DESC LIMIT ?',
      [maxRows],
    );
    return {
      executeTotal,
      perStatement: server.flavor !== 'mariadb',
      rows: rows.map((row) => {
        const values = {} as Record<DigestCounter, bigint>;
        for (const [name, column] of Object.entries(digestCounterColumns) as [DigestCounter, string][]) {
          values[name] = toBig(row[column]);
        }
        return {
          id: `${String(row.OBJECT_INSTANCE_BEGIN)}:${String(row.OWNER_THREAD_ID)}`,
          sqlText: String(row.SQL_TEXT ?? ''),
          counters: values,
          maxTimerWait: toBig(row.MAX_TIMER_EXECUTE),
        };
      }),
    };
  } catch {
    return undefined;
  }
}

function toDigestRow(row: RowDataPacket, server: ServerInfo): DigestRow {
  const counters = {} as Record<DigestCounter, bigint>;
  for (const [name, column] of Object.entries(digestCounterColumns) as [DigestCounter, string][]) {
    counters[name] = toBig(row[column]);
  }
  return {
    schema: row.SCHEMA_NAME === null || row.SCHEMA_NAME === undefined ? null : String(row.SCHEMA_NAME),
    digest: row.DIGEST === null || row.DIGEST === undefined ? null : String(row.DIGEST),
    counters,
    maxTimerWait: toBig(row.MAX_TIMER_WAIT),
    firstSeen: toNumber(row.FIRST_SEEN_EPOCH),
    lastSeen: toNumber(row.LAST_SEEN_EPOCH),
    ...(server.capabilities.digestQuantiles
      ? { quantile95: toBig(row.QUANTILE_95), quantile99: toBig(row.QUANTILE_99) }
      : {}),
  };
}

async function readTexts(
  connection: Connection,
  digests: string[],
  columns: string,
): Promise<Map<string, RowDataPacket>> {
  const texts = new Map<string, RowDataPacket>();
  for (let i = 0; i < digests.length; i += TEXT_BATCH) {
    const batch = digests.slice(i, i + TEXT_BATCH);
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} SCHEMA_NAME, DIGEST, ${columns} FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST IN (?)`,
      [batch],
    );
    for (const row of rows) texts.set(`${String(row.SCHEMA_NAME ?? '')}\u0001${String(row.DIGEST)}`, row);
  }
  return texts;
}

/**
 * The delta between two snapshots of the same server, with DIGEST_TEXT for the digests that
 * changed and QUERY_SAMPLE_TEXT (where the server has it) for the ones returned.
 */
export async function digestDelta(
  connection: Connection,
  server: ServerInfo,
  before: DigestSnapshot,
  after: DigestSnapshot,
  options: DigestDeltaOptions = {},
): Promise<DigestDelta> {
  const accumulator = new DigestDeltaAccumulator(before);
  accumulator.add(after);
  return accumulatedDelta(connection, server, accumulator, options);
}

/**
 * What a window has read once and keeps for its later polls, by `schema \u0001 digest`: the
 * DIGEST_TEXT rows, the non-empty QUERY_SAMPLE_TEXTs (a class whose sample was empty or gone is
 * asked again), and `performance_schema_max_sql_text_length` (read-only while the server runs).
 */
export interface DigestTextCache {
  texts: Map<string, RowDataPacket>;
  samples: Map<string, string>;
  maxSqlTextLength?: number;
}

/** An empty {@link DigestTextCache}. */
export function newDigestTextCache(): DigestTextCache {
  return { texts: new Map(), samples: new Map() };
}

/** The activity an accumulator holds (any number of snapshots), with texts as {@link digestDelta}. */
export async function accumulatedDelta(
  connection: Connection,
  server: ServerInfo,
  accumulator: DigestDeltaAccumulator,
  options: DigestDeltaOptions = {},
  cache: DigestTextCache = newDigestTextCache(),
): Promise<DigestDelta> {
  const { texts } = cache;
  try {
    await collectDigestTexts(connection, accumulator, texts);
    if (server.capabilities.digestQuerySample && cache.maxSqlTextLength === undefined) {
      const [vars] = await connection.query<RowDataPacket[]>(
        `SELECT ${CAPTURE_MARKER} @@GLOBAL.performance_schema_max_sql_text_length AS max_sql`,
      );
      cache.maxSqlTextLength = toNumber(vars[0]?.max_sql);
    }
    const { maxSqlTextLength } = cache;
    const delta = accumulator.result(
      { ...options, ...(maxSqlTextLength === undefined ? {} : { maxSqlTextLength }) },
      (row) => ({
        digestText:
          (texts.get(`${row.schema ?? ''}\u0001${row.digest}`)?.DIGEST_TEXT as string | undefined) ?? null,
      }),
    );
    if (server.capabilities.digestQuerySample && delta.classes.length > 0) {
      const key = (cls: { schema: string | null; digest: string | null }) =>
        `${cls.schema ?? ''}\u0001${cls.digest}`;
      // Only the classes without a sample yet: a poll of a long window asks for the new ones.
      const missing = delta.classes.filter((cls) => !cache.samples.has(key(cls)));
      if (missing.length > 0) {
        const read = await readTexts(
          connection,
          [...new Set(missing.map((cls) => cls.digest!))],
          'QUERY_SAMPLE_TEXT',
        );
        for (const [k, row] of read) {
          const text = row.QUERY_SAMPLE_TEXT as string | null | undefined;
          if (text) cache.samples.set(k, text);
        }
      }
      for (const cls of delta.classes) {
        const sample = cache.samples.get(key(cls));
        if (sample) {
          cls.sampleText = sample;
          cls.fingerprint = mapDigestToFingerprint(
            cls.digestText,
            sample,
            maxSqlTextLength === undefined ? {} : { maxSqlTextLength },
          );
        }
      }
    }
    return delta;
  } catch (error) {
    throw captureError(error, 'Reading digest texts from performance_schema');
  }
}

/**
 * The latency histogram of one digest since it was first seen (MySQL >= 8.0.1:
 * `events_statements_histogram_by_digest`, 450 buckets; only the non-empty ones are read). The
 * histogram table came with the digest quantiles (WL#5384), hence the `digestQuantiles` capability.
 */
export async function readDigestHistogram(
  connection: Connection,
  server: ServerInfo,
  schema: string | null,
  digest: string,
): Promise<LatencyBucket[]> {
  requirePerformanceSchema(server);
  if (!server.capabilities.digestQuantiles) {
    throw new AdvisorError(
      'UNSUPPORTED',
      'This server has no statement latency histograms (performance_schema.events_statements_histogram_by_digest needs MySQL 8.0.1 or later); the table shows the average and maximum instead.',
    );
  }
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT ${CAPTURE_MARKER} BUCKET_TIMER_LOW, BUCKET_TIMER_HIGH, COUNT_BUCKET ` +
        'FROM performance_schema.events_statements_histogram_by_digest ' +
        'WHERE SCHEMA_NAME <=> ? AND DIGEST = ? AND COUNT_BUCKET > 0 ORDER BY BUCKET_NUMBER',
      [schema, digest],
    );
    return rows.map((row) => ({
      lowMs: picosToMs(toBig(row.BUCKET_TIMER_LOW)),
      highMs: picosToMs(toBig(row.BUCKET_TIMER_HIGH)),
      count: toNumber(row.COUNT_BUCKET),
    }));
  } catch (error) {
    throw captureError(error, 'Reading performance_schema.events_statements_histogram_by_digest');
  }
}

/** At most this many bucket rows in a window's first read of every digest's histogram. */
const MAX_BUCKET_ROWS = 500_000;

const rowKey = (schema: unknown, digest: unknown): string =>
  `${schema === null || schema === undefined ? '' : String(schema)}\u0001${String(digest)}`;

/**
 * Attaches the non-empty histogram buckets (events_statements_histogram_by_digest) to the rows of
 * `snapshot`: every row's when `previous` is undefined (a window's first snapshot), else only the
 * rows whose COUNT_STAR differs from `previous` (the others' buckets are unchanged). A window's
 * own p95/p99 come from their differences (core/capture/window-histogram.ts). Nothing where the
 * server has no histogram table (MariaDB, MySQL < 8.0.1), nor when the first read would pass
 * MAX_BUCKET_ROWS (the classes keep their since-first-seen values).
 */
export async function readWindowBuckets(
  connection: Connection,
  server: ServerInfo,
  snapshot: DigestSnapshot,
  previous?: DigestSnapshot,
): Promise<void> {
  if (!server.capabilities.digestQuantiles) return;
  const select =
    `SELECT ${CAPTURE_MARKER} SCHEMA_NAME, DIGEST, BUCKET_NUMBER, BUCKET_TIMER_HIGH, COUNT_BUCKET ` +
    'FROM performance_schema.events_statements_histogram_by_digest WHERE COUNT_BUCKET > 0';
  let wanted = snapshot.rows.filter((row) => row.digest !== null);
  const found = new Map<string, DigestBucket[]>();
  const collect = (rows: RowDataPacket[]) => {
    for (const row of rows) {
      const k = rowKey(row.SCHEMA_NAME, row.DIGEST);
      const list = found.get(k) ?? [];
      list.push({
        bucket: toNumber(row.BUCKET_NUMBER),
        highPicos: toBig(row.BUCKET_TIMER_HIGH),
        count: toNumber(row.COUNT_BUCKET),
      });
      found.set(k, list);
    }
  };
  try {
    if (previous === undefined) {
      const [rows] = await connection.query<RowDataPacket[]>(`${select} LIMIT ?`, [MAX_BUCKET_ROWS + 1]);
      if (rows.length > MAX_BUCKET_ROWS) return;
      collect(rows);
    } else {
      const before = new Map(
        previous.rows.map((row) => [rowKey(row.schema, row.digest), row.counters.count]),
      );
      wanted = wanted.filter((row) => before.get(rowKey(row.schema, row.digest)) !== row.counters.count);
      // By (SCHEMA_NAME, DIGEST) equalities, which use the table's index: `DIGEST IN (…)` alone
      // scans every digest's 450 buckets (about 1 s per query with 10,000 digests, 0.1 s this way).
      for (let i = 0; i < wanted.length; i += TEXT_BATCH) {
        const batch = wanted.slice(i, i + TEXT_BATCH);
        const [rows] = await connection.query<RowDataPacket[]>(
          `${select} AND (${batch.map(() => '(SCHEMA_NAME <=> ? AND DIGEST = ?)').join(' OR ')})`,
          batch.flatMap((row) => [row.schema, row.digest]),
        );
        collect(rows);
      }
    }
  } catch (error) {
    throw captureError(error, 'Reading performance_schema.events_statements_histogram_by_digest');
  }
  for (const row of wanted) row.buckets = found.get(rowKey(row.schema, row.digest)) ?? [];
}

/** Waits `ms`, rejecting with CANCELLED when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AdvisorError('CANCELLED', 'The capture was cancelled.'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AdvisorError('CANCELLED', 'The capture was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Reads DIGEST_TEXT for the active digests whose text is not in `texts` yet. A window reads them
 * at every poll, so a digest that a TRUNCATE removes later keeps its text.
 */
async function collectDigestTexts(
  connection: Connection,
  accumulator: DigestDeltaAccumulator,
  texts: Map<string, RowDataPacket>,
): Promise<void> {
  const missing = accumulator
    .activeRows()
    .filter((row) => row.digest !== null && !texts.has(`${row.schema ?? ''}\u0001${row.digest}`));
  if (missing.length === 0) return;
  const found = await readTexts(connection, [...new Set(missing.map((row) => row.digest!))], 'DIGEST_TEXT');
  for (const [k, row] of found) texts.set(k, row);
}

/** Default time between the snapshots of a window (see captureDigestWindow). */
export const DEFAULT_POLL_SECONDS = 2;

/**
 * Snapshots every `pollSeconds` (default 2) for `seconds` (or until `signal`), then the delta.
 * Polling is what keeps a window exact when rows are reset in between (TRUNCATE, a full table
 * dropping rows, a restart): each interval is subtracted on its own, so only what a reset digest
 * ran between the last snapshot and the reset is unknown (the result's notes say when).
 * `reconnect` is called when the connection was lost (a server restart) to go on polling.
 */
export async function captureDigestWindow(
  connection: Connection,
  server: ServerInfo,
  seconds: number,
  options: DigestDeltaOptions &
    SnapshotOptions & {
      signal?: AbortSignal;
      pollSeconds?: number;
      reconnect?: () => Promise<Connection>;
    } = {},
): Promise<DigestDelta> {
  let current = connection;
  let last = await takeDigestSnapshot(current, server, options);
  await readWindowBuckets(current, server, last);
  const accumulator = new DigestDeltaAccumulator(last);
  const cache = newDigestTextCache();
  const end = Date.now() + seconds * 1000;
  const poll = Math.max(0.1, options.pollSeconds ?? DEFAULT_POLL_SECONDS) * 1000;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(poll, left), options.signal);
    const next = async () => {
      const snapshot = await takeDigestSnapshot(current, server, options);
      await readWindowBuckets(current, server, snapshot, last);
      return snapshot;
    };
    try {
      last = await next();
    } catch (error) {
      if (
        !options.reconnect ||
        (!isConnectionLostError(error) && !isConnectionLostError((error as { cause?: unknown }).cause))
      )
        throw error;
      current = await options.reconnect();
      last = await next();
    }
    accumulator.add(last);
    await collectDigestTexts(current, accumulator, cache.texts).catch((error: unknown) => {
      throw captureError(error, 'Reading digest texts from performance_schema');
    });
  }
  return accumulatedDelta(current, server, accumulator, options, cache);
}
