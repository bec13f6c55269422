// Workload timeline: bounded buckets, order independence, and the slow-log line scanner against the real parser.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSlowLogTimelineScanner,
  createTimeline,
  nextBucketWidth,
  parseLogTime,
  type WorkloadTimeline,
} from '../../../src/core/capture/index.js';
import { parseSlowLog } from '../../../src/core/slowlog/index.js';

/** The expected timeline for `events` at a given width, computed directly. */
function bucketDirectly(
  events: [number, number][],
  width: number,
): Pick<WorkloadTimeline, 'start' | 'counts'> {
  const keys = events.map(([t]) => Math.floor(t / width));
  const min = Math.min(...keys);
  const counts = new Array<number>(Math.max(...keys) - min + 1).fill(0);
  for (const key of keys) counts[key - min]!++;
  return { start: min * width, counts };
}

describe('createTimeline', () => {
  it('keeps every event, fits maxBuckets with the narrowest ladder width, whatever the order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 1_600_000_000, max: 1_600_400_000 }),
            fc.double({ min: 0, max: 10, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 300,
          },
        ),
        fc.integer({ min: 1, max: 50 }),
        (events, maxBuckets) => {
          const timeline = createTimeline({ maxBuckets });
          for (const [t, q] of events) timeline.add(t, q);
          const result = timeline.result();
          const reversed = createTimeline({ maxBuckets });
          for (const [t, q] of [...events].reverse()) reversed.add(t, q);
          expect(reversed.result()).toEqual(result);

          // The narrowest width of the ladder whose span fits.
          const low = Math.min(...events.map(([t]) => t));
          const high = Math.max(...events.map(([t]) => t));
          let width = 1;
          while (Math.floor(high / width) - Math.floor(low / width) + 1 > maxBuckets)
            width = nextBucketWidth(width);
          expect(result.bucketSeconds).toBe(width);
          expect(result.counts.length).toBeLessThanOrEqual(maxBuckets);
          expect({ start: result.start, counts: result.counts }).toEqual(bucketDirectly(events, width));
          const seconds = events.reduce((sum, [, q]) => sum + q, 0);
          expect(result.querySeconds.reduce((a, b) => a + b, 0)).toBeCloseTo(seconds, 3);
        },
      ),
    );
  });

  it('counts events without a time as untimed', () => {
    const timeline = createTimeline();
    timeline.add(undefined, 1);
    timeline.add(Number.NaN, 1);
    expect(timeline.result()).toEqual({
      start: 0,
      bucketSeconds: 1,
      counts: [],
      querySeconds: [],
      untimed: 2,
    });
  });

  it('each width divides the next, so merging never splits a bucket', () => {
    for (let width = 1; width < 10 * 86_400; width = nextBucketWidth(width)) {
      expect(nextBucketWidth(width) % width).toBe(0);
    }
  });
});

describe('parseLogTime', () => {
  it.each([
    ['2026-11-22T00:50:21.779940Z', '2026-11-22T00:50:21Z'],
    ['2026-11-22T00:50:21', '2026-11-22T00:50:21Z'],
    ['2026-11-22T02:50:21.5+02:00', '2026-11-22T00:50:21Z'],
    ['261122  0:50:24', '2026-11-22T00:50:24Z'],
    ['071015 21:43:52', '2007-10-15T21:43:52Z'],
  ])('%s', (value, iso) => {
    expect(parseLogTime(value)).toBe(Date.parse(iso) / 1000);
  });

  it('rejects what is not a time', () => {
    expect(parseLogTime('yesterday')).toBeUndefined();
  });
});

/** Oracle: the real parser's events, placed at SET timestamp, else the last # Time: seen. */
function timelineFromParser(text: string): WorkloadTimeline {
  const timeline = createTimeline();
  let last: number | undefined;
  for (const event of parseSlowLog(text).events) {
    const props = event.properties;
    if (props.ts !== undefined) last = parseLogTime(props.ts) ?? last;
    if (props.Query_time === undefined) continue;
    const own = props.timestamp === undefined ? undefined : Number(props.timestamp);
    timeline.add(own ?? last, Number(props.Query_time));
  }
  return timeline.result();
}

describe('createSlowLogTimelineScanner', () => {
  const files = [
    'tests/fixtures/slowlogs/generated/mysql-workload.log',
    'tests/fixtures/slowlogs/generated/mariadb-workload.log',
    'tests/fixtures/slowlogs/percona/slow052.txt',
    'tests/fixtures/slowlogs/percona/mysql5.7.log',
    'tests/fixtures/slowlogs/percona/microslow001.txt',
  ];

  it.each(files)('%s: same buckets as the parser, in any chunking', (file) => {
    const text = readFileSync(file, 'latin1');
    const expected = timelineFromParser(text);
    expect(expected.counts.reduce((a, b) => a + b, 0) + expected.untimed).toBeGreaterThan(0);
    const whole = createSlowLogTimelineScanner();
    whole.push(text);
    expect(whole.end()).toEqual(expected);
    const chunked = createSlowLogTimelineScanner();
    for (let index = 0; index < text.length; index += 97) chunked.push(text.slice(index, index + 97));
    expect(chunked.end()).toEqual(expected);
  });
});
