// Picks the renderer's transport: the Electron preload's invoke, or the web bridge over HTTP (the
// browser's HttpOnly session cookie authenticates it; the page never sees a token).
import type { AdvisorApi, ApiMethod, Reply } from '../shared/api.js';
import { createClient, httpTransport, type Transport } from '../shared/client.js';
import {
  createListen,
  httpEventTransport,
  type ApiEvent,
  type EventMessage,
  type EventTransport,
  type Listen,
} from '../shared/events.js';

/** What the Electron preload exposes on `window.sargable` (allow-listed invoke and listen). */
export interface PreloadBridge {
  invoke(method: ApiMethod, request: unknown): Promise<Reply<unknown>>;
  /** Starts an event stream; returns the function that stops it. */
  listen(event: ApiEvent, args: unknown, onMessage: (message: EventMessage) => void): () => void;
}

declare global {
  interface Window {
    sargable?: PreloadBridge;
  }
}

/** Where the UI runs: inside Electron (preload bridge) or in a browser against the web bridge. */
export type RendererMode = 'electron' | 'web';

/** The transports for this page and which mode it is. */
export function pickTransport(win: Window = window): {
  transport: Transport;
  events: EventTransport;
  mode: RendererMode;
} {
  const bridge = win.sargable;
  if (bridge && typeof bridge.invoke === 'function') {
    return {
      transport: (method, request) => bridge.invoke(method, request),
      events: (event, args, onMessage, signal) => {
        const stop = bridge.listen(event, args, onMessage);
        signal.addEventListener('abort', stop, { once: true });
      },
      mode: 'electron',
    };
  }
  return {
    transport: httpTransport(win.location.origin),
    events: httpEventTransport(win.location.origin),
    mode: 'web',
  };
}

/** The typed API client and event listener the UI uses everywhere. */
export function createApi(win: Window = window): { api: AdvisorApi; listen: Listen; mode: RendererMode } {
  const { transport, events, mode } = pickTransport(win);
  return { api: createClient(transport), listen: createListen(events), mode };
}
