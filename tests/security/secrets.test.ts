// Passwords never need argv, and the config dir is private. Each way to pass a password is used to
// connect to BOTH real test servers through the CLI (sqlmode --format json reads the server); the
// password is the canary: it must never appear in anything the CLI prints.
import { spawn, spawnSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decryptLoginFile, parseOptionFile } from '../../src/cli/credentials.js';
import { runCliCaptured } from '../support/cli.js';

const servers = inject('servers');
const flavors = [
  { flavor: 'mysql', url: new URL(servers.mysql) },
  { flavor: 'mariadb', url: new URL(servers.mariadb) },
] as const;
let dir: string;

/** A .mylogin.cnf as mysql_config_editor writes it: 4 zero bytes, a 20-byte key, one AES-128-ECB record per line. */
function mylogin(lines: string[]): Buffer {
  const stored = randomBytes(20);
  const key = Buffer.alloc(16);
  for (let index = 0; index < 20; index++) key[index % 16]! ^= stored[index]!;
  const parts: Buffer[] = [Buffer.alloc(4), stored];
  for (const line of lines) {
    const cipher = createCipheriv('aes-128-ecb', key, null);
    const encrypted = Buffer.concat([cipher.update(`${line}\n`, 'utf8'), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeInt32LE(encrypted.length);
    parts.push(length, encrypted);
  }
  return Buffer.concat(parts);
}

function serverParts(url: URL) {
  return {
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    host: url.hostname,
    port: Number(url.port),
  };
}

/** The DSN without its password (what a careful user types). */
function bareDsn(url: URL): string {
  const copy = new URL(url.href);
  copy.password = '';
  return copy.href;
}

async function sqlmode(args: string[], env: Record<string, string> = {}, extra: object = {}) {
  const result = await runCliCaptured(['sqlmode', '--format', 'json', ...args], {
    cwd: dir,
    env: { HOME: dir, ...env },
    ...extra,
  });
  return result;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sec-secrets-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(flavors)('password sources against $flavor', ({ flavor, url }) => {
  const { user, password, host, port } = serverParts(url);
  const connected = (stdout: string) => {
    // The server view: what the server itself reported, so the connection really worked.
    const report = JSON.parse(stdout) as { flavor?: string; version?: string };
    expect(report.flavor).toBe(flavor);
    expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
  };
  const noLeak = (result: { stdout: string; stderr: string }) => {
    expect(result.stdout).not.toContain(password);
    expect(result.stderr).not.toContain(password);
  };

  it('--login-path reads an obfuscated ~/.mylogin.cnf (user, password, host, port)', async () => {
    const file = path.join(dir, `.mylogin-${flavor}.cnf`);
    writeFileSync(
      file,
      mylogin([
        '[client]',
        'user = "nobody"',
        `[${flavor}-prod]`,
        `user = "${user}"`,
        `password = "${password}"`,
        `host = "${host}"`,
        `port = ${port}`,
      ]),
      { mode: 0o600 },
    );
    const result = await sqlmode(['--login-path', `${flavor}-prod`], { MYSQL_TEST_LOGIN_FILE: file });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    connected(result.stdout);
    noLeak(result);
    const missing = await sqlmode(['--login-path', 'nope'], { MYSQL_TEST_LOGIN_FILE: file });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no such login path`);
    expect(missing.stderr).toContain(`${flavor}-prod`);
    noLeak(missing);
  });

  it('--password-file: a private file works; one others can read is refused with the fix', async () => {
    const file = path.join(dir, `pw-${flavor}`);
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    const result = await sqlmode(['--dsn', bareDsn(url), '--password-file', file]);
    expect(result.stderr).toBe('');
    connected(result.stdout);
    chmodSync(file, 0o644);
    const refused = await sqlmode(['--dsn', bareDsn(url), '--password-file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('chmod 600');
    noLeak(refused);
  });

  it('--ask-password prompts (no echo) on a terminal and refuses without one', async () => {
    const prompts: string[] = [];
    const result = await sqlmode(
      ['--dsn', bareDsn(url), '--ask-password'],
      {},
      {
        readPassword: async (prompt: string) => {
          prompts.push(prompt);
          return password;
        },
      },
    );
    expect(prompts).toEqual(['Password: ']);
    connected(result.stdout);
    const noTty = await sqlmode(['--dsn', bareDsn(url), '--ask-password']);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--password-file');
  });

  // A real terminal (util-linux `script` gives the CLI a pty): the typed password is not echoed.
  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    '--ask-password on a real terminal reads without echo',
    async () => {
      const command = `${JSON.stringify(process.execPath)} --import tsx src/cli/bin.ts sqlmode --format json --ask-password --dsn ${bareDsn(url)}`;
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: path.resolve('.'),
        env: { ...process.env, SARGABLE_PASSWORD: '', MYSQL_PWD: '' },
      });
      let transcript = '';
      let typed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        transcript += chunk.toString();
        if (!typed && transcript.includes('Password: ')) {
          typed = true;
          child.stdin.write(`${password}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(typed).toBe(true);
      expect(transcript).not.toContain(password);
      connected(transcript.slice(transcript.indexOf('{')).replaceAll('\r', ''));
    },
  );

  it('SARGABLE_PASSWORD and MYSQL_PWD fill the DSN silently; a password in --dsn works but warns', async () => {
    for (const name of ['SARGABLE_PASSWORD', 'MYSQL_PWD']) {
      const result = await sqlmode(['--dsn', bareDsn(url)], { [name]: password });
      expect(result.stderr, name).toBe('');
      connected(result.stdout);
    }
    const inArgv = await sqlmode(['--dsn', url.href]);
    connected(inArgv.stdout);
    expect(inArgv.stderr).toMatch(/^warning: the password in --dsn is visible to every local user/);
    expect(inArgv.stderr.match(/warning/g)).toHaveLength(1);
    noLeak(inArgv);
  });

  it('--password=VALUE does not exist (it would put the password in argv)', async () => {
    const result = await sqlmode(['--dsn', bareDsn(url), `--password=${password}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('visible to every local user');
    noLeak(result);
  });
});

describe('.mylogin.cnf format', () => {
  it('decrypts quoted values with escapes and refuses a damaged file', () => {
    const text = decryptLoginFile(
      mylogin(['[client]', 'user = "a\\"b"', "password = 'p\\\\w d'", 'port = 3307']),
    );
    expect(parseOptionFile(text).get('client')).toEqual({ user: 'a"b', password: 'p\\w d', port: '3307' });
    const damaged = mylogin(['[client]', 'password = "x"']);
    damaged.writeInt32LE(17, 24);
    expect(() => decryptLoginFile(damaged)).toThrow(/not a mysql_config_editor login file/);
    expect(() => decryptLoginFile(Buffer.from('[client]\npassword=x\n'))).toThrow(
      /not a mysql_config_editor/,
    );
  });
});

describe('config dir is private', () => {
  it('~/.config/sargable is 0700 (an old 0755 one is tightened) and its files 0600', async () => {
    const xdg = path.join(dir, 'xdg');
    mkdirSync(path.join(xdg, 'sargable'), { recursive: true, mode: 0o755 });
    chmodSync(path.join(xdg, 'sargable'), 0o755);
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    try {
      const { createServices } = await import('../../src/main/services/index.js');
      const { createHandlers } = await import('../../src/main/handlers/index.js');
      const services = createServices('web');
      const handlers = createHandlers(services);
      await handlers['profiles.save']({
        profile: { name: 'p', host: '127.0.0.1', port: 3306, user: 'u' },
        password: 'canary-password-not-stored',
      });
      await handlers['workspace.setRuleDisabled']({ profileId: 'p', rule: 'FUN001', disabled: true });
      const root = path.join(xdg, 'sargable');
      expect(statSync(root).mode & 0o777).toBe(0o700);
      const walk = (folder: string): string[] =>
        readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory()
            ? [folder + '/' + entry.name, ...walk(path.join(folder, entry.name))]
            : [path.join(folder, entry.name)],
        );
      const entries = walk(root);
      expect(entries.some((entry) => entry.endsWith('profiles.json'))).toBe(true);
      expect(entries.some((entry) => entry.endsWith('.sargable.json'))).toBe(true);
      for (const entry of entries) {
        const mode = statSync(entry).mode;
        expect((mode & 0o777).toString(8), entry).toBe(statSync(entry).isDirectory() ? '700' : '600');
      }
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });
});
