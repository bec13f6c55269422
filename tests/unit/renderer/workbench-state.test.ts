import { describe, expect, it } from 'vitest';
import { createStore } from '../../../src/renderer/state/store.js';
import {
  activeAnalysis,
  analysisSummary,
  initialWorkbench,
  nextTab,
  tabAfterClose,
  workbenchReducer,
  type WorkbenchAction,
  type WorkbenchState,
} from '../../../src/renderer/state/workbench.js';
import type { AnalysisReport } from '../../../src/core/model/report.js';
import type { ReportItem } from '../../../src/renderer/report-items.js';

const report = { server: {}, errors: [], statements: [] } as unknown as AnalysisReport;
const item = { kind: 'finding', key: 'k1' } as unknown as ReportItem;

function reduce(state: WorkbenchState, ...actions: WorkbenchAction[]): WorkbenchState {
  return actions.reduce(workbenchReducer, state);
}

function done(tabId: string, liveKeys: Set<string> | null = null): WorkbenchAction {
  return { type: 'analysis/done', tabId, report, items: [item], durationMs: 12.4, scope: 'all', liveKeys };
}

describe('workbench reducer', () => {
  it('a new window: one tab, offline, Findings panel, nothing analyzed', () => {
    const state = initialWorkbench();
    expect(state.tabs).toEqual([{ id: 'tab-1', title: 'Query 1' }]);
    expect(state.session.kind).toBe('offline');
    expect(activeAnalysis(state)).toEqual({ status: 'idle' });
    expect(analysisSummary(activeAnalysis(state))).toBe('');
  });

  it('an analysis runs, then lands on the tab that asked, marks stale on edit, and summarises', () => {
    let state = reduce(
      initialWorkbench(),
      { type: 'finding/selected', key: 'old' },
      { type: 'panel/shown', panel: 'plan' },
    );
    state = reduce(state, { type: 'analysis/started', tabId: 'tab-1', showPanel: true });
    expect(activeAnalysis(state).status).toBe('running');
    expect(state.selectedKey).toBeNull();
    expect(state.panel).toBe('findings');
    expect(analysisSummary(activeAnalysis(state))).toBe('Analyzing…');
    // An edit while running does not turn a running analysis into anything else.
    state = reduce(state, { type: 'editor/edited', liveKeys: new Set(['a']) });
    expect(activeAnalysis(state).status).toBe('running');
    state = reduce(state, done('tab-1', new Set(['k1'])));
    const analysis = activeAnalysis(state);
    expect(analysis.status === 'done' && analysis.stale).toBe(false);
    expect(state.liveKeys).toEqual(new Set(['k1']));
    expect(analysisSummary(analysis)).toBe('1 item · 12 ms');
    state = reduce(state, { type: 'editor/edited', liveKeys: new Set() });
    const edited = activeAnalysis(state);
    expect(edited.status === 'done' && edited.stale).toBe(true);
    expect(state.liveKeys.size).toBe(0);
  });

  it('showPanel: false keeps the shown panel; a report for a background tab leaves the live keys', () => {
    let state = reduce(initialWorkbench(), { type: 'panel/shown', panel: 'plan' });
    state = reduce(state, { type: 'analysis/started', tabId: 'tab-1', showPanel: false });
    expect(state.panel).toBe('plan');
    state = reduce(
      state,
      { type: 'tab/opened' },
      { type: 'editor/edited', liveKeys: new Set(['x']) },
      done('tab-1'),
    );
    expect(state.activeTab).toBe('tab-2');
    expect(state.liveKeys).toEqual(new Set(['x']));
    expect(state.analyses['tab-1']?.status).toBe('done');
    expect(activeAnalysis(state)).toEqual({ status: 'idle' });
  });

  it('tabs count up and never reuse an id; the last tab cannot be closed', () => {
    let state = reduce(
      initialWorkbench(),
      { type: 'tab/opened' },
      { type: 'tab/opened', title: 'Top query' },
    );
    expect(state.tabs.map((tab) => tab.id)).toEqual(['tab-1', 'tab-2', 'tab-3']);
    expect(state.tabs[2]!.title).toBe('Top query');
    expect(state.activeTab).toBe('tab-3');
    state = reduce(state, done('tab-2'));
    expect(tabAfterClose(state, 'tab-3')).toBe('tab-2');
    expect(tabAfterClose(state, 'tab-2')).toBeNull(); // not the active tab
    state = reduce(state, { type: 'tab/closed', tabId: 'tab-2' });
    expect(state.tabs.map((tab) => tab.id)).toEqual(['tab-1', 'tab-3']);
    expect(state.analyses['tab-2']).toBeUndefined();
    expect(nextTab(state)).toEqual({ id: 'tab-4', title: 'Query 4' });
    state = reduce(
      state,
      { type: 'tab/closed', tabId: 'tab-3' },
      { type: 'tab/switched', tabId: 'tab-1', liveKeys: new Set() },
    );
    const last = reduce(state, { type: 'tab/closed', tabId: 'tab-1' });
    expect(last).toBe(state);
    expect(tabAfterClose(state, 'tab-1')).toBeNull();
  });

  it('switching session drops reports, plan, verifications and accepted suggestions, and closes the dialog', () => {
    let state = reduce(
      initialWorkbench(),
      done('tab-1', new Set(['k1'])),
      { type: 'plan/changed', plan: { status: 'running', analyze: false } },
      { type: 'whatif/verified', key: 'k1#0', reply: {} as never },
      { type: 'suggestion/accepted', key: 'k1#0' },
      { type: 'dialog/opened', dialog: { kind: 'connect' } },
      { type: 'tab/opened' },
    );
    expect(state.exportRevision).toBe(1);
    state = reduce(state, {
      type: 'session/switched',
      session: { kind: 'offline', flavor: 'mariadb', version: '10.11', schemaSql: '' },
    });
    expect(state.analyses).toEqual({});
    expect(state.plan).toEqual({ status: 'idle' });
    expect(state.verifications).toEqual({});
    expect(state.accepted.size).toBe(0);
    expect(state.liveKeys.size).toBe(0);
    expect(state.dialog).toBeNull();
    // Tabs and the export revision stay.
    expect(state.tabs).toHaveLength(2);
    expect(state.exportRevision).toBe(1);
  });

  it('the Top queries panel stays kept once opened', () => {
    const state = reduce(
      initialWorkbench(),
      { type: 'panel/shown', panel: 'top' },
      { type: 'panel/shown', panel: 'locks' },
    );
    expect(state.panel).toBe('locks');
    expect(state.topKept).toBe(true);
    expect(reduce(initialWorkbench(), { type: 'panel/shown', panel: 'locks' }).topKept).toBe(false);
  });

  it('counters and maps: accepted, DDL outcomes, export apply requests, rules, About', () => {
    const state = reduce(
      initialWorkbench(),
      { type: 'suggestion/accepted', key: 'a#0' },
      { type: 'suggestion/accepted', key: 'b#1' },
      { type: 'export/changed' },
      { type: 'export/apply-requested' },
      { type: 'ddl/outcome', key: 'a#0', outcome: { status: 'applied' } as never },
      { type: 'rules/loaded', disabledRules: ['FUN001'] },
      { type: 'rules/opt-in', rule: 'QRY001', enabled: true },
      { type: 'rules/opt-in', rule: 'ABC001', enabled: true },
      { type: 'rules/opt-in', rule: 'QRY001', enabled: true },
      { type: 'rules/opt-in', rule: 'ABC001', enabled: false },
      { type: 'about/loaded', info: null, error: { code: 'INTERNAL', message: 'x' } },
      { type: 'editor/cursor', line: 3, column: 7 },
    );
    expect([...state.accepted]).toEqual(['a#0', 'b#1']);
    expect(state.exportRevision).toBe(3);
    expect(state.exportApplyRequest).toBe(1);
    expect(Object.keys(state.ddlOutcomes)).toEqual(['a#0']);
    expect(state.disabledRules).toEqual(['FUN001']);
    expect(state.enabledRules).toEqual(['QRY001']); // once, and a rule switched off again is gone
    expect(state.info.error?.message).toBe('x');
    expect(state.cursor).toEqual({ line: 3, column: 7 });
  });

  it('is pure: the previous state is never changed', () => {
    const before = initialWorkbench();
    const snapshot = structuredClone(before);
    reduce(before, { type: 'tab/opened' }, done('tab-1'), { type: 'suggestion/accepted', key: 'x' });
    workbenchReducer(before, { type: 'analysis/started', tabId: 'tab-1', showPanel: true });
    expect(before).toEqual(snapshot);
  });

  it('closing no dialog returns the same state (no re-render)', () => {
    const state = initialWorkbench();
    expect(workbenchReducer(state, { type: 'dialog/closed' })).toBe(state);
  });
});

describe('store', () => {
  it('applies the reducer at dispatch, so the state is readable at once, and notifies subscribers', () => {
    const store = createStore(workbenchReducer, initialWorkbench());
    const seen: string[] = [];
    const unsubscribe = store.subscribe(() => seen.push(store.getState().activeTab));
    store.dispatch({ type: 'tab/opened' });
    expect(store.getState().activeTab).toBe('tab-2');
    store.dispatch({ type: 'dialog/closed' }); // no change: no notification
    unsubscribe();
    store.dispatch({ type: 'tab/opened' });
    expect(seen).toEqual(['tab-2']);
    expect(store.getState().activeTab).toBe('tab-3');
  });
});
