// Analyze and EXPLAIN: the commands that call analyze.run / explain.run / explain.parse and dispatch what came back.
import { useMemo } from 'react';
import { isReadOnlyQuery, isolateStatement, statementAt } from '../plan-view.js';
import { placeholderOffsets } from '../placeholders.js';
import { reportItems } from '../report-items.js';
import { analyzeRequest } from '../session.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { routineConsentAsked } from '../components/plan-panel.js';
import type { Workbench } from './context.js';
import { lexSql, versionNumber } from '../../core/sql/lexer.js';
import { routineCallNames } from '../../core/sql/side-effects.js';
import type { ServerInfo } from '../../core/model/server-info.js';

export interface AnalyzeOptions {
  /** Show the Findings panel (default true). */
  showPanel?: boolean;
}

/** Analyze the statement at the cursor or the whole tab; the report goes to the tab that asked. */
export async function analyze(
  wb: Workbench,
  scope: 'statement' | 'all',
  options: AnalyzeOptions = {},
): Promise<void> {
  const instance = wb.editor();
  if (!instance || wb.analyzing) return;
  wb.analyzing = true;
  const { store } = wb;
  const tabId = store.getState().activeTab;
  store.dispatch({ type: 'analysis/started', tabId, showPanel: options.showPanel !== false });
  const started = performance.now();
  const text = instance.getText();
  const slice = scope === 'statement' ? statementAt(text, instance.cursorOffset()) : null;
  const sql = slice ? isolateStatement(text, slice) : text;
  try {
    const state = store.getState();
    const request = analyzeRequest(state.session, sql);
    if (state.disabledRules.length > 0) request.disabledRules = state.disabledRules;
    if (state.enabledRules.length > 0) request.enabledRules = state.enabledRules;
    const report = await wb.api['analyze.run'](request);
    const reported = reportItems(report);
    const stillActive = store.getState().activeTab === tabId;
    if (stillActive) instance.showItems(reported);
    store.dispatch({
      type: 'analysis/done',
      tabId,
      report,
      items: reported,
      durationMs: performance.now() - started,
      scope: slice ? 'statement' : 'all',
      liveKeys: stillActive ? instance.liveKeys() : null,
    });
  } catch (caught) {
    if (store.getState().activeTab === tabId) instance.showItems([]);
    store.dispatch({ type: 'analysis/failed', tabId, error: toShownError(caught) });
  } finally {
    wb.analyzing = false;
  }
}

/** Parse pasted EXPLAIN output into the Plan panel; the error when it could not be read. */
export async function showPlanReport(
  wb: Workbench,
  text: string,
  flavor: 'mysql' | 'mariadb' | undefined,
  sql: string | null,
): Promise<ShownError | null> {
  try {
    const report = await wb.api['explain.parse']({ text, ...(flavor ? { flavor } : {}) });
    const fromText = /explain\s+(?:format\s*=\s*\w+\s+)?(?:analyze\s+)?([\s\S]+?)\s*(?:\\G|;)\s*$/im.exec(
      text,
    );
    wb.store.dispatch({
      type: 'plan/changed',
      plan: {
        status: 'done',
        source: 'pasted',
        sql: sql ?? fromText?.[1]?.trim() ?? null,
        report,
        raw: { pasted: text },
        analyzed: report.format === 'analyze' || report.format === 'analyze-json',
      },
    });
    wb.store.dispatch({ type: 'panel/shown', panel: 'plan' });
    return null;
  } catch (caught) {
    return toShownError(caught);
  }
}

/**
 * EXPLAIN (or EXPLAIN ANALYZE) the statement at the cursor on the live server; offline it opens the
 * paste dialog, and a statement with ? placeholders asks for values first.
 */
export async function explain(wb: Workbench, analyzeIt: boolean): Promise<void> {
  const instance = wb.editor();
  const { store } = wb;
  const state = store.getState();
  const current = state.session;
  if (!instance) return;
  if (current.kind !== 'live') {
    store.dispatch({ type: 'dialog/opened', dialog: { kind: 'paste' } });
    return;
  }
  store.dispatch({ type: 'panel/shown', panel: 'plan' });
  const slice = statementAt(instance.getText(), instance.cursorOffset());
  if (!slice) {
    store.dispatch({
      type: 'plan/changed',
      plan: {
        status: 'failed',
        error: { code: 'INVALID_INPUT', message: 'Put the cursor in a statement to EXPLAIN it.' },
      },
    });
    return;
  }
  if (analyzeIt && !isReadOnlyQuery(slice.sql)) {
    store.dispatch({
      type: 'plan/changed',
      plan: {
        status: 'failed',
        error: {
          code: 'INVALID_INPUT',
          message: 'EXPLAIN ANALYZE runs the statement, so Sargable only allows it for plain SELECT queries.',
          hint: 'Use EXPLAIN (without ANALYZE) for this statement: it is never executed.',
        },
      },
    });
    return;
  }
  const placeholders = placeholderOffsets(slice.sql);
  if (placeholders.length > 0) {
    // Captured digests and prepared statements carry ? placeholders: ask for values first.
    store.dispatch({
      type: 'dialog/opened',
      dialog: {
        kind: 'placeholders',
        sql: slice.sql,
        offset: slice.offset,
        offsets: placeholders,
        analyze: analyzeIt,
      },
    });
    return;
  }
  instance.selectOffsets(slice.offset, slice.offset + slice.sql.length);
  store.dispatch({ type: 'plan/changed', plan: { status: 'running', analyze: analyzeIt } });
  // Findings explain bad plan nodes: analyze too when this tab has no fresh report.
  const tabAnalysis = state.analyses[state.activeTab];
  if (tabAnalysis?.status !== 'done' || tabAnalysis.stale) void analyze(wb, 'all', { showPanel: false });
  await runExplain(wb, current.connectionId, current.server, slice.sql, analyzeIt, false);
}

/**
 * The functions a refused EXPLAIN calls that may be stored or loadable functions, as written, read
 * with the same lexer as the server-side guard: what the confirmation names before the user allows them.
 */
export function routinesOf(sql: string, server: Pick<ServerInfo, 'flavor' | 'version'>): string[] {
  const lexed = lexSql(sql, {
    flavor: server.flavor === 'mariadb' ? 'mariadb' : 'mysql',
    version: versionNumber(server.version),
    ansiQuotes: false,
    noBackslashEscapes: false,
  });
  return lexed.ok ? routineCallNames(sql, lexed.tokens) : [];
}

async function runExplain(
  wb: Workbench,
  connectionId: string,
  server: ServerInfo,
  sql: string,
  analyzeIt: boolean,
  allowRoutineCalls: boolean,
): Promise<void> {
  const { store } = wb;
  try {
    const reply = await wb.api['explain.run']({
      connectionId,
      sql,
      ...(analyzeIt ? { analyze: true } : {}),
      ...(allowRoutineCalls ? { allowRoutineCalls: true } : {}),
    });
    store.dispatch({
      type: 'plan/changed',
      plan: {
        status: 'done',
        source: 'server',
        sql: reply.sql,
        report: reply.report,
        raw: reply.raw,
        analyzed: analyzeIt,
      },
    });
  } catch (caught) {
    const error = toShownError(caught);
    // Refused because the statement may run code while it is planned: say why, and let the user
    // choose to allow the routines it names (never for ANALYZE, which executes the statement).
    const routines =
      routineConsentAsked(error) && !analyzeIt && !allowRoutineCalls ? routinesOf(sql, server) : [];
    store.dispatch({
      type: 'plan/changed',
      plan: { status: 'failed', error, ...(routines.length > 0 ? { retry: { sql, routines } } : {}) },
    });
  }
}

/** EXPLAIN a refused statement again, allowing the routines the user confirmed (they run while it is planned). */
export async function explainAllowingRoutines(wb: Workbench, sql: string): Promise<void> {
  const current = wb.store.getState().session;
  if (current.kind !== 'live') return;
  wb.store.dispatch({ type: 'plan/changed', plan: { status: 'running', analyze: false } });
  await runExplain(wb, current.connectionId, current.server, sql, false, true);
}

/** Ask before EXPLAIN ANALYZE (it executes the statement). */
export function confirmExplainAnalyze(wb: Workbench): void {
  const instance = wb.editor();
  if (!instance || wb.store.getState().session.kind !== 'live') return;
  const slice = statementAt(instance.getText(), instance.cursorOffset());
  if (!slice) return;
  wb.store.dispatch({ type: 'dialog/opened', dialog: { kind: 'analyze-confirm', sql: slice.sql } });
}

/** Fill the placeholders dialog's values into the statement, select it and EXPLAIN it. */
export function fillAndExplain(
  wb: Workbench,
  dialog: { sql: string; offset: number; analyze: boolean },
  filled: string,
): void {
  const instance = wb.editor();
  instance?.replaceOffsets(dialog.offset, dialog.offset + dialog.sql.length, filled);
  instance?.selectOffsets(dialog.offset, dialog.offset + filled.length);
  wb.store.dispatch({ type: 'dialog/closed' });
  void explain(wb, dialog.analyze);
}

/** The analysis commands bound to one workbench. */
export function useAnalysis(wb: Workbench) {
  return useMemo(
    () => ({
      analyze: (scope: 'statement' | 'all', options?: AnalyzeOptions) => analyze(wb, scope, options),
      explain: (analyzeIt: boolean) => explain(wb, analyzeIt),
      explainAllowingRoutines: (sql: string) => explainAllowingRoutines(wb, sql),
      showPlanReport: (text: string, flavor: 'mysql' | 'mariadb' | undefined, sql: string | null) =>
        showPlanReport(wb, text, flavor, sql),
      confirmExplainAnalyze: () => confirmExplainAnalyze(wb),
      fillAndExplain: (dialog: { sql: string; offset: number; analyze: boolean }, filled: string) =>
        fillAndExplain(wb, dialog, filled),
    }),
    [wb],
  );
}
