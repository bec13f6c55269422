// API area: EXPLAIN plans, pasted plans and what-if verification.

import { z } from 'zod';
import type { PlanNode, PlanReport, PlanSummary } from '../../core/explain/index.js';
import { runIdField } from './ddl.js';
import { productionConfirmationField } from './profiles.js';
import type { VerificationRecord } from '../../core/workspace/index.js';

const flavor = z.enum(['mysql', 'mariadb', 'percona']);

export const explainRequestSchema = z.object({
  connectionId: z.string().min(1),
  sql: z.string().min(1),
  formats: z.array(z.enum(['traditional', 'json', 'tree'])).optional(),
  /** Executes the statement: the UI asks for confirmation first. */
  analyze: z.boolean().optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  /**
   * The user chose to plan a statement that calls functions that may be stored routines (the
   * optimizer can run them while planning, with the connection's privileges). Never applies to ANALYZE.
   */
  allowRoutineCalls: z.boolean().optional(),
});
export type ExplainRequest = z.input<typeof explainRequestSchema>;

export const explainParseSchema = z.object({ text: z.string().min(1), flavor: flavor.optional() });

export const whatIfRequestSchema = z.object({
  connectionId: z.string().min(1),
  sql: z.string().min(1),
  table: z.string().min(1),
  ddl: z.array(z.string().min(1)).min(1),
  rewrittenSql: z.string().optional(),
  /** The user confirmed after seeing the table size. */
  confirmed: z.literal(true),
  /** Production profiles: the profile name the user typed. */
  productionConfirmation: productionConfirmationField,
  threshold: z.number().min(0).max(1).optional(),
  /** Seconds the what-if ALTER waits for the table's metadata lock (session lock_wait_timeout; default 5). */
  lockWaitTimeoutSeconds: z.number().int().min(1).max(600).optional(),
  /** An id the caller chose for this run, so `ddl.cancel` can stop it. */
  runId: runIdField,
});
export type WhatIfApiRequest = z.input<typeof whatIfRequestSchema>;

export const explainSchemas = {
  'explain.run': explainRequestSchema,
  'explain.parse': explainParseSchema,
  'explain.whatIf': whatIfRequestSchema,
} as const;

export interface ExplainApi {
  /** EXPLAIN a statement on the connection (never executes it unless `analyze`). */
  'explain.run'(request: ExplainRequest): Promise<ExplainReply>;
  /** Parse pasted EXPLAIN output (tabular, \\G, JSON, TREE) offline. */
  'explain.parse'(request: z.input<typeof explainParseSchema>): Promise<PlanReport>;
  /** Build a suggested index invisibly (MySQL 8) or on a sandbox, compare plans, drop it. */
  'explain.whatIf'(request: WhatIfApiRequest): Promise<WhatIfReply>;
}

export interface ExplainReply {
  sql: string;
  plan: PlanNode;
  report: PlanReport;
  raw: Record<string, unknown>;
}

export interface WhatIfReply {
  method: 'invisible-index' | 'sandbox';
  before: PlanSummary;
  after: PlanSummary;
  /** The table the index was built on. */
  table: string;
  verdict: 'improved' | 'unchanged' | 'worse';
  rowsReduction: number | null;
  /** Fraction of the estimated cost saved (0.93 = 93% cheaper); null when a plan has no cost. */
  costReduction: number | null;
  /** Which numbers decided the verdict, in words ("estimated cost 14× lower, rows examined −17%"). */
  reason: string;
  tableRows: number | null;
  tableBytes: number | null;
  /** The run as the workspace keeps it (pass it to workspace.recordVerification). */
  record: VerificationRecord;
}
