// The contract of performance_schema digest deltas: snapshot rows in, ranked window activity out.
/*
 * Design note
 * -----------
 * `events_statements_summary_by_digest` counters are cumulative since server start (or since
 * someone truncated the table); a snapshot holds them per (SCHEMA_NAME, DIGEST) as bigint
 * (picoseconds overflow 2^53 after ~2.5 hours of total latency), plus the server facts a delta
 * needs (uptime, lost digests, prepared statements). A delta class carries how it was found
 * (`changed`, `new`, `reset`, `baselineMissing`) and notes say why a delta should be read with
 * care. MAX_TIMER_WAIT and QUANTILE_* are lifetime values a delta cannot window (`lifetime`).
 */
import type { DigestFingerprint } from './digest-text.js';
import type { DigestBucket } from './window-histogram.js';

/** Cumulative counters of a digest row, by our name (column in the comment). */
export const digestCounterColumns = {
  count: 'COUNT_STAR',
  timerWait: 'SUM_TIMER_WAIT',
  lockTime: 'SUM_LOCK_TIME',
  errors: 'SUM_ERRORS',
  warnings: 'SUM_WARNINGS',
  rowsAffected: 'SUM_ROWS_AFFECTED',
  rowsSent: 'SUM_ROWS_SENT',
  rowsExamined: 'SUM_ROWS_EXAMINED',
  tmpDiskTables: 'SUM_CREATED_TMP_DISK_TABLES',
  tmpTables: 'SUM_CREATED_TMP_TABLES',
  selectFullJoin: 'SUM_SELECT_FULL_JOIN',
  selectFullRangeJoin: 'SUM_SELECT_FULL_RANGE_JOIN',
  selectRange: 'SUM_SELECT_RANGE',
  selectScan: 'SUM_SELECT_SCAN',
  sortMergePasses: 'SUM_SORT_MERGE_PASSES',
  sortRows: 'SUM_SORT_ROWS',
  sortScan: 'SUM_SORT_SCAN',
  sortRange: 'SUM_SORT_RANGE',
  noIndexUsed: 'SUM_NO_INDEX_USED',
  noGoodIndexUsed: 'SUM_NO_GOOD_INDEX_USED',
} as const;

/** Name of a cumulative counter. */
export type DigestCounter = keyof typeof digestCounterColumns;

/** One row of a snapshot. Times are picoseconds (bigint), timestamps epoch seconds. */
export interface DigestRow {
  schema: string | null;
  /** NULL for the overflow row that collects statements once the table is full. */
  digest: string | null;
  counters: Record<DigestCounter, bigint>;
  maxTimerWait: bigint;
  firstSeen: number;
  lastSeen: number;
  /** Lifetime QUANTILE_95 / QUANTILE_99 (MySQL >= 8.0.1), picoseconds. */
  quantile95?: bigint;
  quantile99?: bigint;
  digestText?: string | null;
  sampleText?: string | null;
  /**
   * Its non-empty latency buckets (events_statements_histogram_by_digest, MySQL >= 8.0.1) when
   * this snapshot read them: every row's in a window's first snapshot, then the rows that ran.
   */
  buckets?: DigestBucket[];
}

/**
 * One server-side prepared statement (`performance_schema.prepared_statements_instances`):
 * executions through the binary protocol (COM_STMT_EXECUTE) are counted here, not in the digest
 * table. Counters use the digest names (count = COUNT_EXECUTE, timerWait = SUM_TIMER_EXECUTE).
 */
export interface PreparedRow {
  /** OBJECT_INSTANCE_BEGIN and OWNER_THREAD_ID: one prepared statement of one connection. */
  id: string;
  sqlText: string;
  counters: Record<DigestCounter, bigint>;
  maxTimerWait: bigint;
}

/** What a snapshot knows about server-side prepared statements. */
export interface PreparedSnapshot {
  /** `statement/com/Execute` COUNT_STAR (all COM_STMT_EXECUTE since start). */
  executeTotal: number;
  /** False where COUNT_EXECUTE is never counted per statement (MariaDB). */
  perStatement: boolean;
  rows: PreparedRow[];
}

/** A snapshot of the digest table plus the server facts a delta needs. */
export interface DigestSnapshot {
  /** Server clock (epoch seconds) when the rows were read. */
  takenAt: number;
  /** `Uptime` status, seconds. */
  uptime: number;
  /** `Performance_schema_digest_lost` status. */
  digestLost: number;
  /** The row limit was reached: rows with the smallest SUM_TIMER_WAIT may be missing. */
  truncated: boolean;
  rows: DigestRow[];
  /** Server-side prepared statements, when read (see {@link PreparedSnapshot}). */
  prepared?: PreparedSnapshot;
}

/** Why a delta should be read with care. */
export interface CaptureNote {
  code:
    | 'server-restarted'
    | 'counters-reset'
    | 'digests-disappeared'
    | 'digest-table-full'
    | 'baseline-missing'
    | 'snapshot-truncated'
    | 'prepared-statements';
  message: string;
}

/** Activity of one digest during the window. Latencies in milliseconds. */
export interface DigestDeltaClass {
  schema: string | null;
  digest: string | null;
  digestText: string | null;
  /** `prepared`: executions of a server-side prepared statement (prepared_statements_instances). */
  status: 'changed' | 'new' | 'reset' | 'baseline-missing' | 'prepared';
  count: number;
  totalMs: number;
  avgMs: number;
  lockMs: number;
  errors: number;
  warnings: number;
  rowsAffected: number;
  rowsSent: number;
  rowsExamined: number;
  /** rows examined per row sent; null when nothing was sent. */
  examinedPerSent: number | null;
  noIndexUsed: number;
  noGoodIndexUsed: number;
  selectFullJoin: number;
  selectFullRangeJoin: number;
  selectRange: number;
  selectScan: number;
  sortMergePasses: number;
  sortRows: number;
  /** Sorts done by scanning / by range (filesorts). */
  sortScan: number;
  sortRange: number;
  tmpTables: number;
  tmpDiskTables: number;
  /**
   * The window's own 95th/99th percentile from the histogram bucket deltas (window-histogram.ts),
   * at most `lifetime.maxMs`; null where the window cannot be measured (no histogram table:
   * MariaDB; a digest whose buckets before the window are unknown) — then only `lifetime` has them.
   */
  window: { p95Ms: number | null; p99Ms: number | null } | null;
  /** Values since the digest was first seen; a delta cannot window them. */
  lifetime: {
    maxMs: number;
    p95Ms: number | null;
    p99Ms: number | null;
    firstSeen: string;
    lastSeen: string;
  };
  sampleText: string | null;
  /** The matching pt-query-digest class (see digest-text.ts for how exact it is). */
  fingerprint: DigestFingerprint | null;
}

/** The window's activity, ranked. */
export interface DigestDelta {
  from: { takenAt: string; uptime: number };
  to: { takenAt: string; uptime: number };
  windowSeconds: number;
  serverRestarted: boolean;
  totals: { count: number; totalMs: number; classes: number };
  classes: DigestDeltaClass[];
  /** Statements without a digest row because the table was full (NULL digest), if any ran. */
  overflow: DigestDeltaClass | null;
  /** Digests the server could not store during the window. */
  digestLost: number;
  /**
   * Server-side prepared statements executed in the window (COM_STMT_EXECUTE, which the digest
   * table does not count): `attributed` are in `classes` (status `prepared`), `missed` are not —
   * MariaDB does not count them per statement, and a statement deallocated between two polls
   * takes its last executions with it. Null when the snapshots did not read them.
   */
  prepared: { executions: number; attributed: number; missed: number; perStatement: boolean } | null;
  notes: CaptureNote[];
}

/** Sort keys for {@link computeDigestDelta}. */
export const digestDeltaOrders = [
  'totalMs',
  'count',
  'avgMs',
  'lockMs',
  'rowsExamined',
  'rowsSent',
  'examinedPerSent',
  'noIndexUsed',
  'tmpDiskTables',
  'errors',
] as const;
export type DigestDeltaOrder = (typeof digestDeltaOrders)[number];

/** Options for {@link computeDigestDelta}. */
export interface DigestDeltaOptions {
  orderBy?: DigestDeltaOrder;
  limit?: number;
  /** Hide digests of the capture's own queries (default true). */
  hideOwn?: boolean;
  /** `performance_schema_max_sql_text_length`, to tell cut samples. */
  maxSqlTextLength?: number;
}

/** A reset seen between two snapshots: the statements run between `from` and the reset are unknown. */
export interface DigestReset {
  from: number;
  to: number;
  digests: number;
  restart: boolean;
}
