// Live lock view: waits, blockers, lock counts, metadata-lock waits and the latest deadlock, read from a server.
/*
 * Design note.
 * One poll = a handful of bounded queries chosen by capabilities (never by version strings here):
 *   1. waits: MySQL >= 8.0.1 `performance_schema.data_lock_waits` joined to the two `data_locks` rows it
 *      names (the requested and the blocking lock, looked up by primary key); MariaDB / MySQL 5.7
 *      `information_schema.INNODB_LOCK_WAITS` + `INNODB_LOCKS` (which only list locks involved in waits).
 *      LIMIT 200 pairs. Never a full dump of data_locks.
 *   2. transactions: `INNODB_TRX` for the trx ids of step 1 only (+ processlist user/host/db).
 *   3. last statement of idle blockers: `events_statements_current` of their threads (when available).
 *   4. lock counts: the seed's grouped data_locks query restricted to the blockers' trx ids (MySQL 8).
 *   5. metadata-lock waits: processlist state `Waiting for … metadata lock`, and when performance_schema
 *      has the MDL instrument, `metadata_locks` for the exact holders.
 *   6. `SHOW ENGINE INNODB STATUS` → latest deadlock.
 * A missing privilege for the main query raises AdvisorError('PRIVILEGE_MISSING') naming the GRANT;
 * for the optional parts it becomes a `problems[]` entry, so the view is never silently empty.
 */

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Capabilities, Flavor } from '../../core/flavors/capabilities.js';
import { decodeLockData, type IndexColumn } from '../../core/locks/lock-data.js';
import { makeLockInfo, type ModeSource } from '../../core/locks/lock-mode.js';
import { parseLatestDeadlock, type Deadlock } from '../../core/locks/deadlock.js';
import {
  adviseBatching,
  rewriteLockingRead,
  assessLockFootprint,
  type BatchingAdvice,
  type LockFootprintWarning,
} from '../../core/locks/rewrite.js';
import { containsLockingClause } from '../../core/locks/locking-clause.js';
import { buildBlockingForest } from '../../core/locks/tree.js';
import type { LockCount, LockInfo, MetadataHolder, MetadataWait, TxnInfo } from '../../core/locks/types.js';
import { AdvisorError } from '../../shared/errors.js';
import { boundedQuery, DEFAULT_EXPLAIN_TIMEOUT_MS } from './explain.js';
import { checkReadOnlyStatement } from './statement-guard.js';
import type {
  LockProblem,
  LockSnapshot,
  LockWaitView,
  StatementRewrites,
} from '../../core/locks/snapshot.js';

/** The server a poll reads; `ServerInfo` from server-info.ts satisfies it. */
export interface LockServer {
  flavor: Flavor;
  capabilities: Capabilities & { performanceSchema?: boolean };
}

export type {
  LockProblem,
  LockSnapshot,
  LockWaitView,
  StatementRewrites,
} from '../../core/locks/snapshot.js';

/** Options for {@link pollLocks}. */
export interface PollOptions {
  /** Maximum wait pairs read (default 200). */
  limit?: number;
  /** Read SHOW ENGINE INNODB STATUS for the latest deadlock (default true). */
  deadlocks?: boolean;
  /**
   * Read the seed's grouped lock counts of the blockers (MySQL 8 only). Default false: it walks every lock
   * the blockers hold (≈ 60–260 ms for 10,000 locks), so call it on demand, or use {@link countRecordLocks}.
   */
  lockCounts?: boolean;
  /**
   * NOWAIT / SKIP LOCKED rewrites of each waiting statement (cached per statement text across polls):
   * `true` (default) computes them all before returning (the CLI); `'lazy'` (the live view) returns at
   * once with the cached ones, marks the others `rewritesPending` and computes them after the poll, one
   * statement per event-loop turn, so the next poll or a `locks.rewrites` call has them; `false` skips them.
   */
  rewrites?: boolean | 'lazy';
  /** MySQL 8: also read the blocker's conflicting lock row (walks the blocker's locks; default false). */
  blockingLocks?: boolean;
  /** EXPLAIN each distinct waiting locking statement to flag full scans (default false: it adds queries). */
  explain?: boolean;
}

type Row = RowDataPacket & Record<string, unknown>;

const DEFAULT_LIMIT = 200;
const REWRITE_CACHE_SIZE = 500;
/** Rewrites per server and statement text, shared by all polls (oldest evicted first). */
const rewriteCache = new Map<string, StatementRewrites>();
/** Statements waiting for their rewrites to be computed in the background (key → work). */
const rewriteQueue = new Map<string, () => void>();
let rewriteWorker: ReturnType<typeof setImmediate> | null = null;

function rewriteKey(server: LockServer, sql: string): string {
  return `${server.flavor}|${JSON.stringify(server.capabilities)}|${sql}`;
}

/** Rewrites already computed for this server and statement, or undefined. */
export function cachedStatementRewrites(server: LockServer, sql: string): StatementRewrites | undefined {
  return rewriteCache.get(rewriteKey(server, sql));
}

/**
 * NOWAIT / SKIP LOCKED / WAIT n rewrites of one statement for this server (`locks.rewrites`), cached.
 * Parsing costs a few milliseconds per statement (node-sql-parser; the first call in a process also
 * loads the grammar, ≈ 150 ms), which is why the live poll does not do it inline.
 */
export function statementRewrites(server: LockServer, sql: string): StatementRewrites {
  const key = rewriteKey(server, sql);
  const cached = rewriteCache.get(key);
  if (cached) return cached;
  const result = rewriteLockingRead(sql, server);
  const value: StatementRewrites = {
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
    rewrites: result.rewrites.map(({ kind, sql: text, notes, snippet, errorCode, recommended }) => ({
      kind,
      sql: text,
      notes,
      snippet,
      errorCode,
      recommended,
    })),
    unavailable: result.unavailable,
  };
  if (rewriteCache.size >= REWRITE_CACHE_SIZE) {
    const oldest = rewriteCache.keys().next().value;
    if (oldest !== undefined) rewriteCache.delete(oldest);
  }
  rewriteCache.set(key, value);
  rewriteQueue.delete(key);
  return value;
}

/** Forget every cached rewrite (the bench uses it to measure cold polls). */
export function clearRewriteCache(): void {
  rewriteCache.clear();
  rewriteQueue.clear();
}

/** Compute rewrites after the current poll returned: one statement per event-loop turn, never blocking a poll for long. */
function scheduleRewrites(server: LockServer, statements: Iterable<string>): void {
  for (const sql of statements) {
    const key = rewriteKey(server, sql);
    if (!rewriteCache.has(key) && !rewriteQueue.has(key) && rewriteQueue.size < REWRITE_CACHE_SIZE)
      rewriteQueue.set(key, () => void statementRewrites(server, sql));
  }
  const step = (): void => {
    rewriteWorker = null;
    const next = rewriteQueue.entries().next().value;
    if (!next) return;
    rewriteQueue.delete(next[0]);
    next[1]();
    if (rewriteQueue.size > 0) rewriteWorker = setImmediate(step);
  };
  if (rewriteWorker === null && rewriteQueue.size > 0) rewriteWorker = setImmediate(step);
}

function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function num(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

interface DriverError {
  errno?: number;
  sqlMessage?: string;
  message?: string;
}

/** The GRANT or setting that fixes a failed lock-view query. */
export function privilegeFix(error: unknown, what: string): LockProblem | null {
  const driver = (error ?? {}) as DriverError;
  const text = driver.sqlMessage ?? driver.message ?? String(error);
  const base = { serverCode: driver.errno ?? 0, message: `${what}: ${text}` };
  if (driver.errno === 1227 && /PROCESS/i.test(text))
    return { area: 'waits', ...base, fix: 'GRANT PROCESS ON *.* TO <user>;' };
  // MySQL's 1142 names only the table (`… for table 'data_lock_waits'`), so the query context decides.
  if ((driver.errno === 1142 || driver.errno === 1044) && /performance_schema/i.test(`${text} ${what}`)) {
    return { area: 'waits', ...base, fix: 'GRANT SELECT ON performance_schema.* TO <user>;' };
  }
  if (driver.errno === 1227)
    return {
      area: 'waits',
      ...base,
      fix: 'GRANT PROCESS ON *.* TO <user>; (the message names the privilege)',
    };
  if (driver.errno === 1142 || driver.errno === 1044 || driver.errno === 1143)
    return { area: 'waits', ...base, fix: 'GRANT SELECT on the schema the message names.' };
  return null;
}

async function rows(conn: Connection, sql: string, params: unknown[] = []): Promise<Row[]> {
  const [result] = await conn.query<Row[]>(sql, params);
  return result;
}

/** Run an optional query; failures become problems instead of exceptions. */
async function optional(
  conn: Connection,
  area: LockProblem['area'],
  what: string,
  sql: string,
  params: unknown[],
  problems: LockProblem[],
): Promise<Row[] | null> {
  try {
    return await rows(conn, sql, params);
  } catch (error) {
    const problem = privilegeFix(error, what);
    const driver = (error ?? {}) as DriverError;
    problems.push(
      problem
        ? { ...problem, area }
        : {
            area,
            message: `${what}: ${driver.sqlMessage ?? driver.message ?? String(error)}`,
            fix: 'See the server error.',
            serverCode: driver.errno ?? 0,
          },
    );
    return null;
  }
}

function splitTableName(text: string | null): [string | null, string | null] {
  if (!text) return [null, null];
  const parts = text.match(/`(?:[^`]|``)*`|[^.`]+/g) ?? [];
  const names = parts.map((part) => (part.startsWith('`') ? part.slice(1, -1).replace(/``/g, '`') : part));
  return names.length >= 2 ? [names[0] ?? null, names.slice(1).join('.')] : [null, names[0] ?? null];
}

interface RawWait {
  waitingTrx: string;
  blockingTrx: string;
  lock: LockInfo;
  blockingLock: LockInfo | null;
}

async function readWaits(
  conn: Connection,
  server: LockServer,
  limit: number,
  blockingLocks: boolean,
): Promise<{ source: 'data_locks' | 'innodb_locks'; waits: RawWait[] }> {
  const caps = server.capabilities;
  const lockFrom = (
    row: Row,
    prefix: string,
    source: ModeSource,
    table: [string | null, string | null],
  ): LockInfo =>
    makeLockInfo(
      {
        lockType: String(row[`${prefix}type`] ?? ''),
        mode: String(row[`${prefix}mode`] ?? ''),
        schema: table[0],
        table: table[1],
        index: str(row[`${prefix}index`]),
        lockData: str(row[`${prefix}data`]),
      },
      source,
    );
  if (caps.dataLocks) {
    // Joining data_lock_waits to data_locks makes the server walk every lock for each probe (≈ 0.6–0.9 s
    // with 10,000 locks held); reading the waiters' own WAITING locks through the ENGINE_TRANSACTION_ID
    // index costs ≈ 1 ms. The blocker's lock would need a walk of all its locks, so it is only read on request.
    const pairs = await rows(
      conn,
      `SELECT CAST(REQUESTING_ENGINE_TRANSACTION_ID AS CHAR) AS waiting_trx, CAST(BLOCKING_ENGINE_TRANSACTION_ID AS CHAR) AS blocking_trx,
              REQUESTING_ENGINE_LOCK_ID AS requested_lock, BLOCKING_ENGINE_LOCK_ID AS blocking_lock
         FROM performance_schema.data_lock_waits LIMIT ?`,
      [limit],
    );
    const lockRows = async (trxIds: string[], extra: string): Promise<Map<string, Row>> => {
      const ids = [...new Set(trxIds)].filter((id) => /^\d+$/.test(id));
      if (ids.length === 0) return new Map();
      const result = await rows(
        conn,
        `SELECT ENGINE_LOCK_ID AS lock_id, LOCK_TYPE AS x_type, LOCK_MODE AS x_mode, OBJECT_SCHEMA AS x_schema, OBJECT_NAME AS x_table,
                INDEX_NAME AS x_index, LOCK_DATA AS x_data
           FROM performance_schema.data_locks
          WHERE ENGINE = 'INNODB' AND ENGINE_TRANSACTION_ID IN (${ids.join(',')}) ${extra}`,
      );
      return new Map(result.map((row) => [String(row.lock_id), row]));
    };
    const requested = await lockRows(
      pairs.map((row) => String(row.waiting_trx)),
      "AND LOCK_STATUS = 'WAITING'",
    );
    const blocking = blockingLocks
      ? await lockRows(
          pairs.map((row) => String(row.blocking_trx)),
          "AND LOCK_STATUS = 'GRANTED'",
        )
      : new Map<string, Row>();
    const waits: RawWait[] = [];
    for (const pair of pairs) {
      const request = requested.get(String(pair.requested_lock));
      if (!request) continue; // granted between the two reads
      const held = blocking.get(String(pair.blocking_lock));
      waits.push({
        waitingTrx: String(pair.waiting_trx),
        blockingTrx: String(pair.blocking_trx),
        lock: lockFrom(request, 'x_', 'data_locks', [str(request.x_schema), str(request.x_table)]),
        blockingLock: held
          ? lockFrom(held, 'x_', 'data_locks', [str(held.x_schema), str(held.x_table)])
          : null,
      });
    }
    return { source: 'data_locks', waits };
  }
  const result = await rows(
    conn,
    `SELECT CAST(w.requesting_trx_id AS CHAR) AS waiting_trx, CAST(w.blocking_trx_id AS CHAR) AS blocking_trx,
            r.lock_type AS r_type, r.lock_mode AS r_mode, r.lock_table AS r_table, r.lock_index AS r_index, r.lock_data AS r_data,
            b.lock_type AS b_type, b.lock_mode AS b_mode, b.lock_table AS b_table, b.lock_index AS b_index, b.lock_data AS b_data
       FROM information_schema.INNODB_LOCK_WAITS w
       JOIN information_schema.INNODB_LOCKS r ON r.lock_id = w.requested_lock_id
       LEFT JOIN information_schema.INNODB_LOCKS b ON b.lock_id = w.blocking_lock_id
      LIMIT ?`,
    [limit],
  );
  return {
    source: 'innodb_locks',
    waits: result.map((row) => ({
      waitingTrx: String(row.waiting_trx),
      blockingTrx: String(row.blocking_trx),
      lock: lockFrom(row, 'r_', 'innodb_locks', splitTableName(str(row.r_table))),
      blockingLock:
        row.b_type === null ? null : lockFrom(row, 'b_', 'innodb_locks', splitTableName(str(row.b_table))),
    })),
  };
}

interface TxnRow {
  txn: TxnInfo;
  waitSeconds: number | null;
  database: string | null;
}

/**
 * INNODB_TRX rows for the given trx ids. The server refreshes INNODB_TRX from a cache at most every
 * 0.1 s (InnoDB's trx_i_s cache), so a transaction that started waiting just now may be missing: read
 * once more after 120 ms in that case.
 */
async function readTransactions(
  conn: Connection,
  trxIds: readonly string[],
  problems: LockProblem[],
): Promise<Map<string, TxnRow>> {
  const found = await readTransactionsOnce(conn, trxIds, problems);
  if (found.size > 0 && trxIds.some((id) => !found.has(id))) {
    await new Promise((resolve) => setTimeout(resolve, 120));
    for (const [id, row] of await readTransactionsOnce(conn, trxIds, []))
      if (!found.has(id)) found.set(id, row);
  }
  return found;
}

async function readTransactionsOnce(
  conn: Connection,
  trxIds: readonly string[],
  problems: LockProblem[],
): Promise<Map<string, TxnRow>> {
  const found = new Map<string, TxnRow>();
  if (trxIds.length === 0) return found;
  const result = await optional(
    conn,
    'transactions',
    'Reading information_schema.INNODB_TRX',
    `SELECT CAST(t.trx_id AS CHAR) AS trx_id, t.trx_state, t.trx_mysql_thread_id AS thread_id, t.trx_query,
            TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age, TIMESTAMPDIFF(SECOND, t.trx_wait_started, NOW()) AS wait_age,
            t.trx_rows_locked, t.trx_rows_modified, p.USER AS user, p.HOST AS host, p.DB AS db
       FROM information_schema.INNODB_TRX t
       LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
      WHERE CAST(t.trx_id AS CHAR) IN (?)`,
    [trxIds],
    problems,
  );
  for (const row of result ?? []) {
    const trxId = String(row.trx_id);
    const statement = str(row.trx_query);
    found.set(trxId, {
      txn: {
        trxId,
        threadId: num(row.thread_id),
        user: str(row.user),
        host: str(row.host),
        statement,
        statementSource: statement ? 'current' : null,
        trxAgeSeconds: num(row.age),
        rowsLocked: num(row.trx_rows_locked),
        rowsModified: num(row.trx_rows_modified),
        state: str(row.trx_state),
      },
      waitSeconds: num(row.wait_age),
      database: str(row.db),
    });
  }
  return found;
}

/** Fill the last statement of idle transactions from performance_schema (MySQL 8, or MariaDB with the consumer on). */
async function fillLastStatements(
  conn: Connection,
  server: LockServer,
  txns: Map<string, TxnRow>,
  problems: LockProblem[],
): Promise<void> {
  const idle = [...txns.values()].filter((row) => row.txn.statement === null && row.txn.threadId !== null);
  if (idle.length === 0) return;
  if (server.capabilities.performanceSchema === false) {
    problems.push({
      area: 'statements',
      message: "An idle blocker's last statement is unknown: performance_schema is OFF.",
      fix: 'Start the server with performance_schema=ON (MariaDB: --performance-schema=ON) and enable the events_statements_current consumer.',
    });
    return;
  }
  const result = await optional(
    conn,
    'statements',
    'Reading performance_schema.events_statements_current',
    `SELECT t.PROCESSLIST_ID AS thread_id, e.SQL_TEXT AS sql_text
       FROM performance_schema.threads t
       JOIN performance_schema.events_statements_current e ON e.THREAD_ID = t.THREAD_ID
      WHERE t.PROCESSLIST_ID IN (?)`,
    [idle.map((row) => row.txn.threadId)],
    problems,
  );
  if (result === null) return;
  const byThread = new Map(result.map((row) => [num(row.thread_id), str(row.sql_text)]));
  let missing = 0;
  for (const row of idle) {
    const text = byThread.get(row.txn.threadId);
    if (text) {
      row.txn.statement = text;
      row.txn.statementSource = 'last';
    } else missing += 1;
  }
  if (missing > 0) {
    problems.push({
      area: 'statements',
      message: `The last statement of ${missing} idle blocker(s) is unknown (no events_statements_current rows).`,
      fix: "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME IN ('events_statements_current', 'events_statements_history');",
    });
  }
}

async function readLockCounts(
  conn: Connection,
  trxIds: readonly string[],
  limit: number,
  problems: LockProblem[],
): Promise<LockCount[]> {
  if (trxIds.length === 0) return [];
  const result = await optional(
    conn,
    'lockCounts',
    'Counting locks in performance_schema.data_locks',
    `SELECT CAST(ENGINE_TRANSACTION_ID AS CHAR) AS trx_id, OBJECT_SCHEMA AS db, OBJECT_NAME AS tbl, INDEX_NAME AS idx, LOCK_TYPE AS lock_type, COUNT(*) AS n
       FROM performance_schema.data_locks
      WHERE ENGINE_TRANSACTION_ID IN (?) AND LOCK_TYPE = 'RECORD' AND LOCK_DATA <> 'supremum pseudo-record'
      GROUP BY ENGINE_TRANSACTION_ID, OBJECT_SCHEMA, OBJECT_NAME, INDEX_NAME, LOCK_TYPE
      LIMIT ?`,
    [trxIds, limit],
    problems,
  );
  return (result ?? []).map((row) => ({
    trxId: String(row.trx_id),
    schema: str(row.db),
    table: str(row.tbl),
    index: str(row.idx),
    lockType: String(row.lock_type),
    count: Number(row.n),
  }));
}

/** Record locks per transaction and index, for any transaction ids (MySQL >= 8.0.1; the seed's grouped query). */
export async function countRecordLocks(conn: Connection, trxIds: readonly string[]): Promise<LockCount[]> {
  const problems: LockProblem[] = [];
  const counts = await readLockCounts(conn, trxIds, DEFAULT_LIMIT, problems);
  if (problems[0])
    throw new AdvisorError('PRIVILEGE_MISSING', problems[0].message, { hint: problems[0].fix });
  return counts;
}

/** Metadata-lock waits: processlist state first (always available), holders from metadata_locks when instrumented. */
export async function readMetadataWaits(
  conn: Connection,
  server: LockServer,
  problems: LockProblem[],
): Promise<MetadataWait[]> {
  const waiting = await optional(
    conn,
    'metadataWaits',
    'Reading the processlist',
    `SELECT ID AS id, USER AS user, HOST AS host, DB AS db, TIME AS time, STATE AS state, INFO AS info
       FROM information_schema.PROCESSLIST
      WHERE STATE LIKE 'Waiting for%metadata lock' LIMIT 50`,
    [],
    problems,
  );
  if (!waiting || waiting.length === 0) return [];
  const waits: MetadataWait[] = waiting.map((row) => ({
    threadId: Number(row.id),
    user: str(row.user),
    host: str(row.host),
    statement: str(row.info),
    waitSeconds: num(row.time),
    schema: str(row.db),
    table: null,
    lockType: null,
    holders: [],
    source: 'processlist',
  }));

  let exact = false;
  if (server.capabilities.performanceSchema !== false) {
    const mdl = await optional(
      conn,
      'metadataWaits',
      'Reading performance_schema.metadata_locks',
      `SELECT m.OBJECT_SCHEMA AS db, m.OBJECT_NAME AS tbl, m.LOCK_TYPE AS lock_type, m.LOCK_STATUS AS status, t.PROCESSLIST_ID AS thread_id
         FROM performance_schema.metadata_locks m
         JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
        WHERE m.OBJECT_TYPE = 'TABLE' AND (m.OBJECT_SCHEMA, m.OBJECT_NAME) IN
              (SELECT OBJECT_SCHEMA, OBJECT_NAME FROM performance_schema.metadata_locks WHERE LOCK_STATUS = 'PENDING')
        LIMIT 200`,
      [],
      problems,
    );
    if (mdl && mdl.some((row) => row.status === 'PENDING')) {
      exact = true;
      const processlist = await optional(
        conn,
        'metadataWaits',
        'Reading holders from the processlist',
        `SELECT p.ID AS id, p.USER AS user, p.HOST AS host, p.INFO AS info, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
           FROM information_schema.PROCESSLIST p LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID
          WHERE p.ID IN (?)`,
        [[...new Set(mdl.map((row) => num(row.thread_id)).filter((id) => id !== null))]],
        problems,
      );
      const sessions = new Map((processlist ?? []).map((row) => [num(row.id), row]));
      for (const wait of waits) {
        const pending = mdl.find((row) => num(row.thread_id) === wait.threadId && row.status === 'PENDING');
        if (!pending) continue;
        wait.source = 'metadata_locks';
        wait.schema = str(pending.db);
        wait.table = str(pending.tbl);
        wait.lockType = str(pending.lock_type);
        wait.holders = mdl
          .filter(
            (row) =>
              row.status === 'GRANTED' &&
              row.db === pending.db &&
              row.tbl === pending.tbl &&
              num(row.thread_id) !== wait.threadId,
          )
          .map((row): MetadataHolder => {
            const session = sessions.get(num(row.thread_id));
            return {
              threadId: num(row.thread_id),
              user: str(session?.user),
              host: str(session?.host),
              statement: str(session?.info),
              lockType: str(row.lock_type),
              trxAgeSeconds: num(session?.age),
            };
          });
      }
    }
  }
  if (!exact) {
    problems.push({
      area: 'metadataWaits',
      message: 'Metadata-lock holders are not instrumented; showing open transactions as likely holders.',
      fix:
        server.capabilities.performanceSchema === false
          ? "Start the server with performance_schema=ON, then: UPDATE performance_schema.setup_instruments SET ENABLED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';"
          : "UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';",
    });
    // Without instrumentation, every open transaction older than the wait may hold the lock.
    const open = await optional(
      conn,
      'metadataWaits',
      'Reading open transactions',
      `SELECT t.trx_mysql_thread_id AS id, p.USER AS user, p.HOST AS host, p.INFO AS info, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
         FROM information_schema.INNODB_TRX t LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
        ORDER BY t.trx_started LIMIT 20`,
      [],
      problems,
    );
    for (const wait of waits) {
      wait.holders = (open ?? [])
        .filter((row) => num(row.id) !== wait.threadId && (num(row.age) ?? 0) >= (wait.waitSeconds ?? 0))
        .map((row) => ({
          threadId: num(row.id),
          user: str(row.user),
          host: str(row.host),
          statement: str(row.info),
          lockType: null,
          trxAgeSeconds: num(row.age),
        }));
    }
  }
  return waits;
}

/** The latest deadlock from SHOW ENGINE INNODB STATUS (PROCESS privilege). */
export async function readLatestDeadlock(
  conn: Connection,
  problems: LockProblem[],
): Promise<Deadlock | null> {
  const result = await optional(
    conn,
    'deadlocks',
    'SHOW ENGINE INNODB STATUS',
    'SHOW ENGINE INNODB STATUS',
    [],
    problems,
  );
  const status = result?.[0]?.Status;
  return typeof status === 'string' ? parseLatestDeadlock(status) : null;
}

/** EXPLAIN a statement in a schema and assess whether it locks a wide range (changes the connection's default schema). */
export async function explainLockFootprint(
  conn: Connection,
  server: LockServer,
  sql: string,
  schema: string | null,
): Promise<LockFootprintWarning | null> {
  // SQL captured from another session is hostile input: never EXPLAINed when the optimizer could
  // run a function with our privileges (stored routines, SLEEP, locks …). The user sees why.
  const verdict = checkReadOnlyStatement(`EXPLAIN ${sql}`, {
    context: { flavor: server.flavor === 'mariadb' ? 'mariadb' : 'mysql' },
  });
  if (!verdict.allowed) {
    throw new AdvisorError('CONSENT_REQUIRED', `Not explained automatically: ${verdict.reason}.`, {
      hint: 'The statement comes from another session. EXPLAIN can run the functions it calls with your privileges; explain it yourself in the Plan panel if you trust them.',
    });
  }
  if (schema) await conn.query(`USE \`${schema.replace(/`/g, '``')}\``);
  const timeoutMs = DEFAULT_EXPLAIN_TIMEOUT_MS;
  const statement = server.capabilities.maxStatementTime
    ? `SET STATEMENT max_statement_time=${(timeoutMs / 1000 + 1).toFixed(3)} FOR EXPLAIN ${sql}`
    : `EXPLAIN ${sql}`;
  const plan = await boundedQuery<Row[]>(conn, statement, { timeoutMs });
  return assessLockFootprint(sql, server, {
    explain: plan.map((row) => ({
      table: str(row.table),
      type: str(row.type),
      key: str(row.key),
      rows: num(row.rows),
    })),
  });
}

/** Index columns (then the primary key columns a secondary index carries) with their types, per index of one table. */
async function indexColumnsOf(
  conn: Connection,
  schema: string,
  table: string,
): Promise<Map<string, IndexColumn[]>> {
  // SHOW INDEX / SHOW COLUMNS: information_schema.STATISTICS ⋈ COLUMNS costs ≈ 200 ms on MariaDB 10.11.
  const quoted = `\`${schema.replace(/`/g, '``')}\`.\`${table.replace(/`/g, '``')}\``;
  const indexRows = await rows(conn, `SHOW INDEX FROM ${quoted}`);
  const columnRows = await rows(conn, `SHOW COLUMNS FROM ${quoted}`);
  const types = new Map(columnRows.map((row) => [String(row.Field), String(row.Type)]));
  const result = [...indexRows]
    .sort(
      (a, b) =>
        String(a.Key_name).localeCompare(String(b.Key_name)) ||
        Number(a.Seq_in_index) - Number(b.Seq_in_index),
    )
    .map((row) => ({
      idx: row.Key_name,
      col: row.Column_name,
      type: types.get(String(row.Column_name)) ?? '',
    }));
  const byIndex = new Map<string, IndexColumn[]>();
  for (const row of result) {
    const list = byIndex.get(String(row.idx)) ?? [];
    list.push({ name: String(row.col), type: String(row.type) });
    byIndex.set(String(row.idx), list);
  }
  const primary = byIndex.get('PRIMARY') ?? [];
  for (const [name, list] of byIndex) {
    if (name === 'PRIMARY') continue;
    for (const column of primary)
      if (!list.some((existing) => existing.name === column.name)) list.push(column);
  }
  return byIndex;
}

/** Decode lock_data of every lock in place, reading index column types once per table. */
async function decodeLocks(
  conn: Connection,
  locks: readonly LockInfo[],
  problems: LockProblem[],
): Promise<void> {
  const tables = new Map<string, Map<string, IndexColumn[]> | null>();
  for (const lock of locks) {
    if (!lock.lockData || !lock.schema || !lock.table || !lock.index) continue;
    const key = `${lock.schema}.${lock.table}`;
    if (!tables.has(key)) {
      try {
        tables.set(key, await indexColumnsOf(conn, lock.schema, lock.table));
      } catch (error) {
        tables.set(key, null);
        problems.push({
          area: 'waits',
          message: `Index columns of ${key} are unknown (${(error as Error).message}); lock data stays raw.`,
          fix: `GRANT SELECT ON ${lock.schema}.* TO <user>;`,
        });
      }
    }
    const decoded = decodeLockData(lock.lockData, tables.get(key)?.get(lock.index) ?? []);
    lock.values = decoded.kind === 'record' ? decoded.values : null;
  }
}

async function primaryKeyOf(conn: Connection, schema: string, table: string): Promise<string[]> {
  const result = await rows(
    conn,
    `SELECT COLUMN_NAME AS col FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX`,
    [schema, table],
  );
  return result.map((row) => String(row.col));
}

/**
 * One poll of the lock view. Bounded: at most `limit` wait pairs, then only the transactions,
 * statements and lock counts of those pairs. Throws AdvisorError('PRIVILEGE_MISSING') when the waits
 * themselves cannot be read; other gaps are listed in `problems`.
 */
export async function pollLocks(
  conn: Connection,
  server: LockServer,
  options: PollOptions = {},
): Promise<LockSnapshot> {
  const started = performance.now();
  const limit = options.limit ?? DEFAULT_LIMIT;
  const problems: LockProblem[] = [];
  const caps = server.capabilities;
  if (!caps.dataLocks && !caps.innodbLockWaitsTables) {
    throw new AdvisorError(
      'UNSUPPORTED',
      'This server exposes neither performance_schema.data_locks nor information_schema.INNODB_LOCK_WAITS.',
    );
  }
  if (caps.dataLocks && caps.performanceSchema === false) {
    problems.push({
      area: 'waits',
      message:
        'performance_schema is OFF, so performance_schema.data_locks and data_lock_waits are empty: row-lock waits cannot be shown.',
      fix: 'Restart the server with performance_schema=ON (the MySQL default).',
    });
  }

  let raw: Awaited<ReturnType<typeof readWaits>>;
  try {
    raw = await readWaits(conn, server, limit, options.blockingLocks === true);
  } catch (error) {
    const problem = privilegeFix(
      error,
      caps.dataLocks
        ? 'Reading performance_schema.data_lock_waits'
        : 'Reading information_schema.INNODB_LOCK_WAITS',
    );
    if (problem)
      throw new AdvisorError(
        'PRIVILEGE_MISSING',
        problem.message,
        { hint: problem.fix, serverCode: problem.serverCode },
        { cause: error },
      );
    throw error;
  }

  await decodeLocks(
    conn,
    raw.waits.flatMap((wait) => (wait.blockingLock ? [wait.lock, wait.blockingLock] : [wait.lock])),
    problems,
  );
  const trxIds = [...new Set(raw.waits.flatMap((wait) => [wait.waitingTrx, wait.blockingTrx]))];
  const txns = await readTransactions(conn, trxIds, problems);
  await fillLastStatements(conn, server, txns, problems);
  const unknown = (trxId: string): TxnRow => ({
    txn: {
      trxId,
      threadId: null,
      user: null,
      host: null,
      statement: null,
      statementSource: null,
      trxAgeSeconds: null,
      rowsLocked: null,
      rowsModified: null,
      state: null,
    },
    waitSeconds: null,
    database: null,
  });

  const mode = options.rewrites ?? true;
  const pending = new Set<string>();
  const rewritesFor = (sql: string | null): Pick<LockWaitView, 'rewrites' | 'rewritesPending'> => {
    if (!sql || mode === false) return { rewrites: [] };
    if (mode === 'lazy') {
      const cached = cachedStatementRewrites(server, sql);
      if (cached) return { rewrites: cached.rewrites };
      pending.add(sql);
      return { rewrites: [], rewritesPending: true };
    }
    return { rewrites: statementRewrites(server, sql).rewrites };
  };

  const footprints = new Map<string, LockFootprintWarning | null>();
  const batching = new Map<string, BatchingAdvice | null>();
  const waits: LockWaitView[] = [];
  for (const wait of raw.waits) {
    const waiting = txns.get(wait.waitingTrx) ?? unknown(wait.waitingTrx);
    const blocking = txns.get(wait.blockingTrx) ?? unknown(wait.blockingTrx);
    const view: LockWaitView = {
      waiting: waiting.txn,
      blocking: blocking.txn,
      lock: wait.lock,
      blockingLock: wait.blockingLock,
      waitSeconds: waiting.waitSeconds,
      ...rewritesFor(waiting.txn.statement),
    };
    const blockerSql = blocking.txn.statement;
    if (blockerSql && /^\s*(UPDATE|DELETE)\b/i.test(blockerSql) && wait.lock.schema && wait.lock.table) {
      if (!batching.has(blockerSql)) {
        try {
          const key = await primaryKeyOf(conn, wait.lock.schema, wait.lock.table);
          batching.set(blockerSql, adviseBatching(blockerSql, server, key));
        } catch {
          batching.set(blockerSql, null);
        }
      }
      view.blockerAdvice = batching.get(blockerSql) ?? null;
    }
    const lockingRead =
      view.rewrites.length > 0 ||
      (view.rewritesPending && containsLockingClause(waiting.txn.statement ?? ''));
    if (options.explain && waiting.txn.statement && lockingRead) {
      const sql = waiting.txn.statement;
      if (!footprints.has(sql)) {
        try {
          footprints.set(sql, await explainLockFootprint(conn, server, sql, waiting.database));
        } catch (error) {
          footprints.set(sql, null);
          const refused = error instanceof AdvisorError && error.code === 'CONSENT_REQUIRED';
          problems.push({
            area: 'explain',
            message: refused
              ? error.userMessage
              : `EXPLAIN of a waiting statement failed: ${(error as Error).message}`,
            fix: refused
              ? (error.details.hint ?? 'Explain it yourself if you trust the functions it calls.')
              : 'Grant SELECT on the tables it reads.',
          });
        }
      }
      view.footprint = footprints.get(sql) ?? null;
    }
    waits.push(view);
  }

  const forest = buildBlockingForest(waits);
  const blockerIds = [...new Set(raw.waits.map((wait) => wait.blockingTrx))];
  const lockCounts =
    caps.dataLocks && options.lockCounts === true
      ? await readLockCounts(conn, blockerIds, limit, problems)
      : [];
  const metadataWaits = await readMetadataWaits(conn, server, problems);
  const deadlock = options.deadlocks === false ? null : await readLatestDeadlock(conn, problems);
  if (pending.size > 0) scheduleRewrites(server, pending);

  return {
    takenAt: new Date().toISOString(),
    source: raw.source,
    waits,
    roots: forest.roots,
    cycles: forest.cycles,
    lockCounts,
    metadataWaits,
    deadlocks: deadlock ? [deadlock] : [],
    problems,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/**
 * `KILL QUERY n` or `KILL CONNECTION n`. Never call this automatically: the UI and CLI must first show a
 * confirmation naming the thread id, user and statement, and call it only after the user accepts.
 */
export async function killSession(
  conn: Connection,
  threadId: number,
  scope: 'query' | 'connection',
): Promise<void> {
  if (!Number.isInteger(threadId) || threadId <= 0)
    throw new AdvisorError('INVALID_INPUT', `Not a thread id: ${threadId}`);
  try {
    await conn.query(`KILL ${scope === 'query' ? 'QUERY' : 'CONNECTION'} ${threadId}`);
  } catch (error) {
    const driver = (error ?? {}) as DriverError;
    if (driver.errno === 1095) {
      throw new AdvisorError(
        'PRIVILEGE_MISSING',
        `You are not the owner of thread ${threadId}.`,
        {
          serverCode: 1095,
          hint: "Killing another user's session needs CONNECTION_ADMIN (MySQL 8) or SUPER / CONNECTION ADMIN (MariaDB).",
        },
        { cause: error },
      );
    }
    if (driver.errno === 1094)
      throw new AdvisorError(
        'NOT_FOUND',
        `Unknown thread id ${threadId}: it may have finished already.`,
        { serverCode: 1094 },
        { cause: error },
      );
    throw error;
  }
}
