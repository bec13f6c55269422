// Proof of the Index set on the server (indexes.prove): confirm the listed statements, follow the job, keep each index's verdict.
/*
 * Design note: its own reducer store per workbench, next to the Index set's (index-set.ts), so the set's
 * decisions and the proof's run do not share one reducer. The proof never starts without the dialog's
 * confirmation (every statement of core/explain/what-if-set.ts proofSteps, or setProofSteps when the set
 * is proven together, is listed there). A new design
 * forgets the verdicts (the statements' numbers may have changed): prove again.
 */
import type { IndexProof, ProofCandidate, SetStatementProof } from '../../core/explain/what-if-set.js';
import type { WorkloadPlan } from '../../core/indexing/index.js';
import type { IndexProofResult } from '../../shared/api/indexes.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { followJob } from './job.js';
import type { Workbench } from './context.js';
import { indexKey } from './index-set.js';
import { createStore, type Store } from './store.js';

export interface IndexProofState {
  step: 'idle' | 'confirm' | 'running' | 'done' | 'failed';
  jobId: string | null;
  done: number;
  total: number;
  cancelling: boolean;
  cancelled: boolean;
  error: ShownError | null;
  method: IndexProofResult['method'] | null;
  /** `each`: every index alone; `set`: the whole set together (the confirmation asked for this one). */
  mode: 'each' | 'set';
  /** By indexKey. */
  proofs: Record<string, IndexProof>;
  /** Set proof: per statement the plan before and with the whole set. */
  statements: SetStatementProof[];
}

export type IndexProofAction =
  | { type: 'proof/confirm'; mode?: 'each' | 'set' }
  | { type: 'proof/close' }
  | { type: 'proof/started'; jobId: string; total: number }
  | { type: 'proof/progress'; done: number; total: number }
  | { type: 'proof/cancelling' }
  | { type: 'proof/done'; result: IndexProofResult }
  | { type: 'proof/failed'; error: ShownError; cancelled: boolean }
  | { type: 'proof/reset' };

export const initialIndexProof: IndexProofState = {
  step: 'idle',
  jobId: null,
  done: 0,
  total: 0,
  cancelling: false,
  cancelled: false,
  error: null,
  method: null,
  mode: 'each',
  proofs: {},
  statements: [],
};

export function indexProofReducer(state: IndexProofState, action: IndexProofAction): IndexProofState {
  switch (action.type) {
    case 'proof/confirm':
      return { ...state, step: 'confirm', error: null, cancelled: false, mode: action.mode ?? 'each' };
    case 'proof/close':
      return state.step === 'running' ? state : { ...state, step: 'idle' };
    case 'proof/started':
      return {
        ...state,
        step: 'running',
        jobId: action.jobId,
        done: 0,
        total: action.total,
        cancelling: false,
      };
    case 'proof/progress':
      return { ...state, done: action.done, total: action.total };
    case 'proof/cancelling':
      return { ...state, cancelling: true };
    case 'proof/done':
      return {
        ...state,
        step: 'done',
        jobId: null,
        cancelling: false,
        done: action.result.proofs.length,
        method: action.result.method,
        mode: action.result.mode ?? 'each',
        proofs: Object.fromEntries(action.result.proofs.map((proof) => [proof.key, proof])),
        statements: action.result.statements ?? [],
      };
    case 'proof/failed':
      return {
        ...state,
        step: 'failed',
        jobId: null,
        cancelling: false,
        cancelled: action.cancelled,
        error: action.error,
      };
    case 'proof/reset':
      return { ...initialIndexProof };
  }
}

const stores = new WeakMap<Workbench, Store<IndexProofState, IndexProofAction>>();

/** The workbench's proof store (made on first use). */
export function indexProofStore(wb: Workbench): Store<IndexProofState, IndexProofAction> {
  let store = stores.get(wb);
  if (!store) stores.set(wb, (store = createStore(indexProofReducer, initialIndexProof)));
  return store;
}

/** What the proof builds: every index of the set (refused ones aside) with the statements it serves. */
export function proofCandidates(plan: WorkloadPlan): ProofCandidate[] {
  return plan.indexes
    .filter((index) => !index.rejected && index.serves.length > 0)
    .map((index) => ({
      key: indexKey(index),
      table: index.table,
      name: index.name,
      ddl: index.ddl,
      statements: index.serves.flatMap((n) => {
        const query = plan.queries[n];
        if (!query) return [];
        // Keyed on a generated column the server does not substitute: EXPLAIN the statement naming it after the build.
        return [
          {
            index: n,
            sql: query.sql,
            ...(query.queryMustChange && query.rewrittenSql ? { afterSql: query.rewrittenSql } : {}),
          },
        ];
      }),
    }))
    .filter((candidate) => candidate.statements.length > 0);
}

/** Run the proof (after the dialog's confirmation) and follow its job to the end. */
export async function runProof(
  wb: Workbench,
  connectionId: string,
  candidates: ProofCandidate[],
  productionConfirmation: { productionConfirmation?: string },
  lockWaitTimeoutSeconds: number,
  mode: 'each' | 'set' = 'each',
): Promise<void> {
  const store = indexProofStore(wb);
  try {
    const { jobId } = await wb.api['indexes.prove']({
      connectionId,
      candidates,
      confirmed: true,
      lockWaitTimeoutSeconds,
      mode,
      ...productionConfirmation,
    });
    store.dispatch({ type: 'proof/started', jobId, total: candidates.length });
    const last = await followJob(wb.listen, jobId, (status) => {
      if (status.state === 'running')
        store.dispatch({
          type: 'proof/progress',
          done: status.progress.done ?? 0,
          total: status.progress.total ?? candidates.length,
        });
    });
    if (last?.state === 'done')
      store.dispatch({ type: 'proof/done', result: last.result as IndexProofResult });
    else
      store.dispatch({
        type: 'proof/failed',
        cancelled: last?.state === 'cancelled',
        error: last?.error ?? { code: 'INTERNAL', message: 'The proof job ended without a result.' },
      });
  } catch (error) {
    store.dispatch({ type: 'proof/failed', cancelled: false, error: toShownError(error) });
  }
}

/** Cancel the running proof: the service kills its statement and drops what it built. */
export async function cancelProof(wb: Workbench): Promise<void> {
  const store = indexProofStore(wb);
  const { jobId } = store.getState();
  if (!jobId) return;
  store.dispatch({ type: 'proof/cancelling' });
  await wb.api['job.cancel']({ jobId }).catch(() => undefined);
}
