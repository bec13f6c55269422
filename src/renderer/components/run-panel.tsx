// Run (read-only): the statement at the cursor runs through query.run and its rows show in a grid
// (issue 18 item 15). Every value is rendered as text by React (never as HTML); refusals say why.
// The row and time limits are the panel's own controls (query.run enforces them on the server); Cancel
// stops our own running statement (query.cancel: KILL QUERY of our thread); Ctrl/Cmd+Enter anywhere in
// the panel runs (in the editor it stays Analyze).
import { useRef, useState, type KeyboardEvent } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { QueryRunResult } from '../../shared/api/query.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { newRunId } from './apply-ddl-dialog.js';

/** The limits query.run accepts (src/shared/api/query.ts) and its defaults. */
const ROW_LIMIT = { min: 1, max: 10_000, default: 1_000 };
const TIME_LIMIT_SECONDS = { min: 0.1, max: 300, default: 10 };

/** A typed limit within bounds, or null when it is not a number there. */
function within(text: string, bounds: { min: number; max: number }): number | null {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= bounds.min && value <= bounds.max
    ? value
    : null;
}

type RunState =
  | { status: 'idle' }
  | { status: 'running'; sql: string; runId: string; cancelling: boolean }
  | { status: 'done'; sql: string; result: QueryRunResult }
  | { status: 'failed'; sql: string | null; error: ShownError };

export function RunPanel({
  api,
  connectionId,
  getStatement,
}: {
  api: AdvisorApi;
  connectionId: string | null;
  /** The statement at the editor's cursor, or null. */
  getStatement(): string | null;
}) {
  const [state, setState] = useState<RunState>({ status: 'idle' });
  const [rowLimitText, setRowLimitText] = useState(String(ROW_LIMIT.default));
  const [secondsText, setSecondsText] = useState(String(TIME_LIMIT_SECONDS.default));
  const rowLimit = within(rowLimitText, ROW_LIMIT);
  const seconds = within(secondsText, TIME_LIMIT_SECONDS);
  const limitsProblem =
    rowLimit === null || !Number.isInteger(rowLimit)
      ? `Row limit: a whole number from ${ROW_LIMIT.min} to ${ROW_LIMIT.max.toLocaleString('en')}.`
      : seconds === null
        ? `Time limit: ${TIME_LIMIT_SECONDS.min} to ${TIME_LIMIT_SECONDS.max} seconds.`
        : null;
  const running = useRef<string | null>(null);
  const run = async (): Promise<void> => {
    const sql = getStatement();
    if (!connectionId || running.current || limitsProblem || rowLimit === null || seconds === null) return;
    if (!sql) {
      setState({
        status: 'failed',
        sql: null,
        error: { code: 'INVALID_INPUT', message: 'Put the cursor in a statement to run it.' },
      });
      return;
    }
    const runId = newRunId();
    running.current = runId;
    setState({ status: 'running', sql, runId, cancelling: false });
    try {
      const result = await api['query.run']({
        connectionId,
        sql,
        rowLimit,
        timeoutMs: Math.round(seconds * 1000),
        runId,
      });
      setState({ status: 'done', sql, result });
    } catch (error) {
      setState({ status: 'failed', sql, error: toShownError(error) });
    } finally {
      running.current = null;
    }
  };
  const cancel = (): void => {
    if (state.status !== 'running' || !connectionId) return;
    setState({ ...state, cancelling: true });
    void api['query.cancel']({ connectionId, runId: state.runId }).catch(() => undefined);
  };
  // Ctrl/Cmd+Enter in the panel runs; handled here so the app's global shortcut (Analyze) does not.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.shiftKey) return;
    event.preventDefault();
    void run();
  };
  return (
    <div className="run-panel" data-testid="run-panel" onKeyDown={onKeyDown}>
      <div className="run-panel__bar">
        <button
          type="button"
          className="button"
          disabled={!connectionId || state.status === 'running' || limitsProblem !== null}
          onClick={() => void run()}
          title={
            connectionId
              ? 'Run the statement at the cursor in a read-only transaction (queries only, row and time limits). Ctrl/Cmd+Enter in this panel.'
              : 'Connect to a server to run a query'
          }
          aria-keyshortcuts="Control+Enter Meta+Enter"
          data-testid="run-readonly"
        >
          Run (read-only)
        </button>
        <label className="run-panel__limit">
          Row limit{' '}
          <input
            type="number"
            min={ROW_LIMIT.min}
            max={ROW_LIMIT.max}
            step={1}
            value={rowLimitText}
            onChange={(event) => setRowLimitText(event.target.value)}
            aria-invalid={rowLimit === null || !Number.isInteger(rowLimit)}
            title="Rows shown at most; the statement is stopped on the server after them"
            data-testid="run-row-limit"
          />
        </label>
        <label className="run-panel__limit">
          Time limit{' '}
          <input
            type="number"
            min={TIME_LIMIT_SECONDS.min}
            max={TIME_LIMIT_SECONDS.max}
            step="any"
            value={secondsText}
            onChange={(event) => setSecondsText(event.target.value)}
            aria-invalid={seconds === null}
            title="Seconds the statement may run; the server stops it after that"
            data-testid="run-time-limit"
          />{' '}
          s
        </label>
        {state.status === 'running' && (
          <>
            <span aria-busy="true" data-testid="run-running">
              {state.cancelling ? 'Cancelling…' : 'Running…'}
            </span>
            <button
              type="button"
              className="button button--small"
              disabled={state.cancelling}
              onClick={cancel}
              title="Stop this query on the server (KILL QUERY of this app's own statement)"
              data-testid="run-cancel"
            >
              Cancel
            </button>
          </>
        )}
        {state.status === 'done' && (
          <span data-testid="run-summary">
            {state.result.truncated
              ? `First ${state.result.rowLimit} rows (more exist; the query was stopped)`
              : `${state.result.rows.length} row${state.result.rows.length === 1 ? '' : 's'}`}
            {` in ${state.result.elapsedMs} ms`}
          </span>
        )}
      </div>
      {limitsProblem && (
        <p className="export__warning" role="alert" data-testid="run-limit-problem">
          {limitsProblem}
        </p>
      )}
      {state.status === 'idle' && (
        <p className="empty-state__title">
          {connectionId
            ? 'Put the cursor in a SELECT and press Run (read-only) to see its rows.'
            : 'Connect to a server to run a query.'}
        </p>
      )}
      {state.status === 'failed' && <ErrorBox error={state.error} testId="run-error" />}
      {state.status === 'done' && (
        <div className="run-panel__grid">
          <table data-testid="run-grid">
            <thead>
              <tr>
                {state.result.columns.map((column, index) => (
                  <th key={index} title={column.type} scope="col">
                    {column.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {state.result.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((value, index) => (
                    <td key={index} className={value === null ? 'run-panel__null' : undefined}>
                      {value ?? 'NULL'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
