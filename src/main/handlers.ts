// The service handlers behind every face: one object implementing the whole AdvisorApi.

import type { AdvisorApi, AppInfo } from '../shared/api.js';
import { loadSchema } from './services/schema.js';
import { offlineTarget, runAnalysis, runOfflineAnalysis } from './services/analysis.js';
import type { ConnectionService } from './services/connection.js';
import { mapMysqlError } from './services/mysql-errors.js';
import { explainStatement, verifyWhatIf } from './services/explain.js';
import { parsePlan } from '../core/explain/index.js';
import { AdvisorError } from '../shared/errors.js';

export interface Services {
  connections: ConnectionService;
  app: AppInfo;
}

/** Build the handlers; a missing method is a compile error (AdvisorApi). */
export function createHandlers(services: Services): AdvisorApi {
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
        return runAnalysis(request.sql, server, 'dsn', schema ?? { source: 'none', tables: [] });
      }
      const target = offlineTarget(request.target?.flavor, request.target?.version);
      return runOfflineAnalysis(request.sql, target, request.target ? 'flags' : 'default', request.schemaSql);
    },
    async 'explain.run'(request) {
      const { connection, server } = connections.get(request.connectionId);
      const result = await explainStatement(connection, server, request.sql, {
        formats: request.formats ?? (server.capabilities.explainTree ? ['json', 'tree'] : ['json']),
        ...(request.analyze ? { analyze: true } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      });
      return { sql: result.sql, plan: result.plan, report: result.report, raw: result.raw };
    },
    async 'explain.parse'(request) {
      const parsed = parsePlan(request.text, request.flavor ? { flavor: request.flavor } : {});
      if (!parsed.ok) {
        const where = parsed.error.line
          ? ` (line ${parsed.error.line}, column ${parsed.error.column ?? 1})`
          : '';
        throw new AdvisorError('PARSE_FAILED', `${parsed.error.message}${where}`, {
          hint: 'Paste EXPLAIN output as printed by the client: a +---+ table, \\G rows, FORMAT=JSON or FORMAT=TREE.',
        });
      }
      return parsed.report;
    },
    async 'explain.whatIf'(request) {
      const { server, target } = connections.get(request.connectionId);
      if (!server.database)
        throw new AdvisorError('INVALID_INPUT', 'Choose a default database for this connection first.');
      const result = await verifyWhatIf(target, server, {
        ddl: request.ddl,
        table: request.table,
        database: server.database,
        beforeSql: request.sql,
        afterSql: request.rewrittenSql ?? request.sql,
        allowWhatIf: target.allowWhatIf && request.confirmed,
        ...(request.threshold !== undefined ? { threshold: request.threshold } : {}),
      });
      const { created: _created, ...reply } = result;
      return reply;
    },
  };
}
