// Handlers for the schema area (see src/shared/api/schema.ts): the outline SQL completion reads.

import { schemaFromDdl } from '../../core/schema/ddl.js';
import { outlineFromSchema } from '../../core/sql/completion.js';
import type { SchemaApi } from '../../shared/api/schema.js';
import type { Services } from '../services/index.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { loadOutline } from '../services/schema.js';

/** Build the schema-area handlers. */
export function createSchemaHandlers({ connections }: Services): SchemaApi {
  return {
    async 'schema.outline'(request) {
      if ('connectionId' in request) {
        const { connection, server, target } = connections.get(request.connectionId);
        return loadOutline(connection, server.database).catch((error: unknown) => {
          throw mapMysqlError(error, {
            host: target.host,
            port: target.port,
            action: 'Reading the schema outline',
          });
        });
      }
      const flavor = request.flavor === 'mariadb' ? 'mariadb' : 'mysql';
      const { schema } = schemaFromDdl(request.schemaSql, flavor);
      // A dump's `USE db` puts its tables in that database: complete them unqualified.
      const databases = new Set(schema.tables.map((table) => table.schema ?? ''));
      return outlineFromSchema(schema, databases.size === 1 ? [...databases][0]! : '');
    },
  };
}
