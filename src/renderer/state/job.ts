// Following a background job (slow-log digest, slow-log window) through its `job.events` stream instead of polling job.status.
import { useCallback, useEffect, useRef } from 'react';
import type { JobStatusReply } from '../../shared/api/capture.js';
import type { Listen } from '../../shared/events.js';

/**
 * Every status of the job until it ends (`onStatus` gets each one); resolves with the last status,
 * or null when `signal` aborted first. Rejects when the stream cannot start or breaks (unknown job,
 * the service gone).
 */
export async function followJob(
  listen: Listen,
  jobId: string,
  onStatus: (status: JobStatusReply) => void,
  signal?: AbortSignal,
): Promise<JobStatusReply | null> {
  let last: JobStatusReply | null = null;
  await listen(
    'job.events',
    { jobId },
    (status) => {
      last = status;
      onStatus(status);
    },
    signal,
  );
  return signal?.aborted ? null : last;
}

/**
 * `follow(jobId, onStatus)` for a component: the stream stops when the component unmounts (the job
 * itself goes on in the service; cancelling it is the `job.cancel` request).
 */
export function useJobEvents(listen: Listen): {
  follow(jobId: string, onStatus: (status: JobStatusReply) => void): Promise<JobStatusReply | null>;
} {
  const streams = useRef(new Set<AbortController>());
  useEffect(() => {
    const open = streams.current;
    return () => {
      for (const controller of open) controller.abort();
      open.clear();
    };
  }, []);
  const follow = useCallback(
    async (jobId: string, onStatus: (status: JobStatusReply) => void) => {
      const controller = new AbortController();
      streams.current.add(controller);
      try {
        return await followJob(listen, jobId, onStatus, controller.signal);
      } finally {
        streams.current.delete(controller);
      }
    },
    [listen],
  );
  return { follow };
}
