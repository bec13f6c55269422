// Types of the capture history: windows, per-class rows per window, settings, trends and markers.
/*
 * Design note
 * -----------
 * Every capture window (a live performance_schema window, a mysql.slow_log read or window, an
 * imported slow-log file) is stored as one `HistoryWindow` plus one `HistoryClassRow` per class
 * (TopClass id). A class's trend is its row in each of the last N windows of one scope (profile
 * and source); markers compare the current window with all earlier windows of the scope. The
 * store (main/services/history-store.ts) keeps these in an SQLite file; this folder is pure.
 */
import type { TopSourceKind } from '../capture/top-classes.js';

/** Where a window came from (the Top queries source kinds). */
export const historySources = [
  'performance_schema',
  'slow_log',
  'file',
] as const satisfies readonly TopSourceKind[];
export type HistorySource = (typeof historySources)[number];

/**
 * What a stored class keeps of its example statement: `none`; `placeholders` — only the
 * normalized text with `?` for every literal (DIGEST_TEXT or the pt-query-digest fingerprint), never a
 * real value; `full` — the real example (QUERY_SAMPLE_TEXT, the slowest statement of a log class).
 */
export const samplePolicies = ['none', 'placeholders', 'full'] as const;
export type SamplePolicy = (typeof samplePolicies)[number];

/** The user's history settings. */
export interface HistorySettings {
  /** Record windows at all (the app records each finished capture when on). */
  enabled: boolean;
  /** Windows recorded more than this many days ago are pruned (0: no age limit). */
  retentionDays: number;
  /** At most this many windows are kept, the newest (0: no count limit). */
  maxWindows: number;
  /** Samples of windows from production profiles, and from everything else. */
  samples: { production: SamplePolicy; other: SamplePolicy };
}

export const DEFAULT_HISTORY_SETTINGS: HistorySettings = {
  enabled: true,
  retentionDays: 90,
  maxWindows: 1000,
  samples: { production: 'placeholders', other: 'full' },
};

/** One stored window. Times are ISO 8601 UTC. */
export interface HistoryWindow {
  id: number;
  source: HistorySource;
  /** What the capture said about itself, e.g. `60 s window`, a file name. */
  label: string;
  /** The profile's name, or null for a connection made without a profile (or a file without one). */
  profile: string | null;
  /** `host:port` of the server, or null (a file). */
  server: string | null;
  production: boolean;
  start: string;
  end: string;
  recordedAt: string;
  /** Statements (digests) or events (logs) in the window. */
  events: number;
  /** Classes stored for the window. */
  classes: number;
  /** The sample policy the window was stored with. */
  samples: SamplePolicy;
}

/** One class in one window. Seconds; null where the source has no such value. */
export interface HistoryClassRow {
  /** TopClass id: the pt-query-digest checksum (logs) or `schema/DIGEST` (performance_schema). */
  classId: string;
  checksum: string | null;
  digest: string | null;
  /** The fingerprint (normalized, no literal values). */
  fingerprint: string;
  schemas: string[];
  count: number;
  totalSeconds: number;
  p95: number | null;
  max: number | null;
  /**
   * `p95` is since the digest was first seen, not the window's: a performance_schema window
   * whose p95 is the digest table's QUANTILE_95. False where p95 is the window's own (logs, and
   * MySQL windows, whose p95 comes from the deltas of events_statements_histogram_by_digest's
   * buckets) or null (MariaDB digests have no quantiles). Rows stored before this distinction
   * marked every performance_schema window true. The `max` of a performance_schema window is
   * always since the digest was first seen (MAX_TIMER_WAIT; no delta can window a maximum).
   */
  lifetime: boolean;
  rowsExamined: number | null;
  rowsSent: number | null;
  lockSeconds: number | null;
  firstSeen: string | null;
  lastSeen: string | null;
  /** Per the window's sample policy (see {@link SamplePolicy}). */
  sample: string | null;
}

/** A class's numbers in one window. */
export interface HistoryPoint {
  windowId: number;
  count: number;
  totalSeconds: number;
  /** totalSeconds / count (null when count is 0). */
  avgSeconds: number | null;
  p95: number | null;
  /** `p95` is since the digest was first seen, not the window's (see HistoryClassRow.lifetime). */
  p95Lifetime: boolean;
  max: number | null;
  rowsExamined: number | null;
  firstSeen: string | null;
  lastSeen: string | null;
}

/** Why a class is flagged in the current window. */
export interface TrendMarkers {
  /** In the current window and in none of the scope's earlier windows (which exist). */
  new: boolean;
  /**
   * p95 or time per execution in the current window is at least `threshold` × the median of the
   * class's earlier windows; `factor` is the larger ratio, `metric` the one it came from.
   */
  regressed: { factor: number; metric: 'p95' | 'avg' } | null;
}

/** One class across the series windows. */
export interface ClassTrend {
  classId: string;
  checksum: string | null;
  digest: string | null;
  fingerprint: string;
  /** One entry per series window (same order as the reply's `windows`); null where the class did not run. */
  points: (HistoryPoint | null)[];
  markers: TrendMarkers;
}

/** One flat row of the export (a class in a window), as `sargable history` writes it. */
export interface HistoryExportRow extends Omit<HistoryClassRow, 'schemas'> {
  windowId: number;
  source: HistorySource;
  profile: string | null;
  server: string | null;
  windowStart: string;
  windowEnd: string;
  /** Comma-separated. */
  schemas: string;
}
