// Picks the renderer's transport: the Electron preload's invoke, or the web bridge over HTTP (the
// browser's HttpOnly session cookie authenticates it; the page never sees a token).
import type { AdvisorApi, ApiMethod, Reply } from '../shared/api.js';
import { createClient, httpTransport, type Transport } from '../shared/client.js';

/** What the Electron preload exposes on `window.sargable` (one allow-listed invoke). */
export interface PreloadBridge {
  invoke(method: ApiMethod, request: unknown): Promise<Reply<unknown>>;
}

declare global {
  interface Window {
    sargable?: PreloadBridge;
  }
}

/** Where the UI runs: inside Electron (preload bridge) or in a browser against the web bridge. */
export type RendererMode = 'electron' | 'web';

/** The transport for this page and which mode it is. */
export function pickTransport(win: Window = window): { transport: Transport; mode: RendererMode } {
  const bridge = win.sargable;
  if (bridge && typeof bridge.invoke === 'function') {
    return { transport: (method, request) => bridge.invoke(method, request), mode: 'electron' };
  }
  return { transport: httpTransport(win.location.origin), mode: 'web' };
}

/** The typed API client the UI uses everywhere. */
export function createApi(win: Window = window): { api: AdvisorApi; mode: RendererMode } {
  const { transport, mode } = pickTransport(win);
  return { api: createClient(transport), mode };
}
