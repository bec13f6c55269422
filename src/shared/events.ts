// Typed event channels next to the request/reply API: a listener gets a stream of events until it ends or is cancelled.
/*
 * Design note
 * -----------
 * Modelled on VS Code's `IChannel.listen(event, arg)`: a request/reply method answers once, an event
 * channel answers many times. `listen(event, args, onEvent, signal)` starts a stream; it resolves
 * when the stream ends (a job's last status), rejects with an AdvisorError when it cannot start or
 * fails (unknown job, invalid args), and resolves at once when the caller aborts `signal`, which
 * also stops the stream where it runs (main process or web bridge). Stopping a listener never stops
 * the work itself: cancelling a job is still the `job.cancel` request, which aborts it in the service
 * (and kills our own running query on the server where the job runs SQL).
 *
 * On the wire every stream is a sequence of `EventMessage`s: any number of `event`s, then exactly
 * one `end` or `error`. Electron carries them on one IPC channel keyed by a subscription id, web mode
 * as newline-delimited JSON on a streamed POST /events/<name> response (same auth as /rpc/), and
 * the CLI and tests call the handlers in-process with `localEventTransport`.
 */
import { z } from 'zod';
import type { JobStatusReply } from './api/capture.js';
import { AdvisorError, type WireError } from './errors.js';
import { apiEvents, type ApiEvent } from './methods.js';

export { apiEvents, type ApiEvent };

const jobRef = z.object({ jobId: z.string().min(1) });

/** What each channel takes to start and what it emits. */
export interface AdvisorEvents {
  /**
   * A job's status: once at once, then on progress (at most every 100 ms), last its final status
   * (`done` with the result, `failed`, `cancelled`); the stream ends after the final status.
   */
  'job.events': { args: z.input<typeof jobRef>; event: JobStatusReply };
}

/** Argument schemas by channel; the main process validates every subscription against these. */
export const eventArgSchemas = {
  'job.events': jobRef,
} as const satisfies Record<ApiEvent, z.ZodType>;

export type EventArgs<E extends ApiEvent> = AdvisorEvents[E]['args'];
export type EventValue<E extends ApiEvent> = AdvisorEvents[E]['event'];

/** One message of a stream on the wire. */
export type EventMessage<T = unknown> =
  { kind: 'event'; value: T } | { kind: 'end' } | { kind: 'error'; error: WireError };

/** The service side of a channel: emits until done (resolves) or failed (rejects); stops when `signal` aborts. */
export type EventHandlers = {
  [E in ApiEvent]: (
    args: z.output<(typeof eventArgSchemas)[E]>,
    emit: (event: EventValue<E>) => void,
    signal: AbortSignal,
  ) => Promise<void>;
};

/** Carries one subscription: start it, deliver its messages, stop it when `signal` aborts. */
export type EventTransport = (
  event: ApiEvent,
  args: unknown,
  onMessage: (message: EventMessage) => void,
  signal: AbortSignal,
) => void;

/** Listen to a channel until its stream ends, it fails (rejects) or `signal` aborts (resolves). */
export type Listen = <E extends ApiEvent>(
  event: E,
  args: EventArgs<E>,
  onEvent: (event: EventValue<E>) => void,
  signal?: AbortSignal,
) => Promise<void>;

/** The typed `listen` over a transport. */
export function createListen(transport: EventTransport): Listen {
  return (event, args, onEvent, signal) =>
    new Promise<void>((resolve, reject) => {
      const controller = new AbortController();
      let settled = false;
      const finish = (error?: WireError) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        controller.abort();
        if (error) reject(AdvisorError.fromWire(error));
        else resolve();
      };
      const onAbort = () => finish();
      if (signal?.aborted) return finish();
      signal?.addEventListener('abort', onAbort, { once: true });
      transport(
        event,
        args,
        (message) => {
          if (settled) return;
          if (message.kind === 'event') onEvent(message.value as EventValue<typeof event>);
          else finish(message.kind === 'error' ? message.error : undefined);
        },
        controller.signal,
      );
    });
}

/**
 * Runs one subscription against the handlers: validates the channel and its args, sends each event,
 * then `end` or `error`. Never throws. Used by the main process (IPC), the web bridge and in-process.
 */
export async function runSubscription(
  handlers: EventHandlers,
  event: string,
  args: unknown,
  onMessage: (message: EventMessage) => void,
  signal: AbortSignal,
): Promise<void> {
  if (!(apiEvents as readonly string[]).includes(event)) {
    onMessage({ kind: 'error', error: { code: 'NOT_FOUND', message: `Unknown event channel '${event}'.` } });
    return;
  }
  const name = event as ApiEvent;
  const parsed = eventArgSchemas[name].safeParse(args ?? undefined);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'args'}: ${issue.message}`)
      .join('; ');
    onMessage({
      kind: 'error',
      error: { code: 'INVALID_INPUT', message: `Invalid arguments for ${name}: ${details}` },
    });
    return;
  }
  try {
    await handlers[name](
      parsed.data,
      (value) => {
        if (!signal.aborted) onMessage({ kind: 'event', value });
      },
      signal,
    );
    if (!signal.aborted) onMessage({ kind: 'end' });
  } catch (error) {
    if (signal.aborted) return;
    const wire =
      error instanceof AdvisorError
        ? error.toWire()
        : { code: 'INTERNAL' as const, message: error instanceof Error ? error.message : String(error) };
    onMessage({ kind: 'error', error: wire });
  }
}

/** The transport for handlers in the same process (CLI, tests). */
export function localEventTransport(handlers: EventHandlers): EventTransport {
  return (event, args, onMessage, signal) => void runSubscription(handlers, event, args, onMessage, signal);
}

/**
 * Web mode: POST /events/<name> with the args as JSON; the response streams one EventMessage per
 * line. The browser's session cookie authenticates, other clients pass the bridge's token (as /rpc/).
 */
export function httpEventTransport(
  baseUrl: string,
  token?: string,
  fetchImpl: typeof fetch = fetch,
): EventTransport {
  return (event, args, onMessage, signal) => {
    void (async () => {
      let response: Response;
      try {
        response = await fetchImpl(`${baseUrl}/events/${event}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { 'x-sargable-token': token } : {}) },
          credentials: 'same-origin',
          body: JSON.stringify(args ?? {}),
          signal,
        });
      } catch (error) {
        if (!signal.aborted) onMessage(unreachable(error));
        return;
      }
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: WireError } | null;
        onMessage({
          kind: 'error',
          error:
            response.status === 401 || response.status === 403
              ? {
                  code: 'AUTH_FAILED',
                  message:
                    'The web bridge rejected this page: open the login link that "npm run web" printed.',
                }
              : (body?.error ?? {
                  code: 'INTERNAL',
                  message: `The event stream failed (HTTP ${response.status}).`,
                }),
        });
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      let ended = false;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += value;
          let newline: number;
          while ((newline = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, newline).trim();
            buffered = buffered.slice(newline + 1);
            if (!line) continue;
            const message = JSON.parse(line) as EventMessage;
            ended ||= message.kind !== 'event';
            onMessage(message);
          }
        }
      } catch (error) {
        if (!signal.aborted) onMessage(unreachable(error));
        return;
      }
      // The bridge went away mid-stream (it always ends a stream with end or error).
      if (!ended && !signal.aborted) onMessage(unreachable('the stream ended early'));
    })();
  };
}

function unreachable(error: unknown): EventMessage {
  return {
    kind: 'error',
    error: {
      code: 'CONNECTION_LOST',
      message: `The Sargable service is not reachable (${String(error)}). Is "npm run web" still running?`,
    },
  };
}

/**
 * Every status of the job until it ends (`onStatus` gets each one); resolves with the last status,
 * or null when `signal` aborted first. Rejects when the stream cannot start or breaks (unknown job,
 * the service gone).
 */
export async function followJob(
  listen: Listen,
  jobId: string,
  onStatus: (status: JobStatusReply) => void,
  signal?: AbortSignal,
): Promise<JobStatusReply | null> {
  let last: JobStatusReply | null = null;
  await listen(
    'job.events',
    { jobId },
    (status) => {
      last = status;
      onStatus(status);
    },
    signal,
  );
  return signal?.aborted ? null : last;
}
