// Picks the renderer's transport: the Electron preload's invoke, or the web bridge over HTTP with the page token.
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

const tokenKey = 'sargable.token';

/**
 * The web bridge token: taken from `?token=` once, kept in sessionStorage (so a reload keeps working)
 * and removed from the address bar so it does not end up in screenshots, history or bookmarks.
 */
export function takeWebToken(win: Window = window): string {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(tokenKey, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    url.searchParams.delete('token');
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return win.sessionStorage.getItem(tokenKey) ?? '';
  } catch {
    return '';
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
  return { transport: httpTransport(win.location.origin, takeWebToken(win)), mode: 'web' };
}

/** The typed API client the UI uses everywhere. */
export function createApi(win: Window = window): { api: AdvisorApi; mode: RendererMode } {
  const { transport, mode } = pickTransport(win);
  return { api: createClient(transport), mode };
}
