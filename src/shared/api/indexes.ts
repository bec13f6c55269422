// API area: index design for a workload (the Index set view): the editor's statements as one workload.

import { z } from 'zod';
import type { WorkloadPlan } from '../../core/indexing/index.js';
import type { UnusedIndexReport } from '../../core/indexing/unused.js';

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

export const indexesSchemas = {
  'indexes.design': designSchema,
} as const;

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
}
