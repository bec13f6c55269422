// The types of the locking-read rewrites (rewrite.ts) and of their notes (rewrite-notes.ts): a leaf both import.

import type { Capabilities, Flavor } from '../flavors/capabilities.js';

/** Kinds of rewrite; the CLI JSON's `rewrites[].kind`. */
export type LockRewriteKind = 'nowait' | 'skip-locked' | 'wait' | 'lock-wait-timeout';

/** One offered rewrite with its caveats and an application snippet. */
export interface LockRewrite {
  kind: LockRewriteKind;
  sql: string;
  notes: string[];
  /** JavaScript (mysql2) showing how the application handles the error or the empty result. */
  snippet: string;
  /** The error a lock conflict raises with this rewrite (3572 or 1205), when it fails instead of waiting. */
  errorCode: number | null;
  /** False when the rewrite would be wrong for this statement (e.g. SKIP LOCKED on an aggregate). */
  recommended: boolean;
}

/** A rewrite the target or the parser does not allow, and why. */
export interface UnavailableRewrite {
  kind: LockRewriteKind;
  reason: string;
}

/** The lock strength and option of one locking clause. */
export interface LockingClause {
  /** As written: `FOR UPDATE`, `LOCK IN SHARE MODE`, `FOR UPDATE NOWAIT`, `FOR SHARE OF t SKIP LOCKED`, … */
  text: string;
  strength: 'update' | 'share';
  option: 'none' | 'nowait' | 'skip-locked' | 'wait';
  /** `OF` tables (trailing clauses only; the parser reads no OF). */
  of?: string[];
}

/** Result of {@link rewriteLockingRead}. */
export interface LockingReadResult {
  /** `ok`: parsed and rewritten; `cannot-rewrite`: a locking read the parser cannot handle; `not-locking-read`. */
  status: 'ok' | 'cannot-rewrite' | 'not-locking-read';
  /** Why it could not be rewritten (parse error, unsupported syntax). */
  reason?: string;
  clauses: LockingClause[];
  rewrites: LockRewrite[];
  unavailable: UnavailableRewrite[];
}

/** The server a rewrite is made for. `ServerInfo` satisfies it. */
export interface LockTarget {
  flavor: Flavor;
  capabilities: Capabilities;
}

/** Options for {@link rewriteLockingRead}. */
export interface RewriteOptions {
  /** Seconds for MariaDB `WAIT n` (default 5). */
  waitSeconds?: number;
  /** Seconds for the session innodb_lock_wait_timeout alternative (default 1, the minimum). */
  lockWaitTimeoutSeconds?: number;
}
