// Normalized lock-wait model shared by the lock view, the CLI JSON and the UI (the JSON only grows).

/** One InnoDB transaction as the lock view shows it (a waiter or a blocker). */
export interface TxnInfo {
  /** InnoDB transaction id (`trx_id`), as text: ids exceed 2^53 on read-only transactions. */
  trxId: string;
  /** Processlist id (`CONNECTION_ID()`), the `n` of `KILL n`; null when unknown. */
  threadId: number | null;
  user: string | null;
  host: string | null;
  /** The running statement, or the last one of an idle-in-transaction session. */
  statement: string | null;
  /** Where `statement` came from: running now, the session's last statement, or unknown. */
  statementSource: 'current' | 'last' | null;
  /** Seconds since the transaction started. */
  trxAgeSeconds: number | null;
  /** `trx_rows_locked`: an approximation that counts index records and gaps, not rows returned. */
  rowsLocked: number | null;
  rowsModified: number | null;
  /** `trx_state`: RUNNING, LOCK WAIT, ROLLING BACK, COMMITTING. */
  state: string | null;
}

/** What a lock mode string says about the locked range (classified, never matched literally). */
export type LockGranularity =
  | 'table'
  | 'record'
  | 'gap'
  | 'next-key'
  | 'insert-intention'
  /** INNODB_LOCKS (MariaDB, MySQL 5.7) prints plain `X`/`S` for both record-only and next-key locks. */
  | 'record-or-next-key'
  | 'unknown';

/** One lock: the waited-for request or the conflicting granted lock. */
export interface LockInfo {
  /** `TABLE` or `RECORD`, as the server says. */
  lockType: string;
  /** The server's mode string, unchanged: `IX`, `X`, `X,REC_NOT_GAP`, `S,GAP`, `X,GAP,INSERT_INTENTION`, … */
  mode: string;
  /** `X`, `S`, `IX`, `IS`, `AUTO_INC`: the first component of `mode`. */
  strength: string;
  granularity: LockGranularity;
  schema: string | null;
  table: string | null;
  index: string | null;
  /** `lock_data` as the server prints it (`3`, `0x8000000000001E0000, 3`, `supremum pseudo-record`). */
  lockData: string | null;
  /** `lockData` decoded into index column values where the column types are known. */
  values?: LockDataValue[] | null;
}

/** A decoded `lock_data` field. */
export interface LockDataValue {
  /** Index column name when known (index columns, then the primary key columns of a secondary index). */
  column: string | null;
  /** Decoded text (`20.0000`, `Item3`, `3`), or the raw field when it could not be decoded. */
  value: string | null;
  /** The raw field as printed. */
  raw: string;
  decoded: boolean;
}

/** One waiter → blocker pair. A waiter blocked by several transactions appears once per blocker. */
export interface WaitRow {
  waiting: TxnInfo;
  blocking: TxnInfo;
  /** The lock the waiter requests. */
  lock: LockInfo;
  /** The blocker's conflicting lock, when the server reports it. */
  blockingLock?: LockInfo | null;
  /** Seconds the waiter has waited. */
  waitSeconds: number | null;
}

/** Record locks held per transaction and index (the seed's grouped data_locks query). */
export interface LockCount {
  trxId: string;
  schema: string | null;
  table: string | null;
  index: string | null;
  lockType: string;
  /** Locks excluding the supremum pseudo-record. */
  count: number;
}

/** A session waiting for a metadata lock (DDL behind an open transaction, LOCK TABLES, …). */
export interface MetadataWait {
  /** Processlist id of the waiting session. */
  threadId: number;
  user: string | null;
  host: string | null;
  statement: string | null;
  waitSeconds: number | null;
  schema: string | null;
  table: string | null;
  /** The requested MDL type (`EXCLUSIVE`, `SHARED_UPGRADABLE`, …) when performance_schema says it. */
  lockType: string | null;
  /**
   * Sessions whose granted metadata lock this request waits for (empty when unknown, and for a request
   * queued only behind another waiting request: see `queuedBehind`).
   */
  holders: MetadataHolder[];
  /** Waiting sessions (usually a DDL) this request is queued behind: the server grants their request first. */
  queuedBehind?: number[];
  /**
   * `metadata_locks` (MySQL, exact), `metadata_lock_info` (MariaDB plugin: exact holders, the waiters'
   * requests inferred from the processlist) or `processlist` (state only, holders inferred from open transactions).
   */
  source: 'metadata_locks' | 'metadata_lock_info' | 'processlist';
}

/** A session holding a metadata lock another one waits for. */
export interface MetadataHolder {
  threadId: number | null;
  user: string | null;
  host: string | null;
  statement: string | null;
  lockType: string | null;
  /** Age of the holder's open transaction, when it has one. */
  trxAgeSeconds: number | null;
}
