// A live window's own latency quantiles: the deltas of events_statements_histogram_by_digest buckets between snapshots.
/*
 * Design note
 * -----------
 * QUANTILE_95/99 of the digest table are since the digest was first seen, so a regression inside
 * a window is damped by its history. MySQL (>= 8.0.1) keeps per digest 450 cumulative latency
 * buckets (`events_statements_histogram_by_digest`); their differences between two snapshots are
 * the interval's own distribution, and their sum over the intervals the window's.
 *
 * - A snapshot row carries its non-empty buckets when they were read (`DigestRow.buckets`): the
 *   first snapshot reads every digest's, a later one only those whose COUNT_STAR moved (a digest
 *   that did not run has the buckets it had), so the last buckets read are the base of the next.
 * - An interval's base is zero for a row that is `new` or `reset` (TRUNCATE of the digest table
 *   truncates the histogram table too; a restart empties both), the last buckets read otherwise. A
 *   bucket that went down with the counters intact (someone truncated only the histogram table)
 *   counts from zero too.
 * - A window's quantiles are unknown (null) when any interval of the digest ran without a base or
 *   without buckets (a `baseline-missing` row, a bucket read that was cut, a flavor without the
 *   table: MariaDB 10.11): the class then has only the since-first-seen values.
 * - A quantile is the upper bound of the bucket where the cumulative count reaches it (as the
 *   server computes QUANTILE_95), clamped to the digest's MAX_TIMER_WAIT: a window's latency is
 *   never above the longest the digest ever took.
 */

/** One non-empty bucket of a digest's cumulative histogram. */
export interface DigestBucket {
  /** BUCKET_NUMBER (0–449). */
  bucket: number;
  /** BUCKET_TIMER_HIGH, picoseconds. */
  highPicos: bigint;
  /** COUNT_BUCKET (cumulative since the digest was first seen or reset). */
  count: number;
}

/** The window's buckets of one digest so far. */
export class WindowHistogram {
  /** Bucket number → [count in the window, upper bound]. */
  private readonly counts = new Map<number, { count: number; highPicos: bigint }>();
  /** The digest's last buckets read (the base of the next interval), or null when unknown. */
  private base: Map<number, number> | null;
  /** False once an interval ran without a base or without buckets. */
  private complete = true;

  constructor(first: readonly DigestBucket[] | undefined) {
    this.base = first ? new Map(first.map((b) => [b.bucket, b.count])) : null;
  }

  /**
   * One interval: `buckets` read at its end (undefined: not read), whether the row counts from
   * zero (`new`, `reset`), and how many statements the counters say ran in it.
   */
  add(buckets: readonly DigestBucket[] | undefined, fromZero: boolean, ran: bigint): void {
    if (!buckets) {
      if (ran > 0n) this.complete = false;
      if (fromZero) this.base = null;
      return;
    }
    let base = fromZero ? new Map<number, number>() : this.base;
    if (base === null) {
      this.complete = false;
      this.base = new Map(buckets.map((b) => [b.bucket, b.count]));
      return;
    }
    if (buckets.some((b) => b.count < (base!.get(b.bucket) ?? 0))) base = new Map();
    for (const b of buckets) {
      const delta = b.count - (base.get(b.bucket) ?? 0);
      if (delta <= 0) continue;
      const entry = this.counts.get(b.bucket);
      if (entry) entry.count += delta;
      else this.counts.set(b.bucket, { count: delta, highPicos: b.highPicos });
    }
    this.base = new Map(buckets.map((b) => [b.bucket, b.count]));
  }

  /** The window is not measurable for this digest (its first interval had no base). */
  invalidate(): void {
    this.complete = false;
  }

  /** The window's quantile `q` (0–1) in picoseconds, at most `maxPicos`; null when unknown or empty. */
  quantile(q: number, maxPicos: bigint): bigint | null {
    if (!this.complete) return null;
    const ordered = [...this.counts.entries()].sort((a, b) => a[0] - b[0]);
    const total = ordered.reduce((sum, [, entry]) => sum + entry.count, 0);
    if (total === 0) return null;
    const target = Math.ceil(total * q);
    let seen = 0;
    for (const [, entry] of ordered) {
      seen += entry.count;
      if (seen >= target) return entry.highPicos < maxPicos ? entry.highPicos : maxPicos;
    }
    return maxPicos;
  }
}
