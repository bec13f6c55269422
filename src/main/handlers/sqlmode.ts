// Handlers for the sql_mode area (see src/shared/api/sqlmode.ts).

import type { SchemaModel } from '../../core/model/schema.js';
import { validateSqlMode, validModes } from '../../core/sqlmode/modes.js';
import { whatBreaks, whatBreaksForClasses, type UpgradeTarget } from '../../core/sqlmode/views.js';
import type { SqlModeApi } from '../../shared/api/sqlmode.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import { offlineSchema, offlineTarget } from '../services/analysis.js';
import { loadSchema } from '../services/schema.js';
import { LoadedSchemas } from '../services/schema-files.js';
import { readSqlModeView } from '../services/sqlmode.js';

interface UpgradeRequest {
  target: { flavor: 'mysql' | 'mariadb' | 'percona'; version: string };
  sqlMode?: string | undefined;
  schemaSql?: string | undefined;
  schemaId?: string | undefined;
  connectionId?: string | undefined;
}

export function createSqlModeHandlers(services: Services): SqlModeApi {
  const { connections } = services;
  /** The target (mode validated for it: unknown names list the valid ones) and the schema to check against. */
  async function prepare(
    request: UpgradeRequest,
  ): Promise<{ target: UpgradeTarget; schema: SchemaModel | undefined }> {
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
    let schema = request.schemaId
      ? (await (services.schemas ??= new LoadedSchemas()).get(request.schemaId)).schema
      : offlineSchema(request.schemaSql, target.flavor);
    if (request.connectionId) {
      const { connection, server } = connections.get(request.connectionId);
      if (server.database) schema = await loadSchema(connection, server, server.database);
    }
    return {
      target: { ...target, ...(request.sqlMode !== undefined ? { sqlMode: request.sqlMode } : {}) },
      schema,
    };
  }

  return {
    async 'sqlmode.view'(request) {
      const { connection } = connections.get(request.connectionId);
      return readSqlModeView(connection);
    },
    async 'sqlmode.upgrade'(request) {
      const { target, schema } = await prepare(request);
      return whatBreaks(request.sql, target, schema);
    },
    async 'sqlmode.upgradeClasses'(request) {
      const { target, schema } = await prepare(request);
      return whatBreaksForClasses(request.classes, target, schema);
    },
  };
}
