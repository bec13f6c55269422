// Index DDL the advice proposes: names, key parts (prefix lengths, functional parts), and the limits
// the servers enforce on them.
//
// Design note: every limit here is what the server answers, with its error number, so a proposal is
// refused before the user runs it: TEXT/BLOB without a prefix (1170), keys over 3072 bytes (1071),
// expressions over AUTO_INCREMENT (3754/3109/1901), non-deterministic or unknown functions
// (3758/1305/3763), placeholders (1064), JSON without CAST … COLLATE utf8mb4_bin (3757/3753). The type
// of a generated column for an expression is derived in generated-type.ts.

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo, TableInfo } from '../model/schema.js';
import { type AstNode, columnRefs, functionArgs, functionName, isNode, spanOf } from '../sql/ast.js';
import { parseFragment, printSql } from '../sql/parse.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import { effectiveCharset } from './column-types.js';
import { literalOf } from './literals.js';
import { MARIADB_BUILTINS, MYSQL_BUILTINS } from './builtin-functions.js';

/** Functions whose value is not fixed by the row: never allowed in an index expression (MySQL 3758, MariaDB 1901). */
export const NONDETERMINISTIC_FUNCTIONS = new Set([
  'NOW',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'CURDATE',
  'CURRENT_DATE',
  'CURTIME',
  'CURRENT_TIME',
  'SYSDATE',
  'UTC_DATE',
  'UTC_TIME',
  'UTC_TIMESTAMP',
  'UNIX_TIMESTAMP',
  'RAND',
  'UUID',
  'UUID_SHORT',
  'CURRENT_USER',
  'USER',
  'SESSION_USER',
  'SYSTEM_USER',
  'CONNECTION_ID',
  'LAST_INSERT_ID',
  'FOUND_ROWS',
  'ROW_COUNT',
  'DATABASE',
  'SCHEMA',
  'VERSION',
  'SLEEP',
  'GET_LOCK',
  'BENCHMARK',
  'LOAD_FILE',
]);

/** Distinct values of low-cardinality functions: an index on them alone is weak. */
export const LOW_CARDINALITY: Readonly<Record<string, number>> = {
  MONTH: 12,
  DAYOFWEEK: 7,
  WEEKDAY: 7,
  QUARTER: 4,
  HOUR: 24,
  DAYOFMONTH: 31,
  DAY: 31,
};

/** Function names (upper-case) anywhere in an expression, and whether it has user variables or subqueries. */
export function functionsIn(expression: unknown): { names: Set<string>; impure: boolean } {
  const names = new Set<string>();
  let impure = false;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (value.type === 'function') names.add(functionName(value));
    if (value.type === 'var' || isNode(value.ast)) impure = true;
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return { names, impure };
}

/** Built-in function names of the flavor (Percona Server is MySQL). */
export function builtinFunctions(flavor: Flavor): ReadonlySet<string> {
  return flavor === 'mariadb' ? MARIADB_BUILTINS : MYSQL_BUILTINS;
}

/** Placeholders (`?`, `:name`) anywhere in an expression. */
export function hasPlaceholder(expression: unknown): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if ((value.type === 'origin' && value.value === '?') || value.type === 'param') {
      found = true;
      return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return found;
}

/** A column the blockers below need to know about. */
export interface ExpressionColumn {
  name: string;
  autoIncrement: boolean;
  /** An UNSIGNED integer column (MariaDB refuses a subtraction over one in a generated column). */
  unsignedInteger?: boolean;
}

/** Whether a column is an UNSIGNED integer (`int unsigned`, `bigint(20) unsigned` …). */
export function isUnsignedInteger(column: Pick<ColumnInfo, 'dataType' | 'columnType'>): boolean {
  return /int$/i.test(column.dataType) && /unsigned/i.test(column.columnType);
}

/** The UNSIGNED integer column read under a binary `-` of the expression, if any. */
function unsignedSubtraction(node: AstNode, columns: readonly ExpressionColumn[]): string | undefined {
  let found: string | undefined;
  const visit = (value: unknown): void => {
    if (found || !isNode(value)) return;
    if (value.type === 'binary_expr' && value.operator === '-' && isNode(value.left) && isNode(value.right)) {
      const names = new Set(columnRefs(value).map((ref) => ref.column.toLowerCase()));
      found = columns.find((column) => column.unsignedInteger && names.has(column.name.toLowerCase()))?.name;
      if (found) return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(node);
  return found;
}

/**
 * Why no index on the expression can be created, whatever its form (functional index or generated
 * column): each reason is what the server would answer. Empty when nothing blocks it.
 */
export function expressionIndexBlockers(
  expression: AstNode,
  columns: readonly ExpressionColumn[],
  flavor: Flavor,
): string[] {
  const reasons: string[] = [];
  if (hasPlaceholder(expression))
    reasons.push(
      'the expression holds a placeholder (?) whose value is unknown until execution; DDL cannot contain one (ERROR 1064). Index the expression with its actual constant, or rewrite the predicate.',
    );
  const builtins = builtinFunctions(flavor);
  const unknown = [...functionsIn(expression).names].filter((name) => !builtins.has(name));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `${name}()`).join(', ');
    const other = flavor === 'mariadb' ? MYSQL_BUILTINS : MARIADB_BUILTINS;
    const elsewhere = unknown.filter((name) => other.has(name));
    reasons.push(
      `${list} ${unknown.length > 1 ? 'are not built-in functions' : 'is not a built-in function'} of ${flavor === 'mariadb' ? 'MariaDB' : 'MySQL'}${elsewhere.length ? ` (${elsewhere.map((name) => `${name}()`).join(', ')} exists on ${flavor === 'mariadb' ? 'MySQL' : 'MariaDB'})` : ''}: the query itself fails with ERROR 1305 unless a stored function has that name, and an index expression may not call a stored function (MySQL 3763, MariaDB 1901).${unknown.includes('NVL') || unknown.includes('ISNULL') ? ' Use IFNULL(x, v) or COALESCE(x, v).' : ''}`,
    );
  }
  const aggregates = [...functionsIn(expression).names].filter((name) => AGGREGATE_FUNCTIONS.has(name));
  if (aggregates.length > 0)
    reasons.push(
      `${aggregates.map((name) => `${name}()`).join(', ')} ${aggregates.length > 1 ? 'are' : 'is an'} aggregate function${aggregates.length > 1 ? 's' : ''} of the grouped rows, not a value of one row: no index can hold it (ERROR 1111 "Invalid use of group function").`,
    );
  const top = expression.type === 'function' ? functionName(expression) : undefined;
  if (top && (JSON_RESULT_FUNCTIONS.has(top) || GEOMETRY_RESULT.test(top)))
    reasons.push(
      `${top}() returns a ${JSON_RESULT_FUNCTIONS.has(top) ? 'JSON' : 'GEOMETRY'} value, and neither a functional index (MySQL ERROR 3757) nor a B-tree index on such a column can hold it; index a scalar extracted from it (CAST(… AS CHAR(n)) or a number).`,
    );
  const autoIncrement = columns.filter((column) => column.autoIncrement);
  if (autoIncrement.length > 0)
    reasons.push(
      `${autoIncrement.map((column) => column.name).join(', ')} is AUTO_INCREMENT: neither server indexes an expression over it (MySQL 3754 for a functional index, 3109 for a generated column; MariaDB 1901).`,
    );
  // MariaDB refuses an indexed generated column over a subtraction with an UNSIGNED integer operand:
  // its result depends on the session's NO_UNSIGNED_SUBTRACTION (ERROR 1901, measured on 10.11 with
  // Sakila's film.length - language_id; +, *, DIV, unary minus and DECIMAL UNSIGNED are accepted).
  const unsignedMinus = flavor === 'mariadb' ? unsignedSubtraction(expression, columns) : undefined;
  if (unsignedMinus)
    reasons.push(
      `MariaDB does not index a generated column over a subtraction with the UNSIGNED integer column ${unsignedMinus} (ERROR 1901: the result depends on the session's NO_UNSIGNED_SUBTRACTION sql_mode). CAST does not help (CAST(… AS SIGNED) - x is refused too); compare the bare column instead where the query allows it.`,
    );
  return reasons;
}

/** Aggregate functions: a value of the grouped rows, never of one row (ERROR 1111 in an index). */
export const AGGREGATE_FUNCTIONS = new Set([
  'AVG',
  'BIT_AND',
  'BIT_OR',
  'BIT_XOR',
  'COUNT',
  'GROUP_CONCAT',
  'GROUPING',
  'JSON_ARRAYAGG',
  'JSON_OBJECTAGG',
  'MAX',
  'MIN',
  'STD',
  'STDDEV',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'SUM',
  'VAR_POP',
  'VAR_SAMP',
  'VARIANCE',
]);

/** Functions returning a JSON value (MySQL: "Cannot create a functional index on a function that returns a JSON or GEOMETRY value", 3757). */
const JSON_RESULT_FUNCTIONS = new Set([
  'JSON_ARRAY',
  'JSON_OBJECT',
  'JSON_MERGE',
  'JSON_MERGE_PATCH',
  'JSON_MERGE_PRESERVE',
  'JSON_SET',
  'JSON_INSERT',
  'JSON_REPLACE',
  'JSON_REMOVE',
  'JSON_ARRAY_APPEND',
  'JSON_ARRAY_INSERT',
  'JSON_KEYS',
  'JSON_SEARCH',
]);
/** Spatial constructors and functions returning a geometry. */
const GEOMETRY_RESULT =
  /^(POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION|ST_(GEOM|POINT|LINE|POLY|MPOINT|MLINE|MPOLY|GEOMCOLL|MULTI|BUFFER|CENTROID|CONVEXHULL|DIFFERENCE|ENVELOPE|INTERSECTION|SYMDIFFERENCE|UNION|STARTPOINT|ENDPOINT|EXTERIORRING|INTERIORRINGN|GEOMETRYN|POINTN|SIMPLIFY|VALIDATE|TRANSFORM|SWAPXY|POINTFROMGEOHASH|GEOMFROMGEOJSON|POINTATDISTANCE|LINEINTERPOLATEPOINT)\w*)$/;

/**
 * Whether the table's engine indexes VIRTUAL generated columns (and so MySQL's functional key parts,
 * hidden virtual columns): MySQL only in InnoDB (MyISAM: ERROR 1478 "does not support the create
 * option 'Index on virtual generated column'", measured on 8.0.33; a STORED column is indexed there);
 * MariaDB also in MyISAM/Aria (measured on 10.11).
 */
export function indexesVirtualColumns(table: Pick<TableInfo, 'engine'>, flavor: Flavor): boolean {
  return flavor === 'mariadb' || !table.engine || /^innodb$/i.test(table.engine);
}

/** Functions that return their string argument's type: over a TEXT/BLOB column they return TEXT/BLOB. */
const STRING_PRESERVING = new Set([
  'LOWER',
  'UPPER',
  'LCASE',
  'UCASE',
  'TRIM',
  'LTRIM',
  'RTRIM',
  'REVERSE',
  'REPLACE',
  'CONCAT',
  'CONCAT_WS',
  'COALESCE',
  'IFNULL',
  'SUBSTRING_INDEX',
  'LPAD',
  'RPAD',
]);

/** True when a wrapper over a TEXT/BLOB column returns TEXT/BLOB: MySQL refuses it as a functional key part (3757). */
export function returnsBlobOrText(name: string, column: ColumnInfo): boolean {
  return BLOB_TEXT.test(column.dataType.toLowerCase()) && STRING_PRESERVING.has(name);
}

/** Identifier quoted only when needed. */
export function quoteIdentifier(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toUpperCase())
    ? name
    : `\`${name.replace(/`/g, '``')}\``;
}
const RESERVED = new Set([
  'ORDER',
  'GROUP',
  'KEY',
  'INDEX',
  'SELECT',
  'FROM',
  'WHERE',
  'TABLE',
  'DESC',
  'RANGE',
  'RANK',
  'ROWS',
  'STATUS',
  'USER',
]);

/**
 * The expression as the query writes it, without table qualifiers (`p.create_time` → `create_time`),
 * so the index expression matches the query's: MySQL only uses a functional index for the same expression.
 */
export function indexExpressionText(sql: string, node: AstNode, flavor: Flavor): string {
  const span = spanOf(node);
  const refs = columnRefs(node);
  if (!span || refs.some((ref) => ref.table && !spanOf(ref.node))) return printSql(unqualified(node), flavor);
  let text = sql.slice(span.start, span.end).trimEnd();
  const edits = refs
    .filter((ref) => ref.table)
    .map((ref) => ({ span: spanOf(ref.node)!, column: ref.column }))
    .sort((a, b) => b.span.start - a.span.start);
  for (const edit of edits) {
    const start = edit.span.start - span.start;
    const end = edit.span.end - span.start;
    text = text.slice(0, start) + quoteIdentifier(edit.column) + text.slice(end);
  }
  return text;
}

function unqualified(node: AstNode): AstNode {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) =>
    key === 'loc'
      ? undefined
      : isNode(value) && value.type === 'column_ref'
        ? { ...value, table: null }
        : value,
  ) as AstNode;
}

/** A short name token for the wrapper: `month`, `plus`, `json_name` … */
export function wrapperToken(wrapped: WrappedOperand): string {
  if (wrapped.kind === 'arithmetic')
    return (
      (
        { '+': 'plus', '-': 'minus', '*': 'times', '/': 'div', DIV: 'div', '%': 'mod', MOD: 'mod' } as Record<
          string,
          string
        >
      )[wrapped.name] ?? 'expr'
    );
  if (wrapped.kind === 'json') {
    const path = jsonPath(wrapped.node);
    return path
      ? path
          .replace(/^\$\.?/, '')
          .replace(/[^A-Za-z0-9]+/g, '_')
          .replace(/^_|_$/g, '')
          .toLowerCase() || 'json'
      : 'json';
  }
  return wrapped.name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

function jsonPath(node: AstNode): string | undefined {
  const visit = (value: unknown): string | undefined => {
    if (!isNode(value)) return undefined;
    if (value.type === 'binary_expr' && (value.operator === '->>' || value.operator === '->')) {
      const literal = literalOf(value.right);
      return literal?.kind === 'string' ? literal.value : undefined;
    }
    if (value.type === 'function') {
      const name = functionName(value);
      const args = functionArgs(value);
      if (name === 'JSON_UNQUOTE') return visit(args[0]);
      if (name === 'JSON_EXTRACT' || name === 'JSON_VALUE') {
        const literal = literalOf(args[1]);
        return literal?.kind === 'string' ? literal.value : undefined;
      }
    }
    return undefined;
  };
  return visit(node);
}

/** JSON shape of a wrapped expression: unquoted scalar (`->>`, JSON_UNQUOTE, JSON_VALUE), raw JSON, or not JSON. */
export function jsonShape(wrapped: WrappedOperand): 'unquoted' | 'json' | 'none' {
  if (wrapped.kind !== 'json') return 'none';
  const node = wrapped.node;
  if (node.type === 'binary_expr') return node.operator === '->>' ? 'unquoted' : 'json';
  return wrapped.name === 'JSON_UNQUOTE' || wrapped.name === 'JSON_VALUE' ? 'unquoted' : 'json';
}

/** Length used for `CAST(json AS CHAR(n))` / generated VARCHAR columns over JSON scalars. */
export const JSON_CHAR_LENGTH = 255;

/** Unique identifier (max 64 chars) not in `taken` (compared case-insensitively). */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((name) => name.toLowerCase()));
  const trimmed = base.slice(0, 64);
  if (!used.has(trimmed.toLowerCase())) return trimmed;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 60)}_${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** A key part of a proposed index: a column (with a prefix length for TEXT/BLOB and long strings), or an expression. */
export type ProposedPart = { column: string; prefixLength?: number } | { expression: string };

/** InnoDB's key length limit (DYNAMIC/COMPRESSED rows, both servers): longer keys fail with ERROR 1071. */
export const MAX_KEY_BYTES = 3072;
/** The prefix proposed for TEXT/BLOB and over-long string columns: characters (bytes for binary types). */
export const KEY_PREFIX_LENGTH = 255;

const BYTES_PER_CHAR: Readonly<Record<string, number>> = {
  latin1: 1,
  ascii: 1,
  binary: 1,
  utf8: 3,
  utf8mb3: 3,
  utf8mb4: 4,
  ucs2: 2,
  utf16: 4,
  utf32: 4,
};
const BLOB_TEXT = /^(tiny|medium|long)?(text|blob)$/;

/** Bytes a key part on the column takes at most (4 per character when the character set is unknown). */
function keyBytes(info: ColumnInfo | undefined, table: TableInfo, prefix?: number): number {
  if (!info) return 8;
  const type = info.dataType.toLowerCase();
  const binary = /binary|blob/.test(type);
  const perChar = binary ? 1 : (BYTES_PER_CHAR[effectiveCharset(info, table) ?? ''] ?? 4);
  const length = /^(var)?(char|binary)\((\d+)\)/i.exec(info.columnType);
  if (prefix) return prefix * perChar;
  if (length) return Number(length[3]) * perChar;
  if (BLOB_TEXT.test(type)) return Infinity;
  return 16;
}

/**
 * Key parts for plain columns as the server accepts them: a TEXT/BLOB column needs a prefix length
 * (ERROR 1170 without one), and so does a string column longer than the key limit (ERROR 1071 on
 * MySQL; MariaDB silently shortens it). Returns the parts and notes, or a reason when the key stays
 * too long even with prefixes.
 */
export function plainKeyParts(
  table: TableInfo,
  columns: readonly string[],
): { ok: true; parts: ProposedPart[]; notes: string[] } | { ok: false; reason: string } {
  const parts: ProposedPart[] = [];
  const notes: string[] = [];
  let total = 0;
  for (const name of columns) {
    const info = table.columns.find((column) => column.name.toLowerCase() === name.toLowerCase());
    const bytes = keyBytes(info, table);
    if (info && bytes > MAX_KEY_BYTES) {
      parts.push({ column: name, prefixLength: KEY_PREFIX_LENGTH });
      total += keyBytes(info, table, KEY_PREFIX_LENGTH);
      notes.push(
        `${name} is ${info.columnType.toUpperCase()}: the index holds its first ${KEY_PREFIX_LENGTH} ${/blob|binary/i.test(info.dataType) ? 'bytes' : 'characters'} (${BLOB_TEXT.test(info.dataType.toLowerCase()) ? 'a TEXT/BLOB column cannot be indexed whole, ERROR 1170' : `the whole column exceeds the ${MAX_KEY_BYTES}-byte key limit, ERROR 1071`}). It finds the rows, and the server re-checks the full value; it cannot cover the query or give ORDER BY ${name} without a sort.`,
      );
    } else {
      parts.push({ column: name });
      total += bytes;
    }
  }
  if (total > MAX_KEY_BYTES)
    return {
      ok: false,
      reason: `the key would take up to ${total} bytes, more than the ${MAX_KEY_BYTES}-byte limit (ERROR 1071)`,
    };
  return { ok: true, parts, notes };
}

function canonical(text: string): string {
  let result = text.replace(/[`\s]/g, '').toLowerCase();
  while (result.startsWith('(') && result.endsWith(')') && balanced(result.slice(1, -1)))
    result = result.slice(1, -1);
  return result;
}

/** Every ')' closes an earlier '(' and none is left open. */
export function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function partKey(part: ProposedPart | IndexInfo['parts'][number]): string | undefined {
  if ('expression' in part && part.expression) return `e:${canonical(part.expression)}`;
  if ('column' in part && part.column) {
    // A prefix part serves only a proposal with a prefix at least as long.
    if ('prefixLength' in part && part.prefixLength)
      return `p:${part.column.toLowerCase()}:${part.prefixLength}`;
    return `c:${part.column.toLowerCase()}`;
  }
  return undefined;
}

/** An existing (visible, B-tree) index whose leading key parts are exactly `parts` — it already serves them. */
export function existingIndexServing(
  table: TableInfo,
  parts: readonly ProposedPart[],
): IndexInfo | undefined {
  const wanted = parts.map(partKey);
  return table.indexes.find(
    (index) =>
      index.visible &&
      index.kind === 'btree' &&
      index.parts.length >= wanted.length &&
      wanted.every(
        (key, i) =>
          key !== undefined &&
          partKey(index.parts[i] ?? { column: null, expression: null, prefixLength: null }) === key,
      ),
  );
}

/** DDL for a key part list: columns bare, expressions in their own parentheses (`((MONTH(c)))` overall). */
export function keyPartsSql(parts: readonly ProposedPart[]): string {
  return parts
    .map((part) =>
      'column' in part
        ? `${quoteIdentifier(part.column)}${part.prefixLength ? `(${part.prefixLength})` : ''}`
        : `(${part.expression})`,
    )
    .join(', ');
}

/** A prefix for an index on a generated string column longer than InnoDB's 3072-byte key (MySQL 1071). */
export function generatedKeyPrefix(sql: string): { prefixLength?: number } {
  const match = /^VARCHAR\((\d+)\) CHARACTER SET (\w+)/i.exec(sql);
  if (!match) return {};
  const perChar = { latin1: 1, ascii: 1, utf8: 3, utf8mb3: 3, ucs2: 2 }[match[2]?.toLowerCase() ?? ''] ?? 4;
  return Number(match[1]) * perChar > MAX_KEY_BYTES ? { prefixLength: KEY_PREFIX_LENGTH } : {};
}

/** What an index definition to validate looks like (for the functional-key-part limits). */
export interface IndexSpec {
  kind: 'index' | 'unique' | 'primary' | 'foreign' | 'fulltext' | 'spatial';
  parts: ReadonlyArray<
    { column: string; prefixLength?: number } | { expression: string; prefixLength?: number }
  >;
}

/**
 * MySQL's limits on functional key parts (seed §2.1 and server-facts): a part may not be a bare
 * column in parentheses (3762), not in PRIMARY KEY (3756) / FOREIGN KEY / SPATIAL / FULLTEXT, no
 * prefix, deterministic functions only (3758), JSON values only through CAST(… AS CHAR(n)) (3757, 3753).
 */
export function checkFunctionalKeyParts(spec: IndexSpec, flavor: Flavor = 'mysql'): string[] {
  const problems: string[] = [];
  for (const part of spec.parts) {
    if (!('expression' in part)) continue;
    if (spec.kind !== 'index' && spec.kind !== 'unique')
      problems.push(
        `A ${spec.kind === 'primary' ? 'PRIMARY KEY' : spec.kind.toUpperCase() + (spec.kind === 'foreign' ? ' KEY' : '')} cannot have a functional key part.`,
      );
    if (part.prefixLength) problems.push('A functional key part cannot use a column prefix.');
    const parsed = parseFragment(`SELECT ${part.expression}`, flavor);
    const columns = parsed.ok ? (parsed.ast.columns as { expr?: AstNode }[] | undefined) : undefined;
    const expr = columns?.[0]?.expr;
    if (!parsed.ok || !isNode(expr)) {
      problems.push(`The expression ${part.expression} does not parse.`);
      continue;
    }
    if (expr.type === 'column_ref' && !expr.collate) {
      problems.push(`(${part.expression}) is a bare column: write it without parentheses (ERROR 3762).`);
      continue;
    }
    const { names, impure } = functionsIn(expr);
    const bad = [...names].filter((name) => NONDETERMINISTIC_FUNCTIONS.has(name));
    if (bad.length > 0 || impure)
      problems.push(
        `${bad.length ? bad.map((name) => `${name}()`).join(', ') : 'A variable or subquery'} is not deterministic: not allowed in an index (ERROR 3758).`,
      );
    const top = expr.type === 'cast' ? undefined : expr;
    if (
      top &&
      ((top.type === 'binary_expr' && (top.operator === '->>' || top.operator === '->')) ||
        (top.type === 'function' &&
          ['JSON_EXTRACT', 'JSON_UNQUOTE', 'JSON_VALUE'].includes(functionName(top))))
    )
      problems.push(
        'A JSON value must be indexed as CAST(… AS CHAR(n)) COLLATE utf8mb4_bin (ERROR 3757/3753).',
      );
  }
  return problems;
}
