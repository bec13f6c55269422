// API area: the workspace (accepted/dismissed suggestions per profile) and the DDL export preview.

import { z } from 'zod';
import type { ExportPlan, RenderedScript } from '../../core/export/index.js';
import type { AnalysisReport, Suggestion } from '../../core/model/report.js';
import { verificationSchema, type Workspace, type WorkspaceItem } from '../../core/workspace/index.js';

const profileRef = z.object({
  /** Workspace per connection profile; `offline` when not connected. */
  profileId: z.string().min(1).max(200).default('offline'),
});

const addFromAnalysisSchema = profileRef.extend({
  /** An analysis report as returned by analyze.run. */
  report: z.custom<AnalysisReport>(
    (value) =>
      typeof value === 'object' && value !== null && Array.isArray((value as AnalysisReport).statements),
  ),
  pick: z
    .enum(['index-first', 'functional-index', 'generated-column', 'index', 'rewrite', 'drop-index'])
    .optional(),
});

const recordVerificationSchema = profileRef.extend({
  table: z.string().min(1).max(200),
  /** The statement that was verified. */
  sql: z.string().min(1),
  /** The suggestion whose DDL was built. */
  suggestion: z.custom<Suggestion>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Suggestion).kind === 'string' &&
      Array.isArray((value as Suggestion).ddl),
  ),
  record: verificationSchema,
});

const exportPreviewSchema = profileRef.extend({
  flavor: z.enum(['mysql', 'mariadb', 'percona']),
  version: z.string().min(1),
  variant: z.enum(['sql', 'pt-osc', 'gh-ost']).optional(),
  rollback: z.boolean().optional(),
  idempotent: z.boolean().optional(),
  splitOnline: z.boolean().optional(),
  /** Accepted index drops: render the later DROP step (default: hide them first, INVISIBLE / IGNORED). */
  dropStep: z.boolean().optional(),
  /** Use the live schema to flag suggestions that no longer apply, and read cluster variables and table sizes for warnings. */
  connectionId: z.string().optional(),
  /** Warn about tables with at least this many rows (default 1,000,000). */
  largeTableRows: z.number().int().positive().optional(),
});

export const workspaceSchemas = {
  'workspace.get': profileRef,
  'workspace.addFromAnalysis': addFromAnalysisSchema,
  'workspace.accept': profileRef.extend({ itemId: z.string().min(1) }),
  'workspace.dismiss': profileRef.extend({
    itemId: z.string().min(1),
    reason: z.string().max(2000).default(''),
  }),
  'workspace.saveAs': profileRef.extend({ path: z.string().min(1) }),
  'workspace.open': profileRef.extend({ path: z.string().min(1) }),
  'workspace.setRuleDisabled': profileRef.extend({
    rule: z.string().regex(/^[A-Za-z0-9.]{1,20}$/),
    disabled: z.boolean(),
  }),
  'workspace.setRuleEnabled': profileRef.extend({
    rule: z.string().regex(/^[A-Za-z0-9.]{1,20}$/),
    enabled: z.boolean(),
  }),
  'workspace.recordVerification': recordVerificationSchema,
  'export.preview': exportPreviewSchema,
} as const;

export interface WorkspaceReply {
  workspace: Workspace;
  /** Where it is saved. */
  path: string;
}

export interface WorkspaceApi {
  'workspace.get'(request: z.input<typeof profileRef>): Promise<WorkspaceReply>;
  /** Add each finding's first DDL suggestion (or the chosen kind) as accepted items; saved atomically. */
  'workspace.addFromAnalysis'(
    request: z.input<typeof addFromAnalysisSchema>,
  ): Promise<WorkspaceReply & { added: number }>;
  'workspace.accept'(
    request: z.input<(typeof workspaceSchemas)['workspace.accept']>,
  ): Promise<WorkspaceReply>;
  'workspace.dismiss'(
    request: z.input<(typeof workspaceSchemas)['workspace.dismiss']>,
  ): Promise<WorkspaceReply>;
  /** Save a copy as a `.sargable.json` file (Save as…). */
  'workspace.saveAs'(
    request: z.input<(typeof workspaceSchemas)['workspace.saveAs']>,
  ): Promise<WorkspaceReply>;
  /** Open a `.sargable.json` file as this profile's workspace (corrupt/newer files are refused, never overwritten). */
  'workspace.open'(request: z.input<(typeof workspaceSchemas)['workspace.open']>): Promise<WorkspaceReply>;
  /** Disable (or re-enable) an advisor rule in this profile's workspace; the renderer passes the list to analyze.run. */
  'workspace.setRuleDisabled'(
    request: z.input<(typeof workspaceSchemas)['workspace.setRuleDisabled']>,
  ): Promise<WorkspaceReply>;
  /** Turn an opt-in advisor rule on (or off) in this profile's workspace; saved, and restored with it. */
  'workspace.setRuleEnabled'(
    request: z.input<(typeof workspaceSchemas)['workspace.setRuleEnabled']>,
  ): Promise<WorkspaceReply>;
  /**
   * Keep a what-if result (explain.whatIf's `record`) on the suggestion's item; a suggestion not in
   * the workspace yet is added as pending, and accepting it later keeps the record.
   */
  'workspace.recordVerification'(
    request: z.input<typeof recordVerificationSchema>,
  ): Promise<WorkspaceReply & { item: WorkspaceItem }>;
  /** The export script (or rollback) for the accepted items. */
  'export.preview'(
    request: z.input<typeof exportPreviewSchema>,
  ): Promise<{ plan: ExportPlan; script: RenderedScript }>;
}
