// Handlers for the schema area (see src/shared/api/schema.ts): the outline SQL completion reads, and
// schema files loaded from disk (a job with progress) for offline analysis.

import path from 'node:path';
import { schemaFromDdl } from '../../core/schema/ddl.js';
import { outlineFromSchema } from '../../core/sql/completion.js';
import { MAX_REPLY_SKIPPED, type SchemaApi, type SchemaFileReply } from '../../shared/api/schema.js';
import { assertSchemaLoaded, offlineTarget } from '../services/analysis.js';
import { CaptureService } from '../services/capture-jobs.js';
import { FileGrants } from '../services/file-grants.js';
import type { Services } from '../services/index.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { loadOutline } from '../services/schema.js';
import { LoadedSchemas, loadSchemaFile } from '../services/schema-files.js';

/** Build the schema-area handlers. */
export function createSchemaHandlers(services: Services): SchemaApi {
  const { connections } = services;
  // Shared with the event channels (main/events.ts), which watch the same jobs.
  const capture = (services.capture ??= new CaptureService());
  const schemas = (services.schemas ??= new LoadedSchemas());
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
      const schema =
        'schemaId' in request
          ? (await schemas.get(request.schemaId)).schema
          : schemaFromDdl(request.schemaSql, request.flavor === 'mariadb' ? 'mariadb' : 'mysql').schema;
      // A dump's `USE db` puts its tables in that database: complete them unqualified.
      const databases = new Set(schema.tables.map((table) => table.schema ?? ''));
      return outlineFromSchema(schema, databases.size === 1 ? [...databases][0]! : '');
    },
    async 'schema.loadFile'(request) {
      // Only a file the user chose (a dialog or upload grant, or under --allow-dir): FORBIDDEN otherwise.
      const file = (services.files ?? new FileGrants()).resolve(request.ref, 'read');
      const name = path.basename(file.name);
      const target = offlineTarget(request.flavor, request.version);
      const jobId = capture.startJob('schema-load', async (signal, progress): Promise<SchemaFileReply> => {
        const loaded = await loadSchemaFile(file, {
          flavor: target.flavor,
          version: target.version,
          signal,
          onProgress: (p) =>
            progress({ bytesRead: p.bytesRead, totalBytes: p.totalBytes, events: p.statements }),
        });
        assertSchemaLoaded(loaded.schema, loaded.summary);
        const { summary } = loaded;
        const schemaId = await schemas.add({ ...loaded, name, ...target }, file);
        return {
          schemaId,
          name,
          ...target,
          bytes: loaded.bytes,
          tables: summary.tables,
          views: summary.views,
          sequences: summary.sequences,
          ignored: summary.ignored,
          skippedCount: summary.skipped.length,
          skipped: summary.skipped.slice(0, MAX_REPLY_SKIPPED),
          partialCount: summary.partial.length,
        };
      });
      return { jobId };
    },
  };
}
