// Reading slow-log bytes into a parser: whole records per push, sync file reads that yield, errors.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { SlowLogParser } from '../../core/slowlog/index.js';
import { AdvisorError } from '../../shared/errors.js';
import { gzipError } from './slowlog-compressed.js';

/** What ends a slow-log record (pt-query-digest's `$/`), as bytes. */
const RECORD_SEPARATOR = Buffer.from(';\n#', 'latin1');

/**
 * Default read size. Each read becomes one Latin-1 string (cut after its last `;\n#`), and V8
 * puts a string over 128 KiB (kMaxRegularHeapObjectSize) in its large-object space: pages of its
 * own, mapped, faulted in and unmapped for every chunk. Reads of 128 KiB keep the pushed strings
 * (the read minus the record carried over) ordinary young-generation strings: on the sysbench
 * and generated bench logs 7-12 % less CPU than 512 KiB reads, and a lower peak RSS. (Reads of
 * 1 MiB or more even became external strings, freed only when a GC found them: 288 MiB peak on
 * a 1 GiB log.)
 */
export const READ_CHUNK_BYTES = 128 * 1024;

export function cancelled(): AdvisorError {
  return new AdvisorError('CANCELLED', 'The slow-log digest was cancelled.');
}

export function fileError(file: string, error: unknown): AdvisorError {
  const damaged = gzipError(file, error);
  if (damaged) return damaged;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new AdvisorError(
      'NOT_FOUND',
      `Slow log "${file}" does not exist. Check the path.`,
      {},
      { cause: error },
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new AdvisorError(
      'INVALID_INPUT',
      `Cannot read slow log "${file}": permission denied. Copy it somewhere readable or run with a user that can read it.`,
      {},
      { cause: error },
    );
  }
  if (code === 'EISDIR') {
    return new AdvisorError(
      'INVALID_INPUT',
      `"${file}" is a directory; give the slow-log file itself.`,
      {},
      { cause: error },
    );
  }
  return new AdvisorError(
    'INTERNAL',
    `Cannot read slow log "${file}": ${String(error)}`,
    {},
    { cause: error },
  );
}

/**
 * Pushes chunks of bytes into a parser as binary strings, each cut after its last record
 * separator and the rest carried into the next one, so the parser gets whole records: it never
 * joins a leftover to a whole chunk, which V8 would copy again to flatten the pair. The carried
 * rest and the head of the next chunk up to its first separator are pushed as one small string;
 * the chunk's body is pushed on its own. `feed` may be given a reused buffer: what it keeps is
 * copied.
 */
function recordFeeder(parser: SlowLogParser): { feed(buffer: Buffer): void; flush(): void } {
  const size = RECORD_SEPARATOR.length;
  let carry: Buffer | undefined;
  return {
    feed(buffer) {
      let from = 0;
      if (carry) {
        const first = buffer.indexOf(RECORD_SEPARATOR);
        // The separator may also straddle the two: the parser finds it either way.
        if (first === -1) parser.push(carry.toString('latin1'));
        else {
          from = first + size;
          parser.push(carry.toString('latin1') + buffer.toString('latin1', 0, from));
        }
        carry = undefined;
      }
      const last = buffer.lastIndexOf(RECORD_SEPARATOR);
      const cut = last === -1 ? -1 : last + size;
      if (cut > from) {
        parser.push(buffer.toString('latin1', from, cut));
        from = cut;
      }
      // No separator in the chunk (a record longer than a chunk): no point carrying it.
      if (from < buffer.length) {
        if (last === -1) parser.push(buffer.toString('latin1', from));
        else carry = Buffer.from(buffer.subarray(from));
      }
    },
    flush() {
      if (carry) parser.push(carry.toString('latin1'));
      carry = undefined;
    },
  };
}

/** Pushes a stream's bytes (as a binary string) into a parser (standard input; files use readFileRange). */
export async function pump(
  stream: Readable,
  parser: SlowLogParser,
  name: string,
  signal: AbortSignal | undefined,
  onBytes: (n: number) => void,
): Promise<void> {
  try {
    const feeder = recordFeeder(parser);
    for await (const chunk of stream) {
      if (signal?.aborted) throw cancelled();
      feeder.feed(chunk as Buffer);
      onBytes((chunk as Buffer).length);
    }
    feeder.flush();
  } catch (error) {
    stream.destroy();
    if (error instanceof AdvisorError) throw error;
    throw fileError(name, error);
  }
}

/**
 * How long a file read runs before it lets the event loop turn (an abort, a helper's message, a
 * timer). Reads are synchronous into one reused buffer: a read stream's chunks (a new Buffer and
 * a promise per 128 KiB, and the stream machinery) cost ~110 ms more CPU on a 260 MiB log (~7 %
 * of a one-thread digest), and a prefetching FileHandle.read pair cost more CPU still (each read
 * a thread-pool hop); see docs/slowlog.md.
 */
const YIELD_MS = 16;

/** The event loop gets a turn (setImmediate: after pending I/O callbacks, without a timer's delay). */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Pushes the bytes [start, end) of `file` (to its end when `end` is undefined) into a parser,
 * as binary strings of whole records (recordFeeder); cancellable through `signal`.
 */
export async function readFileRange(
  file: string,
  range: { start: number; end?: number | undefined },
  parser: SlowLogParser,
  options: { signal?: AbortSignal | undefined; chunkSize?: number | undefined },
  onBytes: (n: number) => void,
): Promise<void> {
  const signal = options.signal;
  const buffer = Buffer.allocUnsafe(options.chunkSize ?? READ_CHUNK_BYTES);
  const feeder = recordFeeder(parser);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    let position = range.start;
    let yielded = performance.now();
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const want = range.end === undefined ? buffer.length : Math.min(buffer.length, range.end - position);
      if (want <= 0) break;
      const n = readSync(fd, buffer, 0, want, position);
      if (n === 0) break;
      position += n;
      feeder.feed(n === buffer.length ? buffer : buffer.subarray(0, n));
      onBytes(n);
      const now = performance.now();
      if (now - yielded >= YIELD_MS) {
        await turn();
        yielded = performance.now();
      }
    }
    feeder.flush();
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw fileError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
