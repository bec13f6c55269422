// The Top queries panel's state (source, run, list, table view, details) and its reducer, with the pure helpers it needs.
/*
 * Design note: one discriminated-union action per thing that can happen in the panel; the reducer
 * is pure and unit-tested (tests/unit/renderer/top-queries-state.test.ts). Running a source is done
 * by hooks: state/job.ts follows a background job (digest file, slow-log window) through its
 * events, state/live-capture.ts runs the live-digest window. They dispatch what they learn.
 */
import {
  topClassesFromDigest,
  type LatencyHistogram,
  type SlowLogWindowPlan,
  type TopClass,
  type TopClassList,
  type TopSortKey,
  type WorkloadTimeline,
} from '../../core/capture/index.js';
import type { DigestResult } from '../../core/slowlog/digest.js';
import type { JobProgressReply, JobStatusReply, SlowLogTableReply } from '../../shared/api/capture.js';
import type { ShownError } from '../components/error-box.js';
import {
  initialTopHistory,
  topHistoryReducer,
  type TopHistoryAction,
  type TopHistoryState,
} from './top-history.js';

export type TopSource = 'file' | 'digests' | 'table';

/** A running live capture: elapsed/total for the progress line. */
export interface LiveProgress {
  elapsedMs: number;
  totalMs: number;
  steps: number;
  /** The connection is down: no snapshot is taken until it is back (the baseline is kept). */
  paused?: boolean;
}

/** The live window shown: when its first snapshot was taken (ISO) and how many seconds it covers so far. */
export interface LiveWindowInfo {
  startedAt: string;
  seconds: number;
}

/** Per-class statement counts for each live step (the selected class's own bars on the timeline). */
export type StepCounts = Map<string, number[]>;

export type TopSort = { key: TopSortKey; descending: boolean };

export interface TopQueriesState {
  source: TopSource;
  path: string;
  windowSeconds: string;
  /** The background job's last status (digest file, slow-log window). */
  job: JobStatusReply | null;
  live: LiveProgress | null;
  /** A mysql.slow_log read is in flight. */
  busy: boolean;
  list: TopClassList | null;
  /** Changes when a new list replaces the table (it scrolls back to the top); a live refresh keeps it. */
  listKey: number;
  /** The live window the list shows (null: the list is not a live window). */
  liveWindow: LiveWindowInfo | null;
  stepCounts: StepCounts | null;
  /** Where "Read more rows" continues; null when the table was read to its end. */
  tableMore: SlowLogTableReply['cursor'] | null;
  error: ShownError | null;
  sort: TopSort;
  filter: string;
  selected: string | null;
  useNormalized: boolean;
  /** The server's latency histogram of the selected live digest (null: none). */
  histogram: { id: string; value: LatencyHistogram | null } | null;
  /** The slow-log window's plan, shown for consent. */
  consent: { plan: SlowLogWindowPlan; seconds: number } | null;
  restartNote: string | null;
  /** The shown window in the capture history: its recording, trends, the selected class's windows, settings. */
  history: TopHistoryState;
}

export type TopQueriesAction =
  | { type: 'source/chosen'; source: TopSource }
  | { type: 'path/changed'; path: string }
  | { type: 'window/changed'; windowSeconds: string }
  | { type: 'filter/changed'; filter: string }
  | { type: 'sort/clicked'; key: TopSortKey }
  | { type: 'class/selected'; id: string | null }
  | { type: 'statement/normalized'; normalized: boolean }
  /** A new run starts: the previous list, job, error and notes go. */
  | { type: 'run/reset' }
  | { type: 'run/failed'; error: ShownError | null }
  | { type: 'job/updated'; status: JobStatusReply | null }
  | { type: 'live/progress'; live: LiveProgress | null }
  | { type: 'table/busy'; busy: boolean }
  | { type: 'list/shown'; list: TopClassList }
  | { type: 'steps/counted'; stepCounts: StepCounts }
  /** The live window so far, after each poll: the table refreshes, the selection and scroll stay. */
  | { type: 'live/window'; list: TopClassList; stepCounts: StepCounts; window: LiveWindowInfo }
  | { type: 'table/more'; cursor: SlowLogTableReply['cursor'] | null }
  | { type: 'histogram/loaded'; id: string; value: LatencyHistogram | null }
  | { type: 'consent/asked'; plan: SlowLogWindowPlan; seconds: number }
  | { type: 'consent/closed' }
  | { type: 'restart/noted'; note: string }
  | TopHistoryAction;

export const initialTopQueries: TopQueriesState = {
  source: 'file',
  path: '',
  windowSeconds: '30',
  job: null,
  live: null,
  busy: false,
  list: null,
  listKey: 0,
  liveWindow: null,
  stepCounts: null,
  tableMore: null,
  error: null,
  sort: { key: 'totalSeconds', descending: true },
  filter: '',
  selected: null,
  useNormalized: false,
  histogram: null,
  consent: null,
  restartNote: null,
  history: initialTopHistory,
};

function isHistoryAction(action: TopQueriesAction): action is TopHistoryAction {
  return action.type.startsWith('history/');
}

export function topQueriesReducer(state: TopQueriesState, action: TopQueriesAction): TopQueriesState {
  if (isHistoryAction(action)) return { ...state, history: topHistoryReducer(state.history, action) };
  switch (action.type) {
    case 'source/chosen':
      return { ...state, source: action.source, error: null };
    case 'path/changed':
      return { ...state, path: action.path };
    case 'window/changed':
      return { ...state, windowSeconds: action.windowSeconds };
    case 'filter/changed':
      return { ...state, filter: action.filter };
    case 'sort/clicked':
      // A new column sorts descending first; the same column flips.
      return {
        ...state,
        sort: { key: action.key, descending: state.sort.key === action.key ? !state.sort.descending : true },
      };
    case 'class/selected':
      return { ...state, selected: action.id };
    case 'statement/normalized':
      return { ...state, useNormalized: action.normalized };
    case 'run/reset':
      return {
        ...state,
        error: null,
        job: null,
        list: null,
        listKey: state.listKey + 1,
        liveWindow: null,
        stepCounts: null,
        selected: null,
        histogram: null,
        tableMore: null,
        restartNote: null,
        history: topHistoryReducer(state.history, { type: 'history/reset' }),
      };
    case 'run/failed':
      return { ...state, error: action.error };
    case 'job/updated':
      return { ...state, job: action.status };
    case 'live/progress':
      return { ...state, live: action.live };
    case 'table/busy':
      return { ...state, busy: action.busy };
    case 'list/shown':
      return { ...state, list: action.list, listKey: state.listKey + 1, liveWindow: null, selected: null };
    case 'live/window':
      return {
        ...state,
        list: action.list,
        stepCounts: action.stepCounts,
        liveWindow: action.window,
        listKey: state.liveWindow ? state.listKey : state.listKey + 1,
        selected:
          state.selected !== null && action.list.classes.some((entry) => entry.id === state.selected)
            ? state.selected
            : null,
      };
    case 'steps/counted':
      return { ...state, stepCounts: action.stepCounts };
    case 'table/more':
      return { ...state, tableMore: action.cursor };
    case 'histogram/loaded':
      return { ...state, histogram: { id: action.id, value: action.value } };
    case 'consent/asked':
      return { ...state, consent: { plan: action.plan, seconds: action.seconds } };
    case 'consent/closed':
      return { ...state, consent: null };
    case 'restart/noted':
      return { ...state, restartNote: action.note };
  }
}

/** Something runs: the source choice and Start are disabled. */
export function isRunning(state: TopQueriesState): boolean {
  return state.busy || state.job?.state === 'running' || state.live !== null;
}

/** The window length typed, or the error to show. */
export function parseWindow(text: string): number | ShownError {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
    return { code: 'INVALID_INPUT', message: 'Enter a window between 1 and 86400 seconds.' };
  }
  return value;
}

/** The error a finished job reports, in the shape the panel shows. */
export function jobError(status: JobStatusReply): ShownError | null {
  if (!status.error) return null;
  return {
    code: status.error.code,
    message: status.error.message,
    ...(status.error.hint ? { hint: status.error.hint } : {}),
  };
}

/** The class list of a finished job (digest file or slow-log window); null while it runs or without a result. */
export function listFromJob(status: JobStatusReply, label: string): TopClassList | null {
  if (status.state !== 'done' || !status.result) return null;
  if (status.kind === 'digest') {
    // Requested with view: 'top', so the classes are already rows.
    const result = status.result as Omit<DigestResult, 'classes'> & {
      classes: TopClass[];
      timeline?: WorkloadTimeline | null;
    };
    return {
      source: { kind: 'file', label },
      events: result.global.events,
      classes: result.classes,
      timeline: result.timeline ?? null,
    };
  }
  const result = status.result as SlowLogTableReply;
  return {
    source: { kind: 'slow_log', label },
    events: result.global.events,
    classes: topClassesFromDigest(result),
    timeline: result.timeline,
  };
}

/** Percent done for the progress bar: bytes read of a file, or time of a timed window; null when unknown. */
export function progressPercent(progress: JobProgressReply | undefined): number | null {
  if (progress?.bytesRead !== undefined && progress.totalBytes) {
    return Math.round((progress.bytesRead / progress.totalBytes) * 100);
  }
  return progress?.totalMs ? Math.min(100, Math.round((progress.elapsedMs / progress.totalMs) * 100)) : null;
}

/** The time of a log's `firstSeen`/`lastSeen` text (UTC unless it says otherwise), in epoch seconds. */
export function epoch(text: string | null): number | null {
  if (!text) return null;
  const value = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  return Number.isFinite(value) ? value / 1000 : null;
}
