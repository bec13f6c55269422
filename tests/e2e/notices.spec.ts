// e2e (web mode in Chromium): what the services report at start and on connect reaches the user.
//
// A slow-log window journal with an entry of a crashed process (a pid that exited) is put in the
// config dir of a web mode started for this spec. The page shows `app.info`'s notice at start; the
// connect to that server (the MySQL test server) restores the window and its notice shows too. The
// entry's window set only long_query_time to a value no one uses (987.654321), so the restore never
// changes the shared server: the settings are found back already (or left alone if someone else
// changed them), and the notice says so.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { expect, test } from '@playwright/test';
import { mysqlTestUrl } from './helpers/env.js';
import { loginCode } from './helpers/login.js';
import { connectWithForm, formFromUrl } from './helpers/workbench.js';

const port = Number(process.env.SARGABLE_E2E_PORT ?? 5179) + 7;
const base = `http://127.0.0.1:${port}`;
let configHome: string;
let web: ChildProcess | undefined;

test.beforeAll(async () => {
  const url = mysqlTestUrl();
  const probe = await mysql.createConnection({ uri: url.href });
  const [rows] = await probe.query<RowDataPacket[]>(
    "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('slow_query_log', 'long_query_time', 'log_output', 'log_slow_extra')",
  );
  await probe.end();
  const previous = Object.fromEntries(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
  const dead = Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
  );
  configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-e2e-notices-'));
  const dir = path.join(configHome, 'sargable');
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.writeFileSync(
    path.join(dir, 'slowlog-windows.json'),
    JSON.stringify({
      version: 1,
      windows: [
        {
          id: 'e2e-crashed-window',
          host: url.hostname,
          port: Number(url.port || 3306),
          serverIdentity: 'e2e-not-a-real-identity',
          pid: dead,
          startedAt: '2026-01-02T03:04:05.000Z',
          previous,
          during: { ...previous, long_query_time: '987.654321' },
        },
      ],
    }),
    { mode: 0o600 },
  );
  web = spawn(process.execPath, ['dist/web/server.cjs', '--port', String(port)], {
    env: {
      ...process.env,
      XDG_CONFIG_HOME: configHome,
      SARGABLE_WEB_TOKEN: process.env.SARGABLE_WEB_TOKEN ?? 'e2e-token-0123456789abcdef',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${base}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('the web mode for this spec did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(() => {
  web?.kill('SIGTERM');
  fs.rmSync(configHome, { recursive: true, force: true });
});

test('a slow-log window a crash left open: noticed at start, restored on connect, both shown and dismissible', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${base}/?code=${await loginCode(base)}`);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();

  const notices = page.getByTestId('notice');
  await expect(notices).toHaveCount(1);
  await expect(notices.first()).toContainText('was not closed');
  await expect(notices.first()).toContainText('2026-01-02T03:04:05.000Z');

  await connectWithForm(page, formFromUrl(mysqlTestUrl()));
  await expect(notices).toHaveCount(2);
  await expect(notices.nth(1)).toContainText('Sargable stopped during a slow-log window');
  await expect(notices.nth(1)).toContainText(/the settings were already back|left alone/);

  // Dismissed one by one; the journal entry is gone (restored once, never again).
  await notices.first().getByTestId('notice-dismiss').click();
  await expect(notices).toHaveCount(1);
  await expect(notices.first()).toContainText('Sargable stopped during a slow-log window');
  await notices.first().getByTestId('notice-dismiss').click();
  await expect(page.getByTestId('notice-area')).toHaveCount(0);
  const journal = JSON.parse(
    fs.readFileSync(path.join(configHome, 'sargable', 'slowlog-windows.json'), 'utf8'),
  ) as { windows: unknown[] };
  expect(journal.windows).toEqual([]);
  expect(problems).toEqual([]);
});
