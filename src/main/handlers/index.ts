// The service handlers behind every face: one object implementing the whole AdvisorApi, put together from
// one module per area (each implements its slice of the contract in src/shared/api/). A pure aggregator:
// the handlers live in their area's module, the services they call in ../services/.

import type { AdvisorApi } from '../../shared/api.js';
import { FileGrants } from '../services/file-grants.js';
import type { Services } from '../services/index.js';
import { WorkspaceSessions } from '../services/workspace-sessions.js';
import { WriteRuns } from '../services/write-runs.js';
import { createBaseHandlers } from './base.js';
import { createCaptureHandlers } from './capture.js';
import { createConnectionStatusHandlers } from './connection-status.js';
import { createDdlHandlers } from './ddl.js';
import { createExplainHandlers } from './explain.js';
import { createFilesHandlers } from './files.js';
import { createHistoryHandlers } from './history.js';
import { createIndexesHandlers } from './indexes.js';
import { createLocksHandlers } from './locks.js';
import { createProfilesHandlers } from './profiles.js';
import { createQueryHandlers } from './query.js';
import { createSchemaHandlers } from './schema.js';
import { createSqlFileHandlers } from './sql-file.js';
import { createSqlModeHandlers } from './sqlmode.js';
import { createUiHandlers } from './ui.js';
import { createWorkspaceHandlers } from './workspace.js';

export type { ChooseFilesRequest, Services } from '../services/index.js';

/** Build the handlers; a missing method is a compile error (AdvisorApi). */
export function createHandlers(services: Services): AdvisorApi {
  services.files ??= new FileGrants();
  // Open workspaces are shared by the workspace and locks areas.
  services.workspaces ??= new WorkspaceSessions(
    services.userDataDir ? { userDataDir: services.userDataDir } : {},
  );
  // Apply DDL and what-if runs, cancelled through ddl.cancel.
  services.writeRuns ??= new WriteRuns();
  return {
    ...createBaseHandlers(services),
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
    ...createIndexesHandlers(services),
    ...createQueryHandlers(services),
    ...createHistoryHandlers(services),
    ...createSqlFileHandlers(services),
  };
}
