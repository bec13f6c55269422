// The workspace's types: the file's content as the app holds it (current format version).
//
// Design note: these are the shapes written to `.sargable.json` (file.ts reads and writes them) and
// passed over the API; everything else in core/workspace works on them. Additive optional fields keep
// the format version (older files simply lack them), so a new optional field needs no migration.

import type { Flavor } from '../flavors/capabilities.js';
import type { Suggestion } from '../model/report.js';
import type { PlanVerdict } from '../explain/summarize.js';
import type { DeadlockHistoryEntry } from '../locks/deadlock.js';

/** The format written by this version. */
export const WORKSPACE_VERSION = 2;
/** The `format` marker in every file since version 2. */
export const WORKSPACE_FORMAT = 'sargable-workspace';

/** Where a query came from. */
export type SourceOrigin = 'pasted' | 'slowlog' | 'digest' | 'locks' | 'analysis';

/** A query (or query class) a suggestion serves. */
export interface SourceQuery {
  sql: string;
  /** pt-query-digest fingerprint and its checksum (class id). */
  fingerprint: string;
  checksum: string;
  origin: SourceOrigin;
  rule?: string;
  message?: string;
}

/** One table access of an EXPLAIN, as kept for the record. */
export interface PlanLine {
  table: string | null;
  type: string | null;
  key: string | null;
  rows: number | null;
  extra?: string | null;
}

/**
 * What-if verification: EXPLAIN before and after the DDL. One shape everywhere: the CLI's
 * `suggestion.verification`, the API's what-if reply and the workspace item all carry this record.
 */
export interface VerificationRecord {
  verifiedAt: string;
  /** "MySQL 8.0.33" and the like. */
  server?: string;
  /** Invisible index (MySQL 8) or a real index on a sandbox. */
  method?: 'invisible-index' | 'sandbox';
  /** Improved when the rows examined dropped by at least the threshold (or the access got better). */
  verdict?: PlanVerdict;
  /** Share of estimated rows examined that the change saves (0.75 = 75 % fewer); null when unknown. */
  rowsReduction?: number | null;
  before: PlanLine[];
  after: PlanLine[];
  /** The plan after uses the proposed index. */
  usesIndex: boolean;
}

/** One suggestion in the workspace. */
export interface WorkspaceItem {
  id: string;
  status: 'accepted' | 'dismissed' | 'pending';
  table: string;
  suggestion: Suggestion;
  sources: SourceQuery[];
  dismissReason?: string;
  note?: string;
  verification?: VerificationRecord;
  /**
   * The identity of the finding this item fixes (finding-identity.ts). Items with the same one are
   * alternative fixes of one problem (a functional index or a generated column …): at most one of them
   * is accepted. Optional and additive: older files and hand-made items have none.
   */
  finding?: string;
  updatedAt: string;
}

/** A free note (optionally about one item). */
export interface WorkspaceNote {
  id: string;
  text: string;
  itemId?: string;
  createdAt: string;
}

/** The connection profile a workspace belongs to. */
export interface WorkspaceProfile {
  id: string;
  name?: string;
  flavor?: Flavor;
  serverVersion?: string;
  database?: string | null;
}

/** The whole workspace (current version). */
export interface Workspace {
  format: typeof WORKSPACE_FORMAT;
  version: typeof WORKSPACE_VERSION;
  profile: WorkspaceProfile;
  savedAt: string;
  items: WorkspaceItem[];
  notes: WorkspaceNote[];
  /** Advisor rule IDs disabled in this workspace (sorted; absent = none). */
  disabledRules?: string[];
  /** Opt-in advisor rule IDs turned on in this workspace (sorted; absent = none). */
  enabledRules?: string[];
  /**
   * Distinct deadlocks seen on this profile's server (Locks panel), keyed by their fingerprint, oldest
   * first. Optional and additive: files without it (all version 2 files before it, and migrated
   * version 1 files) simply have none.
   */
  deadlocks?: DeadlockHistoryEntry[];
  /**
   * Explicit writes Sargable ran on this profile's server (what-if index, kill, slow-log window),
   * oldest first, for the record. Optional and additive like `deadlocks`.
   */
  writes?: WriteRecord[];
}

/** One explicit write on a server: what ran, where, and how it ended. */
export interface WriteRecord {
  at: string;
  action: 'what-if-index' | 'kill' | 'slow-log-window' | 'apply-ddl';
  /** The statements as confirmed by the user (for the slow-log window: apply, then restore). */
  sql: string[];
  /** The connection label (profile name or user@host:port); never a password. */
  server: string;
  /** The profile was marked production and the user typed its name. */
  production: boolean;
  /** `started` for background jobs (the slow-log window). */
  outcome: 'done' | 'failed' | 'started';
  message?: string;
}

/** At most this many writes are kept per workspace (the oldest go first). */
export const MAX_WORKSPACE_WRITES = 500;

/** At most this many distinct deadlocks are kept per workspace (the least recently seen go first). */
export const MAX_WORKSPACE_DEADLOCKS = 100;
