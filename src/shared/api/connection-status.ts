// API area: the state of an open connection (connected, reconnecting with backoff, closed) for the status bar.

import { z } from 'zod';

const statusSchema = z.object({
  connectionId: z.string().min(1),
  /**
   * Try to reconnect now when the connection was lost, ignoring the backoff wait ("Retry now").
   * Without it, a status call still makes the attempt that is due, so an idle window heals too.
   */
  retryNow: z.boolean().optional(),
});

/** What the status bar shows about a connection. Mirrors the ManagedConnection's LinkStatus. */
export interface ConnectionStatus {
  /** `open`: usable; `reconnecting`: lost, retried with backoff; `closed`: disconnected or unknown id. */
  state: 'open' | 'reconnecting' | 'closed';
  /** Failed reconnect attempts since the connection was lost. */
  failedAttempts: number;
  /** Milliseconds until the next attempt may run (0 when it may run now). */
  nextAttemptInMs: number;
  /** How often the connection came back after a loss. */
  reconnects: number;
  /** Why the last attempt failed (host:port and the server's or the network's message, never a password). */
  lastError?: string;
}

export const connectionStatusSchemas = {
  'connection.status': statusSchema,
} as const;

export interface ConnectionStatusApi {
  /** State of the connection; makes the reconnect attempt that is due (or one now with `retryNow`). */
  'connection.status'(request: z.input<typeof statusSchema>): Promise<ConnectionStatus>;
}
