// The Top queries panel: pick a source (slow-log file, live performance_schema digests, mysql.slow_log, a consented slow-log window), rank classes in a virtualized table, chart them, export them, send one to the Advisor or EXPLAIN.
/*
 * Design note: the panel's state is one reducer (state/top-queries.ts). A slow-log file digest and
 * the slow-log window are service jobs followed through their `job.events` stream (state/job.ts,
 * state/top-runs.ts): no polling. The live-digest window is the panel's own capture loop
 * (state/live-capture.ts). The table (top-class-table.tsx) and details (top-details.tsx) render it.
 */
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  rebinLatency,
  selectTopClasses,
  topClassesToCsv,
  topClassesToJson,
} from '../../core/capture/index.js';
import type { AdvisorApi } from '../../shared/api.js';
import type { Listen } from '../../shared/events.js';
import { formatBytes, formatCount } from '../plan-view.js';
import { useJobEvents } from '../state/job.js';
import { LIVE_STEPS, useLiveCapture } from '../state/live-capture.js';
import {
  epoch,
  initialTopQueries,
  isRunning,
  progressPercent,
  topQueriesReducer,
  type TopSource,
} from '../state/top-queries.js';
import {
  cancelJob,
  digestFile,
  planWindow,
  readTable,
  startWindow,
  type TopRunContext,
} from '../state/top-runs.js';
import { ErrorBox } from './error-box.js';
import { ConfirmDialog } from './modal.js';
import { ChooseFileButton, fileRef } from './choose-file-button.js';
import type { ChosenFile } from '../../shared/api/files.js';
import { ClassTable } from './top-class-table.js';
import { TopDetails } from './top-details.js';
import { TimelineChart } from './top-charts.js';
import { ClassHistory, HistoryNote } from './top-trends.js';
import { HistorySettingsDialog } from './history-settings.js';
import { useTopHistory } from '../state/top-history.js';

export { windowRestartNote } from '../state/live-capture.js';

/** Props of {@link TopQueriesPanel}. */
export interface TopQueriesPanelProps {
  api: AdvisorApi;
  /** Job progress events (shared/events.ts). */
  listen: Listen;
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

const sourceLabels: Record<TopSource, string> = {
  file: 'Slow log file',
  digests: 'Live digests',
  table: 'mysql.slow_log',
};

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

/** A time of day in the user's locale. */
function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString();
}

/** Seconds as "42 s" or "3 min 05 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
}

function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

/** Pick a source → ranked classes. */
const CHART_KEY = 'sargable.topQueries.chart';

function readChartShown(): boolean {
  try {
    return window.localStorage.getItem(CHART_KEY) !== 'hidden';
  } catch {
    return true;
  }
}

function keepChartShown(shown: boolean): void {
  try {
    if (shown) window.localStorage.removeItem(CHART_KEY);
    else window.localStorage.setItem(CHART_KEY, 'hidden');
  } catch {
    // No storage (a locked-down profile): the choice lasts for this session.
  }
}

export function TopQueriesPanel({
  api,
  listen,
  connected,
  connectionId = null,
  production = null,
  onSend,
  linkUp = true,
}: TopQueriesPanelProps) {
  const [state, dispatch] = useReducer(topQueriesReducer, initialTopQueries);
  const {
    source,
    job,
    live,
    list,
    error,
    sort,
    filter,
    selected,
    histogram,
    consent,
    tableMore,
    liveWindow,
  } = state;
  const { follow } = useJobEvents(listen);
  const capture = useLiveCapture(api, dispatch, linkUp);
  const stopped = useRef(new Set<string>());
  const ctx: TopRunContext = { api, dispatch, follow, stopped: stopped.current, connectionId };
  const history = useTopHistory(api, state.history, selected, dispatch);
  // A trend needs an earlier window to compare with: the column shows from the second window on.
  const trends =
    state.history.trends && state.history.trends.windows.length > 1 ? state.history.trends.byClass : null;

  /** The file picked with "Choose file…" (an opaque reference; the path field shows its name). */
  const [chosenFile, setChosenFile] = useState<ChosenFile | null>(null);
  /** The timeline above the table; hidden, the table gets its height (the choice is kept). */
  const [chartShown, setChartShown] = useState(readChartShown);
  const toggleChart = () => {
    setChartShown(!chartShown);
    keepChartShown(!chartShown);
  };

  const needsConnection = source !== 'file' && !connectionId;
  const running = isRunning(state);

  function cancel() {
    if (live) capture.stop();
    else if (job?.state === 'running') void cancelJob(ctx, job.jobId);
  }

  const classes = useMemo(
    () => selectTopClasses(list?.classes ?? [], { filter, sort: sort.key, descending: sort.descending }),
    [list, filter, sort],
  );
  const listSeconds = useMemo(
    () => (list?.classes ?? []).reduce((sum, entry) => sum + entry.totalSeconds, 0),
    [list],
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
      (reply) =>
        !stale &&
        dispatch({ type: 'histogram/loaded', id: chosen.id, value: rebinLatency(reply.buckets, 24) }),
      () => !stale && dispatch({ type: 'histogram/loaded', id: chosen.id, value: null }),
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

  const progress = job?.progress;
  const percent = progressPercent(progress);
  const highlight =
    chosen && list?.timeline
      ? state.stepCounts
        ? { counts: state.stepCounts.get(chosen.id) ?? [] }
        : epoch(chosen.firstSeen) !== null && epoch(chosen.lastSeen) !== null
          ? { from: epoch(chosen.firstSeen)!, to: epoch(chosen.lastSeen)! }
          : null
      : null;

  return (
    <div className="top" data-testid="top-panel-body">
      <div className="plan__toolbar top__toolbar">
        <div className="top__sources" role="radiogroup" aria-label="Source">
          {(Object.keys(sourceLabels) as TopSource[]).map((key) => (
            <label key={key} className={`top__source${source === key ? ' is-active' : ''}`}>
              <input
                type="radio"
                name="top-source"
                value={key}
                checked={source === key}
                disabled={running}
                onChange={() => dispatch({ type: 'source/chosen', source: key })}
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
            if (source === 'file') void digestFile(ctx, state.path, fileRef(state.path, chosenFile));
            else if (!connectionId) return;
            else if (source === 'digests') void capture.start(connectionId, state.windowSeconds);
            else void readTable(ctx, connectionId);
          }}
        >
          {source === 'file' && (
            <input
              className="top__path"
              aria-label="Slow log file path"
              placeholder="/var/lib/mysql/host-slow.log"
              spellCheck={false}
              value={state.path}
              onChange={(event) => {
                dispatch({ type: 'path/changed', path: event.target.value });
                setChosenFile(null);
              }}
              data-testid="top-path"
            />
          )}
          {source === 'file' && (
            <ChooseFileButton
              api={api}
              purpose="slowlog"
              testId="top-choose"
              onError={(shown) => dispatch({ type: 'run/failed', error: shown })}
              onChosen={(file) => {
                dispatch({ type: 'path/changed', path: file.name });
                setChosenFile(file);
                void digestFile(ctx, file.name, file.ref);
              }}
            />
          )}
          {source !== 'file' && (
            <label className="top__window">
              {source === 'digests' ? 'Window' : 'Slow-log window'}
              <input
                type="number"
                min={1}
                max={86_400}
                value={state.windowSeconds}
                onChange={(event) => dispatch({ type: 'window/changed', windowSeconds: event.target.value })}
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
              onClick={() => connectionId && void planWindow(ctx, connectionId, state.windowSeconds)}
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
              onClick={() => connectionId && void readTable(ctx, connectionId, tableMore)}
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
        <button
          type="button"
          className="button button--small top__history-button"
          onClick={() => dispatch({ type: 'history/settingsOpened' })}
          title="What the capture history keeps, for how long, and which statement samples"
          data-testid="top-history-settings"
        >
          History…
        </button>
      </div>
      {state.restartNote && (
        <p className="top__notice" role="status" data-testid="top-restart-note">
          {state.restartNote}
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
      {live && !list && !error && (
        <div className="empty-state" data-testid="top-live-waiting">
          <p className="empty-state__title">Starting the window…</p>
          <p>Taking the first snapshot of the digest counters; the table fills in after each step.</p>
        </div>
      )}
      {list && (
        <div className="top__body">
          <div className="top__main">
            <div className="section-head">
              <span className="top__summary" data-testid="top-summary" title={list.source.label}>
                <span>
                  {`${formatCount(list.classes.length)} classes · ${formatCount(list.events)} `}
                  {`${list.source.kind === 'performance_schema' ? 'statements' : 'events'} · `}
                </span>
                <span className="top__summary-label">{list.source.label}</span>
                {filter.trim() ? <span>{` · ${formatCount(classes.length)} shown`}</span> : null}
              </span>
              {liveWindow && (
                <span className="top__window-info" data-testid="top-window-info">
                  {live ? 'Live window' : 'Window'} from {clockTime(liveWindow.startedAt)} ·{' '}
                  {formatDuration(liveWindow.seconds)}
                  {live ? ' so far' : ''}
                </span>
              )}
              {list.source.kind === 'performance_schema' && (
                <span className="top__lifetime" data-testid="top-lifetime-note">
                  * since each digest was first seen
                </span>
              )}
              <input
                aria-label="Filter classes"
                placeholder="Filter: fingerprint, schema, checksum"
                value={filter}
                onChange={(event) => dispatch({ type: 'filter/changed', filter: event.target.value })}
                data-testid="top-filter"
              />
              <span className="top__export">
                {list.timeline && (
                  <button
                    type="button"
                    className="button button--small"
                    aria-expanded={chartShown}
                    onClick={toggleChart}
                    title={chartShown ? 'Hide the timeline: more rows for the table' : 'Show the timeline'}
                    data-testid="top-chart-toggle"
                  >
                    {chartShown ? 'Hide chart' : 'Show chart'}
                  </button>
                )}
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
            {list.timeline && chartShown && <TimelineChart timeline={list.timeline} highlight={highlight} />}
            <HistoryNote
              recorded={state.history.recorded}
              windows={state.history.trends?.windows ?? null}
              error={state.history.trendsError}
            />
            <ClassTable
              classes={classes}
              empty={
                list.classes.length > 0
                  ? 'No class matches the filter.'
                  : list.source.kind === 'slow_log' && list.source.label === 'mysql.slow_log'
                    ? 'mysql.slow_log has no rows.'
                    : liveWindow && live
                      ? `No statements yet in this window (since ${clockTime(liveWindow.startedAt)}); the table refreshes after each step.`
                      : 'Nothing ran in this window.'
              }
              selected={selected}
              onSelect={(id) => dispatch({ type: 'class/selected', id })}
              sort={sort}
              onSort={(key) => dispatch({ type: 'sort/clicked', key })}
              resetKey={state.listKey}
              totalSeconds={listSeconds}
              lifetime={list.source.kind === 'performance_schema'}
              trends={trends}
            />
          </div>
          <TopDetails
            chosen={chosen}
            histogram={chosen && histogram?.id === chosen.id ? histogram.value : undefined}
            useNormalized={state.useNormalized}
            onNormalized={(normalized) => dispatch({ type: 'statement/normalized', normalized })}
            connected={connected}
            onSend={onSend}
            history={<ClassHistory detail={state.history.detail} error={state.history.detailError} />}
          />
        </div>
      )}
      {state.history.settingsOpen && (
        <HistorySettingsDialog
          history={state.history}
          onEdit={(patch) => dispatch({ type: 'history/settingsEdited', patch })}
          onSave={(draft) => void history.save(draft)}
          onClear={() => void history.clearAll()}
          onClose={() => dispatch({ type: 'history/settingsClosed' })}
        />
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
          onConfirm={(confirmation) =>
            connectionId && void startWindow(ctx, connectionId, consent.seconds, production, confirmation)
          }
          onClose={() => dispatch({ type: 'consent/closed' })}
          testId="top-window-confirm"
        />
      )}
    </div>
  );
}
