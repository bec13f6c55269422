// Crash during a slow-log window (issue #20 item 6): SIGKILL the process holding the window, then
// the next start says so and the next connect restores the globals. Canary: the server's globals.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { createServices } from '../../src/main/services/index.js';
import { JOURNAL_FILE, unfinishedWindows } from '../../src/main/services/slowlog-journal.js';
import { connect } from '../support/db.js';
import { startServer, type TestServer } from '../support/servers.js';

const child = fileURLToPath(new URL('./support/slowlog-window-child.ts', import.meta.url));

describe.each(['mysql', 'mariadb'] as const)('slow-log window survives a crash: %s', (flavor) => {
  let server: TestServer;
  let configDir: string;

  beforeAll(async () => {
    server = await startServer(flavor);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-sec-journal-'));
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  async function globals(): Promise<Record<string, string>> {
    const db = await connect(server.url);
    try {
      const [rows] = await db.query<RowDataPacket[]>(
        "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('slow_query_log', 'long_query_time', 'log_output')",
      );
      return Object.fromEntries(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
    } finally {
      await db.end();
    }
  }

  it('journals the previous values 0600, and restores them on the next connect after SIGKILL', async () => {
    const before = await globals();
    expect(before.slow_query_log).toBe('OFF');
    const stateDir = path.join(configDir, 'sargable');
    const journal = path.join(stateDir, JOURNAL_FILE);
    const holder = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, SARGABLE_CHILD_URL: server.url, SARGABLE_CHILD_JOURNAL: journal },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    holder.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the window did not open: ${stderr}`)), 60_000);
        holder.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('WINDOW OPEN')) {
            clearTimeout(timer);
            resolve();
          }
        });
        holder.on('exit', (code) => reject(new Error(`the child exited (${code}): ${stderr}`)));
      });
      const during = await globals();
      expect(during.slow_query_log).toBe('ON');
      expect(Number(during.long_query_time)).toBe(0);
      expect(fs.statSync(journal).mode & 0o777).toBe(0o600);
      expect(fs.statSync(stateDir).mode & 0o777).toBe(0o700);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) =>
        holder.exitCode === null ? holder.once('exit', resolve) : resolve(null),
      );
    }
    // The crash left the server changed: this is what the journal is for.
    expect((await globals()).slow_query_log).toBe('ON');
    expect(unfinishedWindows(journal)).toHaveLength(1);

    // Next start: the app says a window was left open.
    const services = createServices('web', { userDataDir: stateDir });
    const handlers = createHandlers(services);
    const info = await handlers['app.info']();
    expect(info.notices?.join('\n')).toMatch(/slow-log window .* was not closed/);

    // Next connect to that server: restored, and the user is told.
    const opened = await handlers['connection.open']({
      host: '127.0.0.1',
      port: server.port,
      user: server.user,
      password: server.password,
    });
    try {
      expect(opened.notices?.join('\n')).toMatch(/restored: SET GLOBAL slow_query_log = OFF/);
      const after = await globals();
      expect(after.slow_query_log).toBe(before.slow_query_log);
      expect(Number(after.long_query_time)).toBe(Number(before.long_query_time));
      expect(after.log_output).toBe(before.log_output);
      expect(unfinishedWindows(journal)).toEqual([]);
    } finally {
      await services.connections.closeAll();
    }
  });

  it('leaves alone a variable someone changed after the crash, and says so', async () => {
    const stateDir = path.join(configDir, 'second');
    const journal = path.join(stateDir, JOURNAL_FILE);
    const holder = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, SARGABLE_CHILD_URL: server.url, SARGABLE_CHILD_JOURNAL: journal },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve) =>
      holder.stdout.on('data', (c: Buffer) => c.includes('WINDOW OPEN') && resolve()),
    );
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const db = await connect(server.url);
    await db.query('SET GLOBAL long_query_time = 3');
    await db.end();
    const services = createServices('web', { userDataDir: stateDir });
    const opened = await createHandlers(services)['connection.open']({
      host: '127.0.0.1',
      port: server.port,
      user: server.user,
      password: server.password,
    });
    await services.connections.closeAll();
    expect(opened.notices?.join('\n')).toMatch(/left alone: long_query_time/);
    const after = await globals();
    expect(after.slow_query_log).toBe('OFF');
    expect(Number(after.long_query_time)).toBe(3);
  });
});
