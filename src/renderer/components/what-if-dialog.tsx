// What-if verification: show the table size and every statement it will run, build the index after confirmation, show before/after.
import { useEffect, useMemo, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { WhatIfReply } from '../../shared/api/explain.js';
import type { TableSizeReply } from '../../shared/api/ui.js';
import type { PlanSummary } from '../../core/explain/index.js';
import type { Suggestion } from '../../core/model/report.js';
import type { Flavor } from '../../core/flavors/capabilities.js';
import { WHAT_IF_LOCK_WAIT_SECONDS, whatIfSteps, type WhatIfStep } from '../../core/explain/what-if.js';
import { whatIfDdl } from '../../core/indexing/index.js';
import { formatBytes, formatCount } from '../plan-view.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { newRunId } from './apply-ddl-dialog.js';
import { Modal } from './modal.js';
import { ProductionConfirmField, productionConfirmed, productionField } from './production-confirm.js';

/** What the dialog verifies. */
export interface WhatIfTarget {
  connectionId: string;
  /** Invisible index (MySQL 8) or a plain index on a sandbox (MariaDB and the rest). */
  invisible: boolean;
  flavor: Flavor;
  sql: string;
  table: string;
  suggestion: Suggestion;
  /** The profile name to type first when the connection is marked production. */
  production?: string | null;
}

type Step =
  | { step: 'confirm'; size: TableSizeReply | null; sizeError: ShownError | null }
  | { step: 'running'; runId: string; cancelling?: boolean }
  | { step: 'done'; reply: WhatIfReply }
  | { step: 'failed'; error: ShownError };

/** Confirm → run → side-by-side result. */
export function WhatIfDialog({
  api,
  target,
  onVerified,
  onClose,
}: {
  api: AdvisorApi;
  target: WhatIfTarget;
  onVerified(reply: WhatIfReply): void;
  onClose(): void;
}) {
  const [state, setState] = useState<Step>({ step: 'confirm', size: null, sizeError: null });
  const [typed, setTyped] = useState('');
  const production = target.production ?? null;
  const steps = useMemo(() => stepsOf(target), [target]);
  useEffect(() => {
    let live = true;
    api['ui.tableSize']({ connectionId: target.connectionId, table: target.table }).then(
      (size) => live && setState((current) => (current.step === 'confirm' ? { ...current, size } : current)),
      (error: unknown) =>
        live &&
        setState((current) =>
          current.step === 'confirm' ? { ...current, sizeError: toShownError(error) } : current,
        ),
    );
    return () => {
      live = false;
    };
  }, [api, target]);

  async function run() {
    const runId = newRunId();
    setState({ step: 'running', runId });
    try {
      const reply = await api['explain.whatIf']({
        runId,
        connectionId: target.connectionId,
        sql: target.sql,
        table: target.table,
        ddl: target.suggestion.ddl,
        ...(target.suggestion.rewrittenSql ? { rewrittenSql: target.suggestion.rewrittenSql } : {}),
        confirmed: true,
        lockWaitTimeoutSeconds: WHAT_IF_LOCK_WAIT_SECONDS,
        ...productionField(production, typed),
      });
      setState({ step: 'done', reply });
      onVerified(reply);
    } catch (error) {
      setState({ step: 'failed', error: toShownError(error) });
    }
  }

  return (
    <Modal title="Verify with a what-if index" onClose={onClose} testId="what-if-dialog" wide>
      <div className="dialog__body">
        {state.step === 'confirm' && (
          <>
            <p className="dialog__message">
              This <strong>builds a real index</strong> on <code>{target.table}</code>{' '}
              {target.invisible
                ? 'as INVISIBLE (only this session’s EXPLAIN may use it)'
                : 'on this sandbox server (every session may use it until it is dropped)'}
              , compares EXPLAIN before and after, and drops it again — also after an error. Building takes
              time and I/O and holds a metadata lock briefly. These statements run, in this order:
            </p>
            <p className="dialog__size" data-testid="what-if-size">
              {state.size
                ? `Table ${state.size.database ? `${state.size.database}.` : ''}${target.table}: about ${formatCount(state.size.rows)} rows, ${formatBytes(state.size.bytes)}`
                : state.sizeError
                  ? `Table size unknown: ${state.sizeError.message}`
                  : 'Reading the table size…'}
            </p>
            <WhatIfSteps steps={steps} />
            <ProductionConfirmField name={production} value={typed} onChange={setTyped} />
            <footer className="dialog__footer">
              <button type="button" className="button" onClick={onClose} autoFocus>
                Cancel
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={!productionConfirmed(production, typed)}
                onClick={() => void run()}
                data-testid="what-if-run"
              >
                Build, compare and drop
              </button>
            </footer>
          </>
        )}
        {state.step === 'running' && (
          <>
            <p className="empty-state__title" aria-busy="true">
              Building the index, running EXPLAIN, dropping it…
            </p>
            <footer className="dialog__footer">
              <button
                type="button"
                className="button"
                disabled={state.cancelling === true}
                onClick={() => {
                  setState({ ...state, cancelling: true });
                  // KILL QUERY of our own statement; what-if still drops what it built.
                  void api['ddl.cancel']({ connectionId: target.connectionId, runId: state.runId }).catch(
                    () => undefined,
                  );
                }}
                data-testid="what-if-cancel"
              >
                {state.cancelling ? 'Cancelling…' : 'Cancel'}
              </button>
            </footer>
          </>
        )}
        {state.step === 'failed' && (
          <>
            <ErrorBox error={state.error} testId="what-if-error" />
            <footer className="dialog__footer">
              <button type="button" className="button button--primary" onClick={onClose}>
                Close
              </button>
            </footer>
          </>
        )}
        {state.step === 'done' && (
          <>
            <WhatIfResult reply={state.reply} />
            <footer className="dialog__footer">
              <button type="button" className="button button--primary" onClick={onClose} autoFocus>
                Close
              </button>
            </footer>
          </>
        )}
      </div>
    </Modal>
  );
}

/** The statements of the run, as the service sends them (core/explain/what-if.ts). */
export function stepsOf(target: WhatIfTarget): WhatIfStep[] {
  return whatIfSteps({
    table: target.table,
    ddl: target.suggestion.ddl.map(whatIfDdl),
    method: target.invisible ? 'invisible-index' : 'sandbox',
    flavor: target.flavor,
    lockWaitSeconds: WHAT_IF_LOCK_WAIT_SECONDS,
    beforeSql: target.sql,
    afterSql: target.suggestion.rewrittenSql ?? target.sql,
  });
}

const stepLabel: Record<WhatIfStep['kind'], string> = {
  session: 'session',
  read: 'read',
  write: 'write',
};

export function WhatIfSteps({ steps }: { steps: readonly WhatIfStep[] }) {
  return (
    <ol className="what-if__steps" data-testid="what-if-steps">
      {steps.map((step, index) => (
        <li key={index} data-testid="what-if-step" data-kind={step.kind}>
          <span className={`badge ${step.kind === 'write' ? 'badge--caution' : ''}`}>
            {stepLabel[step.kind]}
          </span>{' '}
          <code className="what-if__sql">{step.sql}</code>
          <span className="what-if__purpose"> — {step.purpose}</span>
        </li>
      ))}
    </ol>
  );
}

const verdictText: Record<WhatIfReply['verdict'], string> = {
  improved: 'Improved',
  unchanged: 'Unchanged',
  worse: 'Worse',
};

/** Before/after side by side with the verdict. */
export function WhatIfResult({ reply }: { reply: WhatIfReply }) {
  const rows: { label: string; pick(summary: PlanSummary): string }[] = [
    { label: 'Access type', pick: (summary) => summary.accessType ?? '—' },
    { label: 'Key', pick: (summary) => summary.key ?? 'none' },
    { label: 'Rows (estimated)', pick: (summary) => formatCount(summary.rowsEstimated) },
    { label: 'Cost', pick: (summary) => formatCount(summary.cost) },
  ];
  return (
    <div className="what-if" data-testid="what-if-result">
      <p className={`what-if__verdict what-if__verdict--${reply.verdict}`} data-testid="what-if-verdict">
        {verdictText[reply.verdict]} on <code>{reply.table}</code>: {reply.reason}
        <span className="what-if__method">
          {reply.method === 'invisible-index' ? 'invisible index' : 'sandbox index'} · dropped afterwards
        </span>
      </p>
      <table className="what-if__table">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const before = row.pick(reply.before);
            const after = row.pick(reply.after);
            return (
              <tr key={row.label} className={before !== after ? 'is-changed' : ''}>
                <th scope="row">{row.label}</th>
                <td>{before}</td>
                <td>{after}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
