// One statement under a watchdog: a time limit and cancellation that reach the server.
//
// After `timeoutMs` (default 5 s for EXPLAIN) or when the caller's signal aborts, our own statement
// is stopped with KILL QUERY of our own thread from a second connection, and the caller gets TIMEOUT /
// CANCELLED at once instead of waiting for the server. Closing our socket would not stop it: the
// server keeps running a statement (SLEEP, a metadata-lock wait, a long scan) after the client left,
// so closing is only the last resort when no kill can be delivered. The killer is the caller's or the
// one connect() attaches to every connection it opens, so no watchdog can forget it.
// Used by EXPLAIN (explain.ts), selectivity samples, lock rewrites and the slow-log table reader.

import type { Connection } from 'mysql2/promise';
import type { ServerInfo } from '../../core/model/server-info.js';
import { AdvisorError } from '../../shared/errors.js';
import { queryKillerOf, type QueryKiller } from './connection.js';

/** How long one statement may run, and how to stop it. */
export interface StatementBound {
  timeoutMs: number;
  signal?: AbortSignal;
  killQuery?: QueryKiller;
}

/** How long a watchdog waits for its KILL QUERY before it closes the connection instead. */
const KILL_WAIT_MS = 3_000;

/**
 * Stop the statement running on `connection`: KILL QUERY of its thread from a second connection
 * (`killQuery`, else the killer {@link connect} attached to the connection). Closing the socket is
 * only the last resort (no killer, or the kill failed or hung): the server would go on running the
 * statement, so the watchdogs never rely on it.
 */
export async function stopOnServer(
  connection: Connection,
  killQuery: QueryKiller | undefined,
): Promise<void> {
  const threadId = (connection as { threadId?: number | null }).threadId ?? null;
  const killer = killQuery ?? queryKillerOf(connection);
  const destroy = (): void => (connection as { destroy?: () => void }).destroy?.();
  if (!killer || threadId === null) return destroy();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const killed = await Promise.race([
    killer(threadId).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), KILL_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!killed) destroy();
}

/**
 * Run one statement under a watchdog: after `timeoutMs` (or when `signal` aborts) our own statement
 * is stopped on the server with KILL QUERY of our own thread from a second connection, and the caller
 * gets TIMEOUT / CANCELLED as soon as the kill was delivered (not when the server gets round to
 * answering). The caller's next statement on the connection is never hit by the kill: it is only
 * answered after the kill went out.
 */
export async function boundedQuery<T>(
  connection: Connection,
  statement: string | { sql: string },
  bound: StatementBound,
): Promise<T> {
  if (bound.signal?.aborted) throw new AdvisorError('CANCELLED', 'Cancelled before it ran.');
  let killing: Promise<void> | undefined;
  let release: (() => void) | undefined;
  const stop = new Promise<never>((_resolve, reject) => {
    const fire = (why: 'timeout' | 'cancel'): void => {
      if (killing) return;
      const seconds = Math.round(bound.timeoutMs / 100) / 10;
      const error =
        why === 'timeout'
          ? new AdvisorError('TIMEOUT', `Stopped after ${seconds} s: the statement did not finish in time.`, {
              hint: 'The statement was killed on the server (KILL QUERY of our own connection). Raise the time limit if the server is merely slow.',
            })
          : new AdvisorError('CANCELLED', 'Cancelled: the statement was stopped on the server.');
      killing = stopOnServer(connection, bound.killQuery).finally(() => reject(error));
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
    // The statement finished while the kill was on its way: answer after it, so it cannot hit the next one.
    if (killing) await killing.catch(() => undefined);
  }
}

/**
 * A read-only SELECT limited by the server itself where it can: MySQL's MAX_EXECUTION_TIME hint, or
 * MariaDB's SET STATEMENT max_statement_time … FOR (else as written: the boundedQuery watchdog stays).
 */
export function serverTimeLimitedSelect(select: string, server: ServerInfo, timeoutMs: number): string {
  if (server.capabilities.maxExecutionTimeHint)
    return select.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${timeoutMs}) */ `);
  if (server.capabilities.maxStatementTime)
    return `SET STATEMENT max_statement_time=${(timeoutMs / 1000).toFixed(3)} FOR ${select}`;
  return select;
}
