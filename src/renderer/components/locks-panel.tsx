// The Locks panel: polling (pausable, adjustable), the blocking tree, details with rewrites (loaded on selection, copy) and kill behind a confirmation.
import { useCallback, useEffect, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { LockSnapshot, LockWaitView } from '../../core/locks/snapshot.js';
import type { DeadlockHistoryEntry } from '../../core/locks/deadlock.js';
import type { BlockingNode } from '../../core/locks/tree.js';
import type { TxnInfo } from '../../core/locks/types.js';
import { ErrorBox, toShownError } from './error-box.js';
import { PollingToolbar } from './polling-toolbar.js';
import { usePolling } from '../state/polling.js';
import { KillConfirm, type KillRequest } from './kill-confirm.js';
import { MetadataTree } from './locks-metadata.js';
import { TransactionsView, type KillSent } from './transactions-view.js';
import { productionField } from './production-confirm.js';
import { LockCounts, Rewrites } from './locks-rewrites.js';

/** Props of {@link LocksPanel}. */
export interface LocksPanelProps {
  api: AdvisorApi;
  connectionId: string | null;
  /** The profile name to type before KILL on a production connection; null otherwise. */
  production?: string | null;
  /** False while the connection is lost (the status bar's reconnect state): polling pauses, then resumes. */
  linkUp?: boolean;
}

/** Live lock view; polls while mounted and not paused. */
export function LocksPanel({ api, connectionId, production = null, linkUp = true }: LocksPanelProps) {
  const [selected, setSelected] = useState<string | null>(null);
  const [kill, setKill] = useState<KillRequest | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [killError, setKillError] = useState<ReturnType<typeof toShownError> | null>(null);
  const [view, setView] = useState<'waits' | 'transactions'>('waits');
  // The last kill sent from the Transactions view (its view reads until the kill shows).
  const [killed, setKilled] = useState<KillSent | null>(null);
  // Rewrites are not parsed inside the poll (it must stay fast); the details load them per statement.
  const read = useCallback(
    (): Promise<LockSnapshot> => api['locks.poll']({ connectionId: connectionId! }),
    [api, connectionId],
  );
  const polling = usePolling(connectionId ? read : null, { enabled: view === 'waits', linkUp });
  const { snapshot, settle } = polling;
  const error = killError ?? polling.error;
  // A kill's error stays until the next snapshot arrives, as a poll's error does.
  useEffect(() => setKillError(null), [snapshot]);

  if (!connectionId) {
    return (
      <div className="empty-state" data-testid="locks-offline">
        <p className="empty-state__title">Connect to a server to see lock waits</p>
        <p>
          The Locks panel shows who blocks whom, on which rows, and NOWAIT / SKIP LOCKED rewrites for the
          waiting statement. It only reads performance_schema and information_schema.
        </p>
      </div>
    );
  }

  const waits = snapshot?.waits ?? [];
  const selectedWaits = waits.filter((wait) => wait.waiting.trxId === selected);
  const selectedTxn =
    selectedWaits[0]?.waiting ??
    waits.find((wait) => wait.blocking.trxId === selected)?.blocking ??
    findTxn(snapshot?.roots ?? [], selected);
  const isBlocker = waits.some((wait) => wait.blocking.trxId === selected);

  async function runKill(target: KillRequest, confirmation: string | undefined) {
    setKill(null);
    setKillError(null);
    if (!connectionId) return;
    try {
      await api['locks.kill']({
        connectionId,
        threadId: target.session.threadId,
        scope: target.scope,
        confirmed: true,
        ...productionField(production, confirmation ?? ''),
      });
      setNotice(`KILL ${target.scope.toUpperCase()} ${target.session.threadId} sent.`);
      // KILL returns before the session has gone: read until the snapshot no longer shows it.
      const threadId = target.session.threadId;
      if (view === 'waits')
        void settle(
          (next) =>
            !next.waits.some(
              (wait) =>
                wait.waiting.threadId === threadId ||
                (target.scope === 'connection' && wait.blocking.threadId === threadId),
            ),
        );
      else setKilled((last) => ({ seq: (last?.seq ?? 0) + 1, request: target }));
    } catch (caught) {
      setKillError(toShownError(caught));
    }
  }

  return (
    <div className="locks" data-testid="locks-panel-body">
      <div className="locks__views" role="group" aria-label="Locks view">
        {(
          [
            ['waits', 'Lock waits'],
            ['transactions', 'Transactions'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            className={`button button--small${view === id ? ' button--primary' : ''}`}
            aria-pressed={view === id}
            onClick={() => setView(id)}
            data-testid={`locks-view-${id}`}
          >
            {label}
          </button>
        ))}
      </div>
      {notice && (
        <p className="locks__notice" role="status">
          {notice}
        </p>
      )}
      {view === 'transactions' ? (
        <TransactionsView
          api={api}
          connectionId={connectionId}
          linkUp={linkUp}
          onKill={setKill}
          killed={killed}
        />
      ) : (
        <>
          <PollingToolbar
            polling={polling}
            linkUp={linkUp}
            label="Polling"
            intervalLabel="Poll interval"
            testIdPrefix="locks"
            status={
              snapshot &&
              ` · ${snapshot.source} · ${new Date(snapshot.takenAt).toLocaleTimeString()} · ${Math.round(snapshot.elapsedMs)} ms`
            }
          />
          {error && (
            <div className="panels__error">
              <ErrorBox error={error} testId="locks-error" />
            </div>
          )}
          {snapshot?.problems.map((problem) => (
            <p
              key={problem.area + problem.message}
              className="modes__risk"
              role="note"
              data-testid="locks-problem"
            >
              ⚠ {problem.message} <code>{problem.fix}</code>
            </p>
          ))}
          {snapshot && snapshot.roots.length === 0 && snapshot.metadataWaits.length === 0 && (
            <div className="empty-state" data-testid="locks-none">
              <p className="empty-state__title">No lock waits right now</p>
              <p>Sessions waiting for row or metadata locks appear here within one poll.</p>
            </div>
          )}
          {snapshot && snapshot.roots.length > 0 && (
            <div className="locks__body">
              <ul className="locks__tree" role="tree" aria-label="Blocking tree" data-testid="locks-tree">
                {snapshot.roots.map((root) => (
                  <LockNode key={root.txn.trxId} node={root} selected={selected} onSelect={setSelected} />
                ))}
              </ul>
              <section className="locks__details" aria-label="Details" data-testid="locks-details">
                {selectedTxn ? (
                  <TxnDetails
                    api={api}
                    connectionId={connectionId}
                    txn={selectedTxn}
                    waits={selectedWaits}
                    canCount={isBlocker && snapshot.source === 'data_locks'}
                    onKill={(scope) =>
                      selectedTxn.threadId !== null &&
                      setKill({
                        scope,
                        session: {
                          threadId: selectedTxn.threadId,
                          user: selectedTxn.user,
                          host: selectedTxn.host,
                          statement: selectedTxn.statement,
                          idle: selectedTxn.statementSource !== 'current',
                          trxAgeSeconds: selectedTxn.trxAgeSeconds,
                        },
                      })
                    }
                  />
                ) : (
                  <p className="empty-state__hint">
                    Select a session in the tree to see its locks, statement and rewrites.
                  </p>
                )}
              </section>
            </div>
          )}
          {snapshot && snapshot.metadataWaits.length > 0 && (
            <MetadataTree snapshot={snapshot} onKill={setKill} />
          )}
          {snapshot && <Deadlocks snapshot={snapshot} />}
        </>
      )}
      {kill && (
        <KillConfirm
          request={kill}
          production={production}
          onClose={() => setKill(null)}
          onConfirm={(confirmation) => void runKill(kill, confirmation)}
        />
      )}
    </div>
  );
}

function findTxn(nodes: readonly BlockingNode[], trxId: string | null): TxnInfo | undefined {
  for (const node of nodes) {
    if (node.txn.trxId === trxId) return node.txn;
    const found = findTxn(node.children, trxId);
    if (found) return found;
  }
  return undefined;
}

function LockNode({
  node,
  selected,
  onSelect,
}: {
  node: BlockingNode;
  selected: string | null;
  onSelect(trxId: string): void;
}) {
  const txn = node.txn;
  return (
    <li
      role="treeitem"
      aria-level={node.depth + 1}
      aria-selected={selected === txn.trxId}
      className="locks__item"
    >
      <button
        type="button"
        className={`locks__node${node.depth === 0 ? ' locks__node--root' : ''}${selected === txn.trxId ? ' is-selected' : ''}`}
        onClick={() => onSelect(txn.trxId)}
        data-testid="locks-node"
        data-depth={node.depth}
      >
        <span className={`badge ${node.depth === 0 ? 'badge--error' : 'badge--caution'}`}>
          {node.depth === 0
            ? `root blocker · blocks ${node.blockedCount}`
            : `waits ${node.waitSeconds ?? '?'} s`}
        </span>
        <span className="locks__who">
          thread {txn.threadId ?? '?'} · {txn.user ?? '?'}@{txn.host ?? '?'}
        </span>
        <code className="locks__statement">{txn.statement ?? '(idle in transaction)'}</code>
        {node.inCycle && <span className="badge badge--error">cycle</span>}
      </button>
      {node.children.length > 0 && (
        <ul role="group" className="plan-tree__children">
          {node.children.map((child) => (
            <LockNode
              key={`${child.txn.trxId}-${child.depth}`}
              node={child}
              selected={selected}
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

function TxnDetails({
  api,
  connectionId,
  txn,
  waits,
  canCount,
  onKill,
}: {
  api: AdvisorApi;
  connectionId: string;
  txn: TxnInfo;
  waits: LockWaitView[];
  canCount: boolean;
  onKill(scope: 'query' | 'connection'): void;
}) {
  return (
    <div>
      <dl className="about">
        <dt>Thread</dt>
        <dd>{txn.threadId ?? 'unknown'}</dd>
        <dt>User</dt>
        <dd>
          {txn.user ?? '?'}@{txn.host ?? '?'}
        </dd>
        <dt>Transaction</dt>
        <dd>
          {txn.trxId} · {txn.trxAgeSeconds ?? '?'} s old · {txn.rowsLocked ?? '?'} rows locked ·{' '}
          {txn.rowsModified ?? '?'} modified
        </dd>
        <dt>{txn.statementSource === 'last' ? 'Last statement' : 'Statement'}</dt>
        <dd>
          <code>{txn.statement ?? '(unknown)'}</code>
        </dd>
      </dl>
      {waits.map((wait, index) => (
        <div key={index} className="locks__wait">
          <p>
            Waits {wait.waitSeconds ?? '?'} s for <strong>{wait.lock.mode}</strong> on{' '}
            <code>
              {wait.lock.table}
              {wait.lock.index ? `.${wait.lock.index}` : ''}
            </code>
            {wait.lock.lockData && (
              <>
                {' '}
                record{' '}
                <code>
                  {wait.lock.values
                    ?.map((value) => `${value.column ?? '?'}=${value.value ?? value.raw}`)
                    .join(', ') ?? wait.lock.lockData}
                </code>
              </>
            )}{' '}
            held by thread {wait.blocking.threadId ?? '?'}.
          </p>
        </div>
      ))}
      {waits[0]?.waiting.statement && (
        <Rewrites api={api} connectionId={connectionId} sql={waits[0].waiting.statement} />
      )}
      {canCount && <LockCounts api={api} connectionId={connectionId} trxId={txn.trxId} />}
      {txn.threadId !== null && (
        <div className="locks__kill">
          <button
            type="button"
            className="button button--small"
            onClick={() => onKill('query')}
            data-testid="kill-query"
          >
            Kill query…
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            onClick={() => onKill('connection')}
            data-testid="kill-connection"
          >
            Kill connection…
          </button>
        </div>
      )}
    </div>
  );
}

/** The distinct deadlocks kept in the workspace (newest first), or the latest one when no history was read. */
function Deadlocks({ snapshot }: { snapshot: LockSnapshot }) {
  const history: DeadlockHistoryEntry[] =
    snapshot.deadlockHistory ??
    snapshot.deadlocks.map((deadlock) => ({
      fingerprint: deadlock.fingerprint,
      occurrences: 1,
      firstDetectedAt: deadlock.detectedAt,
      lastDetectedAt: deadlock.detectedAt,
      latest: deadlock,
    }));
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="locks__section" aria-label="Deadlocks" data-testid="locks-deadlocks">
      <h3>Deadlocks{snapshot.deadlockHistory ? ' (kept in the workspace)' : ''}</h3>
      {history.length === 0 ? (
        <p className="empty-state__hint" data-testid="locks-deadlocks-empty">
          No deadlock seen on this server yet. Each distinct deadlock InnoDB reports is kept here, also after
          a restart.
        </p>
      ) : (
        <ul className="locks__deadlocks">
          {[...history].reverse().map((entry) => {
            const deadlock = entry.latest;
            const expanded = open === entry.fingerprint;
            return (
              <li key={entry.fingerprint} data-testid="locks-deadlock">
                <button
                  type="button"
                  className="locks__deadlock-head"
                  aria-expanded={expanded}
                  onClick={() => setOpen(expanded ? null : entry.fingerprint)}
                >
                  <span className="badge badge--error">
                    {entry.occurrences === 1 ? 'once' : `${entry.occurrences} times`}
                  </span>
                  <span>
                    last {entry.lastDetectedAt ?? 'at an unknown time'}
                    {entry.occurrences > 1 && entry.firstDetectedAt
                      ? ` · first ${entry.firstDetectedAt}`
                      : ''}
                  </span>
                  <span className="status-bar__muted">
                    {deadlock.transactions.length} transactions · victim ({deadlock.victim ?? '?'}) ·{' '}
                    {entry.fingerprint}
                  </span>
                </button>
                {expanded && (
                  <table className="data-table">
                    <tbody>
                      {deadlock.transactions.map((txn) => (
                        <tr key={txn.number}>
                          <td>
                            ({txn.number}){txn.number === deadlock.victim ? ' rolled back' : ''}
                          </td>
                          <td>thread {txn.threadId ?? '?'}</td>
                          <td>
                            <code className="data-table__sql">{txn.statement}</code>
                          </td>
                          <td>
                            waits for{' '}
                            {txn.waitsFor
                              ? `${txn.waitsFor.mode} on ${txn.waitsFor.table ?? '?'}${txn.waitsFor.index ? `.${txn.waitsFor.index}` : ''}`
                              : '—'}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
