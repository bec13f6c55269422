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
 * - Loaded schemas are kept in memory (the newest MAX_LOADED_SCHEMAS), by a random id.
 */

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
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
import { InputDecoder } from './text-input.js';
/** Schemas kept for analyses; the oldest go first. */
export const MAX_LOADED_SCHEMAS = 4;
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
}

/** Load a chosen schema file as a stream; rejects with CANCELLED when `signal` aborts. */
export async function loadSchemaFile(
  file: ResolvedFile,
  options: SchemaFileOptions,
): Promise<LoadedSchemaFile> {
  const totalBytes = await fileSize(file);
  const loader = schemaLoader(options.flavor, options.version);
  const chunks = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
  let bytesRead: number;
  try {
    ({ bytes: bytesRead } = await streamSchemaSource(loader, chunks, {
      ...options,
      name: file.name,
      totalBytes,
    }));
  } catch (error) {
    chunks.destroy();
    if (error instanceof AdvisorError) throw error;
    throw readError(file, error);
  }
  return { ...loader.result(), bytes: bytesRead };
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

async function fileSize(file: ResolvedFile): Promise<number> {
  try {
    const info = await stat(file.path);
    if (info.isDirectory())
      throw new AdvisorError('INVALID_INPUT', `${file.name} is a folder: choose a schema file (.sql).`);
    return info.size;
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

/** Schemas loaded from files, by id (one store per app; wired in createServices). */
export class LoadedSchemas {
  private readonly schemas = new Map<string, StoredSchema>();

  add(entry: StoredSchema): string {
    const id = `schema:${randomUUID()}`;
    this.schemas.set(id, entry);
    while (this.schemas.size > MAX_LOADED_SCHEMAS) this.schemas.delete(this.schemas.keys().next().value!);
    return id;
  }

  /** The schema of an id, or NOT_FOUND that says to load the file again. */
  get(id: string): StoredSchema {
    const entry = this.schemas.get(id);
    if (!entry)
      throw new AdvisorError(
        'NOT_FOUND',
        'The loaded schema file is no longer held (Sargable was restarted, or several newer schemas were loaded): load the schema file again.',
      );
    return entry;
  }
}
