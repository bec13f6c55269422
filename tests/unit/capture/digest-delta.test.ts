// Deltas between digest snapshots: changed, new, reset, restart, table full, truncated snapshots.
import { describe, expect, it } from 'vitest';
import {
  computeDigestDelta,
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
