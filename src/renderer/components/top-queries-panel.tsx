// The Top queries panel: pick a source (slow-log file, live performance_schema digests, mysql.slow_log, a consented slow-log window), rank classes in a virtualized table, chart them, export them, send one to the Advisor or EXPLAIN.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type SetStateAction,
} from 'react';
import {
  rebinLatency,
  selectTopClasses,
  topClassesFromDelta,
  topClassesFromDigest,
  topClassesToCsv,
  topClassesToJson,
  type LatencyHistogram,
  type SlowLogWindowPlan,
  type TopClass,
  type TopClassList,
  type TopExecution,
  type TopSortKey,
  type WorkloadTimeline,
} from '../../core/capture/index.js';
import type { DigestResult } from '../../core/slowlog/digest.js';
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply, SlowLogTableReply } from '../../shared/api/capture.js';
import { formatBytes, formatCount } from '../plan-view.js';
import { placeholderOffsets } from '../placeholders.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { ConfirmDialog } from './modal.js';
import { productionField } from './production-confirm.js';
import { LatencyChart, TimelineChart } from './top-charts.js';

/** Props of {@link TopQueriesPanel}. */
export interface TopQueriesPanelProps {
  api: AdvisorApi;
  connected: boolean;
  /** The live connection (live digests, mysql.slow_log and the slow-log window need one). */
  connectionId?: string | null;
  /** The profile name to type before the slow-log window on a production connection; null otherwise. */
  production?: string | null;
  /** Open the class's example in a new editor tab and analyze it (and EXPLAIN it when `explain`). */
  onSend(sql: string, explain: boolean): void;
  /** False while the connection is lost (the status bar's reconnect state): a live capture pauses, then resumes. */
  linkUp?: boolean;
}

type Source = 'file' | 'digests' | 'table';

const sourceLabels: Record<Source, string> = {
  file: 'Slow log file',
  digests: 'Live digests',
  table: 'mysql.slow_log',
};

const columns: { key: TopSortKey; label: string }[] = [
  { key: 'totalSeconds', label: 'Total' },
  { key: 'count', label: 'Count' },
  { key: 'avg', label: 'Avg' },
  { key: 'p95', label: '95th' },
  { key: 'max', label: 'Max' },
  { key: 'lockSeconds', label: 'Lock' },
  { key: 'rowsExamined', label: 'Rows exam.' },
  { key: 'rowsSent', label: 'Rows sent' },
];

/** Row height of the virtualized table (CSS keeps every row on one line at this height). */
const ROW_HEIGHT = 26;
function rowHeight(): number {
  return ROW_HEIGHT;
}
/** Live capture: snapshots per window (the service keeps 32). */
const LIVE_STEPS = 20;

function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value >= 1) return `${value.toFixed(2)} s`;
  if (value >= 0.001) return `${(value * 1000).toFixed(1)} ms`;
  return `${Math.round(value * 1_000_000)} µs`;
}

// Number formatters made once: toLocaleString with options builds a new formatter on every call,
// which was the largest cost of rendering rows while scrolling (profiled at 100k classes).
const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Like plan-view's formatCount (same output), with the cached formatters. */
function count(value: number | null): string {
  if (value === null) return '—';
  if (value >= 10_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  return Math.round(value * 100) % 100 === 0
    ? wholeNumber.format(Math.round(value))
    : twoDecimals.format(value);
}

const EXECUTION_LABELS: [keyof TopExecution, string, string][] = [
  ['tmpTables', 'tmp tables', 'Internal temporary tables created (or statements that used one)'],
  ['tmpDiskTables', 'on disk', 'Temporary tables created on disk'],
  ['filesorts', 'sorts', 'Sorts done (filesort)'],
  ['fullScans', 'full scans', 'Statements that scanned a whole table'],
  ['fullJoins', 'full joins', 'Joins that used no index'],
];

/** Tmp tables, sorts, scans of the selected class; only the counters the source has. */
function ExecutionLine({ execution }: { execution: TopExecution }) {
  const known = EXECUTION_LABELS.filter(([key]) => execution[key] !== null);
  if (known.length === 0) {
    return (
      <p className="status-bar__muted" data-testid="top-execution">
        No tmp-table, sort or scan counters in this source (MySQL: log_slow_extra=ON; MariaDB:
        log_slow_verbosity=query_plan).
      </p>
    );
  }
  return (
    <p className="status-bar__muted" data-testid="top-execution">
      {known.map(([key, label, title], index) => (
        <span key={key} title={title} className={execution[key]! > 0 ? 'top__execution--hot' : undefined}>
          {index > 0 ? ' · ' : ''}
          {label} {count(execution[key])}
        </span>
      ))}
    </p>
  );
}

function epoch(text: string | null): number | null {
  if (!text) return null;
  const value = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  return Number.isFinite(value) ? value / 1000 : null;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

/** A running live capture: elapsed/total for the progress line. */
interface LiveProgress {
  elapsedMs: number;
  totalMs: number;
  steps: number;
  /** The connection is down: no snapshot is taken until it is back (the baseline is kept). */
  paused?: boolean;
}

/** True for the error a managed connection gives while it is down (see main/services/reconnect.ts). */
function isConnectionLost(caught: unknown): boolean {
  return (caught as { code?: unknown } | null)?.code === 'CONNECTION_LOST';
}

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

/** Per-class statement counts for each live step (the selected class's own bars on the timeline). */
type StepCounts = Map<string, number[]>;

type Sort = { key: TopSortKey; descending: boolean };

/**
 * The virtualized class table: only the rows in view (plus a few) are in the DOM, between two
 * spacer rows, so 100k classes scroll like 20. Its own component, so scrolling re-renders the
 * rows only, not the charts and details.
 */
const ClassTable = memo(function ClassTable({
  classes,
  empty,
  selected,
  onSelect,
  sort,
  onSort,
  resetKey,
}: {
  classes: TopClass[];
  empty: string;
  selected: string | null;
  onSelect(id: string): void;
  sort: Sort;
  onSort: Dispatch<SetStateAction<Sort>>;
  /** A new list scrolls back to the top. */
  resetKey: unknown;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: classes.length,
    getScrollElement: useCallback(() => scroller.current, []),
    // Stable identity: a new function would make the virtualizer re-measure all rows on each render.
    estimateSize: rowHeight,
    overscan: 6,
  });
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [resetKey]);
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;

  function move(event: KeyboardEvent<HTMLDivElement>) {
    if (classes.length === 0) return;
    const index = classes.findIndex((entry) => entry.id === selected);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 260) / ROW_HEIGHT) - 2);
    const next = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: classes.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const clamped = Math.min(classes.length - 1, Math.max(0, next));
    onSelect(classes[clamped]!.id);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  }

  return (
    <div
      className="top__table-wrap"
      ref={scroller}
      tabIndex={0}
      onKeyDown={move}
      aria-label="Query classes (arrow keys select)"
      data-testid="top-scroller"
    >
      <table className="data-table top__table" data-testid="top-table" aria-rowcount={classes.length}>
        <thead>
          <tr>
            <th scope="col">#</th>
            {columns.map(({ key, label }) => (
              <th
                key={key}
                scope="col"
                aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
              >
                <button
                  type="button"
                  className="top__sort"
                  onClick={() =>
                    onSort((current) => ({
                      key,
                      descending: current.key === key ? !current.descending : true,
                    }))
                  }
                  data-testid={`top-sort-${key}`}
                >
                  {label}
                  {sort.key === key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
            <th scope="col">Fingerprint</th>
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr className="top__pad" aria-hidden="true">
              <td colSpan={columns.length + 2} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((item) => {
            const entry = classes[item.index]!;
            return (
              <tr
                key={entry.id}
                className={entry.id === selected ? 'is-selected' : ''}
                onClick={() => onSelect(entry.id)}
                aria-rowindex={item.index + 1}
                aria-selected={entry.id === selected}
                data-testid="top-class"
              >
                <td>{item.index + 1}</td>
                <td>{seconds(entry.totalSeconds)}</td>
                <td>{count(entry.count)}</td>
                <td>{seconds(entry.latency.avg)}</td>
                <td>{seconds(entry.latency.p95)}</td>
                <td>{seconds(entry.latency.max)}</td>
                <td>{seconds(entry.lockSeconds)}</td>
                <td>{count(entry.rowsExamined)}</td>
                <td>{count(entry.rowsSent)}</td>
                <td className="top__fingerprint" title={entry.fingerprint}>
                  {entry.fingerprint}
                </td>
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr className="top__pad" aria-hidden="true">
              <td colSpan={columns.length + 2} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
      {classes.length === 0 && (
        <p className="empty-state__hint" data-testid="top-no-match">
          {empty}
        </p>
      )}
    </div>
  );
});

/** Pick a source → ranked classes. */
export function TopQueriesPanel({
  api,
  connected,
  connectionId = null,
  production = null,
  onSend,
  linkUp = true,
}: TopQueriesPanelProps) {
  const [source, setSource] = useState<Source>('file');
  const [path, setPath] = useState('');
  const [windowSeconds, setWindowSeconds] = useState('30');
  const [job, setJob] = useState<JobStatusReply | null>(null);
  const [live, setLive] = useState<LiveProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [list, setList] = useState<TopClassList | null>(null);
  const [stepCounts, setStepCounts] = useState<StepCounts | null>(null);
  const [tableMore, setTableMore] = useState<SlowLogTableReply['cursor'] | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [sort, setSort] = useState<Sort>({
    key: 'totalSeconds',
    descending: true,
  });
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [useNormalized, setUseNormalized] = useState(false);
  const [histogram, setHistogram] = useState<{ id: string; value: LatencyHistogram | null } | null>(null);
  const [consent, setConsent] = useState<{ plan: SlowLogWindowPlan; seconds: number } | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const liveAbort = useRef<AbortController | null>(null);
  const [restartNote, setRestartNote] = useState<string | null>(null);
  // The capture loop reads the link state between steps (a prop would be stale inside it).
  const linkUpRef = useRef(linkUp);
  linkUpRef.current = linkUp;

  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      liveAbort.current?.abort();
    },
    [],
  );

  const needsConnection = source !== 'file' && !connectionId;
  const running = busy || job?.state === 'running' || live !== null;

  function reset() {
    setError(null);
    setJob(null);
    setList(null);
    setStepCounts(null);
    setSelected(null);
    setHistogram(null);
    setTableMore(null);
    setRestartNote(null);
  }

  function showList(next: TopClassList) {
    setList(next);
    setSelected(null);
  }

  function fromJobResult(status: JobStatusReply, label: string) {
    if (status.state !== 'done' || !status.result) return;
    if (status.kind === 'digest') {
      // Requested with view: 'top', so the classes are already rows.
      const result = status.result as Omit<DigestResult, 'classes'> & {
        classes: TopClass[];
        timeline?: WorkloadTimeline | null;
      };
      showList({
        source: { kind: 'file', label },
        events: result.global.events,
        classes: result.classes,
        timeline: result.timeline ?? null,
      });
    } else {
      const result = status.result as SlowLogTableReply;
      showList({
        source: { kind: 'slow_log', label },
        events: result.global.events,
        classes: topClassesFromDigest(result),
        timeline: result.timeline,
      });
    }
  }

  async function follow(jobId: string, label: string) {
    try {
      const status = await api['job.status']({ jobId });
      setJob(status);
      if (status.state === 'running') {
        timer.current = window.setTimeout(() => void follow(jobId, label), 250);
        return;
      }
      if (status.error) {
        setError({
          code: status.error.code,
          message: status.error.message,
          ...(status.error.hint ? { hint: status.error.hint } : {}),
        });
      }
      fromJobResult(status, label);
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  async function startFile() {
    if (!path.trim()) {
      setError({ code: 'INVALID_INPUT', message: 'Enter the path of a slow log file on this machine.' });
      return;
    }
    reset();
    try {
      const { jobId } = await api['digest.start']({ paths: [path.trim()], view: 'top' });
      void follow(jobId, path.trim());
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  function windowLength(): number | null {
    const value = Number(windowSeconds);
    if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
      setError({ code: 'INVALID_INPUT', message: 'Enter a window between 1 and 86400 seconds.' });
      return null;
    }
    return value;
  }

  /**
   * Snapshot, then a snapshot per step (deltas give the timeline), then the whole window's delta.
   * While the connection is down the loop pauses (no call is made, the baseline snapshot stays in the
   * service, which keeps it per connection id across reconnects) and resumes when it is back; a
   * step whose delta says the server restarted re-baselines the window and says so.
   */
  async function startDigests() {
    if (!connectionId) return;
    const total = windowLength();
    if (total === null) return;
    reset();
    const abort = new AbortController();
    liveAbort.current = abort;
    const stepMs = Math.max(1000, (total * 1000) / LIVE_STEPS);
    const started = Date.now();
    let steps = 0;
    const showProgress = (paused: boolean) =>
      setLive({ elapsedMs: Date.now() - started, totalMs: total * 1000, steps, paused });
    /** One capture call; while the connection is lost, wait and retry. Null when stopped meanwhile. */
    async function whileUp<T>(call: () => Promise<T>): Promise<T | null> {
      for (;;) {
        if (abort.signal.aborted) return null;
        if (!linkUpRef.current) {
          showProgress(true);
          await wait(500, abort.signal);
          continue;
        }
        try {
          const value = await call();
          return value;
        } catch (caught) {
          if (!isConnectionLost(caught)) throw caught;
          showProgress(true);
          await wait(1000, abort.signal);
        }
      }
    }
    showProgress(false);
    try {
      const firstTaken = await whileUp(() => api['capture.snapshot']({ connectionId }));
      if (!firstTaken) return;
      let first = firstTaken;
      let previous = first;
      let windowStart: string | null = null;
      const counts: number[] = [];
      const querySeconds: number[] = [];
      const perClass: StepCounts = new Map();
      while (!abort.signal.aborted && Date.now() - started < total * 1000) {
        await wait(Math.min(stepMs, Math.max(0, total * 1000 - (Date.now() - started))), abort.signal);
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
          setRestartNote(windowRestartNote(step));
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
      showList({
        source: { kind: 'performance_schema', label: `${delta.windowSeconds} s window` },
        events: delta.totals.count,
        classes: topClassesFromDelta(delta),
        timeline: {
          start: timelineStart,
          bucketSeconds,
          counts,
          querySeconds,
          untimed: 0,
        },
      });
      setStepCounts(perClass);
      if (delta.notes.length > 0) {
        setError({ code: 'NOTE', message: delta.notes.map((note) => note.message).join(' ') });
      }
    } catch (caught) {
      setError(toShownError(caught));
    } finally {
      liveAbort.current = null;
      setLive(null);
    }
  }

  async function readTable(cursor?: SlowLogTableReply['cursor']) {
    if (!connectionId) return;
    if (!cursor) reset();
    setBusy(true);
    try {
      const reply = await api['capture.slowLogTable']({ connectionId, ...(cursor ? { cursor } : {}) });
      showList({
        source: { kind: 'slow_log', label: 'mysql.slow_log' },
        events: reply.global.events,
        classes: topClassesFromDigest(reply),
        timeline: reply.timeline,
      });
      setTableMore(reply.complete ? null : reply.cursor);
    } catch (caught) {
      setError(toShownError(caught));
    } finally {
      setBusy(false);
    }
  }

  async function planWindow() {
    if (!connectionId) return;
    const total = windowLength();
    if (total === null) return;
    setError(null);
    try {
      const plan = await api['capture.slowLogWindowPlan']({ connectionId, longQueryTime: 0 });
      setConsent({ plan, seconds: total });
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  async function startWindow(seconds: number, confirmation: string | undefined) {
    if (!connectionId) return;
    setConsent(null);
    reset();
    try {
      const { jobId } = await api['capture.slowLogWindow']({
        connectionId,
        seconds,
        longQueryTime: 0,
        consent: true,
        ...productionField(production, confirmation ?? ''),
      });
      void follow(jobId, `slow-log window of ${seconds} s`);
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  function cancel() {
    if (live) liveAbort.current?.abort();
    else if (job?.state === 'running') {
      void api['job.cancel']({ jobId: job.jobId }).then((status) => {
        setJob(status);
        fromJobResult(status, 'slow-log window (ended early)');
      });
    }
  }

  const classes = useMemo(
    () => selectTopClasses(list?.classes ?? [], { filter, sort: sort.key, descending: sort.descending }),
    [list, filter, sort],
  );
  const chosen = useMemo(
    () => (selected === null ? undefined : list?.classes.find((entry) => entry.id === selected)),
    [list, selected],
  );

  // Live digests on MySQL 8.0: the server's latency histogram of the selected digest.
  useEffect(() => {
    if (!chosen || list?.source.kind !== 'performance_schema' || !chosen.digest || !connectionId) return;
    if (histogram?.id === chosen.id) return;
    let stale = false;
    api['capture.histogram']({ connectionId, schema: chosen.schemas[0] ?? null, digest: chosen.digest }).then(
      (reply) => !stale && setHistogram({ id: chosen.id, value: rebinLatency(reply.buckets, 24) }),
      () => !stale && setHistogram({ id: chosen.id, value: null }),
    );
    return () => {
      stale = true;
    };
  }, [api, chosen, list, connectionId, histogram]);

  function exportAs(format: 'json' | 'csv') {
    if (!list) return;
    const now = new Date();
    const name = `sargable-top-queries-${list.source.kind}-${stamp(now)}.${format}`;
    if (format === 'csv') download(name, 'text/csv', topClassesToCsv(classes));
    else download(name, 'application/json', topClassesToJson(list, classes, now));
  }

  const statement = chosen
    ? useNormalized
      ? chosen.normalized
      : (chosen.example ?? chosen.normalized)
    : null;
  const placeholders = statement ? placeholderOffsets(statement).length : 0;
  const progress = job?.progress;
  const percent =
    progress?.bytesRead !== undefined && progress.totalBytes
      ? Math.round((progress.bytesRead / progress.totalBytes) * 100)
      : progress?.totalMs
        ? Math.min(100, Math.round((progress.elapsedMs / progress.totalMs) * 100))
        : null;
  const highlight =
    chosen && list?.timeline
      ? stepCounts
        ? { counts: stepCounts.get(chosen.id) ?? [] }
        : epoch(chosen.firstSeen) !== null && epoch(chosen.lastSeen) !== null
          ? { from: epoch(chosen.firstSeen)!, to: epoch(chosen.lastSeen)! }
          : null
      : null;

  return (
    <div className="top" data-testid="top-panel-body">
      <div className="plan__toolbar top__toolbar">
        <div className="top__sources" role="radiogroup" aria-label="Source">
          {(Object.keys(sourceLabels) as Source[]).map((key) => (
            <label key={key} className={`top__source${source === key ? ' is-active' : ''}`}>
              <input
                type="radio"
                name="top-source"
                value={key}
                checked={source === key}
                disabled={running}
                onChange={() => {
                  setSource(key);
                  setError(null);
                }}
                data-testid={`top-source-${key}`}
              />
              {sourceLabels[key]}
            </label>
          ))}
        </div>
        <form
          className="top__source-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (source === 'file') void startFile();
            else if (source === 'digests') void startDigests();
            else void readTable();
          }}
        >
          {source === 'file' && (
            <input
              className="top__path"
              aria-label="Slow log file path"
              placeholder="/var/lib/mysql/host-slow.log"
              spellCheck={false}
              value={path}
              onChange={(event) => setPath(event.target.value)}
              data-testid="top-path"
            />
          )}
          {source !== 'file' && (
            <label className="top__window">
              {source === 'digests' ? 'Window' : 'Slow-log window'}
              <input
                type="number"
                min={1}
                max={86_400}
                value={windowSeconds}
                onChange={(event) => setWindowSeconds(event.target.value)}
                aria-label="Window in seconds"
                data-testid="top-window"
              />
              s
            </label>
          )}
          <button
            type="submit"
            className="button button--small button--primary"
            disabled={running || needsConnection}
            title={needsConnection ? 'Connect to a server first' : undefined}
            data-testid="top-start"
          >
            {source === 'file' ? 'Digest' : source === 'digests' ? 'Capture' : 'Read table'}
          </button>
          {source === 'table' && (
            <button
              type="button"
              className="button button--small"
              disabled={running || needsConnection}
              onClick={() => void planWindow()}
              title="Turn the slow log on (long_query_time = 0, log_output with TABLE) for the window, then restore the settings. Shows the exact SQL first."
              data-testid="top-window-start"
            >
              Turn slow log on for the window…
            </button>
          )}
          {tableMore && !running && (
            <button
              type="button"
              className="button button--small"
              onClick={() => void readTable(tableMore)}
              data-testid="top-more"
            >
              Read more rows
            </button>
          )}
          {(live || job?.state === 'running') && (
            <button type="button" className="button button--small" onClick={cancel} data-testid="top-cancel">
              {live || job?.kind !== 'digest' ? 'Stop now' : 'Cancel'}
            </button>
          )}
        </form>
        {live && (
          <span className="top__progress" data-testid="top-progress">
            <progress max={live.totalMs} value={live.elapsedMs} aria-label="Progress" />
            {Math.round(live.elapsedMs / 1000)} s of {Math.round(live.totalMs / 1000)} s · {live.steps}{' '}
            snapshots ·{' '}
            <span data-testid="top-live-state">
              {live.paused || !linkUp
                ? live.elapsedMs >= live.totalMs
                  ? 'paused: reconnecting (the window ends when the server is back)'
                  : 'paused: reconnecting'
                : 'capturing'}
            </span>
          </span>
        )}
        {!live && progress && (
          <span className="top__progress" data-testid="top-progress">
            <progress max={100} value={percent ?? undefined} aria-label="Progress" />
            {progress.bytesRead !== undefined ? (
              <>
                {formatBytes(progress.bytesRead)}
                {progress.totalBytes ? ` of ${formatBytes(progress.totalBytes)}` : ''} ·{' '}
                {formatCount(progress.events ?? null)} events
                {progress.eventsPerSecond
                  ? ` · ${formatCount(Math.round(progress.eventsPerSecond))} events/s`
                  : ''}
              </>
            ) : (
              <>
                {Math.round(progress.elapsedMs / 1000)} s
                {progress.totalMs ? ` of ${Math.round(progress.totalMs / 1000)} s` : ''}
              </>
            )}{' '}
            · {job?.state}
          </span>
        )}
      </div>
      {restartNote && (
        <p className="top__notice" role="status" data-testid="top-restart-note">
          Window restarted. {restartNote}
        </p>
      )}
      {error && (
        <div className="panels__error">
          <ErrorBox error={error} testId="top-error" />
        </div>
      )}
      {!list && !running && !error && (
        <div className="empty-state" data-testid="top-empty">
          <p className="empty-state__title">Rank what was slow</p>
          {source === 'file' && (
            <p>
              Enter the path of a MySQL, Percona or MariaDB slow log (any size: it streams with a progress
              bar) and choose Digest. Queries are grouped like pt-query-digest; send any class to the Advisor
              and EXPLAIN.
            </p>
          )}
          {source === 'digests' && (
            <p>
              Capture what runs now: performance_schema digest counters are read at the start and end of the
              window (and {LIVE_STEPS} times in between for the timeline) and subtracted. Nothing is truncated
              or changed on the server.
            </p>
          )}
          {source === 'table' && (
            <p>
              Read mysql.slow_log (log_output=TABLE) into pt-query-digest classes, or let Sargable turn the
              slow log on for a window after showing you the exact SET GLOBAL statements (restored
              afterwards).
            </p>
          )}
          {needsConnection && <p className="empty-state__hint">Connect to a server to use this source.</p>}
        </div>
      )}
      {list && (
        <div className="top__body">
          <div className="top__main">
            <div className="section-head">
              <span data-testid="top-summary">
                {formatCount(list.classes.length)} classes · {formatCount(list.events)}{' '}
                {list.source.kind === 'performance_schema' ? 'statements' : 'events'} · {list.source.label}
                {filter.trim() ? ` · ${formatCount(classes.length)} shown` : ''}
              </span>
              <input
                aria-label="Filter classes"
                placeholder="Filter: fingerprint, schema, checksum"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
                data-testid="top-filter"
              />
              <span className="top__export">
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => exportAs('json')}
                  title={`Export the ${classes.length} shown classes as JSON`}
                  data-testid="top-export-json"
                >
                  Export JSON
                </button>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => exportAs('csv')}
                  title={`Export the ${classes.length} shown classes as CSV`}
                  data-testid="top-export-csv"
                >
                  Export CSV
                </button>
              </span>
            </div>
            {list.timeline && <TimelineChart timeline={list.timeline} highlight={highlight} />}
            <ClassTable
              classes={classes}
              empty={
                list.classes.length === 0 ? 'Nothing ran in this window.' : 'No class matches the filter.'
              }
              selected={selected}
              onSelect={setSelected}
              sort={sort}
              onSort={setSort}
              resetKey={list}
            />
          </div>
          <aside className="top__details" aria-label="Class details" data-testid="top-details">
            {chosen ? (
              <>
                <p className="top__details-fingerprint">{chosen.fingerprint}</p>
                <p className="status-bar__muted">
                  {[chosen.checksum, chosen.digest].filter(Boolean).join(' · ')} ·{' '}
                  {chosen.schemas.join(', ') || 'no schema'} · {chosen.firstSeen ?? '?'} →{' '}
                  {chosen.lastSeen ?? '?'}
                </p>
                <LatencyChart
                  histogram={histogram?.id === chosen.id ? histogram.value : chosen.histogram}
                  latency={chosen.latency}
                />
                <ExecutionLine execution={chosen.execution} />
                {chosen.example && chosen.normalized && (
                  <label className="top__statement-choice">
                    Statement
                    <select
                      value={useNormalized ? 'normalized' : 'sample'}
                      onChange={(event) => setUseNormalized(event.target.value === 'normalized')}
                      data-testid="top-statement"
                    >
                      <option value="sample">Sample (QUERY_SAMPLE_TEXT)</option>
                      <option value="normalized">Normalized (digest text, ? placeholders)</option>
                    </select>
                  </label>
                )}
                {statement ? (
                  <pre className="dialog__sql" data-testid="top-example">
                    {statement}
                  </pre>
                ) : (
                  <p className="empty-state__hint">The server kept no text for this digest.</p>
                )}
                {placeholders > 0 && (
                  <p className="empty-state__hint" data-testid="top-placeholder-note">
                    {placeholders} ? placeholder{placeholders === 1 ? '' : 's'}: EXPLAIN asks for values
                    first.
                  </p>
                )}
                <div className="locks__kill">
                  <button
                    type="button"
                    className="button button--small button--primary"
                    onClick={() => statement && onSend(statement, false)}
                    disabled={!statement}
                    data-testid="top-send"
                  >
                    Send to Advisor
                  </button>
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => statement && onSend(statement, true)}
                    disabled={!connected || !statement}
                    title={connected ? 'Open in a new tab and EXPLAIN it' : 'Connect to a server to EXPLAIN'}
                    data-testid="top-send-explain"
                  >
                    Send to EXPLAIN
                  </button>
                </div>
              </>
            ) : (
              <p className="empty-state__hint">
                Select a class (click, or arrow keys in the table) to see its latency distribution and
                example, and send it to the Advisor or EXPLAIN.
              </p>
            )}
          </aside>
        </div>
      )}
      {consent && (
        <ConfirmDialog
          title="Turn the slow log on for a window?"
          message={
            <>
              Sargable will run these statements on the server, log every statement for {consent.seconds} s
              into mysql.slow_log, then restore the previous settings (also on error or Stop). Connections
              opened before the change keep their old long_query_time.
            </>
          }
          sql={[
            '-- apply',
            ...consent.plan.apply.map((statement) => `${statement};`),
            '-- after the window, restore',
            ...consent.plan.restore.map((statement) => `${statement};`),
          ].join('\n')}
          confirmLabel={`Log for ${consent.seconds} s`}
          production={production}
          onConfirm={(confirmation) => void startWindow(consent.seconds, confirmation)}
          onClose={() => setConsent(null)}
          testId="top-window-confirm"
        />
      )}
    </div>
  );
}
