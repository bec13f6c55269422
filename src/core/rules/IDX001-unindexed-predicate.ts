// IDX001: a sargable predicate on a column that no index starts with (the plain/composite index advice).

import { hasDoubleQuoted, literalOf, quotesIdentifiers } from '../advice/literals.js';
import { plainIndexAdvice } from '../advice/index.js';
import { designFor } from '../indexing/index.js';
import { isStringColumn } from '../advice/column-types.js';
import type { IndexInfo, TableInfo } from '../model/schema.js';
import { ancestorsOf, isConjunct } from '../advice/sql-edit.js';
import { columnRefs, isNode } from '../sql/ast.js';
import type { PredicateSite, ScopeTable } from '../sql/predicates.js';
import { defineRule, spanOf } from './engine.js';
import { nullSupplyingNames } from './utils/statement.js';

/** Operators a B-tree index on the bare column can serve. */
const SARGABLE = new Set(['=', '<=>', '<', '<=', '>', '>=', 'BETWEEN', 'IN', 'LIKE', 'IS']);

export const rule = defineRule({
  meta: {
    id: 'IDX001',
    name: 'index.unindexed-predicate',
    category: 'plan',
    severity: 'info',
    title: 'Sargable predicate without an index',
    rationale:
      'The predicate could seek an index, but no index starts with its column, so the server reads the whole table (AT-3: after a rewrite, the range still needs an index on the bare column).',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      unindexed:
        'No index starts with {{table}}.{{column}}: this predicate can only be evaluated by reading every row.',
    },
    docs: {
      antiPattern: "SELECT * FROM products WHERE create_time > '2019-10-01'",
      bestPractice: 'SELECT * FROM products WHERE id = 7',
      notes: [
        'Reported only when the schema is known (live or DDL) and no visible B-tree index has the column as its first key part (a prefix key part counts: it seeks), and no other AND-ed predicate on the same table seeks an existing index (then the server reads only the rows that index finds, not every row); nor for `col IS NULL` on the NULL-supplying side of an outer join (an anti-join: the rows without a match are made by the join, no index on col finds them). A predicate whose column leads an index is never reported, even when the index designed for the whole statement would seek further (that design is in the report as statements[].indexPlan).',
        'On small tables a scan is fine: weigh the advice against the table size and how often the query runs.',
        'Connected, every proposed index is checked on the live data before it is offered (docs/cli.md, "Live index use"): the random selectivity sample counts the rows the advised predicate matches, and an index the server would not read (a range over more than the break-even share measured on each server, e.g. ~28% of a MySQL table of up to 20,000 rows, ~16% on MariaDB; an equality MariaDB scans from ~18%) is withdrawn, with the share and rows in a finding note. Covering reads, ORDER BY … LIMIT, an index leading with a join column and tables under 100 rows are not judged. DDL whose expression fails on stored rows (ERROR 1690 out of range, ERROR 1365 division by 0, a CAST that does not convert) is withdrawn the same way; offline, the suggestion states the risk and the check to run.',
        'The suggestion is the index designed for the whole statement (docs/indexing.md): equality columns, then a range or the ORDER BY / GROUP BY columns, then covering columns. One finding per table, on the first predicate whose column no index starts with; none when an existing index already serves the statement.',
        'An OR across columns of one table gets one index per branch (the server can combine them: index_merge), and a second suggestion rewrites the statement as a UNION ALL of one SELECT per branch, marked equivalent only when it returns the same rows (docs/indexing.md, "OR across columns").',
      ],
    },
  },
  detect(context) {
    if (context.schema.source === 'none') return;
    const reported = new Set<string>();
    // Every query block gets one index per table, designed for the whole block (core/indexing).
    const design = designFor(context.ast, context.sql, context.schema, context.server);
    const designedTables = new Set<string>();
    // A column compared with a constant (or parameter) the way an index can seek.
    const sargableColumn = (site: PredicateSite) => {
      if (site.clause !== 'where' && site.clause !== 'on') return undefined;
      if (!site.operator || !SARGABLE.has(site.operator)) return undefined;
      const column = site.left;
      if (!isNode(column) || column.type !== 'column_ref' || column.collate) return undefined;
      if (columnRefs(site.right).length > 0) return undefined;
      if (quotesIdentifiers(context.server.sqlMode.session) && hasDoubleQuoted(site.right)) return undefined;
      if (site.operator === 'LIKE') {
        const pattern = literalOf(site.right);
        if (pattern?.kind !== 'string' || /^[%_]/.test(pattern.value)) return undefined;
      }
      return column;
    };
    // Table instances another AND-ed predicate already seeks through an existing index (title = 'x'
    // AND length = 114 reads the few rows of idx_title, not every row): the message would be false there.
    const seeking = new Set<ScopeTable>();
    // `o.col IS NULL` on the NULL-supplying side of an outer join finds the rows without a match (an
    // anti-join): the rows are made by the join, an index on o.col cannot find them (SOAR over Sakila).
    const nullSupplying = nullSupplyingNames(context.ast);
    for (const site of context.sites()) {
      const column = sargableColumn(site);
      if (!column) continue;
      const [resolved] = context.resolveColumns(site, column);
      if (!resolved?.table || !resolved.info || !resolved.scopeTable) continue;
      if (isStringColumn(resolved.info) && comparesWithNumber(site.right)) continue;
      if (!leadingIndex(resolved.table, resolved.info.name)) continue;
      const ancestors = ancestorsOf(context.ast, site.node);
      if (ancestors && isConjunct(ancestors)) seeking.add(resolved.scopeTable);
    }
    for (const site of context.sites()) {
      if (site.clause !== 'where' && site.clause !== 'on') continue;
      if (!site.operator || !SARGABLE.has(site.operator)) continue;
      const column = site.left;
      if (!isNode(column) || column.type !== 'column_ref' || column.collate) continue;
      // The other side must be a constant or parameter (a join condition is served from the other table).
      if (columnRefs(site.right).length > 0) continue;
      // Under ANSI_QUOTES a "…" token is a column (the parser reads it as a string).
      if (quotesIdentifiers(context.server.sqlMode.session) && hasDoubleQuoted(site.right)) continue;
      if (site.operator === 'LIKE') {
        const pattern = literalOf(site.right);
        if (pattern?.kind !== 'string' || /^[%_]/.test(pattern.value)) continue;
      }
      const [resolved] = context.resolveColumns(site, column);
      if (!resolved?.table || !resolved.info) continue;
      // A string column compared with a number is compared as numbers: no index serves it (CNV001 says so).
      if (isStringColumn(resolved.info) && comparesWithNumber(site.right)) continue;
      const key = `${resolved.table.name}.${resolved.info.name}`.toLowerCase();
      if (reported.has(key)) continue;
      // The message says no index starts with the column: never when one does (the server seeks it, even
      // if the designed index for the whole statement would seek further — that is statements[].indexPlan).
      if (leadingIndex(resolved.table, resolved.info.name)) continue;
      if (resolved.scopeTable && seeking.has(resolved.scopeTable)) continue;
      if (
        site.operator === 'IS' &&
        isNode(site.right) &&
        site.right.type === 'null' &&
        resolved.scopeTable &&
        nullSupplying.has(resolved.scopeTable.visibleName.toLowerCase())
      )
        continue;
      const tableKey = resolved.table.name.toLowerCase();
      // The table's plans in the statement: one per block that reads it (main, UNION branches,
      // subqueries, derived tables), one per branch of an OR across its columns.
      const plans = design?.tables.filter((candidate) => candidate.table.toLowerCase() === tableKey) ?? [];
      if (plans.some((plan) => plan.verdict !== 'none')) {
        // The designed index replaces the per-predicate one; reported once per table, and not at all
        // when existing indexes already serve the query.
        const wanted = plans.filter((plan) => plan.verdict !== 'served' && plan.indexName && plan.ddl.length);
        if (designedTables.has(tableKey) || wanted.length === 0) continue;
        const span = spanOf(site.node) ?? spanOf(column);
        if (!span) continue;
        designedTables.add(tableKey);
        const rewrite = design?.orRewrite?.table.toLowerCase() === tableKey ? design.orRewrite : undefined;
        const notes = wanted.flatMap((plan) =>
          plan.scope ? plan.notes.map((note) => `${plan.scope} — ${note}`) : plan.notes,
        );
        context.report({
          messageId: 'unindexed',
          data: { table: resolved.table.name, column: resolved.info.name },
          span,
          table: resolved.table.name,
          columns: [
            ...new Set(
              wanted.flatMap((plan) => plan.parts.flatMap((part) => (part.column ? [part.column] : []))),
            ),
          ],
          expression: context.textOf(spanOf(site.node) ? site.node : column),
          suggestions: [
            {
              kind: 'index',
              equivalent: true,
              ddl: [...new Set(wanted.flatMap((plan) => plan.ddl))],
              indexName: wanted[0]!.indexName!,
              // Keyed on generated columns the server does not substitute: the query must name them.
              ...(design?.queryMustChange && design.rewrittenSql
                ? { rewrittenSql: design.rewrittenSql }
                : {}),
              notes,
            },
            ...(rewrite?.sql
              ? [
                  {
                    kind: 'rewrite' as const,
                    equivalent: rewrite.equivalent,
                    ddl: [...new Set(wanted.flatMap((plan) => plan.ddl))],
                    rewrittenSql: rewrite.sql,
                    notes: [`One SELECT per branch of the OR, each seeking its own index: ${rewrite.why}.`],
                  },
                ]
              : []),
          ],
        });
        continue;
      }
      const advice = plainIndexAdvice(resolved.table, resolved.info.name);
      if (!advice.suggestion) continue;
      const span = spanOf(site.node) ?? spanOf(column);
      if (!span) continue;
      reported.add(key);
      context.report({
        messageId: 'unindexed',
        data: { table: resolved.table.name, column: resolved.info.name },
        span,
        table: resolved.table.name,
        columns: [resolved.info.name],
        expression: context.textOf(spanOf(site.node) ? site.node : column),
        suggestions: [advice.suggestion],
      });
    }
  },
});

/** A visible B-tree index whose first key part is `column` (a prefix part still seeks it). */
function leadingIndex(table: TableInfo, column: string): IndexInfo | undefined {
  const name = column.toLowerCase();
  return table.indexes.find(
    (index) => index.visible && index.kind === 'btree' && index.parts[0]?.column?.toLowerCase() === name,
  );
}

function comparesWithNumber(value: unknown): boolean {
  const items =
    isNode(value) && value.type === 'expr_list' && Array.isArray(value.value) ? value.value : [value];
  return items.some((item) => {
    const literal = literalOf(item);
    return literal?.kind === 'integer' || literal?.kind === 'decimal';
  });
}
