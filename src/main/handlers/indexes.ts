// Handlers for the index-design area (src/shared/api/indexes.ts): the Index set view's workload design.

import { designWorkloadIndexes, workloadFromText } from '../../core/indexing/index.js';
import { neededIndexes } from '../../core/indexing/unused.js';
import { offlineServerInfo } from '../../core/sqlmode/modes.js';
import type { IndexesApi } from '../../shared/api/indexes.js';
import { AdvisorError } from '../../shared/errors.js';
import { offlineSchema, offlineTarget } from '../services/analysis.js';
import type { Services } from '../services/index.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { tableDistinctCounts } from '../services/column-statistics.js';
import { unusedIndexes } from '../services/index-usage.js';
import { loadSchema } from '../services/schema.js';

export function createIndexesHandlers(services: Services): IndexesApi {
  const { connections } = services;
  return {
    async 'indexes.design'(request) {
      const statements = workloadFromText(request.sql);
      const options = {
        ...(request.maxIndexes ? { maxIndexes: request.maxIndexes } : {}),
        ...(request.maxKeyBytes ? { maxKeyBytes: request.maxKeyBytes } : {}),
      };
      if (request.connectionId) {
        const { connection, server, target } = connections.get(request.connectionId);
        if (!server.database)
          throw new AdvisorError('INVALID_INPUT', 'The index set needs the schema of a database.', {
            hint: 'Choose a default database for this connection.',
          });
        const loaded = await loadSchema(connection, server, server.database).catch((error: unknown) => {
          throw mapMysqlError(error, { host: target.host, port: target.port, action: 'Reading the schema' });
        });
        // Views and sequences cannot be indexed: the index set designs for base tables only.
        const schema = { ...loaded, tables: loaded.tables.filter((table) => !table.kind) };
        // Equality columns ordered by selectivity: the server's statistics for the tables a first design touches.
        const first = designWorkloadIndexes(statements, schema, server, options);
        const distinct = await tableDistinctCounts(
          connection,
          server,
          server.database,
          schema,
          first.tables.map((table) => table.table),
        );
        const plan =
          distinct.size > 0
            ? designWorkloadIndexes(statements, schema, server, {
                ...options,
                distinct: (table, column) => distinct.get(`${table.toLowerCase()}.${column.toLowerCase()}`),
              })
            : first;
        const tables = plan.tables.map((table) => table.table);
        const unused = await unusedIndexes(
          connection,
          server,
          server.database,
          schema,
          tables,
          neededIndexes(plan),
        );
        return { plan, unused };
      }
      const chosen = offlineTarget(request.target?.flavor, request.target?.version);
      const server = offlineServerInfo(chosen.flavor, chosen.version);
      const schema = offlineSchema(request.schemaSql, chosen.flavor, chosen.version);
      if (schema.tables.length === 0)
        throw new AdvisorError('INVALID_INPUT', 'The index set needs a schema.', {
          hint: 'Paste CREATE TABLE statements as the offline schema, or connect to a server.',
        });
      return { plan: designWorkloadIndexes(statements, schema, server, options) };
    },
  };
}
