// One attribute's statistics for every class of a digest, as columns: typed arrays indexed by class.
/*
 * Design note
 * -----------
 * A log with 100,000 distinct classes kept a `Metric` object per class and attribute (nine
 * reported attributes for a MySQL 8 `log_slow_extra` log): with their sparse bucket arrays about
 * 4.4 KB per class, ~480 MB of live heap for 110,000 classes. Here one attribute's count, sum
 * parts, min and max are one `Float64Array` each, indexed by class number (8 bytes per class and
 * field, outside the garbage-collected heap). The count of values above zero is kept only where
 * a result reads it (`countsPositive`: Read_rnd_next, for `fullScans`); the float sum of values
 * that are not whole millionths (`Metric.inexact`, rare) is a map by class, and the millionths
 * column is only made once a value has a fraction (counts never do). The sparse histograms of
 * all classes share one `Uint32Array` pool: a class's (bucket, count) pairs, one `uint32` each
 * (bucket × 2^22 + count), are a block of 1, 2, 4, 8, 16 or 32 entries; a full block moves to
 * one twice its size and the old one is reused by the next class that needs that size. After
 * SPARSE_BUCKETS distinct buckets (or a count of 2^22) a class gets the dense 1000-slot
 * `Uint32Array`, as `Metric` does.
 *
 * Most attributes are counts (Rows_*, Created_tmp_*, Sort_*_count, Read_rnd_next): whole numbers
 * far below 2^32. A column starts *narrow*: count, whole-number sum, min, max (and the positive
 * count) are `Uint32Array`s, half the bytes; the first value that is not a whole number in
 * [0, 2^32), or a sum or count that would pass 2^32 - 1, makes it *wide* (`Float64Array`s, the
 * values copied exactly), once. Query_time and Lock_time widen at their first fraction. On the
 * 110,000-class bench log this is 7 of 9 columns, ~15 MB less at the peak.
 *
 * The arithmetic is `addValue`'s (metrics.ts), value for value, and {@link MetricColumn.metric}
 * gives a class's `Metric` (pairs in the order they were first seen), so the statistics
 * (`summarize`, `decadeHistogram`) and the segment merge (`mergeMetric`) stay the ones in
 * metrics.ts; {@link MetricColumn.store} writes a merged `Metric` back. A class has the
 * attribute when its count is above zero (a `Metric` is only made with a first value).
 */
import { exactSum, type Metric, MICRO_LIMIT, newMetric, NUM_BUCK, SPARSE_BUCKETS } from './metrics.js';

/** `len` of a class whose histogram is the dense array. */
const DENSE = 255;
/** A pool entry is bucket × 2^22 + count. */
const COUNT_BITS = 22;
const COUNT_MASK = (1 << COUNT_BITS) - 1;

/** Block capacity (entries) for a histogram of `n` pairs: 0, 1, 2, 4, 8, 16, 32. */
function blockSize(n: number): number {
  if (n <= 2) return n;
  let size = 4;
  while (size < n) size *= 2;
  return size;
}

/** A copy of `array` in a larger one (the columns grow by doubling; class-columns.ts uses these too). */
export function grownFloat64(array: Float64Array, capacity: number): Float64Array {
  const grown = new Float64Array(capacity);
  grown.set(array);
  return grown;
}

export function grownUint8(array: Uint8Array, capacity: number): Uint8Array {
  const grown = new Uint8Array(capacity);
  grown.set(array);
  return grown;
}

export function grownInt32(array: Int32Array, capacity: number): Int32Array {
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

const NONE = new Float64Array(0);
/** The largest whole number a narrow column holds. */
const NARROW_MAX = 0xffffffff;

export function grownUint32(array: Uint32Array, capacity: number): Uint32Array {
  const grown = new Uint32Array(capacity);
  grown.set(array);
  return grown;
}

/** Whether a narrow column holds `value` exactly. */
function isNarrow(value: number): boolean {
  return value >= 0 && value <= NARROW_MAX && Math.floor(value) === value;
}

/** A copy of a narrow or wide column in a larger one of the same kind. */
function grownColumn(array: Float64Array | Uint32Array, capacity: number): Float64Array | Uint32Array {
  return array instanceof Float64Array ? grownFloat64(array, capacity) : grownUint32(array, capacity);
}

/** A column's values as a wide column (exact: every uint32 is a float64). */
function widened(array: Float64Array | Uint32Array): Float64Array {
  return array instanceof Float64Array ? array : Float64Array.from(array);
}

/** count/sum/min/max (and for bucketed attributes pt's histogram) of one attribute, per class. */
export class MetricColumn {
  /** Narrow (`Uint32Array`s) until a value does not fit; then wide (`Float64Array`s). */
  narrow = true;
  cnt: Float64Array | Uint32Array;
  sumInt: Float64Array | Uint32Array;
  /** Millionths; empty until some value has a fraction (the column is wide by then). */
  sumMicro: Float64Array = NONE;
  min: Float64Array | Uint32Array;
  max: Float64Array | Uint32Array;
  /** Values above zero, only when the column counts them (`countsPositive`; else empty). */
  positive: Float64Array | Uint32Array;
  /** Sums of values that are not whole millionths (`inexact` classes only: rare). */
  private readonly sumOther = new Map<number, number>();
  /** Bucketed: where a class's pairs start in `pool`, and how many it has (DENSE: see `dense`). */
  private start: Int32Array;
  private len: Uint8Array;
  private pool: Uint32Array;
  private poolUsed = 0;
  /** Freed blocks by their size (index: log2 of the entries). */
  private readonly free: number[][] = [[], [], [], [], [], [], []];
  private readonly dense = new Map<number, Uint32Array>();

  constructor(
    readonly bucketed: boolean,
    readonly countsPositive: boolean,
    private capacity: number,
  ) {
    this.cnt = new Uint32Array(capacity);
    this.sumInt = new Uint32Array(capacity);
    this.min = new Uint32Array(capacity);
    this.max = new Uint32Array(capacity);
    this.positive = new Uint32Array(countsPositive ? capacity : 0);
    this.start = new Int32Array(bucketed ? capacity : 0);
    this.len = new Uint8Array(bucketed ? capacity : 0);
    this.pool = new Uint32Array(bucketed ? capacity * 2 : 0);
  }

  /** Makes room for classes up to `capacity` - 1. */
  grow(capacity: number): void {
    this.capacity = capacity;
    this.cnt = grownColumn(this.cnt, capacity);
    this.sumInt = grownColumn(this.sumInt, capacity);
    if (this.sumMicro.length > 0) this.sumMicro = grownFloat64(this.sumMicro, capacity);
    this.min = grownColumn(this.min, capacity);
    this.max = grownColumn(this.max, capacity);
    if (this.countsPositive) this.positive = grownColumn(this.positive, capacity);
    if (this.bucketed) {
      this.start = grownInt32(this.start, capacity);
      this.len = grownUint8(this.len, capacity);
    }
  }

  /** Adds one value (`bucket` is its histogram bucket; ignored when not bucketed): `addValue`. */
  add(c: number, value: number, bucket: number): void {
    if (this.narrow && !this.fits(c, value)) this.widen();
    const first = this.cnt[c]!++ === 0;
    const whole = Math.floor(value);
    if (whole === value) this.sumInt[c]! += whole;
    else {
      const units = Math.round(value * 1e6);
      if (units / 1e6 === value && value < MICRO_LIMIT && value > -MICRO_LIMIT) {
        this.sumInt[c]! += whole;
        if (this.sumMicro.length === 0) this.sumMicro = new Float64Array(this.capacity);
        this.sumMicro[c]! += units - whole * 1e6;
      } else {
        this.sumOther.set(c, (this.sumOther.get(c) ?? 0) + value);
      }
    }
    // A fresh row is zeroed (see GROWTH in class-columns.ts): the first value sets min and max.
    if (first || value < this.min[c]!) this.min[c] = value;
    if (first || value > this.max[c]!) this.max[c] = value;
    if (value > 0 && this.countsPositive) this.positive[c]!++;
    if (this.bucketed) this.addBucket(c, bucket, 1);
  }

  /** Whether a narrow column can take one more `value` in class `c`. */
  private fits(c: number, value: number): boolean {
    return isNarrow(value) && this.sumInt[c]! + value <= NARROW_MAX && this.cnt[c]! < NARROW_MAX;
  }

  /** Makes the column wide (once). */
  private widen(): void {
    this.narrow = false;
    this.cnt = widened(this.cnt);
    this.sumInt = widened(this.sumInt);
    this.min = widened(this.min);
    this.max = widened(this.max);
    this.positive = widened(this.positive);
  }

  private micro(c: number): number {
    return this.sumMicro.length === 0 ? 0 : this.sumMicro[c]!;
  }

  /** The sum of a class's values (see `sumOf`). */
  sum(c: number): number {
    return exactSum(this.sumInt[c]!, this.micro(c)) + (this.sumOther.get(c) ?? 0);
  }

  /** Whether a class has values that are not whole millionths (see `Metric.inexact`). */
  inexact(c: number): boolean {
    return this.sumOther.has(c);
  }

  private addBucket(c: number, bucket: number, n: number): void {
    const len = this.len[c]!;
    if (len === DENSE) {
      this.dense.get(c)![bucket]! += n;
      return;
    }
    let start = this.start[c]!;
    const pool = this.pool;
    for (let k = start, end = start + len; k < end; k++) {
      const entry = pool[k]!;
      if (entry >>> COUNT_BITS === bucket) {
        if ((entry & COUNT_MASK) + n <= COUNT_MASK) {
          pool[k] = entry + n;
          return;
        }
        this.toDense(c, start, len)[bucket]! += n;
        return;
      }
    }
    if (len < SPARSE_BUCKETS && n <= COUNT_MASK) {
      if (len === blockSize(len)) start = this.move(c, len, blockSize(len + 1));
      this.pool[start + len] = bucket * (1 << COUNT_BITS) + n;
      this.len[c] = len + 1;
      return;
    }
    this.toDense(c, start, len)[bucket]! += n;
  }

  /** Moves a class's pairs to a dense array; returns it. */
  private toDense(c: number, start: number, len: number): Uint32Array {
    const array = new Uint32Array(NUM_BUCK);
    for (let k = start, end = start + len; k < end; k++) {
      const entry = this.pool[k]!;
      array[entry >>> COUNT_BITS] = entry & COUNT_MASK;
    }
    this.release(start, len);
    this.dense.set(c, array);
    this.len[c] = DENSE;
    return array;
  }

  /** Moves a class's `len` entries to a new block of `size` entries; returns its start. */
  private move(c: number, len: number, size: number): number {
    const from = this.start[c]!;
    const to = this.allocate(size);
    this.pool.copyWithin(to, from, from + len);
    this.release(from, len);
    this.start[c] = to;
    return to;
  }

  private allocate(size: number): number {
    const reused = this.free[Math.log2(size)]!.pop();
    if (reused !== undefined) return reused;
    const at = this.poolUsed;
    const need = at + size;
    if (need > this.pool.length) {
      const grown = new Uint32Array(Math.max(need, Math.ceil(this.pool.length * 1.5)));
      grown.set(this.pool);
      this.pool = grown;
    }
    this.poolUsed = need;
    return at;
  }

  /** Frees the block of a histogram of `len` pairs (none for an empty one). */
  private release(start: number, len: number): void {
    const size = blockSize(len);
    if (size > 0) this.free[Math.log2(size)]!.push(start);
  }

  /** A class's statistics as a `Metric` (undefined when it has no value). */
  metric(c: number): Metric | undefined {
    if (c >= this.cnt.length || this.cnt[c] === 0) return undefined;
    const metric = newMetric(false, false);
    metric.cnt = this.cnt[c]!;
    metric.sumInt = this.sumInt[c]!;
    metric.sumMicro = this.micro(c);
    const other = this.sumOther.get(c);
    metric.sumOther = other ?? 0;
    metric.inexact = other !== undefined;
    metric.min = this.min[c]!;
    metric.max = this.max[c]!;
    metric.positive = this.countsPositive ? this.positive[c]! : 0;
    if (this.bucketed) {
      metric.bucketed = true;
      const len = this.len[c]!;
      if (len === DENSE) metric.dense = this.dense.get(c)!;
      else {
        const keys: number[] = [];
        const counts: number[] = [];
        const start = this.start[c]!;
        for (let k = start; k < start + len; k++) {
          keys.push(this.pool[k]! >>> COUNT_BITS);
          counts.push(this.pool[k]! & COUNT_MASK);
        }
        metric.keys = keys;
        metric.counts = counts;
      }
    }
    return metric;
  }

  /** Replaces a class's statistics with `metric` (a merged result of {@link metric}). */
  store(c: number, metric: Metric): void {
    const fits =
      metric.sumMicro === 0 &&
      !metric.inexact &&
      isNarrow(metric.cnt) &&
      isNarrow(metric.sumInt) &&
      isNarrow(metric.min) &&
      isNarrow(metric.max) &&
      isNarrow(metric.positive);
    if (this.narrow && !fits) this.widen();
    this.cnt[c] = metric.cnt;
    this.sumInt[c] = metric.sumInt;
    if (metric.sumMicro !== 0 && this.sumMicro.length === 0) this.sumMicro = new Float64Array(this.capacity);
    if (this.sumMicro.length > 0) this.sumMicro[c] = metric.sumMicro;
    if (metric.inexact) this.sumOther.set(c, metric.sumOther);
    else this.sumOther.delete(c);
    this.min[c] = metric.min;
    this.max[c] = metric.max;
    if (this.countsPositive) this.positive[c] = metric.positive;
    if (!this.bucketed) return;
    const len = this.len[c]!;
    if (len === DENSE) this.dense.delete(c);
    else this.release(this.start[c]!, len);
    this.len[c] = 0;
    this.start[c] = 0;
    if (metric.dense) {
      this.dense.set(c, metric.dense);
      this.len[c] = DENSE;
      return;
    }
    const keys = metric.keys ?? [];
    const counts = metric.counts ?? [];
    for (let k = 0; k < keys.length; k++) this.addBucket(c, keys[k]!, counts[k]!);
  }
}

/** A Yes/No attribute per class: events with `Yes`, and events with the attribute. */
export class FlagColumn {
  yes: Float64Array;
  count: Float64Array;

  constructor(capacity: number) {
    this.yes = new Float64Array(capacity);
    this.count = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    this.yes = grownFloat64(this.yes, capacity);
    this.count = grownFloat64(this.count, capacity);
  }
}
