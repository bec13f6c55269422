// API area: run one read-only query and return its result grid (issue 18 item 15; docs/security.md).

import { z } from 'zod';
import { runIdField } from './ddl.js';

const queryRunSchema = z.object({
  connectionId: z.string().min(1),
  sql: z.string().min(1).max(1_000_000),
  /** Rows to return at most (default 1,000, at most 10,000); the statement is stopped after them. */
  rowLimit: z.number().int().min(1).max(10_000).optional(),
  /** Time limit in ms (default 10 s, at most 5 min), enforced by the server and a KILL QUERY watchdog. */
  timeoutMs: z.number().int().min(100).max(300_000).optional(),
  /** An id the caller chose for this run, so `query.cancel` can stop it. */
  runId: runIdField,
});

/** Stop a running query.run (by the `runId` it was started with): KILL QUERY of our own statement. */
const queryCancelSchema = z.object({
  connectionId: z.string().min(1),
  runId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
});

export const querySchemas = {
  'query.run': queryRunSchema,
  'query.cancel': queryCancelSchema,
} as const;

/** A result grid: every value as text (binary as 0x hex), null for SQL NULL. */
export interface QueryRunResult {
  columns: { name: string; type: string }[];
  rows: (string | null)[][];
  /** More rows existed than `rowLimit`; only the first `rowLimit` are here. */
  truncated: boolean;
  rowLimit: number;
  elapsedMs: number;
}

export interface QueryApi {
  /**
   * Run a query the statement guard proves read-only (SELECT / WITH / TABLE / VALUES, no side-effect
   * or stored functions) on a dedicated read-only connection, with a row and a time limit.
   * A refused statement fails with UNSUPPORTED and says why.
   */
  'query.run'(request: z.input<typeof queryRunSchema>): Promise<QueryRunResult>;
  /**
   * Cancel a running query.run of this connection (its `runId`): the statement is stopped on the server
   * (KILL QUERY of our own thread) and the run fails with CANCELLED. `cancelled` is false when no such
   * run is in progress (it finished already).
   */
  'query.cancel'(request: z.input<typeof queryCancelSchema>): Promise<{ cancelled: boolean }>;
}
