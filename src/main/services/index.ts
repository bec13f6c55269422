// Wires the services used by every face (Electron, web mode, CLI).

import path from 'node:path';
import type { AppInfo } from '../../shared/api.js';
import { CaptureService } from './capture-jobs.js';
import { ConnectionService } from './connection.js';
import { FileGrants } from './file-grants.js';
import { HistoryService } from './history.js';
import { HISTORY_FILE } from './history-db.js';
import { LoadedSchemas, SCHEMA_REFS_FILE } from './schema-files.js';
import type { SqlFileAnalyses } from './sql-file-analysis.js';
import { defaultConfigDir, ProfileService, ProfileStore } from './profiles.js';
import {
  ensurePrivateDir,
  NO_KEYCHAIN_REASON,
  NoSecretStore,
  SafeStorageSecretStore,
  type SafeStorageLike,
} from './secrets.js';
import type { WorkspaceSessions } from './workspace-sessions.js';
import { JOURNAL_FILE, unfinishedWindowNotices } from './slowlog-journal.js';
import { APP_NAME, APP_VERSION } from '../version.js';
import type { WriteRuns } from './write-runs.js';

/** The services the handlers call (built by createServices; tests build their own). */
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
  /** Schema files loaded for offline analysis (schema.loadFile), by id; created when absent. */
  schemas?: LoadedSchemas;
  /** SQL files analysed as a stream (sqlFile.analyze): their kept statements, by id; created when absent. */
  sqlFiles?: SqlFileAnalyses;
  /** Files the user chose (dialog, upload, --allow-dir); absent = none, every path is refused. */
  files?: FileGrants;
  /** Electron: the native open/save dialog in main (files.choose); absent in web mode. */
  chooseFiles?: (request: ChooseFilesRequest) => Promise<string[]>;
  /** Running Apply DDL / what-if runs that Cancel can stop (ddl.cancel); created when absent. */
  writeRuns?: WriteRuns;
  /** The capture history (history.sqlite in the config dir); absent: nothing is recorded. */
  history?: HistoryService;
}

/** What files.choose asks the native dialog for. */
export interface ChooseFilesRequest {
  purpose: 'slowlog' | 'schema' | 'sql' | 'workspace-open' | 'workspace-save';
  multiple?: boolean;
}

/** What the Electron main process can pass in (web mode passes nothing). */
export interface ServiceOptions {
  /** Electron's userData dir; profiles and workspaces live under it. Default: the user's config dir. */
  userDataDir?: string;
  /** Electron's `safeStorage`; without it passwords are never stored and the app asks each time. */
  safeStorage?: SafeStorageLike;
  /** Folders the user named at start (web mode `--allow-dir`): typed paths inside them are allowed. */
  allowDirs?: readonly string[];
  /** Electron: main's native file dialog (files.choose); the only other way a handler gets a file. */
  chooseFiles?: (request: ChooseFilesRequest) => Promise<string[]>;
}

/** Plain constructors, no DI container. */
export function createServices(mode: 'electron' | 'web', options: ServiceOptions = {}): Services {
  const configDir = options.userDataDir ?? defaultConfigDir();
  // Profiles, workspaces, window state: 0700 dir, 0600 files (writeFileAtomic, saveWorkspace).
  ensurePrivateDir(configDir);
  const slowLogJournal = path.join(configDir, JOURNAL_FILE);
  const connections = new ConnectionService({ slowLogJournal });
  const notices = unfinishedWindowNotices(slowLogJournal);
  const secrets = options.safeStorage
    ? new SafeStorageSecretStore(options.safeStorage, path.join(configDir, 'secrets.json'))
    : new NoSecretStore(NO_KEYCHAIN_REASON);
  return {
    connections,
    capture: new CaptureService(),
    history: new HistoryService(path.join(configDir, HISTORY_FILE)),
    schemas: new LoadedSchemas(path.join(configDir, SCHEMA_REFS_FILE)),
    profiles: new ProfileService(
      new ProfileStore(path.join(configDir, 'profiles.json')),
      secrets,
      connections,
    ),
    app: { name: APP_NAME, version: APP_VERSION, mode, ...(notices.length > 0 ? { notices } : {}) },
    files: new FileGrants({ roots: options.allowDirs ?? [] }),
    ...(options.chooseFiles ? { chooseFiles: options.chooseFiles } : {}),
    ...(options.userDataDir ? { userDataDir: options.userDataDir } : {}),
  };
}
