// Unused indexes from the server's usage counters (core/indexing/unused.ts decides; this reads the counters).
/*
 * Sources, in order: performance_schema.table_io_waits_summary_by_index_usage when performance_schema is
 * ON and the table I/O instrument is enabled (MySQL's default; the table sys.schema_unused_indexes reads);
 * else, on MariaDB, information_schema.INDEX_STATISTICS when userstat is ON. Otherwise the answer is
 * "cannot tell", with what would make the server able to tell. Read-only: SELECTs and SHOW on the
 * analysis session; nothing is switched on for the user.
 */

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { classifyUnused, unknownUsage, type UnusedIndexReport } from '../../core/indexing/unused.js';
import type { ForeignKeyRef } from '../../core/export/drops.js';
import type { SchemaModel } from '../../core/model/schema.js';
import type { ServerInfo } from '../../core/model/server-info.js';

async function rows(connection: Connection, sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [result] = await connection.query<RowDataPacket[]>(sql, params);
  return result;
}

async function uptime(connection: Connection): Promise<number | null> {
  const [row] = await rows(connection, "SHOW GLOBAL STATUS LIKE 'Uptime'").catch(() => []);
  const value = Number(row?.Value ?? row?.VALUE);
  return Number.isFinite(value) && row ? value : null;
}

async function variable(
  connection: Connection,
  name: 'performance_schema' | 'userstat',
): Promise<string | null> {
  const [row] = await rows(connection, 'SHOW GLOBAL VARIABLES LIKE ?', [name]).catch(() => []);
  return row ? String(row.Value ?? row.VALUE ?? '') : null;
}

const on = (value: string | null) => value !== null && /^(1|on|yes)$/i.test(value);

/** Unused indexes of `database` (or of `tables` in it), with the window the counters cover. */
export async function unusedIndexes(
  connection: Connection,
  server: ServerInfo,
  database: string,
  schema: SchemaModel,
  tables?: readonly string[],
  needed?: readonly { table: string; index: string }[],
): Promise<UnusedIndexReport> {
  const uptimeSeconds = await uptime(connection);
  try {
    const foreignKeys = await readForeignKeys(connection, database);
    const common = {
      uptimeSeconds,
      foreignKeys,
      ...(tables ? { tables } : {}),
      ...(needed ? { needed } : {}),
    };
    if (on(await variable(connection, 'performance_schema'))) {
      const [instrument] = await rows(
        connection,
        "SELECT ENABLED AS enabled FROM performance_schema.setup_instruments WHERE NAME = 'wait/io/table/sql/handler'",
      );
      if (instrument && String(instrument.enabled).toUpperCase() === 'YES') {
        const usage = await rows(
          connection,
          `SELECT OBJECT_NAME AS tbl, INDEX_NAME AS idx, COUNT_STAR AS n
             FROM performance_schema.table_io_waits_summary_by_index_usage
            WHERE OBJECT_TYPE = 'TABLE' AND OBJECT_SCHEMA = ?`,
          [database],
        );
        return classifyUnused(schema, server, {
          source: 'performance_schema',
          usage: usage
            .filter((row) => row.idx !== null)
            .map((row) => ({ table: String(row.tbl), index: String(row.idx), reads: Number(row.n) })),
          observed: new Set(usage.map((row) => String(row.tbl).toLowerCase())),
          ...common,
        });
      }
      if (server.flavor !== 'mariadb')
        return unknownUsage(
          "Cannot tell which indexes are unused: performance_schema's table I/O instrument (wait/io/table/sql/handler) is disabled. Enable it (UPDATE performance_schema.setup_instruments SET ENABLED = 'YES' WHERE NAME = 'wait/io/table/sql/handler') and let the workload run.",
          uptimeSeconds,
        );
    }
    if (server.flavor === 'mariadb') {
      if (!on(await variable(connection, 'userstat')))
        return unknownUsage(
          'Cannot tell which indexes are unused: MariaDB counts index reads only with userstat=ON (SET GLOBAL userstat=ON, counted from then on; information_schema.INDEX_STATISTICS) or performance_schema=ON (a restart). Both are OFF here.',
          uptimeSeconds,
        );
      const usage = await rows(
        connection,
        'SELECT TABLE_NAME AS tbl, INDEX_NAME AS idx, ROWS_READ AS n FROM information_schema.INDEX_STATISTICS WHERE TABLE_SCHEMA = ?',
        [database],
      );
      return classifyUnused(schema, server, {
        source: 'index_statistics',
        usage: usage.map((row) => ({ table: String(row.tbl), index: String(row.idx), reads: Number(row.n) })),
        observed: null,
        ...common,
      });
    }
    return unknownUsage(
      'Cannot tell which indexes are unused: performance_schema is OFF on this server. Start it with performance_schema=ON (a restart) and let the workload run.',
      uptimeSeconds,
    );
  } catch (error) {
    return unknownUsage(
      `Cannot tell which indexes are unused: the usage counters could not be read (${(error as Error).message}). GRANT SELECT ON performance_schema.* to this user.`,
      uptimeSeconds,
    );
  }
}

/**
 * The FOREIGN KEYs of `database`'s tables and those (of any database) that reference its tables: the child
 * columns and the referenced (parent) columns. A table of another database is named `db.table`, so it
 * never matches a table of this one.
 */
export async function readForeignKeys(connection: Connection, database: string): Promise<ForeignKeyRef[]> {
  const found = await rows(
    connection,
    `SELECT TABLE_SCHEMA AS db, TABLE_NAME AS tbl, CONSTRAINT_NAME AS name, COLUMN_NAME AS col,
            REFERENCED_TABLE_SCHEMA AS refdb, REFERENCED_TABLE_NAME AS reftbl, REFERENCED_COLUMN_NAME AS refcol
       FROM information_schema.KEY_COLUMN_USAGE
      WHERE (TABLE_SCHEMA = ? OR REFERENCED_TABLE_SCHEMA = ?) AND REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    [database, database],
  );
  const local = (db: unknown, table: unknown) =>
    String(db) === database ? String(table) : `${String(db)}.${String(table)}`;
  const keys = new Map<string, ForeignKeyRef>();
  for (const row of found) {
    const id = `${String(row.db)}\u0000${String(row.tbl)}\u0000${String(row.name)}`;
    let key = keys.get(id);
    if (!key)
      keys.set(
        id,
        (key = {
          table: local(row.db, row.tbl),
          name: String(row.name),
          columns: [],
          referencedTable: local(row.refdb, row.reftbl),
          referencedColumns: [],
        }),
      );
    key.columns.push(String(row.col));
    key.referencedColumns!.push(String(row.refcol));
  }
  return [...keys.values()];
}
