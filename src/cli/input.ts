// Shared CLI input helpers: reading FILE or standard input, and filling a DSN's password from the environment.

import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AdvisorError } from '../shared/errors.js';
import type { CliIo } from './io.js';
import { ARGV_PASSWORD_WARNING } from './credentials.js';
import type { SchemaSource } from '../core/schema/ddl-load.js';

/** Read FILE, or standard input for `-` or no FILE. */
export async function readInput(file: string | undefined, io: CliIo, what = 'SQL file'): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  return readText(file, io, what);
}

/**
 * Largest SQL or schema file read whole (docs/parsing.md, "Limits"): the analysis holds the text, its
 * statements and their ASTs in memory. Bigger files get INPUT_TOO_LARGE instead of running out of memory.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

export function tooLarge(what: string, size: number): AdvisorError {
  return new AdvisorError(
    'INPUT_TOO_LARGE',
    `${what} is ${(size / 1_048_576).toFixed(0)} MB; the limit is ${MAX_INPUT_BYTES / 1_048_576} MB.`,
    {
      hint: 'Split it (for example with split -l, at statement boundaries), analyse the statements that matter, analyse a SQL file offline (sargable analyze FILE without --dsn streams it), or use sargable digest for slow logs (it streams).',
    },
  );
}

/** Read a text file relative to the working directory, with a clear error. */
export async function readText(file: string, io: CliIo, what: string): Promise<string> {
  let bytes: Buffer;
  try {
    const size = (await stat(path.resolve(io.cwd, file))).size;
    if (size > MAX_INPUT_BYTES) throw tooLarge(`${what} ${file}`, size);
    bytes = await readFile(path.resolve(io.cwd, file));
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new AdvisorError(
      'INVALID_INPUT',
      code === 'ENOENT'
        ? `${what} not found: ${file}`
        : code === 'EISDIR'
          ? `${what} ${file} is a directory: give a file`
          : `Cannot read ${what} ${file}: ${String(error)}`,
    );
  }
  return decodeText(bytes, `${what} ${file}`);
}

/**
 * Text of a file's bytes: UTF-8 (a BOM is dropped), or UTF-16 with a BOM (what Windows tools write).
 * Anything else that is not valid UTF-8 is refused with the offset of the first bad byte and how to
 * convert, rather than read as replacement characters that would silently change names and strings.
 */
export function decodeText(bytes: Uint8Array, what: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new AdvisorError(
      'INVALID_INPUT',
      `${what} is not UTF-8 text (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at offset ${offset} is not valid UTF-8).`,
      {
        hint: 'Convert it to UTF-8 first, e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8 (use the encoding the file was written in), or dump with --default-character-set=utf8mb4.',
      },
    );
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte < 0xe0
          ? 2
          : byte >= 0xe0 && byte < 0xf0
            ? 3
            : byte >= 0xf0 && byte < 0xf5
              ? 4
              : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) if (((bytes[index + next] ?? 0) & 0xc0) !== 0x80) return index;
    index += length;
  }
  return index;
}

/**
 * The schema sources of `--schema` (repeatable): each a file, or a directory whose `*.sql` files are
 * read in name order (a `mysqldump --tab` directory). Each keeps its name for skipped-statement lines.
 */
export async function readSchemaSources(
  entries: readonly string[] | undefined,
  io: CliIo,
): Promise<SchemaSource[] | undefined> {
  if (!entries?.length) return undefined;
  const sources: SchemaSource[] = [];
  for (const entry of entries) {
    const resolved = path.resolve(io.cwd, entry);
    const info = await stat(resolved).catch(() => null);
    if (info?.isDirectory()) {
      const files = (await readdir(resolved)).filter((name) => name.toLowerCase().endsWith('.sql')).sort();
      if (files.length === 0)
        throw new AdvisorError('INVALID_INPUT', `schema directory ${entry} holds no .sql files`, {
          hint: 'Give the directory mysqldump --tab wrote, or the schema files themselves.',
        });
      for (const name of files)
        sources.push({
          name: path.join(entry, name),
          text: await readText(path.join(entry, name), io, 'schema file'),
        });
    } else {
      sources.push({ name: entry, text: await readText(entry, io, 'schema file') });
    }
  }
  return sources;
}

/** Runs whose --dsn password warning was already printed. */
const warned = new WeakSet<object>();

/**
 * Complete a DSN from the credentials (--password-file, --ask-password, --login-path, then
 * SARGABLE_PASSWORD / MYSQL_PWD), so passwords need not appear in argv or shell history. A DSN that
 * carries its own password is used as given, with a warning on stderr.
 */
export function dsnWithPassword(dsn: string, io: CliIo): string {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return dsn;
  }
  if (url.password) {
    const key = io.credentials ?? io;
    if (!warned.has(key)) {
      warned.add(key);
      io.stderr(ARGV_PASSWORD_WARNING);
    }
    return dsn;
  }
  const credentials = io.credentials ?? {
    password: io.env.SARGABLE_PASSWORD || io.env.MYSQL_PWD || undefined,
  };
  if (!url.username && credentials.user) url.username = encodeURIComponent(credentials.user);
  if (credentials.password) url.password = encodeURIComponent(credentials.password);
  return url.toString();
}
