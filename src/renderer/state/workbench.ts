// The workbench's UI state (session, editor tabs, analyses, plan, dialogs, panels) and its reducer.
/*
 * Design note: every change of the workbench goes through one discriminated-union action, so what
 * can happen is listed here and tested without a DOM (tests/unit/renderer/workbench-state.test.ts).
 * Side effects (API calls, the Monaco editor) live in the commands of state/analysis.ts,
 * state/tabs.ts and state/suggestions.ts; they dispatch these actions with what they learned. The
 * reducer never calls the editor or the API and never reads the clock.
 */
import type { AppInfo } from '../../shared/api.js';
import type { WhatIfReply } from '../../shared/api/explain.js';
import type { AnalysisReport } from '../../core/model/report.js';
import type { ReportItem } from '../report-items.js';
import { initialSession, type Session } from '../session.js';
import type { DdlOutcome } from '../components/apply-ddl-dialog.js';
import type { ConnectionDialogTab } from '../components/connection-dialog.js';
import type { ShownError } from '../components/error-box.js';
import type { PlanState } from '../components/plan-panel.js';
import type { WhatIfTarget } from '../components/what-if-dialog.js';

/** The analysis of one editor tab. */
export type Analysis =
  | { status: 'idle' }
  | { status: 'running' }
  | {
      status: 'done';
      report: AnalysisReport;
      items: ReportItem[];
      durationMs: number;
      stale: boolean;
      scope: 'statement' | 'all';
    }
  | { status: 'failed'; error: ShownError };

/** Bottom-area panels; a panel exists only when its API methods do. */
export type PanelId = 'findings' | 'plan' | 'indexes' | 'top' | 'locks' | 'modes' | 'export' | 'run' | 'file';

/** The one open dialog (or none). */
export type Dialog =
  | null
  | { kind: 'connect'; tab?: ConnectionDialogTab; profileId?: string | null }
  | { kind: 'palette' }
  | { kind: 'about' }
  | { kind: 'paste' }
  | { kind: 'analyze-confirm'; sql: string }
  | { kind: 'placeholders'; sql: string; offset: number; offsets: number[]; analyze: boolean }
  | { kind: 'what-if'; target: WhatIfTarget; key: string }
  | { kind: 'apply-ddl'; statements: string[]; key: string };

/** An editor tab (its text lives in the editor's model of the same id). */
export interface Tab {
  id: string;
  title: string;
}

export interface WorkbenchState {
  session: Session;
  dialog: Dialog;
  tabs: Tab[];
  activeTab: string;
  /** The number of the last tab opened (tab ids and default titles count up, never reused). */
  tabCounter: number;
  analyses: Record<string, Analysis>;
  /** Keys of the active tab's report items whose text is unchanged since the report. */
  liveKeys: Set<string>;
  selectedKey: string | null;
  cursor: { line: number; column: number };
  panel: PanelId;
  /** The Top queries panel was opened once: it stays mounted so a running capture survives. */
  topKept: boolean;
  plan: PlanState;
  /** What-if results by `<itemKey>#<suggestion index>`. */
  verifications: Record<string, WhatIfReply>;
  /** Suggestions added to the workspace (same keys). */
  accepted: Set<string>;
  ddlOutcomes: Record<string, DdlOutcome>;
  /** Rules disabled in the current profile's workspace (passed to every analysis). */
  disabledRules: string[];
  /** Opt-in rules (off by default, e.g. QRY001) switched on for this session (passed to every analysis). */
  enabledRules: string[];
  /** Bumped when the workspace changed: the Export panel reloads. */
  exportRevision: number;
  /** Bumped by the palette's Apply DDL when no suggestion is selected: the Export panel opens its confirmation. */
  exportApplyRequest: number;
  /** The About dialog's facts. */
  info: { info: AppInfo | null; error: ShownError | null };
}

export type WorkbenchAction =
  | { type: 'session/switched'; session: Session }
  | { type: 'dialog/opened'; dialog: NonNullable<Dialog> }
  | { type: 'dialog/closed' }
  | { type: 'panel/shown'; panel: PanelId }
  | { type: 'analysis/started'; tabId: string; showPanel: boolean }
  | {
      type: 'analysis/done';
      tabId: string;
      report: AnalysisReport;
      items: ReportItem[];
      durationMs: number;
      scope: 'statement' | 'all';
      /** The editor's live keys when the tab is still the active one; null leaves them. */
      liveKeys: Set<string> | null;
    }
  | { type: 'analysis/failed'; tabId: string; error: ShownError }
  /** The text changed: the editor's live keys, and the active tab's report is stale. */
  | { type: 'editor/edited'; liveKeys: Set<string> }
  | { type: 'editor/cursor'; line: number; column: number }
  | { type: 'tab/opened'; title?: string }
  | { type: 'tab/switched'; tabId: string; liveKeys: Set<string> }
  | { type: 'tab/closed'; tabId: string }
  | { type: 'finding/selected'; key: string | null }
  | { type: 'plan/changed'; plan: PlanState }
  | { type: 'whatif/verified'; key: string; reply: WhatIfReply }
  | { type: 'suggestion/accepted'; key: string }
  | { type: 'ddl/outcome'; key: string; outcome: DdlOutcome }
  | { type: 'rules/loaded'; disabledRules: string[]; enabledRules?: string[] }
  | { type: 'rules/opt-in'; rule: string; enabled: boolean }
  | { type: 'export/changed' }
  | { type: 'export/apply-requested' }
  | { type: 'about/loaded'; info: AppInfo | null; error: ShownError | null };

export const idleAnalysis: Analysis = { status: 'idle' };
export const firstTab: Tab = { id: 'tab-1', title: 'Query 1' };

/** The state a new window starts with. */
export function initialWorkbench(session: Session = initialSession()): WorkbenchState {
  return {
    session,
    dialog: null,
    tabs: [firstTab],
    activeTab: firstTab.id,
    tabCounter: 1,
    analyses: {},
    liveKeys: new Set(),
    selectedKey: null,
    cursor: { line: 1, column: 1 },
    panel: 'findings',
    topKept: false,
    plan: { status: 'idle' },
    verifications: {},
    accepted: new Set(),
    ddlOutcomes: {},
    disabledRules: [],
    enabledRules: [],
    exportRevision: 0,
    exportApplyRequest: 0,
    info: { info: null, error: null },
  };
}

/** The tab the next `tab/opened` creates. */
export function nextTab(state: WorkbenchState, title?: string): Tab {
  const number = state.tabCounter + 1;
  return { id: `tab-${number}`, title: title ?? `Query ${number}` };
}

function withAnalysis(state: WorkbenchState, tabId: string, analysis: Analysis): WorkbenchState {
  return { ...state, analyses: { ...state.analyses, [tabId]: analysis } };
}

/** The pure reducer of the workbench. */
export function workbenchReducer(state: WorkbenchState, action: WorkbenchAction): WorkbenchState {
  switch (action.type) {
    case 'session/switched':
      // Reports and plans made for another target no longer apply.
      return {
        ...state,
        session: action.session,
        dialog: null,
        analyses: {},
        liveKeys: new Set(),
        plan: { status: 'idle' },
        verifications: {},
        accepted: new Set(),
      };
    case 'dialog/opened':
      return { ...state, dialog: action.dialog };
    case 'dialog/closed':
      return state.dialog === null ? state : { ...state, dialog: null };
    case 'panel/shown':
      return {
        ...state,
        panel: action.panel,
        topKept: state.topKept || action.panel === 'top',
      };
    case 'analysis/started': {
      const next = withAnalysis(state, action.tabId, { status: 'running' });
      next.selectedKey = null;
      if (action.showPanel) next.panel = 'findings';
      return next;
    }
    case 'analysis/done': {
      const next = withAnalysis(state, action.tabId, {
        status: 'done',
        report: action.report,
        items: action.items,
        durationMs: action.durationMs,
        stale: false,
        scope: action.scope,
      });
      if (action.liveKeys) next.liveKeys = action.liveKeys;
      return next;
    }
    case 'analysis/failed':
      return withAnalysis(state, action.tabId, { status: 'failed', error: action.error });
    case 'editor/edited': {
      const current = state.analyses[state.activeTab];
      const next = { ...state, liveKeys: action.liveKeys };
      return current?.status === 'done' && !current.stale
        ? withAnalysis(next, state.activeTab, { ...current, stale: true })
        : next;
    }
    case 'editor/cursor':
      return { ...state, cursor: { line: action.line, column: action.column } };
    case 'tab/opened': {
      const tab = nextTab(state, action.title);
      return {
        ...state,
        tabs: [...state.tabs, tab],
        tabCounter: state.tabCounter + 1,
        activeTab: tab.id,
        liveKeys: new Set(),
        selectedKey: null,
      };
    }
    case 'tab/switched':
      return { ...state, activeTab: action.tabId, liveKeys: action.liveKeys, selectedKey: null };
    case 'tab/closed': {
      if (state.tabs.length <= 1 || !state.tabs.some((tab) => tab.id === action.tabId)) return state;
      const { [action.tabId]: _dropped, ...analyses } = state.analyses;
      return { ...state, tabs: state.tabs.filter((tab) => tab.id !== action.tabId), analyses };
    }
    case 'finding/selected':
      return { ...state, selectedKey: action.key };
    case 'plan/changed':
      return { ...state, plan: action.plan };
    case 'whatif/verified':
      return { ...state, verifications: { ...state.verifications, [action.key]: action.reply } };
    case 'suggestion/accepted':
      return {
        ...state,
        accepted: acceptOne(state.accepted, action.key),
        exportRevision: state.exportRevision + 1,
      };
    case 'ddl/outcome':
      return { ...state, ddlOutcomes: { ...state.ddlOutcomes, [action.key]: action.outcome } };
    case 'rules/loaded':
      return {
        ...state,
        disabledRules: action.disabledRules,
        ...(action.enabledRules ? { enabledRules: action.enabledRules } : {}),
      };
    case 'rules/opt-in': {
      const others = state.enabledRules.filter((rule) => rule !== action.rule);
      return { ...state, enabledRules: action.enabled ? [...others, action.rule].sort() : others };
    }
    case 'export/changed':
      return { ...state, exportRevision: state.exportRevision + 1 };
    case 'export/apply-requested':
      return { ...state, exportApplyRequest: state.exportApplyRequest + 1 };
    case 'about/loaded':
      return { ...state, info: { info: action.info, error: action.error } };
  }
}

/** The active tab's analysis. */
export function activeAnalysis(state: WorkbenchState): Analysis {
  return state.analyses[state.activeTab] ?? idleAnalysis;
}

/** The tab to show after closing `tabId` (the one before it), or null when it is not the active tab. */
export function tabAfterClose(state: WorkbenchState, tabId: string): string | null {
  if (tabId !== state.activeTab || state.tabs.length <= 1) return null;
  const index = state.tabs.findIndex((tab) => tab.id === tabId);
  const remaining = state.tabs.filter((tab) => tab.id !== tabId);
  return (remaining[Math.max(0, index - 1)] ?? remaining[0])!.id;
}

/** The status bar's summary of the active analysis. */
export function analysisSummary(analysis: Analysis): string {
  if (analysis.status === 'done') {
    const count = analysis.items.length === 1 ? '1 item' : `${analysis.items.length} items`;
    return `${count}${analysis.scope === 'statement' ? ' in this statement' : ''} · ${Math.round(analysis.durationMs)} ms`;
  }
  return analysis.status === 'running' ? 'Analyzing…' : '';
}

/** The live session, or null offline. */
export function liveOf(state: WorkbenchState): Extract<Session, { kind: 'live' }> | null {
  return state.session.kind === 'live' ? state.session : null;
}

/**
 * The accepted set after accepting `key` (`itemKey#index`): the finding's other suggestions are its
 * alternatives (one fix per finding), so they leave the set, as they leave the export.
 */
export function acceptOne(accepted: ReadonlySet<string>, key: string): Set<string> {
  const finding = key.slice(0, key.lastIndexOf('#') + 1);
  const next = new Set([...accepted].filter((other) => !other.startsWith(finding)));
  next.add(key);
  return next;
}
