// Handlers for the query area (see src/shared/api/query.ts).

import type { QueryApi } from '../../shared/api/query.js';
import type { Services } from '../services/index.js';
import { runReadQuery } from '../services/read-query.js';

export function createQueryHandlers({ connections }: Services): QueryApi {
  // Running queries by the caller's run id; Cancel aborts one of the same connection only.
  const running = new Map<string, { connectionId: string; controller: AbortController }>();
  return {
    async 'query.run'(request) {
      const { server, target } = connections.get(request.connectionId);
      const controller = new AbortController();
      const entry = { connectionId: request.connectionId, controller };
      if (request.runId) running.set(request.runId, entry);
      try {
        return await runReadQuery(target, server, request.sql, {
          ...(request.rowLimit !== undefined ? { rowLimit: request.rowLimit } : {}),
          ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
          signal: controller.signal,
        });
      } finally {
        if (request.runId && running.get(request.runId) === entry) running.delete(request.runId);
      }
    },
    async 'query.cancel'({ connectionId, runId }) {
      connections.get(connectionId);
      const entry = running.get(runId);
      if (!entry || entry.connectionId !== connectionId) return { cancelled: false };
      entry.controller.abort();
      return { cancelled: true };
    },
  };
}
