// Web mode's event streams: POST /events/<channel> answers with newline-delimited EventMessages until the stream ends.
/*
 * The bridge authenticates the request exactly as /rpc/ (session cookie or token header) before it
 * gets here. The response is chunked `application/x-ndjson`, one EventMessage per line, flushed as
 * it happens; the client closing the connection (fetch aborted, page closed) aborts the stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runSubscription, type EventHandlers } from '../../shared/events.js';

/** Streams one subscription on `response`. */
export async function streamEvents(
  handlers: EventHandlers,
  channel: string,
  args: unknown,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  // The client went away: 'close' on the response fires when the socket closes before end().
  response.on('close', stop);
  request.on('aborted', stop);
  response.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.flushHeaders();
  await runSubscription(
    handlers,
    channel,
    args,
    (message) => {
      if (!response.writableEnded && !response.destroyed) response.write(`${JSON.stringify(message)}\n`);
    },
    controller.signal,
  );
  response.off('close', stop);
  if (!response.writableEnded) response.end();
}
