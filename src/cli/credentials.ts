// Where the CLI gets a server password without putting it in argv (docs/security.md, "Passwords").
/*
 * Safe ways first, in this order of precedence:
 *   --password-file FILE   the first line of FILE (refused if other users can read it)
 *   --ask-password         prompt on the terminal, nothing echoed
 *   --login-path NAME      mysql_config_editor's ~/.mylogin.cnf (user, password, host, port, socket)
 *   SARGABLE_PASSWORD, then MYSQL_PWD in the environment
 * A password inside --dsn (mysql://user:pass@…) still works, but every local user can read it with
 * `ps` and it lands in the shell history, so the CLI warns on stderr.
 */

import { createDecipheriv } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError, type CliIo, type Credentials } from './io.js';

export type { Credentials };

/** What the credential flags resolved to; the commands' --dsn is completed from it. */
/** The credential flags, taken out of a command's argv before the command parses it. */
export interface CredentialFlags {
  passwordFile?: string;
  loginPath?: string;
  askPassword: boolean;
}

/** Splits the credential flags from the rest of a command's argv. */
export function extractCredentialFlags(argv: readonly string[]): { rest: string[]; flags: CredentialFlags } {
  const flags: CredentialFlags = { askPassword: false };
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const value = (name: string): string => {
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
      const next = argv[++index];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`);
      return next;
    };
    if (arg === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (arg === '--password-file' || arg.startsWith('--password-file='))
      flags.passwordFile = value('--password-file');
    else if (arg === '--login-path' || arg.startsWith('--login-path='))
      flags.loginPath = value('--login-path');
    else if (arg === '--ask-password') flags.askPassword = true;
    else if (arg === '--password' || arg.startsWith('--password='))
      throw new UsageError(
        'there is no --password option: a password in argv is visible to every local user (ps). ' +
          'Use --password-file FILE, --ask-password, --login-path NAME or SARGABLE_PASSWORD.',
      );
    else rest.push(arg);
  }
  return { rest, flags };
}

/** Resolve the flags (and the environment) into credentials. Reads files and prompts; never logs a password. */
export async function resolveCredentials(flags: CredentialFlags, io: CliIo): Promise<Credentials> {
  const credentials: Credentials = {};
  if (flags.loginPath !== undefined) Object.assign(credentials, await readLoginPath(flags.loginPath, io));
  if (flags.passwordFile !== undefined) {
    credentials.password = await readPasswordFile(path.resolve(io.cwd, flags.passwordFile));
    credentials.passwordSource = `--password-file ${flags.passwordFile}`;
  } else if (flags.askPassword) {
    if (!io.readPassword)
      throw new UsageError(
        '--ask-password needs a terminal; use --password-file FILE or SARGABLE_PASSWORD instead.',
      );
    credentials.password = await io.readPassword('Password: ');
    credentials.passwordSource = 'the prompt';
  } else if (credentials.password === undefined) {
    if (io.env.SARGABLE_PASSWORD) {
      credentials.password = io.env.SARGABLE_PASSWORD;
      credentials.passwordSource = 'SARGABLE_PASSWORD';
    } else if (io.env.MYSQL_PWD) {
      credentials.password = io.env.MYSQL_PWD;
      credentials.passwordSource = 'MYSQL_PWD';
    }
  }
  return credentials;
}

/** The first line of a password file; refused when group or others may read it (like ssh keys). */
export async function readPasswordFile(file: string): Promise<string> {
  let info;
  try {
    info = await fs.stat(file);
  } catch {
    throw new UsageError(`--password-file ${file}: no such file.`);
  }
  if (!info.isFile()) throw new UsageError(`--password-file ${file}: not a file.`);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0)
    throw new UsageError(
      `--password-file ${file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}): ` +
        `run chmod 600 ${file} first.`,
    );
  if (info.size > 64 * 1024)
    throw new UsageError(`--password-file ${file}: larger than 64 KiB, not a password file.`);
  const text = await fs.readFile(file, 'utf8');
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  if (!line) throw new UsageError(`--password-file ${file}: the first line is empty.`);
  return line;
}

/** Where mysql_config_editor keeps its file: MYSQL_TEST_LOGIN_FILE, else ~/.mylogin.cnf (%APPDATA%\MySQL on Windows). */
export function loginPathFile(io: CliIo): string {
  if (io.env.MYSQL_TEST_LOGIN_FILE) return io.env.MYSQL_TEST_LOGIN_FILE;
  if (process.platform === 'win32' && io.env.APPDATA)
    return path.join(io.env.APPDATA, 'MySQL', '.mylogin.cnf');
  return path.join(io.env.HOME || os.homedir(), '.mylogin.cnf');
}

/** The settings of a login path: `[client]`, then `[NAME]` on top (as the mysql client reads them). */
export async function readLoginPath(name: string, io: CliIo): Promise<Credentials> {
  const file = loginPathFile(io);
  let data: Buffer;
  try {
    data = await fs.readFile(file);
  } catch {
    throw new UsageError(
      `--login-path ${name}: ${file} does not exist. Create it with: mysql_config_editor set --login-path=${name} --host=… --user=… --password`,
    );
  }
  const groups = parseOptionFile(decryptLoginFile(data, file));
  const merged = { ...groups.get('client'), ...groups.get(name) };
  if (name !== 'client' && !groups.has(name))
    throw new UsageError(
      `--login-path ${name}: no such login path in ${file} (it has: ${[...groups.keys()].join(', ') || 'none'}).`,
    );
  const credentials: Credentials = {};
  if (merged.user) credentials.user = merged.user;
  if (merged.password !== undefined) {
    credentials.password = merged.password;
    credentials.passwordSource = `--login-path ${name}`;
  }
  if (merged.host) credentials.host = merged.host;
  if (merged.port && /^\d+$/.test(merged.port)) credentials.port = Number(merged.port);
  if (merged.socket) credentials.socket = merged.socket;
  return credentials;
}

/**
 * The text of a .mylogin.cnf: 4 unused bytes, a 20-byte key folded by XOR into an AES-128 key, then
 * records of a 4-byte little-endian length and that many bytes of AES-128-ECB (PKCS#7) ciphertext,
 * one line of an option file each (MySQL's mysys/my_default.cc, mysql_config_editor).
 */
export function decryptLoginFile(data: Buffer, file = '.mylogin.cnf'): string {
  const broken = () =>
    new UsageError(`${file} is not a mysql_config_editor login file (or it is damaged); recreate it.`);
  if (data.length < 24) throw broken();
  const key = Buffer.alloc(16);
  for (let index = 0; index < 20; index++) key[index % 16]! ^= data[4 + index]!;
  let offset = 24;
  let text = '';
  while (offset + 4 <= data.length) {
    const length = data.readInt32LE(offset);
    offset += 4;
    if (length <= 0 || length % 16 !== 0 || offset + length > data.length) throw broken();
    try {
      const decipher = createDecipheriv('aes-128-ecb', key, null);
      text += Buffer.concat([
        decipher.update(data.subarray(offset, offset + length)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw broken();
    }
    offset += length;
  }
  if (offset !== data.length) throw broken();
  return text;
}

/** `[group]` / `key = value` lines into maps; values may be "double" or 'single' quoted with \ escapes. */
export function parseOptionFile(text: string): Map<string, Record<string, string>> {
  const groups = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const group = /^\[([^\]]+)\]$/.exec(line);
    if (group) {
      const name = group[1]!.trim();
      current = groups.get(name) ?? {};
      groups.set(name, current);
      continue;
    }
    if (!current) continue;
    const match = /^([A-Za-z0-9_-]+)\s*(?:=\s*(.*))?$/.exec(line);
    if (!match) continue;
    current[match[1]!.replace(/-/g, '_')] = unquote(match[2] ?? '');
  }
  return groups;
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
    const inner = value.slice(1, -1);
    return inner.replace(/\\(.)/g, (_all, char: string) =>
      char === 'n'
        ? '\n'
        : char === 't'
          ? '\t'
          : char === 'r'
            ? '\r'
            : char === 'b'
              ? '\b'
              : char === 's'
                ? ' '
                : char,
    );
  }
  return value;
}

/** Once per run: the warning for a password typed into --dsn. */
export const ARGV_PASSWORD_WARNING =
  'warning: the password in --dsn is visible to every local user (ps, /proc) and stays in your shell history; ' +
  'use --password-file FILE, --ask-password, --login-path NAME or SARGABLE_PASSWORD instead.\n';
