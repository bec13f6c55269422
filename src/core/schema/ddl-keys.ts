// What the server makes of a table's keys once the whole CREATE TABLE is read (ddl-tables.ts): the
// index type each engine gives a key, the engine's key-length limit, and the definitions the server
// refuses whole. Checked against information_schema.STATISTICS of MySQL 8.0.33 and MariaDB 10.11
// (tests/integration/public-schemas.test.ts on real public schema files).
//
// Design note: key lengths are counted as the server counts them, in bytes: a character column's
// length (or prefix) times its character set's bytes per character, a binary column's length, fixed
// sizes for numbers and dates. A key over the engine's limit (InnoDB and MEMORY 3,072 bytes, MyISAM
// 1,000, Aria 2,000) is, on both servers, cut to the longest prefix when it is one non-unique part,
// and refused when it has several parts or is the primary key; a UNIQUE key over the limit (or on a
// BLOB/TEXT column without a prefix) is refused by MySQL and becomes a hash ("long unique") key on
// MariaDB. The cut is what a server does outside strict mode (MariaDB always does it): a schema a
// user has was accepted by their server, so its table has the cut key. Where a size is unknown (a
// type the table below does not list, a column not found), the key is left as declared.

import type { IndexInfo } from '../model/schema.js';
import { CHARSET_MAXLEN, TEXT_BLOB_TYPES } from './ddl-columns.js';
import type { LoadState, TableState } from './ddl-state.js';

/** Indexes declared `USING BTREE`: a MEMORY table keeps them B-trees (its default is HASH). */
export const declaredBtree = new WeakSet<IndexInfo>();

/**
 * The index type the engine gives each key (information_schema.STATISTICS.INDEX_TYPE): MEMORY's
 * default is HASH (USING BTREE keeps a B-tree); InnoDB, MyISAM and Aria ignore USING HASH, except
 * that MariaDB builds a UNIQUE … USING HASH key as a hash ("long unique") key.
 */
export function resolveIndexKinds(table: TableState, state: LoadState): void {
  const memory = isMemory(table);
  for (const index of table.indexes) {
    if (memory && index.kind === 'btree' && !declaredBtree.has(index)) index.kind = 'hash';
    else if (
      !memory &&
      index.kind === 'hash' &&
      !(state.flavor === 'mariadb' && index.unique && !index.primary)
    )
      index.kind = 'btree';
  }
}

function isMemory(table: TableState): boolean {
  const engine = (table.engineName ?? 'InnoDB').toLowerCase();
  return engine === 'memory' || engine === 'heap';
}

/** The engine's longest key in bytes, or null for an engine whose limit is not known here. */
function keyLimit(table: TableState, state: LoadState): number | null {
  const engine = (table.engineName ?? 'InnoDB').toLowerCase();
  if (engine === 'innodb' || engine === 'memory' || engine === 'heap') return 3072;
  if (engine === 'myisam') return 1000;
  if (engine === 'aria' && state.flavor === 'mariadb') return 2000;
  return null;
}

const FIXED_BYTES: Readonly<Record<string, number>> = {
  tinyint: 1,
  smallint: 2,
  mediumint: 3,
  int: 4,
  bigint: 8,
  float: 4,
  double: 8,
  date: 3,
  time: 3,
  year: 1,
  timestamp: 4,
  datetime: 5,
  enum: 2,
  set: 8,
};

const CHARACTER_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

const LONG_TYPES = new Set([...TEXT_BLOB_TYPES, 'json']);

interface PartSize {
  /** Bytes of the key part; null: a BLOB/TEXT column without a prefix. */
  bytes: number | null;
  /** Bytes per character (1 for binary and non-character columns). */
  perChar: number;
  textual: boolean;
}

function columnOf(table: TableState, name: string | null) {
  if (name === null) return undefined;
  const lower = name.toLowerCase();
  return table.columns.find((entry) => entry.name.toLowerCase() === lower);
}

function partSize(table: TableState, part: IndexInfo['parts'][number]): PartSize | undefined {
  const column = columnOf(table, part.column);
  if (!column) return undefined;
  const type = column.dataType;
  const textual = CHARACTER_TYPES.has(type);
  // A character column of DDL that names no character set has the database's: utf8mb4 is the
  // default of MySQL 8.0 and of the MariaDB packages of Debian and Ubuntu (and the widest).
  const perChar = textual ? CHARSET_MAXLEN[column.charset ?? 'utf8mb4'] : 1;
  if (perChar === undefined) return undefined;
  if (part.prefixLength !== null) return { bytes: part.prefixLength * perChar, perChar, textual };
  if (LONG_TYPES.has(type)) return { bytes: null, perChar, textual };
  const length = /^\w+\((\d+)/.exec(column.columnType)?.[1];
  if (type === 'char' || type === 'varchar' || type === 'binary' || type === 'varbinary')
    return { bytes: Number(length ?? 1) * perChar, perChar, textual };
  if (type === 'decimal') return { bytes: Math.ceil(Number(length ?? 10) / 2) + 1, perChar: 1, textual };
  if (type === 'bit') return { bytes: Math.ceil(Number(length ?? 1) / 8), perChar: 1, textual };
  const fixed = FIXED_BYTES[type];
  return fixed === undefined ? undefined : { bytes: fixed, perChar: 1, textual };
}

/**
 * Applies the engine's key-length limit to the table's keys, as the server does (see the design
 * note); returns the server's message when it refuses the table, else null.
 */
export function applyKeyLimits(table: TableState, state: LoadState): string | null {
  const limit = keyLimit(table, state);
  if (limit === null) return null;
  for (const index of table.indexes) {
    if (index.kind === 'fulltext' || index.kind === 'spatial') continue;
    if (state.flavor === 'mysql') {
      const json = index.parts.find((part) => columnOf(table, part.column)?.dataType === 'json');
      if (json)
        return `JSON column '${json.column}' supports indexing only via generated columns on a specified JSON path (ERROR 3152)`;
    }
    const sizes = index.parts.map((part) => partSize(table, part));
    if (sizes.some((size) => size === undefined)) continue;
    const known = sizes as PartSize[];
    const unsized = index.parts.findIndex((_part, position) => known[position]!.bytes === null);
    const total = known.reduce((sum, size) => sum + (size.bytes ?? 0), 0);
    if (unsized === -1 && total <= limit) continue;
    const tooLong = `Specified key was too long; max key length is ${limit} bytes (ERROR 1071)`;
    if (index.unique && !index.primary && state.flavor === 'mariadb') {
      // MariaDB 10.4+: a long unique key, checked through a hidden hash column.
      if (state.version >= 100400) {
        index.kind = 'hash';
        continue;
      }
    }
    if (unsized !== -1 && (state.flavor === 'mysql' || index.unique)) {
      const column = index.parts[unsized]!.column;
      return `BLOB/TEXT column '${column}' used in key specification without a key length (ERROR 1170)`;
    }
    if (index.unique || index.parts.length > 1) return tooLong;
    const size = known[0]!;
    index.parts = [{ ...index.parts[0]!, prefixLength: Math.floor(limit / size.perChar) }];
  }
  return null;
}
