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
 * - Pasted client output (SHOW CREATE … `\G` or table framing) needs the whole text to unwrap; it is
 *   recognised from the first 200,000 characters and then read whole, up to MAX_FRAMED_BYTES.
 * - Progress is reported per chunk read (bytes, statements); a cancel stops at the next chunk.
 * - Loaded schemas are kept in memory (the newest MAX_LOADED_SCHEMAS), by a random id.
 */

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Flavor } from '../../core/flavors/capabilities.js';
import type { SchemaModel } from '../../core/model/schema.js';
import { FRAMING_SAMPLE, hasClientFraming, unwrapClientOutput } from '../../core/schema/client-output.js';
import type { SchemaLoadSummary } from '../../core/schema/ddl-load.js';
import { schemaLoader } from '../../core/schema/ddl.js';
import { StatementStream } from '../../core/sql/split-stream.js';
import { splitStatements } from '../../core/sql/split.js';
import { AdvisorError } from '../../shared/errors.js';
import type { ResolvedFile } from './file-grants.js';

/** Pasted client output is read whole: beyond this it is not a paste, and the limit says so. */
export const MAX_FRAMED_BYTES = 64 * 1024 * 1024;
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
  const decoder = new SchemaDecoder(file.name);
  let bytesRead = 0;
  let statements = 0;
  /** Text held until the start of the file shows whether it is client output (then: all of it). */
  let head: string | null = '';
  let framed = false;
  const stream = new StatementStream();
  const feed = (slices: Iterable<Parameters<typeof loader.statement>[0]>) => {
    for (const slice of slices) {
      loader.statement(slice);
      statements++;
    }
  };
  const cancelled = () => new AdvisorError('CANCELLED', `Loading ${file.name} was cancelled.`);
  try {
    const chunks = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) {
        chunks.destroy();
        throw cancelled();
      }
      bytesRead += chunk.length;
      const text = decoder.decode(chunk, bytesRead - chunk.length);
      if (head !== null) {
        head += text;
        if (!framed && head.length >= FRAMING_SAMPLE) {
          framed = hasClientFraming(head);
          if (!framed) {
            feed(stream.push(head));
            head = null;
          } else if (totalBytes > MAX_FRAMED_BYTES) {
            chunks.destroy();
            throw new AdvisorError(
              'INPUT_TOO_LARGE',
              `${file.name} looks like pasted client output (SHOW CREATE … with \\G or table framing) and is ${megabytes(totalBytes)} MB; such output is read whole, up to ${megabytes(MAX_FRAMED_BYTES)} MB.`,
              {
                hint: 'Dump the schema with mysqldump --no-data (or mariadb-dump) instead: dumps are read as a stream.',
              },
            );
          }
        }
      } else feed(stream.push(text));
      options.onProgress?.({ bytesRead, totalBytes, statements });
    }
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    if (options.signal?.aborted) throw cancelled();
    throw readError(file, error);
  }
  const rest = decoder.end(bytesRead);
  if (head !== null) {
    // The whole file fitted in the sample: what loadSchemaText does with the text.
    const text = unwrapClientOutput(head + rest);
    feed(splitStatements(text));
  } else {
    feed(stream.push(rest));
    feed(stream.end());
  }
  options.onProgress?.({ bytesRead, totalBytes, statements });
  return { ...loader.result(), bytes: bytesRead };
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

/** NUL bytes cannot be in DDL: spaces, as loadSchemaText's normalizeText makes them. */
const withoutNul = (text: string) => (text.includes('\u0000') ? text.split('\u0000').join(' ') : text);

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(0);

/**
 * UTF-8 (a BOM dropped) or UTF-16 with a BOM, decoded chunk by chunk; text that is not valid UTF-8
 * is refused with the offset of the chunk it is in, rather than read as replacement characters that
 * would silently change names. The decoder drops the BOM; NUL bytes become spaces, as in the loader.
 */
class SchemaDecoder {
  private decoder: TextDecoder | null = null;

  constructor(private readonly name: string) {}

  decode(bytes: Buffer, offset: number): string {
    if (!this.decoder) {
      const encoding =
        bytes[0] === 0xff && bytes[1] === 0xfe
          ? 'utf-16le'
          : bytes[0] === 0xfe && bytes[1] === 0xff
            ? 'utf-16be'
            : 'utf-8';
      this.decoder = new TextDecoder(encoding, { fatal: true });
    }
    try {
      return withoutNul(this.decoder.decode(bytes, { stream: true }));
    } catch {
      throw this.notUtf8(offset);
    }
  }

  end(offset: number): string {
    try {
      return this.decoder ? withoutNul(this.decoder.decode()) : '';
    } catch {
      throw this.notUtf8(offset);
    }
  }

  private notUtf8(offset: number): AdvisorError {
    return new AdvisorError(
      'INVALID_INPUT',
      `${this.name} is not UTF-8 text (an invalid byte at or after offset ${offset}).`,
      {
        hint: 'Convert it to UTF-8 first, e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8 (use the encoding the file was written in), or dump with --default-character-set=utf8mb4.',
      },
    );
  }
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
