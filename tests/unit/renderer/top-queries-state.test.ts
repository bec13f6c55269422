// The Top queries panel's reducer, helpers and live-digest loop (state/top-queries.ts, state/live-capture.ts) without a DOM.
import { describe, expect, it } from 'vitest';
import {
  computeDigestDelta,
  digestCounterColumns,
  type DigestCounter,
  type DigestRow,
  type DigestSnapshot,
} from '../../../src/core/capture/index.js';
import type { AdvisorApi } from '../../../src/shared/api.js';
import type { JobStatusReply } from '../../../src/shared/api/capture.js';
import { AdvisorError } from '../../../src/shared/errors.js';
import { runLiveCapture, windowRestartNote } from '../../../src/renderer/state/live-capture.js';
import {
  epoch,
  initialTopQueries,
  isRunning,
  jobError,
  listFromJob,
  parseWindow,
  progressPercent,
  topQueriesReducer,
  type LiveProgress,
  type TopQueriesAction,
  type TopQueriesState,
} from '../../../src/renderer/state/top-queries.js';

function reduce(state: TopQueriesState, ...actions: TopQueriesAction[]): TopQueriesState {
  return actions.reduce(topQueriesReducer, state);
}

const list = { source: { kind: 'file' as const, label: 'x.log' }, events: 1, classes: [], timeline: null };

describe('top queries reducer', () => {
  it('sorting: a new column sorts descending first, the same column flips', () => {
    let state = reduce(initialTopQueries, { type: 'sort/clicked', key: 'count' });
    expect(state.sort).toEqual({ key: 'count', descending: true });
    state = reduce(state, { type: 'sort/clicked', key: 'count' });
    expect(state.sort).toEqual({ key: 'count', descending: false });
    state = reduce(state, { type: 'sort/clicked', key: 'totalSeconds' });
    expect(state.sort).toEqual({ key: 'totalSeconds', descending: true });
  });

  it('a new run clears the previous list, job, error, selection, histogram, more-cursor and note; keeps inputs', () => {
    const job = {
      jobId: 'j',
      kind: 'digest',
      state: 'running',
      progress: { elapsedMs: 1 },
    } as JobStatusReply;
    let state = reduce(
      initialTopQueries,
      { type: 'path/changed', path: '/var/log/slow.log' },
      { type: 'filter/changed', filter: 'orders' },
      { type: 'list/shown', list },
      { type: 'class/selected', id: 'a' },
      { type: 'histogram/loaded', id: 'a', value: null },
      { type: 'table/more', cursor: { position: 3, anchor: null } },
      { type: 'restart/noted', note: 'restarted' },
      { type: 'run/failed', error: { code: 'X', message: 'x' } },
      { type: 'job/updated', status: job },
    );
    expect(isRunning(state)).toBe(true);
    state = reduce(state, { type: 'run/reset' });
    expect(state).toMatchObject({
      job: null,
      list: null,
      error: null,
      selected: null,
      histogram: null,
      tableMore: null,
      restartNote: null,
    });
    expect(state.path).toBe('/var/log/slow.log');
    expect(state.filter).toBe('orders');
    expect(isRunning(state)).toBe(false);
  });

  it('choosing a source clears the error; a shown list clears the selection; running covers the three kinds', () => {
    const failed = reduce(initialTopQueries, { type: 'run/failed', error: { code: 'X', message: 'x' } });
    expect(reduce(failed, { type: 'source/chosen', source: 'table' })).toMatchObject({
      source: 'table',
      error: null,
    });
    expect(
      reduce(initialTopQueries, { type: 'class/selected', id: 'a' }, { type: 'list/shown', list }).selected,
    ).toBeNull();
    expect(isRunning(reduce(initialTopQueries, { type: 'table/busy', busy: true }))).toBe(true);
    const live: LiveProgress = { elapsedMs: 0, totalMs: 1000, steps: 0 };
    expect(isRunning(reduce(initialTopQueries, { type: 'live/progress', live }))).toBe(true);
  });

  it('helpers: window bounds, job errors, progress percent, log times', () => {
    expect(parseWindow('30')).toBe(30);
    for (const bad of ['0', '-1', 'abc', '86401', ''])
      expect(parseWindow(bad)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(
      jobError({
        jobId: 'j',
        kind: 'digest',
        state: 'failed',
        progress: { elapsedMs: 0 },
        error: { code: 'NOT_FOUND', message: 'no file', hint: 'check' },
      }),
    ).toEqual({ code: 'NOT_FOUND', message: 'no file', hint: 'check' });
    expect(progressPercent({ elapsedMs: 5, bytesRead: 25, totalBytes: 100 })).toBe(25);
    expect(progressPercent({ elapsedMs: 15_000, totalMs: 10_000 })).toBe(100);
    expect(progressPercent({ elapsedMs: 5 })).toBeNull();
    expect(epoch('2024-05-01 10:00:00')).toBe(Date.parse('2024-05-01T10:00:00Z') / 1000);
    expect(epoch('2024-05-01T10:00:00+02:00')).toBe(Date.parse('2024-05-01T08:00:00Z') / 1000);
    expect(epoch(null)).toBeNull();
  });

  it('listFromJob: a digest job is a file list; a slow-log window is a slow_log list; running is nothing', () => {
    const global = { events: 7 };
    const digest = {
      jobId: 'j',
      kind: 'digest',
      state: 'done',
      progress: { elapsedMs: 1 },
      result: { global, classes: [{ id: 'c' }], timeline: null },
    } as unknown as JobStatusReply;
    expect(listFromJob(digest, 'a.log')).toMatchObject({
      source: { kind: 'file', label: 'a.log' },
      events: 7,
      classes: [{ id: 'c' }],
    });
    expect(listFromJob({ ...digest, state: 'running' }, 'a.log')).toBeNull();
    const windowJob = {
      ...digest,
      kind: 'capture.slowLogWindow',
      result: {
        global,
        classes: [],
        timeline: { start: 0, bucketSeconds: 1, counts: [], querySeconds: [], untimed: 0 },
      },
    } as unknown as JobStatusReply;
    expect(listFromJob(windowJob, 'w')).toMatchObject({
      source: { kind: 'slow_log', label: 'w' },
      events: 7,
      classes: [],
    });
  });
});

function row(digest: string, count: number): DigestRow {
  const counters = {} as Record<DigestCounter, bigint>;
  for (const name of Object.keys(digestCounterColumns) as DigestCounter[]) counters[name] = 0n;
  counters.count = BigInt(count);
  counters.timerWait = BigInt(count) * 1_000_000_000n;
  return {
    schema: 'app',
    digest,
    counters,
    maxTimerWait: 1_000_000_000n,
    firstSeen: 1000,
    lastSeen: 1000,
    digestText: `SELECT * FROM \`t${digest}\` WHERE \`v\` = ?`,
  };
}

/** A server whose digest counters follow `script` (one snapshot per call), deltas by the real core. */
function fakeServer(script: { uptime: number; rows: DigestRow[] }[], failures: unknown[] = []) {
  const snapshots = new Map<string, DigestSnapshot>();
  let taken = 0;
  const calls: string[] = [];
  const api = {
    async 'capture.snapshot'() {
      calls.push('snapshot');
      const failure = failures.shift();
      if (failure) throw failure;
      const step = script[Math.min(taken, script.length - 1)]!;
      // Past the script the server keeps running: its uptime goes on with the clock.
      const uptime = step.uptime + 5 * Math.max(0, taken - (script.length - 1));
      const snapshot: DigestSnapshot = {
        takenAt: 2000 + taken * 5,
        uptime,
        digestLost: 0,
        truncated: false,
        rows: step.rows,
      };
      const snapshotId = `s${taken++}`;
      snapshots.set(snapshotId, snapshot);
      return {
        snapshotId,
        takenAt: new Date(snapshot.takenAt * 1000).toISOString(),
        rows: step.rows.length,
        truncated: false,
      };
    },
    async 'capture.delta'(request: { fromSnapshotId: string; toSnapshotId?: string; limit?: number }) {
      calls.push(`delta ${request.fromSnapshotId}-${request.toSnapshotId}`);
      return computeDigestDelta(
        snapshots.get(request.fromSnapshotId)!,
        snapshots.get(request.toSnapshotId!)!,
        request.limit ? { limit: request.limit } : {},
      );
    },
  } as unknown as Pick<AdvisorApi, 'capture.snapshot' | 'capture.delta'>;
  return { api, calls };
}

/** A clock that the loop's waits advance (no real time passes). */
function fakeTime() {
  let now = 0;
  return {
    now: () => now,
    wait: async (ms: number) => {
      now += ms;
    },
  };
}

describe('live-digest window (runLiveCapture)', () => {
  it('20 steps give the timeline and per-class counts; the table is the whole window', async () => {
    const script = Array.from({ length: 22 }, (_, step) => ({
      uptime: 100 + step * 5,
      rows: [row('a', step * 2), row('b', step)],
    }));
    const { api } = fakeServer(script);
    const progress: LiveProgress[] = [];
    const time = fakeTime();
    const result = await runLiveCapture({
      api,
      connectionId: 'c',
      totalSeconds: 40,
      signal: new AbortController().signal,
      linkUp: () => true,
      onProgress: (p) => progress.push(p),
      onRestart: () => undefined,
      ...time,
    });
    expect(result!.list.timeline!.counts).toEqual(Array(20).fill(3));
    expect(result!.list.events).toBe(60);
    expect(result!.stepCounts.get('app/a')).toEqual(Array(20).fill(2));
    expect(result!.list.classes.map((entry) => entry.id)).toEqual(['app/a', 'app/b']);
    expect(progress.at(-1)).toMatchObject({ steps: 20, totalMs: 40_000, paused: false });
    expect(result!.note).toBeNull();
  });

  it('a server restart re-baselines the window and says so; the timeline keeps the earlier steps', async () => {
    const script = [
      { uptime: 100, rows: [row('a', 10)] },
      { uptime: 105, rows: [row('a', 14)] },
      { uptime: 3, rows: [row('a', 1)] }, // restarted: counters from zero
      { uptime: 8, rows: [row('a', 6)] },
    ];
    const { api } = fakeServer(script);
    const notes: string[] = [];
    const result = await runLiveCapture({
      api,
      connectionId: 'c',
      totalSeconds: 3,
      signal: new AbortController().signal,
      linkUp: () => true,
      onProgress: () => undefined,
      onRestart: (note) => notes.push(note),
      ...fakeTime(),
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Uptime went from 105 s to 3 s');
    expect(result!.list.timeline!.counts.length).toBe(3);
    // The table covers only the time since the restart: 6 - 1.
    expect(result!.list.events).toBe(5);
    expect(
      windowRestartNote({ from: { uptime: 9 }, to: { takenAt: new Date(10_000).toISOString(), uptime: 1 } }),
    ).toContain('from 9 s to 1 s');
  });

  it('pauses while the link is down or the connection is lost, then goes on with the same baseline', async () => {
    const { api, calls } = fakeServer(
      [
        { uptime: 100, rows: [row('a', 1)] },
        { uptime: 105, rows: [row('a', 4)] },
      ],
      [new AdvisorError('CONNECTION_LOST', 'down')],
    );
    let up = false;
    const progress: LiveProgress[] = [];
    const time = fakeTime();
    const result = await runLiveCapture({
      api,
      connectionId: 'c',
      totalSeconds: 5,
      signal: new AbortController().signal,
      linkUp: () => {
        const was = up;
        up = true; // down once, then back
        return was;
      },
      onProgress: (p) => progress.push(p),
      onRestart: () => undefined,
      ...time,
    });
    expect(progress.some((p) => p.paused)).toBe(true);
    expect(calls[0]).toBe('snapshot'); // the failed one, retried
    expect(result!.list.events).toBe(3);
  });

  it('stopped before the first snapshot: nothing; a non-connection error is thrown', async () => {
    const controller = new AbortController();
    controller.abort();
    const { api, calls } = fakeServer([{ uptime: 1, rows: [] }]);
    expect(
      await runLiveCapture({
        api,
        connectionId: 'c',
        totalSeconds: 5,
        signal: controller.signal,
        linkUp: () => true,
        onProgress: () => undefined,
        onRestart: () => undefined,
        ...fakeTime(),
      }),
    ).toBeNull();
    expect(calls).toEqual([]);
    const failing = fakeServer([{ uptime: 1, rows: [] }], [new AdvisorError('PRIVILEGE_MISSING', 'grant')]);
    await expect(
      runLiveCapture({
        api: failing.api,
        connectionId: 'c',
        totalSeconds: 5,
        signal: new AbortController().signal,
        linkUp: () => true,
        onProgress: () => undefined,
        onRestart: () => undefined,
        ...fakeTime(),
      }),
    ).rejects.toMatchObject({ code: 'PRIVILEGE_MISSING' });
  });
});
