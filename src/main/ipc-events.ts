// Event streams over Electron IPC, main side: LISTEN / UNLISTEN from the preload, messages back on EVENT_CHANNEL.
import { runSubscription, type EventHandlers } from '../shared/events.js';
import { EVENT_CHANNEL, LISTEN_CHANNEL, UNLISTEN_CHANNEL } from '../shared/ipc.js';

/** The part of a WebContents the streams need. */
export interface IpcSenderLike {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  once(event: 'destroyed', listener: () => void): unknown;
  off(event: 'destroyed', listener: () => void): unknown;
}

/** The part of ipcMain the streams need (`event.sender` is the window's WebContents). */
export interface IpcMainLike<E extends { sender: IpcSenderLike }> {
  on(channel: string, listener: (event: E, ...args: unknown[]) => void): unknown;
}

/**
 * Serves the event channels on IPC. A stream is keyed by its window and the preload's subscription
 * id; UNLISTEN or a closed window aborts it (the work itself, a job, goes on). Messages from an
 * untrusted sender are ignored.
 */
export function serveIpcEvents<E extends { sender: IpcSenderLike }>(
  ipc: IpcMainLike<E>,
  handlers: EventHandlers,
  trusted: (event: E) => boolean,
): { open(): number } {
  const streams = new Map<string, AbortController>();
  ipc.on(LISTEN_CHANNEL, (event: E, id: unknown, name: unknown, args: unknown) => {
    if (!trusted(event) || typeof id !== 'number') return;
    const sender = event.sender;
    const key = `${sender.id}:${id}`;
    const controller = new AbortController();
    streams.get(key)?.abort();
    streams.set(key, controller);
    const stop = () => controller.abort();
    sender.once('destroyed', stop);
    void runSubscription(
      handlers,
      String(name),
      args,
      (message) => {
        if (!sender.isDestroyed()) sender.send(EVENT_CHANNEL, id, message);
      },
      controller.signal,
    ).finally(() => {
      if (streams.get(key) === controller) streams.delete(key);
      if (!sender.isDestroyed()) sender.off('destroyed', stop);
    });
  });
  ipc.on(UNLISTEN_CHANNEL, (event: E, id: unknown) => {
    if (!trusted(event)) return;
    streams.get(`${event.sender.id}:${String(id)}`)?.abort();
  });
  return { open: () => streams.size };
}
