// The Top queries details: the selected class's latency chart, execution counters, statement and the Send buttons.
import type { ReactNode } from 'react';
import type { LatencyHistogram, TopClass, TopExecution } from '../../core/capture/index.js';
import { placeholderOffsets } from '../placeholders.js';
import { count } from './top-class-table.js';
import { LatencyChart } from './top-charts.js';

const EXECUTION_LABELS: [keyof TopExecution, string, string][] = [
  ['tmpTables', 'tmp tables', 'Internal temporary tables created (or statements that used one)'],
  ['tmpDiskTables', 'on disk', 'Temporary tables created on disk'],
  ['filesorts', 'sorts', 'Sorts done (filesort)'],
  ['fullScans', 'full scans', 'Statements that scanned a whole table'],
  ['fullJoins', 'full joins', 'Joins that used no index'],
];

/** Tmp tables, sorts, scans of the selected class; only the counters the source has. */
export function ExecutionLine({ execution }: { execution: TopExecution }) {
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

/** The statement the details show and send: the sample, or the normalized digest text when chosen. */
export function chosenStatement(chosen: TopClass | undefined, useNormalized: boolean): string | null {
  if (!chosen) return null;
  return useNormalized ? chosen.normalized : (chosen.example ?? chosen.normalized);
}

/** The details aside of the selected class (or how to select one). */
export function TopDetails({
  chosen,
  histogram,
  useNormalized,
  onNormalized,
  connected,
  onSend,
  history,
}: {
  chosen: TopClass | undefined;
  /** The server's histogram of this class, when one was read for it. */
  histogram: LatencyHistogram | null | undefined;
  useNormalized: boolean;
  onNormalized(normalized: boolean): void;
  connected: boolean;
  onSend(sql: string, explain: boolean): void;
  /** The class's stored windows (top-trends.tsx), when the shown window is in the history. */
  history?: ReactNode;
}) {
  const statement = chosenStatement(chosen, useNormalized);
  const placeholders = statement ? placeholderOffsets(statement).length : 0;
  return (
    <aside className="top__details" aria-label="Class details" data-testid="top-details">
      {chosen ? (
        <>
          <p className="top__details-fingerprint">{chosen.fingerprint}</p>
          <p className="status-bar__muted">
            {[chosen.checksum, chosen.digest].filter(Boolean).join(' · ')} ·{' '}
            {chosen.schemas.join(', ') || 'no schema'} · {chosen.firstSeen ?? '?'} → {chosen.lastSeen ?? '?'}
          </p>
          <LatencyChart
            histogram={histogram !== undefined ? histogram : chosen.histogram}
            latency={chosen.latency}
          />
          <ExecutionLine execution={chosen.execution} />
          {history}
          {chosen.example && chosen.normalized && (
            <label className="top__statement-choice">
              Statement
              <select
                value={useNormalized ? 'normalized' : 'sample'}
                onChange={(event) => onNormalized(event.target.value === 'normalized')}
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
              {placeholders} ? placeholder{placeholders === 1 ? '' : 's'}: EXPLAIN asks for values first.
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
          Select a class (click, or arrow keys in the table) to see its latency distribution and example, and
          send it to the Advisor or EXPLAIN.
        </p>
      )}
    </aside>
  );
}
