// API area: the schema outline (databases → tables → columns) the editor completes from.

import { z } from 'zod';
import type { SchemaOutline } from '../../core/sql/completion.js';

const outlineSchema = z.union([
  /** The live server of a connection (bounded: see MAX_OUTLINE_TABLES / MAX_OUTLINE_COLUMNS). */
  z.object({ connectionId: z.string().min(1) }),
  /** Offline: CREATE TABLE statements (the Try it demo or pasted DDL). */
  z.object({
    schemaSql: z.string().max(5_000_000),
    flavor: z.enum(['mysql', 'mariadb', 'percona']).optional(),
  }),
]);

export const schemaSchemas = {
  'schema.outline': outlineSchema,
} as const;

export interface SchemaApi {
  /** Databases, tables and views with their columns and types, for SQL completion. */
  'schema.outline'(request: z.input<typeof outlineSchema>): Promise<SchemaOutline>;
}
