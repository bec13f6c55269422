// Apply DDL: the confirmation that shows the exact SQL (plus the production name), the call, and the result where it happened.
import { useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { AppliedStatement } from '../../shared/api/ddl.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { ConfirmDialog } from './modal.js';
import { productionField } from './production-confirm.js';

/** What an Apply DDL run came to: running (with its id, for Cancel), the statements applied, or the server's error. */
export type DdlOutcome =
  | { state: 'running'; runId?: string }
  | { state: 'done'; applied: AppliedStatement[] }
  | { state: 'failed'; error: ShownError };

/** The Apply dialog's lock wait (session lock_wait_timeout), seconds: the server-side default and bound. */
const DEFAULT_LOCK_WAIT_SECONDS = 5;
const MAX_LOCK_WAIT_SECONDS = 600;

/** An id for a run of Apply DDL or what-if, so Cancel (ddl.cancel) can name it. */
export function newRunId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `run-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Runs in flight, by id: how to cancel each (KILL QUERY of our own statement on the server). Kept here,
 * not in the outcome, so outcomes stay plain data in the workbench state.
 */
const cancels = new Map<string, () => Promise<boolean>>();

/** The statements as they are sent: one per entry, without a trailing semicolon. */
export function ddlStatements(ddl: readonly string[]): string[] {
  return ddl.map((sql) => sql.trim().replace(/;\s*$/, '').trim()).filter((sql) => sql !== '');
}

/**
 * The confirmation: the exact statements, where they run, the production name when needed. Apply
 * sends them with `consent: true`; the outcome goes to `onOutcome` (the place that asked shows it).
 */
export function ApplyDdlDialog({
  api,
  connectionId,
  statements,
  where,
  production,
  onOutcome,
  onClose,
}: {
  api: AdvisorApi;
  connectionId: string;
  statements: string[];
  /** The connection label the statements run on. */
  where: string;
  production: string | null;
  onOutcome(outcome: DdlOutcome): void;
  onClose(): void;
}) {
  const [waitText, setWaitText] = useState(String(DEFAULT_LOCK_WAIT_SECONDS));
  const wait = Number(waitText);
  const waitValid =
    waitText.trim() !== '' && Number.isInteger(wait) && wait >= 1 && wait <= MAX_LOCK_WAIT_SECONDS;
  return (
    <ConfirmDialog
      testId="apply-ddl-confirm"
      blocked={
        waitValid ? null : `The lock wait: a whole number of seconds from 1 to ${MAX_LOCK_WAIT_SECONDS}.`
      }
      title={statements.length === 1 ? 'Apply this DDL?' : `Apply these ${statements.length} statements?`}
      danger
      production={production}
      confirmLabel="Apply"
      sql={statements.map((sql) => `${sql};`).join('\n')}
      message={
        <>
          <p>
            This changes the schema on <strong>{where}</strong>, exactly as shown below. It runs on a
            separate, short-lived connection (the analysis session stays read-only) and is recorded in the
            workspace history.
          </p>
          <p>
            DDL is not transactional: if a statement fails, the ones before it stay applied. Building an index
            on a large table takes time and load; for big tables, prefer the Export panel’s
            pt-online-schema-change or gh-ost variants.
          </p>
          <label className="dialog__field">
            Give up waiting for the table’s metadata lock after{' '}
            <input
              type="number"
              min={1}
              max={MAX_LOCK_WAIT_SECONDS}
              step={1}
              value={waitText}
              onChange={(event) => setWaitText(event.target.value)}
              aria-invalid={!waitValid}
              title="Session lock_wait_timeout for the DDL: behind an open transaction, every later query on the table queues behind a waiting ALTER, so keep it short"
              data-testid="apply-lock-wait"
            />{' '}
            s
          </label>
          {!waitValid && (
            <p className="export__warning" role="alert" data-testid="apply-lock-wait-problem">
              A whole number of seconds from 1 to {MAX_LOCK_WAIT_SECONDS}.
            </p>
          )}
        </>
      }
      onClose={onClose}
      onConfirm={(typed) => {
        onClose();
        const runId = newRunId();
        cancels.set(runId, () => api['ddl.cancel']({ connectionId, runId }).then((reply) => reply.cancelled));
        onOutcome({ state: 'running', runId });
        api['ddl.apply']({
          connectionId,
          statements,
          consent: true,
          runId,
          lockWaitTimeoutSeconds: wait,
          ...productionField(production, typed ?? ''),
        })
          .then(
            (reply) => onOutcome({ state: 'done', applied: reply.applied }),
            (caught: unknown) => onOutcome({ state: 'failed', error: toShownError(caught) }),
          )
          .finally(() => cancels.delete(runId));
      }}
    />
  );
}

/** The outcome line under what was applied. */
export function DdlOutcomeView({ outcome }: { outcome: DdlOutcome }) {
  if (outcome.state === 'running') return <DdlRunning runId={outcome.runId} />;
  if (outcome.state === 'failed') return <ErrorBox error={outcome.error} testId="ddl-error" />;
  const ms = outcome.applied.reduce((sum, entry) => sum + entry.ms, 0);
  const warnings = outcome.applied.reduce((sum, entry) => sum + entry.warnings, 0);
  return (
    <p className="ddl-outcome ddl-outcome--done" role="status" data-testid="ddl-applied">
      Applied on the server:{' '}
      {outcome.applied.length === 1 ? '1 statement' : `${outcome.applied.length} statements`} in {ms} ms
      {warnings > 0 ? `, ${warnings} warning(s)` : ''}. Logged in the workspace history.
    </p>
  );
}

/** "Applying…" with Cancel: KILL QUERY of our own statement (an ALTER waiting for a metadata lock stops at once). */
function DdlRunning({ runId }: { runId: string | undefined }) {
  const [cancelling, setCancelling] = useState<'no' | 'asked' | 'ended'>('no');
  const cancel = runId ? cancels.get(runId) : undefined;
  return (
    <p className="ddl-outcome" role="status" data-testid="ddl-running">
      Applying on the server…{' '}
      {cancel && (
        <button
          type="button"
          className="button button--small"
          disabled={cancelling !== 'no'}
          onClick={() => {
            setCancelling('asked');
            cancel().then(
              (cancelled) => !cancelled && setCancelling('ended'),
              () => setCancelling('ended'),
            );
          }}
          data-testid="ddl-cancel"
        >
          {cancelling === 'asked' ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
      {cancelling === 'ended' && ' (it had already finished)'}
    </p>
  );
}
