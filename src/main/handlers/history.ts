// Handlers for the history area (see src/shared/api/history.ts).

import type { HistoryApi } from '../../shared/api/history.js';
import { AdvisorError } from '../../shared/errors.js';
import type { HistoryService } from '../services/history.js';
import type { Services } from '../services/index.js';

function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** The history handlers; UNSUPPORTED where the services keep no history (a test's own Services). */
export function createHistoryHandlers(services: Services): HistoryApi {
  const history = (): HistoryService => {
    if (!services.history) {
      throw new AdvisorError('UNSUPPORTED', 'This face of Sargable keeps no capture history.');
    }
    return services.history;
  };
  return {
    async 'history.windows'(request) {
      const { limit, ...scope } = request;
      return { windows: await history().windows(defined(scope), limit) };
    },
    async 'history.trends'(request) {
      return history().trends(defined(request));
    },
    async 'history.class'(request) {
      return history().classHistory(defined(request));
    },
    async 'history.settings'() {
      const service = history();
      return { ...(await service.settings()), file: service.file };
    },
    async 'history.setSettings'(request) {
      const service = history();
      return { ...(await service.setSettings(request)), file: service.file };
    },
    async 'history.clear'(request) {
      const { all, ...scope } = request;
      const given = defined(scope);
      if (Object.keys(given).length === 0 && all !== true) {
        throw new AdvisorError(
          'INVALID_INPUT',
          'Say which windows to clear (profile, source, since, before), or all: true.',
        );
      }
      return history().clear(given);
    },
  };
}
