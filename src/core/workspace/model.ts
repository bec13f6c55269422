// The workspace: accepted and dismissed suggestions, their source queries, notes and verification, per connection profile.
//
// Design note: the module is split by subject: types.ts (the shapes), items.ts (adding, accepting and
// dismissing items, keyed by a stable id so one suggestion reached from several queries is one item),
// verification.ts (what-if records), file.ts (the versioned `.sargable.json` format: reading any known
// version, migrating, refusing a newer or corrupt file). This module re-exports them all (the rest of
// the app imports the workspace from here) and holds the workspace-wide operations: disabled rules,
// the write log, the deadlock history, and accepting the suggestions of an analysis.

import { servedSql, type AnalysisReport, type SuggestionKind } from '../model/report.js';
import { addToDeadlockHistory, type Deadlock } from '../locks/deadlock.js';
import { addItem, sourceQuery } from './items.js';
import { findingIdentity } from './finding-identity.js';
import {
  MAX_WORKSPACE_DEADLOCKS,
  MAX_WORKSPACE_WRITES,
  type Workspace,
  type WorkspaceItem,
  type WriteRecord,
} from './types.js';

export * from './types.js';
export * from './items.js';
export * from './verification.js';
export * from './file.js';
export * from './finding-identity.js';

/** Append a write record, keeping the newest {@link MAX_WORKSPACE_WRITES}. */
export function recordWrite(workspace: Workspace, record: WriteRecord): void {
  workspace.writes = [...(workspace.writes ?? []), record].slice(-MAX_WORKSPACE_WRITES);
}

/**
 * Disable (or re-enable) an advisor rule in the workspace; IDs are normalised (`FUN.001` → `FUN001`).
 * Returns false when nothing changed.
 */
export function setRuleDisabled(
  workspace: Workspace,
  ruleId: string,
  disabled: boolean,
  now: string,
): boolean {
  return setRuleIn(workspace, 'disabledRules', ruleId, disabled, now);
}

/**
 * Turn an opt-in advisor rule on (or off again) in the workspace (the Findings panel's "Opt-in rules"
 * checkboxes, `analyze --enable`); IDs are normalised. Returns false when nothing changed.
 */
export function setRuleEnabled(workspace: Workspace, ruleId: string, enabled: boolean, now: string): boolean {
  return setRuleIn(workspace, 'enabledRules', ruleId, enabled, now);
}

function setRuleIn(
  workspace: Workspace,
  field: 'disabledRules' | 'enabledRules',
  ruleId: string,
  member: boolean,
  now: string,
): boolean {
  const id = ruleId.replace(/\./g, '').toUpperCase();
  const current = new Set(workspace[field] ?? []);
  if (current.has(id) === member) return false;
  if (member) current.add(id);
  else current.delete(id);
  if (current.size === 0) delete workspace[field];
  else workspace[field] = [...current].sort();
  workspace.savedAt = now;
  return true;
}

/** Which suggestions `fromAnalysis` takes from each finding. */
export type AnalysisPick = 'index-first' | SuggestionKind;

const DDL_KINDS: readonly SuggestionKind[] = ['functional-index', 'generated-column', 'index'];

/**
 * Accept suggestions from an AnalysisReport: per finding the first suggestion with DDL
 * (`index-first`), or the first of one kind. The table comes from the finding (or the DDL).
 */
export function fromAnalysis(
  workspace: Workspace,
  report: AnalysisReport,
  now: string,
  pick: AnalysisPick = 'index-first',
): { added: number; findingsWithoutDdl: number } {
  let added = 0;
  let findingsWithoutDdl = 0;
  for (const statement of report.statements) {
    for (const finding of statement.findings) {
      const suggestion = finding.suggestions.find((candidate) =>
        pick === 'index-first'
          ? DDL_KINDS.includes(candidate.kind) && candidate.ddl.length > 0
          : candidate.kind === pick && candidate.ddl.length > 0,
      );
      const table = finding.table ?? tableOfDdl(suggestion?.ddl[0]);
      if (!suggestion || !table) {
        findingsWithoutDdl++;
        continue;
      }
      // A plain index proposed for an exact rewrite helps only the rewritten query: keep that query with it.
      const served = servedSql(finding, suggestion);
      const kept = served && !suggestion.rewrittenSql ? { ...suggestion, rewrittenSql: served } : suggestion;
      const before = workspace.items.length;
      addItem(
        workspace,
        table,
        kept,
        [sourceQuery(statement.sql, 'analysis', { rule: finding.rule, message: finding.message })],
        now,
        'accepted',
        findingIdentity(statement.sql, finding),
      );
      if (workspace.items.length > before) added++;
    }
  }
  return { added, findingsWithoutDdl };
}

function tableOfDdl(ddl: string | undefined): string | null {
  const match = ddl ? /^\s*ALTER\s+TABLE\s+(?:`((?:[^`]|``)+)`|([A-Za-z0-9_$]+))/i.exec(ddl) : null;
  return match ? (match[1]?.replace(/``/g, '`') ?? match[2] ?? null) : null;
}

/** Accepted items, in workspace order. */
export function acceptedItems(workspace: Workspace): WorkspaceItem[] {
  return workspace.items.filter((item) => item.status === 'accepted');
}

/**
 * Keep a deadlock in the workspace's history: a new fingerprint is added, a new occurrence (another
 * `detectedAt`) of a known one is counted, the same report read again (every poll, and after a
 * restart) changes nothing. Returns whether the workspace changed (then save it).
 */
export function recordDeadlock(workspace: Workspace, deadlock: Deadlock): boolean {
  const { history, added } = addToDeadlockHistory(workspace.deadlocks ?? [], deadlock);
  if (!added) return false;
  // Most recently seen last; drop the least recently seen beyond the cap.
  const touched = history.find((entry) => entry.fingerprint === deadlock.fingerprint);
  const rest = history.filter((entry) => entry !== touched);
  workspace.deadlocks = [...rest, ...(touched ? [touched] : [])].slice(-MAX_WORKSPACE_DEADLOCKS);
  return true;
}
