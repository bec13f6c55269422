// Digests slow-log files from disk: streamed, cancellable, with progress, in a worker thread when available.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { createDigest, createSlowLogParser, type Digest } from '../../core/slowlog/index.js';
import { AdvisorError } from '../../shared/errors.js';
import {
  type DigestFilesOptions,
  digestOptions,
  digestResult,
  progressReporter,
  type SlowLogFileResult,
  type WorkerMessage,
  type WorkerRequest,
} from './slowlog-options.js';
import { digestFileInShares, findCuts, parallelThreads, workerShares } from './slowlog-parallel.js';
import { compressionOf, gunzipFile, gzipSize, refuseCompressed } from './slowlog-compressed.js';
import { cancelled, fileError, pump, READ_CHUNK_BYTES, readFileRange } from './slowlog-read.js';

export type {
  DigestFilesOptions,
  ParallelSpec,
  SegmentReport,
  ShareReport,
  SlowLogFileResult,
  SlowLogProgress,
  SlowLogSource,
  WorkerChoice,
  WorkerMessage,
  WorkerRequest,
} from './slowlog-options.js';
export {
  PARALLEL_MAX_CLASSES,
  PARALLEL_MAX_THREADS,
  PARALLEL_MIN_BYTES,
  PARALLEL_SEGMENT_MIN_BYTES,
} from './slowlog-parallel.js';
export { READ_CHUNK_BYTES } from './slowlog-read.js';

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
      // A compressed log (slowlog-compressed.ts): gzip is read through zlib, others refused.
      const compression = compressionOf(file);
      if (compression === undefined) return { name: file, bytes: info.size };
      if (compression !== 'gzip') throw refuseCompressed(file, compression);
      const chunkSize = options.chunkSize ?? READ_CHUNK_BYTES;
      return { name: file, bytes: gzipSize(file, info.size), open: () => gunzipFile(file, chunkSize) };
    }),
  );
  const only = inputs.length === 1 && inputs[0]!.open === undefined ? inputs[0] : undefined;
  const spec =
    options.parallel ??
    (bundledWorkerPath() !== undefined && availableParallelism() >= 2
      ? { path: bundledWorkerPath()! }
      : false);
  if (only && spec !== false && !options.signal?.aborted) {
    const threads = parallelThreads(only.bytes, spec);
    if (spec.cuts || threads >= 2) {
      const cuts = await findCuts(only.name, only.bytes, threads, spec.cuts).catch(() => []);
      if (cuts.length > 0) {
        const start = workerShares(spec, only.name, options);
        return digestFileInShares(only, cuts, start, options, spec.onShares);
      }
    }
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
    ...(options.parallel === false
      ? {}
      : {
          parallel: {
            path: String(spec.path),
            ...(options.parallel?.threads === undefined ? {} : { threads: options.parallel.threads }),
            ...(options.parallel?.segmentBytes === undefined
              ? {}
              : { segmentBytes: options.parallel.segmentBytes }),
          },
        }),
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
