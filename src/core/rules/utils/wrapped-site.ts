// Shared detection for rules about wrapped columns: walks sites, resolves columns, checks existing indexes.

import { adviseWrapped } from '../../advice/advise.js';
import type { TableInfo } from '../../model/schema.js';
import { type AstNode, isNode } from '../../sql/ast.js';
import { printSql } from '../../sql/parse.js';
import type { Flavor } from '../../flavors/capabilities.js';
import { spanOf, type RuleContext } from '../engine.js';
import { wrappedOperands, type WrapKind } from '../../sql/wrapping.js';
import { optimizerMakesSargable } from '../../advice/server-rewrites.js';
import { joinSideOf } from './join-side.js';

/** How an existing index relates to a wrapped expression. */
export type Served =
  | { by: 'none' }
  | { by: 'index'; index: string }
  /** An indexed generated column has the expression but the server does not substitute it (MariaDB). */
  | { by: 'generated-column-by-name'; column: string; index: string };

/** The messages a rule using `reportWrappedSites` must declare (its `meta.messages` keys). */
export type WrappedSiteMessageId = 'wrapped' | 'wrappedOrder' | 'servedOnlyByName';

export interface WrappedSiteOptions {
  kinds: readonly WrapKind[];
  servedBy: (context: RuleContext<WrappedSiteMessageId>, table: TableInfo, expression: AstNode) => Served;
}

const CLAUSE_NAMES = {
  where: 'WHERE',
  on: 'JOIN … ON',
  having: 'HAVING',
  'order-by': 'ORDER BY',
  'group-by': 'GROUP BY',
} as const;

/** Report every wrapped operand of the given kinds, once per operand. */
export function reportWrappedSites(
  context: RuleContext<WrappedSiteMessageId>,
  options: WrappedSiteOptions,
): void {
  for (const site of context.sites()) {
    for (const wrapped of wrappedOperands(site)) {
      if (!options.kinds.includes(wrapped.kind)) continue;
      // Some nodes (CAST, CASE) carry no position: fall back to the whole predicate.
      const located = spanOf(wrapped.node) ? wrapped.node : site.node;
      const span = spanOf(located);
      if (!span) continue;
      const columns = context.resolveColumns(site, wrapped.node);
      const first = columns[0];
      if (!first) continue;
      const table = first.table;
      const served = table ? options.servedBy(context, table, wrapped.node) : ({ by: 'none' } as Served);
      if (served.by === 'index') continue;
      // A join comparison: harmless when this table can drive the join and the other column is sought.
      const join = joinSideOf(context, site, wrapped, columns);
      if (join.kind === 'driving') continue;
      // MariaDB >= 11.1 / 11.3 rewrite some wrapped predicates into a seek themselves.
      const serverRewrite =
        served.by === 'none' && table
          ? optimizerMakesSargable(context.server, site, wrapped, first.info)
          : null;
      if (serverRewrite && first.info && table) {
        const existing = table.indexes.find(
          (index) =>
            index.visible &&
            index.kind === 'btree' &&
            index.parts[0]?.column?.toLowerCase() === first.info?.name.toLowerCase() &&
            index.parts[0]?.prefixLength === null,
        );
        if (existing) continue;
      }
      const ordering = site.clause === 'order-by' || site.clause === 'group-by';
      const wrapper =
        wrapped.kind === 'arithmetic'
          ? wrapped.name
          : wrapped.kind === 'json' && wrapped.name.startsWith('-')
            ? `${wrapped.name} operator`
            : `${wrapped.name}()`;
      const data = {
        wrapper:
          wrapped.kind === 'collate'
            ? 'COLLATE'
            : wrapped.kind === 'case'
              ? 'CASE'
              : wrapped.kind === 'cast'
                ? 'CAST()'
                : wrapper,
        column: first.column,
        clause: CLAUSE_NAMES[site.clause],
        flavorName: context.flavor === 'mariadb' ? 'MariaDB' : 'MySQL',
        generated: served.by === 'generated-column-by-name' ? served.column : '',
      };
      const notes: string[] = [];
      if (!table)
        notes.push(
          `Table of column ${first.column} is unknown (not in the schema): types are unknown, no DDL is proposed.`,
        );
      else if (!first.info)
        notes.push(`Column ${first.column} is not in table ${table.name} of the schema: types are unknown.`);
      const advice = adviseWrapped({
        sql: context.sql,
        ast: context.ast,
        server: context.server,
        site,
        wrapped,
        columns,
        served,
        sites: context.sites(),
        resolveColumns: context.resolveColumns,
      });
      notes.push(...advice.notes);
      if (join.kind === 'lookup' && join.note) notes.push(join.note);
      if (serverRewrite)
        notes.push(
          `${serverRewrite}: with an index on ${first.info?.name ?? first.column} this query can stay as it is on this server; the rewrite keeps it fast on other servers too.`,
        );
      context.report({
        messageId:
          served.by === 'generated-column-by-name'
            ? 'servedOnlyByName'
            : ordering
              ? 'wrappedOrder'
              : 'wrapped',
        data,
        span,
        table: table?.name ?? first.scopeTable?.table ?? null,
        columns: [...new Set(columns.map((column) => column.info?.name ?? column.column))],
        expression: context.textOf(located),
        severity: ordering ? 'info' : undefined,
        suggestions: advice.suggestions,
        notes,
      });
    }
  }
}

/**
 * Canonical text of an expression for comparing with index expressions: unqualified, lower-case, no
 * backquotes or spaces, and the spellings the server stores made equal to the query's: MySQL's
 * information_schema keeps `json_extract(\`c\`,_utf8mb4\'$.id\')` for `c->"$.id"` (escaped quotes,
 * a charset introducer, the function for the operator) and adds `charset utf8mb4` to CAST … AS CHAR.
 */
export function canonicalExpression(expression: AstNode | string, flavor: Flavor): string {
  const text = typeof expression === 'string' ? expression : printSql(unqualify(expression), flavor);
  let canonical = text
    .replace(/[`\s]/g, '')
    .toLowerCase()
    .replace(/\\'/g, "'")
    .replace(/"/g, "'")
    .replace(/(^|[^a-z0-9_$])_[a-z0-9]+'/g, "$1'")
    .replace(/([a-z0-9_$]+)->>('[^']*')/g, 'json_unquote(json_extract($1,$2))')
    .replace(/([a-z0-9_$]+)->('[^']*')/g, 'json_extract($1,$2)')
    .replace(/(aschar(?:\(\d+\))?)charset[a-z0-9_]+\)/g, '$1)');
  while (wrappedInParentheses(canonical)) canonical = canonical.slice(1, -1);
  return canonical;
}

/** True when the text is one parenthesised expression: `(a)`, not `(a)+(b)`. */
function wrappedInParentheses(text: string): boolean {
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return depth === 0;
}

/**
 * MySQL's documented JSON index (CREATE INDEX, "Indexing a JSON column"): a functional key part
 * `CAST(col->>'$.path' AS CHAR(n)) COLLATE utf8mb4_bin` serves predicates on `col->>'$.path'` itself,
 * because ->> returns utf8mb4_bin (EXPLAIN: ref on the index). Without the COLLATE it does not.
 */
function servesJsonUnquote(indexExpression: string, wanted: string): boolean {
  if (!wanted.startsWith('json_unquote(json_extract(')) return false;
  const prefix = `cast(${wanted}aschar`;
  const suffix = ')collateutf8mb4_bin';
  if (!indexExpression.startsWith(prefix) || !indexExpression.endsWith(suffix)) return false;
  return /^(\(\d+\))?$/.test(indexExpression.slice(prefix.length, indexExpression.length - suffix.length));
}

function unqualify(node: AstNode): AstNode {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) => {
    if (key === 'loc') return undefined;
    if (isNode(value) && value.type === 'column_ref') return { ...value, table: null };
    return value;
  }) as AstNode;
}

/**
 * Is the expression already served by an index? A functional key part with the same expression
 * serves it; so does an indexed generated column with the same expression where the server
 * substitutes generated columns (MySQL). On MariaDB such a column serves only queries naming it.
 */
export function expressionServedByIndex(
  context: RuleContext<WrappedSiteMessageId>,
  table: TableInfo,
  expression: AstNode,
): Served {
  const caps = context.server.capabilities;
  // Printing the expression costs a deep copy and a print: only when some index could match it.
  const candidates = table.indexes.some((index) => {
    const first = index.parts[0];
    if (!first || !index.visible) return false;
    if (first.expression) return caps.functionalIndexes;
    const name = first.column?.toLowerCase();
    return table.columns.some((column) => column.generated && column.name.toLowerCase() === name);
  });
  if (!candidates) return { by: 'none' };
  const wanted = canonicalExpression(expression, context.flavor);
  for (const index of table.indexes) {
    const first = index.parts[0];
    if (!first || !index.visible) continue;
    if (first.expression && caps.functionalIndexes) {
      const indexed = canonicalExpression(first.expression, context.flavor);
      if (indexed === wanted || (context.flavor === 'mysql' && servesJsonUnquote(indexed, wanted)))
        return { by: 'index', index: index.name };
    }
    if (first.column) {
      const column = table.columns.find(
        (candidate) => candidate.name.toLowerCase() === first.column?.toLowerCase(),
      );
      if (column?.generated && canonicalExpression(column.generated.expression, context.flavor) === wanted) {
        return caps.generatedColumnSubstitution
          ? { by: 'index', index: index.name }
          : { by: 'generated-column-by-name', column: column.name, index: index.name };
      }
    }
  }
  return { by: 'none' };
}
