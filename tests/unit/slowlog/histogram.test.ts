// Per-class Query_time histograms: checked against pt-query-digest's own distribution charts and recounted from the events.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksum, fingerprint } from '../../../src/core/fingerprint/fingerprint.js';
import {
  bucketIndex,
  createDigest,
  createSlowLogParser,
  QUERY_TIME_BUCKETS,
  type DigestResult,
} from '../../../src/core/slowlog/index.js';
import { parseSlowLog } from '../../support/slowlog-reference/parser.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));

function digest(text: string): DigestResult {
  const d = createDigest({ ptCompatible: true });
  const parser = createSlowLogParser({ onEvent: d.add, onSkip: d.addSkip, ptCompatible: true });
  parser.push(text);
  parser.end();
  return d.result();
}

/** pt-query-digest's charts: log → checksum → marks per decade (written by pt-query-digest 3.2.1). */
function ptCharts(): Map<string, Map<string, number[]>> {
  const logs = new Map<string, Map<string, number[]>>();
  let classes = new Map<string, number[]>();
  let marks: number[] = [];
  for (const line of readFileSync(`${fixtures}pt-distribution.txt`, 'latin1').split('\n')) {
    if (line.startsWith('== ')) logs.set(line.slice(3), (classes = new Map()));
    else if (/^[0-9A-F]{32}$/.test(line)) classes.set(line, (marks = []));
    else if (/^# +\S+s\+?/.test(line)) marks.push((line.match(/#/g)?.length ?? 1) - 1);
  }
  return logs;
}

/** Values each class has below 1 µs (pt's chart leaves them out; our `1us` bucket counts them). */
function subMicro(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const event of parseSlowLog(text).events) {
    const value = Number(/^\d+(?:\.\d+)?/.exec(event.properties.Query_time ?? '')?.[0] ?? Number.NaN);
    if (value < 0.000001) {
      const key = checksum(fingerprint(event.query));
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

describe('Query_time histogram per class', () => {
  const charts = ptCharts();
  it('reads the pt-query-digest charts', () => {
    expect([...charts.values()].reduce((n, classes) => n + classes.size, 0)).toBeGreaterThan(30);
  });

  it.each([...charts.keys()])('%s: the same bars as pt-query-digest', (log) => {
    const text = readFileSync(fixtures + log).toString('latin1');
    const below = subMicro(text);
    const ours = new Map<string, number[]>();
    for (const c of digest(text).classes) {
      if (!charts.get(log)!.has(c.checksum)) continue;
      const counts = [...(c.queryTimeHistogram ?? new Array<number>(8).fill(0))];
      counts[0] = counts[0]! - (below.get(c.checksum) ?? 0);
      // pt's chart_distro: 64 marks for the largest decade, at least one for any non-empty decade.
      const most = Math.max(...counts);
      const perMark = most / 64 || 1;
      ours.set(
        c.checksum,
        counts.map((n) => (n === 0 ? 0 : Math.max(1, Math.trunc(n / perMark)))),
      );
    }
    expect(ours).toEqual(charts.get(log));
  });

  const logs = ['percona', 'generated'].flatMap((dir) =>
    readdirSync(fixtures + dir)
      .filter((name) => name.endsWith('.txt') || name.endsWith('.log'))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
  it.each(logs)('%s: exact counts recounted from the events', (log) => {
    const text = readFileSync(fixtures + log).toString('latin1');
    // Every event with a numeric Query_time in the decade of its pt bucket (buckets_of(10)).
    const edges = [1, 2, 3, 4, 5, 6, 7].map((k) => bucketIndex(10 ** k * 0.000001));
    const expected = new Map<string, number[]>();
    const result = digest(text);
    for (const event of parseSlowLog(text).events) {
      const m = /^\d+(?:\.\d+)?/.exec(event.properties.Query_time ?? '');
      if (!m) continue;
      const key = checksum(fingerprint(event.query));
      const counts = expected.get(key) ?? new Array<number>(QUERY_TIME_BUCKETS.length).fill(0);
      const bucket = bucketIndex(Number(m[0]));
      counts[edges.filter((edge) => bucket >= edge).length]!++;
      expected.set(key, counts);
    }
    // A log whose first Query_time is not a number has no Query_time metric (slow017.txt).
    const timed = new Set(result.classes.filter((c) => c.queryTime).map((c) => c.checksum));
    const ours = new Map(
      result.classes.filter((c) => c.queryTimeHistogram).map((c) => [c.checksum, c.queryTimeHistogram]),
    );
    expect(ours).toEqual(new Map([...expected].filter(([key]) => timed.has(key))));
    for (const c of result.classes) {
      expect(c.queryTimeHistogram?.reduce((a, b) => a + b, 0)).toBe(c.queryTime?.count);
    }
  });
});
