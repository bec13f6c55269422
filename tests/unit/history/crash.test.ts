// A writer SIGKILLed at random points of its writes never costs the history a window it had stored,
// and the next writer goes on (the dead writer's lock is broken, its temp file removed).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HistoryService } from '../../../src/main/services/history.js';

const writer = path.resolve(import.meta.dirname, '../../support/history-writer.ts');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-history-crash-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until it reported `windows` more stored windows, waits `extraMs`, SIGKILLs it. */
function writeThenKill(file: string, windows: number, extraMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let last = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        last = Number(line);
        if (++seen === windows) setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`writer exited ${code}: ${stderr}`));
    });
  });
}

it('keeps every stored window across SIGKILLs mid-write', async () => {
  const file = path.join(dir, 'history.sqlite');
  let stored = 0;
  for (const extraMs of [0, 7, 19, 33, 51]) {
    const last = await writeThenKill(file, 2, extraMs);
    expect(last).toBeGreaterThan(stored);
    stored = last;
    // The file is a whole database with at least every window the writer reported stored.
    const history = new HistoryService(file);
    const ids = (await history.windows({}, 1_000_000)).map((w) => w.id);
    expect(ids.length).toBeGreaterThanOrEqual(stored);
    expect(Math.max(...ids)).toBeGreaterThanOrEqual(stored);
    history.db.close();
  }
  // A new writer takes over the dead one's lock and cleans its temp file.
  const next = await new HistoryService(file).record(
    {
      source: 'file',
      label: 'after',
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-01T00:00:00.000Z',
      events: 0,
      classes: [],
    },
    { profile: null, server: null, production: false },
  );
  expect(next?.windowId).toBeGreaterThan(stored);
  expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
}, 120_000);
