// The slow-log window journal: what a window changed on which server, so a crash never leaves it on.
/*
 * Design note.
 * - Before the first SET GLOBAL of a slow-log window, withSlowLogWindow records the server, the
 *   previous values and the values the window sets in `slowlog-windows.json` in the config dir
 *   (directory 0700, file 0600, written to a temp file and renamed). After the restore succeeded the
 *   entry is removed. An entry left behind means the process holding the window died (kill -9,
 *   power loss, a crash) before it restored the settings.
 * - On the next start, {@link unfinishedWindows} lists such entries (their process is gone) so the
 *   app can say so; on the next connect to that server, {@link restoreUnfinishedWindows} restores
 *   each variable that still has the value the window set, leaves alone one somebody changed since
 *   (and says so), removes the entry and returns what it did as notices for the user.
 * - Two Sargable processes share the journal: every read-modify-write holds its exclusive lock
 *   (file-lock.ts: `slowlog-windows.json.lock`, O_EXCL, pid inside, stale pid detection), so no entry
 *   is lost. Restoring first *claims* the unfinished entries under the lock (their pid becomes ours),
 *   so only one process restores a window, and a window another process opened since is never
 *   mistaken for it; a claim whose restore failed is handed back (the dead pid again).
 * - Residual risk (docs/security.md): if the server is never connected to again by Sargable, or the
 *   journal is deleted, or the user lacks the privilege to restore, the settings stay until someone
 *   runs the restore statements the notice shows. A window open in another live Sargable process is
 *   never touched.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { SlowLogSettings } from '../../core/capture/index.js';
import { processAlive, withFileLock } from './file-lock.js';

/** One open (or unfinished) window. */
export interface JournalEntry {
  id: string;
  /** Where Sargable connected (host and port of the target). */
  host: string;
  port: number;
  /** `@@hostname:@@port` as the server reported it, to recognise the same server behind the address. */
  serverIdentity: string;
  /** The process that holds the window. */
  pid: number;
  startedAt: string;
  previous: SlowLogSettings;
  during: SlowLogSettings;
}

interface JournalFile {
  version: 1;
  windows: JournalEntry[];
}

/** The journal's file name in the config dir. */
export const JOURNAL_FILE = 'slowlog-windows.json';

function read(file: string): JournalFile {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile;
    return parsed && Array.isArray(parsed.windows) ? parsed : { version: 1, windows: [] };
  } catch {
    return { version: 1, windows: [] };
  }
}

function write(file: string, journal: JournalFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

/** The server's own identity (survives tunnels and aliases of the address). */
export async function serverIdentity(connection: Connection): Promise<string> {
  const [rows] = await connection.query<RowDataPacket[]>('SELECT @@hostname AS host, @@port AS port');
  return `${String(rows[0]?.host ?? '')}:${String(rows[0]?.port ?? '')}`;
}

/** Record a window before it changes anything; returns its id. */
export function recordWindow(file: string, entry: Omit<JournalEntry, 'id' | 'pid' | 'startedAt'>): string {
  const id = randomUUID();
  withFileLock(file, () => {
    const journal = read(file);
    journal.windows.push({ ...entry, id, pid: process.pid, startedAt: new Date().toISOString() });
    write(file, journal);
  });
  return id;
}

/** Remove a window after its settings were restored. */
export function clearWindow(file: string, id: string): void {
  withFileLock(file, () => {
    const journal = read(file);
    const windows = journal.windows.filter((entry) => entry.id !== id);
    if (windows.length !== journal.windows.length) write(file, { ...journal, windows });
  });
}

/**
 * Take over the unfinished windows that `mine` selects: under the journal's lock their pid becomes
 * this process's, so no other process restores them (or mistakes a newer window for them). Returns
 * the entries as they were (with the dead pid, to hand a claim back with {@link releaseClaim}).
 */
export function claimUnfinishedWindows(file: string, mine: (entry: JournalEntry) => boolean): JournalEntry[] {
  if (!fs.existsSync(file)) return [];
  return withFileLock(file, () => {
    const journal = read(file);
    const claimed = journal.windows.filter((entry) => !processAlive(entry.pid) && mine(entry));
    if (claimed.length === 0) return [];
    const ids = new Set(claimed.map((entry) => entry.id));
    write(file, {
      ...journal,
      windows: journal.windows.map((entry) => (ids.has(entry.id) ? { ...entry, pid: process.pid } : entry)),
    });
    return claimed;
  });
}

/** Hand a claimed window back (its restore failed): it is unfinished again for the next connect. */
export function releaseClaim(file: string, entry: JournalEntry): void {
  withFileLock(file, () => {
    const journal = read(file);
    write(file, {
      ...journal,
      windows: journal.windows.map((other) =>
        other.id === entry.id && other.pid === process.pid ? { ...other, pid: entry.pid } : other,
      ),
    });
  });
}

/** Windows whose process is gone: they were never restored. */
export function unfinishedWindows(file: string): JournalEntry[] {
  return read(file).windows.filter((entry) => !processAlive(entry.pid));
}

/** What Sargable tells the user about unfinished windows at start. */
export function unfinishedWindowNotices(file: string): string[] {
  return unfinishedWindows(file).map(
    (entry) =>
      `A slow-log window on ${entry.host}:${entry.port} (started ${entry.startedAt}) was not closed: Sargable stopped before it could restore the settings. Connect to that server to restore them (${restoreStatements(entry).join('; ')}).`,
  );
}

const ORDER: (keyof SlowLogSettings)[] = [
  'slow_query_log',
  'log_slow_extra',
  'long_query_time',
  'log_output',
];

function same(name: keyof SlowLogSettings, a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (name === 'long_query_time') return Number(a) === Number(b);
  const norm = (value: string): string =>
    value
      .toUpperCase()
      .replace(/^(1|TRUE)$/, 'ON')
      .replace(/^(0|FALSE)$/, 'OFF');
  return norm(a) === norm(b);
}

function setStatement(name: keyof SlowLogSettings, value: string): string {
  if (name === 'long_query_time') return `SET GLOBAL long_query_time = ${Number(value)}`;
  if (name === 'log_output') return `SET GLOBAL log_output = '${value.replace(/[^A-Za-z,]/g, '')}'`;
  return `SET GLOBAL ${name} = ${/^(ON|1|TRUE)$/i.test(value) ? 'ON' : 'OFF'}`;
}

/** The statements that put back what a window changed. */
export function restoreStatements(entry: JournalEntry): string[] {
  return ORDER.filter((name) => !same(name, entry.previous[name], entry.during[name])).map((name) =>
    setStatement(name, entry.previous[name] ?? ''),
  );
}

/**
 * On connect: restore the unfinished windows of this server through `connection` (a writable
 * connection), then remove them from the journal. Returns one notice per window for the user.
 */
export async function restoreUnfinishedWindows(
  file: string,
  target: { host: string; port: number },
  connection: Connection,
): Promise<string[]> {
  const identity = await serverIdentity(connection);
  const mine = claimUnfinishedWindows(
    file,
    (entry) =>
      entry.serverIdentity === identity || (entry.host === target.host && entry.port === target.port),
  );
  const notices: string[] = [];
  const done = new Set<string>();
  try {
    for (const entry of mine) {
      notices.push(...(await restoreOne(file, entry, connection)));
      done.add(entry.id);
    }
  } finally {
    for (const entry of mine) if (!done.has(entry.id)) releaseClaim(file, entry);
  }
  return notices;
}

/** Restore one claimed window; the entry is removed when it worked and handed back when not. */
async function restoreOne(file: string, entry: JournalEntry, connection: Connection): Promise<string[]> {
  const notices: string[] = [];
  const [rows] = await connection.query<RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN ('slow_query_log', 'long_query_time', 'log_output', 'log_slow_extra')`,
  );
  const current = new Map(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
  const restored: string[] = [];
  const leftAlone: string[] = [];
  const failed: string[] = [];
  for (const name of ORDER) {
    if (same(name, entry.previous[name], entry.during[name])) continue;
    const now = current.get(name);
    if (same(name, now, entry.previous[name])) continue;
    if (!same(name, now, entry.during[name])) {
      leftAlone.push(`${name} (now ${now ?? 'unknown'}, changed by someone else since)`);
      continue;
    }
    const statement = setStatement(name, entry.previous[name] ?? '');
    try {
      await connection.query(`/* sargable:restore */ ${statement}`);
      restored.push(statement);
    } catch (error) {
      failed.push(`${statement} (${(error as Error).message})`);
    }
  }
  const where = `${entry.host}:${entry.port}`;
  if (failed.length > 0) {
    notices.push(
      `An unfinished slow-log window on ${where} (started ${entry.startedAt}) could not be fully restored: ${failed.join('; ')}. Run these statements as a user with SYSTEM_VARIABLES_ADMIN (MariaDB: SUPER).`,
    );
    releaseClaim(file, entry);
    return notices;
  }
  clearWindow(file, entry.id);
  notices.push(
    `Sargable stopped during a slow-log window on ${where} (started ${entry.startedAt}); ${
      restored.length > 0 ? `restored: ${restored.join('; ')}` : 'the settings were already back'
    }${leftAlone.length > 0 ? `; left alone: ${leftAlone.join(', ')}` : ''}.`,
  );
  return notices;
}
