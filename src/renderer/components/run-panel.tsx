// Run (read-only): the statement at the cursor runs through query.run and its rows show in a grid
// (issue 18 item 15). Every value is rendered as text by React (never as HTML); refusals say why.
import { useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { QueryRunResult } from '../../shared/api/query.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';

type RunState =
  | { status: 'idle' }
  | { status: 'running'; sql: string }
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
  const run = async (): Promise<void> => {
    const sql = getStatement();
    if (!connectionId) return;
    if (!sql) {
      setState({
        status: 'failed',
        sql: null,
        error: { code: 'INVALID_INPUT', message: 'Put the cursor in a statement to run it.' },
      });
      return;
    }
    setState({ status: 'running', sql });
    try {
      setState({ status: 'done', sql, result: await api['query.run']({ connectionId, sql }) });
    } catch (error) {
      setState({ status: 'failed', sql, error: toShownError(error) });
    }
  };
  return (
    <div className="run-panel" data-testid="run-panel">
      <div className="run-panel__bar">
        <button
          type="button"
          className="button"
          disabled={!connectionId || state.status === 'running'}
          onClick={() => void run()}
          title={
            connectionId
              ? 'Run the statement at the cursor in a read-only transaction (queries only, row and time limits)'
              : 'Connect to a server to run a query'
          }
          data-testid="run-readonly"
        >
          Run (read-only)
        </button>
        {state.status === 'running' && <span aria-busy="true">Running…</span>}
        {state.status === 'done' && (
          <span data-testid="run-summary">
            {state.result.truncated
              ? `First ${state.result.rowLimit} rows (more exist; the query was stopped)`
              : `${state.result.rows.length} row${state.result.rows.length === 1 ? '' : 's'}`}
            {` in ${state.result.elapsedMs} ms`}
          </span>
        )}
      </div>
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
