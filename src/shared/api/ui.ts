// API area: small read-only lookups the workbench needs before asking the user to confirm something.

import { z } from 'zod';

const tableSizeSchema = z.object({
  connectionId: z.string().min(1),
  table: z.string().min(1).max(200),
});

export const uiSchemas = {
  'ui.tableSize': tableSizeSchema,
} as const;

/** Rows and bytes (data + indexes) from information_schema.TABLES; null when the server does not say. */
export interface TableSizeReply {
  database: string | null;
  table: string;
  rows: number | null;
  bytes: number | null;
}

export interface UiApi {
  /** Size of a table in the connection's default database (shown before a what-if index build). */
  'ui.tableSize'(request: z.input<typeof tableSizeSchema>): Promise<TableSizeReply>;
}
