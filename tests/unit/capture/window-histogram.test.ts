// The window's own quantiles from histogram bucket deltas: differences per interval, resets count from zero, unknown bases give null, clamped to the max.
import { describe, expect, it } from 'vitest';
import { WindowHistogram, type DigestBucket } from '../../../src/core/capture/index.js';

const MS = 1_000_000_000n;
/** Buckets: [bucket number, upper bound in ms, cumulative count]. */
const buckets = (...list: [number, number, number][]): DigestBucket[] =>
  list.map(([bucket, highMs, count]) => ({ bucket, highPicos: BigInt(highMs) * MS, count }));

describe('WindowHistogram', () => {
  it('takes the differences from the base: a slow history does not move the window p95', () => {
    // History: 100 executions at ≤ 200 ms. Window: 20 at ≤ 5 ms.
    const histogram = new WindowHistogram(buckets([10, 5, 0], [50, 200, 100]));
    histogram.add(buckets([10, 5, 20], [50, 200, 100]), false, 20n);
    expect(histogram.quantile(0.95, 250n * MS)).toBe(5n * MS);
    // Two slow ones join in the next interval: 2 of 22 is above 5 %.
    histogram.add(buckets([10, 5, 20], [50, 200, 102]), false, 2n);
    expect(histogram.quantile(0.95, 250n * MS)).toBe(200n * MS);
  });

  it('never above the max the digest ever took', () => {
    const histogram = new WindowHistogram([]);
    histogram.add(buckets([50, 200, 3]), false, 3n);
    expect(histogram.quantile(0.95, 120n * MS)).toBe(120n * MS);
  });

  it('a reset (new or reset row, or buckets going down) counts from zero', () => {
    const histogram = new WindowHistogram(buckets([50, 200, 100]));
    histogram.add(buckets([10, 5, 4]), true, 4n);
    expect(histogram.quantile(0.95, 250n * MS)).toBe(5n * MS);
    const truncatedAlone = new WindowHistogram(buckets([50, 200, 100]));
    truncatedAlone.add(buckets([10, 5, 3], [50, 200, 1]), false, 4n);
    // 4 since the histogram's own reset: 3 fast, 1 slow (the 95th is the slow one).
    expect(truncatedAlone.quantile(0.5, 250n * MS)).toBe(5n * MS);
    expect(truncatedAlone.quantile(0.95, 250n * MS)).toBe(200n * MS);
  });

  it('unknown when an interval ran without buckets or without a base; a quiet digest keeps its base', () => {
    const noBase = new WindowHistogram(undefined);
    noBase.add(buckets([10, 5, 3]), false, 3n);
    expect(noBase.quantile(0.95, MS)).toBeNull();
    const unread = new WindowHistogram(buckets([10, 5, 3]));
    unread.add(undefined, false, 2n);
    expect(unread.quantile(0.95, MS)).toBeNull();
    const quiet = new WindowHistogram(buckets([10, 5, 3]));
    quiet.add(undefined, false, 0n);
    quiet.add(buckets([10, 5, 5]), false, 2n);
    expect(quiet.quantile(0.95, 10n * MS)).toBe(5n * MS);
    const missing = new WindowHistogram(buckets([10, 5, 3]));
    missing.invalidate();
    missing.add(buckets([10, 5, 5]), false, 2n);
    expect(missing.quantile(0.95, 10n * MS)).toBeNull();
    expect(new WindowHistogram([]).quantile(0.95, MS)).toBeNull();
  });
});
