// Runs a CLI command's long step as a job and shows its progress from the job's events (the job.events channel the UI listens to).
import { createEventHandlers } from '../main/events.js';
import { CaptureService, type JobProgress } from '../main/services/capture-jobs.js';
import type { JobStatusReply } from '../shared/api/capture.js';
import { createListen, followJob, localEventTransport } from '../shared/events.js';

/**
 * Runs `work` as a job, calls `onStatus` with each status of its `job.events` stream, and returns its
 * result; a failure rethrows the job's own error. `cancel` (Ctrl+C) cancels the job as `job.cancel` does.
 */
export async function runAsJob<T>(
  kind: string,
  work: (signal: AbortSignal, progress: (progress: Omit<JobProgress, 'elapsedMs'>) => void) => Promise<T>,
  onStatus: (status: JobStatusReply) => void,
  cancel?: AbortSignal,
): Promise<T> {
  const capture = new CaptureService();
  let thrown: unknown;
  const jobId = capture.startJob(kind, (signal, progress) =>
    work(signal, progress).catch((error: unknown) => {
      thrown = error;
      throw error;
    }),
  );
  const onCancel = () => void capture.cancelJob(jobId);
  cancel?.addEventListener('abort', onCancel, { once: true });
  try {
    const listen = createListen(localEventTransport(createEventHandlers({ capture })));
    const final = await followJob(listen, jobId, onStatus);
    if (final?.state !== 'done')
      throw thrown ?? new Error(final?.error?.message ?? `The ${kind} did not finish.`);
    return final.result as T;
  } finally {
    cancel?.removeEventListener('abort', onCancel);
  }
}
