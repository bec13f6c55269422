// Handlers for the EXPLAIN area (see src/shared/api/explain.ts).

import { parsePlan } from '../../core/explain/index.js';
import type { ExplainApi } from '../../shared/api/explain.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import { queryKiller } from '../services/connection.js';
import { explainStatement } from '../services/explain.js';
import { verifyWhatIf } from '../services/what-if.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';
import { WriteRuns } from '../services/write-runs.js';
import { whatIfDdl } from '../../core/indexing/index.js';

export function createExplainHandlers({ connections, workspaces, writeRuns }: Services): ExplainApi {
  const runs = writeRuns ?? new WriteRuns();
  return {
    async 'explain.run'(request) {
      const { connection, server, target } = connections.get(request.connectionId);
      const result = await explainStatement(connection, server, request.sql, {
        formats: request.formats ?? (server.capabilities.explainTree ? ['json', 'tree'] : ['json']),
        ...(request.analyze ? { analyze: true } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
        ...(request.allowRoutineCalls ? { allowRoutineCalls: true } : {}),
        killQuery: queryKiller(target),
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
      assertProductionConfirmed(target, request.productionConfirmation, 'Building a what-if index');
      const database = server.database;
      // A designed index that extends an existing one is tried next to it (nothing is dropped).
      const ddl = request.ddl.map(whatIfDdl);
      // Cancel (ddl.cancel) kills our statement; what-if still drops what it built.
      const run = runs.begin(request.runId, request.connectionId, target);
      const result = await loggedWrite(workspaces, target, { action: 'what-if-index', sql: ddl }, () =>
        verifyWhatIf(run.target, server, {
          ddl,
          table: request.table,
          database,
          beforeSql: request.sql,
          afterSql: request.rewrittenSql ?? request.sql,
          allowWhatIf: target.allowWhatIf && request.confirmed,
          ...(request.threshold !== undefined ? { threshold: request.threshold } : {}),
          ...(request.lockWaitTimeoutSeconds !== undefined
            ? { lockWaitTimeoutSeconds: request.lockWaitTimeoutSeconds }
            : {}),
        }),
      )
        .catch((error: unknown) => {
          if (!run.cancelled) throw error;
          throw new AdvisorError(
            'CANCELLED',
            'What-if was cancelled: its statement was stopped on the server (KILL QUERY) and what it built was dropped.',
            {},
            { cause: error },
          );
        })
        .finally(() => run.end());
      const { created: _created, ran: _ran, ...reply } = result;
      return reply;
    },
  };
}
