// Shared by the lock view's query families (locks.ts and locks-*.ts): the server a poll reads, row access,
// and how a failed optional query becomes a problem entry naming the GRANT that fixes it.

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Capabilities, Flavor } from '../../core/flavors/capabilities.js';
import type { LockProblem } from '../../core/locks/snapshot.js';

/** The server a poll reads; `ServerInfo` from server-info.ts satisfies it. */
export interface LockServer {
  flavor: Flavor;
  capabilities: Capabilities & { performanceSchema?: boolean };
}

/** Wait pairs (and lock-count rows) read per poll at most, unless the caller asks otherwise. */
export const DEFAULT_LIMIT = 200;

export type Row = RowDataPacket & Record<string, unknown>;

export function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function num(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export interface DriverError {
  errno?: number;
  sqlMessage?: string;
  message?: string;
}

/** The GRANT or setting that fixes a failed lock-view query. */
export function privilegeFix(error: unknown, what: string): LockProblem | null {
  const driver = (error ?? {}) as DriverError;
  const text = driver.sqlMessage ?? driver.message ?? String(error);
  const base = { serverCode: driver.errno ?? 0, message: `${what}: ${text}` };
  if (driver.errno === 1227 && /PROCESS/i.test(text))
    return { area: 'waits', ...base, fix: 'GRANT PROCESS ON *.* TO <user>;' };
  // MySQL's 1142 names only the table (`… for table 'data_lock_waits'`), so the query context decides.
  if ((driver.errno === 1142 || driver.errno === 1044) && /performance_schema/i.test(`${text} ${what}`)) {
    return { area: 'waits', ...base, fix: 'GRANT SELECT ON performance_schema.* TO <user>;' };
  }
  if (driver.errno === 1227)
    return {
      area: 'waits',
      ...base,
      fix: 'GRANT PROCESS ON *.* TO <user>; (the message names the privilege)',
    };
  if (driver.errno === 1142 || driver.errno === 1044 || driver.errno === 1143)
    return { area: 'waits', ...base, fix: 'GRANT SELECT on the schema the message names.' };
  return null;
}

export async function rows(conn: Connection, sql: string, params: unknown[] = []): Promise<Row[]> {
  const [result] = await conn.query<Row[]>(sql, params);
  return result;
}

/** Run an optional query; failures become problems instead of exceptions. */
export async function optional(
  conn: Connection,
  area: LockProblem['area'],
  what: string,
  sql: string,
  params: unknown[],
  problems: LockProblem[],
): Promise<Row[] | null> {
  try {
    return await rows(conn, sql, params);
  } catch (error) {
    const problem = privilegeFix(error, what);
    const driver = (error ?? {}) as DriverError;
    problems.push(
      problem
        ? { ...problem, area }
        : {
            area,
            message: `${what}: ${driver.sqlMessage ?? driver.message ?? String(error)}`,
            fix: 'See the server error.',
            serverCode: driver.errno ?? 0,
          },
    );
    return null;
  }
}

export function splitTableName(text: string | null): [string | null, string | null] {
  if (!text) return [null, null];
  const parts = text.match(/`(?:[^`]|``)*`|[^.`]+/g) ?? [];
  const names = parts.map((part) => (part.startsWith('`') ? part.slice(1, -1).replace(/``/g, '`') : part));
  return names.length >= 2 ? [names[0] ?? null, names.slice(1).join('.')] : [null, names[0] ?? null];
}
