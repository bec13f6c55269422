// Shared steps of the Apply DDL / what-if lock-wait tests (issue 18, item 1): open an app connection to a
// scratch database, and wait until our ALTER queues for the metadata lock behind a holder's transaction.
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import type { Reply } from '../../src/shared/api.js';
import { waitFor } from './wait.js';

type Call = (method: string, request: unknown) => Promise<Reply<unknown>>;

/** Opens an app connection (connection.open) to `database` on the server at `url`; returns its id. */
export async function openAppConnection(
  call: Call,
  url: string,
  database: string,
  allowWhatIf: boolean,
): Promise<string> {
  const reply = await call('connection.open', {
    dsn: `${url.replace(/\/$/, '')}/${database}`,
    allowWhatIf,
  });
  if (!reply.ok) throw new Error(`connection.open: ${reply.error.message}`);
  return (reply.value as { connectionId: string }).connectionId;
}

/** Resolves once an ALTER TABLE in `database` waits for a metadata lock (seen from `observer`). */
export async function alterWaitsForMetadataLock(
  observer: mysql.Connection,
  database: string,
  timeoutMs = 10_000,
): Promise<void> {
  await waitFor(
    'the ALTER to wait for the metadata lock',
    async () => {
      const [rows] = await observer.query<RowDataPacket[]>(
        "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE LIKE 'Waiting for%metadata lock' AND INFO LIKE 'ALTER TABLE%'",
        [database],
      );
      return rows.length > 0;
    },
    timeoutMs,
  );
}
