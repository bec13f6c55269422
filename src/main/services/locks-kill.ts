// Ending a blocking session after confirmation: KILL [QUERY] of a thread the live view showed.

import type { Connection } from 'mysql2/promise';
import { AdvisorError } from '../../shared/errors.js';
import type { DriverError } from './locks-shared.js';

/**
 * `KILL QUERY n` or `KILL CONNECTION n`. Never call this automatically: the UI and CLI must first show a
 * confirmation naming the thread id, user and statement, and call it only after the user accepts.
 */
export async function killSession(
  conn: Connection,
  threadId: number,
  scope: 'query' | 'connection',
): Promise<void> {
  if (!Number.isInteger(threadId) || threadId <= 0)
    throw new AdvisorError('INVALID_INPUT', `Not a thread id: ${threadId}`);
  try {
    await conn.query(`KILL ${scope === 'query' ? 'QUERY' : 'CONNECTION'} ${threadId}`);
  } catch (error) {
    const driver = (error ?? {}) as DriverError;
    if (driver.errno === 1095) {
      throw new AdvisorError(
        'PRIVILEGE_MISSING',
        `You are not the owner of thread ${threadId}.`,
        {
          serverCode: 1095,
          hint: "Killing another user's session needs CONNECTION_ADMIN (MySQL 8) or SUPER / CONNECTION ADMIN (MariaDB).",
        },
        { cause: error },
      );
    }
    if (driver.errno === 1094)
      throw new AdvisorError(
        'NOT_FOUND',
        `Unknown thread id ${threadId}: it may have finished already.`,
        { serverCode: 1094 },
        { cause: error },
      );
    throw error;
  }
}
