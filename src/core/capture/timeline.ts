// Workload timeline: events and summed query time per time bucket, with bounded memory.
/*
 * Design note
 * -----------
 * Events arrive in any order (several files, a long statement logged after shorter ones) with
 * a UTC epoch time in seconds. Buckets start at 1 s wide. The span between the earliest and the
 * latest bucket is kept at `maxBuckets` or fewer: when an event would widen it further, the width
 * moves up a ladder of round widths (1 s, 5 s, 10 s, 30 s, 1 min, … 1 h, 3 h, … 1 day, then
 * doubling days), each a multiple of the one before, and the existing buckets are merged into the
 * wider ones (a bucket always falls entirely into one wider bucket). So memory is O(maxBuckets) for any input,
 * and the result is a dense array a chart can draw as is. Bucket boundaries are multiples of the
 * width since the epoch, so the same events always give the same buckets whatever their order.
 */

/** Events per time bucket. */
export interface WorkloadTimeline {
  /** Epoch seconds (UTC) at which the first bucket starts. */
  start: number;
  /** Width of every bucket in seconds. */
  bucketSeconds: number;
  /** Events per bucket (dense, `counts.length` buckets). */
  counts: number[];
  /** Sum of the events' query time (seconds) per bucket. */
  querySeconds: number[];
  /** Events that had no usable timestamp (in no bucket). */
  untimed: number;
}

/** Options for {@link createTimeline}. */
export interface TimelineOptions {
  /** Most buckets between the first and the last. Default 240. */
  maxBuckets?: number;
}

/** An incremental timeline builder. */
export interface TimelineBuilder {
  /** One event at `epochSeconds` (NaN or undefined: counted as untimed) lasting `querySeconds`. */
  add(epochSeconds: number | undefined, querySeconds?: number, count?: number): void;
  result(): WorkloadTimeline;
}

const DAY = 86_400;
// Each width divides the next, so merging never splits a bucket.
const LADDER = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 10_800, 21_600, 43_200, DAY];

/** The next round bucket width after `width`. */
export function nextBucketWidth(width: number): number {
  const next = LADDER.find((candidate) => candidate > width);
  return next ?? width * 2;
}

/** Builds a {@link WorkloadTimeline} from events in any order with at most `maxBuckets` buckets. */
export function createTimeline(options: TimelineOptions = {}): TimelineBuilder {
  const maxBuckets = Math.max(1, Math.trunc(options.maxBuckets ?? 240));
  let width = 1;
  let buckets = new Map<number, { count: number; seconds: number }>();
  let minKey = Infinity;
  let maxKey = -Infinity;
  let untimed = 0;

  function coarsen(low: number, high: number): void {
    // Widen until the span from `low` to `high` (epoch seconds) fits, then merge.
    const previousWidth = width;
    while (Math.floor(high / width) - Math.floor(low / width) + 1 > maxBuckets)
      width = nextBucketWidth(width);
    const merged = new Map<number, { count: number; seconds: number }>();
    for (const [key, value] of buckets) {
      const wider = Math.floor((key * previousWidth) / width);
      const into = merged.get(wider);
      if (into) {
        into.count += value.count;
        into.seconds += value.seconds;
      } else merged.set(wider, { ...value });
    }
    buckets = merged;
    minKey = Math.floor(low / width);
    maxKey = Math.floor(high / width);
  }
  return {
    add(epochSeconds, querySeconds = 0, count = 1) {
      if (epochSeconds === undefined || !Number.isFinite(epochSeconds)) {
        untimed += count;
        return;
      }
      let key = Math.floor(epochSeconds / width);
      if (key < minKey || key > maxKey) {
        const low = Math.min(minKey === Infinity ? epochSeconds : minKey * width, epochSeconds);
        const high = Math.max(maxKey === -Infinity ? epochSeconds : maxKey * width, epochSeconds);
        if (Math.floor(high / width) - Math.floor(low / width) + 1 > maxBuckets) {
          coarsen(low, high);
          key = Math.floor(epochSeconds / width);
        } else {
          minKey = Math.min(minKey, key);
          maxKey = Math.max(maxKey, key);
        }
      }
      const bucket = buckets.get(key);
      const seconds = Number.isFinite(querySeconds) ? querySeconds : 0;
      if (bucket) {
        bucket.count += count;
        bucket.seconds += seconds;
      } else buckets.set(key, { count, seconds });
    },
    result() {
      if (minKey === Infinity)
        return { start: 0, bucketSeconds: width, counts: [], querySeconds: [], untimed };
      const length = maxKey - minKey + 1;
      const counts = new Array<number>(length).fill(0);
      const sums = new Array<number>(length).fill(0);
      for (const [key, value] of buckets) {
        counts[key - minKey] = value.count;
        sums[key - minKey] = Math.round(value.seconds * 1e6) / 1e6;
      }
      return { start: minKey * width, bucketSeconds: width, counts, querySeconds: sums, untimed };
    },
  };
}
