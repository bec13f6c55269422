// Column definitions of the schema loader (ddl-load.ts): data types as information_schema names them,
// column attributes, inline keys, and character sets and collations per flavor and version.
//
// Design note: `readColumn` knows the attributes the advisor needs (type, UNSIGNED/ZEROFILL, charset,
// collation, BINARY, NULL/NOT NULL, DEFAULT, AUTO_INCREMENT, generated columns, INVISIBLE, inline
// PRIMARY KEY/UNIQUE) and reads past the rest one token or one balanced group at a time; the loop's fast
// paths cover the attributes every dump repeats on most columns. A column's charset is resolved twice:
// once when read, and again in finishTable (ddl-tables.ts) once the table's own default is known,
// because the table options come after the columns.

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo } from '../model/schema.js';
import { ParseError, RejectedError, type Reader } from './ddl-reader.js';
import { canonicalExpression, type DeclaredCharset, type LoadState, type TableState } from './ddl-state.js';

/** Default collation of a character set per flavor (what a table gets when it names only the charset). */
export function defaultCollation(charset: string, flavor: Flavor, version: number): string | null {
  const name = charset.toLowerCase();
  if (name === 'utf8mb4') {
    if (flavor === 'mariadb') return version >= 110500 ? 'utf8mb4_uca1400_ai_ci' : 'utf8mb4_general_ci';
    return version >= 80000 ? 'utf8mb4_0900_ai_ci' : 'utf8mb4_general_ci';
  }
  if (name === 'utf8' || name === 'utf8mb3')
    return flavor === 'mariadb' ? 'utf8mb3_general_ci' : 'utf8mb3_general_ci';
  if (name === 'binary') return 'binary';
  const known: Record<string, string> = {
    latin1: 'latin1_swedish_ci',
    ascii: 'ascii_general_ci',
    latin2: 'latin2_general_ci',
    ucs2: 'ucs2_general_ci',
    utf16: 'utf16_general_ci',
    utf32: 'utf32_general_ci',
    cp1251: 'cp1251_general_ci',
    cp1250: 'cp1250_general_ci',
    greek: 'greek_general_ci',
    hebrew: 'hebrew_general_ci',
    sjis: 'sjis_japanese_ci',
    ujis: 'ujis_japanese_ci',
    gbk: 'gbk_chinese_ci',
    gb2312: 'gb2312_chinese_ci',
    big5: 'big5_chinese_ci',
    euckr: 'euckr_korean_ci',
    koi8r: 'koi8r_general_ci',
    tis620: 'tis620_thai_ci',
  };
  return known[name] ?? null;
}

/**
 * A collation as the server names it: `utf8_bin` is `utf8mb3_bin` in information_schema and SHOW
 * CREATE TABLE from MySQL 8.0.30 and MariaDB 10.6 on (the `utf8_` names stay accepted as aliases).
 */
export function serverCollation(collation: string, flavor: Flavor, version: number): string {
  const lower = collation.toLowerCase();
  if (!lower.startsWith('utf8_')) return lower;
  return version >= (flavor === 'mariadb' ? 100600 : 80030) ? `utf8mb3_${lower.slice(5)}` : lower;
}

/** Character sets of MySQL 8.0 and MariaDB 10.11 (information_schema.CHARACTER_SETS) and their bytes per character. */
export const CHARSET_MAXLEN: Readonly<Record<string, number>> = {
  armscii8: 1,
  ascii: 1,
  big5: 2,
  binary: 1,
  cp1250: 1,
  cp1251: 1,
  cp1256: 1,
  cp1257: 1,
  cp850: 1,
  cp852: 1,
  cp866: 1,
  cp932: 2,
  dec8: 1,
  eucjpms: 3,
  euckr: 2,
  gb18030: 4,
  gb2312: 2,
  gbk: 2,
  geostd8: 1,
  greek: 1,
  hebrew: 1,
  hp8: 1,
  keybcs2: 1,
  koi8r: 1,
  koi8u: 1,
  latin1: 1,
  latin2: 1,
  latin5: 1,
  latin7: 1,
  macce: 1,
  macroman: 1,
  sjis: 2,
  swe7: 1,
  tis620: 1,
  ucs2: 2,
  ujis: 3,
  utf16: 4,
  utf16le: 4,
  utf32: 4,
  utf8: 3,
  utf8mb3: 3,
  utf8mb4: 4,
};

/** The TEXT and BLOB types: a B-tree key part on one needs a prefix length (else ERROR 1170). */
export const TEXT_BLOB_TYPES: ReadonlySet<string> = new Set([
  'tinytext',
  'text',
  'mediumtext',
  'longtext',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
]);

/** A `CHARACTER SET` value; a name neither server knows rejects the statement (ERROR 1115). */
export function knownCharset(reader: Reader): string {
  const start = reader.peek()?.start ?? 0;
  const charset = (reader.value() ?? '').toLowerCase();
  if (charset !== 'default' && !(charset in CHARSET_MAXLEN))
    throw new RejectedError(`Unknown character set: '${charset}'`, start);
  return charset;
}

export function charsetOfCollation(collation: string): string {
  const lower = collation.toLowerCase();
  if (lower === 'binary') return 'binary';
  const cut = lower.indexOf('_');
  const charset = cut === -1 ? lower : lower.slice(0, cut);
  return charset === 'utf8' ? 'utf8mb3' : charset;
}

const TEXTUAL = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** Display widths MariaDB (and MySQL before 8.0.19) gives integer columns declared without one: [signed, unsigned]. */
const INTEGER_WIDTHS: Readonly<Record<string, [number, number]>> = {
  tinyint: [4, 3],
  smallint: [6, 5],
  mediumint: [9, 8],
  int: [11, 10],
  bigint: [20, 20],
};

/**
 * A type's arguments as information_schema.COLUMNS.COLUMN_TYPE prints them: no spaces outside quotes
 * (`enum('a', 'b')` → `enum('a','b')`, `decimal(10, 2)` → `decimal(10,2)`), `char` → `char(1)`, and
 * integer display widths as the server keeps them: MySQL 8.0.19+ drops them (but for a signed
 * `tinyint(1)` and ZEROFILL columns), MariaDB and older MySQL print the default one when none is given.
 */
function serverTypeArguments(
  dataType: string,
  args: string,
  modifiers: readonly string[],
  state: LoadState,
): string {
  let text = args.replace(
    /('(?:[^'\\]|\\.|'')*')|\s+/g,
    (_match, quoted: string | undefined) => quoted ?? '',
  );
  if ((dataType === 'char' || dataType === 'binary') && text === '') text = '(1)';
  if (dataType === 'year') return state.flavor === 'mysql' && state.version >= 80019 ? '' : text || '(4)';
  const widths = INTEGER_WIDTHS[dataType];
  if (!widths) return text;
  const unsigned = modifiers.includes('unsigned');
  const modern = state.flavor === 'mysql' && state.version >= 80019;
  if (modern) {
    if (modifiers.includes('zerofill')) return text || `(${widths[unsigned ? 1 : 0]})`;
    return dataType === 'tinyint' && text === '(1)' && !unsigned ? text : '';
  }
  return text || `(${widths[unsigned ? 1 : 0]})`;
}

/** Type aliases as information_schema.COLUMNS.DATA_TYPE names them. */
const TYPE_ALIASES: Record<string, string> = {
  BOOL: 'tinyint',
  BOOLEAN: 'tinyint',
  INTEGER: 'int',
  INT1: 'tinyint',
  INT2: 'smallint',
  INT3: 'mediumint',
  INT4: 'int',
  INT8: 'bigint',
  MIDDLEINT: 'mediumint',
  DEC: 'decimal',
  NUMERIC: 'decimal',
  FIXED: 'decimal',
  REAL: 'double',
  FLOAT4: 'float',
  FLOAT8: 'double',
  CHARACTER: 'char',
  NCHAR: 'char',
  NVARCHAR: 'varchar',
  VARCHARACTER: 'varchar',
  VARCHAR2: 'varchar',
  NUMBER: 'decimal',
  CLOB: 'longtext',
  RAW: 'varbinary',
};

/** `id INT PRIMARY KEY` / `email VARCHAR(100) UNIQUE`: the key a column attribute declares. */
function inlineKey(column: string, primary: boolean): IndexInfo & { named: boolean } {
  return {
    name: primary ? 'PRIMARY' : column,
    named: true,
    unique: true,
    primary,
    kind: 'btree',
    parts: [{ column, expression: null, prefixLength: null }],
    visible: true,
  };
}

export interface ReadColumn {
  info: ColumnInfo & { invisible?: boolean };
  /** Declared NULL or DEFAULT NULL (MySQL then refuses the column in a PRIMARY KEY). */
  explicitNull: boolean;
  indexes: (IndexInfo & { named: boolean })[];
}

export function readColumn(reader: Reader, state: LoadState, table: TableState): ReadColumn {
  const name = reader.identifier('a column name');
  const typeToken = reader.peek();
  if (!typeToken || typeToken.type !== 'word')
    throw new ParseError(`column ${name}: expected a data type`, typeToken?.start ?? reader.text.length);
  reader.index++;
  let typeName = typeToken.value;
  // Two-word types.
  if (typeName === 'DOUBLE' && reader.accept('PRECISION')) typeName = 'DOUBLE';
  else if (typeName === 'NATIONAL') {
    const next = reader.value()?.toUpperCase() ?? '';
    typeName =
      next === 'VARCHAR' || (next === 'CHARACTER' && reader.accept('VARYING'))
        ? 'VARCHAR'
        : next === 'CHAR' && reader.accept('VARYING')
          ? 'VARCHAR'
          : 'CHAR';
  } else if ((typeName === 'CHAR' || typeName === 'CHARACTER') && reader.accept('VARYING'))
    typeName = 'VARCHAR';
  else if (typeName === 'LONG') {
    if (reader.accept('VARBINARY')) typeName = 'MEDIUMBLOB';
    else {
      if (!reader.accept('VARCHAR')) reader.accept('CHAR', 'VARYING');
      typeName = 'MEDIUMTEXT';
    }
  }
  let dataType = TYPE_ALIASES[typeName] ?? typeName.toLowerCase();
  if (dataType === 'json' && state.flavor === 'mariadb') dataType = 'longtext';
  let args = '';
  if (reader.isPunct('(')) {
    const inner = reader.skipGroup();
    args = `(${reader.text.slice(inner.start, inner.end).trim()})`;
  }
  // TEXT(M) / BLOB(M): the server picks the smallest type that holds M (characters of up to 4 bytes).
  const sized = /^\((\d+)\)$/.exec(args)?.[1];
  if (sized !== undefined && (dataType === 'text' || dataType === 'blob')) {
    const bytes = Number(sized) * (dataType === 'text' ? 4 : 1);
    const size = bytes < 256 ? 'tiny' : bytes < 65536 ? '' : bytes < 16777216 ? 'medium' : 'long';
    dataType = `${size}${dataType}`;
    args = '';
  }
  const modifiers: string[] = [];
  let charset: string | null = null;
  let collation: string | null = null;
  let binary = false;
  let nullable = true;
  let explicitNull = false;
  let hasDefault = false;
  let autoIncrement = false;
  let invisible = false;
  let generated: ColumnInfo['generated'] = null;
  const indexes: (IndexInfo & { named: boolean })[] = [];
  if (typeName === 'SERIAL') {
    dataType = 'bigint';
    modifiers.push('unsigned');
    nullable = false;
    autoIncrement = true;
    indexes.push({
      name: '',
      named: false,
      unique: true,
      primary: false,
      kind: 'btree',
      parts: [{ column: name, expression: null, prefixLength: null }],
      visible: true,
    });
  }
  if (typeName === 'BOOL' || typeName === 'BOOLEAN') args = '(1)';
  while (!reader.atEnd() && !reader.isPunct(',') && !reader.isPunct(')')) {
    // Fast paths for the attributes every dump repeats on most columns.
    const token = reader.tokens[reader.index]!;
    if (token.type === 'punct' && token.value !== '(') {
      reader.index++;
      continue;
    }
    if (token.type === 'word') {
      const next = reader.tokens[reader.index + 1];
      if (token.value === 'NOT' && next?.type === 'word' && next.value === 'NULL') {
        nullable = false;
        reader.index += 2;
        continue;
      }
      if (token.value === 'NULL') {
        explicitNull = true;
        reader.index++;
        continue;
      }
      if (token.value === 'COMMENT') {
        reader.index += 2;
        continue;
      }
      if (token.value === 'DEFAULT') {
        reader.index++;
        hasDefault = !reader.is('NULL');
        if (!hasDefault) explicitNull = true;
        readExpression(reader);
        continue;
      }
    }
    if (reader.accept('UNSIGNED')) modifiers.push('unsigned');
    else if (reader.accept('SIGNED')) continue;
    else if (reader.accept('ZEROFILL')) {
      if (!modifiers.includes('unsigned')) modifiers.push('unsigned');
      modifiers.push('zerofill');
    } else if (reader.accept('NOT', 'NULL')) nullable = false;
    else if (reader.accept('NULL')) nullable = explicitNull = true;
    else if (reader.accept('CHARACTER', 'SET') || reader.accept('CHARSET')) {
      reader.acceptPunct('=');
      charset = knownCharset(reader);
    } else if (reader.accept('COLLATE')) {
      reader.acceptPunct('=');
      collation = serverCollation(reader.value() ?? '', state.flavor, state.version);
    } else if (reader.accept('BINARY')) binary = true;
    else if (reader.accept('ASCII')) charset = 'latin1';
    else if (reader.accept('UNICODE')) charset = 'ucs2';
    else if (reader.accept('BYTE')) charset = 'binary';
    else if (reader.accept('DEFAULT')) {
      hasDefault = !reader.is('NULL');
      if (!hasDefault) explicitNull = true;
      readExpression(reader);
    } else if (reader.accept('ON', 'UPDATE')) readExpression(reader);
    else if (reader.accept('AUTO_INCREMENT')) autoIncrement = true;
    else if (reader.accept('PRIMARY', 'KEY') || reader.accept('KEY')) {
      indexes.push(inlineKey(name, true));
      nullable = false;
    } else if (reader.accept('UNIQUE')) {
      reader.accept('KEY');
      indexes.push(inlineKey(name, false));
    } else if (reader.accept('COMMENT')) reader.value();
    else if (reader.accept('INVISIBLE')) invisible = true;
    else if (reader.accept('VISIBLE')) invisible = false;
    else if (reader.accept('GENERATED', 'ALWAYS') || reader.is('AS')) {
      if (reader.accept('AS', 'ROW')) {
        // MariaDB system-versioning period columns: information_schema calls them generated
        // (GENERATION_EXPRESSION 'ROW START' / 'ROW END'), stored and NOT NULL.
        generated = { expression: `ROW ${(reader.value() ?? '').toUpperCase()}`, stored: true };
        nullable = false;
        continue;
      }
      if (reader.accept('AS', 'IDENTITY')) {
        autoIncrement = true;
        if (reader.isPunct('(')) reader.skipGroup();
        continue;
      }
      if (!reader.accept('AS'))
        throw new ParseError(`column ${name}: expected AS after GENERATED ALWAYS`, reader.peek()?.start ?? 0);
      const inner = reader.skipGroup();
      generated = {
        expression: canonicalExpression(reader.text.slice(inner.start, inner.end), state),
        stored: false,
      };
      if (reader.accept('STORED') || reader.accept('PERSISTENT')) generated.stored = true;
      else reader.accept('VIRTUAL');
    } else if (reader.accept('STORED') || reader.accept('PERSISTENT')) {
      if (generated) generated.stored = true;
    } else if (reader.accept('VIRTUAL')) continue;
    else if (reader.accept('REFERENCES')) {
      reader.qualifiedName('a table name');
      if (reader.isPunct('(')) reader.skipGroup();
      while (reader.accept('MATCH') || reader.accept('ON')) {
        reader.value();
        if (reader.is('NULL') || reader.is('ACTION') || reader.is('DEFAULT')) reader.index++;
      }
    } else if (reader.accept('CONSTRAINT')) {
      if (!reader.is('CHECK')) reader.identifier('a constraint name');
    } else if (reader.accept('CHECK')) {
      reader.skipGroup();
      if (!reader.accept('NOT', 'ENFORCED')) reader.accept('ENFORCED');
    } else if (reader.accept('SRID')) reader.value();
    else if (reader.accept('REF_SYSTEM_ID')) {
      reader.acceptPunct('=');
      reader.value();
    } else if (reader.accept('COLUMN_FORMAT') || reader.accept('STORAGE')) reader.value();
    else if (
      reader.accept('WITH', 'SYSTEM', 'VERSIONING') ||
      reader.accept('WITHOUT', 'SYSTEM', 'VERSIONING')
    )
      continue;
    else reader.skipOne();
  }
  if (charset === 'binary' && TEXTUAL.has(dataType) && dataType !== 'enum' && dataType !== 'set') {
    // CHAR(n) CHARACTER SET binary is BINARY(n) on the server, TEXT … binary a BLOB.
    dataType =
      dataType === 'char'
        ? 'binary'
        : dataType === 'varchar'
          ? 'varbinary'
          : dataType.replace('text', 'blob');
  }
  const info: ColumnInfo & { invisible?: boolean } = {
    name,
    dataType,
    // Lower-cased whole, as the live loader reads information_schema.COLUMNS.COLUMN_TYPE.
    columnType:
      `${dataType}${serverTypeArguments(dataType, args, modifiers, state)}${modifiers.length > 0 ? ` ${modifiers.join(' ')}` : ''}`.toLowerCase(),
    nullable: nullable && !indexes.some((index) => index.primary),
    charset,
    collation,
    generated,
    autoIncrement,
    hasDefault,
  };
  if (invisible) info.invisible = true;
  const declared = { charset, collation, binary, json: typeName === 'JSON' };
  resolveCharset(info, declared, table, state);
  // The table's own charset comes after its columns: resolve again in finishTable.
  table.pendingCharsets.push([info, declared]);
  return { info, indexes, explicitNull };
}

export function resolveCharset(
  column: ColumnInfo,
  declared: DeclaredCharset,
  table: TableState,
  state: LoadState,
): void {
  if (declared.json && state.flavor === 'mariadb') {
    // MariaDB's JSON is LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin.
    column.charset = 'utf8mb4';
    column.collation = 'utf8mb4_bin';
    return;
  }
  if (!TEXTUAL.has(column.dataType)) {
    column.charset = null;
    column.collation = null;
    return;
  }
  const tableCharset = table.charset ?? (table.collation ? charsetOfCollation(table.collation) : null);
  let charset = declared.charset === 'utf8' ? 'utf8mb3' : declared.charset;
  let collation = declared.collation;
  if (!charset && collation) charset = charsetOfCollation(collation);
  if (!charset) charset = tableCharset;
  if (!collation) {
    if (declared.binary && charset) collation = `${charset}_bin`;
    else if (charset && charset === tableCharset && table.collation) collation = table.collation;
    else collation = charset ? defaultCollation(charset, state.flavor, state.version) : null;
  }
  column.charset = charset;
  column.collation = collation;
}

/** Skip one expression of a column attribute (DEFAULT x, ON UPDATE f(), DEFAULT (expr), NEXT VALUE FOR s). */
function readExpression(reader: Reader): void {
  if (reader.isPunct('(')) {
    reader.skipGroup();
    return;
  }
  if (reader.isPunct('-') || reader.isPunct('+')) reader.index++;
  if (reader.accept('NEXT', 'VALUE', 'FOR') || reader.accept('PREVIOUS', 'VALUE', 'FOR')) {
    reader.qualifiedName('a sequence name');
    return;
  }
  reader.index++;
  if (reader.isPunct('.')) {
    reader.index++;
    reader.index++;
  }
  if (reader.isPunct('(')) reader.skipGroup();
}
