// The job side of a picked file, shared by the schema-file field and the SQL file panel: pick (dialog
// grant or upload, abortable), start the service's job with the file's ref, follow its progress over
// `job.events`, cancel (the upload, else the job), clear. Each caller keeps its own reducer; these are
// the actions both reducers take.
import { useCallback, useRef } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply } from '../../shared/api/capture.js';
import type { ChosenFile } from '../../shared/api/files.js';
import type { Listen } from '../../shared/events.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { chooseWithUpload, type FilePurpose } from '../file-choice.js';
import { useJobEvents } from './job.js';

/** The actions of a file job every caller's reducer handles. */
export type FileJobAction =
  | { type: 'upload'; name: string; sent: number; total: number }
  | { type: 'start'; name: string }
  | { type: 'job'; jobId: string }
  | { type: 'failed'; error: ShownError }
  | { type: 'cancelled' }
  | { type: 'clear' };

export interface FileJobOptions<Context, Action> {
  purpose: FilePurpose;
  /** Starts the service's job for a chosen file. */
  start(file: ChosenFile, context: Context): Promise<{ jobId: string }>;
  /** The action for a running job's status (its progress). */
  progress(status: JobStatusReply): Action;
  /** The action for the job's last status (null: the events ended without one). */
  final(status: JobStatusReply | null): Action;
}

export function useFileJob<Context, Action>(
  api: AdvisorApi,
  listen: Listen,
  dispatch: (action: Action | FileJobAction) => void,
  options: FileJobOptions<Context, Action>,
): {
  /** Run the job on a chosen file (its grant). */
  run(file: ChosenFile, context: Context): Promise<void>;
  /** Pick a file (inside a click handler), upload it in web mode, then run the job on it. */
  choose(context: Context): Promise<void>;
  cancel(): void;
  clear(): void;
} {
  const { follow } = useJobEvents(listen);
  const current = useRef<string | null>(null);
  const upload = useRef<AbortController | null>(null);
  const { purpose, start, progress, final } = options;

  const run = useCallback(
    async (file: ChosenFile, context: Context) => {
      dispatch({ type: 'start', name: file.name });
      try {
        const { jobId } = await start(file, context);
        current.current = jobId;
        dispatch({ type: 'job', jobId });
        const last = await follow(jobId, (status) => {
          if (status.state === 'running') dispatch(progress(status));
        });
        if (current.current === jobId) dispatch(final(last));
      } catch (caught) {
        dispatch({ type: 'failed', error: toShownError(caught) });
      }
    },
    [dispatch, follow, start, progress, final],
  );

  const choose = useCallback(
    async (context: Context) => {
      const file = await chooseWithUpload(api, purpose, upload, {
        progress: (sent) => dispatch({ type: 'upload', ...sent }),
        failed: (caught, aborted) =>
          dispatch(aborted ? { type: 'cancelled' } : { type: 'failed', error: toShownError(caught) }),
      });
      if (file) await run(file, context);
    },
    [api, purpose, dispatch, run],
  );

  const cancel = useCallback(() => {
    if (upload.current) {
      upload.current.abort();
      return;
    }
    const jobId = current.current;
    if (jobId) void api['job.cancel']({ jobId }).catch(() => undefined);
  }, [api]);

  const clear = useCallback(() => {
    current.current = null;
    upload.current?.abort();
    upload.current = null;
    dispatch({ type: 'clear' });
  }, [dispatch]);

  return { run, choose, cancel, clear };
}
