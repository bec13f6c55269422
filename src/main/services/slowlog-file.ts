// Digests slow-log files from disk: streamed, cancellable, with progress, in a worker thread when available.
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import {
  createDigest,
  createSlowLogParser,
  type Digest,
  type DigestReportOptions,
  type DigestResult,
} from '../../core/slowlog/index.js';
import { AdvisorError } from '../../shared/errors.js';

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
  signal?: AbortSignal;
  onProgress?(progress: SlowLogProgress): void;
  /** Minimum time between progress reports. Default 200 ms. */
  progressIntervalMs?: number;
  /** Read size. Default 1 MiB. */
  chunkSize?: number;
  /**
   * Default: the bundled worker (`dist/workers/slowlog-worker.cjs`) when running from the build,
   * otherwise the calling thread.
   */
  worker?: WorkerChoice;
}

/** Messages the worker posts back. */
export type WorkerMessage =
  | { type: 'progress'; progress: SlowLogProgress }
  | { type: 'result'; result: SlowLogFileResult }
  | { type: 'error'; code: string; message: string };

/** What the worker receives as workerData. */
export interface WorkerRequest {
  paths: string[];
  orderBy?: string;
  limit?: number;
  chunkSize?: number;
  progressIntervalMs?: number;
}

function cancelled(): AdvisorError {
  return new AdvisorError('CANCELLED', 'The slow-log digest was cancelled.');
}

function fileError(file: string, error: unknown): AdvisorError {
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
 * Streams readables through one parser each and one shared digest (like pt-query-digest with
 * several files). Bytes are decoded as Latin-1 (one char per byte), which never throws and keeps
 * fingerprints byte-exact; display text is re-decoded as UTF-8 by the core.
 */
export async function digestStreams(
  inputs: { name: string; bytes: number; open(): Readable }[],
  options: Omit<DigestFilesOptions, 'worker'> = {},
): Promise<SlowLogFileResult> {
  const started = Date.now();
  const interval = options.progressIntervalMs ?? 200;
  const totalBytes = inputs.reduce((sum, input) => sum + input.bytes, 0);
  const digest: Digest = createDigest();
  let bytesRead = 0;
  let lastReport = 0;
  const report = (force: boolean): void => {
    const now = Date.now();
    if (!options.onProgress || (!force && now - lastReport < interval)) return;
    lastReport = now;
    const elapsedMs = now - started;
    options.onProgress({
      bytesRead,
      totalBytes,
      events: digest.events,
      eventsPerSecond: elapsedMs > 0 ? Math.round((digest.events * 1000) / elapsedMs) : 0,
      elapsedMs,
    });
  };
  for (const input of inputs) {
    if (options.signal?.aborted) throw cancelled();
    const parser = createSlowLogParser({
      onEvent: digest.add,
      onSkip: (skip) => digest.addSkip({ ...skip, file: input.name }),
    });
    const stream = input.open();
    try {
      for await (const chunk of stream) {
        if (options.signal?.aborted) throw cancelled();
        const buffer = chunk as Buffer;
        bytesRead += buffer.length;
        parser.push(buffer.toString('latin1'));
        report(false);
      }
    } catch (error) {
      stream.destroy();
      if (error instanceof AdvisorError) throw error;
      throw fileError(input.name, error);
    }
    parser.end();
  }
  report(true);
  const result = digest.result({
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
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
      return {
        name: file,
        bytes: info.size,
        open: () => createReadStream(file, { highWaterMark: options.chunkSize ?? 1024 * 1024 }),
      };
    }),
  );
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
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
    ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
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
      else finish(() => reject(new AdvisorError(message.code as never, message.message)));
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
