// Preload: exposes an allow-listed `invoke(method, request)` and `listen(event, args, onMessage)` to the renderer (no Node APIs).

import { contextBridge, ipcRenderer } from 'electron';
import { apiEvents, apiMethods } from '../shared/methods.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL, LISTEN_CHANNEL, UNLISTEN_CHANNEL } from '../shared/ipc.js';

const allowed = new Set<string>(apiMethods);
const allowedEvents = new Set<string>(apiEvents);

/** Open event streams by subscription id; a stream's last message (end or error) removes it. */
const streams = new Map<number, (message: { kind: string }) => void>();
let nextId = 0;
ipcRenderer.on(EVENT_CHANNEL, (_event, id: number, message: { kind: string }) => {
  const onMessage = streams.get(id);
  if (!onMessage) return;
  if (message.kind !== 'event') streams.delete(id);
  onMessage(message);
});

contextBridge.exposeInMainWorld('sargable', {
  invoke(method: string, request: unknown): Promise<unknown> {
    if (!allowed.has(method))
      return Promise.resolve({
        ok: false,
        error: { code: 'NOT_FOUND', message: `Unknown method '${method}'.` },
      });
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, request);
  },
  listen(event: string, args: unknown, onMessage: (message: { kind: string }) => void): () => void {
    if (!allowedEvents.has(event)) {
      onMessage({
        kind: 'error',
        error: { code: 'NOT_FOUND', message: `Unknown event channel '${event}'.` },
      } as {
        kind: string;
      });
      return () => undefined;
    }
    nextId += 1;
    const id = nextId;
    streams.set(id, onMessage);
    ipcRenderer.send(LISTEN_CHANNEL, id, event, args);
    return () => {
      if (streams.delete(id)) ipcRenderer.send(UNLISTEN_CHANNEL, id);
    };
  },
});
