// What a finding's suggestions can do: what-if verify, accept into the workspace, apply DDL, rewrite in the editor.
import { useCallback, useEffect } from 'react';
import type { WhatIfReply } from '../../shared/api/explain.js';
import { servedSql, type AnalysisReport, type Finding, type Suggestion } from '../../core/model/report.js';
import type { QueryIndexPlan } from '../../core/indexing/index.js';
import type { ReportItem } from '../report-items.js';
import { productionName, profileId } from '../session.js';
import { ddlStatements } from '../components/apply-ddl-dialog.js';
import { toShownError } from '../components/error-box.js';
import type { SuggestionActions } from '../components/findings-panel.js';
import type { WhatIfTarget } from '../components/what-if-dialog.js';
import { analyze } from './analysis.js';
import { features, type Workbench } from './context.js';
import { activeAnalysis, liveOf, type WorkbenchState } from './workbench.js';

type FindingItem = Extract<ReportItem, { kind: 'finding' }>;

/** The suggestion with the query it serves as `rewrittenSql` (a plain index for an exact rewrite serves the rewrite). */
export function withServedSql(finding: Finding, suggestion: Suggestion): Suggestion {
  const served = servedSql(finding, suggestion);
  return served && !suggestion.rewrittenSql ? { ...suggestion, rewrittenSql: served } : suggestion;
}

/** A finding of the active tab's report, with the report. */
export function findItem(
  state: WorkbenchState,
  key: string,
): { item: FindingItem; report: AnalysisReport } | null {
  const analysis = activeAnalysis(state);
  if (analysis.status !== 'done') return null;
  const item = analysis.items.find((candidate) => candidate.key === key);
  return item?.kind === 'finding' ? { item, report: analysis.report } : null;
}

function statementOf(found: { item: FindingItem; report: AnalysisReport }) {
  return found.report.statements.find((entry) => entry.index === found.item.statementIndex);
}

/** Why Verify is unavailable in this session, or null. */
export function verifyBlocked(state: WorkbenchState): string | null {
  const live = liveOf(state);
  return !live
    ? 'Verify needs a server: connect with “Allow what-if indexes (sandbox)” checked.'
    : !live.allowWhatIf
      ? 'This connection was not opened as a sandbox: reconnect with “Allow what-if indexes (sandbox)” checked to verify.'
      : !live.server.database
        ? 'Choose a default database for this connection to verify.'
        : null;
}

/** The connection part of a what-if target (null offline). */
function liveTarget(
  state: WorkbenchState,
): Pick<WhatIfTarget, 'connectionId' | 'production' | 'invisible' | 'flavor'> | null {
  const live = liveOf(state);
  return live
    ? {
        connectionId: live.connectionId,
        production: productionName(state.session),
        invisible: live.server.capabilities.invisibleIndexes,
        flavor: live.server.flavor,
      }
    : null;
}

/** The what-if dialog's target for a suggestion, or null when it cannot be verified here. */
export function whatIfTarget(state: WorkbenchState, itemKey: string, index: number): WhatIfTarget | null {
  const found = findItem(state, itemKey);
  const suggestion = found?.item.finding.suggestions[index];
  const statement = found ? statementOf(found) : undefined;
  const live = liveTarget(state);
  if (!found || !suggestion || !statement || !live || !found.item.finding.table) return null;
  return {
    ...live,
    sql: statement.sql,
    table: found.item.finding.table,
    // A plain index for an exact rewrite is verified on the rewritten query it serves.
    suggestion: withServedSql(found.item.finding, suggestion),
  };
}

/**
 * The what-if target of a statement's Index plan for one table, when no finding carries it (IDX001 is not
 * reported where an existing index already seeks part of the statement, yet the design extends or adds a
 * better one): every entry of the table with DDL, as the IDX001 suggestion would carry them.
 */
export function planWhatIfTarget(
  state: WorkbenchState,
  statement: { sql: string; indexPlan?: QueryIndexPlan },
  table: string,
): WhatIfTarget | null {
  const live = liveTarget(state);
  const plans = (statement.indexPlan?.tables ?? []).filter(
    (plan) =>
      plan.table.toLowerCase() === table.toLowerCase() &&
      plan.verdict !== 'served' &&
      plan.indexName &&
      plan.ddl.length > 0,
  );
  if (!live || plans.length === 0) return null;
  const plan = statement.indexPlan!;
  return {
    ...live,
    sql: statement.sql,
    table: plans[0]!.table,
    suggestion: {
      kind: 'index',
      equivalent: true,
      ddl: [...new Set(plans.flatMap((entry) => entry.ddl))],
      indexName: plans[0]!.indexName!,
      ...(plan.queryMustChange && plan.rewrittenSql ? { rewrittenSql: plan.rewrittenSql } : {}),
      notes: [],
    },
  };
}

/** Open the what-if dialog for a statement's Index plan of one table (key: `plan:<statement>:<table>#0`). */
export function openPlanVerify(wb: Workbench, key: string, target: WhatIfTarget): void {
  wb.store.dispatch({ type: 'dialog/opened', dialog: { kind: 'what-if', key, target } });
}

/** Open the what-if dialog for a suggestion. */
export function openVerify(wb: Workbench, itemKey: string, index: number): void {
  const target = whatIfTarget(wb.store.getState(), itemKey, index);
  if (target)
    wb.store.dispatch({
      type: 'dialog/opened',
      dialog: { kind: 'what-if', key: `${itemKey}#${index}`, target },
    });
}

/** Keep a what-if result, and record its measured plans in the workspace (pending until accepted). */
export async function recordVerification(
  wb: Workbench,
  key: string,
  target: WhatIfTarget,
  reply: WhatIfReply,
): Promise<void> {
  wb.store.dispatch({ type: 'whatif/verified', key, reply });
  if (!features.export) return;
  try {
    await wb.api['workspace.recordVerification']({
      profileId: profileId(wb.store.getState().session),
      table: target.table,
      sql: target.sql,
      suggestion: target.suggestion,
      record: reply.record,
    });
    wb.store.dispatch({ type: 'export/changed' });
  } catch (error) {
    const { activeTab } = wb.store.getState();
    wb.store.dispatch({ type: 'analysis/failed', tabId: activeTab, error: toShownError(error) });
  }
}

/** Add one suggestion (with its what-if record, if any) to the workspace. */
export async function acceptSuggestion(wb: Workbench, itemKey: string, index: number): Promise<void> {
  const state = wb.store.getState();
  const found = findItem(state, itemKey);
  const suggestion = found?.item.finding.suggestions[index];
  const statement = found ? statementOf(found) : undefined;
  if (!found || !suggestion || !statement) return;
  // A what-if run in this session travels with the suggestion, so the item keeps its record.
  const record = state.verifications[`${itemKey}#${index}`]?.record;
  const kept = record ? { ...suggestion, verification: record } : suggestion;
  const report: AnalysisReport = {
    server: found.report.server,
    errors: [],
    statements: [{ ...statement, findings: [{ ...found.item.finding, suggestions: [kept] }] }],
  };
  try {
    await wb.api['workspace.addFromAnalysis']({
      profileId: profileId(state.session),
      report,
      pick: suggestion.kind,
    });
    wb.store.dispatch({ type: 'suggestion/accepted', key: `${itemKey}#${index}` });
  } catch (error) {
    const { activeTab } = wb.store.getState();
    wb.store.dispatch({ type: 'analysis/failed', tabId: activeTab, error: toShownError(error) });
  }
}

/** Open the Apply DDL confirmation for a suggestion's DDL (live sessions only). */
export function openApplyDdl(wb: Workbench, itemKey: string, index: number): void {
  const state = wb.store.getState();
  const suggestion = findItem(state, itemKey)?.item.finding.suggestions[index];
  if (!suggestion || !liveOf(state) || suggestion.ddl.length === 0) return;
  wb.store.dispatch({
    type: 'dialog/opened',
    dialog: { kind: 'apply-ddl', statements: ddlStatements(suggestion.ddl), key: `${itemKey}#${index}` },
  });
}

/** Palette: the selected finding's first DDL suggestion, else the Export panel's script. */
export function applyDdlCommand(wb: Workbench): void {
  const state = wb.store.getState();
  const found = state.selectedKey ? findItem(state, state.selectedKey) : null;
  const index =
    found?.item.finding.suggestions.findIndex((s) => s.kind !== 'rewrite' && s.ddl.length > 0) ?? -1;
  if (found && index >= 0) {
    wb.store.dispatch({ type: 'panel/shown', panel: 'findings' });
    openApplyDdl(wb, found.item.key, index);
    return;
  }
  wb.store.dispatch({ type: 'panel/shown', panel: 'export' });
  wb.store.dispatch({ type: 'export/apply-requested' });
}

/** The Findings panel's suggestion actions for the current state. */
export function suggestionActions(wb: Workbench, state: WorkbenchState, dark: boolean): SuggestionActions {
  return {
    verifyBlocked: verifyBlocked(state),
    verifications: state.verifications,
    accepted: state.accepted,
    applyBlocked: liveOf(state) ? null : 'Apply DDL needs a live connection to the server.',
    onApplyDdl: (itemKey, index) => openApplyDdl(wb, itemKey, index),
    ddlOutcomes: state.ddlOutcomes,
    onVerify: (itemKey, index) => openVerify(wb, itemKey, index),
    onApplyRewrite(itemKey, rewrittenSql) {
      wb.editor()?.applyRewrite(itemKey, rewrittenSql);
    },
    originalSql(itemKey) {
      const found = findItem(wb.store.getState(), itemKey);
      return found ? statementOf(found)?.sql : undefined;
    },
    dark,
    onAccept: features.export ? (itemKey, index) => void acceptSuggestion(wb, itemKey, index) : null,
  };
}

/** Load the profile's disabled rules (on every profile change); toggling one re-analyzes the tab. */
export function useRuleToggles(
  wb: Workbench,
  currentProfile: string,
): (rule: string, disabled: boolean) => void {
  useEffect(() => {
    if (!features.ruleToggles) return;
    let cancelled = false;
    wb.api['workspace.get']({ profileId: currentProfile }).then(
      ({ workspace }) => {
        if (!cancelled)
          wb.store.dispatch({
            type: 'rules/loaded',
            disabledRules: workspace.disabledRules ?? [],
            ...(features.optInSaved ? { enabledRules: workspace.enabledRules ?? [] } : {}),
          });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [wb, currentProfile]);
  return useCallback(
    (rule: string, disabled: boolean) => void toggleRule(wb, currentProfile, rule, disabled),
    [wb, currentProfile],
  );
}

/** Turn an opt-in rule on or off: at once in the state, saved in the profile's workspace when the bridge can. */
export async function setOptInRule(
  wb: Workbench,
  currentProfile: string,
  rule: string,
  enabled: boolean,
): Promise<void> {
  wb.store.dispatch({ type: 'rules/opt-in', rule, enabled });
  if (!features.optInSaved) return;
  try {
    await wb.api['workspace.setRuleEnabled']({ profileId: currentProfile, rule, enabled });
  } catch {
    return;
  }
}

/** Disable or re-enable a rule in the profile's workspace, then analyze the whole tab again. */
export async function toggleRule(
  wb: Workbench,
  currentProfile: string,
  rule: string,
  disabled: boolean,
): Promise<void> {
  try {
    const { workspace } = await wb.api['workspace.setRuleDisabled']({
      profileId: currentProfile,
      rule,
      disabled,
    });
    wb.store.dispatch({ type: 'rules/loaded', disabledRules: workspace.disabledRules ?? [] });
  } catch {
    return;
  }
  await analyze(wb, 'all', { showPanel: true });
}
