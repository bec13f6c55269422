// QRY007: `a = 1 OR b = 2` on different columns of one table, with nothing else narrowing it: a scan unless every branch has an index.
/*
 * Design note.
 * - An OR of conditions on different columns cannot be one index range. The servers either merge
 *   one range per branch (index_merge union / sort_union, only when every branch has an index that
 *   leads with its column) or scan the table.
 * - Reported for an OR that is its block's WHERE/ON or one of its AND-ed conjuncts, whose branches are
 *   comparisons of one table's columns with constants (a branch may AND several), on at least two
 *   different columns, when no other AND-ed condition narrows that table. With the table definition
 *   known: reported only when some branch column has no index leading with it (then index_merge is
 *   impossible and the server scans), as a warning; unknown table: an info note.
 * - An OR over one column (`a = 1 OR a = 2`) is an IN list to the optimizer: not reported.
 * - Suggestions (known table only): the index design's split of this OR (advice/or-union.ts over
 *   indexing/or-branches.ts): one index per branch, and the UNION ALL rewrite with the design's own
 *   `equivalent` flag (first when equivalent, after the index otherwise). None when the design does not
 *   split this OR (a branch no index could seek, a nested block).
 */

import { ancestorsOf, isConjunct } from '../advice/sql-edit.js';
import type { TableInfo } from '../model/schema.js';
import { hasDoubleQuoted, quotesIdentifiers } from '../advice/literals.js';
import { orUnionAdvice } from '../advice/or-union.js';
import { columnRefs, isNode, type AstNode } from '../sql/ast.js';
import type { PredicateSite, ScopeTable } from '../sql/predicates.js';
import { defineRule } from './engine.js';
import { andConjuncts, leadingWildcard, spanNear } from './utils/statement.js';

const NARROWING = new Set(['=', '<=>', 'IN', '<', '<=', '>', '>=', 'BETWEEN', 'LIKE', 'IS']);

function orBranches(node: AstNode): AstNode[] {
  if (node.type === 'binary_expr' && ['OR', '||'].includes(String(node.operator).toUpperCase()))
    return [node.left, node.right].filter(isNode).flatMap(orBranches);
  return [node];
}

const leadingIndex = (table: TableInfo, column: string): boolean =>
  table.indexes.some(
    (index) =>
      index.visible &&
      index.kind === 'btree' &&
      index.parts[0]?.column?.toLowerCase() === column.toLowerCase(),
  );

export const rule = defineRule({
  meta: {
    id: 'QRY007',
    name: 'predicate.or-across-columns',
    category: 'query-shape',
    severity: 'warning',
    title: 'OR across different columns',
    rationale:
      'One index range cannot serve a = 1 OR b = 2. The server can merge one index range per branch (index_merge) only when every branch has its own index; otherwise it reads the whole table.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      unindexed:
        '{{expression}} ORs conditions on {{columns}}; {{missing}} has no index leading with it, so index_merge is impossible and {{table}} is scanned.',
      unknown:
        '{{expression}} ORs conditions on {{columns}}: without an index leading with each of them (index_merge), the table is scanned.',
    },
    docs: {
      antiPattern: "SELECT id FROM users WHERE email = 'a@example.com' OR phone = '555-0100'",
      bestPractice:
        "SELECT id FROM users WHERE email = 'a@example.com' UNION ALL SELECT id FROM users WHERE phone = '555-0100' AND (email = 'a@example.com') IS NOT TRUE",
      notes: [
        'Either index every branch column (the optimizer can then merge the ranges: EXPLAIN type index_merge, "Using union(…)"), or split the OR into a UNION ALL whose later branches exclude the rows of the earlier ones (as above) so each branch seeks its own index; plain UNION also removes duplicates, but also duplicates the query returned on purpose.',
        'With the table known, the suggestions are the index design\'s (docs/indexing.md, "OR across columns"): one index per branch, and the UNION ALL of one SELECT per branch in which branch k adds `(branch j) IS NOT TRUE` for every earlier j, so a row comes back once and a row whose earlier branch is NULL is kept. It is marked equivalent only when it returns the same rows: not for GROUP BY / aggregates (no rewrite), nor with a LIMIT over an ORDER BY that is not a total order, nor when a branch calls RAND() or another nondeterministic function (offered after the index, not equivalent). DISTINCT becomes UNION. Rows on NULL edge cases are compared on both servers (tests/integration/advice-or-union.test.ts).',
        'Not reported when another AND-ed condition narrows the same table (an equality, IN, range or LIKE prefix), nor for an OR over one column (the optimizer treats it as IN).',
      ],
    },
  },
  detect(context) {
    const ansi = quotesIdentifiers(context.server.sqlMode.session);
    const sites = context.sites();
    const siteOf = new Map<AstNode, PredicateSite>(sites.map((site) => [site.node, site]));
    const columnSide = (site: PredicateSite): AstNode | undefined => {
      const [column, value] =
        site.left?.type === 'column_ref' ? [site.left, site.right] : [site.right, site.left];
      if (!column || column.type !== 'column_ref') return undefined;
      // Under ANSI_QUOTES a "…" token is a column (the parser reads it as a string): not a constant.
      const constant = columnRefs(value).length === 0 && !(ansi && hasDoubleQuoted(value));
      return value === null || constant ? column : undefined;
    };
    const conjunct = (node: AstNode): boolean => {
      const ancestors = ancestorsOf(context.ast, node);
      return ancestors !== undefined && isConjunct(ancestors);
    };
    const seen = new Set<AstNode>();
    for (const site of sites) {
      if (site.clause !== 'where' && site.clause !== 'on') continue;
      const ancestors = ancestorsOf(context.ast, site.node) ?? [];
      // The outermost OR above the site whose own parents are all ANDs (it is a conjunct of its clause).
      const or = [...ancestors]
        .reverse()
        .find(
          (node) =>
            node.type === 'binary_expr' &&
            ['OR', '||'].includes(String(node.operator).toUpperCase()) &&
            conjunct(node),
        );
      if (!or || seen.has(or)) continue;
      seen.add(or);
      let scopeTable: ScopeTable | null | undefined;
      let table: TableInfo | null = null;
      const columns: string[] = [];
      const ok = orBranches(or).every((branch) =>
        andConjuncts(branch).every((piece) => {
          const pieceSite = siteOf.get(piece);
          const column = pieceSite && columnSide(pieceSite);
          if (!pieceSite || !column) return false;
          const resolved = context.resolveColumns(pieceSite, column)[0];
          if (!resolved) return false;
          if (scopeTable === undefined) {
            scopeTable = resolved.scopeTable;
            table = resolved.table;
          } else if (resolved.scopeTable !== scopeTable) return false;
          const name = resolved.info?.name ?? resolved.column;
          if (!columns.some((known) => known.toLowerCase() === name.toLowerCase())) columns.push(name);
          return true;
        }),
      );
      if (!ok || columns.length < 2) continue;
      const narrowed = sites.some((other) => {
        if (other.scope !== site.scope || !NARROWING.has(other.operator ?? '')) return false;
        const column = columnSide(other);
        if (!column || !conjunct(other.node)) return false;
        if (other.operator === 'LIKE' && leadingWildcard(other.right)) return false;
        return context.resolveColumns(other, column)[0]?.scopeTable === scopeTable;
      });
      if (narrowed) continue;
      const known = table as TableInfo | null;
      const missing = known ? columns.filter((column) => !leadingIndex(known, column)) : [];
      if (known && missing.length === 0) continue;
      const expression = context.textOf(or);
      const advice = known
        ? orUnionAdvice({
            ast: context.ast,
            sql: context.sql,
            schema: context.schema,
            server: context.server,
            table: known.name,
            branches: orBranches(or).map((branch) => context.textOf(branch)),
            topLevel: site.clause === 'where' && andConjuncts(context.ast.where).includes(or),
          })
        : { suggestions: [], notes: [] };
      context.report({
        messageId: known ? 'unindexed' : 'unknown',
        data: {
          expression,
          columns: columns.join(', '),
          missing: missing.join(', '),
          table: known?.name ?? '',
        },
        ...(known ? {} : { severity: 'info' as const }),
        span: spanNear(context.sql, or),
        table: known?.name ?? null,
        columns,
        expression,
        suggestions: advice.suggestions,
        ...(advice.notes.length > 0 ? { notes: advice.notes } : {}),
      });
    }
  },
});
