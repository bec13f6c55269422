// `npm run web` as a process: no secret (token or login code) in any process's argv, the browser is
// opened on a private launch file, and that file's code logs a browser in exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';

const TOKEN = `launch-token-${Math.random().toString(36).slice(2)}-secret`;
let dir: string;
let child: ChildProcess;
let stdout = '';
let port = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sec-launch-'));
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(path.join(dir, 'home'));
  // The browser opener: records the argv it was given (what `ps` would show).
  writeFileSync(
    path.join(bin, 'xdg-open'),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${dir}/opener-argv.txt"\n`,
    { mode: 0o755 },
  );
  await build({
    entryPoints: [path.resolve('src/main/web/main.ts')],
    outfile: path.join(dir, 'web', 'server.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
    define: { __SARGABLE_VERSION__: '"test"' },
    external: ['electron', '*.node'],
  });
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: path.join(dir, 'home'),
    XDG_CONFIG_HOME: path.join(dir, 'home', '.config'),
    TMPDIR: dir,
    SARGABLE_WEB_TOKEN: TOKEN,
  };
  child = spawn(process.execPath, [path.join(dir, 'web', 'server.cjs'), '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitFor('the bridge to print its link', () => /http:\/\/127\.0\.0\.1:(\d+)\//.test(stdout), 30_000);
  port = Number(/http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)![1]);
  await waitFor('the opener to run', () => existsSync(path.join(dir, 'opener-argv.txt')), 15_000);
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Every process's argv on this machine (what any local user can read with `ps`). */
function allArgv(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // gone
    }
  }
  return lines;
}

describe('web mode launch', () => {
  it('puts neither the token nor a login code in any argv; the launch file is private', () => {
    const openerArgv = readFileSync(path.join(dir, 'opener-argv.txt'), 'utf8').trim().split('\n');
    expect(openerArgv).toHaveLength(1);
    const launchFile = openerArgv[0]!;
    expect(launchFile.startsWith(dir)).toBe(true);
    expect(statSync(launchFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(launchFile)).mode & 0o777).toBe(0o700);
    const code = /name="code" value="([^"]+)"/.exec(readFileSync(launchFile, 'utf8'))![1]!;
    const printedCode = /\?code=([A-Za-z0-9_-]+)/.exec(stdout)![1]!;
    expect(code).not.toBe(printedCode);
    const everyArgv = [...allArgv(), ...openerArgv].join('\n');
    for (const secret of [TOKEN, code, printedCode]) expect(everyArgv).not.toContain(secret);
    expect(stdout).not.toContain(TOKEN);
  });

  it("the launch file's code logs the browser in once (as its form POST does)", async () => {
    const launchFile = readFileSync(path.join(dir, 'opener-argv.txt'), 'utf8').trim();
    const code = /name="code" value="([^"]+)"/.exec(readFileSync(launchFile, 'utf8'))![1]!;
    const post = () =>
      fetch(`http://127.0.0.1:${port}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
        body: `code=${code}`,
        redirect: 'manual',
      });
    const first = await post();
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const info = await fetch(`http://127.0.0.1:${port}/rpc/app.info`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: '{}',
    });
    expect(await info.json()).toMatchObject({ ok: true, value: { mode: 'web' } });
    expect((await post()).status).toBe(401);
  });
});
