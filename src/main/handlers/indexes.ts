// Handlers for the index-design area (src/shared/api/indexes.ts): the Index set view's workload design.

import { designWorkloadIndexes, whatIfDdl, workloadFromText } from '../../core/indexing/index.js';
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
import { CaptureService } from '../services/capture-jobs.js';
import { assertProofAllowed, proveIndexSet } from '../services/index-proof.js';
import { proveIndexSetTogether } from '../services/index-proof-set.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';
import { WriteRuns } from '../services/write-runs.js';
import { WHAT_IF_LOCK_WAIT_SECONDS } from '../../core/explain/what-if.js';
import type { IndexProofResult } from '../../shared/api/indexes.js';

export function createIndexesHandlers(services: Services): IndexesApi {
  const { connections } = services;
  const capture = (services.capture ??= new CaptureService());
  const runs = (services.writeRuns ??= new WriteRuns());
  return {
    async 'indexes.prove'(request) {
      const { server, target } = connections.get(request.connectionId);
      if (!server.database)
        throw new AdvisorError('INVALID_INPUT', 'Choose a default database for this connection first.');
      assertProductionConfirmed(target, request.productionConfirmation, 'Proving the index set');
      const database = server.database;
      // An index that extends an existing one is tried next to it (nothing is dropped), as in what-if.
      const candidates = request.candidates.map((candidate) => ({
        ...candidate,
        ddl: candidate.ddl.map(whatIfDdl),
      }));
      const allowWhatIf = target.allowWhatIf && request.confirmed;
      // Refused before the job starts: no consent, or DDL that is not an index build on its table.
      assertProofAllowed(server, { database, candidates, allowWhatIf });
      const jobId = capture.startJob('index-proof', async (signal, progress): Promise<IndexProofResult> => {
        const run = runs.begin(undefined, request.connectionId, target);
        // Cancel: KILL QUERY of our running statement; the service then drops what it built.
        const onAbort = () => void runs.cancel(run.id, request.connectionId);
        signal.addEventListener('abort', onAbort);
        progress({ done: 0, total: candidates.length });
        const method = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
        const lockWaitTimeoutSeconds = request.lockWaitTimeoutSeconds ?? WHAT_IF_LOCK_WAIT_SECONDS;
        try {
          return await loggedWrite(
            services.workspaces,
            target,
            { action: 'what-if-index', sql: candidates.flatMap((candidate) => candidate.ddl) },
            async (): Promise<IndexProofResult> => {
              if (request.mode === 'set') {
                const result = await proveIndexSetTogether(run.target, server, {
                  database,
                  candidates,
                  allowWhatIf,
                  lockWaitTimeoutSeconds,
                  signal,
                  onProgress: (done, total) => progress({ done, total }),
                });
                return { ...result, method, mode: 'set' };
              }
              const proofs = await proveIndexSet(run.target, server, {
                database,
                candidates,
                allowWhatIf,
                lockWaitTimeoutSeconds,
                signal,
                onProgress: (done) => progress({ done, total: candidates.length }),
              });
              return { proofs, method, mode: 'each' };
            },
          );
        } finally {
          signal.removeEventListener('abort', onAbort);
          run.end();
        }
      });
      return { jobId };
    },
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
