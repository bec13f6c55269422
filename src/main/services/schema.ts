// Loads the SchemaModel of live tables, views and (MariaDB) sequences from information_schema
// (read-only, bounded).

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { ColumnInfo, IndexInfo, SchemaModel, TableInfo } from '../../core/model/schema.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import {
  columnTypeLabel,
  type OutlineDatabase,
  type OutlineTable,
  type SchemaOutline,
} from '../../core/sql/completion.js';

/** At most this many tables are loaded per call (an advisor never needs a whole 10k-table instance). */
export const MAX_TABLES = 500;

/**
 * Load tables, views and sequences of `database` (all of them, bounded by MAX_TABLES, or only
 * `tableNames`). Views have their columns (with the types the server derives) and no indexes.
 * Column order, generated expressions, collations, INVISIBLE columns and index parts (with
 * functional expressions on MySQL >= 8.0.13, and index visibility) are read.
 */
export async function loadSchema(
  connection: Connection,
  server: ServerInfo,
  database: string,
  tableNames?: readonly string[],
): Promise<SchemaModel> {
  const filter =
    tableNames && tableNames.length > 0 ? ` AND TABLE_NAME IN (${tableNames.map(() => '?').join(',')})` : '';
  const params = [database, ...(tableNames ?? [])];
  // MariaDB lists system-versioned tables as TABLE_TYPE 'SYSTEM VERSIONED': they are base tables too.
  // Views and MariaDB sequences are read as well (kind 'view' / 'sequence', as the DDL loader marks
  // them), so queries on them resolve their columns and no index is proposed on them; base tables
  // come first when MAX_TABLES cuts the list. Every information_schema read is filtered by
  // TABLE_SCHEMA (MariaDB 10.11 has crashed reading COLUMNS broadly under load).
  const [tableRows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, TABLE_TYPE AS type, ENGINE AS engine, TABLE_COLLATION AS collation, TABLE_ROWS AS table_rows
       FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED', 'VIEW', 'SEQUENCE')${filter}
      ORDER BY TABLE_TYPE IN ('VIEW', 'SEQUENCE'), TABLE_NAME LIMIT ${MAX_TABLES}`,
    params,
  );
  if (tableRows.length === 0) return { source: 'live', tables: [] };
  const names = tableRows.map((row) => String(row.name));
  const inList = names.map(() => '?').join(',');
  const [columnRows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS name, DATA_TYPE AS data_type, COLUMN_TYPE AS column_type,
            IS_NULLABLE AS nullable, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation,
            GENERATION_EXPRESSION AS generation, EXTRA AS extra, COLUMN_DEFAULT AS column_default
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (${inList})
      ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [database, ...names],
  );
  const expressionColumn = server.capabilities.functionalIndexes ? 'EXPRESSION' : 'NULL';
  const visibleColumn =
    server.flavor === 'mariadb'
      ? "IF(IGNORED = 'YES', 'NO', 'YES')"
      : server.capabilities.invisibleIndexes
        ? 'IS_VISIBLE'
        : "'YES'";
  const [indexRows] = await connection
    .query<RowDataPacket[]>(
      `SELECT TABLE_NAME AS table_name, INDEX_NAME AS name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq,
              COLUMN_NAME AS column_name, SUB_PART AS sub_part, INDEX_TYPE AS index_type,
              ${expressionColumn} AS expression, ${visibleColumn} AS visible
         FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (${inList})
        ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
      [database, ...names],
    )
    .catch(async () =>
      // Older MariaDB has no IGNORED column: fall back to all-visible.
      connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS table_name, INDEX_NAME AS name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq,
                COLUMN_NAME AS column_name, SUB_PART AS sub_part, INDEX_TYPE AS index_type, NULL AS expression, 'YES' AS visible
           FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (${inList})
          ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
        [database, ...names],
      ),
    );

  const tables = new Map<string, TableInfo>();
  for (const row of tableRows) {
    const type = String(row.type ?? '').toUpperCase();
    const kind = type === 'VIEW' ? 'view' : type === 'SEQUENCE' ? 'sequence' : undefined;
    tables.set(String(row.name), {
      schema: database,
      name: String(row.name),
      columns: [],
      indexes: [],
      engine: row.engine === null ? null : String(row.engine),
      // A sequence has no textual column: no collation (information_schema gives the database's).
      collation: row.collation === null || kind === 'sequence' ? null : String(row.collation),
      rowsEstimate: kind === 'view' || row.table_rows === null ? null : Number(row.table_rows),
      ...(kind ? { kind } : {}),
    });
  }
  for (const row of columnRows) {
    const table = tables.get(String(row.table_name));
    if (!table) continue;
    // A view's column is not generated nor AUTO_INCREMENT of its own (those belong to the base table).
    const ownColumn = table.kind !== 'view';
    const extra = ownColumn ? String(row.extra ?? '').toLowerCase() : '';
    const generation = ownColumn && row.generation ? String(row.generation) : '';
    const column: ColumnInfo = {
      name: String(row.name),
      dataType: String(row.data_type).toLowerCase(),
      columnType: String(row.column_type).toLowerCase(),
      nullable: row.nullable === 'YES',
      charset: row.charset === null ? null : String(row.charset),
      collation: row.collation === null ? null : String(row.collation),
      generated: generation
        ? { expression: generation, stored: extra.includes('stored') || extra.includes('persistent') }
        : null,
      autoIncrement: extra.includes('auto_increment'),
      hasDefault: row.column_default !== null,
    };
    // INVISIBLE columns (MySQL >= 8.0.23, MariaDB >= 10.3) say so in EXTRA, as the DDL loader marks
    // them: `SELECT *` leaves them out, and an INSERT without a column list does not fill them.
    if (/\binvisible\b/.test(extra)) column.invisible = true;
    table.columns.push(column);
  }
  for (const row of indexRows) {
    const table = tables.get(String(row.table_name));
    if (!table) continue;
    const name = String(row.name);
    let index: IndexInfo | undefined = table.indexes.find((candidate) => candidate.name === name);
    if (!index) {
      const type = String(row.index_type ?? '').toUpperCase();
      index = {
        name,
        unique: Number(row.non_unique) === 0,
        primary: name === 'PRIMARY',
        kind:
          type === 'FULLTEXT'
            ? 'fulltext'
            : type === 'SPATIAL'
              ? 'spatial'
              : type === 'HASH'
                ? 'hash'
                : 'btree',
        parts: [],
        visible: String(row.visible ?? 'YES').toUpperCase() === 'YES',
      };
      table.indexes.push(index);
    }
    index.parts.push({
      column: row.column_name === null ? null : String(row.column_name),
      expression: row.expression ? String(row.expression) : null,
      prefixLength: row.sub_part === null ? null : Number(row.sub_part),
    });
  }
  return { source: 'live', tables: [...tables.values()] };
}

/** At most this many tables and views go into a completion outline (default database first). */
export const MAX_OUTLINE_TABLES = 2000;
/** At most this many columns go into a completion outline. */
export const MAX_OUTLINE_COLUMNS = 40_000;
/** At most this many databases are listed. */
export const MAX_OUTLINE_DATABASES = 1000;

const SYSTEM_SCHEMAS = "('mysql', 'information_schema', 'performance_schema', 'sys')";

/**
 * The names SQL completion needs: user databases, their tables and views, and the columns with types.
 * Read-only (three SELECTs on information_schema, fine behind the statement guard) and bounded for
 * huge instances: the default database comes first, then the others by name, up to MAX_OUTLINE_TABLES
 * tables and MAX_OUTLINE_COLUMNS columns; `truncated` says when something was left out.
 */
export async function loadOutline(connection: Connection, database: string | null): Promise<SchemaOutline> {
  const [databaseRows] = await connection.query<RowDataPacket[]>(
    `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ${SYSTEM_SCHEMAS}
      ORDER BY SCHEMA_NAME = ? DESC, SCHEMA_NAME LIMIT ${MAX_OUTLINE_DATABASES + 1}`,
    [database],
  );
  const [tableRows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_SCHEMA AS db, TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES
      WHERE TABLE_SCHEMA NOT IN ${SYSTEM_SCHEMAS}
      ORDER BY TABLE_SCHEMA = ? DESC, TABLE_SCHEMA, TABLE_NAME LIMIT ${MAX_OUTLINE_TABLES + 1}`,
    [database],
  );
  let truncated = databaseRows.length > MAX_OUTLINE_DATABASES || tableRows.length > MAX_OUTLINE_TABLES;
  const databases = new Map<string, OutlineDatabase>();
  for (const row of databaseRows.slice(0, MAX_OUTLINE_DATABASES)) {
    databases.set(String(row.name), { name: String(row.name), tables: [] });
  }
  const tables = new Map<string, OutlineTable>();
  for (const row of tableRows.slice(0, MAX_OUTLINE_TABLES)) {
    const name = String(row.db);
    let entry = databases.get(name);
    if (!entry) {
      entry = { name, tables: [] };
      databases.set(name, entry);
    }
    const table: OutlineTable = {
      name: String(row.name),
      kind: /VIEW/i.test(String(row.type)) ? 'view' : 'table',
      columns: [],
    };
    entry.tables.push(table);
    tables.set(`${name}\u0000${table.name}`, table);
  }
  const withTables = [...databases.values()]
    .filter((entry) => entry.tables.length > 0)
    .map((entry) => entry.name);
  if (withTables.length > 0) {
    const [columnRows] = await connection.query<RowDataPacket[]>(
      `SELECT TABLE_SCHEMA AS db, TABLE_NAME AS table_name, COLUMN_NAME AS name, COLUMN_TYPE AS type
         FROM information_schema.COLUMNS WHERE TABLE_SCHEMA IN (${withTables.map(() => '?').join(',')})
        ORDER BY TABLE_SCHEMA = ? DESC, TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION LIMIT ${MAX_OUTLINE_COLUMNS + 1}`,
      [...withTables, database],
    );
    if (columnRows.length > MAX_OUTLINE_COLUMNS) truncated = true;
    for (const row of columnRows.slice(0, MAX_OUTLINE_COLUMNS)) {
      tables
        .get(`${String(row.db)}\u0000${String(row.table_name)}`)
        ?.columns.push({ name: String(row.name), type: columnTypeLabel(String(row.type)) });
    }
  }
  return { defaultDatabase: database, databases: [...databases.values()], truncated };
}
