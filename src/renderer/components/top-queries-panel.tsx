// The Top queries panel: digest a slow log file (progress with bytes and events/s, Cancel), rank classes, send one to the editor.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply } from '../../shared/api/capture.js';
import type { DigestClass, DigestResult } from '../../core/slowlog/digest.js';
import { formatBytes, formatCount } from '../plan-view.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';

/** Props of {@link TopQueriesPanel}. */
export interface TopQueriesPanelProps {
  api: AdvisorApi;
  connected: boolean;
  /** Open the class's example in a new editor tab and analyze it (and EXPLAIN it when `explain`). */
  onSend(sql: string, explain: boolean): void;
}

type SortKey = 'total' | 'count' | 'avg' | 'p95' | 'examined';

const sortLabels: Record<SortKey, string> = {
  total: 'Total time',
  count: 'Count',
  avg: 'Avg',
  p95: '95th',
  examined: 'Rows examined (avg)',
};

function sortValue(entry: DigestClass, key: SortKey): number {
  switch (key) {
    case 'total':
      return entry.queryTime?.sum ?? 0;
    case 'count':
      return entry.queryCount;
    case 'avg':
      return entry.queryTime?.avg ?? 0;
    case 'p95':
      return entry.queryTime?.p95 ?? 0;
    case 'examined':
      return entry.rowsExamined?.avg ?? 0;
  }
}

function seconds(value: number | undefined): string {
  if (value === undefined) return '—';
  return value >= 1 ? `${value.toFixed(2)} s` : `${(value * 1000).toFixed(1)} ms`;
}

/** Slow log → ranked classes. */
export function TopQueriesPanel({ api, connected, onSend }: TopQueriesPanelProps) {
  const [path, setPath] = useState('');
  const [job, setJob] = useState<JobStatusReply | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [sort, setSort] = useState<SortKey>('total');
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function follow(jobId: string) {
    try {
      const status = await api['job.status']({ jobId });
      setJob(status);
      if (status.state === 'running') timer.current = window.setTimeout(() => void follow(jobId), 250);
      else if (status.error)
        setError({
          code: status.error.code,
          message: status.error.message,
          ...(status.error.hint ? { hint: status.error.hint } : {}),
        });
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  async function start() {
    if (!path.trim()) {
      setError({ code: 'INVALID_INPUT', message: 'Enter the path of a slow log file on this machine.' });
      return;
    }
    setError(null);
    setJob(null);
    setSelected(null);
    try {
      const { jobId } = await api['digest.start']({ paths: [path.trim()] });
      void follow(jobId);
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  const result = job?.state === 'done' ? (job.result as DigestResult | undefined) : undefined;
  const classes = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return (result?.classes ?? [])
      .filter((entry) => words.every((word) => entry.fingerprint.toLowerCase().includes(word)))
      .sort((a, b) => sortValue(b, sort) - sortValue(a, sort));
  }, [result, sort, filter]);
  const chosen = classes.find((entry) => entry.checksum === selected);
  const progress = job?.progress;
  const percent =
    progress?.bytesRead !== undefined && progress.totalBytes
      ? Math.round((progress.bytesRead / progress.totalBytes) * 100)
      : null;

  return (
    <div className="top" data-testid="top-panel-body">
      <form
        className="plan__toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <input
          className="top__path"
          aria-label="Slow log file path"
          placeholder="/var/lib/mysql/host-slow.log"
          spellCheck={false}
          value={path}
          onChange={(event) => setPath(event.target.value)}
          data-testid="top-path"
        />
        <button
          type="submit"
          className="button button--small button--primary"
          disabled={job?.state === 'running'}
          data-testid="top-start"
        >
          Digest
        </button>
        {job?.state === 'running' && (
          <button
            type="button"
            className="button button--small"
            onClick={() => void api['job.cancel']({ jobId: job.jobId }).then(setJob)}
            data-testid="top-cancel"
          >
            Cancel
          </button>
        )}
        {progress && (
          <span className="top__progress" data-testid="top-progress">
            <progress max={100} value={percent ?? undefined} aria-label="Progress" />
            {formatBytes(progress.bytesRead ?? null)}
            {progress.totalBytes ? ` of ${formatBytes(progress.totalBytes)}` : ''} ·{' '}
            {formatCount(progress.events ?? null)} events
            {progress.eventsPerSecond
              ? ` · ${formatCount(Math.round(progress.eventsPerSecond))} events/s`
              : ''}{' '}
            · {job?.state}
          </span>
        )}
      </form>
      {error && (
        <div className="panels__error">
          <ErrorBox error={error} testId="top-error" />
        </div>
      )}
      {!job && !error && (
        <div className="empty-state" data-testid="top-empty">
          <p className="empty-state__title">Rank what was slow</p>
          <p>
            Enter the path of a MySQL, Percona or MariaDB slow log (any size: it streams with a progress bar)
            and choose Digest. Queries are grouped like pt-query-digest; send any class to the Advisor and
            EXPLAIN.
          </p>
        </div>
      )}
      {result && (
        <div className="top__body">
          <div className="top__table-wrap">
            <div className="section-head">
              <span data-testid="top-summary">
                {result.classes.length} classes · {formatCount(result.global.queryCount ?? null)} events
                {result.skippedTotal > 0 ? ` · ${result.skippedTotal} skipped` : ''}
              </span>
              <input
                aria-label="Filter classes"
                placeholder="Filter by fingerprint"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
              />
            </div>
            <table className="data-table" data-testid="top-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  {(Object.keys(sortLabels) as SortKey[]).map((key) => (
                    <th key={key} scope="col" aria-sort={sort === key ? 'descending' : undefined}>
                      <button type="button" className="top__sort" onClick={() => setSort(key)}>
                        {sortLabels[key]}
                        {sort === key ? ' ▾' : ''}
                      </button>
                    </th>
                  ))}
                  <th scope="col">Fingerprint</th>
                </tr>
              </thead>
              <tbody>
                {classes.map((entry, index) => (
                  <tr
                    key={entry.checksum}
                    className={entry.checksum === selected ? 'is-selected' : ''}
                    onClick={() => setSelected(entry.checksum)}
                    data-testid="top-class"
                  >
                    <td>{index + 1}</td>
                    <td>{seconds(entry.queryTime?.sum)}</td>
                    <td>{formatCount(entry.queryCount)}</td>
                    <td>{seconds(entry.queryTime?.avg)}</td>
                    <td>{seconds(entry.queryTime?.p95)}</td>
                    <td>{formatCount(entry.rowsExamined?.avg ?? null)}</td>
                    <td>
                      <button
                        type="button"
                        className="top__fingerprint"
                        onClick={() => setSelected(entry.checksum)}
                      >
                        {entry.fingerprint}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <aside className="top__details" aria-label="Class details">
            {chosen ? (
              <>
                <p className="status-bar__muted">
                  {chosen.checksum} · {chosen.schemas.join(', ') || 'no schema'} · {chosen.firstSeen ?? '?'} →{' '}
                  {chosen.lastSeen ?? '?'}
                </p>
                <pre className="dialog__sql" data-testid="top-example">
                  {chosen.example.sql}
                </pre>
                <div className="locks__kill">
                  <button
                    type="button"
                    className="button button--small button--primary"
                    onClick={() => onSend(chosen.example.sql, false)}
                    data-testid="top-send"
                  >
                    Send to Advisor
                  </button>
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => onSend(chosen.example.sql, true)}
                    disabled={!connected}
                    title={connected ? 'Open in a new tab and EXPLAIN it' : 'Connect to a server to EXPLAIN'}
                  >
                    Send to EXPLAIN
                  </button>
                </div>
              </>
            ) : (
              <p className="empty-state__hint">
                Select a class to see its slowest example and send it to the Advisor or EXPLAIN.
              </p>
            )}
          </aside>
        </div>
      )}
    </div>
  );
}
