// The Transactions view in the Locks panel (innotop's T mode): open transactions with age, state, rows
// locked/modified, last statements and who blocks whom, the history list length, and the processlist with
// filters. Read-only; Kill goes through the shared confirmation. Statements are other sessions' SQL:
// rendered as text (React escapes it), never run.
import { useCallback, useEffect, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import {
  killShown,
  type Relation,
  type TransactionView,
  type TransactionsSnapshot,
} from '../../core/locks/transactions.js';
import {
  defaultProcessFilters,
  filterProcesslist,
  orderTransactions,
  type ProcessFilters,
} from '../state/transactions.js';
import { ErrorBox } from './error-box.js';
import { PollingToolbar } from './polling-toolbar.js';
import { usePolling } from '../state/polling.js';
import type { KillRequest } from './kill-confirm.js';

/** A kill sent from this view (`seq` tells two kills of one session apart). */
export interface KillSent {
  seq: number;
  request: KillRequest;
}

export function TransactionsView({
  api,
  connectionId,
  linkUp,
  onKill,
  killed,
}: {
  api: AdvisorApi;
  connectionId: string;
  linkUp: boolean;
  onKill(request: KillRequest): void;
  /** The last kill sent: read again (paused or not) until the snapshot shows it. */
  killed: KillSent | null;
}) {
  const [filters, setFilters] = useState<ProcessFilters>(defaultProcessFilters);
  const read = useCallback(
    (): Promise<TransactionsSnapshot> => api['locks.transactions']({ connectionId }),
    [api, connectionId],
  );
  const polling = usePolling(read, { linkUp });
  const { snapshot, error, settle } = polling;

  useEffect(() => {
    if (!killed) return;
    const { session, scope } = killed.request;
    void settle((next) => killShown(next, session.threadId, scope, session.statement));
  }, [killed, settle]);

  const transactions = snapshot ? orderTransactions(snapshot.transactions) : [];
  const processes = snapshot ? filterProcesslist(snapshot.processlist, filters) : [];
  const set = (patch: Partial<ProcessFilters>) => setFilters((current) => ({ ...current, ...patch }));

  return (
    <div className="trx" data-testid="trx-view">
      <PollingToolbar
        polling={polling}
        linkUp={linkUp}
        label="Transactions polling"
        intervalLabel="Transactions poll interval"
        testIdPrefix="trx"
        status={
          snapshot &&
          ` · ${snapshot.transactions.length} open transaction${snapshot.transactions.length === 1 ? '' : 's'} · history list length ${snapshot.historyListLength ?? 'unknown'} · ${new Date(snapshot.takenAt).toLocaleTimeString()} · ${snapshot.elapsedMs} ms`
        }
      />
      {error && (
        <div className="panels__error">
          <ErrorBox error={error} testId="trx-error" />
        </div>
      )}
      {snapshot?.problems.map((problem) => (
        <p key={problem.area + problem.message} className="modes__risk" role="note" data-testid="trx-problem">
          ⚠ {problem.message} <code>{problem.fix}</code>
        </p>
      ))}
      <section className="locks__section" aria-label="Open transactions">
        <h3>Open transactions</h3>
        {snapshot && transactions.length === 0 ? (
          <p className="empty-state__hint" data-testid="trx-none">
            No open InnoDB transaction right now.
          </p>
        ) : (
          <div className="trx__scroll">
            <table className="data-table trx__table" data-testid="trx-table">
              <thead>
                <tr>
                  <th>Thread</th>
                  <th>User@host</th>
                  <th>State</th>
                  <th title="Seconds since the transaction started">Age</th>
                  <th title="trx_rows_locked (approximate) / trx_rows_modified">Rows lock/mod</th>
                  <th>Blocks / waits for</th>
                  <th>Statement (or last statements)</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {transactions.map((trx) => (
                  <TransactionRow key={trx.trxId} trx={trx} onKill={onKill} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="locks__section" aria-label="Processlist">
        <h3>Processlist</h3>
        <div className="trx__filters" role="group" aria-label="Processlist filters">
          <label>
            <input
              type="checkbox"
              checked={filters.hideSleeping}
              onChange={(event) => set({ hideSleeping: event.target.checked })}
              data-testid="proc-hide-sleeping"
            />{' '}
            hide idle sessions without a transaction
          </label>
          <label>
            <input
              type="checkbox"
              checked={filters.hideSystem}
              onChange={(event) => set({ hideSystem: event.target.checked })}
            />{' '}
            hide server threads
          </label>
          <input
            type="search"
            aria-label="Filter the processlist"
            placeholder="user, db, state, statement…"
            value={filters.text}
            onChange={(event) => set({ text: event.target.value })}
            data-testid="proc-filter"
          />
          <label>
            at least{' '}
            <input
              type="number"
              min={0}
              className="trx__seconds"
              aria-label="Minimum seconds"
              value={filters.minSeconds}
              onChange={(event) => set({ minSeconds: Math.max(0, Number(event.target.value) || 0) })}
            />{' '}
            s
          </label>
          <span className="status-bar__muted">
            {snapshot ? `${processes.length} of ${snapshot.processlist.length}` : ''}
          </span>
        </div>
        <div className="trx__scroll">
          <table className="data-table trx__table" data-testid="proc-table">
            <thead>
              <tr>
                <th>Id</th>
                <th>User@host</th>
                <th>Db</th>
                <th>Command</th>
                <th>Time</th>
                <th>State</th>
                <th>Statement</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {processes.map((row) => (
                <tr key={row.id} data-testid="proc-row" data-thread={row.id}>
                  <td>{row.id}</td>
                  <td>
                    {row.user ?? '?'}@{row.host ?? '?'}
                  </td>
                  <td>{row.db ?? ''}</td>
                  <td>
                    {row.command}
                    {row.trxId !== null && <span className="badge badge--caution">trx</span>}
                  </td>
                  <td>{row.time ?? ''}</td>
                  <td>{row.state ?? ''}</td>
                  <td className="trx__sql">
                    <code title={row.info ?? ''}>{row.info ?? ''}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() =>
                        onKill({
                          scope: 'connection',
                          session: {
                            threadId: row.id,
                            user: row.user,
                            host: row.host,
                            statement: row.info,
                            idle: row.info === null,
                          },
                        })
                      }
                      data-testid="proc-kill"
                    >
                      Kill…
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

function relations(list: readonly Relation[]): string {
  return list
    .map((relation) => `${relation.threadId}${relation.kind === 'metadata' ? ' (MDL)' : ''}`)
    .join(', ');
}

function TransactionRow({ trx, onKill }: { trx: TransactionView; onKill(request: KillRequest): void }) {
  const idle = trx.statement === null;
  const shown = trx.statement ?? trx.lastStatements.at(-1) ?? null;
  const session =
    trx.threadId === null
      ? null
      : {
          threadId: trx.threadId,
          user: trx.user,
          host: trx.host,
          statement: shown,
          idle,
          trxAgeSeconds: trx.ageSeconds,
        };
  return (
    <tr
      data-testid="trx-row"
      data-thread={trx.threadId ?? ''}
      className={trx.blocking.length > 0 ? 'trx__blocker' : ''}
    >
      <td>{trx.threadId ?? '?'}</td>
      <td>
        {trx.user ?? '?'}@{trx.host ?? '?'}
        {trx.db ? ` · ${trx.db}` : ''}
      </td>
      <td>
        <span className={`badge ${trx.state === 'LOCK WAIT' ? 'badge--caution' : ''}`}>{trx.state}</span>
        {trx.waitSeconds !== null && ` ${trx.waitSeconds} s`}
        {idle && trx.command === 'Sleep' && <span className="status-bar__muted"> idle</span>}
      </td>
      <td>{trx.ageSeconds ?? '?'} s</td>
      <td>
        {trx.rowsLocked ?? '?'} / {trx.rowsModified ?? '?'}
      </td>
      <td data-testid="trx-relations">
        {trx.blocking.length > 0 && (
          <span className="badge badge--error">blocks {relations(trx.blocking)}</span>
        )}
        {trx.blockedBy.length > 0 && (
          <span className="badge badge--caution">waits for {relations(trx.blockedBy)}</span>
        )}
      </td>
      <td className="trx__sql">
        {trx.statement !== null ? (
          <code title={trx.statement}>{trx.statement}</code>
        ) : trx.lastStatements.length > 0 ? (
          <details>
            <summary>
              <code title={trx.lastStatements.at(-1)}>last: {trx.lastStatements.at(-1)}</code>
            </summary>
            <ol className="trx__history" data-testid="trx-history">
              {trx.lastStatements.map((sql, index) => (
                <li key={index}>
                  <code>{sql}</code>
                </li>
              ))}
            </ol>
          </details>
        ) : (
          <span className="status-bar__muted">(idle; last statement not recorded)</span>
        )}
      </td>
      <td>
        {session && (
          <span className="mdl__kill">
            {!idle && (
              <button
                type="button"
                className="button button--small"
                onClick={() => onKill({ session, scope: 'query' })}
                data-testid="trx-kill-query"
              >
                Kill query…
              </button>
            )}
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => onKill({ session, scope: 'connection' })}
              data-testid="trx-kill-connection"
            >
              Kill connection…
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}
