// The digest's compact per-class storage: narrow (uint32) metric columns that widen exactly, and the example-text arena.
import { describe, expect, it } from 'vitest';
import { compareAsStrings } from '../../../src/core/slowlog/digest-report.js';
import { MetricColumn } from '../../../src/core/slowlog/metric-columns.js';
import {
  addValue,
  bucketIndex,
  type Metric,
  newMetric,
  summarize,
} from '../../../src/core/slowlog/metrics.js';
import { TextArena } from '../../../src/core/slowlog/text-arena.js';

/** A seeded xorshift generator, so a failure replays. */
function random(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** What a column keeps of a Metric (the positive count only where the column counts it). */
function fields(metric: Metric | undefined, countsPositive = true) {
  if (!metric) return undefined;
  const { cnt, sumInt, sumMicro, sumOther, inexact, min, max, positive } = metric;
  return {
    cnt,
    sumInt,
    sumMicro,
    sumOther,
    inexact,
    min,
    max,
    positive: countsPositive ? positive : 0,
    summary: summarize(metric, true),
  };
}

/** Feeds the same values to a column and to `addValue` on one Metric per class; compares every class. */
function compare(
  values: (rnd: () => number) => number,
  seed: number,
  bucketed = true,
  countsPositive = true,
) {
  const rnd = random(seed);
  const classes = 300;
  const column = new MetricColumn(bucketed, countsPositive, classes);
  const reference: Metric[] = Array.from({ length: classes }, () => newMetric(bucketed, false));
  for (let i = 0; i < 6000; i++) {
    const c = Math.floor(rnd() * classes);
    const value = values(rnd);
    const bucket = bucketed ? bucketIndex(value) : 0;
    column.add(c, value, bucket);
    addValue(reference[c]!, value, bucket);
  }
  for (let c = 0; c < classes; c++) {
    const expected = reference[c]!.cnt === 0 ? undefined : reference[c];
    expect(fields(column.metric(c), countsPositive), `class ${c}`).toEqual(fields(expected, countsPositive));
  }
  return column;
}

describe('metric columns: narrow until a value does not fit', () => {
  it('whole numbers below 2^32 (row counts, tmp tables) stay in uint32 columns, value for value', () => {
    const column = compare((rnd) => (rnd() < 0.3 ? 0 : Math.floor(rnd() * 100_000)), 1);
    expect(column.narrow).toBe(true);
    expect(column.cnt).toBeInstanceOf(Uint32Array);
    expect(column.max).toBeInstanceOf(Uint32Array);
  });

  it('a fraction (Query_time) widens the column once, keeping what it held', () => {
    let n = 0;
    const column = compare((rnd) => (n++ < 3000 ? Math.floor(rnd() * 50) : Math.round(rnd() * 1e6) / 1e6), 2);
    expect(column.narrow).toBe(false);
    expect(column.min).toBeInstanceOf(Float64Array);
  });

  it('values of 2^32 and beyond, negative values and values that are not millionths widen it exactly', () => {
    for (const [seed, late] of [
      [3, () => 2 ** 32 + 7],
      [4, () => 1e15 + 3],
      [5, () => -2],
      [6, () => Math.PI],
    ] as const) {
      let n = 0;
      const column = compare(
        (rnd) => (n++ === 4000 ? late() : Math.floor(rnd() * 1000)),
        seed,
        seed % 2 === 0,
      );
      expect(column.narrow).toBe(false);
    }
  });

  it('a sum or a count that would pass 2^32 - 1 widens it (no uint32 wrap-around)', () => {
    // 300 classes, 6000 values of ~3e9: every class's sum passes 2^32 within a few values.
    const column = compare((rnd) => 3_000_000_000 + Math.floor(rnd() * 1000), 7, false, false);
    expect(column.narrow).toBe(false);
    const one = new MetricColumn(false, false, 1);
    one.add(0, 0xffffffff, 0);
    expect(one.narrow).toBe(true);
    one.add(0, 1, 0);
    expect(one.narrow).toBe(false);
    expect(one.sum(0)).toBe(2 ** 32);
  });

  it('store() (the segment merge) widens a narrow column for a merged metric that does not fit', () => {
    const column = new MetricColumn(true, true, 4);
    column.add(1, 5, bucketIndex(5));
    const merged = newMetric(true, false);
    for (const value of [5, 2 ** 40, 0.25]) addValue(merged, value, bucketIndex(value));
    column.store(1, merged);
    expect(column.narrow).toBe(false);
    expect(fields(column.metric(1))).toEqual(fields(merged));
    const small = newMetric(true, false);
    addValue(small, 9, bucketIndex(9));
    const other = new MetricColumn(true, true, 4);
    other.store(2, small);
    expect(other.narrow).toBe(true);
    expect(fields(other.metric(2))).toEqual(fields(small));
  });
});

describe('text arena', () => {
  it('gives back every row’s last text through replacements, moves and compactions', () => {
    for (const seed of [11, 12, 13]) {
      const rnd = random(seed);
      const rows = 2000;
      const arena = new TextArena();
      arena.grow(rows);
      const model = new Map<number, string>();
      let live = 0;
      for (let i = 0; i < 40_000; i++) {
        const row = Math.floor(rnd() * rows);
        // Texts of one row differ in length a little (like a class's examples), now and then a lot.
        const length = 20 + (row % 50) + Math.floor(rnd() * (rnd() < 0.05 ? 400 : 8));
        let text = '';
        for (let k = 0; k < length; k++) text += String.fromCharCode(Math.floor(rnd() * 256));
        live += length - (model.get(row)?.length ?? 0);
        model.set(row, text);
        arena.set(row, text);
      }
      for (const [row, text] of model) expect(arena.text(row)).toBe(text);
      // Holes never pass a quarter of the arena before it is compacted, and slots hold their
      // texts with little slack: far below the 2-4x of an arena that only appends.
      expect(arena.capacity).toBeLessThan(1.9 * live + 65_536);
    }
  });

  it('reads texts longer than one decode chunk and keeps binary bytes', () => {
    const arena = new TextArena();
    arena.grow(2);
    const long = Array.from({ length: 30_000 }, (_, i) => String.fromCharCode(i % 256)).join('');
    arena.set(0, 'short');
    arena.set(1, long);
    arena.set(0, 'shorter!');
    expect(arena.text(1)).toBe(long);
    expect(arena.text(0)).toBe('shorter!');
  });
});

describe('ranking tiebreak', () => {
  it('compares offsets as their strings do, without building them', () => {
    const rnd = random(21);
    const pick = (): number => {
      const r = rnd();
      if (r < 0.2) return Math.floor(rnd() * 200);
      if (r < 0.4) return 10 ** Math.floor(rnd() * 15) * (rnd() < 0.5 ? 1 : Math.floor(rnd() * 10));
      if (r < 0.5) return Math.floor(rnd() * 2 ** 53);
      if (r < 0.55) return rnd() * 1000;
      return Math.floor(rnd() * 10 ** Math.floor(rnd() * 16));
    };
    for (let i = 0; i < 200_000; i++) {
      const x = pick();
      const y = rnd() < 0.1 ? x : rnd() < 0.3 ? Math.floor(x / 10) : pick();
      const a = String(x);
      const b = String(y);
      expect(compareAsStrings(x, y), `${a} vs ${b}`).toBe(a === b ? 0 : a < b ? -1 : 1);
    }
  });
});
