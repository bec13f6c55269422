// Event streams over Electron IPC (main/ipc-events.ts + the preload's ipcListen in shared/ipc.ts), on a fake IPC bus.
import { describe, expect, it } from 'vitest';
import { createEventHandlers } from '../../../src/main/events.js';
import { serveIpcEvents, type IpcMainLike, type IpcSenderLike } from '../../../src/main/ipc-events.js';
import { CaptureService } from '../../../src/main/services/capture-jobs.js';
import type { JobStatusReply } from '../../../src/shared/api/capture.js';
import {
  createListen,
  followJob,
  type EventMessage,
  type EventTransport,
} from '../../../src/shared/events.js';
import { ipcListen } from '../../../src/shared/ipc.js';
import { apiEvents } from '../../../src/shared/methods.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

/** One window: its preload's ipcRenderer and its WebContents, wired to a shared ipcMain. */
function bus(options: { trusted?: boolean } = {}) {
  const mainListeners = new Map<string, Listener[]>();
  const rendererListeners = new Map<string, Listener[]>();
  const destroyedListeners = new Set<() => void>();
  let destroyed = false;
  const sent: string[] = [];
  const sender: IpcSenderLike & { trusted: boolean } = {
    id: 7,
    trusted: options.trusted ?? true,
    isDestroyed: () => destroyed,
    send: (channel, ...args) => {
      sent.push(channel);
      for (const listener of rendererListeners.get(channel) ?? []) listener({}, ...args);
    },
    once: (_event, listener) => destroyedListeners.add(listener),
    off: (_event, listener) => destroyedListeners.delete(listener),
  };
  type MainEvent = { sender: typeof sender };
  const ipcMain: IpcMainLike<MainEvent> = {
    on: (channel, listener) =>
      mainListeners.set(channel, [...(mainListeners.get(channel) ?? []), listener as Listener]),
  };
  const ipcRenderer = {
    on: (channel: string, listener: Listener) =>
      rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]),
    send: (channel: string, ...args: unknown[]) => {
      for (const listener of mainListeners.get(channel) ?? []) listener({ sender }, ...args);
    },
  };
  return {
    ipcMain,
    ipcRenderer,
    sender,
    sent,
    destroy() {
      destroyed = true;
      for (const listener of [...destroyedListeners]) listener();
    },
  };
}

/** The renderer's transport over the preload's listen, as api-client.ts builds it. */
function transport(listen: ReturnType<typeof ipcListen>): EventTransport {
  return (event, args, onMessage, signal) => {
    const stop = listen(event, args, onMessage as (message: { kind: string }) => void);
    signal.addEventListener('abort', stop, { once: true });
  };
}

function waitingJob(capture: CaptureService): string {
  return capture.startJob(
    'wait',
    (signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
  );
}

describe('job.events over IPC', () => {
  it('a job streams to its end through preload and main', async () => {
    const capture = new CaptureService();
    const wire = bus();
    const served = serveIpcEvents(
      wire.ipcMain,
      createEventHandlers({ capture }),
      (event) => event.sender.trusted,
    );
    const listen = createListen(transport(ipcListen(wire.ipcRenderer, new Set(apiEvents))));
    const jobId = capture.startJob('steps', async (_signal, progress) => {
      for (let step = 1; step <= 3; step++) {
        await new Promise((resolve) => setTimeout(resolve, 120));
        progress({ events: step });
      }
      return 'ok';
    });
    const seen: JobStatusReply[] = [];
    const final = await followJob(listen, jobId, (status) => seen.push(status));
    expect(final).toMatchObject({ state: 'done', result: 'ok', progress: { events: 3 } });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(served.open()).toBe(0);
  });

  it('stopping the listener sends UNLISTEN and the stream ends in main; the job goes on', async () => {
    const capture = new CaptureService();
    const wire = bus();
    const served = serveIpcEvents(wire.ipcMain, createEventHandlers({ capture }), () => true);
    const listen = createListen(transport(ipcListen(wire.ipcRenderer, new Set(apiEvents))));
    const jobId = waitingJob(capture);
    const controller = new AbortController();
    const listening = listen('job.events', { jobId }, () => undefined, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(served.open()).toBe(1);
    controller.abort();
    await listening;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(served.open()).toBe(0);
    expect(capture.jobStatus(jobId).state).toBe('running');
    await capture.cancelJob(jobId);
  });

  it('a closed window stops its streams; nothing is sent to it afterwards', async () => {
    const capture = new CaptureService();
    const wire = bus();
    const served = serveIpcEvents(wire.ipcMain, createEventHandlers({ capture }), () => true);
    const stop = ipcListen(wire.ipcRenderer, new Set(apiEvents))(
      'job.events',
      { jobId: waitingJob(capture) },
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(served.open()).toBe(1);
    wire.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(served.open()).toBe(0);
    const before = wire.sent.length;
    await capture.cancelAll();
    expect(wire.sent.length).toBe(before);
    stop();
  });

  it('an untrusted sender gets nothing; a channel outside the allow-list fails in the preload', async () => {
    const capture = new CaptureService();
    const wire = bus({ trusted: false });
    const served = serveIpcEvents(
      wire.ipcMain,
      createEventHandlers({ capture }),
      (event) => event.sender.trusted,
    );
    const messages: EventMessage[] = [];
    const listen = ipcListen(wire.ipcRenderer, new Set(apiEvents));
    listen('job.events', { jobId: waitingJob(capture) }, (message) => messages.push(message as EventMessage));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([served.open(), messages.length, wire.sent.length]).toEqual([0, 0, 0]);
    listen('fs.read', {}, (message) => messages.push(message as EventMessage));
    expect(messages).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'NOT_FOUND' }) }]);
    await capture.cancelAll();
  });
});
