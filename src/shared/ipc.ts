// The IPC channel names shared by main and preload.
export const INVOKE_CHANNEL = 'sargable:invoke';
/** Renderer → main: start an event stream (subscription id, channel, args). */
export const LISTEN_CHANNEL = 'sargable:listen';
/** Renderer → main: stop an event stream (subscription id). */
export const UNLISTEN_CHANNEL = 'sargable:unlisten';
/** Main → renderer: one EventMessage of a stream (subscription id, message). */
export const EVENT_CHANNEL = 'sargable:event';

/** One EventMessage as the preload passes it on (see shared/events.ts). */
type StreamMessage = { kind: string };

/** The part of Electron's ipcRenderer the preload's `listen` needs. */
export interface IpcRendererLike {
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * The preload's `listen(event, args, onMessage)`: allow-listed channels only; each stream gets a
 * subscription id, its messages come back on EVENT_CHANNEL, its last message (end or error)
 * forgets it, and the returned function stops it (UNLISTEN) while it is open.
 */
export function ipcListen(
  ipc: IpcRendererLike,
  allowedEvents: ReadonlySet<string>,
): (event: string, args: unknown, onMessage: (message: StreamMessage) => void) => () => void {
  const streams = new Map<number, (message: StreamMessage) => void>();
  let nextId = 0;
  ipc.on(EVENT_CHANNEL, (_event, id, message) => {
    const onMessage = streams.get(id as number);
    if (!onMessage) return;
    if ((message as StreamMessage).kind !== 'event') streams.delete(id as number);
    onMessage(message as StreamMessage);
  });
  return (event, args, onMessage) => {
    if (!allowedEvents.has(event)) {
      onMessage({
        kind: 'error',
        error: { code: 'NOT_FOUND', message: `Unknown event channel '${event}'.` },
      } as StreamMessage);
      return () => undefined;
    }
    nextId += 1;
    const id = nextId;
    streams.set(id, onMessage);
    ipc.send(LISTEN_CHANNEL, id, event, args);
    return () => {
      if (streams.delete(id)) ipc.send(UNLISTEN_CHANNEL, id);
    };
  };
}
