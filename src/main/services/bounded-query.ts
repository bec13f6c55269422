// One statement under a watchdog: a time limit and cancellation that reach the server.
//
// After `timeoutMs` (default 5 s for EXPLAIN) or when the caller's signal aborts, our own statement
// is stopped with KILL QUERY from a second connection (or by closing the connection when no killer
// is given), and the caller gets TIMEOUT / CANCELLED at once instead of waiting for the server.
// Used by EXPLAIN (explain.ts), selectivity samples, lock rewrites and the slow-log table reader.

import type { Connection } from 'mysql2/promise';
import { AdvisorError } from '../../shared/errors.js';
import type { QueryKiller } from './connection.js';

/** How long one statement may run, and how to stop it. */
export interface StatementBound {
  timeoutMs: number;
  signal?: AbortSignal;
  killQuery?: QueryKiller;
}

/**
 * Run one statement under a watchdog: after `timeoutMs` (or when `signal` aborts) our own statement
 * is stopped with KILL QUERY (or the connection is closed when no killer is given), and the caller
 * gets TIMEOUT / CANCELLED at once instead of waiting for the server.
 */
export async function boundedQuery<T>(
  connection: Connection,
  statement: string | { sql: string },
  bound: StatementBound,
): Promise<T> {
  if (bound.signal?.aborted) throw new AdvisorError('CANCELLED', 'Cancelled before it ran.');
  const threadId = (connection as { threadId?: number | null }).threadId ?? null;
  let stopped: 'timeout' | 'cancel' | null = null;
  let release: (() => void) | undefined;
  const stop = new Promise<never>((_resolve, reject) => {
    const fire = (why: 'timeout' | 'cancel'): void => {
      if (stopped) return;
      stopped = why;
      const seconds = Math.round(bound.timeoutMs / 100) / 10;
      reject(
        why === 'timeout'
          ? new AdvisorError('TIMEOUT', `Stopped after ${seconds} s: the statement did not finish in time.`, {
              hint: 'The statement was killed on the server (KILL QUERY of our own connection). Raise the time limit if the server is merely slow.',
            })
          : new AdvisorError('CANCELLED', 'Cancelled: the statement was stopped on the server.'),
      );
      const kill = bound.killQuery && threadId !== null ? bound.killQuery(threadId) : undefined;
      void (kill ?? Promise.resolve((connection as { destroy?: () => void }).destroy?.())).catch(() => {
        (connection as { destroy?: () => void }).destroy?.();
      });
    };
    const timer = setTimeout(() => fire('timeout'), bound.timeoutMs);
    const onAbort = (): void => fire('cancel');
    bound.signal?.addEventListener('abort', onAbort, { once: true });
    release = () => {
      clearTimeout(timer);
      bound.signal?.removeEventListener('abort', onAbort);
    };
  });
  stop.catch(() => undefined);
  const run = connection.query(statement as string) as unknown as Promise<[T, unknown]>;
  try {
    const [rows] = await Promise.race([run, stop]);
    return rows;
  } finally {
    release?.();
    // A killed statement still answers (with an error); never leave it unhandled.
    run.catch(() => undefined);
  }
}
