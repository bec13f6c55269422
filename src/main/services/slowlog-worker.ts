// Worker-thread entry: digests slow-log files off the main thread and posts progress and the result.
import { parentPort, workerData } from 'node:worker_threads';
import { AdvisorError } from '../../shared/errors.js';
import { digestFilesInThread } from './slowlog-file.js';
import type { WorkerMessage, WorkerRequest } from './slowlog-options.js';
import { digestFileSegment } from './slowlog-parallel.js';

/**
 * Runs the request in `workerData`; cancellation is `worker.terminate()` from the parent (a
 * helper thread it started ends with it). With `segment`, this worker is the helper of a
 * parallel digest: it digests its share and posts a `segment` message instead of a result.
 */
export async function runSlowLogWorker(request: WorkerRequest): Promise<void> {
  const post = (message: WorkerMessage): void => parentPort?.postMessage(message);
  try {
    if (request.segment !== undefined) {
      const { start, end, maxClasses } = request.segment;
      const report = await digestFileSegment(
        request.paths[0] ?? '',
        { start, end, ...(maxClasses === undefined ? {} : { maxClasses }) },
        {
          ...(request.orderBy === undefined ? {} : { orderBy: request.orderBy }),
          ...(request.attributes === undefined ? {} : { attributes: request.attributes }),
          ...(request.ptCompatible === undefined ? {} : { ptCompatible: request.ptCompatible }),
          ...(request.chunkSize === undefined ? {} : { chunkSize: request.chunkSize }),
          ...(request.progressIntervalMs === undefined
            ? {}
            : { progressIntervalMs: request.progressIntervalMs }),
          onProgress: (progress) => post({ type: 'progress', progress }),
        },
      );
      post({ type: 'segment', report });
      return;
    }
    const result = await digestFilesInThread(request.paths, {
      ...(request.orderBy === undefined ? {} : { orderBy: request.orderBy }),
      ...(request.attributes === undefined ? {} : { attributes: request.attributes }),
      ...(request.ptCompatible === undefined ? {} : { ptCompatible: request.ptCompatible }),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
      ...(request.chunkSize === undefined ? {} : { chunkSize: request.chunkSize }),
      ...(request.progressIntervalMs === undefined ? {} : { progressIntervalMs: request.progressIntervalMs }),
      ...(request.parallel === undefined ? {} : { parallel: request.parallel }),
      onProgress: (progress) => post({ type: 'progress', progress }),
    });
    post({ type: 'result', result });
  } catch (error) {
    post(
      error instanceof AdvisorError
        ? { type: 'error', code: error.code, message: error.userMessage }
        : { type: 'error', code: 'INTERNAL', message: String(error) },
    );
  }
}

if (parentPort && workerData) void runSlowLogWorker(workerData as WorkerRequest);
