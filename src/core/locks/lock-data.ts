// Decodes InnoDB `lock_data` (data_locks / INNODB_LOCKS) into index column values.
/*
 * Design note.
 * `lock_data` is the locked index record as the server prints it: comma-separated fields, one per
 * index column followed (for a secondary index) by the primary key columns. Each field is one of:
 *   - a bare number (`3`, `-7`, `20.0000`): printed as is;
 *   - a quoted string (`'Item3'`), with `\'` or `''` escapes;
 *   - `NULL`;
 *   - a hex blob `0x…`: the raw InnoDB key bytes, printed when the server has no text form for the
 *     type (DECIMAL, DATE, DATETIME, ENUM, binary strings). We decode it when the column type is
 *     known (DECIMAL's packed base-10^9 format, sign-flipped big-endian integers, DATE, DATETIME2,
 *     ENUM index); otherwise the raw field stays, flagged `decoded: false`.
 * The whole value may also be `supremum pseudo-record` (the gap after the last record of a page).
 * A scanner, not split(','), because quoted strings may contain commas.
 */

import type { LockDataValue } from './types.js';

/** An index column with its SQL type (`decimal(19,4)`, `int unsigned`, `enum('YES','NO')`, `varchar(255)`). */
export interface IndexColumn {
  name: string;
  type: string;
}

/** The decoded record, or the pseudo-record marker. */
export type DecodedLockData =
  { kind: 'supremum' } | { kind: 'infimum' } | { kind: 'record'; values: LockDataValue[] } | { kind: 'none' };

/** Split `lock_data` into its printed fields. Exported for tests. */
export function splitLockData(text: string): string[] {
  const fields: string[] = [];
  let index = 0;
  while (index < text.length) {
    while (text[index] === ' ') index += 1;
    let field = '';
    if (text[index] === "'") {
      let end = index + 1;
      while (end < text.length) {
        const char = text[end];
        if (char === '\\') end += 2;
        else if (char === "'" && text[end + 1] === "'") end += 2;
        else if (char === "'") break;
        else end += 1;
      }
      field = text.slice(index, end + 1);
      index = end + 1;
      while (index < text.length && text[index] !== ',') index += 1;
    } else {
      const comma = text.indexOf(',', index);
      const end = comma === -1 ? text.length : comma;
      field = text.slice(index, end).trim();
      index = end;
    }
    fields.push(field);
    if (text[index] === ',') index += 1;
  }
  return fields;
}

/**
 * Decode `lock_data` for an index whose columns (index columns, then primary key columns for a
 * secondary index) are given in order; unknown columns leave fields raw.
 */
export function decodeLockData(
  lockData: string | null,
  columns: readonly IndexColumn[] = [],
): DecodedLockData {
  if (lockData === null || lockData === '') return { kind: 'none' };
  if (lockData === 'supremum pseudo-record') return { kind: 'supremum' };
  if (lockData === 'infimum pseudo-record') return { kind: 'infimum' };
  const values = splitLockData(lockData).map((raw, position) => decodeField(raw, columns[position]));
  return { kind: 'record', values };
}

function decodeField(raw: string, column: IndexColumn | undefined): LockDataValue {
  const name = column?.name ?? null;
  if (raw.toUpperCase() === 'NULL') return { column: name, value: null, raw, decoded: true };
  if (raw.startsWith("'")) {
    const inner = raw.slice(1, raw.endsWith("'") ? -1 : undefined);
    const value = inner.replace(/\\(.)/g, '$1').replace(/''/g, "'");
    return { column: name, value, raw, decoded: true };
  }
  if (/^0x[0-9a-f]*$/i.test(raw)) {
    const bytes = hexToBytes(raw.slice(2));
    const value = column ? decodeBytes(bytes, column.type) : null;
    return { column: name, value: value ?? raw, raw, decoded: value !== null };
  }
  return { column: name, value: raw, raw, decoded: true };
}

function hexToBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

/** Decode InnoDB key bytes for a column type; null when the type is not understood. */
export function decodeBytes(bytes: readonly number[], sqlType: string): string | null {
  const type = sqlType.trim().toLowerCase();
  const unsigned = /\bunsigned\b/.test(type);
  const base = /^[a-z]+/.exec(type)?.[0] ?? '';
  const intSizes: Record<string, number> = {
    tinyint: 1,
    smallint: 2,
    mediumint: 3,
    int: 4,
    integer: 4,
    bigint: 8,
  };
  const intSize = intSizes[base];
  if (intSize !== undefined) return bytes.length === intSize ? decodeInteger(bytes, unsigned) : null;
  if (base === 'decimal' || base === 'numeric') {
    const match = /\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/.exec(type);
    const precision = Number(match?.[1] ?? 10);
    const scale = Number(match?.[2] ?? 0);
    return decodeDecimal(bytes, precision, scale);
  }
  if (base === 'enum') return decodeEnum(bytes, type, sqlType);
  if (base === 'date' && bytes.length === 3) return decodeDate(bytes);
  if (base === 'datetime') return decodeDatetime(bytes);
  if (base === 'char' || base === 'varchar' || base === 'binary' || base === 'varbinary') {
    return bytes.every((byte) => byte >= 0x20 && byte < 0x7f) ? String.fromCharCode(...bytes) : null;
  }
  return null;
}

function decodeInteger(bytes: readonly number[], unsigned: boolean): string {
  // InnoDB stores signed integers big-endian with the sign bit flipped: stored = value + 2^(bits-1).
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  if (!unsigned) value -= 1n << BigInt(bytes.length * 8 - 1);
  return value.toString();
}

const DIGITS_TO_BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4] as const;

/**
 * MySQL's binary DECIMAL (strings/decimal.cc `decimal2bin`): integer digits then fraction digits in
 * groups of 9 per 4 bytes, the leftover integer digits first and leftover fraction digits last; the
 * sign bit is flipped, and a negative value has every byte inverted.
 */
export function decodeDecimal(input: readonly number[], precision: number, scale: number): string | null {
  const integerDigits = precision - scale;
  const leadDigits = integerDigits % 9;
  const fullIntegerGroups = Math.floor(integerDigits / 9);
  const fullFractionGroups = Math.floor(scale / 9);
  const trailDigits = scale % 9;
  const expected =
    (DIGITS_TO_BYTES[leadDigits] ?? 0) +
    fullIntegerGroups * 4 +
    fullFractionGroups * 4 +
    (DIGITS_TO_BYTES[trailDigits] ?? 0);
  if (input.length !== expected || input.length === 0) return null;
  const negative = ((input[0] ?? 0) & 0x80) === 0;
  const bytes = input.map((byte, position) => {
    const flipped = position === 0 ? byte ^ 0x80 : byte;
    return negative ? ~flipped & 0xff : flipped;
  });
  let offset = 0;
  const read = (size: number): number => {
    let value = 0;
    for (let i = 0; i < size; i += 1) value = value * 256 + (bytes[offset + i] ?? 0);
    offset += size;
    return value;
  };
  let integerPart = '';
  if (leadDigits > 0) integerPart += String(read(DIGITS_TO_BYTES[leadDigits] ?? 0));
  for (let group = 0; group < fullIntegerGroups; group += 1) integerPart += String(read(4)).padStart(9, '0');
  let fractionPart = '';
  for (let group = 0; group < fullFractionGroups; group += 1)
    fractionPart += String(read(4)).padStart(9, '0');
  if (trailDigits > 0)
    fractionPart += String(read(DIGITS_TO_BYTES[trailDigits] ?? 0)).padStart(trailDigits, '0');
  const trimmed = integerPart.replace(/^0+(?=\d)/, '') || '0';
  const text = fractionPart ? `${trimmed}.${fractionPart}` : trimmed;
  return negative ? `-${text}` : text;
}

function decodeEnum(bytes: readonly number[], lowerType: string, originalType: string): string | null {
  if (bytes.length < 1 || bytes.length > 2) return null;
  const position = bytes.reduce((value, byte) => value * 256 + byte, 0);
  const list = /^enum\s*\((.*)\)\s*$/s.exec(originalType.trim())?.[1] ?? lowerType;
  const labels = splitLockData(list).map((label) => label.replace(/^'|'$/g, '').replace(/''/g, "'"));
  return position === 0 ? '' : (labels[position - 1] ?? null);
}

function decodeDate(bytes: readonly number[]): string {
  const value = (((bytes[0] ?? 0) ^ 0x80) << 16) | ((bytes[1] ?? 0) << 8) | (bytes[2] ?? 0);
  const day = value & 31;
  const month = (value >> 5) & 15;
  const year = value >> 9;
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** DATETIME2 (MySQL >= 5.6.4, MariaDB mysql56 format): 5 bytes of packed date and time, sign bit set. */
function decodeDatetime(bytes: readonly number[]): string | null {
  if (bytes.length < 5) return null;
  let packed = 0n;
  for (let i = 0; i < 5; i += 1) packed = (packed << 8n) | BigInt(bytes[i] ?? 0);
  packed -= 0x8000000000n;
  const second = Number(packed & 63n);
  const minute = Number((packed >> 6n) & 63n);
  const hour = Number((packed >> 12n) & 31n);
  const yearMonthDay = packed >> 17n;
  const day = Number(yearMonthDay & 31n);
  const yearMonth = Number(yearMonthDay >> 5n);
  const year = Math.floor(yearMonth / 13);
  const month = yearMonth % 13;
  let text = `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)} ${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
  if (bytes.length > 5) {
    const fraction = bytes.slice(5).reduce((value, byte) => value * 256 + byte, 0);
    const digits = (bytes.length - 5) * 2;
    text += `.${String(fraction).padStart(digits, '0')}`;
  }
  return text;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
