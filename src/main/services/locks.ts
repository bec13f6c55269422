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
 *   5. metadata-lock waits: processlist state `Waiting for … metadata lock`; the locks from
 *      `metadata_locks` (MySQL), `METADATA_LOCK_INFO` (MariaDB plugin) or inferred from open
 *      transactions, grouped as waiting DDL → holders → queued (locks-metadata.ts).
 *   6. `SHOW ENGINE INNODB STATUS` → latest deadlock.
 * A missing privilege for the main query raises AdvisorError('PRIVILEGE_MISSING') naming the GRANT;
 * for the optional parts it becomes a `problems[]` entry, so the view is never silently empty.
 */

import type { Connection } from 'mysql2/promise';
import { adviseBatching, type BatchingAdvice } from '../../core/locks/batching.js';
import type { LockFootprintWarning } from '../../core/locks/footprint.js';
import { containsLockingClause } from '../../core/locks/locking-clause.js';
import { buildBlockingForest } from '../../core/locks/tree.js';
import { AdvisorError } from '../../shared/errors.js';
import type { LockProblem, LockSnapshot, LockWaitView } from '../../core/locks/snapshot.js';
import { readLatestDeadlock } from './locks-deadlock.js';
import { readMetadataLocks } from './locks-metadata.js';
import {
  cachedStatementRewrites,
  explainLockFootprint,
  scheduleRewrites,
  statementRewrites,
} from './locks-rewrites.js';
import {
  type TxnRow,
  decodeLocks,
  fillLastStatements,
  primaryKeyOf,
  readLockCounts,
  readTransactions,
  readWaits,
} from './locks-row-waits.js';
import { DEFAULT_LIMIT, type LockServer, privilegeFix } from './locks-shared.js';

export type {
  LockProblem,
  LockSnapshot,
  LockWaitView,
  StatementRewrites,
} from '../../core/locks/snapshot.js';

// The query families live in locks-*.ts; their public functions are re-exported here.
export { countRecordLocks } from './locks-row-waits.js';
export { readMetadataLocks, readMetadataWaits } from './locks-metadata.js';
export { readLatestDeadlock } from './locks-deadlock.js';
export { killSession } from './locks-kill.js';
export {
  cachedStatementRewrites,
  clearRewriteCache,
  explainLockFootprint,
  statementRewrites,
} from './locks-rewrites.js';
export { privilegeFix, type LockServer } from './locks-shared.js';

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
  const metadata = await readMetadataLocks(conn, server, problems);
  const deadlock = options.deadlocks === false ? null : await readLatestDeadlock(conn, problems);
  if (pending.size > 0) scheduleRewrites(server, pending);

  return {
    takenAt: new Date().toISOString(),
    source: raw.source,
    waits,
    roots: forest.roots,
    cycles: forest.cycles,
    lockCounts,
    metadataWaits: metadata.waits,
    metadataTree: metadata.tree,
    deadlocks: deadlock ? [deadlock] : [],
    problems,
    elapsedMs: Math.round(performance.now() - started),
  };
}
