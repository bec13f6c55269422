// Latency distributions for the Top queries chart: server histogram buckets regrouped on a log scale.
/*
 * Design note
 * -----------
 * MySQL 8.0's events_statements_histogram_by_digest has 450 buckets per digest whose bounds grow
 * by about 4.7 % each (10 µs … 104 days). A chart needs a few dozen bars, so buckets are regrouped
 * into `bins` bins of equal width on a log10 scale between the lowest and highest non-empty bucket
 * (at least one decade wide). A server bucket goes into the bin that holds its geometric middle,
 * so every statement is counted exactly once and totals are kept.
 */

/** One histogram bucket: statements whose latency was in [lowMs, highMs). */
export interface LatencyBucket {
  lowMs: number;
  highMs: number;
  count: number;
}

/** A latency distribution ready to draw. */
export interface LatencyHistogram {
  buckets: LatencyBucket[];
  /** Statements counted (sum of the buckets). */
  total: number;
  /** A label per bucket (log classes: pt-query-digest's `1us` … `10s+`); else the axis shows the range. */
  labels?: string[];
}

/** Regroups non-empty buckets into at most `bins` log-scale bins (empty bins kept, so bars line up). */
export function rebinLatency(buckets: readonly LatencyBucket[], bins = 24): LatencyHistogram {
  const used = buckets.filter((bucket) => bucket.count > 0 && bucket.highMs > 0);
  const total = used.reduce((sum, bucket) => sum + bucket.count, 0);
  if (used.length === 0) return { buckets: [], total: 0 };
  const floor = 1e-6;
  let low = Math.log10(
    Math.max(floor, Math.min(...used.map((bucket) => bucket.lowMs || bucket.highMs / 10))),
  );
  let high = Math.log10(Math.max(...used.map((bucket) => bucket.highMs)));
  if (high - low < 1) {
    const middle = (high + low) / 2;
    low = middle - 0.5;
    high = middle + 0.5;
  }
  const count = Math.max(1, Math.trunc(bins));
  const step = (high - low) / count;
  const out: LatencyBucket[] = Array.from({ length: count }, (_, index) => ({
    lowMs: 10 ** (low + index * step),
    highMs: 10 ** (low + (index + 1) * step),
    count: 0,
  }));
  for (const bucket of used) {
    const middle = (Math.log10(Math.max(floor, bucket.lowMs)) + Math.log10(bucket.highMs)) / 2;
    const index = Math.min(count - 1, Math.max(0, Math.floor((middle - low) / step)));
    out[index]!.count += bucket.count;
  }
  return { buckets: out, total };
}
