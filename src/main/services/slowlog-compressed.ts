// Compressed slow logs: gzip files are read through zlib; other formats get a message saying how to decompress them.
/*
 * Design note
 * -----------
 * Rotated slow logs are often kept compressed (`slow.log.1.gz` from logrotate). pt-query-digest
 * reads such a file as text and reports garbage; we look at the first bytes instead. gzip
 * (`1f 8b`) is decompressed on the fly with node:zlib, streamed like any file (one thread: a
 * compressed file cannot be cut at record boundaries); its size for progress is the
 * uncompressed size from the gzip trailer (ISIZE, modulo 2^32). bzip2, xz and zstd, which
 * node:zlib does not read, are refused with the command that decompresses them. Offsets in
 * skips and examples are offsets in the decompressed text.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { AdvisorError } from '../../shared/errors.js';

/** What the first bytes of a file say about its compression. */
export type Compression = 'gzip' | 'bzip2' | 'xz' | 'zstd' | undefined;

const MAGIC: [Exclude<Compression, undefined>, number[]][] = [
  ['gzip', [0x1f, 0x8b]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
];

const TOOLS: Record<Exclude<Compression, 'gzip' | undefined>, string> = {
  bzip2: 'bunzip2 -c',
  xz: 'xz -dc',
  zstd: 'zstd -dc',
};

/** The compression of `file` by its magic bytes (undefined: plain, or unreadable: the read reports it). */
export function compressionOf(file: string): Compression {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(6);
    const n = readSync(fd, head, 0, head.length, 0);
    return MAGIC.find(([, bytes]) => n >= bytes.length && bytes.every((b, i) => head[i] === b))?.[0];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Refuses a file compressed in a format node:zlib cannot read, saying how to decompress it. */
export function refuseCompressed(file: string, kind: Exclude<Compression, 'gzip' | undefined>): AdvisorError {
  return new AdvisorError(
    'INVALID_INPUT',
    `Slow log "${file}" is ${kind}-compressed. Decompress it first, e.g. \`${TOOLS[kind]} '${file}' | sargable digest -\` (or to a file, then digest that file).`,
  );
}

/** The uncompressed size a gzip file records in its trailer (modulo 2^32), for progress. */
export function gzipSize(file: string, compressedBytes: number): number {
  if (compressedBytes < 18) return compressedBytes;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, compressedBytes - 4);
    return tail.readUInt32LE(0) || compressedBytes;
  } catch {
    return compressedBytes;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The decompressed bytes of a gzip file (several concatenated members too, as gzip -d reads them). */
export function gunzipFile(file: string, chunkSize: number): Readable {
  const gunzip = createGunzip({ chunkSize });
  const source = createReadStream(file, { highWaterMark: chunkSize });
  source.on('error', (error) => gunzip.destroy(error));
  return source.pipe(gunzip);
}

/** A clear error for damaged or cut-short gzip data (zlib's codes start with Z_). */
export function gzipError(file: string, error: unknown): AdvisorError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return undefined;
  return new AdvisorError(
    'INVALID_INPUT',
    `Slow log "${file}" is gzip data that is damaged or cut short (${(error as Error).message}). Check it with \`gzip -t '${file}'\`; \`gzip -dc '${file}' > copy.log\` keeps what can be read, and that copy can be digested.`,
    {},
    { cause: error },
  );
}
