// CNV002: two columns compared across tables with different types, character sets or collations:
// the server converts one side for every row, and the index on that side cannot be used.

import {
  effectiveCharset,
  effectiveCollation,
  isIntegerColumn,
  isStringColumn,
} from '../advice/column-types.js';
import { quoteIdentifier } from '../advice/index-ddl.js';
import { findColumn, findTable, type ColumnInfo, type TableInfo } from '../model/schema.js';
import { type AstNode, isNode, type Span } from '../sql/ast.js';
import { defineRule, spanOf, type ResolvedColumn, type RuleContext } from './engine.js';

const COMPARISONS = new Set(['=', '<=>', '<>', '!=', '<', '<=', '>', '>=']);
/** Character sets by repertoire: a narrower one is converted to the wider one. */
const WIDTH: Readonly<Record<string, number>> = { ascii: 1, latin1: 2, utf8: 3, utf8mb3: 3, utf8mb4: 4 };

function isNumeric(info: ColumnInfo): boolean {
  return isIntegerColumn(info) || /^(decimal|numeric|float|double|real)$/i.test(info.dataType);
}

function definition(column: ResolvedColumn): string {
  const info = column.info as ColumnInfo;
  const table = column.table as TableInfo;
  const charset = isStringColumn(info) ? effectiveCharset(info, table) : null;
  const collation = isStringColumn(info) ? effectiveCollation(info, table) : null;
  return `${table.name}.${info.name} ${info.columnType}${charset ? ` CHARACTER SET ${charset}` : ''}${collation ? ` COLLATE ${collation}` : ''}${info.nullable ? '' : ' NOT NULL'}`;
}

export const rule = defineRule({
  meta: {
    id: 'CNV002',
    name: 'predicate.column-conversion',
    category: 'implicit-conversion',
    severity: 'warning',
    title: 'Columns of different types or collations compared',
    rationale:
      'When two columns differ in type (a string and a number), character set (utf8mb3 and utf8mb4, latin1 and utf8mb4) or collation (_ci and _bin), the server converts one side for every row before comparing. An index on the converted column cannot be used, so a join that should seek reads the whole table.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      types:
        '{{left}} ({{leftType}}) is compared with {{right}} ({{rightType}}): the string side is converted to a number for every row, so an index on {{converted}} cannot be used.',
      charsets:
        '{{left}} ({{leftCharset}}) is compared with {{right}} ({{rightCharset}}): {{converted}} is converted to {{target}} for every row, so its index cannot be used.',
      collations:
        '{{left}} ({{leftCollation}}) is compared with {{right}} ({{rightCollation}}): {{converted}} is compared under {{target}}, so its index cannot be used.',
      mix: '{{left}} ({{leftCollation}}) is compared with {{right}} ({{rightCollation}}): the server refuses this mix (ERROR 1267, illegal mix of collations) unless one side is given a COLLATE.',
    },
    docs: {
      antiPattern: 'SELECT o.id FROM orders o JOIN customers c ON c.code = o.customer_code',
      bestPractice: 'SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id',
      notes: [
        'A _ci column compared with a _bin one is reported on MySQL only: MariaDB still seeks the _ci index and filters (checked on 10.11).',
        'Besides `a = b` in ON and WHERE, `a IN (SELECT b FROM t)` (one column of one table) and `JOIN t USING (col)` compare the two columns the same way: on both servers the converted table is read in full (EXPLAIN: index/ALL scan instead of ref).',
        'The anti-pattern assumes customers.code is utf8mb3 and orders.customer_code utf8mb4 (see the fixtures): the utf8mb3 side is converted and its index is useless.',
        'The fix is to give both columns the same type, character set and collation; the finding shows both definitions and the ALTER for the converted side. The ALTER rebuilds the table (COPY, it blocks writes), fails when stored values do not convert, and must repeat the column’s DEFAULT, COMMENT and other attributes, which the finding cannot know.',
      ],
    },
    peers: { sqle: ['dml_check_join_field_type'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      if (!site.operator) continue;
      if (site.clause !== 'on' && site.clause !== 'where') continue;
      const { left, right } = site;
      if (!isNode(left) || !isNode(right) || left.type !== 'column_ref' || left.collate) continue;
      const span = spanOf(site.node);
      if (!span) continue;
      const [a] = context.resolveColumns(site, left);
      if (!known(a)) continue;
      if (COMPARISONS.has(site.operator) && right.type === 'column_ref') {
        if (right.collate) continue;
        const [b] = context.resolveColumns(site, right);
        if (!known(b)) continue;
        if (a.scopeTable && b.scopeTable && a.scopeTable === b.scopeTable) continue;
        compare(context, a, b, span, context.textOf(site.node));
      } else if (site.operator === 'IN' || site.operator === 'NOT IN') {
        // col IN (SELECT other_col FROM t): a semi-join on other_col (both servers scan the converted side).
        const b = subqueryColumn(context, right, site.scope.ctes);
        if (b) compare(context, a, b, span, context.textOf(site.node));
      }
    }
    // JOIN … USING (col): an equality of the column of the joined table and of an earlier one.
    for (const using of usingPairs(context)) compare(context, using.a, using.b, using.span, using.expression);
  },
});

type Context = RuleContext<'types' | 'charsets' | 'collations' | 'mix'>;
type Known = ResolvedColumn & { info: ColumnInfo; table: TableInfo };

const known = (column: ResolvedColumn | undefined): column is Known => Boolean(column?.info && column.table);

/** The base-table column a one-column subquery selects (`(SELECT v.code FROM v)` → v.code), else null. */
function subqueryColumn(context: Context, node: AstNode, ctes: ReadonlySet<string>): Known | null {
  const item =
    node.type === 'expr_list' && Array.isArray(node.value) && node.value.length === 1 ? node.value[0] : node;
  const sub = isNode(item) && isNode(item.ast) ? item.ast : null;
  if (!sub || sub.type !== 'select' || sub._next || !Array.isArray(sub.columns) || sub.columns.length !== 1)
    return null;
  if (!Array.isArray(sub.from) || sub.from.length !== 1) return null;
  const [from] = sub.from;
  const selected = isNode(sub.columns[0]) ? sub.columns[0].expr : null;
  if (!isNode(from) || typeof from.table !== 'string' || !isNode(selected)) return null;
  if (selected.type !== 'column_ref' || selected.collate || typeof selected.column !== 'string') return null;
  if (ctes.has(from.table.toLowerCase()) || (Array.isArray(sub.with) && sub.with.length > 0)) return null;
  const visible = typeof from.as === 'string' && from.as ? from.as : from.table;
  const qualifier = typeof selected.table === 'string' ? selected.table : null;
  if (qualifier && qualifier.toLowerCase() !== visible.toLowerCase()) return null;
  return baseColumn(context, from, selected.column, selected);
}

/** A column of a FROM item that is a base table of the schema. */
function baseColumn(context: Context, from: AstNode, column: string, node: AstNode): Known | null {
  if (typeof from.table !== 'string' || isNode(from.expr)) return null;
  const database = typeof from.db === 'string' ? from.db : context.server.database;
  const table = findTable(context.schema, from.table, database);
  const info = table ? findColumn(table, column) : undefined;
  if (!table || !info) return null;
  return { node, qualifier: null, column: info.name, table, info, scopeTable: null };
}

/** Every `JOIN t USING (col)` of the statement, as the pair of columns it equates. */
function usingPairs(context: Context): { a: Known; b: Known; span: Span; expression: string }[] {
  const pairs: { a: Known; b: Known; span: Span; expression: string }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isNode(node)) return;
    for (const key in node) if (key !== 'loc') visit(node[key]);
    if (!Array.isArray(node.from)) return;
    const items = node.from.filter(isNode);
    items.forEach((item, index) => {
      if (!Array.isArray(item.using)) return;
      const span = usingSpan(context.sql, item);
      for (const named of item.using.filter(isNode)) {
        const column = String(named.value ?? '');
        const joined = baseColumn(context, item, column, named);
        // USING names a column the joined table shares with exactly one earlier table.
        const earlier = items
          .slice(0, index)
          .map((other) => baseColumn(context, other, column, named))
          .filter((found): found is Known => found !== null);
        if (!span || !joined || earlier.length !== 1) continue;
        pairs.push({ a: earlier[0]!, b: joined, span, expression: `USING (${column})` });
      }
    });
  };
  visit(context.ast);
  return pairs;
}

/** The `USING (…)` text after a joined FROM item (the parser gives the list no position), else the item. */
function usingSpan(sql: string, item: AstNode): Span | null {
  const own = spanOf(item);
  if (!own) return null;
  const clause = /^[^()]*?\bUSING\s*\([^)]*\)/i.exec(sql.slice(own.end));
  return clause ? { start: own.end + clause[0].search(/USING/i), end: own.end + clause[0].length } : own;
}

/** Report when the two columns differ in type, character set or collation (CNV002's one check). */
function compare(context: Context, a: Known, b: Known, span: Span, expression: string): void {
  const names = {
    left: `${a.scopeTable?.visibleName ?? a.table.name}.${a.info.name}`,
    right: `${b.scopeTable?.visibleName ?? b.table.name}.${b.info.name}`,
  };
  const report = (
    messageId: 'types' | 'charsets' | 'collations' | 'mix',
    data: Record<string, string>,
    converted: ResolvedColumn | null,
    alter: string | null,
    risks: string[],
  ): void =>
    context.report({
      messageId,
      data: { ...names, ...data },
      span,
      table: converted?.table?.name ?? null,
      columns: [a.info?.name ?? '', b.info?.name ?? ''],
      expression,
      notes: [
        `Definitions: ${definition(a)}; ${definition(b)}.`,
        ...(alter ? [`Aligning ALTER (review before running): ${alter}`] : []),
        ...risks,
      ],
    });
  const modify = (column: ResolvedColumn, type: string): string =>
    `ALTER TABLE ${quoteIdentifier(column.table?.name ?? '')} MODIFY ${quoteIdentifier(column.info?.name ?? '')} ${type}${column.info?.nullable ? ' NULL' : ' NOT NULL'};`;
  const rebuild =
    'The ALTER rebuilds the table with ALGORITHM=COPY (writes wait for it) and must repeat the column’s DEFAULT, COMMENT and other attributes.';
  const aString = isStringColumn(a.info);
  const bString = isStringColumn(b.info);
  if (aString !== bString && (isNumeric(a.info) || isNumeric(b.info)) && (aString || bString)) {
    const [text, number] = aString ? [a, b] : [b, a];
    report(
      'types',
      {
        leftType: a.info.columnType,
        rightType: b.info.columnType,
        converted: `${text.table?.name}.${text.info?.name}`,
      },
      text,
      modify(text, number.info?.columnType.toUpperCase() ?? ''),
      [
        rebuild,
        `It fails (ERROR 1366/1292) if a stored ${text.info?.name} is not a number, and values such as '007' or ' 7' become 7: check with SELECT COUNT(*) FROM ${quoteIdentifier(text.table?.name ?? '')} WHERE ${quoteIdentifier(text.info?.name ?? '')} NOT REGEXP '^-?[0-9]+$'.`,
      ],
    );
    return;
  }
  if (!aString || !bString) return;
  const ca = effectiveCharset(a.info, a.table);
  const cb = effectiveCharset(b.info, b.table);
  const la = effectiveCollation(a.info, a.table);
  const lb = effectiveCollation(b.info, b.table);
  if (!ca || !cb || !la || !lb) return;
  const normalize = (charset: string): string => (charset === 'utf8' ? 'utf8mb3' : charset);
  if (normalize(ca) !== normalize(cb)) {
    const wa = WIDTH[normalize(ca)] ?? 0;
    const wb = WIDTH[normalize(cb)] ?? 0;
    if (wa === wb) return;
    const [narrow, wide, wideCollation] = wa < wb ? [a, b, lb] : [b, a, la];
    const length =
      /^(?:var)?char\((\d+)\)/i.exec(narrow.info?.columnType ?? '')?.[0] ?? narrow.info?.columnType ?? '';
    report(
      'charsets',
      {
        leftCharset: `${ca}, ${la}`,
        rightCharset: `${cb}, ${lb}`,
        converted: `${narrow.table?.name}.${narrow.info?.name}`,
        target: normalize(wa < wb ? cb : ca),
      },
      narrow,
      modify(
        narrow,
        `${length.toUpperCase()} CHARACTER SET ${normalize(wa < wb ? cb : ca)} COLLATE ${wideCollation}`,
      ),
      [
        rebuild,
        `Converting to ${normalize(wa < wb ? cb : ca)} never loses characters, but longer keys can pass the 3072-byte index limit (ERROR 1071). Alternatively convert in the query on the side that is scanned anyway: CONVERT(${wide.scopeTable?.visibleName ?? wide.table?.name}.${wide.info?.name} USING ${normalize(wa < wb ? ca : cb)}) keeps ${narrow.info?.name}'s index usable when every value fits ${normalize(wa < wb ? ca : cb)}.`,
      ],
    );
    return;
  }
  if (la === lb) return;
  const aBin = /_bin$/.test(la);
  const bBin = /_bin$/.test(lb);
  if (aBin === bBin) {
    report('mix', { leftCollation: la, rightCollation: lb }, null, null, [
      'Give both columns the same collation, or compare with an explicit COLLATE on the side that is scanned anyway.',
    ]);
    return;
  }
  // MariaDB still seeks the _ci index (the _bin equality implies the _ci one) and filters: no finding there.
  if (context.flavor === 'mariadb') return;
  const [ci, bin, binCollation] = aBin ? [b, a, la] : [a, b, lb];
  const length = /^(?:var)?char\((\d+)\)/i.exec(ci.info?.columnType ?? '')?.[0] ?? ci.info?.columnType ?? '';
  report(
    'collations',
    {
      leftCollation: la,
      rightCollation: lb,
      converted: `${ci.table?.name}.${ci.info?.name}`,
      target: binCollation,
    },
    ci,
    modify(
      ci,
      `${length.toUpperCase()} CHARACTER SET ${effectiveCharset(ci.info as ColumnInfo, ci.table)} COLLATE ${binCollation}`,
    ),
    [
      rebuild,
      `Changing ${ci.info?.name} to ${binCollation} makes every comparison on it case- and accent-sensitive, and a UNIQUE index on it may start accepting values that differ only in case. If case-insensitive matching is meant, change ${bin.info?.name} instead.`,
    ],
  );
}
