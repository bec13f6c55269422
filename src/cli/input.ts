// Shared CLI input helpers: reading FILE or standard input, and filling a DSN's password from the environment.

import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AdvisorError } from '../shared/errors.js';
import { UsageError, type CliIo } from './io.js';
import { ARGV_PASSWORD_WARNING } from './credentials.js';
import type { Flavor } from '../core/flavors/capabilities.js';
import type { SchemaModel } from '../core/model/schema.js';
import type { SchemaLoadSummary } from '../core/schema/ddl-load.js';
import { schemaLoader } from '../core/schema/ddl.js';
import { assertSchemaLoaded } from '../main/services/analysis.js';
import { streamSchemaSource } from '../main/services/schema-files.js';
import { decodeText, InputDecoder } from '../main/services/text-input.js';
import { StatementStream } from '../core/sql/split-stream.js';
import type { StatementSlice } from '../core/sql/split.js';

export { decodeText };

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
 * The statements of FILE, or of standard input for `-` or no FILE, each as soon as it is read: the
 * bytes stream in (fs.createReadStream, stdin), are decoded as {@link readText} decodes a whole file
 * (BOM, UTF-16, invalid UTF-8 refused with its offset) and split by the streaming splitter analyze
 * uses (core/sql/split-stream.ts), with the offsets, lines and columns splitStatements gives for the
 * whole text. Memory is bounded by the longest statement, not by the input: no size limit.
 */
export async function* inputStatements(
  file: string | undefined,
  io: CliIo,
  what = 'SQL file',
): AsyncIterable<StatementSlice> {
  const stdin = file === undefined || file === '-';
  let chunks: AsyncIterable<Uint8Array>;
  if (stdin) chunks = stdinChunks(io);
  else {
    const resolved = path.resolve(io.cwd, file);
    const info = await stat(resolved).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error)
      throw new AdvisorError(
        'INVALID_INPUT',
        info.code === 'ENOENT'
          ? `${what} not found: ${file}`
          : `Cannot read ${what} ${file}: ${String(info)}`,
      );
    if (info.isDirectory())
      throw new AdvisorError('INVALID_INPUT', `${what} ${file} is a directory: give a file`);
    chunks = readChunks(resolved, `${what} ${file}`);
  }
  const decoder = new InputDecoder(stdin ? 'standard input' : `${what} ${file}`);
  const splitter = new StatementStream();
  for await (const chunk of chunks) yield* splitter.push(decoder.decode(chunk));
  yield* splitter.push(decoder.end());
  yield* splitter.end();
}

async function* readChunks(resolved: string, what: string): AsyncIterable<Uint8Array> {
  const stream = createReadStream(resolved, { highWaterMark: 1024 * 1024 });
  try {
    yield* stream as AsyncIterable<Uint8Array>;
  } catch (error) {
    throw new AdvisorError('INVALID_INPUT', `Cannot read ${what}: ${String(error)}`);
  } finally {
    stream.destroy();
  }
}

/** Standard input as chunks, as it arrives (the whole text as one chunk when the io cannot stream). */
export function stdinChunks(io: CliIo): AsyncIterable<Uint8Array> {
  if (io.stdinChunks) return io.stdinChunks();
  return (async function* () {
    yield Buffer.from(await io.readStdin());
  })();
}

/** What `--schema` loaded: the model and the loader's account, or undefined when no schema text was given. */
export type LoadedSchemaSources = { schema: SchemaModel; summary: SchemaLoadSummary } | undefined;

/**
 * Load the `--schema` sources (repeatable) as streams, statement by statement, into one model (files
 * applied in order, as loadSchemaText does with several sources): each a file, `-` for standard input,
 * or a directory whose `*.sql` files are read in name order (a `mysqldump --tab` directory). Memory is
 * bounded by the model and the longest statement, not by the files: a dump with data of any size loads.
 * Text that defines no table although it tried (every CREATE TABLE skipped) is an input error.
 */
export async function loadSchemaSources(
  entries: readonly string[] | undefined,
  io: CliIo,
  flavor: Flavor,
  version: string,
): Promise<LoadedSchemaSources> {
  if (!entries?.length) return undefined;
  if (entries.filter((entry) => entry === '-').length > 1)
    throw new UsageError('--schema - (standard input) can be given once.');
  const loader = schemaLoader(flavor, version);
  let blank = true;
  const load = async (name: string, chunks: AsyncIterable<Uint8Array>) => {
    loader.startSource(name);
    const result = await streamSchemaSource(loader, chunks, { name: `schema file ${name}` });
    if (!result.blank) blank = false;
  };
  for (const entry of entries) {
    if (entry === '-') {
      await load('<stdin>', stdinChunks(io));
      continue;
    }
    const resolved = path.resolve(io.cwd, entry);
    const info = await stat(resolved).catch(() => null);
    if (info?.isDirectory()) {
      const files = (await readdir(resolved)).filter((name) => name.toLowerCase().endsWith('.sql')).sort();
      if (files.length === 0)
        throw new AdvisorError('INVALID_INPUT', `schema directory ${entry} holds no .sql files`, {
          hint: 'Give the directory mysqldump --tab wrote, or the schema files themselves.',
        });
      for (const name of files) await load(path.join(entry, name), fileChunks(path.join(entry, name), io));
    } else {
      if (!info) throw new AdvisorError('INVALID_INPUT', `schema file not found: ${entry}`);
      await load(entry, fileChunks(entry, io));
    }
  }
  if (blank) return undefined;
  const result = loader.result();
  assertSchemaLoaded(result.schema, result.summary);
  return result;
}

/** A file's bytes as a stream, with the CLI's messages for a file that cannot be read. */
async function* fileChunks(file: string, io: CliIo): AsyncIterable<Uint8Array> {
  const stream = createReadStream(path.resolve(io.cwd, file), { highWaterMark: 1024 * 1024 });
  try {
    yield* stream as AsyncIterable<Uint8Array>;
  } catch (error) {
    throw new AdvisorError('INVALID_INPUT', `Cannot read schema file ${file}: ${String(error)}`);
  } finally {
    stream.destroy();
  }
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
