// The result of one lock poll (the CLI/UI JSON contract of `sargable locks`); it only grows.

import type { Deadlock, DeadlockHistoryEntry } from './deadlock.js';
import type { BatchingAdvice } from './batching.js';
import type { LockFootprintWarning } from './footprint.js';
import type { LockRewrite, LockingReadResult, UnavailableRewrite } from './rewrite-types.js';
import type { BlockingNode } from './tree.js';
import type { MetadataWaitGroup } from './metadata-tree.js';
import type { LockCount, MetadataWait, WaitRow } from './types.js';

/** Something the view could not show, with the exact fix. */
export interface LockProblem {
  area:
    | 'waits'
    | 'transactions'
    | 'statements'
    | 'lockCounts'
    | 'metadataWaits'
    | 'deadlocks'
    | 'explain'
    | 'workspace';
  message: string;
  /** The GRANT or setting that fixes it. */
  fix: string;
  serverCode?: number;
}

/** One wait in the CLI/UI JSON: the pair, plus rewrites of the waiting statement. */
export interface LockWaitView extends WaitRow {
  rewrites: Pick<LockRewrite, 'kind' | 'sql' | 'notes' | 'snippet' | 'errorCode' | 'recommended'>[];
  /**
   * True when the rewrites of the waiting statement were not computed by this poll (the live view
   * computes them after the poll returns); fetch them with `locks.rewrites`. Absent when `rewrites` is final.
   */
  rewritesPending?: true;
  /** Batching advice when the blocker runs a long UPDATE/DELETE. */
  blockerAdvice?: BatchingAdvice | null;
  /** Scan warning for the waiting statement (only with `explain: true`). */
  footprint?: LockFootprintWarning | null;
}

/** The result of one poll: the CLI JSON (`sargable locks --format json`). It only grows. */
export interface LockSnapshot {
  takenAt: string;
  source: 'data_locks' | 'innodb_locks';
  waits: LockWaitView[];
  roots: BlockingNode[];
  cycles: string[][];
  lockCounts: LockCount[];
  metadataWaits: MetadataWait[];
  /**
   * The metadata-lock wait tree: each waiting request (usually DDL) with the sessions holding what it
   * needs and the sessions queued behind it (core/locks/metadata-tree.ts).
   */
  metadataTree: MetadataWaitGroup[];
  deadlocks: Deadlock[];
  /**
   * The distinct deadlocks kept in the profile's workspace (the live view records `deadlocks` there),
   * least recently seen first. Absent when the poll did not read the workspace (CLI without one).
   */
  deadlockHistory?: DeadlockHistoryEntry[];
  problems: LockProblem[];
  /** Milliseconds the poll took. */
  elapsedMs: number;
}

/** The rewrites of one statement (`locks.rewrites`): what `rewrites` carries, plus why some are missing. */
export interface StatementRewrites {
  status: LockingReadResult['status'];
  /** Why the statement cannot be rewritten (status `cannot-rewrite`). */
  reason?: string;
  rewrites: LockWaitView['rewrites'];
  unavailable: UnavailableRewrite[];
}
