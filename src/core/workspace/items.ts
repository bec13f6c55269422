// Workspace items: a suggestion on a table with the queries it serves, its status and verification.
//
// Design note: items are keyed by a stable id (a checksum of the table and the normalized DDL), so the
// same suggestion reached from several queries is one item listing every query (each query class once,
// by its fingerprint checksum).

import { checksum, fingerprint } from '../fingerprint/index.js';
import type { Suggestion } from '../model/report.js';
import { verificationOf } from './verification.js';
import {
  WORKSPACE_FORMAT,
  WORKSPACE_VERSION,
  type SourceOrigin,
  type SourceQuery,
  type VerificationRecord,
  type Workspace,
  type WorkspaceItem,
  type WorkspaceProfile,
} from './types.js';

/** A new, empty workspace for a profile. */
export function emptyWorkspace(profile: WorkspaceProfile, now: string): Workspace {
  return {
    format: WORKSPACE_FORMAT,
    version: WORKSPACE_VERSION,
    profile,
    savedAt: now,
    items: [],
    notes: [],
  };
}

/** A source record for a query text (fingerprint and class checksum computed here). */
export function sourceQuery(
  sql: string,
  origin: SourceOrigin,
  extra: Partial<SourceQuery> = {},
): SourceQuery {
  const print = fingerprint(sql);
  return { sql, fingerprint: print, checksum: checksum(print), origin, ...extra };
}

/** Stable id of a suggestion on a table: the same DDL (modulo spacing, case and backticks) gets the same id. */
export function itemId(table: string, suggestion: Pick<Suggestion, 'kind' | 'ddl'>): string {
  const normalized = suggestion.ddl
    .map((statement) =>
      statement
        .replace(/[`;]/g, ' ')
        .replace(/\s*([^\w\s])\s*/g, '$1')
        .replace(/\s+/g, ' ')
        .trim()
        .toLowerCase(),
    )
    .join('\n');
  return checksum(`${table.toLowerCase()}\n${suggestion.kind}\n${normalized}`);
}

/**
 * Add a suggestion (status `accepted` unless given) or, when the same suggestion is already there,
 * merge its source queries into the existing item (same fingerprint checksum = same query class).
 */
export function addItem(
  workspace: Workspace,
  table: string,
  suggestion: Suggestion,
  sources: readonly SourceQuery[],
  now: string,
  status: WorkspaceItem['status'] = 'accepted',
  finding?: string,
): WorkspaceItem {
  const id = itemId(table, suggestion);
  let item = workspace.items.find((candidate) => candidate.id === id);
  if (!item) {
    item = { id, status, table, suggestion, sources: [], ...(finding ? { finding } : {}), updatedAt: now };
    workspace.items.push(item);
  } else {
    if (finding && !item.finding) item.finding = finding;
    // Verified first (kept as pending) and accepted now; or dismissed as an alternative, chosen again.
    if (status === 'accepted' && item.status !== 'accepted') {
      item.status = 'accepted';
      delete item.dismissReason;
    }
  }
  if (item.status === 'accepted') dismissAlternatives(workspace, item, now);
  for (const source of sources)
    if (!item.sources.some((known) => known.checksum === source.checksum)) item.sources.push(source);
  const verification = verificationOf(suggestion.verification);
  if (verification && !item.verification) item.verification = verification;
  item.updatedAt = now;
  return item;
}

/** Accept an item (clears a dismissal). Returns false when the id is unknown. */
export function acceptItem(workspace: Workspace, id: string, now: string): boolean {
  const item = workspace.items.find((candidate) => candidate.id === id);
  if (!item) return false;
  item.status = 'accepted';
  delete item.dismissReason;
  item.updatedAt = now;
  dismissAlternatives(workspace, item, now);
  return true;
}

const kindName: Record<string, string> = {
  'functional-index': 'functional index',
  'generated-column': 'indexed generated column',
  index: 'index',
  'drop-index': 'index drop',
  rewrite: 'rewrite',
};

/**
 * One fix per finding: the accepted alternatives of `chosen` (items fixing the same finding) are
 * dismissed, so the export never builds two indexes for one problem. Returns how many.
 */
export function dismissAlternatives(workspace: Workspace, chosen: WorkspaceItem, now: string): number {
  if (!chosen.finding) return 0;
  let dismissed = 0;
  for (const other of workspace.items) {
    if (other === chosen || other.finding !== chosen.finding || other.status !== 'accepted') continue;
    other.status = 'dismissed';
    other.dismissReason = `replaced by its alternative, the ${kindName[chosen.suggestion.kind] ?? chosen.suggestion.kind} (one fix per finding)`;
    other.updatedAt = now;
    dismissed++;
  }
  return dismissed;
}

/** Dismiss an item with a reason. Returns false when the id is unknown. */
export function dismissItem(workspace: Workspace, id: string, reason: string, now: string): boolean {
  const item = workspace.items.find((candidate) => candidate.id === id);
  if (!item) return false;
  item.status = 'dismissed';
  item.dismissReason = reason;
  item.updatedAt = now;
  return true;
}

/** Record a verification result on an item. */
export function recordVerification(workspace: Workspace, id: string, record: VerificationRecord): boolean {
  const item = workspace.items.find((candidate) => candidate.id === id);
  if (!item) return false;
  item.verification = record;
  item.updatedAt = record.verifiedAt;
  return true;
}

/**
 * Keep a what-if result: on the item of that suggestion when the workspace has it, else as a new
 * `pending` item (accepting the suggestion later keeps the record). Returns the item.
 */
export function keepVerification(
  workspace: Workspace,
  table: string,
  suggestion: Suggestion,
  sources: readonly SourceQuery[],
  record: VerificationRecord,
): WorkspaceItem {
  const item = addItem(workspace, table, suggestion, sources, record.verifiedAt, 'pending');
  item.verification = record;
  return item;
}
