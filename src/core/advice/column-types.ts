// Column type and collation facts the advice depends on (from the schema model).

import type { ColumnInfo, TableInfo } from '../model/schema.js';

const INTEGER = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint']);
const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);
const STRING = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** Integer column (any width, signed or not). */
export function isIntegerColumn(info: ColumnInfo): boolean {
  return INTEGER.has(info.dataType.toLowerCase());
}

/** DATE, DATETIME or TIMESTAMP column. */
export function isTemporalColumn(info: ColumnInfo): boolean {
  return TEMPORAL.has(info.dataType.toLowerCase());
}

/** Character column (CHAR, VARCHAR, TEXT family, ENUM, SET). */
export function isStringColumn(info: ColumnInfo): boolean {
  return STRING.has(info.dataType.toLowerCase());
}

/** UNSIGNED integer column. */
export function isUnsigned(info: ColumnInfo): boolean {
  return /\bunsigned\b/i.test(info.columnType);
}

/** Declared length of a CHAR/VARCHAR column, e.g. 100 for `varchar(100)`. */
export function declaredLength(info: ColumnInfo): number | undefined {
  const match = /^(?:var)?char\((\d+)\)/i.exec(info.columnType);
  return match ? Number(match[1]) : undefined;
}

/** The column's collation when known: its own, or the table's when the character sets agree. */
export function effectiveCollation(info: ColumnInfo, table: TableInfo | null): string | null {
  if (info.collation) return info.collation.toLowerCase();
  const tableCollation = table?.collation?.toLowerCase();
  if (tableCollation && (!info.charset || tableCollation.startsWith(`${info.charset.toLowerCase()}_`)))
    return tableCollation;
  return null;
}

/** Case sensitivity of a string column: known from its collation, assumed from a charset's default, or unknown. */
export type CaseSensitivity = 'insensitive' | 'insensitive-by-default' | 'sensitive' | 'unknown';

/**
 * Case-insensitive collations (`_ci`, accent-insensitive too) compare `LOWER(c)` and `c` alike;
 * `_bin`, `_cs` and accent-sensitive `_as_ci` do not (LOWER('İ') = 'i' there). Without a declared
 * collation, every character set's default collation except `binary` is case-insensitive.
 */
export function caseSensitivity(info: ColumnInfo, table: TableInfo | null): CaseSensitivity {
  const collation = effectiveCollation(info, table);
  if (collation) {
    if (/_bin$|_cs$|_as_ci$/.test(collation)) return 'sensitive';
    return /_ci$/.test(collation) ? 'insensitive' : 'sensitive';
  }
  if (info.charset && info.charset.toLowerCase() !== 'binary') return 'insensitive-by-default';
  return 'unknown';
}

/** Charset of a column: declared, or from its known collation. */
export function effectiveCharset(info: ColumnInfo, table: TableInfo | null): string | null {
  if (info.charset) return info.charset.toLowerCase();
  const collation = effectiveCollation(info, table);
  return collation ? (collation.split('_')[0] ?? null) : null;
}
