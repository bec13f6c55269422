// API area: Apply DDL — run confirmed index/generated-column DDL on the server (an explicit write).

import { z } from 'zod';
import { productionConfirmationField } from './profiles.js';

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
});

export const ddlSchemas = {
  'ddl.apply': ddlApplySchema,
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
}
