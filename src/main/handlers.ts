// The service handlers behind every face: one object implementing the whole AdvisorApi.

import type { AdvisorApi, AppInfo } from '../shared/api.js';
import { loadSchema } from './services/schema.js';
import { offlineTarget, runLiveAnalysis, runOfflineAnalysis } from './services/analysis.js';
import type { ConnectionService } from './services/connection.js';
import { mapMysqlError } from './services/mysql-errors.js';
import { createExplainHandlers } from './handlers/explain.js';
import { createUiHandlers } from './handlers/ui.js';
import { createSqlModeHandlers } from './handlers/sqlmode.js';
import { createWorkspaceHandlers } from './handlers/workspace.js';
import { createLocksHandlers } from './handlers/locks.js';
import { createCaptureHandlers } from './handlers/capture.js';
import type { CaptureService } from './services/capture.js';
import { createProfilesHandlers } from './handlers/profiles.js';
import { createSchemaHandlers } from './handlers/schema.js';
import { createDdlHandlers } from './handlers/ddl.js';
import type { ProfileService } from './services/profiles.js';
import { createConnectionStatusHandlers } from './handlers/connection-status.js';
import { WorkspaceSessions } from './services/workspace-sessions.js';
import { FileGrants } from './services/file-grants.js';
import { createFilesHandlers } from './handlers/files.js';

export interface Services {
  connections: ConnectionService;
  app: AppInfo;
  /** Electron's userData dir; workspaces live under it (default: the user's config dir). */
  userDataDir?: string;
  /** Capture snapshots and background jobs (digest files, slow-log windows); created when absent. */
  capture?: CaptureService;
  /** Saved profiles and their secret store; created (without secret storage) when absent. */
  profiles?: ProfileService;
  /** Open workspaces per profile, shared by the workspace and locks areas; created when absent. */
  workspaces?: WorkspaceSessions;
  /** Files the user chose (dialog, upload, --allow-dir); absent = none, every path is refused. */
  files?: FileGrants;
  /** Electron: the native open/save dialog in main (files.choose); absent in web mode. */
  chooseFiles?: (request: ChooseFilesRequest) => Promise<string[]>;
}

/** What files.choose asks the native dialog for. */
export interface ChooseFilesRequest {
  purpose: 'slowlog' | 'workspace-open' | 'workspace-save';
  multiple?: boolean;
}

/** Build the handlers; a missing method is a compile error (AdvisorApi). */
export function createHandlers(services: Services): AdvisorApi {
  const { connections } = services;
  services.files ??= new FileGrants();
  services.workspaces ??= new WorkspaceSessions(
    services.userDataDir ? { userDataDir: services.userDataDir } : {},
  );
  return {
    async 'app.info'() {
      return services.app;
    },
    async 'connection.open'(request) {
      return connections.openConnection(request);
    },
    async 'connection.close'(request) {
      await connections.close(request.connectionId);
    },
    async 'analyze.run'(request) {
      if (request.connectionId) {
        const { connection, server, target } = connections.get(request.connectionId);
        const database = server.database;
        const schema = database
          ? await loadSchema(connection, server, database).catch((error: unknown) => {
              throw mapMysqlError(error, {
                host: target.host,
                port: target.port,
                action: 'Reading the schema',
              });
            })
          : undefined;
        return runLiveAnalysis(connection, request.sql, server, schema ?? { source: 'none', tables: [] }, {
          ...(request.disabledRules ? { disabledRules: request.disabledRules } : {}),
        });
      }
      const target = offlineTarget(request.target?.flavor, request.target?.version);
      return runOfflineAnalysis(
        request.sql,
        target,
        request.target ? 'flags' : 'default',
        request.schemaSql,
        request.disabledRules ? { disabledRules: request.disabledRules } : {},
      );
    },
    ...createExplainHandlers(services),
    ...createUiHandlers(services),
    ...createSqlModeHandlers(services),
    ...createWorkspaceHandlers(services),
    ...createLocksHandlers(services),
    ...createCaptureHandlers(services),
    ...createProfilesHandlers(services),
    ...createConnectionStatusHandlers(services),
    ...createSchemaHandlers(services),
    ...createDdlHandlers(services),
    ...createFilesHandlers(services),
  };
}
