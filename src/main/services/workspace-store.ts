// Workspace files on disk: default location per profile, load with clear errors, atomic save that never clobbers an unreadable file.

import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  emptyWorkspace,
  parseWorkspace,
  serializeWorkspace,
  type Workspace,
  type WorkspaceProfile,
} from '../../core/workspace/model.js';
import { AdvisorError } from '../../shared/errors.js';

/** File name suffix of workspace files. */
export const WORKSPACE_EXTENSION = '.sargable.json';

/** Where to put per-profile workspaces. */
export interface WorkspaceLocationOptions {
  /** Electron's `app.getPath('userData')`; when given, workspaces live under it. */
  userDataDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  homedir?: string;
}

/** The directory holding per-profile workspaces: `<userData>/workspaces`, else `$XDG_CONFIG_HOME/sargable/workspaces` (`~/.config` fallback). */
export function workspacesDir(options: WorkspaceLocationOptions = {}): string {
  if (options.userDataDir) return path.join(options.userDataDir, 'workspaces');
  const env = options.env ?? process.env;
  const base = env.XDG_CONFIG_HOME || path.join(options.homedir ?? os.homedir(), '.config');
  return path.join(base, 'sargable', 'workspaces');
}

/** Default file of a profile's workspace; the profile id is reduced to a safe file name. */
export function defaultWorkspacePath(profileId: string, options: WorkspaceLocationOptions = {}): string {
  const safe =
    profileId
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 120) || 'default';
  return path.join(workspacesDir(options), `${safe}${WORKSPACE_EXTENSION}`);
}

/** Result of loading: the workspace and whether it was migrated from an older format (save to upgrade the file). */
export interface LoadedWorkspace {
  workspace: Workspace;
  migratedFrom?: number;
}

/** Load a workspace file. Corrupt or newer files raise INVALID_INPUT / UNSUPPORTED; a missing file NOT_FOUND. */
export async function loadWorkspace(file: string): Promise<LoadedWorkspace> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AdvisorError(
        'NOT_FOUND',
        `Workspace file ${file} does not exist. Check the path, or save a workspace there first.`,
        {},
        { cause: error },
      );
    throw new AdvisorError(
      'INVALID_INPUT',
      `Cannot read workspace file ${file}: ${(error as Error).message}.`,
      {},
      { cause: error },
    );
  }
  const parsed = parseWorkspace(text);
  if (!parsed.ok)
    throw new AdvisorError(
      parsed.problem.kind === 'newer' ? 'UNSUPPORTED' : 'INVALID_INPUT',
      `${file}: ${parsed.problem.message}`,
    );
  return parsed.migratedFrom === undefined
    ? { workspace: parsed.workspace }
    : { workspace: parsed.workspace, migratedFrom: parsed.migratedFrom };
}

/** Load the profile's workspace, or a new empty one when the file does not exist yet. */
export async function loadOrCreateWorkspace(
  file: string,
  profile: WorkspaceProfile,
  now = new Date(),
): Promise<LoadedWorkspace> {
  try {
    return await loadWorkspace(file);
  } catch (error) {
    if (error instanceof AdvisorError && error.code === 'NOT_FOUND')
      return { workspace: emptyWorkspace(profile, now.toISOString()) };
    throw error;
  }
}

/**
 * Save atomically: write a temp file in the same directory, fsync it, rename it over the target,
 * fsync the directory. An existing target that is corrupt or from a newer version is never
 * overwritten (INVALID_INPUT / UNSUPPORTED): the user must move it away first.
 */
export async function saveWorkspace(file: string, workspace: Workspace, now = new Date()): Promise<void> {
  const directory = path.dirname(file);
  // Folders it creates are private (the default one is under the 0700 config dir).
  await fs.mkdir(directory, { recursive: true, mode: 0o700 });
  try {
    const existing = await fs.readFile(file, 'utf8');
    const parsed = parseWorkspace(existing);
    if (!parsed.ok)
      throw new AdvisorError(
        parsed.problem.kind === 'newer' ? 'UNSUPPORTED' : 'INVALID_INPUT',
        `Not saving over ${file}: ${parsed.problem.message} Save the workspace under another name.`,
      );
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temp = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(serializeWorkspace(workspace, now.toISOString()), 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, constants.O_RDONLY);
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw error;
  } finally {
    await handle?.close();
  }
}
