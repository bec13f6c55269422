// A fake API bridge for renderer hook tests: canned replies per method, every call recorded, event streams driven by the test.
/*
 * The API is ours, so hooks are tested against this double (what they ask, in which order, what they
 * do with the reply); what the server answers is the integration tests' business. A method without a
 * canned reply fails like the real bridge does for an unknown method, so a hook that calls something
 * unexpected shows up in the test. Event streams (`job.events`) stay open until the test sends an
 * `end` or the hook aborts them, so a test can check that unmounting stops a stream.
 */
import { createClient } from '../../src/shared/client.js';
import type { AdvisorApi, ApiMethod } from '../../src/shared/api.js';
import { AdvisorError, toWireError } from '../../src/shared/errors.js';
import { createListen, type ApiEvent, type EventMessage, type Listen } from '../../src/shared/events.js';

/** A canned reply: a value, or a function of the request (it may throw an AdvisorError). */
export type FakeReply = unknown;
export type FakeReplies = Partial<Record<ApiMethod, (request: never) => unknown>>;

export interface RecordedCall {
  method: ApiMethod;
  request: unknown;
}

/** One event subscription the hook opened. */
export interface FakeStream {
  event: ApiEvent;
  args: unknown;
  signal: AbortSignal;
  send(message: EventMessage): void;
}

export interface FakeBridge {
  api: AdvisorApi;
  listen: Listen;
  calls: RecordedCall[];
  streams: FakeStream[];
  /** The requests of one method, in call order. */
  requests(method: ApiMethod): unknown[];
  /** Replace or add replies while a test runs. */
  reply(replies: FakeReplies): void;
}

export function fakeBridge(initial: FakeReplies = {}): FakeBridge {
  const replies: FakeReplies = { ...initial };
  const calls: RecordedCall[] = [];
  const streams: FakeStream[] = [];
  const api = createClient(async (method, request) => {
    calls.push({ method, request });
    const handler = replies[method];
    if (!handler) {
      return {
        ok: false,
        error: new AdvisorError('INVALID_INPUT', `fake bridge: no reply for ${method}`).toWire(),
      };
    }
    try {
      return { ok: true, value: await handler(request as never) };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  });
  const listen = createListen((event, args, onMessage, signal) => {
    streams.push({ event, args, signal, send: onMessage });
  });
  return {
    api,
    listen,
    calls,
    streams,
    requests: (method) => calls.filter((call) => call.method === method).map((call) => call.request),
    reply: (more) => Object.assign(replies, more),
  };
}
