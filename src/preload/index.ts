// Preload: exposes an allow-listed `invoke(method, request)` and `listen(event, args, onMessage)` to the renderer (no Node APIs).

import { contextBridge, ipcRenderer } from 'electron';
import { apiEvents, apiMethods } from '../shared/methods.js';
import { INVOKE_CHANNEL, ipcListen } from '../shared/ipc.js';

const allowed = new Set<string>(apiMethods);
const allowedEvents = new Set<string>(apiEvents);

/** Event streams (shared/ipc.ts): allow-listed channels, one subscription id each. */
const listen = ipcListen(ipcRenderer, allowedEvents);

contextBridge.exposeInMainWorld('sargable', {
  invoke(method: string, request: unknown): Promise<unknown> {
    if (!allowed.has(method))
      return Promise.resolve({
        ok: false,
        error: { code: 'NOT_FOUND', message: `Unknown method '${method}'.` },
      });
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, request);
  },
  listen,
});
