// The workspace: accepted and dismissed suggestions, their source queries, notes and verification, per connection profile.
//
// Design note: the file (`.sargable.json`) is versioned. `parseWorkspace` reads any known version,
// migrates it step by step to the current one, and refuses a newer or corrupt file with a reason
// the caller shows (the store never overwrites such a file). Additive optional fields (such as
// `disabledRules`) keep the version: older files simply lack them. Items are keyed by a stable id (a
// checksum of the table and the normalized DDL), so the same suggestion reached from several
// queries is one item listing every query.

import { z } from 'zod';
import type { Flavor } from '../flavors/capabilities.js';
import { checksum, fingerprint } from '../fingerprint/index.js';
import { servedSql, type AnalysisReport, type Suggestion, type SuggestionKind } from '../model/report.js';
import { tableNodes, type PlanNode } from '../explain/plan.js';
import type { PlanVerdict } from '../explain/summarize.js';
import { addToDeadlockHistory, type Deadlock, type DeadlockHistoryEntry } from '../locks/deadlock.js';

/** The format written by this version. */
export const WORKSPACE_VERSION = 2;
/** The `format` marker in every file since version 2. */
export const WORKSPACE_FORMAT = 'sargable-workspace';

/** Where a query came from. */
export type SourceOrigin = 'pasted' | 'slowlog' | 'digest' | 'locks' | 'analysis';

/** A query (or query class) a suggestion serves. */
export interface SourceQuery {
  sql: string;
  /** pt-query-digest fingerprint and its checksum (class id). */
  fingerprint: string;
  checksum: string;
  origin: SourceOrigin;
  rule?: string;
  message?: string;
}

/** One table access of an EXPLAIN, as kept for the record. */
export interface PlanLine {
  table: string | null;
  type: string | null;
  key: string | null;
  rows: number | null;
  extra?: string | null;
}

/**
 * What-if verification: EXPLAIN before and after the DDL. One shape everywhere: the CLI's
 * `suggestion.verification`, the API's what-if reply and the workspace item all carry this record.
 */
export interface VerificationRecord {
  verifiedAt: string;
  /** "MySQL 8.0.33" and the like. */
  server?: string;
  /** Invisible index (MySQL 8) or a real index on a sandbox. */
  method?: 'invisible-index' | 'sandbox';
  /** Improved when the rows examined dropped by at least the threshold (or the access got better). */
  verdict?: PlanVerdict;
  /** Share of estimated rows examined that the change saves (0.75 = 75 % fewer); null when unknown. */
  rowsReduction?: number | null;
  before: PlanLine[];
  after: PlanLine[];
  /** The plan after uses the proposed index. */
  usesIndex: boolean;
}

/** One suggestion in the workspace. */
export interface WorkspaceItem {
  id: string;
  status: 'accepted' | 'dismissed' | 'pending';
  table: string;
  suggestion: Suggestion;
  sources: SourceQuery[];
  dismissReason?: string;
  note?: string;
  verification?: VerificationRecord;
  updatedAt: string;
}

/** A free note (optionally about one item). */
export interface WorkspaceNote {
  id: string;
  text: string;
  itemId?: string;
  createdAt: string;
}

/** The connection profile a workspace belongs to. */
export interface WorkspaceProfile {
  id: string;
  name?: string;
  flavor?: Flavor;
  serverVersion?: string;
  database?: string | null;
}

/** The whole workspace (current version). */
export interface Workspace {
  format: typeof WORKSPACE_FORMAT;
  version: typeof WORKSPACE_VERSION;
  profile: WorkspaceProfile;
  savedAt: string;
  items: WorkspaceItem[];
  notes: WorkspaceNote[];
  /** Advisor rule IDs disabled in this workspace (sorted; absent = none). */
  disabledRules?: string[];
  /**
   * Distinct deadlocks seen on this profile's server (Locks panel), keyed by their fingerprint, oldest
   * first. Optional and additive: files without it (all version 2 files before it, and migrated
   * version 1 files) simply have none.
   */
  deadlocks?: DeadlockHistoryEntry[];
  /**
   * Explicit writes Sargable ran on this profile's server (what-if index, kill, slow-log window),
   * oldest first, for the record. Optional and additive like `deadlocks`.
   */
  writes?: WriteRecord[];
}

/** One explicit write on a server: what ran, where, and how it ended. */
export interface WriteRecord {
  at: string;
  action: 'what-if-index' | 'kill' | 'slow-log-window' | 'apply-ddl';
  /** The statements as confirmed by the user (for the slow-log window: apply, then restore). */
  sql: string[];
  /** The connection label (profile name or user@host:port); never a password. */
  server: string;
  /** The profile was marked production and the user typed its name. */
  production: boolean;
  /** `started` for background jobs (the slow-log window). */
  outcome: 'done' | 'failed' | 'started';
  message?: string;
}

/** At most this many writes are kept per workspace (the oldest go first). */
export const MAX_WORKSPACE_WRITES = 500;

/** Append a write record, keeping the newest {@link MAX_WORKSPACE_WRITES}. */
export function recordWrite(workspace: Workspace, record: WriteRecord): void {
  workspace.writes = [...(workspace.writes ?? []), record].slice(-MAX_WORKSPACE_WRITES);
}

const suggestionSchema = z.object({
  kind: z.enum(['rewrite', 'functional-index', 'generated-column', 'index']),
  equivalent: z.boolean(),
  ddl: z.array(z.string()),
  indexName: z.string().optional(),
  rewrittenSql: z.string().optional(),
  notes: z.array(z.string()),
  verification: z.unknown().optional(),
});
const planLineSchema = z.object({
  table: z.string().nullable(),
  type: z.string().nullable(),
  key: z.string().nullable(),
  rows: z.number().nullable(),
  extra: z.string().nullable().optional(),
});
/** The zod schema of a VerificationRecord (the API validates records with it). */
export const verificationSchema = z.object({
  verifiedAt: z.string(),
  server: z.string().optional(),
  method: z.enum(['invisible-index', 'sandbox']).optional(),
  verdict: z.enum(['improved', 'unchanged', 'worse']).optional(),
  rowsReduction: z.number().nullable().optional(),
  before: z.array(planLineSchema),
  after: z.array(planLineSchema),
  usesIndex: z.boolean(),
});
const sourceSchema = z.object({
  sql: z.string(),
  fingerprint: z.string(),
  checksum: z.string(),
  origin: z.enum(['pasted', 'slowlog', 'digest', 'locks', 'analysis']),
  rule: z.string().optional(),
  message: z.string().optional(),
});
const currentSchema = z.object({
  format: z.literal(WORKSPACE_FORMAT),
  version: z.literal(WORKSPACE_VERSION),
  profile: z.object({
    id: z.string(),
    name: z.string().optional(),
    flavor: z.enum(['mysql', 'mariadb', 'percona']).optional(),
    serverVersion: z.string().optional(),
    database: z.string().nullable().optional(),
  }),
  savedAt: z.string(),
  items: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['accepted', 'dismissed', 'pending']),
      table: z.string(),
      suggestion: suggestionSchema,
      sources: z.array(sourceSchema),
      dismissReason: z.string().optional(),
      note: z.string().optional(),
      verification: verificationSchema.optional(),
      updatedAt: z.string(),
    }),
  ),
  notes: z.array(
    z.object({ id: z.string(), text: z.string(), itemId: z.string().optional(), createdAt: z.string() }),
  ),
  disabledRules: z.array(z.string().regex(/^[A-Z0-9]{1,20}$/)).optional(),
  deadlocks: z.array(deadlockEntrySchema()).optional(),
  writes: z
    .array(
      z.object({
        at: z.string(),
        action: z.enum(['what-if-index', 'kill', 'slow-log-window', 'apply-ddl']),
        sql: z.array(z.string()),
        server: z.string(),
        production: z.boolean(),
        outcome: z.enum(['done', 'failed', 'started']),
        message: z.string().optional(),
      }),
    )
    .optional(),
});

/**
 * Version 1, the first draft format: flat `accepted` / `dismissed` lists holding the suggestion,
 * its table and the raw query texts, a profile name and string notes.
 */
const v1Schema = z.object({
  version: z.literal(1),
  profile: z.string(),
  savedAt: z.string().optional(),
  accepted: z.array(
    z.object({ table: z.string(), suggestion: suggestionSchema, queries: z.array(z.string()) }),
  ),
  dismissed: z.array(
    z.object({
      table: z.string(),
      suggestion: suggestionSchema,
      queries: z.array(z.string()),
      reason: z.string(),
    }),
  ),
  notes: z.array(z.string()).default([]),
});

/** Why a file cannot be opened. */
export type WorkspaceProblem =
  { kind: 'corrupt'; message: string } | { kind: 'newer'; version: number; message: string };

/** Result of reading a workspace file. `migratedFrom` is set when an older version was upgraded. */
export type WorkspaceParseResult =
  { ok: true; workspace: Workspace; migratedFrom?: number } | { ok: false; problem: WorkspaceProblem };

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
 * Disable (or re-enable) an advisor rule in the workspace; IDs are normalised (`FUN.001` → `FUN001`).
 * Returns false when nothing changed.
 */
export function setRuleDisabled(
  workspace: Workspace,
  ruleId: string,
  disabled: boolean,
  now: string,
): boolean {
  const id = ruleId.replace(/\./g, '').toUpperCase();
  const current = new Set(workspace.disabledRules ?? []);
  if (current.has(id) === disabled) return false;
  if (disabled) current.add(id);
  else current.delete(id);
  if (current.size === 0) delete workspace.disabledRules;
  else workspace.disabledRules = [...current].sort();
  workspace.savedAt = now;
  return true;
}

/** Parse file text: current version, or an older one migrated; never throws. */
export function parseWorkspace(text: string): WorkspaceParseResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: {
        kind: 'corrupt',
        // Never the parser's message: it quotes the text, and the file may not be a workspace at all.
        message: `The workspace file is not valid JSON${jsonErrorPosition(error)}. It was left unchanged; restore it from a backup or start a new workspace.`,
      },
    };
  }
  const version =
    typeof data === 'object' && data !== null && typeof (data as { version?: unknown }).version === 'number'
      ? (data as { version: number }).version
      : undefined;
  if (version === undefined) return corrupt('it has no format version');
  if (version > WORKSPACE_VERSION)
    return {
      ok: false,
      problem: {
        kind: 'newer',
        version,
        message: `The workspace file has format version ${version}, written by a newer Sargable (this one reads up to ${WORKSPACE_VERSION}). Update Sargable to open it; the file was left unchanged.`,
      },
    };
  if (version === 1) {
    const parsed = v1Schema.safeParse(data);
    if (!parsed.success) return corrupt(describeZod(parsed.error));
    return { ok: true, workspace: migrateV1(parsed.data), migratedFrom: 1 };
  }
  if (version !== WORKSPACE_VERSION) return corrupt(`unknown format version ${version}`);
  const parsed = currentSchema.safeParse(data);
  if (!parsed.success) return corrupt(describeZod(parsed.error));
  return { ok: true, workspace: parsed.data as Workspace };
}

function corrupt(detail: string): WorkspaceParseResult {
  return {
    ok: false,
    problem: {
      kind: 'corrupt',
      message: `The workspace file is damaged: ${detail}. It was left unchanged; restore it from a backup or start a new workspace.`,
    },
  };
}

function describeZod(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid content';
}

function migrateV1(old: z.infer<typeof v1Schema>): Workspace {
  const savedAt = old.savedAt ?? new Date(0).toISOString();
  const workspace = emptyWorkspace({ id: old.profile, name: old.profile }, savedAt);
  for (const entry of old.accepted)
    addItem(
      workspace,
      entry.table,
      entry.suggestion,
      entry.queries.map((sql) => sourceQuery(sql, 'pasted')),
      savedAt,
    );
  for (const entry of old.dismissed) {
    const item = addItem(
      workspace,
      entry.table,
      entry.suggestion,
      entry.queries.map((sql) => sourceQuery(sql, 'pasted')),
      savedAt,
    );
    dismissItem(workspace, item.id, entry.reason, savedAt);
  }
  old.notes.forEach((text, index) =>
    workspace.notes.push({ id: `note-${index + 1}`, text, createdAt: savedAt }),
  );
  return workspace;
}

/** Serialize for disk (stable key order, trailing newline). */
export function serializeWorkspace(workspace: Workspace, now: string): string {
  return `${JSON.stringify({ ...workspace, savedAt: now }, null, 2)}\n`;
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
): WorkspaceItem {
  const id = itemId(table, suggestion);
  let item = workspace.items.find((candidate) => candidate.id === id);
  if (!item) {
    item = { id, status, table, suggestion, sources: [], updatedAt: now };
    workspace.items.push(item);
  } else if (item.status === 'pending' && status === 'accepted') {
    // Verified first (kept as pending), accepted now.
    item.status = 'accepted';
  }
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
  return true;
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

/** A verification attached to a suggestion, when it has the workspace's shape. */
export function verificationOf(value: unknown): VerificationRecord | undefined {
  const parsed = verificationSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The table accesses of a plan as the record keeps them (base tables and derived ones, in plan order). */
export function planLines(root: PlanNode): PlanLine[] {
  return tableNodes(root).map((node) => ({
    table: node.table,
    type: node.accessType,
    key: node.key,
    rows: node.rowsEstimated,
    ...(node.flags.length > 0 ? { extra: node.flags.join(', ') } : {}),
  }));
}

/** What a what-if run measured, for `verificationRecord`. */
export interface VerificationInput {
  before: PlanNode;
  after: PlanNode;
  method: NonNullable<VerificationRecord['method']>;
  verdict: PlanVerdict;
  rowsReduction: number | null;
  /** Indexes the DDL created (their names as the server reports them). */
  createdIndexes: readonly string[];
  /** "MySQL 8.0.33". */
  server?: string;
}

/**
 * The record of one what-if run. `usesIndex` is true when any table access of the plan after
 * uses an index the DDL created (compared case-insensitively, as index names are).
 */
export function verificationRecord(input: VerificationInput, verifiedAt: string): VerificationRecord {
  const created = new Set(input.createdIndexes.map((name) => name.toLowerCase()));
  const after = planLines(input.after);
  return {
    verifiedAt,
    ...(input.server ? { server: input.server } : {}),
    method: input.method,
    verdict: input.verdict,
    rowsReduction: input.rowsReduction,
    before: planLines(input.before),
    after,
    usesIndex: after.some((line) => line.key !== null && created.has(line.key.toLowerCase())),
  };
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

/** At most this many distinct deadlocks are kept per workspace (the least recently seen go first). */
export const MAX_WORKSPACE_DEADLOCKS = 100;

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

/** The zod schema of a kept deadlock: the fields the app reads are checked, the parsed report is kept as is. */
function deadlockEntrySchema() {
  const lock = z
    .object({ lockType: z.string(), mode: z.string(), table: z.string().nullable() })
    .passthrough();
  const transaction = z
    .object({
      number: z.number(),
      trxId: z.string(),
      threadId: z.number().nullable(),
      statement: z.string().nullable(),
      holds: z.array(lock),
      waitsFor: lock.nullable(),
    })
    .passthrough();
  return z.object({
    fingerprint: z.string(),
    occurrences: z.number().int().min(1),
    firstDetectedAt: z.string().nullable(),
    lastDetectedAt: z.string().nullable(),
    latest: z
      .object({
        detectedAt: z.string().nullable(),
        transactions: z.array(transaction),
        victim: z.number().nullable(),
        victimTrxId: z.string().nullable(),
        fingerprint: z.string(),
      })
      .passthrough(),
  });
}

/** " (at position N)" from a JSON.parse error, without the text it quotes. */
function jsonErrorPosition(error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  return position ? ` (at position ${position})` : '';
}
