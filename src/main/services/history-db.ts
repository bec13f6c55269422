// The history's SQLite file (sql.js, SQLite compiled to WebAssembly): open, schema, and the atomic whole-file write.
/*
 * Design note
 * -----------
 * - sql.js keeps the database in memory and exports it whole, so a write is: take the file lock
 *   (`<file>.lock`, file-lock.ts), read the file fresh (another Sargable, the CLI, may have
 *   written since), change it, export, write a 0600 temp file in the same 0700 directory, fsync,
 *   rename over the old file, fsync the directory. A crash leaves the old file or the new one,
 *   never half of one; the old file is never touched before the new one is complete.
 * - Reads reuse the last loaded database while the file's identity (inode, size, mtime) is
 *   unchanged.
 * - `secure_delete` zeroes deleted rows' bytes, and a write that deleted anything VACUUMs, so a
 *   cleared sample is gone from the file's bytes.
 * - The WebAssembly is the inline build (base64 inside the JS), so the bundles (esbuild) need no
 *   side file and the packaged app no path to find one. No native module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js/dist/sql-wasm-inline.js';
import { AdvisorError } from '../../shared/errors.js';
import { withFileLock } from './file-lock.js';
import { ensurePrivateDir } from './secrets.js';

/** The history file's name in the config directory. */
export const HISTORY_FILE = 'history.sqlite';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS windows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL,
  label TEXT NOT NULL,
  profile TEXT,
  server TEXT,
  production INTEGER NOT NULL,
  start_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  events INTEGER NOT NULL,
  class_count INTEGER NOT NULL,
  omitted INTEGER NOT NULL,
  samples TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS windows_scope ON windows (profile, source, end_at);
CREATE TABLE IF NOT EXISTS classes (
  id INTEGER PRIMARY KEY,
  class_key TEXT NOT NULL UNIQUE,
  checksum TEXT,
  digest TEXT,
  fingerprint TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stats (
  window_id INTEGER NOT NULL,
  class_ref INTEGER NOT NULL,
  count INTEGER NOT NULL,
  total_s REAL NOT NULL,
  p95_s REAL,
  max_s REAL,
  lifetime INTEGER NOT NULL,
  rows_examined REAL,
  rows_sent REAL,
  lock_s REAL,
  first_seen TEXT,
  last_seen TEXT,
  schemas TEXT NOT NULL,
  sample TEXT,
  PRIMARY KEY (class_ref, window_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS stats_window ON stats (window_id, total_s);
`;

let engine: Promise<SqlJsStatic> | undefined;

/** The sql.js module (compiled once per process). */
export function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= initSqlJs();
  return engine;
}

function fileIdentity(file: string): string | null {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Write `bytes` to `file` atomically: 0600 temp file beside it, fsync, rename, fsync the directory. */
export function writeBytesAtomicSync(file: string, bytes: Uint8Array): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  if (process.platform !== 'win32') {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  }
}

/** The history database file: fresh reads for writes, cached reads otherwise. */
export class HistoryDb {
  private cached: { identity: string | null; db: Database } | undefined;

  constructor(readonly file: string) {}

  private open(SQL: SqlJsStatic): { identity: string | null; db: Database } {
    const identity = fileIdentity(this.file);
    let db: Database;
    try {
      db = identity === null ? new SQL.Database() : new SQL.Database(fs.readFileSync(this.file));
      const version = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
      if (version > SCHEMA_VERSION) {
        db.close();
        throw new AdvisorError(
          'UNSUPPORTED',
          `The capture history ${this.file} was written by a newer Sargable (schema ${version}); this version reads schema ${SCHEMA_VERSION}.`,
          { hint: 'Use the newer Sargable, or move the file away to start a new history.' },
        );
      }
      db.exec('PRAGMA secure_delete = ON;');
      db.exec(SCHEMA);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION};`);
    } catch (error) {
      if (error instanceof AdvisorError) throw error;
      throw new AdvisorError(
        'INVALID_INPUT',
        `The capture history ${this.file} cannot be read: ${error instanceof Error ? error.message : String(error)}.`,
        { hint: 'Move the file away (Sargable then starts a new history), or restore it from a backup.' },
        { cause: error },
      );
    }
    return { identity, db };
  }

  /** Run `read` on the current database (reloaded when the file changed). */
  async read<T>(read: (db: Database) => T): Promise<T> {
    const SQL = await sqlEngine();
    const identity = fileIdentity(this.file);
    if (!this.cached || this.cached.identity !== identity) {
      this.cached?.db.close();
      this.cached = undefined;
      this.cached = this.open(SQL);
    }
    return read(this.cached.db);
  }

  /**
   * Run `change` on the file's current content under the file lock and write the result
   * atomically. `change` returns its result and whether it deleted rows (then the file is
   * VACUUMed). Nothing is written when `change` throws.
   */
  async write<T>(change: (db: Database) => { result: T; deleted: boolean }): Promise<T> {
    const SQL = await sqlEngine();
    ensurePrivateDir(path.dirname(this.file));
    return withFileLock(this.file, () => {
      this.removeStaleTemps();
      const { db } = this.open(SQL);
      try {
        db.exec('BEGIN');
        let outcome: { result: T; deleted: boolean };
        try {
          outcome = change(db);
          db.exec('COMMIT');
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
        if (outcome.deleted) db.exec('VACUUM');
        writeBytesAtomicSync(this.file, db.export());
        this.cached?.db.close();
        this.cached = { identity: fileIdentity(this.file), db };
        return outcome.result;
      } catch (error) {
        db.close();
        throw error;
      }
    });
  }

  /**
   * Temp files a writer killed mid-write left beside the file. Only the lock holder writes a temp
   * file, so under the lock every one of them is stale.
   */
  private removeStaleTemps(): void {
    const dir = path.dirname(this.file);
    const prefix = `.${path.basename(this.file)}.`;
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
    }
  }

  /** Close the cached database (tests, shutdown). */
  close(): void {
    this.cached?.db.close();
    this.cached = undefined;
  }
}
