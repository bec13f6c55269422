// The Transactions view (innotop's T mode): open InnoDB transactions, who blocks whom, the processlist.
/*
 * Design note.
 * One read of the server (services/locks-transactions.ts) fills these shapes: every open transaction from
 * information_schema.INNODB_TRX with its session (processlist), the last statements of its thread
 * (performance_schema.events_statements_history / _current where the consumers are on: MySQL's default;
 * MariaDB has them off by default, the view says so), the blocking relations (row-lock waits from
 * data_lock_waits / INNODB_LOCK_WAITS, metadata-lock waits from the wait tree), the history list
 * length (undo not yet purged: INNODB_METRICS trx_rseg_history_len, else SHOW ENGINE INNODB STATUS) and
 * the processlist. Read-only; the only write is Kill, behind a confirmation, through locks.kill.
 * Statement texts are other sessions' SQL: shown as text, never executed.
 * `relate` turns the wait pairs into per-session `blockedBy` / `blocking` lists (pure, unit-tested).
 */

/** One open transaction. */
export interface TransactionView {
  trxId: string;
  threadId: number | null;
  user: string | null;
  host: string | null;
  db: string | null;
  /** `trx_state`: RUNNING, LOCK WAIT, ROLLING BACK, COMMITTING. */
  state: string | null;
  ageSeconds: number | null;
  /** Seconds waiting for a row lock (LOCK WAIT), else null. */
  waitSeconds: number | null;
  /** `trx_rows_locked` (approximate: index records and gaps). */
  rowsLocked: number | null;
  rowsModified: number | null;
  tablesInUse: number | null;
  tablesLocked: number | null;
  lockStructs: number | null;
  isolation: string | null;
  readOnly: boolean | null;
  /** Processlist COMMAND and STATE of its session (`Sleep` = idle in the transaction). */
  command: string | null;
  processState: string | null;
  /** The running statement (null when idle). */
  statement: string | null;
  /** The session's recent statements, oldest first, the last one last (performance_schema). */
  lastStatements: string[];
  /** Sessions this one waits for. */
  blockedBy: Relation[];
  /** Sessions waiting for this one. */
  blocking: Relation[];
}

/** One edge of the blocking graph, as seen from one side. */
export interface Relation {
  threadId: number;
  /** A row lock (InnoDB) or a metadata lock (the table's definition). */
  kind: 'row' | 'metadata';
}

/** One processlist row. */
export interface ProcessView {
  id: number;
  user: string | null;
  host: string | null;
  db: string | null;
  command: string | null;
  time: number | null;
  state: string | null;
  info: string | null;
  /** Its open InnoDB transaction, if any. */
  trxId: string | null;
}

/** The reply of `locks.transactions`. */
export interface TransactionsSnapshot {
  takenAt: string;
  /** Undo records not yet purged; null when the server did not say. */
  historyListLength: number | null;
  transactions: TransactionView[];
  processlist: ProcessView[];
  problems: { area: string; message: string; fix: string }[];
  elapsedMs: number;
}

/** Waiting → blocking pairs by thread id into `blockedBy` / `blocking` per thread (deduplicated). */
export function relate(
  pairs: readonly { waiting: number; blocking: number; kind: Relation['kind'] }[],
): Map<number, { blockedBy: Relation[]; blocking: Relation[] }> {
  const result = new Map<number, { blockedBy: Relation[]; blocking: Relation[] }>();
  const entry = (id: number) => {
    let found = result.get(id);
    if (!found) result.set(id, (found = { blockedBy: [], blocking: [] }));
    return found;
  };
  const add = (list: Relation[], relation: Relation) => {
    if (!list.some((item) => item.threadId === relation.threadId && item.kind === relation.kind))
      list.push(relation);
  };
  for (const pair of pairs) {
    if (pair.waiting === pair.blocking) continue;
    add(entry(pair.waiting).blockedBy, { threadId: pair.blocking, kind: pair.kind });
    add(entry(pair.blocking).blocking, { threadId: pair.waiting, kind: pair.kind });
  }
  return result;
}

/**
 * Transaction rows (INNODB_TRX) whose session is not in the processlist read after them are left over:
 * INNODB_TRX is served from a cache refreshed at most every 100 ms (by any session's read), so it can
 * still list a transaction whose connection was killed and has gone. Rows without a session (thread id
 * null or 0: recovered or XA PREPARED transactions, background work) stay. Only a complete processlist
 * (`complete`: read without error and not cut at its row limit) can say a session is gone.
 */
export function withoutGoneSessions<T extends { threadId: number | null }>(
  transactions: readonly T[],
  processIds: ReadonlySet<number>,
  complete: boolean,
): T[] {
  if (!complete) return [...transactions];
  return transactions.filter(
    (trx) => trx.threadId === null || trx.threadId === 0 || processIds.has(trx.threadId),
  );
}

/**
 * Whether a snapshot shows a KILL's effect. KILL CONNECTION: the session has no transaction and no
 * processlist row left (a killed session rolling back is still listed, as "Killed"). KILL QUERY: the
 * session no longer runs `statement` (gone, idle, or running another statement).
 */
export function killShown(
  snapshot: TransactionsSnapshot,
  threadId: number,
  scope: 'query' | 'connection',
  statement: string | null,
): boolean {
  const process = snapshot.processlist.find((row) => row.id === threadId);
  if (scope === 'connection')
    return !process && !snapshot.transactions.some((trx) => trx.threadId === threadId);
  return !process || process.info === null || (statement !== null && process.info !== statement);
}
