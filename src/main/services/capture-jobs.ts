// The capture state the API keeps: digest snapshots by id, and long-running jobs with progress, watchers and cancel.
/*
 * Design note
 * -----------
 * One CaptureService per app (a plain class, wired in createServices): at most 32 snapshots (the
 * oldest go first) and 32 finished jobs. A job gets an abort signal and a progress callback; a
 * watcher (`job.events`) gets progress at most every 100 ms and at least every second while the
 * job runs, then its final status. A job that finishes after a cancel keeps its result.
 */
import { randomUUID } from 'node:crypto';
import type { DigestSnapshot } from '../../core/capture/index.js';
import type { JobProgressReply } from '../../shared/api/capture.js';
import { AdvisorError, type WireError } from '../../shared/errors.js';

/** What the API returns for a snapshot. */
export interface SnapshotInfo {
  snapshotId: string;
  takenAt: string;
  rows: number;
  truncated: boolean;
}

/** Progress of a job, as the API contract declares it (which fields are set depends on the job). */
export type JobProgress = JobProgressReply;

/** A job as `job.status` reports it. */
export interface JobStatus<T = unknown> {
  jobId: string;
  kind: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress: JobProgress;
  result?: T;
  error?: { code: string; message: string; hint?: string };
}

interface JobEntry {
  status: JobStatus;
  controller: AbortController;
  started: number;
  finished: Promise<void>;
  /** Watchers (`watchJob`): called on progress, and with `final` once the job has ended. */
  watchers: Set<(final: boolean) => void>;
}

/** A watcher gets progress at most this often; a running job reports at least every second (its clock). */
const WATCH_MIN_MS = 100;
const WATCH_HEARTBEAT_MS = 1000;

const MAX_SNAPSHOTS = 32;
const MAX_FINISHED_JOBS = 32;

/** Keeps snapshots and jobs for the API (one per app; plain class, wired in createServices). */
export class CaptureService {
  private readonly snapshots = new Map<string, { connectionId: string; snapshot: DigestSnapshot }>();
  private readonly jobs = new Map<string, JobEntry>();

  /** Stores a snapshot; the oldest go once there are more than 32. */
  addSnapshot(connectionId: string, snapshot: DigestSnapshot): SnapshotInfo {
    const snapshotId = randomUUID();
    this.snapshots.set(snapshotId, { connectionId, snapshot });
    while (this.snapshots.size > MAX_SNAPSHOTS) {
      const oldest = this.snapshots.keys().next().value as string;
      this.snapshots.delete(oldest);
    }
    return {
      snapshotId,
      takenAt: new Date(snapshot.takenAt * 1000).toISOString(),
      rows: snapshot.rows.length,
      truncated: snapshot.truncated,
    };
  }

  /** A stored snapshot of this connection, or NOT_FOUND. */
  getSnapshot(connectionId: string, snapshotId: string): DigestSnapshot {
    const entry = this.snapshots.get(snapshotId);
    if (!entry || entry.connectionId !== connectionId) {
      throw new AdvisorError(
        'NOT_FOUND',
        'That snapshot is gone (or belongs to another connection). Take a new one.',
      );
    }
    return entry.snapshot;
  }

  /** Starts a job; `run` gets an abort signal and a progress callback. */
  startJob<T>(
    kind: string,
    run: (signal: AbortSignal, progress: (progress: Omit<JobProgress, 'elapsedMs'>) => void) => Promise<T>,
  ): string {
    const jobId = randomUUID();
    const controller = new AbortController();
    const started = Date.now();
    const status: JobStatus = { jobId, kind, state: 'running', progress: { elapsedMs: 0 } };
    const entry: JobEntry = {
      status,
      controller,
      started,
      finished: Promise.resolve(),
      watchers: new Set(),
    };
    entry.finished = run(controller.signal, (progress) => {
      status.progress = { ...progress, elapsedMs: Date.now() - started };
      for (const watcher of [...entry.watchers]) watcher(false);
    }).then(
      (result) => {
        // A job that finishes after a cancel (a window ended early) still has its result.
        status.state = 'done';
        status.result = result;
      },
      (error: unknown) => {
        status.state = controller.signal.aborted ? 'cancelled' : 'failed';
        const wire: WireError =
          error instanceof AdvisorError
            ? error.toWire()
            : { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
        status.error = { code: wire.code, message: wire.message, ...(wire.hint ? { hint: wire.hint } : {}) };
      },
    );
    void entry.finished.then(() => {
      status.progress = { ...status.progress, elapsedMs: Date.now() - started };
      for (const watcher of [...entry.watchers]) watcher(true);
      this.prune();
    });
    this.jobs.set(jobId, entry);
    return jobId;
  }

  /** The job's state, progress and (when done) result. */
  jobStatus(jobId: string): JobStatus {
    const entry = this.jobs.get(jobId);
    if (!entry) throw new AdvisorError('NOT_FOUND', 'No such job (finished jobs are kept for a while only).');
    const { status } = entry;
    return status.state === 'running'
      ? { ...status, progress: { ...status.progress, elapsedMs: Date.now() - entry.started } }
      : { ...status };
  }

  /**
   * The job's status as events (the `job.events` channel): now, on progress (at most every 100 ms,
   * and at least every second while it runs), and last its final status with the result. Resolves
   * after the final status, or when `signal` aborts (the job itself goes on). NOT_FOUND for an
   * unknown job.
   */
  watchJob(jobId: string, emit: (status: JobStatus) => void, signal?: AbortSignal): Promise<void> {
    const entry = this.jobs.get(jobId);
    if (!entry) throw new AdvisorError('NOT_FOUND', 'No such job (finished jobs are kept for a while only).');
    emit(this.jobStatus(jobId));
    if (entry.status.state !== 'running' || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let last = Date.now();
      let trailing: ReturnType<typeof setTimeout> | undefined;
      const snapshot = (): JobStatus =>
        entry.status.state === 'running'
          ? { ...entry.status, progress: { ...entry.status.progress, elapsedMs: Date.now() - entry.started } }
          : { ...entry.status };
      const send = () => {
        clearTimeout(trailing);
        trailing = undefined;
        last = Date.now();
        emit(snapshot());
      };
      const heartbeat = setInterval(() => {
        if (Date.now() - last >= WATCH_HEARTBEAT_MS) send();
      }, WATCH_HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        clearTimeout(trailing);
        entry.watchers.delete(watcher);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const watcher = (final: boolean) => {
        if (final) {
          emit({ ...entry.status });
          stop();
        } else if (Date.now() - last >= WATCH_MIN_MS) send();
        else trailing ??= setTimeout(send, WATCH_MIN_MS - (Date.now() - last));
      };
      const onAbort = () => stop();
      entry.watchers.add(watcher);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Aborts a job and waits until it has cleaned up (a slow-log window restores settings first). */
  async cancelJob(jobId: string): Promise<JobStatus> {
    const entry = this.jobs.get(jobId);
    if (!entry) throw new AdvisorError('NOT_FOUND', 'No such job.');
    entry.controller.abort();
    await entry.finished;
    return this.jobStatus(jobId);
  }

  /** Aborts every running job and waits for them (app shutdown). */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.cancelJob(id).catch(() => undefined)));
  }

  private prune(): void {
    const finished = [...this.jobs.entries()].filter(([, entry]) => entry.status.state !== 'running');
    for (const [id] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_JOBS)))
      this.jobs.delete(id);
  }
}
