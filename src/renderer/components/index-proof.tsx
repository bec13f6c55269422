// Proof of the Index set in the view: the button, the confirmation listing every statement, progress with Cancel, and each index's verdict.
import { useMemo, useState } from 'react';
import { WHAT_IF_LOCK_WAIT_SECONDS } from '../../core/explain/what-if.js';
import {
  proofSteps,
  setProofSteps,
  type IndexProof,
  type ProofPlan,
  type SetStatementProof,
} from '../../core/explain/what-if-set.js';
import type { WorkloadPlan } from '../../core/indexing/index.js';
import { whatIfDdl } from '../../core/indexing/index.js';
import type { Workbench } from '../state/context.js';
import {
  cancelProof,
  indexProofStore,
  proofCandidates,
  runProof,
  type IndexProofState,
} from '../state/index-proof.js';
import { useStore } from '../state/store.js';
import { verifyBlocked } from '../state/suggestions.js';
import { liveOf, type WorkbenchState } from '../state/workbench.js';
import { productionName } from '../session.js';
import { ErrorBox } from './error-box.js';
import { Modal } from './modal.js';
import { ProductionConfirmField, productionConfirmed, productionField } from './production-confirm.js';
import { WhatIfSteps } from './what-if-dialog.js';

const count = (value: number | null, digits = 0) =>
  value === null ? '?' : value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : digits });

/** "Prove on the server" and, while open, its dialog. */
export function ProveIndexSet({
  wb,
  state,
  plan,
}: {
  wb: Workbench;
  state: WorkbenchState;
  plan: WorkloadPlan;
}) {
  const proof = useStore(indexProofStore(wb));
  const blocked = verifyBlocked(state);
  const candidates = useMemo(() => proofCandidates(plan), [plan]);
  return (
    <div className="index-proof__bar" data-testid="index-proof-bar">
      <button
        type="button"
        className="button button--small"
        disabled={blocked !== null || candidates.length === 0 || proof.step === 'running'}
        title={
          blocked ??
          'Build each index invisibly (MySQL 8) or on the sandbox, EXPLAIN its statements before and after, drop it: the optimizer decides which indexes are proposed'
        }
        onClick={() => indexProofStore(wb).dispatch({ type: 'proof/confirm' })}
        data-testid="index-proof-start"
      >
        {proof.step === 'running' && proof.mode === 'each'
          ? `Proving ${proof.done} of ${proof.total}…`
          : 'Prove each on the server'}
      </button>
      <button
        type="button"
        className="button button--small"
        disabled={blocked !== null || candidates.length === 0 || proof.step === 'running'}
        title={
          blocked ??
          'Build every index of the set together (INVISIBLE on MySQL 8, on the sandbox elsewhere), EXPLAIN each statement before and with the whole set, drop them all: shows which index each statement picks, and which ones the others make redundant'
        }
        onClick={() => indexProofStore(wb).dispatch({ type: 'proof/confirm', mode: 'set' })}
        data-testid="index-proof-set-start"
      >
        {proof.step === 'running' && proof.mode === 'set'
          ? `Proving the set: step ${proof.done} of ${proof.total}…`
          : 'Prove as a set'}
      </button>
      {blocked && <span className="index-plan__blocked">{blocked}</span>}
      <ProofSummary proof={proof} />
      {proof.step === 'done' && proof.mode === 'set' && <SetStatements statements={proof.statements} />}
      {(proof.step === 'confirm' || proof.step === 'running') && (
        <ProofDialog wb={wb} state={state} plan={plan} proof={proof} />
      )}
    </div>
  );
}

function ProofSummary({ proof }: { proof: IndexProofState }) {
  if (proof.step === 'failed')
    return proof.cancelled ? (
      <span className="index-plan__note" data-testid="index-proof-summary">
        Proof cancelled: what it built was dropped.
      </span>
    ) : (
      proof.error && <ErrorBox error={proof.error} testId="index-proof-error" />
    );
  const proofs = Object.values(proof.proofs);
  if (proof.step !== 'done' || proofs.length === 0) return null;
  const chosen = proofs.filter((entry) => entry.status === 'chosen').length;
  const rejected = proofs.filter((entry) => entry.status === 'rejected').length;
  const failed = proofs.length - chosen - rejected;
  return (
    <span className="index-plan__note" data-testid="index-proof-summary">
      {proof.mode === 'set' ? 'Proven as a set' : 'Proven'}{' '}
      {proof.method === 'invisible-index' ? 'with invisible indexes' : 'on the sandbox'}: {chosen}{' '}
      {proof.mode === 'set' ? 'picked with the whole set present' : 'chosen by the optimizer'}, {rejected}{' '}
      {proof.mode === 'set' ? 'never picked (rejected)' : 'rejected'}
      {failed > 0 ? `, ${failed} could not be proven` : ''}.
    </span>
  );
}

function ProofDialog({
  wb,
  state,
  plan,
  proof,
}: {
  wb: Workbench;
  state: WorkbenchState;
  plan: WorkloadPlan;
  proof: IndexProofState;
}) {
  const live = liveOf(state);
  const [typed, setTyped] = useState('');
  const production = productionName(state.session);
  const candidates = useMemo(() => proofCandidates(plan), [plan]);
  if (!live) return null;
  const invisible = live.server.capabilities.invisibleIndexes;
  const method = invisible ? 'invisible-index' : 'sandbox';
  const flavor = live.server.flavor === 'mariadb' ? 'mariadb' : 'mysql';
  const close = () => indexProofStore(wb).dispatch({ type: 'proof/close' });
  return (
    <Modal
      title={proof.mode === 'set' ? 'Prove the index set as a whole' : 'Prove the index set on the server'}
      onClose={close}
      testId="index-proof-dialog"
      wide
    >
      <div className="dialog__body">
        {proof.step === 'confirm' ? (
          <>
            {proof.mode === 'set' ? (
              <>
                <p className="dialog__message">
                  This{' '}
                  <strong>
                    builds all {candidates.length} index{candidates.length === 1 ? '' : 'es'} together
                  </strong>
                  ,{' '}
                  {invisible
                    ? 'as INVISIBLE (only this session’s EXPLAIN may use them)'
                    : 'on this sandbox server (every session may use them until they are dropped)'}
                  , EXPLAINs every statement before and with the whole set, and drops them all again — also
                  after an error or Cancel. An index no statement picks with the others present is marked
                  rejected, made redundant by the index picked instead. Each build takes time and I/O and
                  holds its table’s metadata lock briefly. These statements run, in this order:
                </p>
                <WhatIfSteps
                  steps={setProofSteps(
                    candidates.map((candidate) => ({ ...candidate, ddl: candidate.ddl.map(whatIfDdl) })),
                    method,
                    flavor,
                    WHAT_IF_LOCK_WAIT_SECONDS,
                  )}
                />
              </>
            ) : (
              <>
                <p className="dialog__message">
                  This{' '}
                  <strong>
                    builds {candidates.length} real index{candidates.length === 1 ? '' : 'es'}
                  </strong>
                  , one at a time,{' '}
                  {invisible
                    ? 'as INVISIBLE (only this session’s EXPLAIN may use them)'
                    : 'on this sandbox server (every session may use each one until it is dropped)'}
                  , EXPLAINs the statements each one serves before and after, and drops it again — also after
                  an error. An index the optimizer does not choose for any of its statements is marked
                  rejected. Each build takes time and I/O and holds the table’s metadata lock briefly. These
                  statements run, in this order:
                </p>
                {candidates.map((candidate) => (
                  <section key={candidate.key} className="index-proof__candidate">
                    <h4 className="indexes__subtitle">
                      {candidate.table}.{candidate.name}
                    </h4>
                    <WhatIfSteps
                      steps={proofSteps(
                        { ...candidate, ddl: candidate.ddl.map(whatIfDdl) },
                        method,
                        flavor,
                        WHAT_IF_LOCK_WAIT_SECONDS,
                      )}
                    />
                  </section>
                ))}
              </>
            )}
            <ProductionConfirmField name={production} value={typed} onChange={setTyped} />
            <footer className="dialog__footer">
              <button type="button" className="button" onClick={close} autoFocus>
                Cancel
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={!productionConfirmed(production, typed)}
                onClick={() =>
                  void runProof(
                    wb,
                    live.connectionId,
                    candidates,
                    productionField(production, typed),
                    WHAT_IF_LOCK_WAIT_SECONDS,
                    proof.mode,
                  )
                }
                data-testid="index-proof-run"
              >
                {proof.mode === 'set' ? 'Build all, compare, drop all' : 'Build, compare and drop each'}
              </button>
            </footer>
          </>
        ) : (
          <>
            <p className="empty-state__title" aria-busy="true" data-testid="index-proof-progress">
              {proof.mode === 'set'
                ? `Proving the set: step ${Math.min(proof.done + 1, proof.total)} of ${proof.total}…`
                : `Proving index ${Math.min(proof.done + 1, proof.total)} of ${proof.total}…`}
            </p>
            <progress max={proof.total} value={proof.done} />
            <footer className="dialog__footer">
              <button
                type="button"
                className="button"
                disabled={proof.cancelling}
                onClick={() => void cancelProof(wb)}
                data-testid="index-proof-cancel"
              >
                {proof.cancelling ? 'Cancelling…' : 'Cancel'}
              </button>
            </footer>
          </>
        )}
      </div>
    </Modal>
  );
}

function planText(plan: ProofPlan): string {
  return `${plan.key ?? 'no index'}${plan.access ? ` (${plan.access})` : ''}`;
}

/** One index's verdict under its row: who chose it, cost and key before → after per statement. */
export function ProofResult({ proof }: { proof: IndexProof }) {
  return (
    <div
      className={`index-proof index-proof--${proof.status}`}
      data-testid="index-proof"
      data-status={proof.status}
    >
      <span className={`badge ${proof.status === 'chosen' ? 'badge--ok' : 'badge--caution'}`}>
        {proof.status === 'chosen'
          ? `chosen by ${proof.chosenBy.map((n) => `#${n + 1}`).join(', ')}`
          : proof.status === 'rejected'
            ? proof.redundantBy?.length
              ? `made redundant by ${proof.redundantBy.join(', ')}`
              : 'rejected by the optimizer'
            : 'not proven'}
      </span>{' '}
      <span className="index-proof__reason">{proof.reason}</span>
      {proof.statements.length > 0 && (
        <table className="index-proof__table">
          <thead>
            <tr>
              <th title="The statement of the workload">Stmt</th>
              <th title="The key the table's access uses, before → with the index">Key</th>
              <th title="The optimizer's estimated cost, before → with the index">Cost</th>
              <th title="Rows examined (estimate), before → with the index">Rows</th>
            </tr>
          </thead>
          <tbody>
            {proof.statements.map((entry) => (
              <tr key={entry.statement} data-testid="index-proof-statement" data-chosen={entry.chosen}>
                <td>#{entry.statement + 1}</td>
                <td>
                  {planText(entry.before)} → <strong>{planText(entry.after)}</strong>
                </td>
                <CostRowsCells before={entry.before} after={entry.after} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

type CostRows = { cost: number | null; rows: number | null };

/** The Cost and Rows cells of a proof row: before → after (cost "n/a" when EXPLAIN gives none). */
function CostRowsCells({ before, after }: { before: CostRows; after: CostRows }) {
  return (
    <>
      <td>
        {before.cost === null && after.cost === null
          ? 'n/a (no cost in EXPLAIN)'
          : `${count(before.cost)} → ${count(after.cost)}`}
      </td>
      <td>
        {count(before.rows)} → {count(after.rows)}
      </td>
    </>
  );
}

const keysText = (keys: readonly string[]) => (keys.length === 0 ? 'no index' : keys.join(', '));

/** The set proof per statement: the indexes its plan uses before and with the whole set, cost and rows. */
function SetStatements({ statements }: { statements: readonly SetStatementProof[] }) {
  if (statements.length === 0) return null;
  return (
    <table className="index-proof__table" data-testid="index-set-proof-statements">
      <caption className="indexes__subtitle">Per statement, before → with the whole set</caption>
      <thead>
        <tr>
          <th title="The statement of the workload">Stmt</th>
          <th title="The keys its plan uses, before → with the whole set">Keys</th>
          <th title="The optimizer's estimated cost, before → with the whole set">Cost</th>
          <th title="Rows examined (estimate), before → with the whole set">Rows</th>
        </tr>
      </thead>
      <tbody>
        {statements.map((entry) => (
          <tr key={entry.statement} data-testid="index-set-proof-statement" data-uses={entry.uses.join(' ')}>
            <td>#{entry.statement + 1}</td>
            <td>
              {keysText(entry.before.keys)} → <strong>{keysText(entry.after.keys)}</strong>
            </td>
            <CostRowsCells before={entry.before} after={entry.after} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
