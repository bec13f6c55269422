// Digests slow-log files from disk: streamed, cancellable, with progress, in a worker thread when available.
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import {
  createDigest,
  createSlowLogParser,
  type Digest,
  type DigestReportOptions,
  type DigestResult,
  type DigestSegment,
} from '../../core/slowlog/index.js';
import { AdvisorError } from '../../shared/errors.js';
import { cancelled, fileError, pump, readFileRange } from './slowlog-read.js';

export { READ_CHUNK_BYTES } from './slowlog-read.js';

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
   * A single file of at least {@link PARALLEL_MIN_BYTES} is cut in two at a record boundary and
   * its second half digested by a helper thread running this worker script; the halves are
   * merged exactly (same result as one thread). Default: the bundled worker when running from
   * the build and the machine has two or more cores; `false` reads on one thread.
   */
  parallel?: false | { path: string | URL; execArgv?: string[] };
}

/**
 * A file whose first half already has more classes than this is read on one thread (see
 * digestFileInParallel): the class state, not the parsing, then decides the cost.
 */
export const PARALLEL_MAX_CLASSES = 20_000;

/** Files smaller than this are digested on one thread. */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;

/** Messages the worker posts back. */
export type WorkerMessage =
  | { type: 'progress'; progress: SlowLogProgress }
  | { type: 'result'; result: SlowLogFileResult }
  | { type: 'segment'; segment: DigestSegment }
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
  /** Helper mode: digest `paths[0]` from byte `start` on as a segment and post it back. */
  segment?: { start: number };
  /** The worker script, so that a worker can start its own helper for a big file. */
  workerPath?: string;
}

/** What every digest of one request aggregates (the helper's segment must match the main digest). */
function digestOptions(options: Pick<DigestFilesOptions, 'orderBy' | 'attributes' | 'ptCompatible'>): {
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
function progressReporter(
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

/**
 * Reads inputs through one parser each and one shared digest (like pt-query-digest with
 * several files): an input with `open` as a stream (standard input), otherwise the file `name`. Bytes are decoded as Latin-1 (one char per byte), which never throws and keeps
 * fingerprints byte-exact; display text is re-decoded as UTF-8 by the core.
 */
export async function digestStreams(
  inputs: { name: string; bytes: number; open?(): Readable }[],
  options: Omit<DigestFilesOptions, 'worker'> = {},
): Promise<SlowLogFileResult> {
  const started = Date.now();
  const totalBytes = inputs.reduce((sum, input) => sum + input.bytes, 0);
  const digest: Digest = createDigest(digestOptions(options));
  let bytesRead = 0;
  const report = progressReporter(options, started, totalBytes, () => ({ bytesRead, events: digest.events }));
  for (const input of inputs) {
    if (options.signal?.aborted) throw cancelled();
    const parser = createSlowLogParser({
      onEvent: digest.add,
      onSkip: (skip) => digest.addSkip({ ...skip, file: input.name }),
      ptCompatible: options.ptCompatible === true,
    });
    const onBytes = (n: number): void => {
      bytesRead += n;
      report(false);
    };
    if (input.open) await pump(input.open(), parser, input.name, options.signal, onBytes);
    else await readFileRange(input.name, { start: 0 }, parser, options, onBytes);
    parser.end();
  }
  report(true);
  return digestResult(digest, inputs, bytesRead, started, options);
}

/** The result of a finished digest over `inputs`, with its source summary. */
function digestResult(
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

/**
 * How much further than the middle this thread reads: the helper starts about 0.1 s later (a
 * worker boots its own Node). Measured on the 88.6 MiB sysbench log with a middle cut, the
 * helper finished 20-70 ms (~40) after this thread in 4 runs of 5; each thread reads ~50 MB/s
 * there, so moving the cut by 1 MiB moves ~40 ms from the helper to this thread. With 2.5 MiB
 * this thread finished last every time.
 */
const HELPER_HEAD_START_BYTES = 1024 * 1024;

/**
 * Where to cut a file for two threads: just after the first `;\n#` from a little past the middle
 * (see HELPER_HEAD_START_BYTES), or undefined.
 */
async function findCut(file: string, bytes: number): Promise<number | undefined> {
  const handle = await open(file, 'r');
  try {
    const window = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, bytes));
    const from = Math.floor(bytes / 2 + Math.min(HELPER_HEAD_START_BYTES, bytes / 8));
    const { bytesRead } = await handle.read(window, 0, window.length, from);
    const at = window.subarray(0, bytesRead).indexOf(';\n#', 0, 'latin1');
    return at === -1 ? undefined : from + at + 3;
  } finally {
    await handle.close();
  }
}

/** Starts a helper thread digesting `file` from byte `start` on; resolves with its segment. */
function startHelper(
  spec: { path: string | URL; execArgv?: string[] },
  file: string,
  start: number,
  options: Omit<DigestFilesOptions, 'worker'>,
  onProgress: (progress: SlowLogProgress) => void,
): { done: Promise<DigestSegment>; stop(): void } {
  const request: WorkerRequest = {
    paths: [file],
    segment: { start },
    ...digestOptions(options),
    ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
    ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
  };
  const worker = new Worker(spec.path, {
    workerData: request,
    ...(spec.execArgv ? { execArgv: spec.execArgv } : {}),
  });
  const done = new Promise<DigestSegment>((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'segment') resolve(message.segment);
      else if (message.type === 'error') reject(new AdvisorError(message.code as never, message.message));
    });
    worker.on('error', reject);
    worker.on('exit', () => reject(new Error('helper stopped')));
  });
  done.catch(() => undefined); // handled by the caller, or abandoned after stop()
  return { done, stop: () => void worker.terminate() };
}

/**
 * Helper side of a parallel digest: the part of `file` from byte `start` on, as a segment
 * (events before its first `use`/`SET`-less db and ts are kept pending; see DigestSegment).
 */
export async function digestFileSegment(
  file: string,
  start: number,
  options: Omit<DigestFilesOptions, 'worker' | 'parallel'> = {},
): Promise<DigestSegment> {
  const started = Date.now();
  const info = await stat(file).catch((error: unknown) => {
    throw fileError(file, error);
  });
  const digest = createDigest({ segment: true, ...digestOptions(options) });
  const parser = createSlowLogParser({
    onEvent: digest.add,
    onSkip: digest.addSkip,
    ptCompatible: options.ptCompatible === true,
  });
  let bytesRead = 0;
  let lastReport = 0;
  const interval = options.progressIntervalMs ?? 200;
  await readFileRange(file, { start }, parser, options, (n) => {
    bytesRead += n;
    const now = Date.now();
    if (!options.onProgress || now - lastReport < interval) return;
    lastReport = now;
    const elapsedMs = now - started;
    options.onProgress({
      bytesRead,
      totalBytes: info.size - start,
      events: digest.events,
      eventsPerSecond: elapsedMs > 0 ? Math.round((digest.events * 1000) / elapsedMs) : 0,
      elapsedMs,
    });
  });
  parser.end();
  return digest.segment();
}

/**
 * One big file on two threads: this thread reads [0, cut), a helper [cut, end). When this
 * thread's parser stops exactly at the cut with nothing pending, the helper's segment is merged
 * (`Digest.absorb`); otherwise (a record needing look-ahead across the cut, a refused merge, a
 * helper failure) this thread reads the rest itself. Either way the result is the one-thread one.
 */
async function digestFileInParallel(
  input: { name: string; bytes: number },
  cut: number,
  spec: { path: string | URL; execArgv?: string[] },
  options: Omit<DigestFilesOptions, 'worker'>,
): Promise<SlowLogFileResult> {
  const started = Date.now();
  const digest = createDigest(digestOptions(options));
  const parser = createSlowLogParser({
    onEvent: digest.add,
    onSkip: (skip) => digest.addSkip({ ...skip, file: input.name }),
    ptCompatible: options.ptCompatible === true,
  });
  let bytesRead = 0;
  let helperBytes = 0;
  let helperEvents = 0;
  const report = progressReporter(options, started, input.bytes, () => ({
    bytesRead: bytesRead + helperBytes,
    events: digest.events + helperEvents,
  }));
  const helper = startHelper(spec, input.name, cut, options, (progress) => {
    helperBytes = progress.bytesRead;
    helperEvents = progress.events;
  });
  const onAbort = (): void => helper.stop();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let helperStopped = false;
  try {
    const onBytes = (n: number): void => {
      bytesRead += n;
      report(false);
      // Many distinct classes: two threads would each hold them all (and the helper's copy is
      // cloned to merge), about doubling peak memory, so this thread reads the whole file.
      if (!helperStopped && digest.classCount > PARALLEL_MAX_CLASSES) {
        helperStopped = true;
        helper.stop();
      }
    };
    await readFileRange(input.name, { start: 0, end: cut }, parser, options, onBytes);
    let merged = false;
    if (!helperStopped && parser.atRecordBoundary && parser.consumed === cut) {
      const segment = await helper.done.catch(() => undefined);
      if (options.signal?.aborted) throw cancelled();
      if (segment) {
        for (const skip of segment.skipped) (skip as { file?: string }).file = input.name;
        merged = digest.absorb(segment, { offset: cut, line: parser.line });
      }
    }
    helper.stop();
    helperBytes = 0;
    helperEvents = 0;
    if (merged) bytesRead = input.bytes;
    else {
      await readFileRange(input.name, { start: cut }, parser, options, onBytes);
    }
    parser.end();
  } finally {
    helper.stop();
    options.signal?.removeEventListener('abort', onAbort);
  }
  report(true);
  return digestResult(digest, [input], bytesRead, started, options);
}

/** Digests files on the calling thread (streamed; used by the worker and the CLI). */
export async function digestFilesInThread(
  paths: readonly string[],
  options: Omit<DigestFilesOptions, 'worker'> = {},
): Promise<SlowLogFileResult> {
  const inputs = await Promise.all(
    paths.map(async (file) => {
      const info = await stat(file).catch((error: unknown) => {
        throw fileError(file, error);
      });
      if (info.isDirectory()) throw fileError(file, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
      return { name: file, bytes: info.size };
    }),
  );
  const only = inputs.length === 1 ? inputs[0] : undefined;
  const helper =
    options.parallel ??
    (bundledWorkerPath() !== undefined && availableParallelism() >= 2
      ? { path: bundledWorkerPath()! }
      : false);
  if (only && helper !== false && only.bytes >= PARALLEL_MIN_BYTES && !options.signal?.aborted) {
    const cut = await findCut(only.name, only.bytes).catch(() => undefined);
    if (cut !== undefined && cut < only.bytes) return digestFileInParallel(only, cut, helper, options);
  }
  return digestStreams(inputs, options);
}

function bundledWorkerPath(): string | undefined {
  // In the esbuild CJS bundle (dist/main/app.cjs, dist/cli/…), workers sit in dist/workers/.
  if (typeof __dirname !== 'string') return undefined;
  const candidate = path.join(__dirname, '..', 'workers', 'slowlog-worker.cjs');
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Digests one or more slow-log files with bounded memory, reporting progress and honouring
 * `signal` (rejects with AdvisorError CANCELLED). Runs in a worker thread when one is available
 * so the Electron main process stays responsive.
 */
export async function digestSlowLogFiles(
  paths: readonly string[],
  options: DigestFilesOptions = {},
): Promise<SlowLogFileResult> {
  const choice = options.worker ?? (bundledWorkerPath() ? { path: bundledWorkerPath()! } : false);
  if (choice === false) return digestFilesInThread(paths, options);
  const spec = choice === true ? { path: bundledWorkerPath() ?? '' } : choice;
  if (spec.path === '') return digestFilesInThread(paths, options);
  if (options.signal?.aborted) throw cancelled();

  const request: WorkerRequest = {
    paths: [...paths],
    ...digestOptions(options),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
    ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
    ...(options.parallel === false ? {} : { workerPath: String(spec.path) }),
  };
  const worker = new Worker(spec.path, {
    workerData: request,
    ...(spec.execArgv ? { execArgv: spec.execArgv } : {}),
  });
  return new Promise<SlowLogFileResult>((resolve, reject) => {
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = (): void => {
      finish(() => reject(cancelled()));
      void worker.terminate();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') options.onProgress?.(message.progress);
      else if (message.type === 'result') finish(() => resolve(message.result));
      else if (message.type === 'error') {
        finish(() => reject(new AdvisorError(message.code as never, message.message)));
      }
    });
    worker.on('error', (error) =>
      finish(() =>
        reject(
          new AdvisorError('INTERNAL', `The slow-log worker failed: ${error.message}`, {}, { cause: error }),
        ),
      ),
    );
    worker.on('exit', (code) => {
      finish(() =>
        reject(new AdvisorError('INTERNAL', `The slow-log worker stopped early (exit code ${code}).`)),
      );
    });
  });
}
