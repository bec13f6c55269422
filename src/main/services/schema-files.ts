// Schema files the UI loads from disk: a dump far bigger than a request may carry (the web bridge
// takes at most 4 MiB for the methods that parse SQL), read by main as a stream, with progress and
// cancel, and kept here so analyses name it by id instead of sending its text again.
/*
 * Design note.
 * - The file reaches this service only as a file the user chose (a dialog or upload grant, or a path
 *   under --allow-dir: FileGrants.resolve in the handler), never as a path the page names.
 * - The text is decoded as a stream (UTF-8, or UTF-16 with a BOM, as the CLI reads files; anything
 *   else that is not valid UTF-8 is refused with the offset), split by core/sql/split-stream.ts and
 *   fed statement by statement to the loader, so memory is bounded by the model and the longest
 *   statement, not by the file: a dump with data (mostly INSERT) loads as fast as it reads.
 * - Pasted client output (SHOW CREATE … `\G` or table framing) is recognised from its first 200,000
 *   characters and then unwrapped line by line as it streams (no size limit: memory is bounded by
 *   the longest line).
 * - Progress is reported per chunk read (bytes, statements); a cancel stops at the next chunk.
 * - Loaded schemas are kept in memory (the newest MAX_LOADED_SCHEMAS), by a random id; the file's
 *   reference (path, size, mtime, SHA-256) is kept in the config dir, so the id survives a restart:
 *   the file is read again on first use, refused with a clear message when it is gone or changed.
 */

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Flavor } from '../../core/flavors/capabilities.js';
import type { SchemaModel } from '../../core/model/schema.js';
import {
  ClientOutputUnwrapper,
  FRAMING_SAMPLE,
  hasClientFraming,
  unwrapClientOutput,
} from '../../core/schema/client-output.js';
import type { SchemaLoader, SchemaLoadSummary } from '../../core/schema/ddl-load.js';
import { schemaLoader } from '../../core/schema/ddl.js';
import { StatementStream } from '../../core/sql/split-stream.js';
import { splitStatements, type StatementSlice } from '../../core/sql/split.js';
import { AdvisorError } from '../../shared/errors.js';
import type { ResolvedFile } from './file-grants.js';
import { writeFileAtomic } from './secrets.js';
import { InputDecoder } from './text-input.js';
/** Schemas kept in memory for analyses; the oldest go first. */
export const MAX_LOADED_SCHEMAS = 4;
/** Schema file references kept on disk (a restart reads the file again on first use). */
export const MAX_SCHEMA_REFS = 32;
/** The file in the config dir that keeps them. */
export const SCHEMA_REFS_FILE = 'schema-files.json';
const CHUNK_BYTES = 1024 * 1024;

export interface SchemaFileProgress {
  bytesRead: number;
  totalBytes: number;
  /** Statements read so far. */
  statements: number;
}

export interface SchemaFileOptions {
  flavor: Flavor;
  version?: string;
  signal?: AbortSignal;
  onProgress?: (progress: SchemaFileProgress) => void;
}

export interface LoadedSchemaFile {
  schema: SchemaModel;
  summary: SchemaLoadSummary;
  bytes: number;
  /** What the file was when it was read: a later reload checks it is still the same file. */
  identity?: FileIdentity;
}

/** A file as it was read: size, modification time and the SHA-256 of its bytes. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** Load a chosen schema file as a stream; rejects with CANCELLED when `signal` aborts. */
export async function loadSchemaFile(
  file: ResolvedFile,
  options: SchemaFileOptions,
): Promise<LoadedSchemaFile> {
  const info = await fileStat(file);
  const loader = schemaLoader(options.flavor, options.version);
  const chunks = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
  const hash = createHash('sha256');
  async function* hashed(): AsyncIterable<Uint8Array> {
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      hash.update(chunk);
      yield chunk;
    }
  }
  let bytesRead: number;
  try {
    ({ bytes: bytesRead } = await streamSchemaSource(loader, hashed(), {
      ...options,
      name: file.name,
      totalBytes: info.size,
    }));
  } catch (error) {
    chunks.destroy();
    if (error instanceof AdvisorError) throw error;
    throw readError(file, error);
  }
  return {
    ...loader.result(),
    bytes: bytesRead,
    identity: { size: info.size, mtimeMs: info.mtimeMs, sha256: hash.digest('hex') },
  };
}

/**
 * Feed one source's bytes (a file, standard input, an upload) to `loader`, statement by statement:
 * decoded as a stream (text-input.ts, NUL bytes as spaces), pasted client output unwrapped line by line
 * (client-output.ts; recognised from its first FRAMING_SAMPLE characters), split by split-stream.ts.
 * Memory is bounded by the model and the longest statement (or line), whatever the input's size.
 * Returns the bytes read and whether the text was blank (white space only); rejects with CANCELLED
 * when `signal` aborts.
 */
export async function streamSchemaSource(
  loader: SchemaLoader,
  chunks: AsyncIterable<Uint8Array>,
  options: Omit<SchemaFileOptions, 'flavor' | 'version'> & { name: string; totalBytes?: number },
): Promise<{ bytes: number; blank: boolean }> {
  const decoder = new InputDecoder(options.name, { nulAsSpace: true });
  let blank = true;
  let statements = 0;
  /** Text held until the start of the input shows whether it is client output. */
  let head: string | null = '';
  let unwrapper: ClientOutputUnwrapper | null = null;
  const stream = new StatementStream();
  const feed = (slices: Iterable<StatementSlice>) => {
    for (const slice of slices) {
      loader.statement(slice);
      statements++;
    }
  };
  const push = (text: string) => feed(stream.push(unwrapper ? unwrapper.push(text) : text));
  const cancelled = () => new AdvisorError('CANCELLED', `Loading ${options.name} was cancelled.`);
  const progress = () =>
    options.onProgress?.({
      bytesRead: decoder.bytes,
      totalBytes: options.totalBytes ?? decoder.bytes,
      statements,
    });
  try {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw cancelled();
      const text = decoder.decode(chunk);
      if (blank && /\S/.test(text)) blank = false;
      if (head !== null) {
        head += text;
        if (head.length >= FRAMING_SAMPLE) {
          if (hasClientFraming(head)) unwrapper = new ClientOutputUnwrapper(head);
          const start = head;
          head = null;
          push(start);
        }
      } else push(text);
      progress();
    }
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    if (options.signal?.aborted) throw cancelled();
    throw error;
  }
  const rest = decoder.end();
  if (blank && /\S/.test(rest)) blank = false;
  if (head !== null) {
    // The whole input fitted in the sample: what loadSchemaText does with the text.
    feed(splitStatements(unwrapClientOutput(head + rest)));
  } else {
    push(rest);
    if (unwrapper) feed(stream.push(unwrapper.end()));
    feed(stream.end());
  }
  progress();
  return { bytes: decoder.bytes, blank };
}

async function fileStat(file: ResolvedFile): Promise<{ size: number; mtimeMs: number }> {
  try {
    const info = await stat(file.path);
    if (info.isDirectory())
      throw new AdvisorError('INVALID_INPUT', `${file.name} is a folder: choose a schema file (.sql).`);
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw readError(file, error);
  }
}

function readError(file: ResolvedFile, error: unknown): AdvisorError {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? new AdvisorError('NOT_FOUND', `${file.name} is gone: choose the file again.`)
    : new AdvisorError('INVALID_INPUT', `Cannot read ${file.name} (${code ?? 'read error'}).`);
}

/** A loaded schema as analyses use it. */
export interface StoredSchema extends LoadedSchemaFile {
  name: string;
  flavor: Flavor;
  version: string;
}

/** What is kept on disk of a loaded schema file, so its id works after a restart (never the schema). */
interface SchemaFileRef extends FileIdentity {
  id: string;
  /** The file's path as granted when it was loaded. */
  path: string;
  name: string;
  flavor: Flavor;
  version: string;
}

const refSchema = z.object({
  id: z.string().startsWith('schema:'),
  path: z.string().min(1),
  name: z.string(),
  flavor: z.enum(['mysql', 'mariadb']),
  version: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  sha256: z.string(),
});

/**
 * Schemas loaded from files, by id (one store per app; wired in createServices). The newest
 * MAX_LOADED_SCHEMAS are held in memory. With a `refsFile` (in the config dir), each id's file
 * reference (path, size, modification time, SHA-256; never the schema) is kept on disk, the newest
 * MAX_SCHEMA_REFS, so an id the renderer or a web page still holds works after a restart (or after
 * its schema left memory): the file is read again on first use, if it is still the file that was
 * loaded. A file that is gone or changed gets a message that says so and to load it again.
 * The page names only the random id; the path comes from this file, written when the user chose it.
 */
export class LoadedSchemas {
  private readonly schemas = new Map<string, StoredSchema>();
  private refs: SchemaFileRef[] | null = null;
  private readonly reloading = new Map<string, Promise<StoredSchema>>();

  constructor(private readonly refsFile?: string) {}

  /** Keep a loaded schema; `file` (the path it was read from) is remembered for a restart. */
  async add(entry: StoredSchema, file?: ResolvedFile): Promise<string> {
    const id = `schema:${randomUUID()}`;
    this.hold(id, entry);
    if (this.refsFile && file && entry.identity) {
      const refs = await this.readRefs();
      refs.push({
        id,
        path: file.path,
        name: entry.name,
        flavor: entry.flavor,
        version: entry.version,
        ...entry.identity,
      });
      this.refs = refs.slice(-MAX_SCHEMA_REFS);
      await writeFileAtomic(this.refsFile, `${JSON.stringify({ schemaFiles: this.refs }, null, 2)}\n`);
    }
    return id;
  }

  /** The schema of an id: held, or read again from its file; NOT_FOUND says what to do. */
  async get(id: string): Promise<StoredSchema> {
    const held = this.schemas.get(id);
    if (held) return held;
    const ref = (await this.readRefs()).find((candidate) => candidate.id === id);
    if (!ref)
      throw new AdvisorError(
        'NOT_FOUND',
        'The loaded schema file is no longer held (it was loaded before this version kept schema files across restarts, or many newer schemas were loaded since): load the schema file again.',
      );
    let pending = this.reloading.get(id);
    if (!pending) {
      pending = this.reload(ref).finally(() => this.reloading.delete(id));
      this.reloading.set(id, pending);
    }
    return pending;
  }

  private async reload(ref: SchemaFileRef): Promise<StoredSchema> {
    const changed = (what: string) =>
      new AdvisorError(
        'NOT_FOUND',
        `The schema file ${ref.name} changed since it was loaded (${what}): load the schema file again to use it as it is now.`,
        { hint: `It was read from ${ref.path}.` },
      );
    const info = await stat(ref.path).catch((error: NodeJS.ErrnoException) => {
      throw new AdvisorError(
        'NOT_FOUND',
        error.code === 'ENOENT'
          ? `The schema file ${ref.name} is gone (moved or deleted since it was loaded): load the schema file again.`
          : `The schema file ${ref.name} cannot be read (${error.code ?? 'read error'}): load the schema file again.`,
        { hint: `It was read from ${ref.path}.` },
      );
    });
    if (info.size !== ref.size)
      throw changed(
        `its size is ${info.size.toLocaleString('en-US')} bytes, was ${ref.size.toLocaleString('en-US')}`,
      );
    // Whole milliseconds: a copy that keeps the time keeps no more than that (the hash decides then).
    if (Math.trunc(info.mtimeMs) !== Math.trunc(ref.mtimeMs)) throw changed('it was modified');
    const loaded = await loadSchemaFile(
      { path: ref.path, name: ref.name },
      { flavor: ref.flavor, version: ref.version },
    );
    if (loaded.identity?.sha256 !== ref.sha256) throw changed('its content differs');
    const entry: StoredSchema = { ...loaded, name: ref.name, flavor: ref.flavor, version: ref.version };
    this.hold(ref.id, entry);
    return entry;
  }

  private hold(id: string, entry: StoredSchema): void {
    this.schemas.delete(id);
    this.schemas.set(id, entry);
    while (this.schemas.size > MAX_LOADED_SCHEMAS) this.schemas.delete(this.schemas.keys().next().value!);
  }

  private async readRefs(): Promise<SchemaFileRef[]> {
    if (this.refs) return this.refs;
    if (!this.refsFile) return (this.refs = []);
    try {
      const parsed = JSON.parse(await readFile(this.refsFile, 'utf8')) as { schemaFiles?: unknown };
      const list = z.array(refSchema).safeParse(parsed.schemaFiles);
      this.refs = list.success ? list.data : [];
    } catch {
      // No file yet (or unreadable): nothing remembered.
      this.refs = [];
    }
    return this.refs;
  }
}
