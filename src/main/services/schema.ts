// Loads the SchemaModel of live tables from information_schema (read-only, bounded).

import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { ColumnInfo, IndexInfo, SchemaModel, TableInfo } from '../../core/model/schema.js';
import type { ServerInfo } from '../../core/model/server-info.js';

/** At most this many tables are loaded per call (an advisor never needs a whole 10k-table instance). */
export const MAX_TABLES = 500;

/**
 * Load tables of `database` (all of them, bounded by MAX_TABLES, or only `tableNames`).
 * Column order, generated expressions, collations and index parts (with functional
 * expressions on MySQL >= 8.0.13) are read.
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
  const [tableRows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, ENGINE AS engine, TABLE_COLLATION AS collation, TABLE_ROWS AS table_rows
       FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'${filter}
      ORDER BY TABLE_NAME LIMIT ${MAX_TABLES}`,
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
    tables.set(String(row.name), {
      schema: database,
      name: String(row.name),
      columns: [],
      indexes: [],
      engine: row.engine === null ? null : String(row.engine),
      collation: row.collation === null ? null : String(row.collation),
      rowsEstimate: row.table_rows === null ? null : Number(row.table_rows),
    });
  }
  for (const row of columnRows) {
    const table = tables.get(String(row.table_name));
    if (!table) continue;
    const extra = String(row.extra ?? '').toLowerCase();
    const generation = row.generation ? String(row.generation) : '';
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
