// One numeric attribute's statistics as pt-query-digest's EventAggregator keeps them: count, sum,
// min, max and its logarithmic histogram, with the median and 95th percentile read from it.
/*
 * Design note
 * -----------
 * pt-query-digest 3.2.1 puts every value of a bucketed attribute (Query_time, Lock_time, Rows_*,
 * Bytes_sent) into one of 1000 buckets growing by 1.05 from 1 µs, and prints the median and 95th
 * percentile of a class from those buckets with its `_calc_metrics` algorithm: the values are
 * approximate by design, and ours match pt's to the printed digit only because we bucket and
 * compute exactly as it does ({@link bucketIndex}, {@link statisticsOf}).
 *
 * Memory: a class keeps its buckets as a few (index, count) pairs while it has seen at most
 * SPARSE_BUCKETS distinct buckets, then switches to a dense 1000-slot Uint32Array. Most classes
 * of a real log stay sparse.
 *
 * Sums do not depend on the order values are added in: integer parts and millionths are kept
 * apart (both exact in a double far beyond any log's size), and only values that are not a
 * whole number of millionths go to a float (`inexact`). A value is a whole number of millionths
 * when `Math.round(value * 1e6) / 1e6 === value` (below {@link MICRO_LIMIT}): the double a log's
 * `1.668162` is read as is the one nearest to the decimal, and so is units / 1e6 (a test checks
 * it on random decimals); `whole + micro / 1e6` is not (1 + 0.668162 !== 1.668162), which made
 * most times ≥ 1 s inexact before. The sum is {@link exactSum}: the double nearest to the exact
 * decimal sum. Two segments of one file digested in
 * parallel can then be merged by adding their metrics ({@link mergeMetric}) with the same result
 * as one pass; when both sides are inexact the merge is refused ({@link mergeable}).
 *
 * These functions run once per attribute per event: keep them monomorphic and free of
 * allocation on the common path (the digest's design note in digest.ts says why; the bench is
 * bench/slowlog/run.mjs).
 */

/** Statistics of one numeric attribute (seconds for *_time / *_wait, else counts). */
export interface MetricSummary {
  /** Number of events that carried the attribute. */
  count: number;
  sum: number;
  min: number;
  max: number;
  avg: number;
  /** pt-query-digest's bucketed median and 95th percentile (approximate by design). */
  median: number;
  p95: number;
}

/**
 * count/sum/min/max of one attribute, plus pt's histogram for bucketed ones: a few
 * (index, count) pairs while the class is small, then a dense 1000-slot array.
 */
export interface Metric {
  cnt: number;
  /**
   * The sum, kept so that it does not depend on the order values are added in (segments of a
   * file digested in parallel are merged by adding these): integer parts, millionths, and a
   * float for values that are not a whole number of millionths (`inexact` then).
   */
  sumInt: number;
  sumMicro: number;
  sumOther: number;
  inexact: boolean;
  min: number;
  max: number;
  /** Values above zero. */
  positive: number;
  bucketed: boolean;
  keys: number[] | undefined;
  counts: number[] | undefined;
  dense: Uint32Array | undefined;
}

// pt-query-digest EventAggregator constants.
const BUCK_SIZE = 1.05;
const BASE_LOG = Math.log(BUCK_SIZE);
const BASE_OFFSET = Math.abs(1 - Math.log(0.000001) / BASE_LOG);
export const NUM_BUCK = 1000;
const MIN_BUCK = 0.000001;
const BUCKET_VALUES: number[] = Array.from({ length: NUM_BUCK }, (_, i) =>
  i === 0 ? 0 : BUCK_SIZE ** (i - 1) * MIN_BUCK,
);
/** Distinct buckets a metric keeps as pairs before switching to the dense array. */
export const SPARSE_BUCKETS = 24;

/** Labels of pt-query-digest's `Query_time distribution` chart, one per decade from 1 µs. */
export const QUERY_TIME_BUCKETS = ['1us', '10us', '100us', '1ms', '10ms', '100ms', '1s', '10s+'] as const;

/** Decade (index into QUERY_TIME_BUCKETS) of each 1.05 bucket: pt-query-digest's `buckets_of`. */
const DECADE_OF_BUCKET: Uint8Array = (() => {
  const decades = new Uint8Array(NUM_BUCK).fill(QUERY_TIME_BUCKETS.length - 1);
  let start = 0;
  for (let decade = 0; decade < QUERY_TIME_BUCKETS.length - 1; decade++) {
    const next = bucketIndex(10 ** (decade + 1) * MIN_BUCK);
    for (let i = start; i < next; i++) decades[i] = decade;
    start = next;
  }
  return decades;
})();

/** The decade histogram (see {@link DigestClass.queryTimeHistogram}) of a bucketed metric. */
export function decadeHistogram(metric: Metric | undefined): number[] | undefined {
  if (!metric || metric.cnt === 0 || !metric.bucketed) return undefined;
  const out = new Array<number>(QUERY_TIME_BUCKETS.length).fill(0);
  if (metric.dense) {
    for (let i = 0; i < NUM_BUCK; i++) if (metric.dense[i]) out[DECADE_OF_BUCKET[i]!]! += metric.dense[i]!;
  } else {
    for (let k = 0; k < metric.keys!.length; k++)
      out[DECADE_OF_BUCKET[metric.keys![k]!]!]! += metric.counts![k]!;
  }
  return out;
}

/** pt-query-digest's bucket index for a value. */
export function bucketIndex(value: number): number {
  if (value < MIN_BUCK) return 0;
  const idx = Math.trunc(BASE_OFFSET + Math.log(value) / BASE_LOG);
  return idx > NUM_BUCK - 1 ? NUM_BUCK - 1 : idx;
}

/** pt-query-digest's `_calc_metrics`: bucketed median and 95th percentile. */
export function bucketStatistics(
  buckets: ReadonlyMap<number, number>,
  count: number,
  min: number,
  max: number,
): { median: number; p95: number } {
  const indexes = [...buckets.keys()].sort((a, b) => b - a);
  return statisticsOf(
    indexes,
    indexes.map((i) => buckets.get(i) ?? 0),
    count,
    min,
    max,
  );
}

/** `_calc_metrics` over non-empty buckets given in descending index order. */
function statisticsOf(
  indexes: readonly number[],
  counts: readonly number[],
  count: number,
  min: number,
  max: number,
): { median: number; p95: number } {
  if (count === 0 || indexes.length === 0) return { median: 0, p95: 0 };
  if (count === 1 || max === min) return { median: max, p95: max };
  if (count === 2) return { median: (min + max) / 2, p95: max };
  const cutoff = count >= 10 ? Math.trunc(count * 0.95) : count;
  let totalLeft = count;
  const topValues = count - cutoff;
  let sumExcluded = 0;
  const mid = Math.trunc(count / 2);
  let median = 0;
  let prev = NUM_BUCK - 1;
  let bucket95 = 0;
  for (let k = 0; k < indexes.length; k++) {
    const bucket = indexes[k]!;
    const n = counts[k]!;
    if (!n) continue;
    totalLeft -= n;
    sumExcluded += n;
    if (!bucket95 && sumExcluded > topValues) bucket95 = bucket;
    if (!median && totalLeft <= mid) {
      median =
        cutoff % 2 || n > 1 ? BUCKET_VALUES[bucket]! : (BUCKET_VALUES[bucket]! + BUCKET_VALUES[prev]!) / 2;
    }
    prev = bucket;
  }
  return { median, p95: BUCKET_VALUES[bucket95]! };
}

export function newMetric(bucketed: boolean, dense: boolean): Metric {
  return {
    cnt: 0,
    sumInt: 0,
    sumMicro: 0,
    sumOther: 0,
    inexact: false,
    min: Infinity,
    max: -Infinity,
    positive: 0,
    bucketed,
    keys: bucketed && !dense ? [] : undefined,
    counts: bucketed && !dense ? [] : undefined,
    dense: bucketed && dense ? new Uint32Array(NUM_BUCK) : undefined,
  };
}

export function addValue(metric: Metric, value: number, bucket: number): void {
  metric.cnt++;
  const whole = Math.floor(value);
  if (whole === value) metric.sumInt += whole;
  else {
    const units = Math.round(value * 1e6);
    if (units / 1e6 === value && value < MICRO_LIMIT && value > -MICRO_LIMIT) {
      metric.sumInt += whole;
      metric.sumMicro += units - whole * 1e6;
    } else {
      metric.sumOther += value;
      metric.inexact = true;
    }
  }
  if (value < metric.min) metric.min = value;
  if (value > metric.max) metric.max = value;
  if (value > 0) metric.positive++;
  if (!metric.bucketed) return;
  const dense = metric.dense;
  if (dense !== undefined) {
    dense[bucket]!++;
    return;
  }
  const keys = metric.keys!;
  const counts = metric.counts!;
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] === bucket) {
      counts[k]!++;
      return;
    }
  }
  if (keys.length < SPARSE_BUCKETS) {
    keys.push(bucket);
    counts.push(1);
    return;
  }
  const array = new Uint32Array(NUM_BUCK);
  for (let k = 0; k < keys.length; k++) array[keys[k]!] = counts[k]!;
  array[bucket]!++;
  metric.dense = array;
  metric.keys = undefined;
  metric.counts = undefined;
}

/** The sum of a metric's values (the same whatever order they were added in, unless `inexact`). */
export function sumOf(metric: Metric): number {
  return exactSum(metric.sumInt, metric.sumMicro) + metric.sumOther;
}

/**
 * Values below this magnitude that are a decimal with at most six fractional digits are counted
 * exactly (whole units and millionths): below 2^33 a double's spacing is under a millionth, so
 * the decimal a value was read from is the only one that rounds to it.
 */
export const MICRO_LIMIT = 2 ** 33;

/**
 * `int + micro / 1e6` as the double nearest to that decimal (what reading its text gives), while
 * `int × 10^6 + micro` stays below 2^53 (any log: 285 years of Query_time); beyond, within an ulp.
 */
export function exactSum(int: number, micro: number): number {
  const units = int * 1e6 + micro;
  return Number.isSafeInteger(units) ? units / 1e6 : int + micro / 1e6;
}

/** Adds `n` values that fell in `bucket` to a bucketed metric's histogram. */
function addBucket(metric: Metric, bucket: number, n: number): void {
  const dense = metric.dense;
  if (dense !== undefined) {
    dense[bucket]! += n;
    return;
  }
  const keys = metric.keys!;
  const counts = metric.counts!;
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] === bucket) {
      counts[k]! += n;
      return;
    }
  }
  if (keys.length < SPARSE_BUCKETS) {
    // concat() allocates exactly the new length; push() would reserve 16 more slots per array,
    // which with 100k classes × 4 bucketed metrics × 2 arrays is ~100 MB of empty slots.
    metric.keys = keys.concat(bucket);
    metric.counts = counts.concat(n);
    return;
  }
  const array = new Uint32Array(NUM_BUCK);
  for (let k = 0; k < keys.length; k++) array[keys[k]!] = counts[k]!;
  array[bucket]! += n;
  metric.dense = array;
  metric.keys = undefined;
  metric.counts = undefined;
}

/** Whether two metrics can be merged without depending on the order of their values. */
export function mergeable(into: Metric | undefined, from: Metric | undefined): boolean {
  return !(into?.inexact && from?.inexact);
}

/** Adds `from`'s values to `into` (a new metric when undefined); returns the result. */
export function mergeMetric(into: Metric | undefined, from: Metric, dense: boolean): Metric {
  const target = into ?? newMetric(from.bucketed, dense);
  target.cnt += from.cnt;
  target.sumInt += from.sumInt;
  target.sumMicro += from.sumMicro;
  target.sumOther += from.sumOther;
  target.inexact ||= from.inexact;
  if (from.min < target.min) target.min = from.min;
  if (from.max > target.max) target.max = from.max;
  target.positive += from.positive;
  if (target.bucketed) {
    if (from.dense) {
      for (let i = 0; i < NUM_BUCK; i++) if (from.dense[i]) addBucket(target, i, from.dense[i]!);
    } else {
      for (let k = 0; k < from.keys!.length; k++) addBucket(target, from.keys![k]!, from.counts![k]!);
    }
  }
  return target;
}

/**
 * A metric's summary. pt-query-digest's bucketed median/p95 are bucket values, which can lie
 * above the largest value seen (or below the smallest); `clamp` keeps them inside [min, max]
 * (our default; `--pt-compatible` prints pt's values).
 */
export function summarize(metric: Metric | undefined, clamp = false): MetricSummary | undefined {
  if (!metric || metric.cnt === 0) return undefined;
  let stats = { median: Number.NaN, p95: Number.NaN };
  if (metric.bucketed) {
    const indexes: number[] = [];
    const counts: number[] = [];
    if (metric.dense) {
      for (let i = NUM_BUCK - 1; i >= 0; i--) {
        const n = metric.dense[i]!;
        if (n) {
          indexes.push(i);
          counts.push(n);
        }
      }
    } else {
      const order = metric.keys!.map((key, k) => k).sort((a, b) => metric.keys![b]! - metric.keys![a]!);
      for (const k of order) {
        indexes.push(metric.keys![k]!);
        counts.push(metric.counts![k]!);
      }
    }
    stats = statisticsOf(indexes, counts, metric.cnt, metric.min, metric.max);
    if (clamp) {
      stats.median = Math.min(metric.max, Math.max(metric.min, stats.median));
      stats.p95 = Math.min(metric.max, Math.max(metric.min, stats.p95));
    }
  }
  return {
    count: metric.cnt,
    sum: sumOf(metric),
    min: metric.min,
    max: metric.max,
    avg: sumOf(metric) / metric.cnt,
    median: stats.median,
    p95: stats.p95,
  };
}
