// API area: sql_mode server view and the upgrade view ("what breaks under mode X or on server Y").

import { z } from 'zod';
import type { SqlModeView, UpgradeClassesReport, UpgradeReport } from '../../core/sqlmode/views.js';

const sqlmodeViewSchema = z.object({ connectionId: z.string().min(1) });
const sqlmodeUpgradeSchema = z.object({
  sql: z.string(),
  target: z.object({ flavor: z.enum(['mysql', 'mariadb', 'percona']), version: z.string().min(1) }),
  /** Explicit mode instead of the target version's default. */
  sqlMode: z.string().optional(),
  /** Offline schema; with connectionId the live schema is used. */
  schemaSql: z.string().optional(),
  /** Offline schema: a schema file loaded with schema.loadFile (instead of schemaSql). */
  schemaId: z.string().min(1).max(100).optional(),
  connectionId: z.string().optional(),
});

const sqlmodeUpgradeClassesSchema = sqlmodeUpgradeSchema.omit({ sql: true }).extend({
  /** Captured classes (slow-log digest or performance_schema delta): example text, fingerprint, executions. */
  classes: z
    .array(
      z.object({
        sql: z.string().min(1).max(1_000_000),
        fingerprint: z.string().max(1_000_000),
        count: z.number().int().min(0),
      }),
    )
    .max(20_000),
});

export const sqlmodeSchemas = {
  'sqlmode.view': sqlmodeViewSchema,
  'sqlmode.upgrade': sqlmodeUpgradeSchema,
  'sqlmode.upgradeClasses': sqlmodeUpgradeClassesSchema,
} as const;

export interface SqlModeApi {
  /** Global and session sql_mode of the server, explained, with risks and variable differences. */
  'sqlmode.view'(request: z.input<typeof sqlmodeViewSchema>): Promise<SqlModeView>;
  /** Run the sql-mode rules over statements for a target and count what would fail or change. */
  'sqlmode.upgrade'(request: z.input<typeof sqlmodeUpgradeSchema>): Promise<UpgradeReport>;
  /** The same over captured digest / slow-log classes: per class, with counts in classes and executions. */
  'sqlmode.upgradeClasses'(
    request: z.input<typeof sqlmodeUpgradeClassesSchema>,
  ): Promise<UpgradeClassesReport>;
}
