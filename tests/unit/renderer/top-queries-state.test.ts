// The Top queries panel's reducer, helpers and live-digest loop (state/top-queries.ts, state/live-capture.ts) without a DOM.
import { describe, expect, it } from 'vitest';
import {
  DigestDeltaAccumulator,
  digestCounterColumns,
  type TopClass,
  type DigestCounter,
  type DigestRow,
  type DigestSnapshot,
} from '../../../src/core/capture/index.js';
import type { AdvisorApi } from '../../../src/shared/api.js';
import type { JobStatusReply } from '../../../src/shared/api/capture.js';
import { AdvisorError } from '../../../src/shared/errors.js';
import {
  runLiveCapture,
  windowRestartNote,
  type LiveWindowView,
} from '../../../src/renderer/state/live-capture.js';
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

  it('a live refresh keeps the selection while the class is there and does not scroll the table back; a new list does', () => {
    const window = { startedAt: '2026-01-01T00:00:00.000Z', seconds: 3 };
    const stepCounts = new Map([['app/a', [1]]]);
    const live = { ...list, classes: [{ id: 'app/a', count: 1 } as unknown as TopClass] };
    let state = reduce(initialTopQueries, { type: 'run/reset' });
    const key = state.listKey;
    state = reduce(state, { type: 'live/window', list: live, stepCounts, window });
    expect(state.listKey).toBe(key + 1);
    const firstKey = state.listKey;
    state = reduce(
      state,
      { type: 'class/selected', id: 'app/a' },
      { type: 'live/window', list: { ...live }, stepCounts, window: { ...window, seconds: 6 } },
    );
    expect(state).toMatchObject({ selected: 'app/a', listKey: firstKey, liveWindow: { seconds: 6 } });
    state = reduce(state, { type: 'live/window', list, stepCounts, window });
    expect(state.selected).toBeNull();
    state = reduce(state, { type: 'list/shown', list });
    expect(state.liveWindow).toBeNull();
    expect(state.listKey).toBe(firstKey + 1);
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

/**
 * A server whose digest counters follow `script` (one snapshot per call), with the service's
 * polling windows played by the real core accumulator.
 */
function fakeServer(script: { uptime: number; rows: DigestRow[] }[], failures: unknown[] = []) {
  let taken = 0;
  const calls: string[] = [];
  const windows = new Map<string, DigestDeltaAccumulator>();
  function snapshot(): DigestSnapshot {
    const failure = failures.shift();
    if (failure) throw failure;
    const step = script[Math.min(taken, script.length - 1)]!;
    // Past the script the server keeps running: its uptime goes on with the clock.
    const uptime = step.uptime + 5 * Math.max(0, taken - (script.length - 1));
    const taken_ = { takenAt: 2000 + taken * 5, uptime, digestLost: 0, truncated: false, rows: step.rows };
    taken++;
    return taken_;
  }
  const api = {
    async 'capture.windowStart'() {
      calls.push('start');
      const first = snapshot();
      const windowId = `w${windows.size}`;
      windows.set(windowId, new DigestDeltaAccumulator(first));
      return { windowId, takenAt: new Date(first.takenAt * 1000).toISOString() };
    },
    async 'capture.windowPoll'(request: { windowId: string }) {
      calls.push('poll');
      const accumulator = windows.get(request.windowId)!;
      accumulator.add(snapshot());
      return accumulator.result();
    },
    async 'capture.windowEnd'(request: { windowId: string }) {
      calls.push('end');
      return { ended: windows.delete(request.windowId) };
    },
  } as unknown as Pick<AdvisorApi, 'capture.windowStart' | 'capture.windowPoll' | 'capture.windowEnd'>;
  return { api, calls, windows };
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
  it('20 steps give the timeline and per-class counts; the table is the whole window, shown after every poll', async () => {
    const script = Array.from({ length: 22 }, (_, step) => ({
      uptime: 100 + step * 5,
      // b starts in the 5th step: its own bars begin there.
      // (first seen between the 4th and 5th snapshot, taken at 2020 and 2025).
      rows: [row('a', step * 2), ...(step >= 5 ? [{ ...row('b', step - 4), firstSeen: 2022 }] : [])],
    }));
    const { api, calls, windows } = fakeServer(script);
    const progress: LiveProgress[] = [];
    const views: LiveWindowView[] = [];
    const time = fakeTime();
    const result = await runLiveCapture({
      api,
      connectionId: 'c',
      totalSeconds: 40,
      signal: new AbortController().signal,
      linkUp: () => true,
      onProgress: (p) => progress.push(p),
      onRestart: () => undefined,
      onWindow: (view) => views.push(view),
      ...time,
    });
    expect(calls).toEqual(['start', ...Array(20).fill('poll'), 'end']);
    expect(windows.size).toBe(0);
    expect(result!.list.timeline!.counts).toEqual([2, 2, 2, 2, 3, ...Array(15).fill(3)]);
    expect(result!.list.events).toBe(40 + 16);
    expect(result!.stepCounts.get('app/a')).toEqual(Array(20).fill(2));
    expect(result!.stepCounts.get('app/b')).toEqual(
      Array.from({ length: 20 }, (_, i) => (i < 4 ? undefined : 1)),
    );
    expect(result!.list.classes.map((entry) => entry.id)).toEqual(['app/a', 'app/b']);
    expect(progress.at(-1)).toMatchObject({ steps: 20, totalMs: 40_000, paused: false });
    expect(result!.note).toBeNull();
    // An empty view right after the first snapshot, then the window so far after each of the 20 polls.
    expect(views).toHaveLength(21);
    expect(views[0]!.list.classes).toEqual([]);
    expect(views[0]!.window).toEqual({ startedAt: new Date(2000_000).toISOString(), seconds: 0 });
    expect(views.map((view) => view.list.events)).toEqual(
      Array.from({ length: 21 }, (_, i) => 2 * i + Math.max(0, i - 4)),
    );
    expect(views[3]!.window).toEqual({ startedAt: new Date(2000_000).toISOString(), seconds: 15 });
    expect(views[3]!.list.timeline!.counts).toEqual([2, 2, 2]);
  });

  it('a server restart is said once; the window keeps what ran before it and adds what ran since', async () => {
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
    // 4 before the restart, 1 since the restart up to the next poll (counters from zero), then 5.
    expect(result!.list.timeline!.counts).toEqual([4, 1, 5]);
    expect(result!.list.events).toBe(10);
    // Said once, by the restart note: not again as the window's note.
    expect(result!.note).toBeNull();
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
    expect(calls.slice(0, 2)).toEqual(['start', 'start']); // the failed one, retried
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
