// QRY007's suggestions: the index design's one index per OR branch and its UNION ALL rewrite.
//
// Design note: the index design (indexing/or-branches.ts, through designFor) decides everything — which
// OR of the main block it splits, the index each branch needs, the UNION ALL text and whether it is
// equivalent (the `(branch) IS NOT TRUE` guards, DISTINCT → UNION, ORDER BY / LIMIT outside, volatile
// functions, a LIMIT over a non-total order). This module only finds the design's split that is the OR
// QRY007 reported (same table, same branches as written) and turns it into suggestions; it never
// rewrites anything itself. A split of an OR in a subquery or derived table is never offered as the
// statement's rewrite (its text is that block's, not the statement's).

import type { SchemaModel } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import type { Suggestion } from '../model/report.js';
import { designFor } from '../indexing/index.js';
import { balanced } from './index-ddl.js';
import type { AstNode } from '../sql/ast.js';

export interface OrUnionInput {
  ast: AstNode;
  sql: string;
  schema: SchemaModel;
  server: ServerInfo;
  /** The reported OR's table (as the schema names it) and its branches' text as written. */
  table: string;
  branches: string[];
  /** The OR is an AND-ed conjunct of the statement's own WHERE (not of a nested block or an ON). */
  topLevel: boolean;
}

export interface OrUnionAdvice {
  suggestions: Suggestion[];
  notes: string[];
}

/** Branch text compared without whitespace, case of keywords or the parentheses around it. */
const normal = (text: string): string => {
  let value = text.replace(/\s+/g, ' ').trim();
  while (/^\(.*\)$/.test(value) && balanced(value.slice(1, -1))) value = value.slice(1, -1).trim();
  return value.toLowerCase();
};

/** The index per branch and the UNION ALL rewrite of the design's split of this OR (none when it has none). */
export function orUnionAdvice(input: OrUnionInput): OrUnionAdvice {
  const none: OrUnionAdvice = { suggestions: [], notes: [] };
  if (input.schema.source === 'none') return none;
  const design = designFor(input.ast, input.sql, input.schema, input.server);
  const rewriteOf = design?.orRewrite;
  if (!design || !rewriteOf) return none;
  const wanted = input.branches.map(normal);
  // The design may split several ORs (of different tables): this finding's OR must be one of them.
  const splits = rewriteOf.splits ?? [{ table: rewriteOf.table, branches: rewriteOf.branches }];
  const matches = (split: { table: string; branches: string[] }): boolean =>
    split.table.toLowerCase() === input.table.toLowerCase() &&
    split.branches.length === wanted.length &&
    split.branches.every((text, k) => normal(text) === wanted[k]);
  if (!splits.some(matches)) return none;
  const split = rewriteOf;
  const branchPlansOf = (table: string) =>
    design.tables.filter(
      (plan) => plan.table.toLowerCase() === table.toLowerCase() && plan.scope?.startsWith('OR branch'),
    );
  const wantedDdl = (plans: ReturnType<typeof branchPlansOf>): string[] => [
    ...new Set(
      plans.filter((plan) => plan.verdict !== 'served' && plan.indexName).flatMap((plan) => plan.ddl),
    ),
  ];
  const branchPlans = branchPlansOf(input.table);
  const ddl = wantedDdl(branchPlans);
  // The rewrite splits every OR of `splits`: it needs all their branch indexes.
  const rewriteDdl = [...new Set(splits.flatMap((entry) => wantedDdl(branchPlansOf(entry.table))))];
  const names = branchPlans.map((plan) =>
    plan.verdict === 'served' || !plan.indexName
      ? `existing ${plan.existingIndex ?? 'index'}`
      : plan.indexName,
  );
  const suggestions: Suggestion[] = [];
  const index: Suggestion | null =
    ddl.length === 0
      ? null
      : {
          kind: 'index',
          equivalent: true,
          ddl,
          indexName: branchPlans.find((plan) => plan.verdict !== 'served' && plan.indexName)!.indexName!,
          notes: [
            `One index per branch of the OR (${names.join(', ')}): the server can combine them for the query as written (index_merge union / sort_union; EXPLAIN says whether it does).`,
          ],
        };
  const rewrite: Suggestion | null =
    split.sql && input.topLevel
      ? {
          kind: 'rewrite',
          equivalent: split.equivalent,
          ddl: rewriteDdl,
          rewrittenSql: split.sql,
          notes: [`One SELECT per branch of the OR, each seeking its own index: ${split.why}.`],
        }
      : null;
  // An equivalent rewrite first: each branch seeks its index, where index_merge is the optimizer's
  // choice (often a scan on small tables). A rewrite that is not equivalent comes after the index.
  if (rewrite?.equivalent) suggestions.push(rewrite);
  if (index) suggestions.push(index);
  if (rewrite && !rewrite.equivalent) suggestions.push(rewrite);
  const notes = split.sql ? [] : [`No UNION ALL rewrite: ${split.why}.`];
  return { suggestions, notes };
}
