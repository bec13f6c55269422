// Sums of decimals with at most six fractional digits (what MySQL and MariaDB write) are exact, whatever their size or order: checked against BigInt sums.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDecimal } from '../../../src/core/slowlog/digest-attributes.js';
import { MetricColumn } from '../../../src/core/slowlog/metric-columns.js';
import {
  addValue,
  bucketIndex,
  type Metric,
  mergeable,
  mergeMetric,
  MICRO_LIMIT,
  newMetric,
  sumOf,
} from '../../../src/core/slowlog/metrics.js';

/** `units` millionths as decimal text with `digits` fractional digits (trailing zeros cut, as a server may). */
function text(units: bigint, digits = 6): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = abs / 1_000_000n;
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').slice(0, digits);
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

/** The double nearest to a decimal number of millionths (JS parses decimal text correctly rounded). */
const nearest = (units: bigint): number => Number(text(units));

/** Millionths below MICRO_LIMIT, with every magnitude (1 µs to days to the limit) equally likely. */
const millionths = fc
  .tuple(fc.integer({ min: 0, max: 15 }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([decade, f]) => BigInt(Math.min(Math.floor(10 ** (decade + f)), MICRO_LIMIT * 1e6 - 1)));

describe('a decimal of at most six fractional digits is a whole number of millionths', () => {
  it('Math.round(v × 1e6) gives its millionths back and units / 1e6 === v, up to MICRO_LIMIT', () => {
    // The claim addValue relies on: the value a log's text is read as (plainDecimal, or Number
    // for longer texts) is the double nearest to the decimal, and so is units / 1e6.
    fc.assert(
      fc.property(millionths, fc.integer({ min: 0, max: 6 }), (raw, digits) => {
        const units = (raw / 10n ** BigInt(6 - digits)) * 10n ** BigInt(6 - digits);
        const written = text(units, digits);
        const value = Number(written);
        if (written.replace('.', '').replace(/^0+/, '').length <= 15) {
          expect(plainDecimal(written)).toBe(value);
        }
        expect(Math.round(value * 1e6)).toBe(Number(units));
        expect(Number(units) / 1e6).toBe(value);
      }),
      { numRuns: 100_000, seed: 21 },
    );
    // The edge: the largest millionths below the limit, and the limit itself is not counted.
    for (const units of [BigInt(MICRO_LIMIT) * 1_000_000n - 1n, 4_503_599_627_370_495n, 999_999n, 1n]) {
      const value = nearest(units);
      expect(Math.round(value * 1e6)).toBe(Number(units));
      expect(Number(units) / 1e6).toBe(value);
    }
  });

  it('MICRO_LIMIT is where the decimal a double came from stops being unique', () => {
    // Below 2^33 a double's spacing (at most 2^-20) is under a millionth; at 2^33 it is 2^-19,
    // and two six-digit decimals can round to one double.
    expect(MICRO_LIMIT).toBe(2 ** 33);
    expect(nearest(8_589_934_592_000_001n)).toBe(nearest(8_589_934_592_000_002n));
    expect(nearest(8_589_934_591_999_998n)).not.toBe(nearest(8_589_934_591_999_999n));
    const metric = newMetric(false, false);
    addValue(metric, nearest(8_589_934_592_000_001n), 0);
    expect(metric.inexact).toBe(true);
  });
});

describe('sums are exact', () => {
  /** Values as a log holds them: Query_time ≥ 1 s and below, whole row counts, shorter texts. */
  const logValue = fc.oneof(
    millionths.filter((u) => u < 100_000_000_000n),
    fc.integer({ min: 1_000_000, max: 60_000_000 }).map(BigInt),
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => BigInt(n) * 1_000_000n),
    fc.integer({ min: 0, max: 99 }).map((n) => BigInt(n) * 10_000n),
  );

  it('addValue, MetricColumn.add and a merge of two parts give the BigInt sum, correctly rounded', () => {
    fc.assert(
      fc.property(fc.array(logValue, { minLength: 1, maxLength: 60 }), fc.nat(), (units, at) => {
        const values = units.map(nearest);
        const truth = nearest(units.reduce((a, b) => a + b, 0n));
        const whole = newMetric(true, false);
        const column = new MetricColumn(true, false, 2);
        const cut = at % (values.length + 1);
        const parts: Metric[] = [newMetric(true, false), newMetric(true, false)];
        values.forEach((value, i) => {
          addValue(whole, value, bucketIndex(value));
          column.add(1, value, bucketIndex(value));
          addValue(parts[i < cut ? 1 : 0]!, value, bucketIndex(value));
        });
        expect(whole.inexact).toBe(false);
        expect(column.inexact(1)).toBe(false);
        expect(sumOf(whole)).toBe(truth);
        expect(column.sum(1)).toBe(truth);
        // The later part first: the order values are added in does not matter.
        expect(mergeable(parts[0], parts[1])).toBe(true);
        const merged = mergeMetric(mergeMetric(undefined, parts[0]!, false), parts[1]!, false);
        expect(sumOf(merged)).toBe(truth);
        expect(merged.inexact).toBe(false);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('plain values ≥ 1 s such as 1.668162 (where whole + micro / 1e6 is not the value)', () => {
    expect(1 + 668162 / 1e6).not.toBe(1.668162);
    const metric = newMetric(true, false);
    for (const value of [1.668162, 12.000001, 0.5, 1.726052]) addValue(metric, value, bucketIndex(value));
    expect(metric.inexact).toBe(false);
    expect(sumOf(metric)).toBe(15.894215);
    const one = newMetric(false, false);
    addValue(one, 1.726052, 0);
    expect(sumOf(one)).toBe(1.726052);
  });

  it('values that are not whole millionths still go to the float part (inexact)', () => {
    const metric = newMetric(false, false);
    addValue(metric, 1.5, 0);
    addValue(metric, 0.0000001, 0);
    expect(metric.inexact).toBe(true);
    expect(sumOf(metric)).toBe(1.5 + 0.0000001);
  });
});
