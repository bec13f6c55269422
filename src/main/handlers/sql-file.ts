// Handlers for the sqlFile area (see src/shared/api/sql-file.ts): a chosen SQL file analysed as a
// stream by main, as a job with progress, and one of its statements fetched for an editor tab.

import path from 'node:path';
import type { SqlFileApi, SqlFileReply } from '../../shared/api/sql-file.js';
import { liveStatementAnalysis, offlineStatementAnalysis, offlineTarget } from '../services/analysis.js';
import { CaptureService } from '../services/capture-jobs.js';
import { FileGrants } from '../services/file-grants.js';
import type { Services } from '../services/index.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { loadSchema } from '../services/schema.js';
import { LoadedSchemas } from '../services/schema-files.js';
import {
  analyzeSqlFile,
  SqlFileAnalyses,
  type FileStatementAnalysis,
} from '../services/sql-file-analysis.js';

export function createSqlFileHandlers(services: Services): SqlFileApi {
  const capture = (services.capture ??= new CaptureService());
  const analyses = (services.sqlFiles ??= new SqlFileAnalyses());
  return {
    async 'sqlFile.analyze'(request) {
      // Only a file the user chose (a dialog or upload grant, or under --allow-dir): FORBIDDEN otherwise.
      const file = (services.files ?? new FileGrants()).resolve(request.ref, 'read');
      const name = path.basename(file.name);
      const rules = {
        ...(request.disabledRules ? { disabledRules: request.disabledRules } : {}),
        ...(request.enabledRules ? { enabledRules: request.enabledRules } : {}),
      };
      // The schema and target are resolved before the job starts, so a bad request fails at once.
      let analysis: FileStatementAnalysis;
      if (request.connectionId) {
        const { connection, server, target } = services.connections.get(request.connectionId);
        const schema = server.database
          ? await loadSchema(connection, server, server.database).catch((error: unknown) => {
              throw mapMysqlError(error, {
                host: target.host,
                port: target.port,
                action: 'Reading the schema',
              });
            })
          : { source: 'none' as const, tables: [] };
        // No selectivity samples: a file may hold millions of statements (docs/parsing.md).
        analysis = liveStatementAnalysis(connection, server, schema, { ...rules, sample: false });
      } else {
        const target = offlineTarget(request.target?.flavor, request.target?.version);
        const schema = request.schemaId
          ? await (services.schemas ??= new LoadedSchemas()).get(request.schemaId)
          : request.schemaSql;
        analysis = offlineStatementAnalysis(target, request.target ? 'flags' : 'default', schema, rules);
      }
      const { analysisId, spill } = analyses.open();
      const jobId = capture.startJob('sql-file', async (signal, progress): Promise<SqlFileReply> => {
        try {
          const result = await analyzeSqlFile({ path: file.path, name }, analysis, {
            signal,
            spill,
            onProgress: (p) =>
              progress({
                bytesRead: p.bytesRead,
                totalBytes: p.totalBytes,
                events: p.statements,
                findings: p.findings,
                errors: p.errors,
              }),
          });
          return { analysisId, ...result };
        } catch (error) {
          analyses.drop(analysisId);
          throw error;
        }
      });
      return { jobId };
    },
    async 'sqlFile.statement'(request) {
      return analyses.statement(request.analysisId, request.index);
    },
  };
}
