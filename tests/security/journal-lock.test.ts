// Attack: two Sargable processes on one config dir (issue #20, our process dying / racing).
//
// The slow-log window journal is read, changed and written by every process that opens or restores
// a window. Without a lock between processes, one process's write drops the other's entry (a window
// a later crash would leave on the server, unrecorded), and two processes restore the same window
// (the second can undo a window the first opened since). The canaries are the journal's entries:
// every recorded window is there, and every unfinished window is claimed by exactly one process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordWindow, type JournalEntry } from '../../src/main/services/slowlog-journal.js';
import { withFileLock } from '../../src/main/services/file-lock.js';

const child = path.join(import.meta.dirname, 'support', 'journal-child.ts');

function start(env: Record<string, string>): { process: ChildProcess; output: Promise<string[]> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = new Promise<string[]>((resolve, reject) => {
    proc.stdout!.on('data', () => {
      const line = stdout.split('\n').find((text) => text.startsWith('['));
      if (line !== undefined) resolve(JSON.parse(line) as string[]);
    });
    proc.on('exit', (code) => reject(new Error(`child exited ${code}: ${stderr}`)));
  });
  return { process: proc, output };
}

async function ready(proc: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer): void => {
      if (chunk.toString().includes('READY')) {
        proc.stdout!.off('data', onData);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
  });
}

/** The pid of a process that has exited (a crashed Sargable). */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(result.stdout.toString());
}

function entries(journal: string): JournalEntry[] {
  return (JSON.parse(fs.readFileSync(journal, 'utf8')) as { windows: JournalEntry[] }).windows;
}

describe('the slow-log journal is locked between processes', () => {
  let dir: string;
  let journal: string;
  let go: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-journal-lock-'));
    journal = path.join(dir, 'slowlog-windows.json');
    go = path.join(dir, 'go');
  });
  afterEach(async () => {
    fs.writeFileSync(`${go}.exit`, '');
    await new Promise((resolve) => setTimeout(resolve, 100));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('two processes recording windows at once lose none', async () => {
    const env = {
      SARGABLE_CHILD_JOURNAL: journal,
      SARGABLE_CHILD_MODE: 'record',
      SARGABLE_CHILD_COUNT: '150',
      SARGABLE_CHILD_GO: go,
    };
    const a = start(env);
    const b = start(env);
    await Promise.all([ready(a.process), ready(b.process)]);
    fs.writeFileSync(go, '');
    const ids = (await Promise.all([a.output, b.output])).flat();
    expect(ids).toHaveLength(300);
    const recorded = new Set(entries(journal).map((entry) => entry.id));
    expect(ids.filter((id) => !recorded.has(id))).toEqual([]);
    expect(recorded.size).toBe(300);
    expect(fs.existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);

  it('two processes restoring at once claim each unfinished window exactly once', async () => {
    const dead = deadPid();
    for (let index = 0; index < 150; index += 1) {
      recordWindow(journal, {
        host: 'db.example',
        port: index,
        serverIdentity: `db:${index}`,
        previous: { slow_query_log: 'OFF', long_query_time: '10', log_output: 'FILE' },
        during: { slow_query_log: 'ON', long_query_time: '0', log_output: 'FILE' },
      });
    }
    // As if the process that recorded them had crashed.
    const file = JSON.parse(fs.readFileSync(journal, 'utf8')) as { windows: JournalEntry[] };
    fs.writeFileSync(
      journal,
      JSON.stringify({ ...file, windows: file.windows.map((entry) => ({ ...entry, pid: dead })) }),
    );
    const env = {
      SARGABLE_CHILD_JOURNAL: journal,
      SARGABLE_CHILD_MODE: 'claim',
      SARGABLE_CHILD_COUNT: '150',
      SARGABLE_CHILD_GO: go,
    };
    const a = start(env);
    const b = start(env);
    await Promise.all([ready(a.process), ready(b.process)]);
    fs.writeFileSync(go, '');
    const [claimedA, claimedB] = await Promise.all([a.output, b.output]);
    const all = [...claimedA!, ...claimedB!];
    expect(new Set(all).size).toBe(all.length); // nothing claimed twice
    expect(all).toHaveLength(150);
    // Every entry now belongs to one of the two claimers, none to the crashed process.
    const owners = new Set(entries(journal).map((entry) => entry.pid));
    expect(owners.has(dead)).toBe(false);
    expect([...owners].every((pid) => pid === a.process.pid || pid === b.process.pid)).toBe(true);
  }, 60_000);

  it('a live holder makes the other process wait; a dead holder’s lock is broken', async () => {
    // Held by this (live) process: the child waits until it is released.
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: process.pid, acquiredAt: 'test' }));
    const waiting = start({
      SARGABLE_CHILD_JOURNAL: journal,
      SARGABLE_CHILD_MODE: 'record',
      SARGABLE_CHILD_COUNT: '1',
      SARGABLE_CHILD_GO: go,
    });
    await ready(waiting.process);
    fs.writeFileSync(go, '');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(fs.existsSync(journal)).toBe(false);
    fs.rmSync(`${journal}.lock`);
    const [id] = await waiting.output;
    expect(entries(journal).map((entry) => entry.id)).toEqual([id]);

    // Left by a process that died while holding it: broken at once.
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: deadPid(), acquiredAt: 'test' }));
    const started = Date.now();
    // Without breaking it, the lock is waited for until the 20 s limit and then refused.
    expect(withFileLock(journal, () => 'held', 20_000)).toBe('held');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fs.existsSync(`${journal}.lock`)).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.stale-'))).toEqual([]);
  }, 60_000);

  it('a lock held too long by a live process fails with a message naming the lock file', () => {
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: process.pid, acquiredAt: 'test' }));
    expect(() => withFileLock(journal, () => 'never', 300)).toThrow(
      /slowlog-windows\.json\.lock is held by process/,
    );
    expect(fs.existsSync(`${journal}.lock`)).toBe(true);
  });
});
