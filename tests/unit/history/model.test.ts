// The history model: sample policies, markers ("new", "regressed ×N") and trend series, data-driven.
import { describe, expect, it } from 'vitest';
import type { TopClass } from '../../../src/core/capture/index.js';
import {
  buildTrends,
  historyRowsFromTopClasses,
  median,
  pointFromRow,
  trendMarkers,
  type HistoryPoint,
  type HistoryWindow,
} from '../../../src/core/history/index.js';

function point(
  windowId: number,
  count: number,
  totalSeconds: number,
  p95: number | null = null,
): HistoryPoint {
  return pointFromRow(windowId, {
    count,
    totalSeconds,
    p95,
    max: null,
    rowsExamined: null,
    firstSeen: null,
    lastSeen: null,
  });
}

function window(id: number): HistoryWindow {
  const start = new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString();
  return {
    id,
    source: 'performance_schema',
    label: `window ${id}`,
    profile: 'p',
    server: 'h:3306',
    production: false,
    start,
    end: start,
    recordedAt: start,
    events: 0,
    classes: 0,
    samples: 'full',
  };
}

describe('median', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[1, 9, 5], 5],
    [[4, 1, 3, 2], 2.5],
    [[null, 2, null], 2],
  ] as const)('%j → %s', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe('trendMarkers', () => {
  // [name, current, earlier, earlierWindows, threshold, expected]
  const cases: [
    string,
    HistoryPoint | null,
    HistoryPoint[],
    number,
    number,
    ReturnType<typeof trendMarkers>,
  ][] = [
    ['first window of a scope: nothing is new', point(1, 5, 1), [], 0, 2, { new: false, regressed: null }],
    ['absent from every earlier window: new', point(3, 5, 1), [], 2, 2, { new: true, regressed: null }],
    [
      'ran earlier: not new, same speed',
      point(3, 5, 1),
      [point(1, 5, 1), point(2, 10, 2)],
      2,
      2,
      { new: false, regressed: null },
    ],
    [
      'time per execution 3× the median',
      point(4, 10, 3),
      [point(1, 10, 1), point(2, 10, 1), point(3, 10, 5)],
      3,
      2,
      { new: false, regressed: { factor: 3, metric: 'avg' } },
    ],
    [
      'p95 4× the median beats avg 2×',
      point(3, 1, 2, 8),
      [point(1, 1, 1, 2), point(2, 1, 1, 2)],
      2,
      2,
      { new: false, regressed: { factor: 4, metric: 'p95' } },
    ],
    ['just under the threshold', point(2, 10, 1.9), [point(1, 10, 1)], 1, 2, { new: false, regressed: null }],
    [
      'exactly at the threshold',
      point(2, 10, 2),
      [point(1, 10, 1)],
      1,
      2,
      { new: false, regressed: { factor: 2, metric: 'avg' } },
    ],
    [
      'a custom threshold of 1.5',
      point(2, 10, 1.6),
      [point(1, 10, 1)],
      1,
      1.5,
      { new: false, regressed: { factor: 1.6, metric: 'avg' } },
    ],
    [
      'more executions at the same speed is no regression',
      point(2, 100, 10),
      [point(1, 10, 1)],
      1,
      2,
      { new: false, regressed: null },
    ],
    ['did not run in the current window', null, [point(1, 10, 1)], 1, 2, { new: false, regressed: null }],
    [
      'sub-millisecond: 0.2 ms to 0.5 ms per execution is ×2.5 but noise',
      point(2, 25, 0.0125, 0.0009),
      [point(1, 25, 0.005, 0.0003)],
      1,
      2,
      { new: false, regressed: null },
    ],
    [
      'a grown p95 of 1 ms or more counts: 0.4 ms to 1.6 ms',
      point(2, 25, 0.005, 0.0016),
      [point(1, 25, 0.005, 0.0004)],
      1,
      2,
      { new: false, regressed: { factor: 4, metric: 'p95' } },
    ],
    [
      'earlier time 0 gives no ratio',
      point(2, 10, 5),
      [point(1, 10, 0)],
      1,
      2,
      { new: false, regressed: null },
    ],
  ];
  it.each(cases)('%s', (_name, current, earlier, earlierWindows, threshold, expected) => {
    expect(trendMarkers(current, earlier, earlierWindows, threshold)).toEqual(expected);
  });
});

describe('buildTrends', () => {
  const windows = [1, 2, 3, 4].map(window);
  const points = new Map<string, HistoryPoint[]>([
    ['steady', [point(1, 10, 1), point(2, 10, 1), point(3, 10, 1), point(4, 10, 1)]],
    ['fresh', [point(4, 3, 5)]],
    ['slower', [point(1, 10, 1), point(2, 10, 1), point(4, 10, 4)]],
    ['gone', [point(1, 1, 50)]],
  ]);
  const classes = new Map(
    [...points.keys()].map((id) => [id, { checksum: null, digest: null, fingerprint: `select ${id}` }]),
  );

  it('ranks by the current window, series aligned with the windows, markers on the current window', () => {
    const trends = buildTrends({ windows, points, classes, seriesWindows: 3 });
    expect(trends.windows.map((w) => w.id)).toEqual([2, 3, 4]);
    expect(trends.classes.map((c) => c.classId)).toEqual(['fresh', 'slower', 'steady', 'gone']);
    const byId = new Map(trends.classes.map((c) => [c.classId, c]));
    expect(byId.get('fresh')!.points.map((p) => p?.count ?? null)).toEqual([null, null, 3]);
    expect(byId.get('fresh')!.markers).toEqual({ new: true, regressed: null });
    expect(byId.get('slower')!.points.map((p) => p?.count ?? null)).toEqual([10, null, 10]);
    expect(byId.get('slower')!.markers).toEqual({ new: false, regressed: { factor: 4, metric: 'avg' } });
    expect(byId.get('steady')!.markers).toEqual({ new: false, regressed: null });
    // Outside the series (window 1) but still in the scope: neither new nor in the series.
    expect(byId.get('gone')!.points).toEqual([null, null, null]);
    expect(byId.get('gone')!.markers).toEqual({ new: false, regressed: null });
    expect(byId.get('steady')!.fingerprint).toBe('select steady');
  });

  it('a class first seen in the series but before the current window is not new', () => {
    const trends = buildTrends({ windows: windows.slice(0, 3), points, classes });
    const byId = new Map(trends.classes.map((c) => [c.classId, c]));
    expect(byId.get('fresh')!.points).toEqual([null, null, null]);
    expect(byId.get('steady')!.markers.new).toBe(false);
  });
});

describe('historyRowsFromTopClasses', () => {
  const row: TopClass = {
    id: 'shop/abc',
    checksum: 'C1',
    digest: 'abc',
    fingerprint: 'select * from t where a = ?',
    schemas: ['shop'],
    count: 2,
    totalSeconds: 0.5,
    latency: { min: null, median: null, avg: 0.25, p95: 0.3, p99: null, max: 0.4, lifetime: true },
    lockSeconds: 0,
    rowsSent: 2,
    rowsExamined: 20,
    firstSeen: null,
    lastSeen: null,
    example: "SELECT * FROM t WHERE a = 'CANARY_LITERAL'",
    normalized: 'SELECT * FROM `t` WHERE `a` = ?',
    histogram: null,
    execution: { tmpTables: 0, tmpDiskTables: 0, filesorts: 0, fullScans: 0, fullJoins: 0 },
  };
  it.each([
    ['none', null],
    ['placeholders', 'SELECT * FROM `t` WHERE `a` = ?'],
    ['full', "SELECT * FROM t WHERE a = 'CANARY_LITERAL'"],
  ] as const)('sample policy %s', (policy, sample) => {
    const [stored] = historyRowsFromTopClasses([row], policy);
    expect(stored!.sample).toBe(sample);
    expect(stored).toMatchObject({
      classId: 'shop/abc',
      count: 2,
      p95: 0.3,
      max: 0.4,
      rowsExamined: 20,
      lifetime: true,
    });
  });
  it('"since first seen" only for a p95 that is the digest table\'s: not a MySQL window\'s own, not a missing one', () => {
    const quantile = historyRowsFromTopClasses([row], 'none')[0]!;
    expect(quantile.lifetime).toBe(true);
    expect(pointFromRow(1, quantile).p95Lifetime).toBe(true);
    // MySQL: the window's p95 from histogram bucket deltas.
    const windowed = historyRowsFromTopClasses(
      [{ ...row, latency: { ...row.latency, windowQuantiles: true } }],
      'none',
    )[0]!;
    expect(windowed).toMatchObject({ p95: 0.3, max: 0.4, lifetime: false });
    expect(pointFromRow(1, windowed).p95Lifetime).toBe(false);
    // MariaDB: no quantiles at all.
    const none = historyRowsFromTopClasses(
      [{ ...row, latency: { ...row.latency, p95: null, windowQuantiles: false } }],
      'none',
    )[0]!;
    expect(none).toMatchObject({ p95: null, lifetime: false });
    // Logs: every value is the window's.
    const log = historyRowsFromTopClasses(
      [{ ...row, latency: { ...row.latency, lifetime: false } }],
      'none',
    )[0]!;
    expect(log.lifetime).toBe(false);
  });
  it('placeholders falls back to the fingerprint when there is no normalized text (logs)', () => {
    const [stored] = historyRowsFromTopClasses([{ ...row, normalized: null }], 'placeholders');
    expect(stored!.sample).toBe('select * from t where a = ?');
  });
});
