// The workspace file (`.sargable.json`): reading any known format version, and writing the current one.
//
// Design note: the file is versioned. `parseWorkspace` reads any known version, migrates it step by
// step to the current one, and refuses a newer or corrupt file with a reason the caller shows (the
// store never overwrites such a file). Additive optional fields (such as `disabledRules`) keep the
// version: older files simply lack them. A parse error's message is never shown as is: it quotes the
// text, and the file may not be a workspace at all.

import { z } from 'zod';
import { addItem, dismissItem, emptyWorkspace, sourceQuery } from './items.js';
import { WORKSPACE_FORMAT, WORKSPACE_VERSION, type Workspace } from './types.js';
import { verificationSchema } from './verification.js';

const suggestionSchema = z.object({
  kind: z.enum(['rewrite', 'functional-index', 'generated-column', 'index', 'drop-index']),
  equivalent: z.boolean(),
  ddl: z.array(z.string()),
  indexName: z.string().optional(),
  rewrittenSql: z.string().optional(),
  notes: z.array(z.string()),
  verification: z.unknown().optional(),
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
      finding: z.string().optional(),
      updatedAt: z.string(),
    }),
  ),
  notes: z.array(
    z.object({ id: z.string(), text: z.string(), itemId: z.string().optional(), createdAt: z.string() }),
  ),
  disabledRules: z.array(z.string().regex(/^[A-Z0-9]{1,20}$/)).optional(),
  enabledRules: z.array(z.string().regex(/^[A-Z0-9]{1,20}$/)).optional(),
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
