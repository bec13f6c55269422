// One row model for the Top queries view over every source (slow-log files, mysql.slow_log, digest deltas), with sort, filter and CSV/JSON export.
import { QUERY_TIME_BUCKETS, type DigestClass, type DigestResult } from '../slowlog/index.js';
import type { DigestDelta, DigestDeltaClass } from './digest-delta.js';
import { statementFromDigestText } from './digest-text.js';
import type { LatencyHistogram } from './latency-histogram.js';
import type { WorkloadTimeline } from './timeline.js';

/** Where a class list came from. */
export type TopSourceKind = 'file' | 'slow_log' | 'performance_schema';

/** Latency summary of a class, in seconds; null where the source has no such value. */
export interface TopLatency {
  min: number | null;
  median: number | null;
  avg: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** True when min/median/p95/p99/max are since the digest was first seen, not the window. */
  lifetime: boolean;
  /**
   * Live digests: p95/p99 are the window's own (histogram bucket deltas, MySQL) though max is
   * since the digest was first seen. Absent or false: `lifetime` says it for all of them.
   */
  windowQuantiles?: boolean;
}

/**
 * Temporary tables, sorts and scans of a class; null where the source has no such counter.
 * Logs: see ExecutionSummary (core/slowlog). performance_schema: the window's SUM_CREATED_TMP_TABLES,
 * SUM_CREATED_TMP_DISK_TABLES, SUM_SORT_SCAN + SUM_SORT_RANGE, SUM_NO_INDEX_USED (statements
 * that scanned a table without an index) and SUM_SELECT_FULL_JOIN.
 */
export interface TopExecution {
  tmpTables: number | null;
  tmpDiskTables: number | null;
  filesorts: number | null;
  fullScans: number | null;
  fullJoins: number | null;
}

/** One class as the Top queries view shows and exports it. */
export interface TopClass {
  /** Stable key: the pt-query-digest checksum (logs) or `schema/DIGEST` (performance_schema). */
  id: string;
  /** pt-query-digest class checksum; for digests the mapped class, when there is one. */
  checksum: string | null;
  /** performance_schema DIGEST (digests only). */
  digest: string | null;
  fingerprint: string;
  schemas: string[];
  count: number;
  /** Total query time in seconds. */
  totalSeconds: number;
  latency: TopLatency;
  /** Total lock time in seconds (null: unknown). */
  lockSeconds: number | null;
  rowsSent: number | null;
  rowsExamined: number | null;
  firstSeen: string | null;
  lastSeen: string | null;
  /** A real statement (the slowest example of a log, QUERY_SAMPLE_TEXT of a digest), or null. */
  example: string | null;
  /** The normalized statement with `?` placeholders (digests: DIGEST_TEXT), or null. */
  normalized: string | null;
  /**
   * Query_time distribution of a log class (files, mysql.slow_log) on pt-query-digest's decade
   * scale (1us … 10s+), kept while digesting; null for digests, whose server histogram is read
   * per class when it is selected.
   */
  histogram: LatencyHistogram | null;
  execution: TopExecution;
}

/** A log class's decade counts (DigestClass.queryTimeHistogram) as a chart histogram. */
export function decadeLatencyHistogram(counts: readonly number[] | undefined): LatencyHistogram | null {
  if (!counts || counts.length !== QUERY_TIME_BUCKETS.length) return null;
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  return {
    buckets: counts.map((count, index) => ({
      lowMs: index === 0 ? 0 : 10 ** (index - 3),
      // The last bucket (`10s+`) is open-ended; 100 s is its nominal top for drawing.
      highMs: 10 ** (index - 2),
      count,
    })),
    total,
    labels: [...QUERY_TIME_BUCKETS],
  };
}

/** A class list with where it came from. */
export interface TopClassList {
  source: { kind: TopSourceKind; label: string };
  /** Events (logs) or statements (digests) in the list's window. */
  events: number;
  classes: TopClass[];
  timeline: WorkloadTimeline | null;
}

/** Sortable columns. */
export const topSortKeys = [
  'totalSeconds',
  'count',
  'avg',
  'p95',
  'max',
  'lockSeconds',
  'rowsExamined',
  'rowsSent',
] as const;
export type TopSortKey = (typeof topSortKeys)[number];

function round(value: number, digits = 6): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function or(value: number | undefined | null): number | null {
  return value === undefined || value === null || !Number.isFinite(value) ? null : value;
}

/** Log classes (files, mysql.slow_log) → rows. */
export function topClassesFromDigest(result: Pick<DigestResult, 'classes'>): TopClass[] {
  return result.classes.map((entry: DigestClass) => {
    const time = entry.queryTime;
    return {
      id: entry.checksum,
      checksum: entry.checksum,
      digest: null,
      fingerprint: entry.fingerprint,
      schemas: entry.schemas,
      count: entry.queryCount,
      totalSeconds: time?.sum ?? 0,
      latency: {
        min: or(time?.min),
        median: or(time?.median),
        avg: or(time?.avg),
        p95: or(time?.p95),
        p99: null,
        max: or(time?.max),
        lifetime: false,
      },
      lockSeconds: or(entry.lockTime?.sum),
      rowsSent: or(entry.rowsSent?.sum),
      rowsExamined: or(entry.rowsExamined?.sum),
      firstSeen: entry.firstSeen ?? null,
      lastSeen: entry.lastSeen ?? null,
      example: entry.example.sql,
      normalized: null,
      histogram: decadeLatencyHistogram(entry.queryTimeHistogram),
      execution: { ...entry.execution },
    };
  });
}

function msToSeconds(ms: number | null): number | null {
  return ms === null ? null : round(ms / 1000);
}

/** performance_schema digest delta classes → rows (window counters; the window's quantiles where measured, else lifetime ones). */
export function topClassesFromDelta(delta: Pick<DigestDelta, 'classes'>): TopClass[] {
  return delta.classes.map((entry: DigestDeltaClass) => {
    const normalized = entry.digestText === null ? null : statementFromDigestText(entry.digestText);
    return {
      id: `${entry.schema ?? ''}/${entry.digest ?? 'overflow'}`,
      checksum: entry.fingerprint?.checksum ?? null,
      digest: entry.digest,
      fingerprint: entry.fingerprint?.fingerprint ?? entry.digestText ?? '(no digest text)',
      schemas: entry.schema === null ? [] : [entry.schema],
      count: entry.count,
      totalSeconds: round(entry.totalMs / 1000),
      latency: {
        min: null,
        median: null,
        avg: msToSeconds(entry.avgMs),
        p95: msToSeconds(entry.window ? entry.window.p95Ms : entry.lifetime.p95Ms),
        p99: msToSeconds(entry.window ? entry.window.p99Ms : entry.lifetime.p99Ms),
        max: msToSeconds(entry.lifetime.maxMs),
        lifetime: true,
        windowQuantiles: entry.window !== null,
      },
      lockSeconds: round(entry.lockMs / 1000),
      rowsSent: entry.rowsSent,
      rowsExamined: entry.rowsExamined,
      firstSeen: entry.lifetime.firstSeen,
      lastSeen: entry.lifetime.lastSeen,
      example: entry.sampleText,
      normalized,
      histogram: null,
      execution: {
        tmpTables: entry.tmpTables,
        tmpDiskTables: entry.tmpDiskTables,
        filesorts: entry.sortScan + entry.sortRange,
        fullScans: entry.noIndexUsed,
        fullJoins: entry.selectFullJoin,
      },
    };
  });
}

/** The value a column sorts by (null sorts last). */
export function topSortValue(entry: TopClass, key: TopSortKey): number | null {
  switch (key) {
    case 'totalSeconds':
      return entry.totalSeconds;
    case 'count':
      return entry.count;
    case 'avg':
      return entry.latency.avg;
    case 'p95':
      return entry.latency.p95;
    case 'max':
      return entry.latency.max;
    case 'lockSeconds':
      return entry.lockSeconds;
    case 'rowsExamined':
      return entry.rowsExamined;
    case 'rowsSent':
      return entry.rowsSent;
  }
}

/**
 * Filter then sort (a new array). Every word of `filter` must occur, case-insensitively, in the
 * fingerprint, a schema, the checksum or the digest. Ties keep the input order (stable sort).
 */
export function selectTopClasses(
  classes: readonly TopClass[],
  options: { filter?: string; sort?: TopSortKey; descending?: boolean } = {},
): TopClass[] {
  const words = (options.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const kept =
    words.length === 0
      ? [...classes]
      : classes.filter((entry) => {
          const haystack =
            `${entry.fingerprint}\n${entry.schemas.join('\n')}\n${entry.checksum ?? ''}\n${entry.digest ?? ''}`.toLowerCase();
          return words.every((word) => haystack.includes(word));
        });
  const key = options.sort ?? 'totalSeconds';
  const direction = options.descending === false ? 1 : -1;
  return kept.sort((a, b) => {
    const x = topSortValue(a, key);
    const y = topSortValue(b, key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return x === y ? 0 : (x < y ? -1 : 1) * direction;
  });
}

/** Columns of the CSV export, in order. */
export const topCsvColumns = [
  'rank',
  'checksum',
  'digest',
  'fingerprint',
  'schemas',
  'count',
  'total_s',
  'avg_s',
  'min_s',
  'median_s',
  'p95_s',
  'p99_s',
  'max_s',
  'latency_lifetime',
  'lock_s',
  'rows_sent',
  'rows_examined',
  'tmp_tables',
  'tmp_disk_tables',
  'filesorts',
  'full_scans',
  'full_joins',
  'first_seen',
  'last_seen',
  'example',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF. A text that starts
 * with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` so a spreadsheet shows it as text instead
 * of running it as a formula (OWASP "CSV injection"): query texts come from whoever sent them.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The classes as CSV (header line, one line per class in the given order, CRLF line ends). */
export function topClassesToCsv(classes: readonly TopClass[]): string {
  const lines = [topCsvColumns.join(',')];
  classes.forEach((entry, index) => {
    const l = entry.latency;
    const row: (string | number | boolean | null)[] = [
      index + 1,
      entry.checksum,
      entry.digest,
      entry.fingerprint,
      entry.schemas.join(' '),
      entry.count,
      entry.totalSeconds,
      l.avg,
      l.min,
      l.median,
      l.p95,
      l.p99,
      l.max,
      l.lifetime,
      entry.lockSeconds,
      entry.rowsSent,
      entry.rowsExamined,
      entry.execution.tmpTables,
      entry.execution.tmpDiskTables,
      entry.execution.filesorts,
      entry.execution.fullScans,
      entry.execution.fullJoins,
      entry.firstSeen,
      entry.lastSeen,
      entry.example ?? entry.normalized,
    ];
    lines.push(row.map(csvField).join(','));
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** Format name and version of the JSON export. */
export const TOP_JSON_FORMAT = 'sargable-top-queries/1';

/** The classes as JSON: `{ format, exportedAt, source, events, classes }` (classes in the given order). */
export function topClassesToJson(
  list: Pick<TopClassList, 'source' | 'events'>,
  classes: readonly TopClass[],
  exportedAt: Date,
): string {
  return `${JSON.stringify(
    {
      format: TOP_JSON_FORMAT,
      exportedAt: exportedAt.toISOString(),
      source: list.source,
      events: list.events,
      classes: classes.map((entry, index) => ({ rank: index + 1, ...entry })),
    },
    null,
    2,
  )}\n`;
}
