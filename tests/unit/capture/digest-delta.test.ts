// Deltas between digest snapshots: changed, new, reset, restart, table full, truncated snapshots.
import { describe, expect, it } from 'vitest';
import {
  computeDigestDelta,
  DigestDeltaAccumulator,
  digestCounterColumns,
  picosToMs,
  type DigestCounter,
  type DigestRow,
  type DigestSnapshot,
} from '../../../src/core/capture/index.js';

function row(
  digest: string | null,
  values: Partial<Record<DigestCounter, number>>,
  extra: Partial<DigestRow> = {},
): DigestRow {
  const counters = {} as Record<DigestCounter, bigint>;
  for (const name of Object.keys(digestCounterColumns) as DigestCounter[])
    counters[name] = BigInt(values[name] ?? 0);
  return {
    schema: 'app',
    digest,
    counters,
    maxTimerWait: 5_000_000_000n,
    firstSeen: 1000,
    lastSeen: 1000,
    digestText: digest === null ? null : `SELECT * FROM \`t${digest}\` WHERE \`v\` = ?`,
    ...extra,
  };
}

function snapshot(
  takenAt: number,
  uptime: number,
  rows: DigestRow[],
  extra: Partial<DigestSnapshot> = {},
): DigestSnapshot {
  return { takenAt, uptime, digestLost: 0, truncated: false, rows, ...extra };
}

describe('computeDigestDelta', () => {
  it('subtracts counters, drops idle digests, keeps new ones and ranks by total latency', () => {
    const before = snapshot(2000, 500, [
      row('a', { count: 10, timerWait: 10_000_000_000, rowsSent: 10, rowsExamined: 100 }),
      row('idle', { count: 3, timerWait: 1 }),
    ]);
    const after = snapshot(2010, 510, [
      row('a', { count: 17, timerWait: 24_000_000_000, rowsSent: 17, rowsExamined: 800, noIndexUsed: 7 }),
      row('idle', { count: 3, timerWait: 1 }),
      row('b', { count: 2, timerWait: 30_000_000_000, tmpDiskTables: 2 }, { firstSeen: 2005 }),
    ]);
    const delta = computeDigestDelta(before, after);
    expect(
      delta.classes.map((c) => [
        c.digest,
        c.status,
        c.count,
        c.totalMs,
        c.avgMs,
        c.rowsExamined,
        c.examinedPerSent,
        c.noIndexUsed,
        c.tmpDiskTables,
      ]),
    ).toEqual([
      ['b', 'new', 2, 30, 15, 0, null, 0, 2],
      ['a', 'changed', 7, 14, 2, 700, 100, 7, 0],
    ]);
    expect({
      totals: delta.totals,
      window: delta.windowSeconds,
      restarted: delta.serverRestarted,
      notes: delta.notes,
    }).toEqual({
      totals: { count: 9, totalMs: 44, classes: 2 },
      window: 10,
      restarted: false,
      notes: [],
    });
    expect(delta.classes[1]?.fingerprint).toMatchObject({
      fingerprint: 'select * from ta where v = ?',
      source: 'digest-text',
    });
  });

  it('says when the server restarted and counts from zero', () => {
    const before = snapshot(2000, 500, [row('a', { count: 10 })]);
    const after = snapshot(2010, 4, [row('a', { count: 3 })]);
    const delta = computeDigestDelta(before, after);
    expect([
      delta.serverRestarted,
      delta.classes.map((c) => [c.status, c.count]),
      delta.notes.map((n) => n.code),
    ]).toEqual([true, [['reset', 3]], ['server-restarted']]);
  });

  it('marks counters that went down, digests that disappeared and a full digest table', () => {
    const before = snapshot(2000, 500, [row('a', { count: 10 }), row('gone', { count: 1 })], {
      digestLost: 4,
    });
    const after = snapshot(
      2010,
      510,
      [row('a', { count: 2 }), row(null, { count: 5, timerWait: 1_000_000_000 })],
      { digestLost: 9 },
    );
    const delta = computeDigestDelta(before, after);
    expect({
      classes: delta.classes.map((c) => [c.digest, c.status, c.count]),
      overflow: delta.overflow && [delta.overflow.count, delta.overflow.fingerprint],
      lost: delta.digestLost,
      notes: delta.notes.map((n) => n.code),
    }).toEqual({
      classes: [['a', 'reset', 2]],
      overflow: [5, null],
      lost: 5,
      notes: ['counters-reset', 'digests-disappeared', 'digest-table-full'],
    });
  });

  it('flags digests missing from a truncated first snapshot, and a truncated second one', () => {
    const before = snapshot(2000, 500, [row('a', { count: 1 })], { truncated: true });
    const after = snapshot(
      2010,
      510,
      [row('a', { count: 2 }), row('old', { count: 50 }, { firstSeen: 1500 })],
      { truncated: true },
    );
    const delta = computeDigestDelta(before, after, { orderBy: 'count' });
    expect([delta.classes.map((c) => [c.digest, c.status, c.count]), delta.notes.map((n) => n.code)]).toEqual(
      [
        [
          ['old', 'baseline-missing', 50],
          ['a', 'changed', 1],
        ],
        ['baseline-missing', 'snapshot-truncated'],
      ],
    );
  });

  it("hides the capture's own queries unless asked, and applies the limit after ranking", () => {
    const own = row(
      'own',
      { count: 1, timerWait: 9e12 },
      {
        digestText:
          'SELECT `DIGEST` FROM `performance_schema` . `events_statements_summary_by_digest` LIMIT ?',
      },
    );
    const before = snapshot(2000, 500, []);
    const after = snapshot(
      2001,
      501,
      [own, row('a', { count: 1, timerWait: 2 }), row('b', { count: 1, timerWait: 1 })].map((r) => ({
        ...r,
        firstSeen: 2000,
      })),
    );
    expect([
      computeDigestDelta(before, after, { limit: 1 }).classes.map((c) => c.digest),
      computeDigestDelta(before, after, { hideOwn: false }).classes.map((c) => c.digest),
    ]).toEqual([['a'], ['own', 'a', 'b']]);
  });

  it('converts picoseconds exactly past 2^53', () => {
    expect([picosToMs(12_345_678_901_234_567_890n), picosToMs(1_500_000n), picosToMs(0n)]).toEqual([
      12345678901.235, 0.002, 0,
    ]);
  });
});

describe('DigestDeltaAccumulator: resets between polls', () => {
  const counts = (delta: ReturnType<DigestDeltaAccumulator['result']>) =>
    Object.fromEntries(delta.classes.map((c) => [c.digest, [c.count, c.status]]));

  it('adds the activity before a TRUNCATE to the activity after it, per row', () => {
    const acc = new DigestDeltaAccumulator(
      snapshot(2000, 500, [row('a', { count: 10 }), row('b', { count: 4 }), row('c', { count: 1 })]),
    );
    acc.add(snapshot(2002, 502, [row('a', { count: 15 }), row('b', { count: 6 }), row('c', { count: 1 })]));
    // TRUNCATE at ~2003: 'a' ran 3 times since (counter went down, newer FIRST_SEEN); 'b' ran 9
    // times since (counter higher than before: only FIRST_SEEN tells); 'c' did not run again.
    acc.add(
      snapshot(2004, 504, [
        row('a', { count: 3 }, { firstSeen: 2003.25 }),
        row('b', { count: 9 }, { firstSeen: 2003.5 }),
      ]),
    );
    acc.add(
      snapshot(2006, 506, [
        row('a', { count: 4 }, { firstSeen: 2003.25 }),
        row('b', { count: 9 }, { firstSeen: 2003.5 }),
      ]),
    );
    const delta = acc.result();
    expect(counts(delta)).toEqual({ a: [5 + 4, 'reset'], b: [2 + 9, 'reset'] });
    expect(delta.notes.map((n) => n.code)).toEqual(['counters-reset', 'digests-disappeared']);
    expect(delta.notes[0]!.message).toContain('2 digest(s) were reset');
    // Two snapshots around the same TRUNCATE cannot see 'b' ran before it: only after.
    const two = computeDigestDelta(
      snapshot(2000, 500, [row('b', { count: 4 })]),
      snapshot(2004, 504, [row('b', { count: 9 }, { firstSeen: 2003.5 })]),
    );
    expect(counts(two)).toEqual({ b: [9, 'reset'] });
  });

  it('a row gone from one poll and back with an old FIRST_SEEN (MariaDB seconds) counts from zero', () => {
    const acc = new DigestDeltaAccumulator(snapshot(2000, 500, [row('a', { count: 4 })]));
    acc.add(snapshot(2001, 501, [row('a', { count: 6 })]));
    acc.add(snapshot(2002, 502, [])); // truncated
    acc.add(snapshot(2003, 503, [row('a', { count: 3 }, { firstSeen: 1000 })]));
    expect(counts(acc.result())).toEqual({ a: [2 + 3, 'reset'] });
  });

  it('a restart between polls: counted since the restart, with a note', () => {
    const acc = new DigestDeltaAccumulator(snapshot(2000, 500, [row('a', { count: 4 })]));
    acc.add(snapshot(2002, 502, [row('a', { count: 7 })]));
    acc.add(snapshot(2010, 3, [row('a', { count: 2 }, { firstSeen: 2008 })]));
    const delta = acc.result();
    expect(counts(delta)).toEqual({ a: [3 + 2, 'reset'] });
    expect(delta.serverRestarted).toBe(true);
    expect(delta.notes.map((n) => n.code)).toContain('server-restarted');
  });

  it('clamps the lifetime p95/p99 (histogram bucket bounds) to MAX_TIMER_WAIT', () => {
    const delta = computeDigestDelta(
      snapshot(2000, 500, [row('a', { count: 1 })]),
      snapshot(2001, 501, [
        row(
          'a',
          { count: 2 },
          { maxTimerWait: 1_000_000_000n, quantile95: 1_047_128_548n, quantile99: 1_096_478_196n },
        ),
      ]),
    );
    expect(delta.classes[0]!.lifetime).toMatchObject({ maxMs: 1, p95Ms: 1, p99Ms: 1 });
  });
});
