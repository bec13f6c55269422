// Key-length arithmetic for InnoDB indexes: bytes per key part from the column type and character set.
//
// Design note: InnoDB (DYNAMIC / COMPRESSED row format, the default since MySQL 5.7.7 and MariaDB 10.2)
// refuses an index whose key parts add up to more than 3072 bytes (ERROR 1071), and a TEXT/BLOB key
// part without a prefix length (ERROR 1170). A string key part takes its length in characters times the
// character set's longest character (utf8mb4: 4 bytes), as the server counts it; length bytes are not
// counted. Unknown character sets count as utf8mb4, so the estimate errs on the safe side.

import type { ColumnInfo, TableInfo } from '../model/schema.js';
import { effectiveCharset } from '../advice/column-types.js';
import { CHARSET_MAXLEN, TEXT_BLOB_TYPES } from '../schema/ddl-columns.js';

/** InnoDB's limit on the sum of key part lengths (DYNAMIC / COMPRESSED row formats). */
export const MAX_KEY_BYTES = 3072;
/** InnoDB's limit on key parts per index (secondary key parts; the server refuses the 17th). */
export const MAX_KEY_PARTS = 16;
/** Prefix (characters) chosen for a TEXT/BLOB key part when the data is not known. */
export const DEFAULT_TEXT_PREFIX = 64;

/** Longest character (bytes) of a character set; utf8mb4 when unknown. */
export function maxBytesPerChar(charset: string | null): number {
  return CHARSET_MAXLEN[(charset ?? '').toLowerCase()] ?? 4;
}

const UNINDEXABLE = new Set([
  'json',
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
]);

/** TEXT or BLOB family: a B-tree key part needs a prefix length. */
export function needsPrefix(column: ColumnInfo): boolean {
  return TEXT_BLOB_TYPES.has(column.dataType.toLowerCase());
}

/** JSON and spatial columns cannot be plain B-tree key parts. */
export function unindexable(column: ColumnInfo): boolean {
  return UNINDEXABLE.has(column.dataType.toLowerCase());
}

/** Binary string types count one byte per character whatever the table's character set. */
function isBinaryString(dataType: string): boolean {
  return /^(binary|varbinary|tinyblob|blob|mediumblob|longblob)$/.test(dataType);
}

const DECIMAL_DIGIT_BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

function decimalBytes(digits: number): number {
  return Math.floor(digits / 9) * 4 + (DECIMAL_DIGIT_BYTES[digits % 9] ?? 4);
}

function fractionalBytes(columnType: string): number {
  const fsp = Number(/\((\d)\)/.exec(columnType)?.[1] ?? 0);
  return Math.ceil(fsp / 2);
}

/**
 * Bytes one key part takes: the whole column, or `prefixLength` characters of it (bytes for binary
 * types). Undefined when the column cannot be a plain key part (JSON, spatial) or a TEXT/BLOB has no prefix.
 */
export function keyPartBytes(
  column: ColumnInfo,
  table: TableInfo | null,
  prefixLength?: number,
): number | undefined {
  const type = column.dataType.toLowerCase();
  const full = column.columnType.toLowerCase();
  if (UNINDEXABLE.has(type)) return undefined;
  const perChar = isBinaryString(type) ? 1 : maxBytesPerChar(effectiveCharset(column, table));
  if (TEXT_BLOB_TYPES.has(type)) return prefixLength ? prefixLength * perChar : undefined;
  switch (type) {
    case 'tinyint':
    case 'year':
      return 1;
    case 'smallint':
      return 2;
    case 'mediumint':
    case 'date':
      return 3;
    case 'int':
    case 'integer':
    case 'float':
      return 4;
    case 'bigint':
    case 'double':
    case 'real':
      return 8;
    case 'time':
      return 3 + fractionalBytes(full);
    case 'datetime':
      return 5 + fractionalBytes(full);
    case 'timestamp':
      return 4 + fractionalBytes(full);
    case 'decimal':
    case 'numeric': {
      const match = /\((\d+)(?:\s*,\s*(\d+))?\)/.exec(full);
      const precision = Number(match?.[1] ?? 10);
      const scale = Number(match?.[2] ?? 0);
      return decimalBytes(precision - scale) + decimalBytes(scale);
    }
    case 'bit':
      return Math.ceil(Number(/\((\d+)\)/.exec(full)?.[1] ?? 1) / 8);
    case 'enum':
      return (full.match(/'(?:[^']|'')*'/g)?.length ?? 0) > 255 ? 2 : 1;
    case 'set': {
      const members = full.match(/'(?:[^']|'')*'/g)?.length ?? 64;
      return Math.min(8, Math.ceil(members / 8)) || 1;
    }
    case 'char':
    case 'varchar':
    case 'binary':
    case 'varbinary': {
      const length = Number(/\((\d+)\)/.exec(full)?.[1] ?? (type.startsWith('var') ? 255 : 1));
      return (prefixLength ? Math.min(prefixLength, length) : length) * perChar;
    }
    default:
      return 8;
  }
}
