// The metadata-lock wait tree in the Locks panel: each waiting DDL, the sessions holding the lock it needs
// (transaction age, last statement, Kill behind a confirmation) and the sessions queued behind it.
// Statements are other sessions' SQL: rendered as text (React escapes it), never run.
import type { MdlParticipant, MetadataWaitGroup } from '../../core/locks/metadata-tree.js';
import type { LockSnapshot } from '../../core/locks/snapshot.js';
import type { KillRequest } from './kill-confirm.js';

const SOURCE_LABEL: Record<MetadataWaitGroup['source'], string> = {
  metadata_locks: 'performance_schema.metadata_locks',
  metadata_lock_info: 'METADATA_LOCK_INFO (requests inferred from the processlist)',
  inferred: 'inferred: open transactions older than the wait (metadata locks not instrumented)',
};

/** The wait tree, or the flat list of waiters when no group could be formed. */
export function MetadataTree({
  snapshot,
  onKill,
}: {
  snapshot: LockSnapshot;
  onKill(request: KillRequest): void;
}) {
  const groups = snapshot.metadataTree ?? [];
  const placed = new Set(
    groups.flatMap((group) => [group.waiter, ...group.queued].map((entry) => entry.session.threadId)),
  );
  const loose = snapshot.metadataWaits.filter((wait) => !placed.has(wait.threadId));
  return (
    <section className="locks__section" aria-label="Metadata lock waits" data-testid="mdl-tree">
      <h3>Metadata lock waits</h3>
      {groups.map((group) => (
        <div
          key={group.waiter.session.threadId}
          className="mdl__group"
          data-testid="mdl-group"
          data-source={group.source}
        >
          <div className="mdl__waiter" data-testid="mdl-waiter">
            <span className="badge badge--caution">
              waits {group.waiter.session.seconds ?? '?'} s
              {group.waiter.mode ? ` for ${modeName(group.waiter)}` : ''}
            </span>
            <span className="locks__who">
              on{' '}
              <strong>{[group.schema, group.table].filter(Boolean).join('.') || 'an unknown table'}</strong> ·{' '}
              {who(group.waiter)}
            </span>
            <code className="locks__statement">
              {group.waiter.session.statement ?? '(unknown statement)'}
            </code>
            <KillButtons participant={group.waiter} onKill={onKill} />
          </div>
          <ul className="mdl__list" aria-label="Held by">
            {group.holders.length === 0 && (
              <li className="empty-state__hint">
                Held by: no session visible (the holder may have just ended its transaction).
              </li>
            )}
            {group.holders.map((holder) => (
              <li key={holder.session.threadId} className="mdl__holder" data-testid="mdl-holder">
                <span className="badge badge--error">{holder.inferred ? 'likely holder' : 'holder'}</span>
                <span className="locks__who">
                  {who(holder)}
                  {holder.mode ? ` · holds ${modeName(holder)}` : ''} ·{' '}
                  {holder.session.trxAgeSeconds !== null
                    ? `transaction open ${holder.session.trxAgeSeconds} s`
                    : 'no open transaction'}{' '}
                  · {holder.session.statementSource === 'current' ? 'running' : 'idle'}
                </span>
                <code className="locks__statement" title="Last statement">
                  {holder.session.statementSource === 'last' ? 'last: ' : ''}
                  {holder.session.statement ?? '(last statement unknown)'}
                </code>
                <KillButtons participant={holder} onKill={onKill} />
              </li>
            ))}
          </ul>
          {group.queued.length > 0 && (
            <details className="mdl__queued" open data-testid="mdl-queued">
              <summary>
                {group.queued.length} session{group.queued.length === 1 ? '' : 's'} queued behind it
              </summary>
              <ul className="mdl__list">
                {group.queued.map((entry) => (
                  <li key={entry.session.threadId} data-testid="mdl-queued-session">
                    <span className="locks__who">
                      {who(entry)} · waits {entry.session.seconds ?? '?'} s
                    </span>
                    <code className="locks__statement">{entry.session.statement ?? ''}</code>
                  </li>
                ))}
              </ul>
            </details>
          )}
          <p className="status-bar__muted mdl__source">Source: {SOURCE_LABEL[group.source]}</p>
        </div>
      ))}
      {loose.length > 0 && (
        <table className="data-table">
          <tbody>
            {loose.map((wait) => (
              <tr key={wait.threadId} data-testid="mdl-loose">
                <td>thread {wait.threadId}</td>
                <td>waits {wait.waitSeconds ?? '?'} s</td>
                <td>
                  <code className="data-table__sql">{wait.statement}</code>
                </td>
                <td>holder not identified</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function who(participant: MdlParticipant): string {
  const { session } = participant;
  return `thread ${session.threadId} · ${session.user ?? '?'}@${session.host ?? '?'}`;
}

function modeName(participant: MdlParticipant): string {
  const mode = (participant.mode ?? '').replace(/^MDL_/, '');
  return participant.inferred ? `${mode} (inferred)` : mode;
}

function KillButtons({
  participant,
  onKill,
}: {
  participant: MdlParticipant;
  onKill(request: KillRequest): void;
}) {
  const { session } = participant;
  const target = {
    threadId: session.threadId,
    user: session.user,
    host: session.host,
    statement: session.statement,
    idle: session.statementSource !== 'current',
    trxAgeSeconds: session.trxAgeSeconds,
  };
  return (
    <span className="mdl__kill">
      <button
        type="button"
        className="button button--small"
        onClick={() => onKill({ session: target, scope: 'query' })}
        data-testid="mdl-kill-query"
      >
        Kill query…
      </button>
      <button
        type="button"
        className="button button--small button--danger"
        onClick={() => onKill({ session: target, scope: 'connection' })}
        data-testid="mdl-kill-connection"
      >
        Kill connection…
      </button>
    </span>
  );
}
