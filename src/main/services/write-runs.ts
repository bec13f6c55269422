// Cancel of a running Apply DDL or what-if: KILL QUERY of our own statement, from a second connection.
/*
 * Design note.
 * The renderer names each run with an id of its own (`runId`). While the run works, the write
 * connections it opens report their thread ids here (Apply: the handler's write connection; what-if:
 * `ConnectionTarget.onWriteSession`, called by connect() for each read-write connection it opens). Cancel
 * marks the run cancelled and sends `KILL QUERY <thread>` for each of them through a fresh read-only
 * connection (any user may kill its own statements: no PROCESS or SUPER needed). Only threads a run of
 * this process opened can be killed this way, and only for the same connection id, so the id cannot be
 * used to stop another session. KILL QUERY ends the statement, not the connection: an ALTER waiting for
 * a metadata lock stops at once (ERROR 1317) and what-if still drops what it built on the same connection.
 */

import { randomUUID } from 'node:crypto';
import { queryKiller, type ConnectionTarget } from './connection.js';

interface Run {
  connectionId: string;
  target: ConnectionTarget;
  threads: Set<number>;
  cancelled: boolean;
}

/** One running write (Apply DDL, what-if) that can be cancelled. */
export interface WriteRun {
  readonly id: string;
  /** The target to connect with: its read-write connections report their thread ids to the run. */
  readonly target: ConnectionTarget;
  /** Record a write connection of this run (its `threadId`). */
  attach(threadId: number): void;
  /** True once Cancel was asked for. */
  readonly cancelled: boolean;
  /** The run ended (success or error): it can no longer be cancelled. */
  end(): void;
}

/** The running writes of this process, by run id. */
export class WriteRuns {
  private readonly runs = new Map<string, Run>();

  /** Start a run (a fresh id when the caller gave none). */
  begin(runId: string | undefined, connectionId: string, target: ConnectionTarget): WriteRun {
    const id = runId ?? randomUUID();
    const run: Run = { connectionId, target, threads: new Set(), cancelled: false };
    this.runs.set(id, run);
    return {
      id,
      target: { ...target, onWriteSession: (threadId) => run.threads.add(threadId) },
      attach: (threadId) => run.threads.add(threadId),
      get cancelled() {
        return run.cancelled;
      },
      end: () => {
        if (this.runs.get(id) === run) this.runs.delete(id);
      },
    };
  }

  /**
   * KILL QUERY the statements of a run; false when no such run is in progress on that connection (it
   * ended already, or never existed).
   */
  async cancel(runId: string, connectionId: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run || run.connectionId !== connectionId) return false;
    run.cancelled = true;
    const kill = queryKiller(run.target);
    await Promise.all([...run.threads].map((threadId) => kill(threadId).catch(() => undefined)));
    return true;
  }
}
