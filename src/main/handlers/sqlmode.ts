// Handlers for the sql_mode area (see src/shared/api/sqlmode.ts).

import { validateSqlMode, validModes } from '../../core/sqlmode/modes.js';
import { whatBreaks } from '../../core/sqlmode/views.js';
import type { SqlModeApi } from '../../shared/api/sqlmode.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../handlers.js';
import { offlineSchema, offlineTarget } from '../services/analysis.js';
import { loadSchema } from '../services/schema.js';
import { readSqlModeView } from '../services/sqlmode.js';

export function createSqlModeHandlers({ connections }: Services): SqlModeApi {
  return {
    async 'sqlmode.view'(request) {
      const { connection } = connections.get(request.connectionId);
      return readSqlModeView(connection);
    },
    async 'sqlmode.upgrade'(request) {
      const target = offlineTarget(request.target.flavor, request.target.version);
      if (request.sqlMode !== undefined) {
        const validation = validateSqlMode(request.sqlMode, target.flavor, target.version);
        const bad = [...validation.unknown, ...validation.removed];
        if (bad.length > 0) {
          throw new AdvisorError(
            'INVALID_INPUT',
            `Not valid on ${target.flavor} ${target.version}: ${bad.join(', ')}.`,
            {
              hint: `Valid modes: ${validModes(target.flavor, target.version).join(', ')}`,
            },
          );
        }
      }
      let schema = offlineSchema(request.schemaSql, target.flavor);
      if (request.connectionId) {
        const { connection, server } = connections.get(request.connectionId);
        if (server.database) schema = await loadSchema(connection, server, server.database);
      }
      return whatBreaks(
        request.sql,
        { ...target, ...(request.sqlMode !== undefined ? { sqlMode: request.sqlMode } : {}) },
        schema,
      );
    },
  };
}
