// Handlers for the locks area (see src/shared/api/locks.ts).

import type { LocksApi } from '../../shared/api/locks.js';
import type { Services } from '../handlers.js';
import { AdvisorError } from '../../shared/errors.js';
import { countRecordLocks, killSession, pollLocks, statementRewrites } from '../services/locks.js';
import { assertProductionConfirmed } from '../services/production-guard.js';

export function createLocksHandlers({ connections }: Services): LocksApi {
  return {
    async 'locks.poll'({ connectionId, limit, lockCounts, explain, rewrites }) {
      const { connection, server } = connections.get(connectionId);
      return pollLocks(connection, server, {
        rewrites: rewrites === 'all' ? true : 'lazy',
        ...(limit ? { limit } : {}),
        ...(lockCounts ? { lockCounts } : {}),
        ...(explain ? { explain } : {}),
      });
    },
    async 'locks.rewrites'({ connectionId, sql }) {
      const { server } = connections.get(connectionId);
      return statementRewrites(server, sql);
    },
    async 'locks.counts'({ connectionId, trxIds }) {
      const { connection, server } = connections.get(connectionId);
      if (!server.capabilities.dataLocks)
        throw new AdvisorError(
          'UNSUPPORTED',
          'Record lock counts need performance_schema.data_locks (MySQL >= 8.0.1); this server lists only the locks involved in waits.',
        );
      return countRecordLocks(connection, trxIds);
    },
    async 'locks.kill'({ connectionId, threadId, scope, productionConfirmation }) {
      assertProductionConfirmed(
        connections.get(connectionId).target,
        productionConfirmation,
        `KILL ${scope.toUpperCase()} ${threadId}`,
      );
      // KILL is an explicit write: its own connection, never the guarded analysis session.
      await connections.withWriteConnection(connectionId, (connection) =>
        killSession(connection, threadId, scope),
      );
    },
  };
}
