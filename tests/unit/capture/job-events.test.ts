// The typed event channel (shared/events.ts) for job progress: in-process, and over the web bridge's streamed POST /events/.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHandlers } from '../../../src/main/events.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { CaptureService, type JobStatus } from '../../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { FileGrants } from '../../../src/main/services/file-grants.js';
import { startWebServer, type RunningWebServer } from '../../../src/main/web/server.js';
import type { JobStatusReply } from '../../../src/shared/api/capture.js';
import { createClient, httpTransport } from '../../../src/shared/client.js';
import {
  createListen,
  httpEventTransport,
  localEventTransport,
  runSubscription,
  type EventHandlers,
  type EventMessage,
} from '../../../src/shared/events.js';
import { followJob } from '../../../src/renderer/state/job.js';

const sample = fileURLToPath(new URL('../../fixtures/slowlogs/percona/slow002.txt', import.meta.url));
/** As `npm run web -- --allow-dir <fixtures>`: the user named the folder, so its paths may be typed. */
const fixtureFiles = () =>
  new FileGrants({ roots: [fileURLToPath(new URL('../../fixtures/slowlogs', import.meta.url))] });

/** A job that reports `steps` progress calls `everyMs` apart, then returns `result` (or waits for abort). */
function steppedJob(capture: CaptureService, steps: number, everyMs: number, result: unknown = 'ok'): string {
  return capture.startJob('test', async (signal, progress) => {
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (signal.aborted) throw new Error('stopped');
      progress({ events: step });
    }
    return result;
  });
}

describe('job.events in-process', () => {
  it('emits the current status, progress, then the final status with the result, and resolves', async () => {
    const capture = new CaptureService();
    const listen = createListen(localEventTransport(createEventHandlers({ capture })));
    const jobId = steppedJob(capture, 5, 30, { rows: 3 });
    const seen: JobStatusReply[] = [];
    await listen('job.events', { jobId }, (status) => seen.push(status));
    expect(seen[0]).toMatchObject({ jobId, state: 'running' });
    const events = seen.map((status) => status.progress.events ?? 0);
    // Progress only grows; every step is seen (30 ms apart, above the 100 ms throttle only when batched).
    expect(events).toEqual([...events].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ state: 'done', result: { rows: 3 }, progress: { events: 5 } });
    expect(seen.filter((status) => status.state !== 'running')).toHaveLength(1);
  });

  it('throttles a chatty job to about one event per 100 ms, keeping the last progress', async () => {
    const capture = new CaptureService();
    const jobId = capture.startJob('chatty', async (_signal, progress) => {
      for (let step = 1; step <= 400; step++) {
        progress({ events: step });
        if (step % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return null;
    });
    const seen: JobStatus[] = [];
    await capture.watchJob(jobId, (status) => seen.push(status));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.length).toBeLessThan(60); // 400 progress calls over ~200 ms
    expect(seen.at(-1)).toMatchObject({ state: 'done', progress: { events: 400 } });
  });

  it('a quiet running job still reports its clock about every second', async () => {
    const capture = new CaptureService();
    const jobId = capture.startJob('quiet', async (signal) => {
      await new Promise((resolve) => setTimeout(resolve, 2300));
      return signal.aborted;
    });
    const seen: JobStatus[] = [];
    await capture.watchJob(jobId, (status) => seen.push(status));
    const running = seen.filter((status) => status.state === 'running');
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(running.at(-1)!.progress.elapsedMs).toBeGreaterThanOrEqual(900);
  });

  it('aborting the listener resolves at once and leaves the job running; job.cancel then stops it', async () => {
    const capture = new CaptureService();
    const handlers = createEventHandlers({ capture });
    const listen = createListen(localEventTransport(handlers));
    const jobId = capture.startJob(
      'wait',
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
    );
    const controller = new AbortController();
    const seen: JobStatusReply[] = [];
    const listening = listen('job.events', { jobId }, (status) => seen.push(status), controller.signal);
    controller.abort();
    await listening;
    expect(capture.jobStatus(jobId).state).toBe('running');
    // A second listener sees the cancel as the stream's last event.
    const final = followJob(listen, jobId, () => undefined);
    await capture.cancelJob(jobId);
    expect(await final).toMatchObject({ state: 'cancelled', error: { message: 'stopped' } });
    expect(seen.every((status) => status.state === 'running')).toBe(true);
  });

  it('a finished job gives its final status once; unknown jobs, channels and bad args reject', async () => {
    const capture = new CaptureService();
    const listen = createListen(localEventTransport(createEventHandlers({ capture })));
    const jobId = steppedJob(capture, 1, 1);
    await capture.watchJob(jobId, () => undefined);
    const seen: JobStatusReply[] = [];
    await listen('job.events', { jobId }, (status) => seen.push(status));
    expect(seen.map((status) => status.state)).toEqual(['done']);
    await expect(listen('job.events', { jobId: 'nope' }, () => undefined)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(listen('job.events', { jobId: '' }, () => undefined)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const messages: EventMessage[] = [];
    await runSubscription(
      createEventHandlers({ capture }),
      'job.everything',
      {},
      (m) => messages.push(m),
      new AbortController().signal,
    );
    expect(messages).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'NOT_FOUND' }) }]);
  });

  it('a real slow-log digest started through digest.start reports bytes and events, then its classes', async () => {
    const services: Parameters<typeof createHandlers>[0] = {
      connections: new ConnectionService(),
      app: { name: 'Sargable', version: 't', mode: 'web' as const },
      files: fixtureFiles(),
    };
    const api = createHandlers(services);
    const listen = createListen(localEventTransport(createEventHandlers(services)));
    const { jobId } = await api['digest.start']({ paths: [sample], view: 'top' });
    const seen: JobStatusReply[] = [];
    const final = await followJob(listen, jobId, (status) => seen.push(status));
    expect(final).toMatchObject({ state: 'done', kind: 'digest' });
    const result = final!.result as { global: { events: number }; classes: { id: string }[] };
    expect(result.global.events).toBeGreaterThan(0);
    expect(result.classes.length).toBeGreaterThan(0);
    expect(final!.progress.bytesRead).toBeGreaterThan(0);
  });
});

describe('job.events over the web bridge', () => {
  let server: RunningWebServer;
  let base: string;
  const capture = new CaptureService();
  let subscriptionAborted: Promise<void>;
  let markAborted: () => void;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-events-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    const services = {
      connections: new ConnectionService(),
      app: { name: 'S', version: 't', mode: 'web' as const },
      capture,
      files: fixtureFiles(),
    };
    const real = createEventHandlers(services);
    subscriptionAborted = new Promise((resolve) => (markAborted = resolve));
    const events: EventHandlers = {
      'job.events': (args, emit, signal) => {
        signal.addEventListener('abort', () => markAborted(), { once: true });
        return real['job.events'](args, emit, signal);
      },
    };
    server = await startWebServer({
      handlers: createHandlers(services),
      events,
      staticDir: dir,
      port: 0,
      token: 'secret-token',
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => server.close());

  it('streams a job to its end with the token, like /rpc/', async () => {
    const api = createClient(httpTransport(base, 'secret-token'));
    const listen = createListen(httpEventTransport(base, 'secret-token'));
    const { jobId } = await api['digest.start']({ paths: [sample] });
    const seen: JobStatusReply[] = [];
    const final = await followJob(listen, jobId, (status) => seen.push(status));
    expect(final?.state).toBe('done');
    expect(seen.at(-1)).toEqual(final);
    expect((final!.result as { global: { events: number } }).global.events).toBeGreaterThan(0);
  });

  it('refuses a stream without the token or session, and reports bad args', async () => {
    const jobId = steppedJob(capture, 1, 1);
    const anonymous = createListen(httpEventTransport(base));
    await expect(anonymous('job.events', { jobId }, () => undefined)).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    });
    const raw = await fetch(`${base}/events/job.events`, { method: 'POST', body: '{}' });
    expect(raw.status).toBe(401);
    const listen = createListen(httpEventTransport(base, 'secret-token'));
    await expect(listen('job.events', { jobId: 'missing' }, () => undefined)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('aborting the fetch stops the subscription on the bridge; the job goes on', async () => {
    const jobId = capture.startJob(
      'wait',
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
    );
    const listen = createListen(httpEventTransport(base, 'secret-token'));
    const controller = new AbortController();
    let first!: () => void;
    const gotFirst = new Promise<void>((resolve) => (first = resolve));
    const listening = listen('job.events', { jobId }, () => first(), controller.signal);
    await gotFirst;
    controller.abort();
    await listening;
    await subscriptionAborted; // would time out if the bridge kept the stream open
    expect(capture.jobStatus(jobId).state).toBe('running');
    await capture.cancelJob(jobId);
  });
});
