// The job registry behind digest.start / job.status / job.cancel, with a real slow-log file digest.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCaptureHandlers } from '../../../src/main/handlers/capture.js';
import { CaptureService } from '../../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { FileGrants } from '../../../src/main/services/file-grants.js';

const sample = fileURLToPath(new URL('../../fixtures/slowlogs/percona/slow002.txt', import.meta.url));

async function settle(api: ReturnType<typeof createCaptureHandlers>, jobId: string) {
  for (;;) {
    const status = await api['job.status']({ jobId });
    if (status.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('capture jobs', () => {
  it('digest.start runs a file digest with progress and a result', async () => {
    const api = createCaptureHandlers({
      connections: new ConnectionService(),
      app: { name: 'sargable', version: '0', mode: 'web' },
      capture: new CaptureService(),
      // As `npm run web -- --allow-dir <fixtures>` would: the user named the folder.
      files: new FileGrants({ roots: [fileURLToPath(new URL('../../fixtures/slowlogs', import.meta.url))] }),
    });
    const { jobId } = await api['digest.start']({ paths: [sample] });
    const status = await settle(api, jobId);
    const result = status.result as { global: { events: number }; source: { bytesRead: number } };
    expect([status.state, status.kind, result.global.events > 0, result.source.bytesRead > 0]).toEqual([
      'done',
      'digest',
      true,
      true,
    ]);
  });

  it('cancel aborts a running job and reports it; unknown jobs are NOT_FOUND', async () => {
    const capture = new CaptureService();
    const jobId = capture.startJob(
      'wait',
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    );
    expect(capture.jobStatus(jobId).state).toBe('running');
    const final = await capture.cancelJob(jobId);
    expect([final.state, final.error?.message]).toEqual(['cancelled', 'aborted']);
    expect(() => capture.jobStatus('nope')).toThrow(/No such job/);
  });
});
