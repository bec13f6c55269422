// The schema model the advisor reasons over, built from a live server or from CREATE TABLE text.

/** One column. `dataType` is lower-case base type (`int`, `varchar`, `timestamp` …). */
export interface ColumnInfo {
  name: string;
  dataType: string;
  /** Full type as declared, e.g. `decimal(8,2)`, `varchar(255)`, `int unsigned` */
  columnType: string;
  nullable: boolean;
  charset: string | null;
  collation: string | null;
  /** Generation expression for generated columns. */
  generated: { expression: string; stored: boolean } | null;
  autoIncrement: boolean;
  hasDefault: boolean;
  /** INVISIBLE column (MySQL >= 8.0.23, MariaDB >= 10.3): `SELECT *` leaves it out. Absent = visible. */
  invisible?: boolean;
}

/** One key part: a column (with optional prefix length) or an expression (functional key part). */
export interface IndexPart {
  column: string | null;
  expression: string | null;
  prefixLength: number | null;
}

export interface IndexInfo {
  name: string;
  unique: boolean;
  primary: boolean;
  kind: 'btree' | 'fulltext' | 'spatial' | 'hash';
  parts: IndexPart[];
  visible: boolean;
}

export interface TableInfo {
  schema: string | null;
  name: string;
  columns: ColumnInfo[];
  indexes: IndexInfo[];
  engine: string | null;
  /** Table default collation */
  collation: string | null;
  /** Estimated rows (information_schema.TABLES.TABLE_ROWS) when known */
  rowsEstimate: number | null;
  /**
   * A view (columns only, no indexes of its own), or a MariaDB sequence (a one-row table of its state,
   * readable with SELECT; no indexes can be added); absent for base tables.
   */
  kind?: 'view' | 'sequence';
}

/** Tables by lower-case name (and `schema.name`). */
export interface SchemaModel {
  source: 'live' | 'ddl' | 'none';
  tables: TableInfo[];
  /**
   * DDL schemas only: table/view definitions the loader skipped (line and reason), so a finding on
   * a table the schema lacks can say why it is missing.
   */
  skipped?: { table: string | null; line: number; reason: string; source?: string }[];
}

/** Empty schema: analysis still runs, types are unknown. */
export const EMPTY_SCHEMA: SchemaModel = { source: 'none', tables: [] };

/** Find a table by name, optionally schema-qualified; case-insensitive as on Linux with lower_case_table_names=0 we can't know better offline. */
export function findTable(
  schema: SchemaModel,
  name: string,
  database?: string | null,
): TableInfo | undefined {
  const db = database?.toLowerCase();
  const candidates = byLowerName(schema.tables, tableIndexes).get(name.toLowerCase()) ?? [];
  if (candidates.length <= 1 || !db) return candidates[0];
  return candidates.find((table) => table.schema?.toLowerCase() === db) ?? candidates[0];
}

/**
 * Name lookups run for every column of every predicate, against schemas of hundreds of tables:
 * each list gets a lower-cased name index on first use, rebuilt when the list is replaced or grows.
 */
interface NameIndex<T> {
  length: number;
  map: Map<string, T[]>;
}
const tableIndexes = new WeakMap<readonly TableInfo[], NameIndex<TableInfo>>();
const columnIndexes = new WeakMap<readonly ColumnInfo[], NameIndex<ColumnInfo>>();

function byLowerName<T extends { name: string }>(
  list: readonly T[],
  indexes: WeakMap<readonly T[], NameIndex<T>>,
): Map<string, T[]> {
  const known = indexes.get(list);
  if (known && known.length === list.length) return known.map;
  const map = new Map<string, T[]>();
  for (const item of list) {
    const key = item.name.toLowerCase();
    const entries = map.get(key);
    if (entries) entries.push(item);
    else map.set(key, [item]);
  }
  indexes.set(list, { length: list.length, map });
  return map;
}

/** Find a column of a table, case-insensitively (MySQL column names are case-insensitive). */
export function findColumn(table: TableInfo, name: string): ColumnInfo | undefined {
  return byLowerName(table.columns, columnIndexes).get(name.toLowerCase())?.[0];
}
