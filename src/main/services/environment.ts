// Reads what makes DDL risky on a live server: cluster variables and table sizes (read-only, bounded).

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { TableStats } from '../../core/export/index.js';

/** Variables the export's warnings look at (Group Replication, Galera). */
export const ENVIRONMENT_VARIABLES = [
  'group_replication_group_name',
  'group_replication_consistency',
  'wsrep_on',
  'wsrep_provider',
  'wsrep_osu_method',
] as const;

/** Global variables relevant to online DDL; missing ones (plugin not loaded) are simply absent. */
export async function readDdlEnvironment(connection: Connection): Promise<Record<string, string | null>> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN (${ENVIRONMENT_VARIABLES.map(() => '?').join(',')})`,
    [...ENVIRONMENT_VARIABLES],
  );
  return Object.fromEntries(
    rows.map((row) => [String(row.Variable_name), row.Value === null ? null : String(row.Value)]),
  );
}

/** Rows and bytes of the given tables from information_schema, by lower-case name. */
export async function readTableStats(
  connection: Connection,
  database: string,
  tables: readonly string[],
): Promise<Record<string, TableStats>> {
  if (tables.length === 0) return {};
  const [rows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, TABLE_ROWS AS table_rows, DATA_LENGTH AS data_bytes, INDEX_LENGTH AS index_bytes
       FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (${tables.map(() => '?').join(',')})`,
    [database, ...tables],
  );
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return Object.fromEntries(
    rows.map((row) => [
      String(row.name).toLowerCase(),
      {
        rows: number(row.table_rows),
        dataBytes: number(row.data_bytes),
        indexBytes: number(row.index_bytes),
      },
    ]),
  );
}
