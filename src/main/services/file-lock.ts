// An exclusive lock between Sargable processes on one file (the slow-log window journal), pure JS.
/*
 * Design note.
 * - The lock is a file beside the locked one (`<file>.lock`), created with O_CREAT|O_EXCL (`wx`), mode
 *   0600, holding `{ pid, acquiredAt }`. Creation is atomic on local file systems, so exactly one
 *   process holds it. It is held only for a read-modify-write of the locked file (milliseconds), so
 *   waiting is a short synchronous sleep (Atomics.wait) with retries, up to `timeoutMs`.
 * - Stale locks: a lock whose pid is not alive (kill -9 while holding it) is broken. Breaking renames
 *   the lock file to a unique name first (atomic, only one breaker wins), then checks the renamed file
 *   is the stale one it saw; if it took a fresh lock by mistake (another process broke and re-created
 *   it in between), it links it back (link never overwrites). A lock file that cannot be read (a
 *   crash between create and write) is stale once it is older than {@link UNREADABLE_STALE_MS}.
 * - Residual risk: a pid reused by an unrelated process keeps a stale lock alive until the timeout,
 *   which then fails with a message naming the lock file to remove. Network file systems without
 *   atomic O_EXCL are not supported for the config dir.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Default time to wait for another process's lock. */
export const LOCK_TIMEOUT_MS = 5_000;
/** A lock file without a readable owner is stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
const RETRY_MS = 15;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Whether a process with this pid exists (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockOwner {
  pid: number;
  acquiredAt: string;
}

function readOwner(lock: string): LockOwner | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(lock, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, acquiredAt: String(parsed.acquiredAt) } : null;
  } catch {
    return null;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Remove a stale lock whose owner was `stalePid` (null: unreadable), unless another process replaced it. */
function breakStale(lock: string, stalePid: number | null): void {
  const aside = `${lock}.stale-${process.pid}-${randomUUID()}`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // Somebody else broke or released it first.
  }
  const owner = readOwner(aside);
  if ((owner?.pid ?? null) !== stalePid && owner && processAlive(owner.pid)) {
    // We took a live lock that replaced the stale one in between: put it back (link never overwrites).
    try {
      fs.linkSync(aside, lock);
    } catch {
      // A third process holds a new lock now; the one we moved belonged to a process that still
      // believes it holds it. Extremely unlikely (three processes within microseconds); see the note.
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Run `fn` while holding the exclusive lock of `file` (`<file>.lock`). Throws an Error that names the
 * lock file and its owner when another live process holds it for longer than `timeoutMs`.
 */
export function withFileLock<T>(file: string, fn: () => T, timeoutMs = LOCK_TIMEOUT_MS): T {
  const lock = `${file}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + timeoutMs;
  const me: LockOwner = { pid: process.pid, acquiredAt: new Date().toISOString() };
  for (;;) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      break;
    }
    const owner = readOwner(lock);
    if (owner ? !processAlive(owner.pid) : ageMs(lock) > UNREADABLE_STALE_MS) {
      breakStale(lock, owner?.pid ?? null);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `${lock} is held by process ${owner?.pid ?? 'unknown'} (another Sargable) for more than ${timeoutMs / 1000} s. If no Sargable is running, remove that file.`,
      );
    }
    sleepSync(RETRY_MS);
  }
  try {
    return fn();
  } finally {
    // Release only our own lock (never one a breaker replaced ours with).
    if (readOwner(lock)?.pid === me.pid) fs.rmSync(lock, { force: true });
  }
}
