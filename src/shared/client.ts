// createClient(transport): the typed AdvisorApi over any transport (Electron preload invoke, HTTP bridge).

import type { AdvisorApi, ApiMethod, Reply } from './api.js';
import { AdvisorError } from './errors.js';

/** Sends one request and returns the raw Reply. */
export type Transport = (method: ApiMethod, request: unknown) => Promise<Reply<unknown>>;

/** A client whose methods resolve to values or reject with AdvisorError. */
export function createClient(transport: Transport): AdvisorApi {
  return new Proxy({} as AdvisorApi, {
    get(_target, property) {
      if (typeof property !== 'string') return undefined;
      return async (request: unknown) => {
        const reply = await transport(property as ApiMethod, request);
        if (reply.ok) return reply.value;
        throw AdvisorError.fromWire(reply.error);
      };
    },
  });
}

/**
 * Transport for web mode: POST /rpc/<method>. In the browser the session cookie authenticates (no
 * token); other clients (tests, scripts) pass the bridge's token, sent as `x-sargable-token`.
 */
export function httpTransport(baseUrl: string, token?: string, fetchImpl: typeof fetch = fetch): Transport {
  return async (method, request) => {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/rpc/${method}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { 'x-sargable-token': token } : {}),
        },
        credentials: 'same-origin',
        body: JSON.stringify(request ?? {}),
      });
    } catch (error) {
      return {
        ok: false,
        error: {
          code: 'CONNECTION_LOST',
          message: `The Sargable service is not reachable (${String(error)}). Is "npm run web" still running?`,
        },
      };
    }
    if (response.status === 401 || response.status === 403) {
      return {
        ok: false,
        error: {
          code: 'AUTH_FAILED',
          message: 'The web bridge rejected this page: open the login link that "npm run web" printed.',
        },
      };
    }
    return (await response.json()) as Reply<unknown>;
  };
}
