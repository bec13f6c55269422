// An OR across columns of one table: one index per branch, and the UNION ALL rewrite that uses them.
//
// Design note: `WHERE a = 1 OR b = 2` cannot seek one index. With an index per branch the server can
// combine them itself (index_merge: union / sort_union), and a UNION ALL of one SELECT per branch lets
// each branch seek (and read its ORDER BY in index order) on its own. Each branch is designed as the
// statement with the OR replaced by that branch (design.ts, without splitting ORs again, and without the
// rewrite's guards), so a branch gets the same column order rules as any query. Branches are only used when they all seek one table of
// the block and nothing else in the query seeks that table (an equality outside the OR already narrows
// it; the OR is then a filter on those rows).
//
// The rewrite: branch k keeps its own condition and adds `(branch j) IS NOT TRUE` for every j < k.
// A row whose branch j is TRUE is returned by branch j only; a row for which branch j is NULL or FALSE
// is not excluded (NOT (…) would drop the NULL ones, which the original returns when a later branch is
// TRUE). So every row of the original comes back exactly once: the UNION ALL is equivalent as a multiset
// for a plain SELECT (no aggregate, GROUP BY, HAVING, window). DISTINCT becomes UNION (distinct over
// the whole result, like DISTINCT). ORDER BY becomes an outer ORDER BY over the output names; a LIMIT is
// kept in each branch (so each stops early) and outside. With a LIMIT the rewrite is called equivalent
// only when the ORDER BY is a total order (it ends on the primary key or a NOT NULL unique key of a
// single-table query): otherwise which tied rows fill the LIMIT may differ, as it may between two runs
// of the original. Nondeterministic functions (RAND() …) in a branch make it not equivalent (a branch's
// condition is evaluated again in the guards).
//
// Every independent qualifying OR is split, not only the first: the first qualifying OR of each table of
// the block (ORs of different tables are independent: each table's branches seek its own indexes), and
// the rewrite has one SELECT per combination of their branches, each OR guarding its own earlier
// branches. A second OR of a table stays whole in every branch (splitting it too would need one index per
// combination of the two ORs' branches: (a = 1 OR b = 2) AND (c = 3 OR d = 4) is four indexes). The
// product of the branch counts is bounded by MAX_OR_BRANCHES: an OR that would pass it is kept whole in
// every SELECT (a filter), and the note says so and names index_merge.
//
// An OR of more than MAX_OR_BRANCHES branches is not split: each branch is designed as a statement of
// its own, and a generated WHERE of 20,000 ORs (docs/parsing.md, "Limits") ran out of memory doing so.
// Such an OR keeps the plan of the whole statement.

import type { SchemaModel } from '../model/schema.js';
import { findColumn } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { columnName, columnRefs, containsAggregate, embeddedSelect, isNode, spanOf } from '../sql/ast.js';
import type { AstNode, Span } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { quoteIdentifier } from '../advice/index-ddl.js';
import { conjunctsOf, type BlockAccess, type BlockTable } from './access.js';
import { conditionTree, innerSpan, termSpan } from './conditions.js';
import type { QueryIndexPlan, TableIndexPlan } from './design-types.js';

const SEEK_ROLES = new Set(['equality', 'in', 'range', 'join']);
/** Functions whose value changes between evaluations within one statement. */
const VOLATILE =
  /\b(RAND|UUID|UUID_SHORT|SYSDATE|SLEEP|GET_LOCK|RELEASE_LOCK|BENCHMARK|LAST_INSERT_ID)\s*\(/i;

/** The most OR branches designed one by one, and the most SELECTs of a rewrite (the product over its ORs). */
const MAX_OR_BRANCHES = 32;

type DesignBranch = (sql: string, ast: AstNode) => QueryIndexPlan | undefined;

/** An OR conjunct of the block's WHERE across columns of one table. */
interface OrConjunct {
  span: Span;
  /** Each branch's text without its own parentheses. */
  texts: string[];
  table: BlockTable;
}

/** An OR that is split: its branches' designs (each seeks). */
interface SplitOr extends OrConjunct {
  designs: TableIndexPlan[];
}

/**
 * Replace the plan of each table that an OR across its columns filters by one plan per branch, and attach
 * the UNION ALL rewrite (SELECT only). The first qualifying AND-ed OR of each table is split, while the
 * product of the split ORs' branch counts stays within MAX_OR_BRANCHES; a second OR of the same table
 * stays whole (a filter in each branch: splitting it too would need one index per combination of
 * branches). The rewrite is one SELECT per combination of branches; each OR adds its own guards (its
 * earlier branches IS NOT TRUE): a row is returned by the first combination (in order) whose branches
 * are all TRUE for it, since an earlier TRUE combination differs from it first in one OR whose earlier
 * branch is then TRUE. Leaves the plan unchanged when no OR qualifies.
 */
export function designOrBranches(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  access: BlockAccess,
  plan: QueryIndexPlan,
  designBranch: DesignBranch,
): void {
  const split: SplitOr[] = [];
  /** Tables whose every qualifying OR is one column's ranges: the design of that OR's branches. */
  const ranged = new Map<BlockTable, TableIndexPlan>();
  let product = 1;
  for (const or of qualifyingOrs(ast, sql, access, plan)) {
    const first = split.find((other) => other.table === or.table);
    if (first) {
      plan.notes.push(
        `The OR ${or.texts.map((text) => `(${text})`).join(' OR ')} is kept whole, a filter in every branch of ${first.texts.map((text) => `(${text})`).join(' OR ')}: splitting a second OR of ${or.table.info.name} would need one index per combination of their branches.`,
      );
      continue;
    }
    const designs: TableIndexPlan[] = [];
    let failed: string | null = null;
    for (let k = 0; k < or.texts.length && !failed; k++) {
      // Designed without the guards: the index serves the branch under index_merge too, and a guard
      // column is read from the row, not worth a wider index.
      const entry = designCombination(sql, server, [or], [k], or.table, designBranch);
      if (entry) designs.push(entry);
      else failed = or.texts[k]!;
    }
    if (failed) {
      plan.notes.push(
        `The OR on ${or.table.info.name} has a branch no index can seek (${failed}): every row is read whatever the other branches' indexes.`,
      );
      continue;
    }
    // One column in every branch (a = 1 OR a = 2): the server reads it as several ranges of one index.
    const keys = designs.map((entry) =>
      JSON.stringify(entry.parts.map((part) => [part.column, part.expression])),
    );
    if (new Set(keys).size === 1) {
      if (!ranged.has(or.table)) ranged.set(or.table, designs[0]!);
      continue;
    }
    if (product * or.texts.length > MAX_OR_BRANCHES) {
      plan.notes.push(
        `The OR ${or.texts.map((text) => `(${text})`).join(' OR ')} on ${or.table.info.name} is kept whole: splitting it as well would make ${product * or.texts.length} SELECTs (more than ${MAX_OR_BRANCHES}); the server may still combine indexes for it (index_merge).`,
      );
      continue;
    }
    product *= or.texts.length;
    split.push({ ...or, designs });
  }
  for (const [table, single] of ranged) {
    if (split.some((or) => or.table === table)) continue;
    const current = plan.tables.findIndex((entry) => sameTable(entry, table));
    if (current < 0) continue;
    plan.tables[current] = {
      ...single,
      notes: [
        ...single.notes,
        'Every branch of the OR seeks the same index: the server reads it as one range of several intervals (no UNION needed).',
      ],
    };
  }
  if (ranged.size > 0 || split.length > 0)
    plan.notes = plan.notes.filter((note) => !note.startsWith('An OR across columns'));
  if (split.length === 0) return;

  // Per table: one entry per branch of its OR.
  const names: string[] = [];
  for (const or of split) {
    const entries = or.designs.map((design, k) => ({
      ...design,
      scope: `OR branch ${k + 1} of ${or.designs.length}: ${or.texts[k]}`,
    }));
    const current = plan.tables.findIndex((entry) => sameTable(entry, or.table));
    if (current >= 0) plan.tables.splice(current, 1, ...entries);
    names.push(
      ...entries.map((entry) => entry.indexName ?? entry.existingIndex ?? '').filter((name) => name !== ''),
    );
  }
  const tables = split.map((or) => or.table);

  const allTexts = split.flatMap((or) => or.texts);
  const rewrite = rewriteShape(ast, sql, access, split[0]!.table, allTexts);
  const described = tables.map((table) => table.info.name).join(', ');
  const several = split.length > 1 ? `${split.length} ORs across columns (of ${described})` : '';
  plan.notes.push(
    `${several ? `The ${several} get` : `The OR across columns of ${described} gets`} one index per branch (${[...new Set(names)].join(', ')}): the server can combine them for the query as written (index_merge, union or sort_union — EXPLAIN says which), and ${rewrite.possible ? `the UNION ALL rewrite (orRewrite${split.length > 1 ? `, ${product} SELECTs` : ''}) lets each branch seek its own index` : `it cannot be rewritten as a UNION ALL: ${rewrite.why}`}.`,
  );
  const splits = split.map((or) => ({ table: or.table.info.name, branches: or.texts }));
  const base = { table: split[0]!.table.info.name, branches: split[0]!.texts, splits };
  if (!rewrite.possible) {
    plan.orRewrite = { ...base, sql: null, equivalent: false, why: rewrite.why };
    return;
  }
  const parts = combinations(split.map((or) => or.texts.length)).map((combo) =>
    replaceSpans(
      sql,
      split.map((or, i) => {
        const k = combo[i]!;
        return {
          span: or.span,
          text: [`(${or.texts[k]})`, ...or.texts.slice(0, k).map((text) => `(${text}) IS NOT TRUE`)].join(
            ' AND ',
          ),
        };
      }),
    ),
  );
  const wrapped = rewrite.outer !== '';
  plan.orRewrite = {
    ...base,
    sql:
      parts
        .map((part) => (wrapped ? `(${part})` : part))
        .join(rewrite.distinct ? '\nUNION\n' : '\nUNION ALL\n') + (wrapped ? `\n${rewrite.outer}` : ''),
    equivalent: rewrite.equivalent,
    why:
      split.length > 1 && rewrite.equivalent
        ? `${rewrite.why}; with ${split.length} ORs each SELECT is one combination of branches, and each OR excludes its own earlier branches: a row comes from the first combination whose branches are all TRUE for it`
        : rewrite.why,
  };
}

/** The AND-ed ORs of the block's WHERE whose branches all filter one table that nothing else seeks. */
function qualifyingOrs(ast: AstNode, sql: string, access: BlockAccess, plan: QueryIndexPlan): OrConjunct[] {
  const found: OrConjunct[] = [];
  for (const conjunct of conjunctsOf(conditionTree(ast.where))) {
    if (!isOr(conjunct)) continue;
    const branches = orBranches(conjunct);
    if (branches.length > MAX_OR_BRANCHES) continue;
    const span = termSpan(conjunct, sql);
    if (!span || branches.some((branch) => !termSpan(branch, sql) || hasSubquery(branch))) continue;
    const owner = ownerTable(branches, access);
    if (owner === undefined) continue;
    const table = access.tables[owner]!;
    const main = plan.tables.find((entry) => sameTable(entry, table));
    if (!main) continue;
    // Something outside the OR already seeks this table: the OR only filters the rows it finds.
    if (main.verdict === 'served' || main.parts.some((part) => SEEK_ROLES.has(part.role))) continue;
    const texts = branches.map((branch) => {
      const inner = innerSpan(branch, sql)!;
      return sql.slice(inner.start, inner.end).trim();
    });
    found.push({ span, texts, table });
  }
  return found;
}

/**
 * The design of `table` for the statement with each OR replaced by its branch `combo[i]` (no guards),
 * or undefined when that design cannot seek the table.
 */
function designCombination(
  sql: string,
  server: ServerInfo,
  ors: OrConjunct[],
  combo: number[],
  table: BlockTable,
  designBranch: DesignBranch,
): TableIndexPlan | undefined {
  const text = replaceSpans(
    sql,
    ors.map((or, i) => ({ span: or.span, text: `(${or.texts[combo[i]!]})` })),
  );
  const parsed = parseStatement(text, server.flavor);
  const branchPlan = parsed.ok ? designBranch(text, parsed.ast) : undefined;
  const entry = branchPlan?.tables.find((candidate) => sameTable(candidate, table));
  if (
    !entry ||
    entry.verdict === 'none' ||
    (entry.verdict !== 'served' && !entry.parts.some((part) => SEEK_ROLES.has(part.role)))
  )
    return undefined;
  return entry;
}

/** Every combination of one branch per OR, the first OR's branch varying slowest. */
function combinations(counts: number[]): number[][] {
  let result: number[][] = [[]];
  for (const count of counts)
    result = result.flatMap((prefix) => Array.from({ length: count }, (_, k) => [...prefix, k]));
  return result;
}

function isOr(node: AstNode): boolean {
  return node.type === 'binary_expr' && /^(OR|\|\|)$/i.test(String(node.operator));
}

function orBranches(node: AstNode): AstNode[] {
  if (isOr(node)) {
    const left = isNode(node.left) ? node.left : null;
    const right = isNode(node.right) ? node.right : null;
    if (!left || !right) return [node];
    return [...(isOr(left) ? orBranches(left) : [left]), ...(isOr(right) ? orBranches(right) : [right])];
  }
  return [node];
}

function hasSubquery(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasSubquery);
  if (!isNode(node)) return false;
  if (embeddedSelect(node) || node.type === 'select') return true;
  for (const key in node) if (key !== 'loc' && hasSubquery(node[key])) return true;
  return false;
}

/** The one table of the block every branch's columns belong to (undefined: several, none, or unknown). */
function ownerTable(branches: AstNode[], access: BlockAccess): number | undefined {
  const owners = new Set<number>();
  for (const branch of branches) {
    const refs = columnRefs(branch);
    if (refs.length === 0) return undefined;
    for (const ref of refs) {
      const qualifier = ref.table?.toLowerCase() ?? null;
      const matches = access.tables
        .map((table, index) => ({ table, index }))
        .filter(({ table }) =>
          qualifier
            ? table.visibleName.toLowerCase() === qualifier || table.name.toLowerCase() === qualifier
            : Boolean(findColumn(table.info, ref.column)),
        );
      if (matches.length !== 1) return undefined;
      owners.add(matches[0]!.index);
    }
  }
  return owners.size === 1 ? [...owners][0] : undefined;
}

function sameTable(entry: TableIndexPlan, table: BlockTable): boolean {
  if (entry.table.toLowerCase() !== table.info.name.toLowerCase()) return false;
  const alias = table.alias && table.alias !== table.info.name ? table.alias : null;
  return (entry.alias ?? null)?.toLowerCase() === alias?.toLowerCase();
}

/** Replace the span's text, keeping the whitespace it ends with (the parser's spans sometimes take the next space). */
function replaceSpan(sql: string, span: Span, text: string): string {
  const trailing = /\s*$/.exec(sql.slice(span.start, span.end))?.[0] ?? '';
  const after = sql.slice(span.end);
  const gap = trailing === '' && /^\w/.test(after) ? ' ' : trailing;
  return `${sql.slice(0, span.start)}${text}${gap}${after}`;
}

/** Replace several non-overlapping spans (the last first, so earlier offsets hold). */
function replaceSpans(sql: string, replacements: { span: Span; text: string }[]): string {
  return [...replacements]
    .sort((a, b) => b.span.start - a.span.start)
    .reduce((text, { span, text: replacement }) => replaceSpan(text, span, replacement), sql);
}

interface RewriteShape {
  possible: boolean;
  distinct: boolean;
  /** `ORDER BY … LIMIT …` after the union ('' when none). */
  outer: string;
  equivalent: boolean;
  why: string;
}

/** Whether the statement can be a UNION of one SELECT per branch, and how its ORDER BY / LIMIT move outside. */
function rewriteShape(
  ast: AstNode,
  sql: string,
  access: BlockAccess,
  table: BlockTable,
  texts: string[],
): RewriteShape {
  const no = (why: string): RewriteShape => ({
    possible: false,
    distinct: false,
    outer: '',
    equivalent: false,
    why,
  });
  if (access.kind !== 'select') return no(`a ${access.kind.toUpperCase()} cannot be split into a UNION`);
  if (isNode(ast._next) || ast.with) return no('the statement already has a set operation or WITH clause');
  const columns = Array.isArray(ast.columns) ? ast.columns : [];
  const groupBy = ast.groupby as { columns?: unknown[] } | unknown[] | null | undefined;
  const grouped = Array.isArray(groupBy) ? groupBy.length > 0 : Boolean(groupBy?.columns?.length);
  if (grouped || ast.having || containsAggregate(columns))
    return no(
      'it aggregates (GROUP BY, HAVING or an aggregate function): the branches would be aggregated apart',
    );
  if (/\bOVER\s*\(|\bSQL_CALC_FOUND_ROWS\b/i.test(sql) || ast.window)
    return no('it uses a window function or SQL_CALC_FOUND_ROWS');
  if (isNode(ast.into) && ast.into.position) return no('it selects INTO variables or a file');
  if (ast.locking_read) return no('it is a locking read (FOR UPDATE / FOR SHARE)');
  const limitValues = isNode(ast.limit) && Array.isArray(ast.limit.value) ? ast.limit.value : [];
  if (limitValues.length > 1) return no('it has a LIMIT offset');
  const distinct = String(ast.distinct ?? '').toUpperCase() === 'DISTINCT';
  const volatile = texts.some((text) => VOLATILE.test(text));
  // ORDER BY moves outside the UNION: it must name output columns.
  const outputs = new Map<string, string>();
  for (const item of columns) {
    if (!isNode(item) || !isNode(item.expr)) continue;
    const alias = typeof item.as === 'string' ? item.as : null;
    if (alias) outputs.set(alias.toLowerCase(), alias);
    else if (item.expr.type === 'column_ref') {
      const name = columnName(item.expr);
      if (name && name !== '*') outputs.set(name.toLowerCase(), name);
    }
  }
  const star =
    ast.columns === '*' ||
    columns.some(
      (item) =>
        isNode(item) && isNode(item.expr) && (item.expr.type === 'star' || columnName(item.expr) === '*'),
    );
  const orderItems = Array.isArray(ast.orderby) ? ast.orderby.filter(isNode) : [];
  const order: string[] = [];
  const orderColumns: string[] = [];
  for (const item of orderItems) {
    const expr = isNode(item.expr) ? item.expr : null;
    const name = expr?.type === 'column_ref' ? columnName(expr) : undefined;
    const output = name
      ? (outputs.get(name.toLowerCase()) ??
        (star && access.tables.length === 1 && findColumn(table.info, name)
          ? findColumn(table.info, name)!.name
          : undefined))
      : undefined;
    if (!output)
      return no('its ORDER BY is not on columns of the select list (a UNION sorts by output columns)');
    order.push(
      `${quoteIdentifier(output)}${String(item.type ?? '').toUpperCase() === 'DESC' ? ' DESC' : ''}`,
    );
    orderColumns.push(output.toLowerCase());
  }
  const limitText =
    limitValues.length === 1 && isNode(ast.limit) && spanOf(ast.limit)
      ? sql.slice(spanOf(ast.limit)!.start, spanOf(ast.limit)!.end).trim()
      : '';
  const outer = [order.length > 0 ? `ORDER BY ${order.join(', ')}` : '', limitText].filter(Boolean).join(' ');
  if (volatile)
    return {
      possible: true,
      distinct,
      outer,
      equivalent: false,
      why: 'a branch calls a nondeterministic function (RAND(), UUID() …), which the guards of the later branches evaluate again',
    };
  if (limitText) {
    const total =
      access.tables.length === 1 &&
      table.info.indexes.some(
        (index) =>
          index.unique &&
          index.parts.length > 0 &&
          index.parts.every(
            (part) =>
              part.column &&
              !part.prefixLength &&
              findColumn(table.info, part.column)?.nullable === false &&
              orderColumns.includes(part.column.toLowerCase()),
          ),
      );
    if (!total)
      return {
        possible: true,
        distinct,
        outer,
        equivalent: false,
        why: 'the LIMIT keeps the first rows of an ORDER BY that is not a total order: rows tied at the limit may be other ones than the original returns (as between two runs of the original)',
      };
  }
  return {
    possible: true,
    distinct,
    outer,
    equivalent: true,
    why: distinct
      ? 'UNION removes duplicates over the whole result, as DISTINCT does; each branch excludes the rows of the branches before it'
      : 'each branch excludes the rows an earlier branch returns ((branch) IS NOT TRUE keeps the rows where it is NULL), so every row of the original comes back exactly once',
  };
}
