// Handlers for the workspace and export area (see src/shared/api/workspace.ts).

import { exportWorkspace, type ForeignKeyRef, type TableStats } from '../../core/export/index.js';
import { readForeignKeys } from '../services/index-usage.js';
import {
  acceptItem,
  acceptedItems,
  dismissItem,
  fromAnalysis,
  setRuleDisabled,
  setRuleEnabled,
  keepVerification,
  sourceQuery,
  type Workspace,
} from '../../core/workspace/index.js';
import type { WorkspaceApi, WorkspaceReply } from '../../shared/api/workspace.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import { loadSchema } from '../services/schema.js';
import { readDdlEnvironment, readTableStats } from '../services/environment.js';
import { loadWorkspace, saveWorkspace } from '../services/workspace-store.js';
import { WorkspaceSessions } from '../services/workspace-sessions.js';
import { FileGrants } from '../services/file-grants.js';

export function createWorkspaceHandlers(services: Services): WorkspaceApi {
  const { connections } = services;
  /** Open workspaces by profile, shared with the other areas that write to them (locks). */
  const sessions =
    services.workspaces ??
    new WorkspaceSessions(services.userDataDir ? { userDataDir: services.userDataDir } : {});
  const current = (profileId: string) => sessions.current(profileId);
  /** Only files the user chose (dialog grant, or under --allow-dir): FORBIDDEN otherwise. */
  const files = services.files ?? new FileGrants();

  async function persist(entry: { path: string; workspace: Workspace }): Promise<WorkspaceReply> {
    await sessions.persist(entry);
    return { workspace: entry.workspace, path: entry.path };
  }

  const now = () => new Date().toISOString();

  return {
    async 'workspace.get'({ profileId = 'offline' }) {
      const entry = await current(profileId);
      return { workspace: entry.workspace, path: entry.path };
    },
    async 'workspace.addFromAnalysis'({ profileId = 'offline', report, pick }) {
      const entry = await current(profileId);
      const { added } = fromAnalysis(entry.workspace, report, now(), pick ?? 'index-first');
      return { ...(await persist(entry)), added };
    },
    async 'workspace.accept'({ profileId = 'offline', itemId }) {
      const entry = await current(profileId);
      if (!acceptItem(entry.workspace, itemId, now()))
        throw new AdvisorError('NOT_FOUND', `No workspace item ${itemId}.`);
      return persist(entry);
    },
    async 'workspace.dismiss'({ profileId = 'offline', itemId, reason = '' }) {
      const entry = await current(profileId);
      if (!dismissItem(entry.workspace, itemId, reason, now()))
        throw new AdvisorError('NOT_FOUND', `No workspace item ${itemId}.`);
      return persist(entry);
    },
    async 'workspace.recordVerification'({ profileId = 'offline', table, sql, suggestion, record }) {
      const entry = await current(profileId);
      const item = keepVerification(
        entry.workspace,
        table,
        suggestion,
        [sourceQuery(sql, 'analysis')],
        record,
      );
      return { ...(await persist(entry)), item };
    },
    async 'workspace.saveAs'({ profileId = 'offline', path: ref }) {
      const file = files.resolve(ref, 'write');
      const entry = await current(profileId);
      await saveWorkspace(file.path, entry.workspace);
      return { workspace: entry.workspace, path: file.name };
    },
    async 'workspace.setRuleDisabled'({ profileId = 'offline', rule, disabled }) {
      const entry = await current(profileId);
      if (!setRuleDisabled(entry.workspace, rule, disabled, now()))
        return { workspace: entry.workspace, path: entry.path };
      return persist(entry);
    },
    async 'workspace.setRuleEnabled'({ profileId = 'offline', rule, enabled }) {
      const entry = await current(profileId);
      if (!setRuleEnabled(entry.workspace, rule, enabled, now()))
        return { workspace: entry.workspace, path: entry.path };
      return persist(entry);
    },
    async 'workspace.open'({ profileId = 'offline', path: ref }) {
      // Opened for reading and, as the profile's workspace from now on, for saving.
      const file = files.resolve(ref, 'read');
      const { workspace } = await loadWorkspace(file.path);
      const entry = { path: file.path, workspace };
      sessions.set(profileId, entry);
      return { workspace, path: file.name };
    },
    async 'export.preview'({ profileId = 'offline', connectionId, ...options }) {
      const entry = await current(profileId);
      let schema = null;
      let database: string | null = null;
      let variables: Record<string, string | null> | undefined;
      let tableStats: Record<string, TableStats> | undefined;
      let foreignKeys: ForeignKeyRef[] | null = null;
      if (connectionId) {
        const { connection, server } = connections.get(connectionId);
        database = server.database;
        if (server.database) schema = await loadSchema(connection, server, server.database);
        // An accepted index drop is exported only when no FOREIGN KEY needs the index (core/export/drops.ts).
        if (server.database) foreignKeys = await readForeignKeys(connection, server.database);
        // Cluster variables and table sizes decide the risk warnings (Group Replication, Galera, large tables).
        variables = await readDdlEnvironment(connection);
        const tables = [...new Set(acceptedItems(entry.workspace).map((item) => item.table))];
        if (server.database) tableStats = await readTableStats(connection, server.database, tables);
      }
      return exportWorkspace(entry.workspace, {
        ...options,
        schema,
        foreignKeys,
        database,
        ...(variables ? { variables } : {}),
        ...(tableStats ? { tableStats } : {}),
        generatedAt: now(),
        sargableVersion: services.app.version,
      });
    },
  };
}
