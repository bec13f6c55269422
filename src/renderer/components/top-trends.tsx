// Top queries history views: a class's sparklines of count and time per window, its "new" / "regressed ×N" markers, and its table of windows.
/*
 * Design note: the sparklines are inline SVG (no chart library): one point per series window, a
 * gap where the class did not run, a dot on every window it ran in (so a single window shows), and
 * `data-points` says how many windows it ran in. Markers come from the history API
 * (core/history TrendMarkers): the UI only shows them.
 */
import type { ClassTrend, HistoryPoint, HistoryWindow } from '../../core/history/index.js';
import type { HistoryClassReply, HistoryRecordReply } from '../../shared/api/history.js';
import { ErrorBox, type ShownError } from './error-box.js';
import { count, exactCount, seconds } from './top-format.js';

const WIDTH = 30;
const HEIGHT = 16;

/** A tiny line of `values` (null: no value in that window). */
export function Sparkline({
  values,
  label,
  kind,
}: {
  values: (number | null)[];
  label: string;
  kind: 'count' | 'time';
}) {
  const known = values.filter((value): value is number => value !== null);
  const top = Math.max(...known, 0);
  const step = values.length > 1 ? (WIDTH - 4) / (values.length - 1) : 0;
  const at = (value: number, index: number) => ({
    x: values.length > 1 ? 2 + index * step : WIDTH / 2,
    y: top > 0 ? HEIGHT - 2 - (value / top) * (HEIGHT - 4) : HEIGHT - 2,
  });
  // Runs of consecutive windows the class ran in are joined; a gap breaks the line.
  const runs: string[] = [];
  let run: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (run.length > 1) runs.push(run.join(' '));
      run = [];
      return;
    }
    const { x, y } = at(value, index);
    run.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  });
  if (run.length > 1) runs.push(run.join(' '));
  return (
    <svg
      className={`top__spark top__spark--${kind}`}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      data-testid={`top-spark-${kind}`}
      data-points={known.length}
    >
      <title>{label}</title>
      {runs.map((points, index) => (
        <polyline key={index} points={points} fill="none" />
      ))}
      {values.map((value, index) => {
        if (value === null) return null;
        const { x, y } = at(value, index);
        return <circle key={index} cx={x} cy={y} r={1.6} />;
      })}
    </svg>
  );
}

function pointLabel(kind: 'count' | 'time', points: (HistoryPoint | null)[]): string {
  const shown = points.map((point) =>
    point === null ? '–' : kind === 'count' ? (exactCount(point.count) ?? '0') : seconds(point.totalSeconds),
  );
  return `${kind === 'count' ? 'Executions' : 'Query time'} per window, oldest first: ${shown.join(', ')}`;
}

/** The table's trend cell: count and time per window, and the class's marker. */
export function TrendCell({ trend }: { trend: ClassTrend | undefined }) {
  if (!trend) return <span className="top__trend top__trend--none">—</span>;
  const ran = trend.points.filter((point) => point !== null).length;
  return (
    <span className="top__trend" data-testid="top-trend" data-points={ran}>
      <Sparkline
        kind="count"
        values={trend.points.map((point) => point?.count ?? null)}
        label={pointLabel('count', trend.points)}
      />
      <Sparkline
        kind="time"
        values={trend.points.map((point) => point?.totalSeconds ?? null)}
        label={pointLabel('time', trend.points)}
      />
      <TrendMarkers trend={trend} compact />
    </span>
  );
}

/** A regression factor as shown: one decimal below 10, whole from 10, "999+" beyond (the cell stays narrow). */
export function factorText(factor: number): string {
  if (factor >= 1000) return '999+';
  return factor >= 10 ? String(Math.round(factor)) : factor.toFixed(1);
}

function regressedTitle(regressed: NonNullable<ClassTrend['markers']['regressed']>): string {
  return `Regressed ×${regressed.factor.toFixed(1)}: ${regressed.metric === 'p95' ? 'the 95th percentile' : 'the time per execution'} is ${regressed.factor.toFixed(1)}× the median of the earlier windows`;
}

/**
 * "new" and "regressed ×N". `compact` (the table's Trend cell) shows the factor only ("×3.2"),
 * with the full words in its title and accessible name.
 */
export function TrendMarkers({
  trend,
  compact = false,
}: {
  trend: ClassTrend | undefined;
  compact?: boolean;
}) {
  if (!trend) return null;
  const { markers } = trend;
  const prefix = compact ? 'top-marker' : 'top-history-marker';
  return (
    <>
      {markers.new && (
        <span
          className="badge badge--ok top__marker"
          title="Not in any earlier window of this server and source"
          data-testid={`${prefix}-new`}
        >
          new
        </span>
      )}
      {markers.regressed && (
        <span
          className="badge badge--error top__marker"
          title={regressedTitle(markers.regressed)}
          aria-label={`regressed ×${factorText(markers.regressed.factor)}`}
          data-testid={`${prefix}-regressed`}
        >
          {compact ? '' : 'regressed '}×{factorText(markers.regressed.factor)}
        </span>
      )}
    </>
  );
}

function windowTime(window: HistoryWindow): string {
  const start = new Date(window.start);
  const today = new Date().toDateString() === start.toDateString();
  return today
    ? start.toLocaleTimeString()
    : `${start.toLocaleDateString()} ${start.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

/** A line under the timeline: whether the window went to the history, and whether there is any to compare with. */
export function HistoryNote({
  recorded,
  windows,
  error,
}: {
  recorded: HistoryRecordReply | null;
  windows: HistoryWindow[] | null;
  error: ShownError | null;
}) {
  if (error) return <ErrorBox error={error} testId="top-history-error" />;
  if (!recorded) return null;
  let text: string;
  if (recorded.windowId === null) text = `History: this window was not stored. ${recorded.skipped ?? ''}`;
  else if (!windows) text = 'History: stored; reading the trends…';
  else if (windows.length <= 1)
    text = 'History: the first stored window of this server and source; trends start with the next one.';
  else text = `History: trends over the last ${windows.length} windows of this server and source.`;
  return (
    <p className="status-bar__muted top__history-note" data-testid="top-history-note">
      {text}
      {recorded.omitted > 0 ? ` ${recorded.omitted} classes with the least time were not stored.` : ''}
    </p>
  );
}

/** The selected class over the stored windows, newest first. */
export function ClassHistory({
  detail,
  error,
}: {
  detail: { classId: string; reply: HistoryClassReply | null } | null;
  error: ShownError | null;
}) {
  if (error) return <ErrorBox error={error} testId="top-class-history-error" />;
  if (!detail) return null;
  const reply = detail.reply;
  const rows = reply
    ? reply.windows
        .map((window, index) => ({ window, point: reply.points[index] ?? null }))
        .filter((row): row is { window: HistoryWindow; point: HistoryPoint } => row.point !== null)
        .reverse()
    : [];
  const p95Lifetime = rows.some((row) => row.point.p95Lifetime);
  const maxLifetime = rows.some(
    (row) => row.window.source === 'performance_schema' && row.point.max !== null,
  );
  return (
    <section className="top__history" aria-label="History of this class" data-testid="top-class-history">
      <h4>History {reply && <TrendMarkers trend={reply} />}</h4>
      {rows.length === 0 ? (
        <p className="empty-state__hint">No stored window has this class yet.</p>
      ) : (
        <table className="data-table top__history-table">
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Count</th>
              <th scope="col">Total</th>
              {/* Only a p95 that is the digest table's QUANTILE_95 is "since first seen": a MySQL
                  window's p95 is its own (histogram bucket deltas), MariaDB's is absent. */}
              <th
                scope="col"
                title={
                  p95Lifetime
                    ? '* 95th since the digest was first seen (performance_schema has no per-window quantiles for that window)'
                    : undefined
                }
              >
                95th{p95Lifetime ? '*' : ''}
              </th>
              <th
                scope="col"
                title={maxLifetime ? '* max of live windows is since the digest was first seen' : undefined}
              >
                Max{maxLifetime ? '*' : ''}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ window, point }) => (
              <tr key={window.id} data-testid="top-class-history-row" title={window.label}>
                <td>{windowTime(window)}</td>
                <td title={exactCount(point.count)}>{count(point.count)}</td>
                <td>{seconds(point.totalSeconds)}</td>
                <td>{seconds(point.p95)}</td>
                <td>{seconds(point.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
