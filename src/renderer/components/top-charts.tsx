// Charts of the Top queries panel as plain SVG (no script, CSP-safe): a class's latency distribution and the workload timeline.
import type { LatencyHistogram, TopLatency, WorkloadTimeline } from '../../core/capture/index.js';

const WIDTH = 320;
const HEIGHT = 96;
const PAD = { left: 4, right: 4, top: 6, bottom: 18 };

/** Milliseconds for axis labels: 12 µs, 3.4 ms, 1.2 s, 2.0 min. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

function clockLabel(epochSeconds: number, withDate: boolean): string {
  const iso = new Date(epochSeconds * 1000).toISOString();
  return withDate ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(11, 19);
}

/**
 * The latency distribution of one class: histogram bars (the server's histogram for MySQL 8.0
 * digests; pt-query-digest's decades 1us … 10s+ for logs) or, without one, where min, median,
 * average, 95th/99th percentile and max fall on a log scale.
 */
export function LatencyChart({
  histogram,
  latency,
}: {
  histogram: LatencyHistogram | null;
  latency: TopLatency;
}) {
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  if (histogram && histogram.buckets.length > 0) {
    const most = Math.max(...histogram.buckets.map((bucket) => bucket.count));
    const barWidth = innerWidth / histogram.buckets.length;
    const first = histogram.buckets[0]!;
    const last = histogram.buckets.at(-1)!;
    const labels = histogram.labels;
    return (
      <figure
        className="top-chart"
        data-testid="top-latency-chart"
        data-kind="histogram"
        data-total={histogram.total}
      >
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Latency histogram">
          <title>{`${histogram.total} statements by latency (log scale)`}</title>
          {histogram.buckets.map((bucket, index) => {
            const height = most === 0 ? 0 : (bucket.count / most) * innerHeight;
            return (
              <rect
                key={index}
                className="top-chart__bar"
                x={PAD.left + index * barWidth + 0.5}
                y={PAD.top + innerHeight - height}
                width={Math.max(1, barWidth - 1)}
                height={height}
              >
                <title>
                  {labels
                    ? `${labels[index] ?? ''}: ${bucket.count}`
                    : `${formatMs(bucket.lowMs)} – ${formatMs(bucket.highMs)}: ${bucket.count}`}
                </title>
              </rect>
            );
          })}
          <line
            className="top-chart__axis"
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={HEIGHT - PAD.bottom}
            y2={HEIGHT - PAD.bottom}
          />
          {labels ? (
            labels.map((label, index) => (
              <text
                key={label}
                className="top-chart__label"
                x={PAD.left + (index + 0.5) * barWidth}
                y={HEIGHT - 4}
                textAnchor="middle"
              >
                {label}
              </text>
            ))
          ) : (
            <>
              <text className="top-chart__label" x={PAD.left} y={HEIGHT - 4}>
                {formatMs(first.lowMs)}
              </text>
              <text className="top-chart__label" x={WIDTH - PAD.right} y={HEIGHT - 4} textAnchor="end">
                {formatMs(last.highMs)}
              </text>
            </>
          )}
        </svg>
        <figcaption>
          {labels
            ? `Query_time of ${histogram.total.toLocaleString('en-US')} ${histogram.total === 1 ? 'statement' : 'statements'} by decade (pt-query-digest's distribution)`
            : `Latency of ${histogram.total.toLocaleString('en-US')} statements since the digest was first seen (events_statements_histogram_by_digest)`}
        </figcaption>
      </figure>
    );
  }
  const candidates: [string, number | null][] = [
    ['min', latency.min],
    ['median', latency.median],
    ['avg', latency.avg],
    ['95th', latency.p95],
    ['99th', latency.p99],
    ['max', latency.max],
  ];
  const marks = candidates.filter((mark): mark is [string, number] => mark[1] !== null && mark[1] > 0);
  if (marks.length === 0) {
    return (
      <p className="empty-state__hint" data-testid="top-latency-chart" data-kind="none">
        No latency recorded for this class.
      </p>
    );
  }
  const values = marks.map(([, value]) => Math.log10(value * 1000));
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1) {
    const middle = (low + high) / 2;
    low = middle - 0.5;
    high = middle + 0.5;
  }
  const x = (ms: number) => PAD.left + ((Math.log10(ms) - low) / (high - low)) * innerWidth;
  const lowMs = 10 ** low;
  const highMs = 10 ** high;
  const box = latency.median !== null && latency.p95 !== null && latency.median > 0 && latency.p95 > 0;
  return (
    <figure className="top-chart" data-testid="top-latency-chart" data-kind="quantiles">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Latency distribution">
        <title>Latency distribution (log scale)</title>
        <line
          className="top-chart__axis"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
        />
        {box && (
          <rect
            className="top-chart__bar"
            x={x(latency.median! * 1000)}
            width={Math.max(1, x(latency.p95! * 1000) - x(latency.median! * 1000))}
            y={PAD.top + 28}
            height={22}
          >
            <title>median to 95th percentile</title>
          </rect>
        )}
        {marks.map(([name, value], index) => {
          const at = x(value * 1000);
          return (
            <g key={name} className="top-chart__mark">
              <line x1={at} x2={at} y1={PAD.top + 22} y2={HEIGHT - PAD.bottom} />
              <text
                className="top-chart__label"
                x={at}
                y={PAD.top + 8 + (index % 2) * 11}
                textAnchor={at < 30 ? 'start' : at > WIDTH - 30 ? 'end' : 'middle'}
              >
                {name}
              </text>
              <title>{`${name}: ${formatMs(value * 1000)}`}</title>
            </g>
          );
        })}
        <text className="top-chart__label" x={PAD.left} y={HEIGHT - 4}>
          {formatMs(lowMs)}
        </text>
        <text className="top-chart__label" x={WIDTH - PAD.right} y={HEIGHT - 4} textAnchor="end">
          {formatMs(highMs)}
        </text>
      </svg>
      <figcaption>
        {marks.map(([name, value]) => `${name} ${formatMs(value * 1000)}`).join(' · ')}
        {latency.lifetime
          ? latency.windowQuantiles
            ? ' (95th/99th of the window; max since the digest was first seen)'
            : ' (95th/99th/max since the digest was first seen)'
          : ''}
      </figcaption>
    </figure>
  );
}

/** Events per bucket; `highlight` marks the selected class (its own counts, or the span it was seen in). */
export function TimelineChart({
  timeline,
  highlight,
}: {
  timeline: WorkloadTimeline;
  highlight?: { counts: number[] } | { from: number; to: number } | null;
}) {
  const innerWidth = WIDTH * 2 - PAD.left - PAD.right;
  // Low and wide (640 × 54): the table under it keeps its rows (8+ at 1280×800).
  const height = 54;
  const innerHeight = height - PAD.top - PAD.bottom;
  const { counts } = timeline;
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (counts.length === 0) {
    return (
      <p className="empty-state__hint" data-testid="top-timeline" data-buckets="0">
        No timestamps to draw a timeline
        {timeline.untimed > 0 ? ` (${timeline.untimed} events without a time)` : ''}.
      </p>
    );
  }
  const most = Math.max(1, ...counts);
  const barWidth = innerWidth / counts.length;
  const end = timeline.start + counts.length * timeline.bucketSeconds;
  const withDate = end - timeline.start > 86_400;
  return (
    <figure className="top-chart top-chart--wide" data-testid="top-timeline" data-buckets={counts.length}>
      <svg viewBox={`0 0 ${WIDTH * 2} ${height}`} role="img" aria-label="Workload timeline">
        <title>{`${total} events, ${timeline.bucketSeconds} s per bar`}</title>
        {highlight && 'from' in highlight && (
          <rect
            className="top-chart__span"
            x={
              PAD.left + Math.max(0, ((highlight.from - timeline.start) / timeline.bucketSeconds) * barWidth)
            }
            width={Math.max(
              2,
              ((Math.min(end, highlight.to + timeline.bucketSeconds) -
                Math.max(timeline.start, highlight.from)) /
                timeline.bucketSeconds) *
                barWidth,
            )}
            y={PAD.top}
            height={innerHeight}
          />
        )}
        {counts.map((count, index) => {
          const barHeight = (count / most) * innerHeight;
          const own = highlight && 'counts' in highlight ? (highlight.counts[index] ?? 0) : 0;
          const ownHeight = (own / most) * innerHeight;
          const from = timeline.start + index * timeline.bucketSeconds;
          return (
            <g key={index}>
              <rect
                className="top-chart__bar top-chart__bar--muted"
                x={PAD.left + index * barWidth}
                y={PAD.top + innerHeight - barHeight}
                width={Math.max(0.5, barWidth - (barWidth > 3 ? 1 : 0))}
                height={barHeight}
              >
                <title>{`${clockLabel(from, true)} UTC: ${count} events, ${timeline.querySeconds[index]?.toFixed(3) ?? 0} s`}</title>
              </rect>
              {own > 0 && (
                <rect
                  className="top-chart__bar"
                  x={PAD.left + index * barWidth}
                  y={PAD.top + innerHeight - ownHeight}
                  width={Math.max(0.5, barWidth - (barWidth > 3 ? 1 : 0))}
                  height={ownHeight}
                />
              )}
            </g>
          );
        })}
        <line
          className="top-chart__axis"
          x1={PAD.left}
          x2={WIDTH * 2 - PAD.right}
          y1={height - PAD.bottom}
          y2={height - PAD.bottom}
        />
        <text className="top-chart__label" x={PAD.left} y={height - 4}>
          {clockLabel(timeline.start, withDate)}
        </text>
        <text className="top-chart__label" x={WIDTH * 2 - PAD.right} y={height - 4} textAnchor="end">
          {clockLabel(end, withDate)} UTC
        </text>
      </svg>
      <figcaption>
        {total.toLocaleString('en-US')} events · {timeline.bucketSeconds} s per bar · peak{' '}
        {most.toLocaleString('en-US')}
        {timeline.untimed > 0 ? ` · ${timeline.untimed} without a time` : ''}
      </figcaption>
    </figure>
  );
}
