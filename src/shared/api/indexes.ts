// API area: index design for a workload (the Index set view): the editor's statements as one workload.

import { z } from 'zod';
import type { WorkloadPlan } from '../../core/indexing/index.js';
import type { UnusedIndexReport } from '../../core/indexing/unused.js';
import type { IndexProof, SetStatementProof } from '../../core/explain/what-if-set.js';
import { productionConfirmationField } from './profiles.js';

const designSchema = z.object({
  /** Statements separated by ';'; a `-- weight: N` comment before a statement gives its weight. */
  sql: z.string().min(1).max(5_000_000),
  /** Use the live server's schema and version. */
  connectionId: z.string().optional(),
  /** Offline schema: CREATE TABLE statements. */
  schemaSql: z.string().optional(),
  /** Offline target when not connected. */
  target: z.object({ flavor: z.enum(['mysql', 'mariadb', 'percona']), version: z.string() }).optional(),
  /** At most this many new or extended indexes. */
  maxIndexes: z.number().int().positive().max(1000).optional(),
  /** At most this many key bytes over all chosen indexes. */
  maxKeyBytes: z.number().int().positive().optional(),
});

const proveSchema = z.object({
  connectionId: z.string().min(1),
  /** The indexes to prove, each with the statements it serves (core/explain/what-if-set.ts). */
  candidates: z
    .array(
      z.object({
        key: z.string().min(1),
        table: z.string().min(1),
        name: z.string().min(1),
        ddl: z.array(z.string().min(1)).min(1),
        statements: z
          .array(
            z.object({
              index: z.number().int().min(0),
              sql: z.string().min(1),
              // The statement after the build when it must change (an index on a generated column MariaDB does not substitute).
              afterSql: z.string().min(1).optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(1)
    .max(200),
  /** The user saw every statement (proofSteps) and confirmed. */
  confirmed: z.literal(true),
  /** Production profiles: the profile name the user typed. */
  productionConfirmation: productionConfirmationField,
  /** Seconds each build waits for the table's metadata lock (default 5). */
  lockWaitTimeoutSeconds: z.number().int().min(1).max(600).optional(),
  /**
   * `each` (default): each index alone, built and dropped in turn. `set`: every index built together,
   * each statement EXPLAINed before and with the whole set, all dropped (core/explain/what-if-set.ts
   * setProofSteps).
   */
  mode: z.enum(['each', 'set']).optional(),
});

export const indexesSchemas = {
  'indexes.design': designSchema,
  'indexes.prove': proveSchema,
} as const;

/** The result of an `indexes.prove` job: one verdict per candidate, in order. */
export interface IndexProofResult {
  proofs: IndexProof[];
  method: 'invisible-index' | 'sandbox';
  /** Absent: `each`. */
  mode?: 'each' | 'set';
  /** `set` only: per statement the plan before and with the whole set, and which indexes it picks. */
  statements?: SetStatementProof[];
}

export interface IndexSetReply {
  plan: WorkloadPlan;
  /** Live only: indexes of the workload's tables that the server's usage counters saw no reads of. */
  unused?: UnusedIndexReport;
}

export interface IndexesApi {
  /**
   * One index set for the statements (core/indexing/workload.ts): candidates from every statement merged
   * by prefix, chosen by benefit per byte, weighed against the writes in the same text; with the
   * redundant indexes of the workload's tables. Reads the schema only; builds nothing.
   */
  'indexes.design'(request: z.input<typeof designSchema>): Promise<IndexSetReply>;
  /**
   * Prove each index with what-if (built INVISIBLE on MySQL 8, on the sandbox elsewhere), EXPLAIN its
   * statements before and after, drop it; with `mode: 'set'` every index together. A job: follow it on
   * `job.events` (progress: `done` of `total` indexes, or of the set proof's statements), cancel with
   * `job.cancel` (what was built is dropped); its result is an IndexProofResult. Writes to the server.
   */
  'indexes.prove'(request: z.input<typeof proveSchema>): Promise<{ jobId: string }>;
}
