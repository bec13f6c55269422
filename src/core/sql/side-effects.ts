// What running a statement may do beyond reading: function calls, INTO, locking reads, sequences.
/*
 * Design note.
 * - Works on the tokens of src/core/sql/lexer.ts (comments are gone, executable comments are code).
 * - A function call is a name followed by `(`. It is provably side-effect free only when it is an
 *   unqualified, unquoted built-in from {@link SAFE_FUNCTIONS} written with the `(` right after the
 *   name: with a space, or quoted, or `db.name`, the server may resolve the name to a stored
 *   function (MySQL resolves `count (x)` and `` `trim`(x) `` outside the built-in grammar). The list
 *   was built from the servers' own function help (mysql.help_topic on MySQL 8.0.33 and MariaDB
 *   10.11) minus everything that waits, locks, reads files, advances sequences or is a plugin UDF.
 * - Keywords followed by `(` (IN, EXISTS, OVER, type names in CAST …) are not calls: the servers'
 *   grammars only call a stored function through a plain identifier, never through a keyword.
 * - Column lists (`WITH cte (a, b) AS (`, `AS dt (a, b)`) are recognised; everything else that
 *   looks like a call and is not a known built-in is reported as a possible stored function.
 */

import type { SqlToken } from './lexer.js';

/** Built-in functions that neither change state, wait, lock nor read files. */
export const SAFE_FUNCTIONS: ReadonlySet<string> = new Set([
  'ABS',
  'ACOS',
  'ADDDATE',
  'ADDTIME',
  'ADD_MONTHS',
  'AES_DECRYPT',
  'AES_ENCRYPT',
  'ANY_VALUE',
  'AREA',
  'ASBINARY',
  'ASCII',
  'ASIN',
  'ASTEXT',
  'ASWKB',
  'ASWKT',
  'ATAN',
  'ATAN2',
  'AVG',
  'BIN',
  'BIN_TO_UUID',
  'BIT_AND',
  'BIT_COUNT',
  'BIT_LENGTH',
  'BIT_OR',
  'BIT_XOR',
  'BOUNDARY',
  'BUFFER',
  'CAST',
  'CEIL',
  'CEILING',
  'CENTROID',
  'CHAR',
  'CHARACTER_LENGTH',
  'CHARSET',
  'CHAR_LENGTH',
  'CHR',
  'COALESCE',
  'COERCIBILITY',
  'COLLATION',
  'COLUMN_ADD',
  'COLUMN_CHECK',
  'COLUMN_CREATE',
  'COLUMN_DELETE',
  'COLUMN_EXISTS',
  'COLUMN_GET',
  'COLUMN_JSON',
  'COLUMN_LIST',
  'COMPRESS',
  'CONCAT',
  'CONCAT_WS',
  'CONNECTION_ID',
  'CONTAINS',
  'CONV',
  'CONVERT',
  'CONVERT_TZ',
  'CONVEXHULL',
  'COS',
  'COT',
  'COUNT',
  'CRC32',
  'CRC32C',
  'CROSSES',
  'CUME_DIST',
  'CURDATE',
  'CURRENT_DATE',
  'CURRENT_ROLE',
  'CURRENT_TIME',
  'CURRENT_TIMESTAMP',
  'CURRENT_USER',
  'CURTIME',
  'DATABASE',
  'DATE',
  'DATEDIFF',
  'DATE_ADD',
  'DATE_FORMAT',
  'DATE_SUB',
  'DAY',
  'DAYNAME',
  'DAYOFMONTH',
  'DAYOFWEEK',
  'DAYOFYEAR',
  'DECODE',
  'DECODE_ORACLE',
  'DEFAULT',
  'DEGREES',
  'DENSE_RANK',
  'DIMENSION',
  'DISJOINT',
  'ELT',
  'ENCODE',
  'ENDPOINT',
  'ENVELOPE',
  'EQUALS',
  'EXP',
  'EXPORT_SET',
  'EXTERIORRING',
  'EXTRACT',
  'EXTRACTVALUE',
  'FIELD',
  'FIND_IN_SET',
  'FIRST_VALUE',
  'FLOOR',
  'FORMAT',
  'FORMAT_BYTES',
  'FORMAT_PICO_TIME',
  'FOUND_ROWS',
  'FROM_BASE64',
  'FROM_DAYS',
  'FROM_UNIXTIME',
  'GEOMCOLLECTION',
  'GEOMCOLLFROMTEXT',
  'GEOMCOLLFROMWKB',
  'GEOMETRYCOLLECTION',
  'GEOMETRYCOLLECTIONFROMTEXT',
  'GEOMETRYCOLLECTIONFROMWKB',
  'GEOMETRYFROMTEXT',
  'GEOMETRYFROMWKB',
  'GEOMETRYN',
  'GEOMETRYTYPE',
  'GEOMFROMTEXT',
  'GEOMFROMWKB',
  'GET_FORMAT',
  'GLENGTH',
  'GREATEST',
  'GROUPING',
  'GROUP_CONCAT',
  'GTID_SUBSET',
  'GTID_SUBTRACT',
  'HEX',
  'HOUR',
  'ICU_VERSION',
  'IF',
  'IFNULL',
  'INET6_ATON',
  'INET6_NTOA',
  'INET_ATON',
  'INET_NTOA',
  'INSERT',
  'INSTR',
  'INTERIORRINGN',
  'INTERSECTS',
  'ISCLOSED',
  'ISEMPTY',
  'ISNULL',
  'ISRING',
  'ISSIMPLE',
  'IS_IPV4',
  'IS_IPV4_COMPAT',
  'IS_IPV4_MAPPED',
  'IS_IPV6',
  'IS_UUID',
  'JSON_ARRAY',
  'JSON_ARRAYAGG',
  'JSON_ARRAY_APPEND',
  'JSON_ARRAY_INSERT',
  'JSON_ARRAY_INTERSECT',
  'JSON_COMPACT',
  'JSON_CONTAINS',
  'JSON_CONTAINS_PATH',
  'JSON_DEPTH',
  'JSON_DETAILED',
  'JSON_EQUALS',
  'JSON_EXISTS',
  'JSON_EXTRACT',
  'JSON_INSERT',
  'JSON_KEYS',
  'JSON_KEY_VALUE',
  'JSON_LENGTH',
  'JSON_LOOSE',
  'JSON_MERGE',
  'JSON_MERGE_PATCH',
  'JSON_MERGE_PRESERVE',
  'JSON_NORMALIZE',
  'JSON_OBJECT',
  'JSON_OBJECTAGG',
  'JSON_OBJECT_FILTER_KEYS',
  'JSON_OBJECT_TO_ARRAY',
  'JSON_OVERLAPS',
  'JSON_PRETTY',
  'JSON_QUERY',
  'JSON_QUOTE',
  'JSON_REMOVE',
  'JSON_REPLACE',
  'JSON_SCHEMA_VALID',
  'JSON_SCHEMA_VALIDATION_REPORT',
  'JSON_SEARCH',
  'JSON_SET',
  'JSON_STORAGE_FREE',
  'JSON_STORAGE_SIZE',
  'JSON_TABLE',
  'JSON_TYPE',
  'JSON_UNQUOTE',
  'JSON_VALID',
  'JSON_VALUE',
  'LAG',
  'LAST_DAY',
  'LAST_VALUE',
  'LCASE',
  'LEAD',
  'LEAST',
  'LEFT',
  'LENGTH',
  'LENGTHB',
  'LINEFROMTEXT',
  'LINEFROMWKB',
  'LINESTRING',
  'LINESTRINGFROMTEXT',
  'LINESTRINGFROMWKB',
  'LN',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'LOCATE',
  'LOG',
  'LOG10',
  'LOG2',
  'LOWER',
  'LPAD',
  'LTRIM',
  'MAKEDATE',
  'MAKETIME',
  'MAKE_SET',
  'MATCH',
  'MAX',
  'MBRCONTAINS',
  'MBRCOVEREDBY',
  'MBRCOVERS',
  'MBRDISJOINT',
  'MBREQUAL',
  'MBREQUALS',
  'MBRINTERSECTS',
  'MBROVERLAPS',
  'MBRTOUCHES',
  'MBRWITHIN',
  'MD5',
  'MEDIAN',
  'MICROSECOND',
  'MID',
  'MIN',
  'MINUTE',
  'MLINEFROMTEXT',
  'MLINEFROMWKB',
  'MOD',
  'MONTH',
  'MONTHNAME',
  'MPOINTFROMTEXT',
  'MPOINTFROMWKB',
  'MPOLYFROMTEXT',
  'MPOLYFROMWKB',
  'MULTILINESTRING',
  'MULTILINESTRINGFROMTEXT',
  'MULTILINESTRINGFROMWKB',
  'MULTIPOINT',
  'MULTIPOINTFROMTEXT',
  'MULTIPOINTFROMWKB',
  'MULTIPOLYGON',
  'MULTIPOLYGONFROMTEXT',
  'MULTIPOLYGONFROMWKB',
  'NAME_CONST',
  'NATURAL_SORT_KEY',
  'NOW',
  'NTH_VALUE',
  'NTILE',
  'NULLIF',
  'NUMGEOMETRIES',
  'NUMINTERIORRINGS',
  'NUMPOINTS',
  'NVL',
  'NVL2',
  'OCT',
  'OCTET_LENGTH',
  'ORD',
  'OVERLAPS',
  'PERCENTILE_CONT',
  'PERCENTILE_DISC',
  'PERCENT_RANK',
  'PERIOD_ADD',
  'PERIOD_DIFF',
  'PI',
  'POINT',
  'POINTFROMTEXT',
  'POINTFROMWKB',
  'POINTN',
  'POINTONSURFACE',
  'POLYFROMTEXT',
  'POLYFROMWKB',
  'POLYGON',
  'POLYGONFROMTEXT',
  'POLYGONFROMWKB',
  'POSITION',
  'POW',
  'POWER',
  'PS_CURRENT_THREAD_ID',
  'PS_THREAD_ID',
  'QUARTER',
  'QUOTE',
  'RADIANS',
  'RAND',
  'RANDOM_BYTES',
  'RANK',
  'REGEXP_INSTR',
  'REGEXP_LIKE',
  'REGEXP_REPLACE',
  'REGEXP_SUBSTR',
  'REPEAT',
  'REPLACE',
  'REVERSE',
  'RIGHT',
  'ROLES_GRAPHML',
  'ROUND',
  'ROW',
  'ROWNUM',
  'ROW_COUNT',
  'ROW_NUMBER',
  'RPAD',
  'RTRIM',
  'SCHEMA',
  'SECOND',
  'SEC_TO_TIME',
  'SESSION_USER',
  'SFORMAT',
  'SHA1',
  'SHA2',
  'SIGN',
  'SIN',
  'SOUNDEX',
  'SPACE',
  'SQRT',
  'SRID',
  'STARTPOINT',
  'STATEMENT_DIGEST',
  'STATEMENT_DIGEST_TEXT',
  'STD',
  'STDDEV',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'STRCMP',
  'STR_TO_DATE',
  'ST_AREA',
  'ST_ASBINARY',
  'ST_ASGEOJSON',
  'ST_ASTEXT',
  'ST_BUFFER',
  'ST_BUFFER_STRATEGY',
  'ST_CENTROID',
  'ST_COLLECT',
  'ST_CONTAINS',
  'ST_CONVEXHULL',
  'ST_CROSSES',
  'ST_DIFFERENCE',
  'ST_DIMENSION',
  'ST_DISJOINT',
  'ST_DISTANCE',
  'ST_DISTANCE_SPHERE',
  'ST_ENDPOINT',
  'ST_ENVELOPE',
  'ST_EQUALS',
  'ST_EXTERIORRING',
  'ST_FRECHETDISTANCE',
  'ST_GEOHASH',
  'ST_GEOMCOLLFROMTEXT',
  'ST_GEOMCOLLFROMWKB',
  'ST_GEOMETRYN',
  'ST_GEOMETRYTYPE',
  'ST_GEOMFROMGEOJSON',
  'ST_GEOMFROMTEXT',
  'ST_GEOMFROMWKB',
  'ST_HAUSDORFFDISTANCE',
  'ST_INTERIORRINGN',
  'ST_INTERSECTION',
  'ST_INTERSECTS',
  'ST_ISCLOSED',
  'ST_ISEMPTY',
  'ST_ISSIMPLE',
  'ST_ISVALID',
  'ST_LATFROMGEOHASH',
  'ST_LATITUDE',
  'ST_LENGTH',
  'ST_LINEFROMTEXT',
  'ST_LINEFROMWKB',
  'ST_LINEINTERPOLATEPOINT',
  'ST_LINEINTERPOLATEPOINTS',
  'ST_LONGFROMGEOHASH',
  'ST_LONGITUDE',
  'ST_MAKEENVELOPE',
  'ST_MLINEFROMTEXT',
  'ST_MLINEFROMWKB',
  'ST_MPOINTFROMTEXT',
  'ST_MPOINTFROMWKB',
  'ST_MPOLYFROMTEXT',
  'ST_MPOLYFROMWKB',
  'ST_NUMGEOMETRIES',
  'ST_NUMINTERIORRINGS',
  'ST_NUMPOINTS',
  'ST_OVERLAPS',
  'ST_POINTATDISTANCE',
  'ST_POINTFROMGEOHASH',
  'ST_POINTFROMTEXT',
  'ST_POINTFROMWKB',
  'ST_POINTN',
  'ST_POLYFROMTEXT',
  'ST_POLYFROMWKB',
  'ST_SIMPLIFY',
  'ST_SRID',
  'ST_STARTPOINT',
  'ST_SWAPXY',
  'ST_SYMDIFFERENCE',
  'ST_TOUCHES',
  'ST_TRANSFORM',
  'ST_UNION',
  'ST_VALIDATE',
  'ST_WITHIN',
  'ST_X',
  'ST_Y',
  'SUBDATE',
  'SUBSTR',
  'SUBSTRING',
  'SUBSTRING_INDEX',
  'SUBTIME',
  'SUM',
  'SYSDATE',
  'SYSTEM_USER',
  'SYS_GUID',
  'TAN',
  'TIME',
  'TIMEDIFF',
  'TIMESTAMP',
  'TIMESTAMPADD',
  'TIMESTAMPDIFF',
  'TIME_FORMAT',
  'TIME_TO_SEC',
  'TOUCHES',
  'TO_BASE64',
  'TO_CHAR',
  'TO_DAYS',
  'TO_SECONDS',
  'TRIM',
  'TRUNC',
  'TRUNCATE',
  'UCASE',
  'UNCOMPRESS',
  'UNCOMPRESSED_LENGTH',
  'UNHEX',
  'UNIX_TIMESTAMP',
  'UPDATEXML',
  'UPPER',
  'USER',
  'UTC_DATE',
  'UTC_TIME',
  'UTC_TIMESTAMP',
  'UUID',
  'UUID_SHORT',
  'UUID_TO_BIN',
  'UUID_V4',
  'UUID_V7',
  'VARIANCE',
  'VAR_POP',
  'VAR_SAMP',
  'VERSION',
  'WEEK',
  'WEEKDAY',
  'WEEKOFYEAR',
  'WEIGHT_STRING',
  'WITHIN',
  'X',
  'Y',
  'YEAR',
  'YEARWEEK',
]);

/** Built-ins that change server or session state, wait, take locks or read server files. */
export const SIDE_EFFECT_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['SLEEP', 'waits'],
  ['BENCHMARK', 'runs an expression repeatedly'],
  ['GET_LOCK', 'takes a user-level lock'],
  ['RELEASE_LOCK', 'releases a user-level lock'],
  ['RELEASE_ALL_LOCKS', 'releases user-level locks'],
  ['IS_FREE_LOCK', 'inspects user-level locks'],
  ['IS_USED_LOCK', 'inspects user-level locks'],
  ['LOAD_FILE', 'reads a file on the server host'],
  ['MASTER_POS_WAIT', 'waits for replication'],
  ['SOURCE_POS_WAIT', 'waits for replication'],
  ['MASTER_GTID_WAIT', 'waits for replication'],
  ['WAIT_FOR_EXECUTED_GTID_SET', 'waits for replication'],
  ['WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS', 'waits for replication'],
  ['NEXTVAL', 'advances a sequence'],
  ['SETVAL', 'changes a sequence'],
  ['LASTVAL', 'reads a sequence'],
  ['LAST_INSERT_ID', 'can set the session insert id'],
]);

/** Keywords that may be followed by `(` without being a call. */
const NOT_CALLS: ReadonlySet<string> = new Set([
  'AGAINST',
  'ALL',
  'AND',
  'ANY',
  'AS',
  'BETWEEN',
  'BINARY',
  'BY',
  'CASE',
  'COLUMNS',
  'DISTINCT',
  'DISTINCTROW',
  'DIV',
  'ELSE',
  'EXCEPT',
  'EXISTS',
  'EXPLAIN',
  'DESCRIBE',
  'DESC',
  'FOR',
  'FROM',
  'HAVING',
  'IN',
  'INDEX',
  'INTERSECT',
  'INTERVAL',
  'INTO',
  'IS',
  'JOIN',
  'KEY',
  'LATERAL',
  'LIKE',
  'LIMIT',
  'NESTED',
  'NOT',
  'OF',
  'ON',
  'OR',
  'OVER',
  'PARTITION',
  'PATH',
  'RECURSIVE',
  'REGEXP',
  'RETURNING',
  'RLIKE',
  'SELECT',
  'SOME',
  'STRAIGHT_JOIN',
  'TABLE',
  'THEN',
  'UNION',
  'USING',
  'VALUES',
  'WHEN',
  'WHERE',
  'WITH',
  'XOR',
  'ESCAPE',
  'SET',
  'UPDATE',
  'DELETE',

  // Type names (CAST(x AS CHAR(10)), JSON_TABLE columns, RETURNING DECIMAL(10,2)).
  'VARCHAR',
  'VARBINARY',
  'DECIMAL',
  'NUMERIC',
  'FLOAT',
  'DOUBLE',
  'REAL',
  'INT',
  'INTEGER',
  'BIGINT',
  'SMALLINT',
  'TINYINT',
  'MEDIUMINT',
  'DATETIME',
  'NCHAR',
  'SIGNED',
  'UNSIGNED',
  'BIT',
]);

/** One call of a function in a statement. */
export interface FunctionCall {
  /** Upper-cased name (without the schema). */
  name: string;
  /** `db.fn(…)`. */
  qualified: boolean;
  /** `` `fn`(…) `` or `"fn"(…)` under ANSI_QUOTES. */
  quoted: boolean;
  /** `fn (…)`: a space (or comment) between the name and `(`. */
  spaced: boolean;
  /** Offset in the statement. */
  start: number;
  verdict: 'safe' | 'side-effect' | 'unknown';
}

/** Why executing a statement is not provably free of side effects. */
export interface ExecutionRisk {
  kind:
    | 'side-effect-function'
    | 'unknown-function'
    | 'into'
    | 'locking-read'
    | 'assignment'
    | 'sequence'
    | 'procedure';
  message: string;
  start: number;
}

const isPunct = (token: SqlToken | undefined, value: string): boolean =>
  token?.kind === 'punct' && token.value === value;
const isWord = (token: SqlToken | undefined, ...values: string[]): boolean =>
  token?.kind === 'word' && values.includes(token.value);

/** Index of the `)` that closes the `(` at `open`, or -1. */
function closingParen(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index += 1) {
    if (isPunct(tokens[index], '(')) depth += 1;
    else if (isPunct(tokens[index], ')')) {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** `( a, b, c )` of identifiers only. */
function identifierList(tokens: readonly SqlToken[], open: number, close: number): boolean {
  if (close <= open + 1) return false;
  for (let index = open + 1; index < close; index += 1) {
    const token = tokens[index]!;
    const expectName = (index - open) % 2 === 1;
    if (expectName ? token.kind !== 'word' && token.kind !== 'quoted' : !isPunct(token, ',')) return false;
  }
  return true;
}

/** Every function call in the tokens, with its verdict. */
export function functionCalls(tokens: readonly SqlToken[]): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const open = tokens[index + 1];
    if (!isPunct(open, '(') || (token.kind !== 'word' && token.kind !== 'quoted')) continue;
    const previous = tokens[index - 1];
    const qualified = isPunct(previous, '.');
    const name = token.value.toUpperCase();
    if (token.kind === 'word' && !qualified && NOT_CALLS.has(name)) continue;
    const close = closingParen(tokens, index + 1);
    if (close > 0 && identifierList(tokens, index + 1, close) && !qualified) {
      // WITH cte (a, b) AS (…) and … AS dt (a, b): column lists, not calls.
      if (isWord(tokens[close + 1], 'AS') && isPunct(tokens[close + 2], '(')) continue;
      if (isWord(previous, 'AS') && !isPunct(tokens[close + 1], '(')) continue;
    }
    const quoted = token.kind === 'quoted';
    const spaced = open!.start !== token.end;
    let verdict: FunctionCall['verdict'] = 'unknown';
    if (!qualified && !quoted) {
      if (SIDE_EFFECT_FUNCTIONS.has(name)) verdict = 'side-effect';
      else if (SAFE_FUNCTIONS.has(name) && !spaced) verdict = 'safe';
    }
    if (!qualified && SIDE_EFFECT_FUNCTIONS.has(name)) verdict = 'side-effect';
    calls.push({ name, qualified, quoted, spaced, start: token.start, verdict });
  }
  return calls;
}

function callText(call: FunctionCall): string {
  return `${call.qualified ? '….' : ''}${call.quoted ? `\`${call.name}\`` : call.name}()`;
}

/** Risks of calling functions: side-effect built-ins always; unknown functions too unless allowed. */
export function functionRisks(
  tokens: readonly SqlToken[],
  options: { allowUnknown?: boolean } = {},
): ExecutionRisk[] {
  const risks: ExecutionRisk[] = [];
  for (const call of functionCalls(tokens)) {
    if (call.verdict === 'side-effect') {
      risks.push({
        kind: 'side-effect-function',
        message: `${callText(call)} ${SIDE_EFFECT_FUNCTIONS.get(call.name)}`,
        start: call.start,
      });
    } else if (call.verdict === 'unknown' && !options.allowUnknown) {
      const why = call.qualified
        ? 'a stored function'
        : call.quoted || call.spaced
          ? 'written so that the server may resolve it to a stored function'
          : 'not a built-in function known to be free of side effects (it may be a stored or loadable function)';
      risks.push({ kind: 'unknown-function', message: `${callText(call)} is ${why}`, start: call.start });
    }
  }
  return risks;
}

/**
 * Everything that makes executing `tokens` (a SELECT, TABLE, VALUES or the statement of EXPLAIN
 * ANALYZE) more than a read: function risks, INTO, locking reads, `:=`, sequences, PROCEDURE.
 */
export function executionRisks(tokens: readonly SqlToken[]): ExecutionRisk[] {
  const risks = functionRisks(tokens);
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (isWord(token, 'INTO')) {
      const what = isWord(next, 'OUTFILE', 'DUMPFILE')
        ? `INTO ${next!.value} writes a file on the server host`
        : 'INTO assigns variables';
      risks.push({ kind: 'into', message: `SELECT … ${what}`, start: token.start });
    } else if (isWord(token, 'FOR') && isWord(next, 'UPDATE', 'SHARE')) {
      risks.push({
        kind: 'locking-read',
        message: `SELECT … FOR ${next!.value} takes row locks`,
        start: token.start,
      });
    } else if (isWord(token, 'LOCK') && isWord(next, 'IN')) {
      risks.push({
        kind: 'locking-read',
        message: 'SELECT … LOCK IN SHARE MODE takes row locks',
        start: token.start,
      });
    } else if (isPunct(token, ':=')) {
      risks.push({ kind: 'assignment', message: ':= assigns a user variable', start: token.start });
    } else if (
      isWord(token, 'NEXT', 'PREVIOUS') &&
      isWord(next, 'VALUE') &&
      isWord(tokens[index + 2], 'FOR')
    ) {
      risks.push({
        kind: 'sequence',
        message: `${token.value} VALUE FOR uses a sequence`,
        start: token.start,
      });
    } else if (isWord(token, 'PROCEDURE')) {
      risks.push({ kind: 'procedure', message: 'SELECT … PROCEDURE runs a procedure', start: token.start });
    }
  }
  return risks.sort((a, b) => a.start - b.start);
}
