// Would the server use a proposed index for the query as advised, on the data it holds now?
//
// Design note: a live analysis measures, on the same bounded random sample as the distinct counts
// (selectivity.ts), the share of rows the index's access predicate matches: the AND-ed comparisons
// with a constant on the index's leading key parts (equalities, then at most one range), or on the
// indexed expression. `predictIndexUse` then says whether the optimizer would enter the index:
//   - a range (or, on MariaDB and in UPDATE/DELETE, an equality) over a larger share of rows than the
//     server's measured break-even is read by a full scan instead (RANGE_BREAK_EVEN below);
//   - an index that serves only the ORDER BY of a query without LIMIT is not read either: the server
//     reads every row and sorts rather than fetch each row through a secondary index; nor one that
//     no predicate seeks when the GROUP BY starts with another column (GROUP BY in key order is not
//     judged: MariaDB reads such an index to group without a temporary table);
//   - MySQL equalities in a SELECT only over ≥ 96 % of a table of ≤ 2,000 rows (elsewhere MySQL 8.0
//     chose `ref` at every share measured, up to 97 %);
//   - never withdrawn: a covering index (read instead of the table whatever the share), an ORDER BY
//     … LIMIT query (the index can stop after LIMIT rows), in a join an index no constant predicate
//     seeks (it may serve the lookups from the other side), a self-join, tables under MIN_JUDGED_ROWS
//     rows, and any predicate that cannot be measured. In a join a range over a larger share than the
//     break-even is not read either: the table is scanned, or reached through its join key.
// Offline nothing here runs: the advice is the same as without a connection.

import type { Flavor } from '../flavors/capabilities.js';
import type { Finding, Suggestion } from '../model/report.js';
import { servedSql } from '../model/report.js';
import { type AstNode, columnRefs, isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { functionsIn, hasPlaceholder, indexExpressionText } from './index-ddl.js';

/**
 * Largest share of a table's rows a non-covering secondary-index range is still chosen for, by table
 * size (rows, share), measured with EXPLAIN on MySQL 8.0.33 and MariaDB 10.11 (docs/testing.md,
 * "Index use and selectivity"): the midpoint between the last share read through the index and the
 * first one scanned. Interpolated over log(rows); flat below the first and beyond the last point.
 */
export const RANGE_BREAK_EVEN: Readonly<Record<'mysql' | 'mariadb', readonly [number, number][]>> = {
  mysql: [
    [20_000, 0.285],
    [40_000, 0.185],
    [100_000, 0.155],
    [200_000, 0.135],
  ],
  mariadb: [
    [40_000, 0.165],
    [100_000, 0.085],
  ],
};

/**
 * MySQL 8.0 reads an equality through `ref` at nearly every share, but scans (LIMIT or not) when it
 * matches this share of a table of at most {@link MYSQL_EQUALITY_SCAN_ROWS} rows: measured at 97 % on
 * 300–2,000 rows with rows of 10–300 bytes (10 of 12 tables scanned; at 95 % it depends on the row
 * width, at 5,000 rows and more it always used the index).
 */
export const MYSQL_EQUALITY_SCAN_SHARE = 0.96;
export const MYSQL_EQUALITY_SCAN_ROWS = 2_000;

/** Below this many rows nothing is withdrawn: any plan is cheap on a tiny table. */
export const MIN_JUDGED_ROWS = 100;

/** How a proposed index would be entered by the advised query. */
export interface IndexAccess {
  index: string;
  table: string;
  /** `none`: no predicate on the index's leading key part (it can only serve the ORDER BY / GROUP BY). */
  access: 'range' | 'equality' | 'none';
  /** The access predicate, unqualified SQL over the table's columns (null for `none`). */
  predicate: string | null;
  /** Key of the predicate in TableSample.matching. */
  predicateKey: string | null;
  /** Columns the predicate reads. */
  reads: string[];
  statement: 'select' | 'update' | 'delete';
  /** ORDER BY or GROUP BY present. */
  ordered: boolean;
  /** ORDER BY present. */
  orderBy: boolean;
  /** GROUP BY present, and whether its first item is the index's first key part (it could group in key order). */
  groupBy: 'none' | 'leads' | 'other';
  limit: boolean;
  /** Every column the statement reads is in the index (or the primary key): a covering read. */
  covering: boolean;
  /** The statement reads other tables too (a SELECT with joins). */
  joined: boolean;
}

/** What the share measured on live data says about a proposed index. */
export interface IndexUseVerdict {
  used: boolean;
  /** The share the verdict compared (1 for `none`). */
  share: number;
  /** The break-even share it was compared with, when a range or equality was judged. */
  breakEven?: number;
}

const EQUALITY = new Set(['=', '<=>', 'IS']);
const RANGE = new Set(['<', '<=', '>', '>=', 'BETWEEN', 'NOT BETWEEN', 'LIKE', '<>', '!=', 'IN', 'NOT IN']);

export function predicateKey(sql: string): string {
  return `predicate:${sql.replace(/[`\s]/g, '').toLowerCase()}`;
}

const canonical = (text: string) => text.replace(/[`\s()]/g, '').toLowerCase();

/**
 * The access of `suggestion` (an index proposal of `finding`) for the query it serves, or undefined
 * when it cannot be judged (several tables, a key the DDL does not spell plainly, a placeholder or
 * subquery in the predicate, a statement that does not parse).
 */
export function indexAccess(
  finding: Finding,
  suggestion: Suggestion,
  statementSql: string,
  flavor: Flavor,
  primaryKey: readonly string[] = [],
  /** The table's columns, when known: a predicate over any other (a generated column the advice adds) is not judged. */
  tableColumns?: readonly string[],
): IndexAccess | undefined {
  if (!finding.table || suggestion.ddl.length === 0 || !suggestion.indexName) return undefined;
  let keyColumns: string[] | undefined;
  let keyExpression: string | undefined;
  let sql = statementSql;
  if (suggestion.kind === 'index') {
    keyColumns = plainKeyColumns(suggestion.ddl.join('\n'));
    if (!keyColumns) return undefined;
    sql = servedSql(finding, suggestion) ?? statementSql;
  } else if (suggestion.kind === 'functional-index' || suggestion.kind === 'generated-column') {
    if (!finding.expression.trim()) return undefined;
    keyExpression = canonical(finding.expression.replace(/`?[\w$]+`?\s*\.\s*(?=`?[\w$])/g, ''));
  } else return undefined;

  const parsed = parseStatement(sql, flavor);
  if (!parsed.ok) return undefined;
  const ast = parsed.ast;
  const type = String(ast.type);
  if (type !== 'select' && type !== 'update' && type !== 'delete') return undefined;
  if (ast.with) return undefined;
  const sources = (type === 'update' ? ast.table : ast.from) as unknown;
  if (!Array.isArray(sources) || sources.length === 0) return undefined;
  const plain = sources as AstNode[];
  if (plain.some((entry) => typeof entry.table !== 'string' || isNode(entry.expr))) return undefined;
  const matching = plain.filter(
    (entry) => String(entry.table).toLowerCase() === finding.table!.toLowerCase(),
  );
  // A self-join, or the table not named here: not judged.
  if (matching.length !== 1) return undefined;
  const source = matching[0]!;
  // Joins (SELECT only): a column without qualifier is this table's when the table has it (else the
  // query would be ambiguous), so the table's columns must be known.
  const joined = plain.length > 1;
  if (joined && (type !== 'select' || !tableColumns)) return undefined;
  const alias = String(source.as ?? source.table).toLowerCase();
  const own = new Set((tableColumns ?? []).map((column) => column.toLowerCase()));
  const ours = (ref: { table: string | null; column: string }) =>
    ref.table ? ref.table.toLowerCase() === alias : !joined || own.has(ref.column.toLowerCase());

  const textOf = (node: AstNode) => indexExpressionText(sql, node, flavor);
  const isKeyExpression = (node: unknown): boolean =>
    keyExpression !== undefined &&
    isNode(node) &&
    canonical(textOf(node)) === keyExpression &&
    columnRefs(node).every(ours);
  const constant = (node: unknown) =>
    isNode(node) && columnRefs(node).length === 0 && !functionsIn(node).impure && !hasPlaceholder(node);
  /** The key position a comparison's subject stands for (column index, or 0 for the expression). */
  const subjectOf = (node: unknown): number | undefined => {
    if (!isNode(node)) return undefined;
    if (keyExpression !== undefined) return isKeyExpression(node) ? 0 : undefined;
    if (node.type !== 'column_ref') return undefined;
    const ref = columnRefs(node)[0];
    if (!ref || !ours(ref)) return undefined;
    const name = ref.column.toLowerCase();
    const position = name ? keyColumns!.indexOf(name) : -1;
    return position >= 0 ? position : undefined;
  };

  const conjuncts: AstNode[] = [];
  const flatten = (node: unknown) => {
    if (!isNode(node)) return;
    if (node.type === 'binary_expr' && /^(AND|&&)$/i.test(String(node.operator))) {
      flatten(node.left);
      flatten(node.right);
    } else conjuncts.push(node);
  };
  flatten(ast.where);

  // Sargable comparisons with a constant, by key position.
  const byPosition = new Map<number, { node: AstNode; equality: boolean }[]>();
  for (const conjunct of conjuncts) {
    if (conjunct.type !== 'binary_expr') continue;
    const operator = String(conjunct.operator).toUpperCase();
    if (!EQUALITY.has(operator) && !RANGE.has(operator)) continue;
    let position = subjectOf(conjunct.left);
    let other: unknown = conjunct.right;
    if (
      position === undefined &&
      !['BETWEEN', 'NOT BETWEEN', 'LIKE', 'IN', 'NOT IN', 'IS'].includes(operator)
    ) {
      position = subjectOf(conjunct.right);
      other = conjunct.left;
    }
    if (position === undefined) continue;
    // A placeholder, subquery or variable on the key: its share cannot be measured.
    if (hasPlaceholder(other) || functionsIn(other).impure) return undefined;
    if (!constant(other)) continue;
    if (operator === 'LIKE') {
      const pattern = isNode(other) && typeof other.value === 'string' ? other.value : null;
      if (pattern === null || /^[%_]/.test(pattern)) continue;
    }
    const single =
      operator === 'IN' && isNode(other) && Array.isArray(other.value) && other.value.length === 1;
    const equality = EQUALITY.has(operator) || single;
    const list = byPosition.get(position) ?? [];
    list.push({ node: conjunct, equality });
    byPosition.set(position, list);
  }
  // Equalities on the leading key parts, then at most one range.
  const chosen: AstNode[] = [];
  let access: IndexAccess['access'] = 'none';
  const width = keyExpression !== undefined ? 1 : keyColumns!.length;
  for (let position = 0; position < width; position++) {
    const on = byPosition.get(position);
    if (!on) break;
    const equalities = on.filter((entry) => entry.equality);
    if (equalities.length > 0) {
      chosen.push(...equalities.map((entry) => entry.node));
      if (access === 'none') access = 'equality';
      continue;
    }
    chosen.push(...on.map((entry) => entry.node));
    access = 'range';
    break;
  }
  const predicate = chosen.length === 0 ? null : chosen.map((node) => `(${textOf(node)})`).join(' AND ');
  const reads = [...new Set(chosen.flatMap((node) => columnRefs(node).map((ref) => ref.column)))];
  if (tableColumns) {
    const known = new Set(tableColumns.map((column) => column.toLowerCase()));
    const missing = [...reads, ...(keyColumns ?? [])].some((column) => !known.has(column.toLowerCase()));
    if (missing) return undefined;
  }

  const orderby = ast.orderby as unknown;
  const groupby = ast.groupby as { columns?: unknown } | unknown[] | null | undefined;
  const orderBy = Array.isArray(orderby) && orderby.length > 0;
  const groupItems = (Array.isArray(groupby) ? groupby : isNode(groupby) ? groupby.columns : undefined) as
    unknown[] | undefined;
  const firstGroup = Array.isArray(groupItems) && groupItems.length > 0 ? groupItems[0] : undefined;
  const groupBy: IndexAccess['groupBy'] =
    firstGroup === undefined
      ? 'none'
      : keyExpression !== undefined
        ? isKeyExpression(firstGroup)
          ? 'leads'
          : 'other'
        : isNode(firstGroup) &&
            firstGroup.type === 'column_ref' &&
            columnRefs(firstGroup)[0]?.column.toLowerCase() === keyColumns![0]
          ? 'leads'
          : 'other';
  const ordered = orderBy || groupBy !== 'none';
  const limitValue = (ast.limit as { value?: unknown[] } | null | undefined)?.value;
  const limit = Array.isArray(limitValue) && limitValue.length > 0;

  let covering = false;
  if (type === 'select') {
    const covered = new Set([...(keyColumns ?? []), ...primaryKey.map((column) => column.toLowerCase())]);
    let star = false;
    const outside: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!isNode(value)) return;
      if (isKeyExpression(value)) return;
      if (value.type === 'column_ref') {
        const name = typeof value.column === 'string' ? value.column : columnRefs(value)[0]?.column;
        const qualifier = typeof value.table === 'string' ? value.table : null;
        if (name === '*') star ||= qualifier === null || qualifier.toLowerCase() === alias;
        else if (name && ours({ table: qualifier, column: name })) outside.push(name.toLowerCase());
        return;
      }
      for (const key in value) if (key !== 'loc') visit(value[key]);
    };
    for (const part of [ast.columns, ast.where, ast.groupby, ast.having, ast.orderby]) visit(part);
    for (const entry of plain) {
      visit(entry.on);
      // USING (col): the column of both sides.
      for (const item of Array.isArray(entry.using) ? (entry.using as unknown[]) : []) {
        const name = isNode(item) ? item.value : item;
        if (typeof name === 'string' && (!joined || own.has(name.toLowerCase())))
          outside.push(name.toLowerCase());
      }
    }
    covering = !star && outside.every((column) => covered.has(column));
  }
  return {
    index: suggestion.indexName,
    table: finding.table,
    access,
    predicate,
    predicateKey: predicate ? predicateKey(predicate) : null,
    reads,
    statement: type,
    ordered,
    orderBy,
    groupBy,
    limit,
    covering,
    joined,
  };
}

/** The break-even share for a range on a table of `rows` rows. */
export function rangeBreakEven(flavor: Flavor, rows: number): number {
  const points = RANGE_BREAK_EVEN[flavor === 'mariadb' ? 'mariadb' : 'mysql'];
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (rows <= first[0]) return first[1];
  if (rows >= last[0]) return last[1];
  for (let i = 1; i < points.length; i++) {
    const [highRows, highShare] = points[i]!;
    const [lowRows, lowShare] = points[i - 1]!;
    if (rows <= highRows) {
      const t = (Math.log(rows) - Math.log(lowRows)) / (Math.log(highRows) - Math.log(lowRows));
      return lowShare + t * (highShare - lowShare);
    }
  }
  return last[1];
}

/**
 * Whether the server would read the proposed index, given the share of rows its access predicate
 * matches (`share`, 0–1; ignored for `none`) on a table of about `rows` rows. Undefined: not judged.
 */
export function predictIndexUse(
  access: IndexAccess,
  share: number | undefined,
  rows: number,
  flavor: Flavor,
): IndexUseVerdict | undefined {
  if (rows < MIN_JUDGED_ROWS) return undefined;
  if (access.covering) return undefined;
  if (
    flavor !== 'mariadb' &&
    access.statement === 'select' &&
    access.access === 'equality' &&
    share !== undefined &&
    share >= MYSQL_EQUALITY_SCAN_SHARE &&
    rows <= MYSQL_EQUALITY_SCAN_ROWS
  )
    return { used: false, share, breakEven: MYSQL_EQUALITY_SCAN_SHARE };
  if (access.orderBy && access.limit) return undefined;
  if (access.access === 'none') {
    // In a join the index could still serve a lookup from the other side: not judged.
    if (access.joined) return undefined;
    // GROUP BY that starts elsewhere: the index cannot deliver the groups (nor filter anything).
    if (access.groupBy === 'other') return { used: false, share: 1 };
    // GROUP BY in key order may read the index to skip the temporary table: not judged.
    if (access.groupBy === 'leads') return undefined;
    // ORDER BY only, without LIMIT: a full scan and a sort.
    if (!access.orderBy || access.limit) return undefined;
    return { used: false, share: 1 };
  }
  if (share === undefined) return undefined;
  if (access.access === 'equality' && flavor !== 'mariadb' && access.statement === 'select') return undefined;
  const breakEven = rangeBreakEven(flavor, rows);
  return { used: share <= breakEven, share, breakEven };
}

/** Key columns (lower case) of a plain `ADD INDEX name (a, b(10), c DESC)`; undefined for expression parts. */
export function plainKeyColumns(ddl: string): string[] | undefined {
  const match =
    /\bADD\s+(?:UNIQUE\s+)?(?:INDEX|KEY)\s+(?:`(?:[^`]|``)+`|[\w$]+)\s*\(([\s\S]*)\)\s*;?\s*$/i.exec(
      ddl.trim(),
    );
  if (!match) return undefined;
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of match[1]!) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  const columns: string[] = [];
  for (const part of parts) {
    const column = /^\s*(?:`((?:[^`]|``)+)`|([\w$]+))\s*(?:\(\s*\d+\s*\))?\s*(?:ASC|DESC)?\s*$/i.exec(part);
    if (!column) return undefined;
    columns.push((column[1]?.replace(/``/g, '`') ?? column[2]!).toLowerCase());
  }
  return columns;
}

/** The finding note saying why an index proposal was withdrawn, with the measured numbers. */
export function withdrawnNote(
  access: IndexAccess,
  verdict: IndexUseVerdict,
  measured: { matched?: number; sampled: number; whole: boolean; tableRows: number | null },
  flavor: Flavor,
): string {
  const server = flavor === 'mariadb' ? 'MariaDB' : 'MySQL';
  const basis = measured.whole
    ? `all ${measured.sampled.toLocaleString('en-US')} rows`
    : `a random sample of ${measured.sampled.toLocaleString('en-US')} of ~${(measured.tableRows ?? measured.sampled).toLocaleString('en-US')} rows`;
  if (access.access === 'none' && access.groupBy === 'other')
    return `Index ${access.index} not proposed (live data): no predicate of the query seeks it, and the GROUP BY starts with another column, so the index can neither find nor group the rows of ${access.table} (${basis}); the server will scan, and the index would not be used.`;
  if (access.access === 'none')
    return `Index ${access.index} not proposed (live data): it would serve only the ORDER BY, and without LIMIT ${server} reads every row of ${access.table} (${basis}) and sorts them rather than fetch each row through a secondary index; the server will scan, and the index would not be used. It helps with a LIMIT, or when it covers every column the query reads.`;
  const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;
  return `Index ${access.index} not proposed (live data): ${access.predicate} matches ~${percent(verdict.share)} of the rows of ${access.table} (${(measured.matched ?? 0).toLocaleString('en-US')} of ${basis}); above ~${percent(verdict.breakEven ?? 0)} ${server} reads the table rather than a non-covering secondary-index ${access.access === 'range' ? 'range' : 'lookup'}, so the server will scan, and the index would not be used. An index helps when the predicate is narrower, when it leads with a selective equality column, or when it covers the query.`;
}
