// The latest deadlock (step 6 of the design note in locks.ts), from SHOW ENGINE INNODB STATUS.

import type { Connection } from 'mysql2/promise';
import { parseLatestDeadlock, type Deadlock } from '../../core/locks/deadlock.js';
import type { LockProblem } from '../../core/locks/snapshot.js';
import { optional } from './locks-shared.js';

/** The latest deadlock from SHOW ENGINE INNODB STATUS (PROCESS privilege). */
export async function readLatestDeadlock(
  conn: Connection,
  problems: LockProblem[],
): Promise<Deadlock | null> {
  const result = await optional(
    conn,
    'deadlocks',
    'SHOW ENGINE INNODB STATUS',
    'SHOW ENGINE INNODB STATUS',
    [],
    problems,
  );
  const status = result?.[0]?.Status;
  return typeof status === 'string' ? parseLatestDeadlock(status) : null;
}
