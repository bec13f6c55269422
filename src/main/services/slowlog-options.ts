// The slow-log file service's options, results and worker messages, and helpers its modules share.
import type { Digest, DigestReportOptions, DigestResult, DigestSegment } from '../../core/slowlog/index.js';

/** Progress of a running digest. */
export interface SlowLogProgress {
  bytesRead: number;
  totalBytes: number;
  events: number;
  eventsPerSecond: number;
  elapsedMs: number;
}

/** Where the digest came from and how long it took. */
export interface SlowLogSource {
  files: { path: string; bytes: number }[];
  bytesRead: number;
  events: number;
  elapsedMs: number;
}

/** A digest plus its source. */
export interface SlowLogFileResult extends DigestResult {
  source: SlowLogSource;
}

/** How to run the worker; `false` parses on the calling thread (still streamed and async). */
export type WorkerChoice = boolean | { path: string | URL; execArgv?: string[] };

/** Options for {@link digestSlowLogFiles}. */
export interface DigestFilesOptions extends DigestReportOptions {
  /**
   * Give the classes one at a time (`eachClass()`, `classes` left empty) so that writing every
   * class of a big digest never holds them all; only when digesting on the calling thread (a
   * worker's result is always complete).
   */
  lazy?: boolean;
  /** `all`: aggregate every attribute of the log, as pt-query-digest does (see DigestOptions). */
  attributes?: 'reported' | 'all';
  /** Read the log exactly as pt-query-digest 3.2.1 does, also where it is wrong (SlowLogParserOptions). */
  ptCompatible?: boolean;
  signal?: AbortSignal;
  onProgress?(progress: SlowLogProgress): void;
  /** Minimum time between progress reports. Default 200 ms. */
  progressIntervalMs?: number;
  /** Read size. Default READ_CHUNK_BYTES (128 KiB). */
  chunkSize?: number;
  /**
   * Default: the bundled worker (`dist/workers/slowlog-worker.cjs`) when running from the build,
   * otherwise the calling thread.
   */
  worker?: WorkerChoice;
  /**
   * A single big file is cut at record boundaries into one share per thread, and each share
   * after the first digested by a helper thread running this worker script; the shares are
   * merged exactly (same result as one thread; see slowlog-parallel.ts). Default: the bundled
   * worker when running from the build and the machine has two or more cores; `false` reads on
   * one thread.
   */
  parallel?: false | ParallelSpec;
}

/** How to split one big file across threads (DigestFilesOptions.parallel). */
export interface ParallelSpec {
  /** The worker script the helper threads run. */
  path: string | URL;
  execArgv?: string[];
  /**
   * Threads, this one included. Default: the machine's cores (`os.availableParallelism()`),
   * at most PARALLEL_MAX_THREADS.
   */
  threads?: number;
  /** Smallest share of the file per thread. Default PARALLEL_SEGMENT_MIN_BYTES (8 MiB). */
  segmentBytes?: number;
  /**
   * Where to cut, instead of near equal shares after a `;\n#` (tests: cuts anywhere, even inside
   * a record). Cuts whose next line ends in CRLF are dropped, as are positions out of the file.
   */
  cuts?: number[];
  /** Called once the digest is done with what each share's thread did (the bench prints it). */
  onShares?(shares: ShareReport[]): void;
}

/** What one share of a parallel digest did. */
export interface ShareReport {
  start: number;
  end: number;
  /** 0: this thread's own share; otherwise a helper's. */
  index: number;
  /** A helper's segment was merged; false: this thread read the share itself. */
  merged: boolean;
  /** When the share's thread finished, in ms from the digest's start (a helper: its message came). */
  finishedMs?: number;
}

/** What a helper thread found in its share (the `segment` message). */
export interface SegmentReport {
  /** The share's digest; absent when not `complete`. */
  segment?: DigestSegment;
  /** The share ended exactly at its end at a record boundary (or the file's end was reached). */
  complete: boolean;
  /** Bytes read. */
  bytes: number;
  /** Lines read (newlines): the line after the share is the share's first line plus this. */
  lines: number;
}

/** Messages the worker posts back. */
export type WorkerMessage =
  | { type: 'progress'; progress: SlowLogProgress }
  | { type: 'result'; result: SlowLogFileResult }
  | { type: 'segment'; report: SegmentReport }
  | { type: 'error'; code: string; message: string };

/** What the worker receives as workerData. */
export interface WorkerRequest {
  paths: string[];
  orderBy?: string;
  attributes?: 'reported' | 'all';
  ptCompatible?: boolean;
  limit?: number;
  chunkSize?: number;
  progressIntervalMs?: number;
  /**
   * Helper mode: digest the bytes [start, end) of `paths[0]` (to its end without `end`) as a
   * segment and post it back; `index` is the share's number (1 = the first helper's).
   */
  segment?: { start: number; end?: number; index: number; maxClasses?: number };
  /** The worker script and thread settings, so that a worker can start helpers for a big file. */
  parallel?: Omit<ParallelSpec, 'path' | 'execArgv'> & { path: string };
}

/** What every digest of one request aggregates (the helper's segment must match the main digest). */
export function digestOptions(options: Pick<DigestFilesOptions, 'orderBy' | 'attributes' | 'ptCompatible'>): {
  orderBy?: string;
  attributes?: 'reported' | 'all';
  ptCompatible?: boolean;
} {
  return {
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
    ...(options.ptCompatible === undefined ? {} : { ptCompatible: options.ptCompatible }),
  };
}

/**
 * Progress callbacks for a digest in progress: at most one per `progressIntervalMs` (200 ms), plus
 * the forced ones (`report(true)`); `current` reads the bytes and events counted so far.
 */
export function progressReporter(
  options: Pick<DigestFilesOptions, 'onProgress' | 'progressIntervalMs'>,
  started: number,
  totalBytes: number,
  current: () => { bytesRead: number; events: number },
): (force: boolean) => void {
  const interval = options.progressIntervalMs ?? 200;
  let lastReport = 0;
  return (force) => {
    const now = Date.now();
    if (!options.onProgress || (!force && now - lastReport < interval)) return;
    lastReport = now;
    const elapsedMs = now - started;
    const { bytesRead, events } = current();
    options.onProgress({
      bytesRead,
      totalBytes,
      events,
      eventsPerSecond: elapsedMs > 0 ? Math.round((events * 1000) / elapsedMs) : 0,
      elapsedMs,
    });
  };
}

/** The result of a finished digest over `inputs`, with its source summary. */
export function digestResult(
  digest: Digest,
  inputs: readonly { name: string; bytes: number }[],
  bytesRead: number,
  started: number,
  options: Pick<DigestFilesOptions, 'orderBy' | 'limit' | 'lazy'>,
): SlowLogFileResult {
  const result = digest.result({
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.lazy === true ? { lazy: true } : {}),
  });
  return {
    source: {
      files: inputs.map((input) => ({ path: input.name, bytes: input.bytes })),
      bytesRead,
      events: digest.events,
      elapsedMs: Date.now() - started,
    },
    ...result,
  };
}
