// API area: the offline schema: the outline the editor completes from, and schema files loaded from disk.

import { z } from 'zod';
import type { SkippedStatement } from '../../core/schema/ddl-load.js';
import type { SchemaOutline } from '../../core/sql/completion.js';

const flavor = z.enum(['mysql', 'mariadb', 'percona']);

const outlineSchema = z.union([
  /** The live server of a connection (bounded: see MAX_OUTLINE_TABLES / MAX_OUTLINE_COLUMNS). */
  z.object({ connectionId: z.string().min(1) }),
  /** Offline: CREATE TABLE statements (the Try it demo or pasted DDL). */
  z.object({
    schemaSql: z.string().max(5_000_000),
    flavor: flavor.optional(),
  }),
  /** Offline: a schema file loaded with schema.loadFile. */
  z.object({ schemaId: z.string().min(1).max(100) }),
]);

const loadFileSchema = z.object({
  /** A file the user chose (`files.choose` grant, an upload's grant, or a path under --allow-dir). */
  ref: z.string().min(1).max(4096),
  flavor,
  version: z.string().min(1).max(40).optional(),
});

export const schemaSchemas = {
  'schema.outline': outlineSchema,
  'schema.loadFile': loadFileSchema,
} as const;

/** At most this many skipped statements come back in a reply (the count is exact). */
export const MAX_REPLY_SKIPPED = 200;

/** The result of a `schema.loadFile` job: what the status bar and analyses need, not the schema itself. */
export interface SchemaFileReply {
  /** Pass as `schemaId` to analyze.run, sqlmode.upgrade and schema.outline. */
  schemaId: string;
  /** The file's name as chosen. */
  name: string;
  flavor: z.infer<typeof flavor>;
  version: string;
  bytes: number;
  tables: number;
  views: number;
  sequences: number;
  /** Statements that define no table (INSERT, SET, triggers, …), read past. */
  ignored: number;
  skippedCount: number;
  /** The first MAX_REPLY_SKIPPED skipped statements, with line and reason. */
  skipped: SkippedStatement[];
  partialCount: number;
}

export interface SchemaApi {
  /** Databases, tables and views with their columns and types, for SQL completion. */
  'schema.outline'(request: z.input<typeof outlineSchema>): Promise<SchemaOutline>;
  /**
   * Load a schema file the user chose, read by the service as a stream (no size limit of the request
   * body). A job: follow it on `job.events` (progress in bytes), cancel with `job.cancel`; its result
   * is a SchemaFileReply.
   */
  'schema.loadFile'(request: z.input<typeof loadFileSchema>): Promise<{ jobId: string }>;
}
