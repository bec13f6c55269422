// The open workspace of each profile, shared by every API area that writes to it (workspace and export, locks).

import type { Workspace } from '../../core/workspace/model.js';
import {
  defaultWorkspacePath,
  loadOrCreateWorkspace,
  saveWorkspace,
  type WorkspaceLocationOptions,
} from './workspace-store.js';

/** One profile's workspace in memory and the file it is saved to. */
export interface OpenWorkspace {
  path: string;
  workspace: Workspace;
}

/**
 * Open workspaces by profile id. Every handler that changes a workspace goes through the same
 * instance, so two areas never hold diverging copies of one file (the last save would drop the
 * other's change).
 */
export class WorkspaceSessions {
  private readonly open = new Map<string, OpenWorkspace>();

  constructor(private readonly location: WorkspaceLocationOptions = {}) {}

  /** The profile's open workspace: loaded from its default file (or new) on first use. */
  async current(profileId: string): Promise<OpenWorkspace> {
    const known = this.open.get(profileId);
    if (known) return known;
    const path = defaultWorkspacePath(profileId, this.location);
    const { workspace } = await loadOrCreateWorkspace(path, { id: profileId });
    // Another call may have opened it while this one was loading: keep the first.
    const entry = this.open.get(profileId) ?? { path, workspace };
    this.open.set(profileId, entry);
    return entry;
  }

  /** Make `entry` the profile's workspace (a file the user opened). */
  set(profileId: string, entry: OpenWorkspace): void {
    this.open.set(profileId, entry);
  }

  /** Save the entry to its file (atomically; see saveWorkspace). */
  async persist(entry: OpenWorkspace): Promise<void> {
    await saveWorkspace(entry.path, entry.workspace);
  }
}
