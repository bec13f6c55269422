// Handlers for the locks area (see src/shared/api/locks.ts).

import type { LocksApi } from '../../shared/api/locks.js';
import type { Services } from '../handlers.js';
import { killSession, pollLocks } from '../services/locks.js';
import { assertProductionConfirmed } from '../services/production-guard.js';

export function createLocksHandlers({ connections }: Services): LocksApi {
  return {
    async 'locks.poll'({ connectionId, limit, lockCounts, explain }) {
      const { connection, server } = connections.get(connectionId);
      return pollLocks(connection, server, {
        ...(limit ? { limit } : {}),
        ...(lockCounts ? { lockCounts } : {}),
        ...(explain ? { explain } : {}),
      });
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
