// Following a background job (slow-log digest, slow-log window) through its `job.events` stream instead of polling job.status.
import { useCallback, useEffect, useRef } from 'react';
import type { JobStatusReply } from '../../shared/api/capture.js';
import { followJob, type Listen } from '../../shared/events.js';

export { followJob };

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
