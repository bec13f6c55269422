// `npm start` without an Electron binary: one clear line, then web mode with a one-time login link.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// The login below ends on the page itself (dist/renderer): without it the server answers 404.
beforeAll(() => {
  if (
    !existsSync(path.join(root, 'dist/web/server.cjs')) ||
    !existsSync(path.join(root, 'dist/renderer/index.html'))
  ) {
    spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'ignore' });
  }
}, 300_000);

it('falls back to web mode with one clear line when Electron is missing', async () => {
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--port', '0'], {
    env: {
      ...process.env,
      CI: '1',
      SARGABLE_NO_BUILD: '1',
      ELECTRON_OVERRIDE_DIST_PATH: path.join(root, 'no-such-electron'),
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sargable web mode: (http:\/\/127\.0\.0\.1:\d+\/\?code=\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  try {
    expect(output).toMatch(/^Electron binary not found .*starting web mode instead\.$/m);
    expect((await fetch(url.replace(/\?code=.*/, ''))).status).toBe(401);
    const login = await fetch(url, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(url.replace(/\?code=.*/, ''), { headers: { cookie } })).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
}, 60_000);

it('SIGTERM to `npm start` stops the web server too (npm runs the script under a shell that does not forward it)', async () => {
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
    cwd: root,
    env: {
      ...process.env,
      CI: '1',
      SARGABLE_NO_BUILD: '1',
      ELECTRON_OVERRIDE_DIST_PATH: path.join(root, 'no-such-electron'),
    },
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sargable web mode: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  expect((await fetch(base)).status).toBe(401);
  child.kill('SIGTERM');
  // The server stops answering within a few seconds (before the fix it ran on with no parent).
  const started = Date.now();
  let up = true;
  while (up && Date.now() - started < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    up = await fetch(base).then(
      () => true,
      () => false,
    );
  }
  expect(up).toBe(false);
}, 60_000);
