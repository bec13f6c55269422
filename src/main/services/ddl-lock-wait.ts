// Apply DDL and what-if DDL must never stall production. An ALTER waits for the table's metadata lock
// behind any open transaction that read the table, and every later query on the table queues behind
// the waiting ALTER. These connections therefore run with a short session lock_wait_timeout: the ALTER
// gives up after a few seconds, and the error names the sessions holding the lock and the online
// alternatives (pt-online-schema-change, gh-ost).

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { AdvisorError } from '../../shared/errors.js';

/** Seconds an Apply / what-if ALTER waits for a metadata lock before it gives up. */
export const DEFAULT_DDL_LOCK_WAIT_SECONDS = 5;

/** The longest wait a caller may configure (an hour would stall a busy table for an hour). */
export const MAX_DDL_LOCK_WAIT_SECONDS = 600;

/** The wait limit in whole seconds, within 1 … MAX_DDL_LOCK_WAIT_SECONDS. */
export function lockWaitSeconds(seconds: number | undefined): number {
  return Math.max(
    1,
    Math.min(MAX_DDL_LOCK_WAIT_SECONDS, Math.round(seconds ?? DEFAULT_DDL_LOCK_WAIT_SECONDS)),
  );
}

/** Set the session's lock_wait_timeout (metadata-lock waits) on a write connection; returns the seconds set. */
export async function limitLockWait(connection: Connection, seconds?: number): Promise<number> {
  const value = lockWaitSeconds(seconds);
  await connection.query(`SET SESSION lock_wait_timeout = ${value}`);
  return value;
}

/** A session holding (or likely holding) a table's metadata lock. */
export interface LockHolder {
  threadId: number;
  user: string | null;
  host: string | null;
  /** What it runs now (null: idle in an open transaction). */
  statement: string | null;
  /** Seconds since its transaction started, when it has one. */
  trxAgeSeconds: number | null;
  /** Where the attribution comes from: exact metadata locks, or open transactions (likely holders). */
  source: 'metadata_locks' | 'metadata_lock_info' | 'open-transaction';
}

const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number | null =>
  value === null || value === undefined || Number.isNaN(Number(value)) ? null : Number(value);

async function optionalRows(
  connection: Connection,
  sql: string,
  params: unknown[],
): Promise<RowDataPacket[] | null> {
  try {
    const [rows] = await connection.query<RowDataPacket[]>(sql, params);
    return rows;
  } catch {
    return null;
  }
}

/**
 * Who holds metadata locks on the table, other than this connection: MySQL's
 * performance_schema.metadata_locks when instrumented, MariaDB's METADATA_LOCK_INFO plugin when
 * installed, else every session with an open InnoDB transaction (the likely holders).
 */
export async function metadataLockHolders(
  connection: Connection,
  database: string | null,
  table: string,
): Promise<LockHolder[]> {
  const [own] = await connection.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id, DATABASE() AS db');
  const ownId = Number(own[0]?.id);
  const schema = database ?? str(own[0]?.db);
  const session = `SELECT p.ID AS id, p.USER AS user, p.HOST AS host, p.INFO AS info,
                          TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
                     FROM information_schema.PROCESSLIST p
                     LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID`;
  const toHolder =
    (source: LockHolder['source']) =>
    (row: RowDataPacket): LockHolder => ({
      threadId: Number(row.id),
      user: str(row.user),
      host: str(row.host),
      statement: str(row.info),
      trxAgeSeconds: num(row.age),
      source,
    });

  const exact = await optionalRows(
    connection,
    `SELECT DISTINCT t.PROCESSLIST_ID AS id
       FROM performance_schema.metadata_locks m
       JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
      WHERE m.OBJECT_TYPE = 'TABLE' AND m.OBJECT_SCHEMA = ? AND m.OBJECT_NAME = ? AND m.LOCK_STATUS = 'GRANTED'
        AND t.PROCESSLIST_ID IS NOT NULL AND t.PROCESSLIST_ID <> ?`,
    [schema, table, ownId],
  );
  if (exact && exact.length > 0) {
    const rows = await optionalRows(connection, `${session} WHERE p.ID IN (?)`, [exact.map((row) => row.id)]);
    if (rows && rows.length > 0) return rows.map(toHolder('metadata_locks'));
  }

  const info = await optionalRows(
    connection,
    `SELECT DISTINCT THREAD_ID AS id FROM information_schema.METADATA_LOCK_INFO
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND THREAD_ID <> ?`,
    [schema, table, ownId],
  );
  if (info && info.length > 0) {
    const rows = await optionalRows(connection, `${session} WHERE p.ID IN (?)`, [info.map((row) => row.id)]);
    if (rows && rows.length > 0) return rows.map(toHolder('metadata_lock_info'));
  }

  const open = await optionalRows(
    connection,
    `${session} WHERE t.trx_mysql_thread_id IS NOT NULL AND p.ID <> ? ORDER BY t.trx_started LIMIT 20`,
    [ownId],
  );
  return (open ?? []).map(toHolder('open-transaction'));
}

/** True for "Lock wait timeout exceeded" (1205), the error a metadata-lock wait ends with. */
export function isLockWaitTimeout(error: unknown): boolean {
  return (error as { errno?: number } | null)?.errno === 1205;
}

function describeHolder(holder: LockHolder): string {
  const who = [holder.user, holder.host].filter(Boolean).join('@');
  const age = holder.trxAgeSeconds !== null ? `, transaction open ${holder.trxAgeSeconds} s` : '';
  const doing = holder.statement
    ? `, running: ${holder.statement.slice(0, 120)}`
    : ', idle in its transaction';
  return `session ${holder.threadId}${who ? ` (${who})` : ''}${age}${doing}`;
}

/**
 * The error shown when the ALTER gave up waiting for the metadata lock: nothing was changed, who holds
 * the lock, and what to do (commit/kill the holder, or an online schema change).
 */
export function lockTimeoutError(
  error: unknown,
  options: { action: string; table: string; seconds: number; holders: LockHolder[] },
): AdvisorError {
  const { holders } = options;
  const exact = holders.some((holder) => holder.source !== 'open-transaction');
  const named =
    holders.length === 0
      ? 'The holder is no longer visible (its transaction ended while we looked).'
      : `${exact ? 'Held by' : 'Likely held by (open transactions; metadata locks are not instrumented on this server)'}: ${holders
          .slice(0, 5)
          .map(describeHolder)
          .join('; ')}${holders.length > 5 ? `; and ${holders.length - 5} more` : ''}.`;
  const driver = error as { errno?: number; sqlState?: string };
  return new AdvisorError(
    'TIMEOUT',
    `${options.action} gave up after waiting ${options.seconds} s for the metadata lock on ${options.table} (lock_wait_timeout), so later queries on the table were not queued behind it. ${named}`,
    {
      hint: `Let the holding transaction commit or roll back (or kill it from the Locks view), then retry; or change the table online without a long metadata lock: export the change as a pt-online-schema-change or gh-ost script. The wait limit is set in the Apply dialog (default ${DEFAULT_DDL_LOCK_WAIT_SECONDS} s; API: lockWaitTimeoutSeconds).`,
      ...(driver?.errno && driver.sqlState ? { serverCode: driver.errno, sqlState: driver.sqlState } : {}),
    },
    { cause: error },
  );
}
