// API area: Apply DDL — run confirmed index/generated-column DDL on the server (an explicit write).

import { z } from 'zod';
import { productionConfirmationField } from './profiles.js';

/** The caller's id of a run (letters, digits, - and _), for `ddl.cancel`. */
const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
export const runIdField = runIdSchema.optional();

export const ddlApplySchema = z.object({
  connectionId: z.string().min(1),
  /**
   * The statements exactly as the confirmation dialog showed them, run in order. Only CREATE INDEX
   * and ALTER TABLE … ADD INDEX / ADD generated COLUMN are accepted (core/ddl/apply-guard.ts).
   */
  statements: z.array(z.string().min(1).max(20_000)).min(1).max(100),
  /** The user saw the exact SQL and chose Apply; anything else is refused (CONSENT_REQUIRED). */
  consent: z.boolean().optional(),
  /** Production profiles: the profile name the user typed. */
  productionConfirmation: productionConfirmationField,
  /**
   * Seconds each statement waits for the table's metadata lock before it gives up (session
   * lock_wait_timeout; default 5). Behind an open transaction a waiting ALTER queues every later
   * query on the table, so the wait is kept short.
   */
  lockWaitTimeoutSeconds: z.number().int().min(1).max(600).optional(),
  /** An id the caller chose for this run, so `ddl.cancel` can stop it. */
  runId: runIdField,
});

/** An id the renderer gives a running Apply DDL or what-if, to cancel it with `ddl.cancel`. */
export const ddlCancelSchema = z.object({
  connectionId: z.string().min(1),
  runId: runIdSchema,
});

export const ddlSchemas = {
  'ddl.apply': ddlApplySchema,
  'ddl.cancel': ddlCancelSchema,
} as const;

/** One statement that ran. */
export interface AppliedStatement {
  sql: string;
  /** Server time for the statement, milliseconds. */
  ms: number;
  /** The server's warnings count for the statement. */
  warnings: number;
}

export interface DdlApplyReply {
  applied: AppliedStatement[];
}

export interface DdlApi {
  /**
   * With consent (and the profile name on production): run the statements on a separate,
   * short-lived connection and log them in the workspace history. A failing statement stops the
   * run; its error says which one failed and which ran before it (DDL is not transactional).
   */
  'ddl.apply'(request: z.input<typeof ddlApplySchema>): Promise<DdlApplyReply>;
  /**
   * Cancel a running Apply DDL or what-if (by the `runId` it was started with): KILL QUERY of our own
   * statement. `cancelled: false` when that run is not in progress (it ended already).
   */
  'ddl.cancel'(request: z.input<typeof ddlCancelSchema>): Promise<{ cancelled: boolean }>;
}
