// One big slow-log file on several threads: cut at record boundaries, shares digested by helpers, merged in order.
/*
 * Design note
 * -----------
 * The file is cut into N shares, each cut just after a `;\n#`: this thread reads share 0 and
 * helper k (a worker thread) digests share k = [cut_k, cut_k+1) as a segment (see
 * DigestSegment). A helper reports whether its parser stopped exactly at its share's end at a
 * record boundary (`atRecordBoundary && consumed === end`; the last share reads to the file's
 * end) and how many lines it read, so the shares chain: share k+1 starts on the line after
 * share k.
 *
 * This thread then walks the shares in order. At cut k, when its own parser stopped exactly at
 * the cut at a record boundary (or the previous share was merged, so the position is a known
 * boundary), it merges helper k's segment (`Digest.absorb`, at the cut's offset and line).
 * Otherwise — a record needing look-ahead across the cut, a share that did not end at a
 * boundary, a refused merge, a helper that failed, or more than PARALLEL_MAX_CLASSES classes —
 * it reads share k itself: with the parser it has, or, after a merge, with a fresh parser whose
 * events and skips are shifted to the file's offsets and lines (`atRecordBoundary` promises that
 * a fresh parser from there yields the same events). Later shares are still merged once its
 * parser reaches their cut at a record boundary. Either way the result is the one-thread one
 * (tests/unit/slowlog/parallel-file.test.ts).
 *
 * A fresh parser decides the log's line ends from its first line (CRLF logs are converted), so
 * no cut is placed where the next line ends in CRLF, and a file whose first line does is read on
 * one thread.
 */
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createDigest, createSlowLogParser, type SlowLogParser } from '../../core/slowlog/index.js';
import { ParsedSlowLogEvent } from '../../core/slowlog/parser.js';
import { AdvisorError } from '../../shared/errors.js';
import {
  type DigestFilesOptions,
  digestOptions,
  digestResult,
  type ParallelSpec,
  progressReporter,
  type SegmentReport,
  type ShareReport,
  type SlowLogFileResult,
  type SlowLogProgress,
  type WorkerMessage,
  type WorkerRequest,
} from './slowlog-options.js';
import { cancelled, readFileRange } from './slowlog-read.js';

/**
 * A file whose digest already has more classes than this is read on one thread from there on:
 * every thread would hold its own copy of the classes (and a helper's is cloned to merge), so
 * the class state, not the parsing, then decides the cost and the memory.
 */
export const PARALLEL_MAX_CLASSES = 20_000;

/**
 * Helpers start only after this thread has digested the file's first SAMPLE_BYTES, and only when
 * those hold at most SAMPLE_MAX_CLASSES classes. A log with many distinct classes (the 110,000-class
 * bench: ~3,000 in its first 2 MiB) is then read on one thread from the start: each helper would
 * hold its own copy of its classes (and a worker's own heap) until the class limit stopped it —
 * 605 MiB peak instead of 258 MiB for that log's text digest with 8 threads. Few-class logs
 * (sysbench: 14) lose only the time to digest 2 MiB (~10 ms) before the helpers boot.
 */
export const SAMPLE_BYTES = 2 * 1024 * 1024;
export const SAMPLE_MAX_CLASSES = 1_000;

/** Smallest share of a file a thread gets (half of PARALLEL_MIN_BYTES: a 16 MiB file still has two). */
export const PARALLEL_SEGMENT_MIN_BYTES = 8 * 1024 * 1024;

/** Files smaller than this are digested on one thread. */
export const PARALLEL_MIN_BYTES = 2 * PARALLEL_SEGMENT_MIN_BYTES;

/** At most this many threads by default (each holds its share's classes; see docs/slowlog.md). */
export const PARALLEL_MAX_THREADS = 8;

/**
 * How much more than an equal share this thread reads: the helpers start about 0.1 s later (a
 * worker boots its own Node). Measured on the 88.6 MiB sysbench log with a middle cut, the
 * helper finished 20-70 ms (~40) after this thread in 4 runs of 5; each thread reads ~50 MB/s
 * there, so moving the cut by 1 MiB moves ~40 ms from the helper to this thread. With 2.5 MiB
 * this thread finished last every time.
 */
const HELPER_HEAD_START_BYTES = 1024 * 1024;

/** Threads for a file of `bytes` under `spec`: 1 means one thread. */
export function parallelThreads(bytes: number, spec: ParallelSpec): number {
  const threads = spec.threads ?? Math.min(availableParallelism(), PARALLEL_MAX_THREADS);
  const share = spec.segmentBytes ?? PARALLEL_SEGMENT_MIN_BYTES;
  return Math.max(1, Math.min(Math.floor(threads), Math.floor(bytes / share)));
}

/** True when the line starting at `at` of `window` ends in CRLF (or has no end in the window). */
function crlfOrLongLine(window: Buffer, at: number): boolean {
  const nl = window.indexOf(10, at);
  return nl === -1 || (nl > at && window[nl - 1] === 13);
}

/**
 * Where to cut `file` for `threads` threads: just after the first `;\n#` past each share's
 * target (this thread's share HELPER_HEAD_START_BYTES longer), or at the `exact` positions.
 * Fewer cuts (maybe none) when a window of 4 MiB holds no usable separator.
 */
export async function findCuts(
  file: string,
  bytes: number,
  threads: number,
  exact?: readonly number[],
): Promise<number[]> {
  const handle = await open(file, 'r');
  try {
    const window = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, bytes));
    const read = async (from: number): Promise<Buffer> => {
      const { bytesRead } = await handle.read(window, 0, window.length, from);
      return window.subarray(0, bytesRead);
    };
    // CRLF logs are converted by the parser, which decides by the first line: one thread.
    if (crlfOrLongLine(await read(0), 0)) return [];
    const cuts: number[] = [];
    const push = (cut: number): void => {
      if (cut > (cuts.at(-1) ?? 0) && cut < bytes) cuts.push(cut);
    };
    if (exact) {
      for (const at of [...exact].sort((a, b) => a - b)) {
        if (at > 0 && at < bytes && !crlfOrLongLine(await read(at), 0)) push(at);
      }
      return cuts;
    }
    if (threads < 2) return [];
    const head = Math.min(HELPER_HEAD_START_BYTES, bytes / (4 * threads));
    const first = bytes / threads + head;
    const rest = (bytes - first) / (threads - 1);
    for (let k = 1; k < threads; k++) {
      const from = Math.max(Math.floor(first + (k - 1) * rest), cuts.at(-1) ?? 0);
      const text = await read(from);
      for (
        let at = text.indexOf(';\n#', 0, 'latin1');
        at !== -1;
        at = text.indexOf(';\n#', at + 1, 'latin1')
      ) {
        if (!crlfOrLongLine(text, at + 3)) {
          push(from + at + 3);
          break;
        }
      }
    }
    return cuts;
  } finally {
    await handle.close();
  }
}

/** A share being digested elsewhere: its report, or a rejection when it failed or was stopped. */
export interface ShareHelper {
  done: Promise<SegmentReport>;
  stop(): void;
}

/** Starts share `index` = [start, end) of `file` on another thread (end undefined: to the file's end). */
export type StartShare = (
  index: number,
  range: { start: number; end: number | undefined; maxClasses?: number },
  onProgress: (progress: SlowLogProgress) => void,
) => ShareHelper;

/** A StartShare running the worker script `spec.path` (slowlog-worker.ts in helper mode). */
export function workerShares(
  spec: ParallelSpec,
  file: string,
  options: Omit<DigestFilesOptions, 'worker'>,
): StartShare {
  return (index, range, onProgress) => {
    const request: WorkerRequest = {
      paths: [file],
      segment: {
        start: range.start,
        index,
        ...(range.end === undefined ? {} : { end: range.end }),
        ...(range.maxClasses === undefined ? {} : { maxClasses: range.maxClasses }),
      },
      ...digestOptions(options),
      ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
      ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
    };
    const worker = new Worker(spec.path, {
      workerData: request,
      ...(spec.execArgv ? { execArgv: spec.execArgv } : {}),
    });
    const done = new Promise<SegmentReport>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'progress') onProgress(message.progress);
        else if (message.type === 'segment') resolve(message.report);
        else if (message.type === 'error') reject(new AdvisorError(message.code as never, message.message));
      });
      worker.on('error', reject);
      worker.on('exit', () => reject(new Error('helper stopped')));
    });
    done.catch(() => undefined); // handled by the caller, or abandoned after stop()
    return { done, stop: () => void worker.terminate() };
  };
}

/**
 * Helper side: the bytes [start, end) of `file` (to its end without `end`) as a segment, and
 * whether it ended exactly at `end` at a record boundary (SegmentReport). A share that grows
 * past PARALLEL_MAX_CLASSES classes stops early and reports itself incomplete (this thread then
 * reads it): every thread would hold its own copy of that many classes.
 */
export async function digestFileSegment(
  file: string,
  range: { start: number; end?: number | undefined; maxClasses?: number },
  options: Omit<DigestFilesOptions, 'worker' | 'parallel'> = {},
): Promise<SegmentReport> {
  const maxClasses = range.maxClasses ?? PARALLEL_MAX_CLASSES;
  const started = Date.now();
  const digest = createDigest({ segment: true, ...digestOptions(options) });
  const parser = createSlowLogParser({
    onEvent: digest.add,
    onSkip: digest.addSkip,
    ptCompatible: options.ptCompatible === true,
  });
  let bytesRead = 0;
  const total = range.end === undefined ? undefined : range.end - range.start;
  const report = progressReporter(options, started, total ?? 0, () => ({ bytesRead, events: digest.events }));
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  let tooMany = false;
  try {
    await readFileRange(file, range, parser, { ...options, signal: stop.signal }, (n) => {
      bytesRead += n;
      report(false);
      if (digest.classCount > maxClasses) {
        tooMany = true;
        stop.abort();
      }
    });
  } catch (error) {
    if (!tooMany || options.signal?.aborted) throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (tooMany) return { complete: false, bytes: bytesRead, lines: parser.line - 1 };
  if (total === undefined) parser.end();
  else if (!parser.atRecordBoundary || parser.consumed !== total) {
    return { complete: false, bytes: bytesRead, lines: parser.line - 1 };
  }
  return { segment: digest.segment(), complete: true, bytes: bytesRead, lines: parser.line - 1 };
}

/**
 * Digests `input` in shares cut at `cuts` (ascending, after 0): this thread reads share 0, the
 * others start on `startShare` at once and are merged in order (see the design note).
 */
export async function digestFileInShares(
  input: { name: string; bytes: number },
  cuts: readonly number[],
  startShare: StartShare,
  options: Omit<DigestFilesOptions, 'worker'>,
  onShares?: (shares: ShareReport[]) => void,
): Promise<SlowLogFileResult> {
  const started = Date.now();
  const starts = [0, ...cuts];
  const n = starts.length;
  const digest = createDigest(digestOptions(options));
  const helperBytes = new Array<number>(n).fill(0);
  const helperEvents = new Array<number>(n).fill(0);
  let ownBytes = 0;
  let mergedBytes = 0;
  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
  const report = progressReporter(options, started, input.bytes, () => ({
    bytesRead: ownBytes + mergedBytes + sum(helperBytes),
    events: digest.events + sum(helperEvents),
  }));
  const shares: ShareReport[] = starts.map((start, index) => ({
    start,
    end: starts[index + 1] ?? input.bytes,
    index,
    merged: false,
  }));
  // Together the helpers hold at most PARALLEL_MAX_CLASSES classes (each stops past its part).
  const maxClasses = Math.max(SAMPLE_MAX_CLASSES, Math.floor(PARALLEL_MAX_CLASSES / Math.max(1, n - 1)));
  const startHelper = (start: number, k: number): ShareHelper | undefined => {
    if (k === 0) return undefined;
    const helper = startShare(k, { start, end: starts[k + 1], maxClasses }, (progress) => {
      helperBytes[k] = progress.bytesRead;
      helperEvents[k] = progress.events;
    });
    helper.done.then(
      () => (shares[k]!.finishedMs = Date.now() - started),
      () => undefined,
    );
    return helper;
  };
  const helpers: (ShareHelper | undefined)[] = [];
  let stopped = false;
  const stopAll = (): void => {
    for (const helper of helpers) helper?.stop();
  };
  options.signal?.addEventListener('abort', stopAll, { once: true });

  // The parser reading on this thread, started at `runStart` on line `runLine` (undefined right
  // after a merge: the next share starts at a boundary on line `nextLine`).
  let parser: SlowLogParser | undefined;
  let runStart = 0;
  let runLine = 1;
  let nextLine = 1;
  const startRun = (offset: number, line: number): SlowLogParser => {
    runStart = offset;
    runLine = line;
    const lineDelta = line - 1;
    return createSlowLogParser({
      onEvent:
        offset === 0
          ? digest.add
          : (event) => {
              const e = event as ParsedSlowLogEvent;
              digest.add(
                new ParsedSlowLogEvent(e.offset + offset, e.line + lineDelta, e.query, e.admin, e.ops),
              );
            },
      onSkip: (skip) =>
        digest.addSkip({
          ...skip,
          line: skip.line + lineDelta,
          offset: skip.offset + offset,
          file: input.name,
        }),
      ptCompatible: options.ptCompatible === true,
    });
  };
  const onBytes = (bytes: number): void => {
    ownBytes += bytes;
    report(false);
    if (!stopped && digest.classCount > PARALLEL_MAX_CLASSES) {
      stopped = true;
      stopAll();
    }
  };
  try {
    parser = startRun(0, 1);
    // The sample (see SAMPLE_BYTES): many classes early on, no helpers at all.
    const sampleEnd = Math.min(SAMPLE_BYTES, starts[1] ?? input.bytes);
    await readFileRange(input.name, { start: 0, end: sampleEnd }, parser, options, onBytes);
    if (digest.classCount > SAMPLE_MAX_CLASSES) stopped = true;
    else for (let k = 1; k < n; k++) helpers[k] = startHelper(starts[k]!, k);
    const shareEnd = starts[1] ?? input.bytes;
    if (sampleEnd < shareEnd) {
      await readFileRange(input.name, { start: sampleEnd, end: starts[1] }, parser, options, onBytes);
    }
    shares[0]!.finishedMs = Date.now() - started;
    for (let k = 1; k < n; k++) {
      const start = starts[k]!;
      const atBoundary =
        parser === undefined || (parser.atRecordBoundary && runStart + parser.consumed === start);
      let merged = false;
      if (!stopped && atBoundary) {
        const line = parser === undefined ? nextLine : runLine + parser.line - 1;
        const got = await helpers[k]?.done.catch(() => undefined);
        if (options.signal?.aborted) throw cancelled();
        if (got?.complete && got.segment && !stopped) {
          for (const skip of got.segment.skipped) (skip as { file?: string }).file = input.name;
          merged = digest.absorb(got.segment, { offset: start, line });
          if (merged) {
            parser = undefined;
            nextLine = line + got.lines;
            mergedBytes += got.bytes;
            shares[k]!.merged = true;
            if (digest.classCount > PARALLEL_MAX_CLASSES) {
              stopped = true;
              stopAll();
            }
          }
        }
      }
      helpers[k]?.stop();
      helperBytes[k] = 0;
      helperEvents[k] = 0;
      if (!merged) {
        parser ??= startRun(start, nextLine);
        await readFileRange(input.name, { start, end: starts[k + 1] }, parser, options, onBytes);
      }
    }
    parser?.end();
  } finally {
    stopAll();
    options.signal?.removeEventListener('abort', stopAll);
  }
  report(true);
  onShares?.(shares);
  return digestResult(digest, [input], ownBytes + mergedBytes, started, options);
}
