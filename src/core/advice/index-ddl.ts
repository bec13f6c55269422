// Index DDL the advice proposes: names, functional key parts, generated columns, and their limits.

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo, TableInfo } from '../model/schema.js';
import { type AstNode, columnRefs, functionArgs, functionName, isNode, spanOf } from '../sql/ast.js';
import { parseFragment, printSql } from '../sql/parse.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import {
  declaredLength,
  effectiveCharset,
  effectiveCollation,
  isIntegerColumn,
  isStringColumn,
  isUnsigned,
} from './column-types.js';
import { literalOf } from './literals.js';

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

/** A key part of a proposed index: a column, or an expression (already parenthesized for DDL). */
export type ProposedPart = { column: string } | { expression: string };

function canonical(text: string): string {
  let result = text.replace(/[`\s]/g, '').toLowerCase();
  while (result.startsWith('(') && result.endsWith(')') && balanced(result.slice(1, -1)))
    result = result.slice(1, -1);
  return result;
}

function balanced(text: string): boolean {
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
    if ('prefixLength' in part && part.prefixLength) return undefined; // a prefix serves ranges only partly
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
    .map((part) => ('column' in part ? quoteIdentifier(part.column) : `(${part.expression})`))
    .join(', ');
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

/** A generated column's SQL type for a wrapped expression, or a reason it cannot be derived. */
export type ResultType = { ok: true; sql: string; string: boolean } | { ok: false; reason: string };

/** Derive the generated column's type from the expression's result type; strings always get CHARACTER SET and COLLATE. */
export function generatedColumnType(
  wrapped: WrappedOperand,
  column: ColumnInfo,
  table: TableInfo,
): ResultType {
  const stringType = (
    length: number | undefined,
    collation: string | null,
    charset: string | null,
  ): ResultType => {
    if (!length) return { ok: false, reason: `the length of ${column.name} is unknown` };
    if (!collation || !charset)
      return {
        ok: false,
        reason: `the collation of ${column.name} is unknown (declare it, or connect to the server)`,
      };
    return {
      ok: true,
      sql: `VARCHAR(${length}) CHARACTER SET ${charset} COLLATE ${collation}`,
      string: true,
    };
  };
  const collation = effectiveCollation(column, table);
  const charset = effectiveCharset(column, table);
  if (wrapped.kind === 'json') {
    if (jsonShape(wrapped) !== 'unquoted')
      return {
        ok: false,
        reason: 'a raw JSON value cannot be indexed; unquote it (->> or JSON_UNQUOTE) and compare the scalar',
      };
    return {
      ok: true,
      sql: `VARCHAR(${JSON_CHAR_LENGTH}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
      string: true,
    };
  }
  if (wrapped.kind === 'arithmetic') {
    if (!isIntegerColumn(column) || !['+', '-', '*'].includes(wrapped.name))
      return { ok: false, reason: 'only integer +, - and * have an exact result type' };
    if (columnRefs(wrapped.node).length !== 1)
      return { ok: false, reason: 'the expression uses several columns' };
    return {
      ok: true,
      sql: isUnsigned(column) && wrapped.name !== '-' ? 'BIGINT UNSIGNED' : 'BIGINT',
      string: false,
    };
  }
  if (wrapped.kind === 'coalesce')
    return { ok: true, sql: column.columnType.toUpperCase(), string: isStringColumn(column) } as ResultType;
  if (wrapped.kind !== 'function')
    return { ok: false, reason: `the result type of ${wrapped.name} is not derived` };
  const args = functionArgs(wrapped.node);
  switch (wrapped.name) {
    case 'MONTH':
    case 'DAYOFWEEK':
    case 'WEEKDAY':
    case 'QUARTER':
    case 'HOUR':
    case 'MINUTE':
    case 'SECOND':
    case 'DAYOFMONTH':
    case 'DAY':
    case 'WEEK':
    case 'WEEKOFYEAR':
      return { ok: true, sql: 'TINYINT', string: false };
    case 'YEAR':
    case 'DAYOFYEAR':
      return { ok: true, sql: 'SMALLINT', string: false };
    case 'TO_DAYS':
    case 'YEARWEEK':
    case 'CHAR_LENGTH':
    case 'LENGTH':
    case 'CRC32':
      return { ok: true, sql: 'BIGINT', string: false };
    case 'DATE':
      return { ok: true, sql: 'DATE', string: false };
    case 'LOWER':
    case 'UPPER':
    case 'LCASE':
    case 'UCASE':
    case 'TRIM':
    case 'LTRIM':
    case 'RTRIM':
    case 'REVERSE':
      return isStringColumn(column)
        ? stringType(declaredLength(column), collation, charset)
        : { ok: false, reason: `${column.name} is not a string column` };
    case 'LEFT':
    case 'SUBSTRING':
    case 'SUBSTR':
    case 'MID': {
      const length = literalOf(wrapped.name === 'LEFT' ? args[1] : args[2]);
      const declared = declaredLength(column);
      const n = length?.kind === 'integer' ? Number(length.value) : declared;
      return isStringColumn(column)
        ? stringType(n && declared ? Math.min(n, declared) : n, collation, charset)
        : { ok: false, reason: `${column.name} is not a string column` };
    }
    default:
      return { ok: false, reason: `the result type of ${wrapped.name}() is not derived` };
  }
}
