// Preload: exposes exactly one allow-listed `invoke(method, request)` to the renderer (no Node APIs).

import { contextBridge, ipcRenderer } from 'electron';
import { apiMethods } from '../shared/methods.js';
import { INVOKE_CHANNEL } from '../shared/ipc.js';

const allowed = new Set<string>(apiMethods);

contextBridge.exposeInMainWorld('sargable', {
  invoke(method: string, request: unknown): Promise<unknown> {
    if (!allowed.has(method))
      return Promise.resolve({
        ok: false,
        error: { code: 'NOT_FOUND', message: `Unknown method '${method}'.` },
      });
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, request);
  },
});
