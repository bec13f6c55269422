// The Index set view: one index set for the editor's statements (indexes.design), accepted or rejected per index.
/*
 * Design note: the view's state is its own reducer store (one per workbench, kept while the panel is
 * hidden), so the workbench reducer does not grow. Accept adds the index to the profile's workspace
 * through the same call the Findings panel uses (workspace.addFromAnalysis, an IDX001 finding whose one
 * suggestion is the index's DDL), so it goes straight into the export; Reject dismisses it there when it
 * was accepted, else it only marks it. A new design keeps the decisions of indexes it proposes again
 * (same table, same key parts), so designing again after an edit does not forget what was chosen.
 */
import type { WorkloadIndex, WorkloadPlan } from '../../core/indexing/index.js';
import type { UnusedIndexReport } from '../../core/indexing/unused.js';
import type { AnalysisReport } from '../../core/model/report.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { profileId, type Session } from '../session.js';
import type { Workbench } from './context.js';
import { createStore, type Store } from './store.js';

export type IndexDecision = { kind: 'accepted'; itemId: string | null } | { kind: 'rejected' };

export interface IndexSetState {
  status: 'idle' | 'running' | 'done' | 'failed';
  plan: WorkloadPlan | null;
  /** Live only: the server's usage counters on the workload's tables. */
  unused: UnusedIndexReport | null;
  error: ShownError | null;
  /** By {@link indexKey}. */
  decisions: Record<string, IndexDecision>;
  /** The call that failed last (accept/reject), shown next to the set. */
  actionError: ShownError | null;
}

export type IndexSetAction =
  | { type: 'design/started' }
  | { type: 'design/done'; plan: WorkloadPlan; unused?: UnusedIndexReport | undefined }
  | { type: 'design/failed'; error: ShownError }
  | { type: 'index/decided'; key: string; decision: IndexDecision }
  | { type: 'index/undecided'; key: string }
  | { type: 'action/failed'; error: ShownError };

export const initialIndexSet: IndexSetState = {
  status: 'idle',
  plan: null,
  unused: null,
  error: null,
  decisions: {},
  actionError: null,
};

/** Identity of an existing index proposed for dropping (hygiene): its table and name. */
export function dropKey(entry: { table: string; index: string }): string {
  return `drop:${entry.table.toLowerCase()}.${entry.index.toLowerCase()}`;
}

/** Stable identity of a proposed index: its table and key parts (names may change between designs). */
export function indexKey(index: Pick<WorkloadIndex, 'table' | 'parts'>): string {
  const parts = index.parts.map(
    (part) =>
      `${part.column?.toLowerCase() ?? `(${(part.expression ?? '').replace(/[`\s]/g, '').toLowerCase()})`}${part.prefixLength ? `(${part.prefixLength})` : ''}${part.desc ? ' desc' : ''}`,
  );
  return `${index.table.toLowerCase()}:${parts.join(',')}`;
}

export function indexSetReducer(state: IndexSetState, action: IndexSetAction): IndexSetState {
  switch (action.type) {
    case 'design/started':
      return { ...state, status: 'running', error: null, actionError: null };
    case 'design/done': {
      const keys = new Set([
        ...action.plan.indexes.map(indexKey),
        ...action.plan.redundant.map(dropKey),
        ...(action.unused?.indexes ?? []).map(dropKey),
      ]);
      const decisions = Object.fromEntries(Object.entries(state.decisions).filter(([key]) => keys.has(key)));
      return {
        ...state,
        status: 'done',
        plan: action.plan,
        unused: action.unused ?? null,
        error: null,
        decisions,
      };
    }
    case 'design/failed':
      return { ...state, status: 'failed', error: action.error };
    case 'index/decided':
      return {
        ...state,
        decisions: { ...state.decisions, [action.key]: action.decision },
        actionError: null,
      };
    case 'index/undecided': {
      const { [action.key]: _dropped, ...decisions } = state.decisions;
      return { ...state, decisions, actionError: null };
    }
    case 'action/failed':
      return { ...state, actionError: action.error };
  }
}

/** Bar widths (0–1): each index's net benefit and each statement's weight, relative to the largest. */
export function benefitBars(plan: WorkloadPlan): { indexes: number[]; queries: number[] } {
  const top = Math.max(0, ...plan.indexes.map((index) => index.netBenefit));
  const heaviest = Math.max(0, ...plan.queries.map((query) => query.weight));
  return {
    indexes: plan.indexes.map((index) => (top > 0 ? Math.max(0, index.netBenefit) / top : 0)),
    queries: plan.queries.map((query) => (heaviest > 0 ? query.weight / heaviest : 0)),
  };
}

/**
 * The report that carries one index of the set into the workspace: the heaviest statement it serves,
 * with one IDX001 finding whose only suggestion is the index's DDL.
 */
export function indexReport(plan: WorkloadPlan, index: WorkloadIndex, session: Session): AnalysisReport {
  const served = index.serves
    .map((n) => plan.queries[n])
    .filter((query) => query !== undefined)
    .sort((a, b) => b.weight - a.weight);
  const statement = served[0];
  const server =
    session.kind === 'live'
      ? { flavor: session.server.flavor, version: session.server.version, source: 'dsn' as const }
      : { flavor: session.flavor, version: session.version, source: 'flags' as const };
  const columns = index.parts.flatMap((part) => (part.column ? [part.column] : []));
  return {
    server,
    errors: [],
    statements: [
      {
        index: statement?.index ?? 0,
        sql: statement?.sql ?? '',
        line: 1,
        column: 1,
        findings: [
          {
            rule: 'IDX001',
            category: 'plan',
            severity: 'info',
            message: `Index set: ${index.table}.${index.name} serves ${served.length} statement${served.length === 1 ? '' : 's'} of the workload.`,
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 1,
            table: index.table,
            columns,
            expression: '',
            suggestions: [
              { kind: 'index', equivalent: true, ddl: index.ddl, indexName: index.name, notes: index.notes },
            ],
          },
        ],
      },
    ],
  };
}

const stores = new WeakMap<Workbench, Store<IndexSetState, IndexSetAction>>();

/** The workbench's Index set store (made on first use; it outlives the panel). */
export function indexSetStore(wb: Workbench): Store<IndexSetState, IndexSetAction> {
  let store = stores.get(wb);
  if (!store) stores.set(wb, (store = createStore(indexSetReducer, initialIndexSet)));
  return store;
}

/** Design the set for the editor's whole text. */
export async function designIndexSet(wb: Workbench): Promise<void> {
  const store = indexSetStore(wb);
  const sql = wb.editor()?.getText() ?? '';
  if (!sql.trim()) {
    store.dispatch({
      type: 'design/failed',
      error: { code: 'INVALID_INPUT', message: 'Write the workload’s statements in the editor first.' },
    });
    return;
  }
  const { session } = wb.store.getState();
  store.dispatch({ type: 'design/started' });
  try {
    const { plan, unused } = await wb.api['indexes.design'](
      session.kind === 'live'
        ? { sql, connectionId: session.connectionId }
        : {
            sql,
            schemaSql: session.schemaSql,
            target: { flavor: session.flavor, version: session.version },
          },
    );
    store.dispatch({ type: 'design/done', plan, unused });
  } catch (error) {
    store.dispatch({ type: 'design/failed', error: toShownError(error) });
  }
}

/** Accept one index: into the workspace as accepted, so the Export panel shows its DDL. */
export async function acceptIndex(wb: Workbench, index: WorkloadIndex): Promise<void> {
  const store = indexSetStore(wb);
  const plan = store.getState().plan;
  if (!plan) return;
  const { session } = wb.store.getState();
  try {
    const reply = await wb.api['workspace.addFromAnalysis']({
      profileId: profileId(session),
      report: indexReport(plan, index, session),
      pick: 'index',
    });
    const item = reply.workspace.items.find(
      (candidate) =>
        candidate.table.toLowerCase() === index.table.toLowerCase() &&
        candidate.suggestion.indexName === index.name &&
        candidate.status === 'accepted',
    );
    store.dispatch({
      type: 'index/decided',
      key: indexKey(index),
      decision: { kind: 'accepted', itemId: item?.id ?? null },
    });
    wb.store.dispatch({ type: 'export/changed' });
  } catch (error) {
    store.dispatch({ type: 'action/failed', error: toShownError(error) });
  }
}

/** Reject one index: out of the export when it was accepted (dismissed in the workspace). */
export async function rejectIndex(wb: Workbench, index: WorkloadIndex): Promise<void> {
  await rejectKey(wb, indexKey(index));
}

async function rejectKey(wb: Workbench, key: string): Promise<void> {
  const store = indexSetStore(wb);
  const decision = store.getState().decisions[key];
  try {
    if (decision?.kind === 'accepted' && decision.itemId) {
      await wb.api['workspace.dismiss']({
        profileId: profileId(wb.store.getState().session),
        itemId: decision.itemId,
        reason: 'Rejected in the Index set view',
      });
      wb.store.dispatch({ type: 'export/changed' });
    }
    store.dispatch({ type: 'index/decided', key, decision: { kind: 'rejected' } });
  } catch (error) {
    store.dispatch({ type: 'action/failed', error: toShownError(error) });
  }
}

/** An existing index the hygiene proposes to drop (redundant or unused), as the view shows it. */
export interface DropCandidate {
  table: string;
  index: string;
  /** Safe step first where the server has it, the DROP last (core/indexing/hygiene.ts dropSteps). */
  ddl: string[];
  notes: string[];
  /** Why it is proposed, for the workspace item's message. */
  why: 'duplicate' | 'left-prefix' | 'primary-key-suffix' | 'unused';
}

/**
 * The report that carries one hygiene drop into the workspace: a finding whose only suggestion is the
 * final DROP INDEX (kind `drop-index`); the export renders the safe step (INVISIBLE / IGNORED) itself.
 */
export function dropReport(candidate: DropCandidate, session: Session): AnalysisReport {
  const server =
    session.kind === 'live'
      ? { flavor: session.server.flavor, version: session.server.version, source: 'dsn' as const }
      : { flavor: session.flavor, version: session.version, source: 'flags' as const };
  const drop = candidate.ddl.find((statement) => /\bDROP\s+INDEX\b/i.test(statement)) ?? '';
  const what =
    candidate.why === 'unused'
      ? 'has not been read in the counters’ window'
      : `is ${candidate.why.replace(/-/g, ' ')} redundant`;
  return {
    server,
    errors: [],
    statements: [
      {
        index: 0,
        sql: `-- index hygiene: ${candidate.table}.${candidate.index}`,
        line: 1,
        column: 1,
        findings: [
          {
            rule: 'IDX-HYGIENE',
            category: 'plan',
            severity: 'info',
            message: `Index hygiene: ${candidate.table}.${candidate.index} ${what}.`,
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 1,
            table: candidate.table,
            columns: [],
            // The finding's identity (workspace/finding-identity.ts): one per index, so drops are not alternatives.
            expression: `DROP INDEX ${candidate.index}`,
            suggestions: [
              {
                kind: 'drop-index',
                equivalent: true,
                ddl: [drop],
                indexName: candidate.index,
                notes: candidate.notes,
              },
            ],
          },
        ],
      },
    ],
  };
}

/** Accept one hygiene drop: into the workspace, so the Export panel hides (then drops) the index. */
export async function acceptDrop(wb: Workbench, candidate: DropCandidate): Promise<void> {
  const store = indexSetStore(wb);
  const { session } = wb.store.getState();
  try {
    const reply = await wb.api['workspace.addFromAnalysis']({
      profileId: profileId(session),
      report: dropReport(candidate, session),
      pick: 'drop-index',
    });
    const item = reply.workspace.items.find(
      (entry) =>
        entry.suggestion.kind === 'drop-index' &&
        entry.table.toLowerCase() === candidate.table.toLowerCase() &&
        entry.suggestion.indexName?.toLowerCase() === candidate.index.toLowerCase() &&
        entry.status === 'accepted',
    );
    store.dispatch({
      type: 'index/decided',
      key: dropKey(candidate),
      decision: { kind: 'accepted', itemId: item?.id ?? null },
    });
    wb.store.dispatch({ type: 'export/changed' });
  } catch (error) {
    store.dispatch({ type: 'action/failed', error: toShownError(error) });
  }
}

/** Reject one hygiene drop: out of the export when it was accepted. */
export async function rejectDrop(wb: Workbench, candidate: DropCandidate): Promise<void> {
  await rejectKey(wb, dropKey(candidate));
}
