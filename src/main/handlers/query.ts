// Handlers for the query area (see src/shared/api/query.ts).

import type { QueryApi } from '../../shared/api/query.js';
import type { Services } from '../services/index.js';
import { runReadQuery } from '../services/read-query.js';

export function createQueryHandlers({ connections }: Services): QueryApi {
  return {
    async 'query.run'(request) {
      const { server, target } = connections.get(request.connectionId);
      return runReadQuery(target, server, request.sql, {
        ...(request.rowLimit !== undefined ? { rowLimit: request.rowLimit } : {}),
        ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      });
    },
  };
}
