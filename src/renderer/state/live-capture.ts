// The live-digest window of the Top queries panel: snapshots, per-step deltas for the timeline, the window's delta.
import { useCallback, useEffect, useRef } from 'react';
import { topClassesFromDelta, type TopClassList } from '../../core/capture/index.js';
import type { AdvisorApi } from '../../shared/api.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { parseWindow, type LiveProgress, type StepCounts, type TopQueriesAction } from './top-queries.js';

/** Live capture: snapshots per window (the service keeps 32). */
export const LIVE_STEPS = 20;

function clock(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleTimeString();
}

/**
 * The note shown when a step's delta says the server restarted: performance_schema counters start
 * from zero at a restart, so a delta across it would subtract unrelated numbers. The window starts
 * again from the first snapshot after the restart.
 */
export function windowRestartNote(step: {
  from: { uptime: number };
  to: { takenAt: string; uptime: number };
}): string {
  const at = Date.parse(step.to.takenAt) / 1000 - step.to.uptime;
  return (
    `The server restarted at about ${clock(at)} (Uptime went from ${step.from.uptime} s to ${step.to.uptime} s): ` +
    'its performance_schema counters started again from zero, so the window was restarted from the first snapshot after the restart. ' +
    'The table covers only the time since then; the timeline keeps the steps before it.'
  );
}

/** True for the error a managed connection gives while it is down (see main/services/reconnect.ts). */
function isConnectionLost(caught: unknown): boolean {
  return (caught as { code?: unknown } | null)?.code === 'CONNECTION_LOST';
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface LiveCaptureOptions {
  api: Pick<AdvisorApi, 'capture.snapshot' | 'capture.delta'>;
  connectionId: string;
  totalSeconds: number;
  signal: AbortSignal;
  /** False while the connection is down (read between steps). */
  linkUp(): boolean;
  onProgress(live: LiveProgress): void;
  onRestart(note: string): void;
  /** Tests pass a fake clock and wait. */
  now?(): number;
  wait?(ms: number, signal: AbortSignal): Promise<void>;
}

export interface LiveCaptureResult {
  list: TopClassList;
  stepCounts: StepCounts;
  /** The delta's notes (digests lost, truncated snapshots), as one note. */
  note: ShownError | null;
}

/**
 * Snapshot, then a snapshot per step (deltas give the timeline), then the whole window's delta.
 * While the connection is down the loop pauses (no call is made, the baseline snapshot stays in the
 * service, which keeps it per connection id across reconnects) and resumes when it is back; a
 * step whose delta says the server restarted re-baselines the window and says so. Stopped before
 * the first snapshot: null. Stopped later: the window so far.
 */
export async function runLiveCapture(options: LiveCaptureOptions): Promise<LiveCaptureResult | null> {
  const { api, connectionId, totalSeconds, signal } = options;
  const now = options.now ?? Date.now;
  const pause = options.wait ?? wait;
  const totalMs = totalSeconds * 1000;
  const stepMs = Math.max(1000, totalMs / LIVE_STEPS);
  const started = now();
  let steps = 0;
  const showProgress = (paused: boolean) =>
    options.onProgress({ elapsedMs: now() - started, totalMs, steps, paused });
  /** One capture call; while the connection is lost, wait and retry. Null when stopped meanwhile. */
  async function whileUp<T>(call: () => Promise<T>): Promise<T | null> {
    for (;;) {
      if (signal.aborted) return null;
      if (!options.linkUp()) {
        showProgress(true);
        await pause(500, signal);
        continue;
      }
      try {
        return await call();
      } catch (caught) {
        if (!isConnectionLost(caught)) throw caught;
        showProgress(true);
        await pause(1000, signal);
      }
    }
  }
  showProgress(false);
  const firstTaken = await whileUp(() => api['capture.snapshot']({ connectionId }));
  if (!firstTaken) return null;
  let first = firstTaken;
  let previous = first;
  let windowStart: string | null = null;
  const counts: number[] = [];
  const querySeconds: number[] = [];
  const perClass: StepCounts = new Map();
  while (!signal.aborted && now() - started < totalMs) {
    await pause(Math.min(stepMs, Math.max(0, totalMs - (now() - started))), signal);
    const next = await whileUp(() => api['capture.snapshot']({ connectionId }));
    if (!next) break;
    const from = previous;
    const step = await whileUp(() =>
      api['capture.delta']({
        connectionId,
        fromSnapshotId: from.snapshotId,
        toSnapshotId: next.snapshotId,
        limit: 200,
      }),
    );
    if (!step) break;
    windowStart ??= step.from.takenAt;
    if (step.serverRestarted) {
      // Counters went back to zero: a delta from the old baseline would be wrong. Start again.
      options.onRestart(windowRestartNote(step));
      first = next;
    }
    const index = counts.length;
    counts.push(step.totals.count);
    querySeconds.push(step.totals.totalMs / 1000);
    for (const row of topClassesFromDelta(step)) {
      const series = perClass.get(row.id) ?? [];
      series[index] = row.count;
      perClass.set(row.id, series);
    }
    previous = next;
    steps = counts.length;
    showProgress(false);
  }
  const delta = await api['capture.delta']({
    connectionId,
    fromSnapshotId: first.snapshotId,
    toSnapshotId: previous.snapshotId,
  });
  const timelineStart = Math.floor(Date.parse(windowStart ?? delta.from.takenAt) / 1000);
  const timelineSeconds = Math.max(1, Math.round(Date.parse(delta.to.takenAt) / 1000 - timelineStart));
  const bucketSeconds = counts.length > 0 ? Math.max(1, Math.round(timelineSeconds / counts.length)) : 1;
  return {
    list: {
      source: { kind: 'performance_schema', label: `${delta.windowSeconds} s window` },
      events: delta.totals.count,
      classes: topClassesFromDelta(delta),
      timeline: { start: timelineStart, bucketSeconds, counts, querySeconds, untimed: 0 },
    },
    stepCounts: perClass,
    note:
      delta.notes.length > 0
        ? { code: 'NOTE', message: delta.notes.map((note) => note.message).join(' ') }
        : null,
  };
}

/** Start and stop the live-digest window; progress, the list and errors go to `dispatch`. */
export function useLiveCapture(
  api: AdvisorApi,
  dispatch: (action: TopQueriesAction) => void,
  linkUp: boolean,
): { start(connectionId: string, windowText: string): Promise<void>; stop(): void } {
  const abort = useRef<AbortController | null>(null);
  // The capture loop reads the link state between steps (a prop would be stale inside it).
  const linkUpRef = useRef(linkUp);
  linkUpRef.current = linkUp;
  useEffect(() => () => abort.current?.abort(), []);
  const start = useCallback(
    async (connectionId: string, windowText: string) => {
      const total = parseWindow(windowText);
      if (typeof total !== 'number') {
        dispatch({ type: 'run/failed', error: total });
        return;
      }
      dispatch({ type: 'run/reset' });
      const controller = new AbortController();
      abort.current = controller;
      try {
        const result = await runLiveCapture({
          api,
          connectionId,
          totalSeconds: total,
          signal: controller.signal,
          linkUp: () => linkUpRef.current,
          onProgress: (live) => dispatch({ type: 'live/progress', live }),
          onRestart: (note) => dispatch({ type: 'restart/noted', note }),
        });
        if (result) {
          dispatch({ type: 'list/shown', list: result.list });
          dispatch({ type: 'steps/counted', stepCounts: result.stepCounts });
          if (result.note) dispatch({ type: 'run/failed', error: result.note });
        }
      } catch (caught) {
        dispatch({ type: 'run/failed', error: toShownError(caught) });
      } finally {
        abort.current = null;
        dispatch({ type: 'live/progress', live: null });
      }
    },
    [api, dispatch],
  );
  const stop = useCallback(() => abort.current?.abort(), []);
  return { start, stop };
}
