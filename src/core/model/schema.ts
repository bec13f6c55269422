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
}

/** Tables by lower-case name (and `schema.name`). */
export interface SchemaModel {
  source: 'live' | 'ddl' | 'none';
  tables: TableInfo[];
}

/** Empty schema: analysis still runs, types are unknown. */
export const EMPTY_SCHEMA: SchemaModel = { source: 'none', tables: [] };

/** Find a table by name, optionally schema-qualified; case-insensitive as on Linux with lower_case_table_names=0 we can't know better offline. */
export function findTable(
  schema: SchemaModel,
  name: string,
  database?: string | null,
): TableInfo | undefined {
  const lower = name.toLowerCase();
  const db = database?.toLowerCase();
  const candidates = schema.tables.filter((table) => table.name.toLowerCase() === lower);
  if (candidates.length <= 1 || !db) return candidates[0];
  return candidates.find((table) => table.schema?.toLowerCase() === db) ?? candidates[0];
}

/** Find a column of a table, case-insensitively (MySQL column names are case-insensitive). */
export function findColumn(table: TableInfo, name: string): ColumnInfo | undefined {
  const lower = name.toLowerCase();
  return table.columns.find((column) => column.name.toLowerCase() === lower);
}
