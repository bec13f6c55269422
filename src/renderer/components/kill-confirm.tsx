// KILL QUERY / KILL CONNECTION behind a confirmation that names the session (id, user, host, statement).
// The Locks panel (blocking tree, metadata-lock tree) and the Transactions panel share it. The statement
// is another session's SQL: shown as text (React escapes it), never run.
import { ConfirmDialog } from './modal.js';

/** The session a kill would stop, as the confirmation names it. */
export interface KillSession {
  threadId: number;
  user: string | null;
  host: string | null;
  statement: string | null;
  /** No statement running now: KILL QUERY would change nothing (its transaction keeps its locks). */
  idle: boolean;
  /** Seconds its transaction has been open, when it has one. */
  trxAgeSeconds?: number | null;
}

/** A kill the user asked for and has not confirmed yet. */
export interface KillRequest {
  session: KillSession;
  scope: 'query' | 'connection';
}

export function KillConfirm({
  request,
  production,
  onConfirm,
  onClose,
}: {
  request: KillRequest;
  production: string | null;
  onConfirm(productionConfirmation: string | undefined): void;
  onClose(): void;
}) {
  const { session, scope } = request;
  const label = `KILL ${scope.toUpperCase()} ${session.threadId}`;
  return (
    <ConfirmDialog
      testId="kill-confirm"
      title={`${label}?`}
      danger
      message={
        <>
          <p>
            This stops <strong>thread {session.threadId}</strong> of{' '}
            <strong>
              {session.user ?? 'unknown user'}@{session.host ?? '?'}
            </strong>
            {scope === 'connection'
              ? ': the connection closes and its open transaction is rolled back, which releases its locks.'
              : ': its running statement is aborted; the transaction and its locks stay.'}
            {session.trxAgeSeconds !== null && session.trxAgeSeconds !== undefined
              ? ` Its transaction has been open ${session.trxAgeSeconds} s.`
              : ''}
          </p>
          {scope === 'query' && session.idle && (
            <p className="modes__risk" data-testid="kill-idle-note">
              It runs no statement now, so KILL QUERY changes nothing: its transaction keeps the locks. Kill
              the connection to release them.
            </p>
          )}
          <p>{session.idle ? 'Last statement:' : 'Statement:'}</p>
        </>
      }
      sql={session.statement ?? '(no statement known)'}
      confirmLabel={label}
      onClose={onClose}
      production={production}
      onConfirm={onConfirm}
    />
  );
}
