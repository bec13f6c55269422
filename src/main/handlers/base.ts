// Handlers for the base methods of the contract (src/shared/api.ts): app info, connections, analysis.

import type { AdvisorApi } from '../../shared/api.js';
import { offlineTarget, runLiveAnalysis, runOfflineAnalysis } from '../services/analysis.js';
import type { Services } from '../services/index.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { loadSchema } from '../services/schema.js';
import { LoadedSchemas } from '../services/schema-files.js';

type BaseApi = Pick<AdvisorApi, 'app.info' | 'connection.open' | 'connection.close' | 'analyze.run'>;

export function createBaseHandlers(services: Services): BaseApi {
  const { connections } = services;
  return {
    async 'app.info'() {
      return services.app;
    },
    async 'connection.open'(request) {
      return connections.openConnection(request);
    },
    async 'connection.close'(request) {
      await connections.close(request.connectionId);
    },
    async 'analyze.run'(request) {
      if (request.connectionId) {
        const { connection, server, target } = connections.get(request.connectionId);
        const database = server.database;
        const schema = database
          ? await loadSchema(connection, server, database).catch((error: unknown) => {
              throw mapMysqlError(error, {
                host: target.host,
                port: target.port,
                action: 'Reading the schema',
              });
            })
          : undefined;
        return runLiveAnalysis(connection, request.sql, server, schema ?? { source: 'none', tables: [] }, {
          ...(request.disabledRules ? { disabledRules: request.disabledRules } : {}),
          ...(request.enabledRules ? { enabledRules: request.enabledRules } : {}),
        });
      }
      const target = offlineTarget(request.target?.flavor, request.target?.version);
      return runOfflineAnalysis(
        request.sql,
        target,
        request.target ? 'flags' : 'default',
        request.schemaId
          ? await (services.schemas ??= new LoadedSchemas()).get(request.schemaId)
          : request.schemaSql,
        {
          ...(request.disabledRules ? { disabledRules: request.disabledRules } : {}),
          ...(request.enabledRules ? { enabledRules: request.enabledRules } : {}),
        },
      );
    },
  };
}
