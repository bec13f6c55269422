// What-if verification records: EXPLAIN before and after a suggestion's DDL, kept on workspace items.
//
// Design note: one shape everywhere (the CLI's `suggestion.verification`, the API's what-if reply and
// the workspace item); `verificationSchema` is the zod schema the API and the file format validate it
// with, so a record that does not have this shape is never attached (`verificationOf`).

import { z } from 'zod';
import { tableNodes, type PlanNode } from '../explain/plan.js';
import type { PlanVerdict } from '../explain/summarize.js';
import type { PlanLine, VerificationRecord } from './types.js';

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
