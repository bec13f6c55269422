// Handlers for the UI area (see src/shared/api/ui.ts): read-only lookups for confirmations.

import type { UiApi } from '../../shared/api/ui.js';
import type { Services } from '../services/index.js';
import { tableSize } from '../services/what-if.js';
import { mapMysqlError } from '../services/mysql-errors.js';

/** Build the UI-area handlers. */
export function createUiHandlers({ connections }: Services): UiApi {
  return {
    async 'ui.tableSize'(request) {
      const { connection, server, target } = connections.get(request.connectionId);
      if (!server.database) return { database: null, table: request.table, rows: null, bytes: null };
      const size = await tableSize(connection, server.database, request.table).catch((error: unknown) => {
        throw mapMysqlError(error, {
          host: target.host,
          port: target.port,
          action: 'Reading the table size',
        });
      });
      return { database: server.database, table: request.table, ...size };
    },
  };
}
