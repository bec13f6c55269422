// The history model: class rows from a capture's Top queries rows (with the sample policy), points, and trends with markers.
/*
 * Design note
 * -----------
 * - A window's rows come from the same `TopClass` rows the Top queries view shows, so every
 *   source (digest deltas, mysql.slow_log, files) is stored alike. The fingerprint is always kept
 *   (it has no literal values); the example only per the sample policy.
 * - Trends: the series is the last N windows of the scope (one profile, one source), the last of
 *   them the current window. "new": the class ran in the current window and in none of the
 *   scope's earlier windows, and there are earlier windows (in the first window of a scope every
 *   class would be new, which says nothing). "regressed ×N": the current p95, or time per
 *   execution, is at least `threshold` × the median of the same metric over the class's earlier
 *   windows (all of them in the scope, not only the series); the larger ratio is the factor. A
 *   metric counts only when it also grew by at least MIN_REGRESSION_SECONDS: a statement of
 *   0.2 ms that takes 0.5 ms on a busy machine is ×2.5 but noise (seen: 25 runs of a trivial
 *   query marked "regressed ×2.1" while other jobs loaded the CPU), not what a DBA should chase.
 */
import type { TopClass } from '../capture/top-classes.js';
import { isoTimestamp } from './record.js';
import type {
  ClassTrend,
  HistoryClassRow,
  HistoryPoint,
  HistorySettings,
  HistoryWindow,
  SamplePolicy,
  TrendMarkers,
} from './types.js';

/** Default regression threshold: twice the median of the earlier windows. */
export const DEFAULT_REGRESSION_THRESHOLD = 2;
/** The least growth (seconds) of p95 or time per execution that can make a regression. */
export const MIN_REGRESSION_SECONDS = 0.001;
/** Default number of windows in a trend series. */
export const DEFAULT_SERIES_WINDOWS = 20;

/** The sample policy for a window of a production profile or not. */
export function samplePolicyFor(
  settings: Pick<HistorySettings, 'samples'>,
  production: boolean,
): SamplePolicy {
  return production ? settings.samples.production : settings.samples.other;
}

/** The sample a class keeps under `policy`: null, its `?` text (never a literal value), or the real example. */
export function sampleFor(
  entry: Pick<TopClass, 'example' | 'normalized' | 'fingerprint'>,
  policy: SamplePolicy,
): string | null {
  switch (policy) {
    case 'none':
      return null;
    case 'placeholders':
      return entry.normalized ?? entry.fingerprint;
    case 'full':
      return entry.example ?? entry.normalized;
  }
}

/** Top queries rows → the rows stored for one window. */
export function historyRowsFromTopClasses(
  classes: readonly TopClass[],
  policy: SamplePolicy,
): HistoryClassRow[] {
  return classes.map((entry) => ({
    classId: entry.id,
    checksum: entry.checksum,
    digest: entry.digest,
    fingerprint: entry.fingerprint,
    schemas: [...entry.schemas],
    count: entry.count,
    totalSeconds: entry.totalSeconds,
    p95: entry.latency.p95,
    max: entry.latency.max,
    // The window's own p95 (MySQL histogram bucket deltas) is not "since first seen", and a
    // missing one (MariaDB) is not either: only a stored p95 that is the digest's QUANTILE_95.
    lifetime: entry.latency.lifetime && entry.latency.windowQuantiles !== true && entry.latency.p95 !== null,
    rowsExamined: entry.rowsExamined,
    rowsSent: entry.rowsSent,
    lockSeconds: entry.lockSeconds,
    firstSeen: isoTimestamp(entry.firstSeen) ?? entry.firstSeen,
    lastSeen: isoTimestamp(entry.lastSeen) ?? entry.lastSeen,
    sample: sampleFor(entry, policy),
  }));
}

/** A stored row as a point of window `windowId`. */
export function pointFromRow(
  windowId: number,
  row: Pick<
    HistoryClassRow,
    'count' | 'totalSeconds' | 'p95' | 'max' | 'rowsExamined' | 'firstSeen' | 'lastSeen'
  > &
    Partial<Pick<HistoryClassRow, 'lifetime'>>,
): HistoryPoint {
  return {
    windowId,
    count: row.count,
    totalSeconds: row.totalSeconds,
    avgSeconds: row.count > 0 ? row.totalSeconds / row.count : null,
    p95: row.p95,
    p95Lifetime: row.lifetime === true && row.p95 !== null,
    max: row.max,
    rowsExamined: row.rowsExamined,
    firstSeen: row.firstSeen,
    lastSeen: row.lastSeen,
  };
}

/** The median of the finite values (null when there are none). */
export function median(values: readonly (number | null)[]): number | null {
  const sorted = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function ratio(current: number | null, baseline: number | null): number | null {
  if (current === null || baseline === null || baseline <= 0 || !Number.isFinite(current)) return null;
  if (current - baseline < MIN_REGRESSION_SECONDS) return current >= baseline ? 1 : current / baseline;
  return current / baseline;
}

/**
 * Markers of a class in the current window. `earlier`: its points in the scope's earlier windows
 * (where it ran); `earlierWindows`: how many earlier windows the scope has at all.
 */
export function trendMarkers(
  current: HistoryPoint | null,
  earlier: readonly HistoryPoint[],
  earlierWindows: number,
  threshold = DEFAULT_REGRESSION_THRESHOLD,
): TrendMarkers {
  if (current === null || current.count === 0) return { new: false, regressed: null };
  const ran = earlier.filter((point) => point.count > 0);
  const isNew = earlierWindows > 0 && ran.length === 0;
  const candidates: { factor: number; metric: 'p95' | 'avg' }[] = [];
  const p95 = ratio(current.p95, median(ran.map((point) => point.p95)));
  if (p95 !== null) candidates.push({ factor: p95, metric: 'p95' });
  const avg = ratio(current.avgSeconds, median(ran.map((point) => point.avgSeconds)));
  if (avg !== null) candidates.push({ factor: avg, metric: 'avg' });
  const worst = candidates.sort((a, b) => b.factor - a.factor)[0];
  const regressed =
    worst && worst.factor >= threshold
      ? { factor: Math.round(worst.factor * 10) / 10, metric: worst.metric }
      : null;
  return { new: isNew, regressed };
}

/** What {@link buildTrends} needs: the scope's windows and the candidate classes' points. */
export interface TrendInput {
  /** Every window of the scope up to the current one, oldest first; the last is the current window. */
  windows: readonly HistoryWindow[];
  /** Points per class id over those windows. */
  points: ReadonlyMap<string, readonly HistoryPoint[]>;
  /** Texts per class id. */
  classes: ReadonlyMap<string, Pick<ClassTrend, 'checksum' | 'digest' | 'fingerprint'>>;
  /** Series length (default 20). */
  seriesWindows?: number;
  threshold?: number;
}

/**
 * The series windows and one trend per class, ranked by total time in the current window (classes
 * that did not run in it last, by their total over the series).
 */
export function buildTrends(input: TrendInput): { windows: HistoryWindow[]; classes: ClassTrend[] } {
  const all = input.windows;
  const seriesLength = Math.max(1, input.seriesWindows ?? DEFAULT_SERIES_WINDOWS);
  const series = all.slice(-seriesLength);
  const current = all[all.length - 1];
  const position = new Map(all.map((window, index) => [window.id, index]));
  const trends: { trend: ClassTrend; currentTotal: number; seriesTotal: number }[] = [];
  for (const [classId, points] of input.points) {
    const byWindow = new Map(
      points.filter((point) => position.has(point.windowId)).map((p) => [p.windowId, p]),
    );
    const now = current ? (byWindow.get(current.id) ?? null) : null;
    const earlier = [...byWindow.values()].filter((point) => point.windowId !== current?.id);
    const texts = input.classes.get(classId);
    const seriesPoints = series.map((window) => byWindow.get(window.id) ?? null);
    trends.push({
      trend: {
        classId,
        checksum: texts?.checksum ?? null,
        digest: texts?.digest ?? null,
        fingerprint: texts?.fingerprint ?? '',
        points: seriesPoints,
        markers: trendMarkers(now, earlier, Math.max(0, all.length - 1), input.threshold),
      },
      currentTotal: now?.totalSeconds ?? -1,
      seriesTotal: seriesPoints.reduce((sum, point) => sum + (point?.totalSeconds ?? 0), 0),
    });
  }
  trends.sort(
    (a, b) =>
      b.currentTotal - a.currentTotal ||
      b.seriesTotal - a.seriesTotal ||
      (a.trend.classId < b.trend.classId ? -1 : a.trend.classId > b.trend.classId ? 1 : 0),
  );
  return { windows: [...series], classes: trends.map((entry) => entry.trend) };
}
