// Handlers for the connection-status area (see src/shared/api/connection-status.ts).

import type { ConnectionStatusApi } from '../../shared/api/connection-status.js';
import type { Services } from '../services/index.js';

/** `connection.status`: the ManagedConnection's state after the reconnect attempt that is due. */
export function createConnectionStatusHandlers({ connections }: Services): ConnectionStatusApi {
  return {
    async 'connection.status'({ connectionId, retryNow }) {
      return connections.heal(connectionId, retryNow ? { retryNow } : {});
    },
  };
}
