// Which files the API may read or write: only those the user chose (docs/security.md, "Files").
/*
 * The renderer never names a file main will open on its say-so. A file reaches a handler as either
 * - a grant (`grant:<random>`): handed out by main after the user chose the file in a native dialog
 *   (Electron, `files.choose`) or uploaded it through the browser's file picker (web mode, POST
 *   /upload): the page cannot forge either, a script cannot open a native dialog or fill a file input;
 * - a path under a folder the user named when starting the app (`npm run web -- --allow-dir DIR`),
 *   checked after resolving symlinks, so `DIR/link -> ~/.ssh/id_ed25519` is refused too.
 * Anything else is FORBIDDEN, with a message that says how to choose the file, and never with any of
 * the file's content.
 */

import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { AdvisorError } from '../../shared/errors.js';

/** What a grant allows. A read grant does not allow writing, and the reverse. */
export type FileAccess = 'read' | 'write';

/** Prefix of grant references in API requests. */
export const GRANT_PREFIX = 'grant:';

export interface ResolvedFile {
  /** Where main opens it. */
  path: string;
  /** What the UI shows (the chosen file's name or path; an upload's original name). */
  name: string;
}

interface Grant extends ResolvedFile {
  access: FileAccess;
}

export interface FileGrantsOptions {
  /** Folders the user named at start; paths inside them (symlinks resolved) need no grant. */
  roots?: readonly string[];
  /** Base for relative paths (default: the process's cwd). */
  cwd?: string;
}

/** Hands out and checks grants; one per app. */
export class FileGrants {
  private readonly grants = new Map<string, Grant>();
  private readonly roots: string[];
  private readonly cwd: string;

  constructor(options: FileGrantsOptions = {}) {
    this.cwd = options.cwd ?? process.cwd();
    this.roots = (options.roots ?? []).map((root) => {
      const absolute = path.resolve(this.cwd, root);
      try {
        return realpathSync(absolute);
      } catch {
        throw new AdvisorError('INVALID_INPUT', `--allow-dir ${root}: no such folder.`);
      }
    });
  }

  /** Folders whose files need no grant. */
  allowedRoots(): readonly string[] {
    return this.roots;
  }

  /** A new grant for a file the user chose (dialog, upload); returns its reference. */
  grant(file: string, access: FileAccess, name = file): string {
    const ref = `${GRANT_PREFIX}${randomBytes(18).toString('base64url')}`;
    this.grants.set(ref, { path: path.resolve(this.cwd, file), name, access });
    return ref;
  }

  /** Forget a grant (its upload was removed). */
  revoke(ref: string): void {
    this.grants.delete(ref);
  }

  /** The file behind a request's reference, or FORBIDDEN. */
  resolve(ref: string, access: FileAccess): ResolvedFile {
    if (ref.startsWith(GRANT_PREFIX)) {
      const grant = this.grants.get(ref);
      if (!grant || grant.access !== access)
        throw new AdvisorError(
          'FORBIDDEN',
          'That file choice is no longer valid (the app was restarted?): choose the file again.',
        );
      return { path: grant.path, name: grant.name };
    }
    const absolute = path.resolve(this.cwd, ref);
    if (this.roots.length > 0 && this.insideRoots(absolute)) return { path: absolute, name: ref };
    throw new AdvisorError(
      'FORBIDDEN',
      `Sargable opens only files you choose: use "Choose file…"${
        this.roots.length > 0
          ? ` or a file under ${this.roots.join(', ')}`
          : ' (web mode: or start it with --allow-dir FOLDER to type paths inside FOLDER)'
      }.`,
    );
  }

  private insideRoots(absolute: string): boolean {
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      // Not there (yet): a file to save, or a missing one that will fail as NOT_FOUND. Its folder
      // must be inside.
      try {
        real = path.join(realpathSync(path.dirname(absolute)), path.basename(absolute));
      } catch {
        return false;
      }
    }
    return this.roots.some((root) => real === root || real.startsWith(root + path.sep));
  }
}
