// The live-digest window of the Top queries panel: the service's polling window, shown after every poll, with the timeline's steps.
import { useCallback, useEffect, useRef } from 'react';
import {
  topClassesFromDelta,
  type DigestDelta,
  type TopClass,
  type TopClassList,
} from '../../core/capture/index.js';
import type { AdvisorApi } from '../../shared/api.js';
import type { HistoryRecordReply } from '../../shared/api/history.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import {
  parseWindow,
  type LiveProgress,
  type LiveWindowInfo,
  type StepCounts,
  type TopQueriesAction,
} from './top-queries.js';

/** Live capture: snapshots per window (the service keeps 32). */
export const LIVE_STEPS = 20;

function clock(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleTimeString();
}

/**
 * The note shown when a poll says the server restarted: performance_schema counters start from
 * zero at a restart. The polling window (the service's accumulator) keeps what ran up to the last
 * snapshot before the restart and adds what ran since; only the time between that snapshot and
 * the restart is unknown.
 */
export function windowRestartNote(step: {
  from: { uptime: number };
  to: { takenAt: string; uptime: number };
}): string {
  const at = Date.parse(step.to.takenAt) / 1000 - step.to.uptime;
  return (
    `The server restarted at about ${clock(at)} (Uptime went from ${step.from.uptime} s to ${step.to.uptime} s): ` +
    'its performance_schema counters started again from zero. The window keeps what ran up to the last snapshot before the restart and adds what ran since; ' +
    'what ran between that snapshot and the restart is not counted.'
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

/** The window so far, as the panel shows it after each poll. */
export interface LiveWindowView {
  list: TopClassList;
  stepCounts: StepCounts;
  /** When the window's first snapshot was taken (ISO) and how long it covers so far. */
  window: LiveWindowInfo;
}

export interface LiveCaptureOptions {
  api: Pick<AdvisorApi, 'capture.windowStart' | 'capture.windowPoll' | 'capture.windowEnd'>;
  connectionId: string;
  totalSeconds: number;
  signal: AbortSignal;
  /** False while the connection is down (read between steps). */
  linkUp(): boolean;
  onProgress(live: LiveProgress): void;
  onRestart(note: string): void;
  /** The window so far, after its first snapshot and after every poll. */
  onWindow?(view: LiveWindowView): void;
  /** Read when the window ends: store it in the capture history (default false). */
  record?(): boolean;
  /** Tests pass a fake clock and wait. */
  now?(): number;
  wait?(ms: number, signal: AbortSignal): Promise<void>;
}

export interface LiveCaptureResult extends LiveWindowView {
  /** What the history stored of the window (null: not offered, or the end call failed). */
  recorded: HistoryRecordReply | null;
  /** The delta's notes (digests lost, resets, truncated snapshots), as one note. */
  note: ShownError | null;
}

/** The table's source label of a live window. */
function windowLabel(seconds: number): string {
  return `${Math.round(seconds)} s window`;
}

/**
 * The window's first snapshot, then a poll per step; each poll returns the window so far (the
 * service adds every interval on its own, so resets in between stay exact) and the panel shows it
 * at once. The timeline's steps are the differences between consecutive polls (the accumulated
 * counts only grow). While the connection is down the loop pauses (no call is made, the window
 * stays in the service, which keeps it per connection id across reconnects) and resumes when it is
 * back; a poll that sees a server restart says so. Stopped before the first snapshot: null.
 * Stopped later: the window so far.
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
  const opened = await whileUp(() => api['capture.windowStart']({ connectionId }));
  if (!opened) return null;
  const { windowId } = opened;
  const counts: number[] = [];
  const querySeconds: number[] = [];
  const perClass: StepCounts = new Map();
  let previous: { delta: DigestDelta; classes: TopClass[] } | null = null;
  let view: LiveWindowView = {
    list: {
      source: { kind: 'performance_schema', label: windowLabel(0) },
      events: 0,
      classes: [],
      timeline: null,
    },
    stepCounts: perClass,
    window: { startedAt: opened.takenAt, seconds: 0 },
  };
  options.onWindow?.(view);
  try {
    while (!signal.aborted && now() - started < totalMs) {
      await pause(Math.min(stepMs, Math.max(0, totalMs - (now() - started))), signal);
      if (signal.aborted) break;
      const delta = await whileUp(() => api['capture.windowPoll']({ connectionId, windowId }));
      if (!delta) break;
      if (delta.serverRestarted && !previous?.delta.serverRestarted) {
        options.onRestart(windowRestartNote({ from: (previous?.delta ?? delta).to, to: delta.to }));
      }
      const classes = topClassesFromDelta(delta);
      const index = counts.length;
      counts.push(Math.max(0, delta.totals.count - (previous?.delta.totals.count ?? 0)));
      querySeconds.push(Math.max(0, (delta.totals.totalMs - (previous?.delta.totals.totalMs ?? 0)) / 1000));
      const before = new Map((previous?.classes ?? []).map((row) => [row.id, row.count]));
      for (const row of classes) {
        const step = row.count - (before.get(row.id) ?? 0);
        if (step <= 0) continue;
        const series = perClass.get(row.id) ?? [];
        series[index] = step;
        perClass.set(row.id, series);
      }
      previous = { delta, classes };
      steps = counts.length;
      view = windowView(
        delta,
        classes,
        counts,
        querySeconds,
        new Map([...perClass].map(([id, series]) => [id, [...series]])),
      );
      options.onWindow?.(view);
      showProgress(false);
    }
  } catch (caught) {
    void api['capture.windowEnd']({ connectionId, windowId, record: false }).catch(() => undefined);
    throw caught;
  }
  // The finished window goes to the history (not when the panel went away mid-window).
  const record = options.record?.() ?? false;
  // Said either way: the service stores a polled window unless told `record: false`.
  const ended = await api['capture.windowEnd']({ connectionId, windowId, record }).catch(() => null);
  // A restart was said already (onRestart, with when and the Uptime values): not twice.
  const notes = (previous?.delta.notes ?? []).filter((note) => note.code !== 'server-restarted');
  return {
    ...view,
    recorded: ended?.recorded ?? null,
    note: notes.length > 0 ? { code: 'NOTE', message: notes.map((note) => note.message).join(' ') } : null,
  };
}

/** The panel's view of the window so far. */
function windowView(
  delta: DigestDelta,
  classes: TopClass[],
  counts: number[],
  querySeconds: number[],
  stepCounts: StepCounts,
): LiveWindowView {
  const start = Math.floor(Date.parse(delta.from.takenAt) / 1000);
  const seconds = Math.max(1, Math.round(Date.parse(delta.to.takenAt) / 1000 - start));
  const bucketSeconds = counts.length > 0 ? Math.max(1, Math.round(seconds / counts.length)) : 1;
  return {
    list: {
      source: { kind: 'performance_schema', label: windowLabel(delta.windowSeconds) },
      events: delta.totals.count,
      classes,
      timeline: { start, bucketSeconds, counts: [...counts], querySeconds: [...querySeconds], untimed: 0 },
    },
    stepCounts,
    window: { startedAt: delta.from.takenAt, seconds: delta.windowSeconds },
  };
}

/** Start and stop the live-digest window; progress, the list and errors go to `dispatch`. */
export function useLiveCapture(
  api: AdvisorApi,
  dispatch: (action: TopQueriesAction) => void,
  linkUp: boolean,
): { start(connectionId: string, windowText: string): Promise<void>; stop(): void } {
  const abort = useRef<AbortController | null>(null);
  const unmounted = useRef(false);
  // The capture loop reads the link state between steps (a prop would be stale inside it).
  const linkUpRef = useRef(linkUp);
  linkUpRef.current = linkUp;
  useEffect(() => {
    unmounted.current = false;
    return () => {
      unmounted.current = true;
      abort.current?.abort();
    };
  }, []);
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
          onWindow: (view) => dispatch({ type: 'live/window', ...view }),
          record: () => !unmounted.current,
        });
        if (result) dispatch({ type: 'history/recorded', recorded: result.recorded });
        if (result?.note) dispatch({ type: 'run/failed', error: result.note });
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
