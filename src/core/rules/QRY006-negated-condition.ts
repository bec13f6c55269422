// QRY006: `<>` / `!=` / NOT IN (…) / NOT BETWEEN / NOT LIKE as the only condition on a table: no index narrows it.
/*
 * Design note.
 * - What the servers do (EXPLAIN with FORCE INDEX, MySQL 8.0.33 and MariaDB 10.11, proven in
 *   tests/integration/advice-rules-shape.test.ts): `a <> v`, `a NOT IN (v1, v2)` and `a NOT BETWEEN x AND y`
 *   are read as ranges around the excluded values (type range, nearly every row); `s NOT LIKE 'p%'` is
 *   never a range (a full index or table scan). So the index helps only when the excluded values are
 *   most of the table, which the optimizer rarely assumes.
 * - Reported in WHERE and ON when the negated comparison is on a plain column against constants and
 *   no other AND-ed condition of the same block narrows that table (=, IN, <, >, BETWEEN, LIKE 'p%',
 *   IS NULL on one of its columns): then the negation is a residual filter on few rows and harmless.
 * - NOT IN (subquery) is an anti-join, and its NULL trap is COR001's; not reported here.
 * - A NOT directly around a comparison is the negated operator: `NOT a = 1` is `a <> 1`, `NOT a IN
 *   (…)` is NOT IN, likewise BETWEEN and LIKE (SQLE's SQLE00113 case). Such a comparison never
 *   counts as a narrowing one.
 */

import { ancestorsOf, isConjunct } from '../advice/sql-edit.js';
import { hasDoubleQuoted, quotesIdentifiers } from '../advice/literals.js';
import { columnRefs, isNode, type AstNode } from '../sql/ast.js';
import type { PredicateSite } from '../sql/predicates.js';
import { defineRule } from './engine.js';
import { leadingWildcard, spanNear } from './utils/statement.js';

const NEGATED: Readonly<Record<string, 'notEqual' | 'notIn' | 'notBetween' | 'notLike'>> = {
  '<>': 'notEqual',
  '!=': 'notEqual',
  'NOT IN': 'notIn',
  'NOT BETWEEN': 'notBetween',
  'NOT LIKE': 'notLike',
};

/** What a comparison becomes under a NOT directly around it. */
const UNDER_NOT: Readonly<Record<string, string>> = {
  '=': '<>',
  IN: 'NOT IN',
  BETWEEN: 'NOT BETWEEN',
  LIKE: 'NOT LIKE',
};

const isNot = (node: AstNode | undefined): boolean => {
  if (!node) return false;
  if (node.type === 'unary_expr') return ['NOT', '!'].includes(String(node.operator ?? '').toUpperCase());
  if (node.type !== 'function') return false;
  const name = (node.name as { name?: { value?: string }[] } | undefined)?.name?.[0]?.value;
  return typeof name === 'string' && name.toUpperCase() === 'NOT';
};

const isNull = (node: unknown): boolean => isNode(node) && node.type === 'null';

const NARROWING = new Set(['=', '<=>', 'IN', '<', '<=', '>', '>=', 'BETWEEN', 'LIKE', 'IS']);

const constantSide = (node: AstNode | null): boolean =>
  node !== null &&
  columnRefs(node).length === 0 &&
  !(
    node.type === 'expr_list' &&
    Array.isArray(node.value) &&
    node.value.some((item) => isNode(item) && isNode(item.ast))
  ) &&
  !isNode(node.ast);

export const rule = defineRule({
  meta: {
    id: 'QRY006',
    name: 'predicate.negated-condition',
    category: 'query-shape',
    severity: 'info',
    title: 'Negated condition (<>, NOT IN, NOT LIKE) is the only filter',
    rationale:
      'A negated condition keeps every row except a few values. An index can read `<>`, NOT IN and NOT BETWEEN only as ranges around the excluded values, and NOT LIKE not at all, so when nothing else narrows the table the server reads all of it.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      notEqual:
        '{{expression}} keeps every {{column}} except one value: an index can only read the two ranges around it, so the table is scanned unless that value is most of it.',
      notIn:
        '{{expression}} keeps every {{column}} except the listed values: an index can only read the ranges between them, so the table is scanned unless they are most of it.',
      notBetween:
        '{{expression}} keeps every {{column}} outside one interval: an index can only read the two ranges around it, so the table is scanned unless the interval holds most of it.',
      notLike:
        '{{expression}}: NOT LIKE is never an index range, every row (or every index entry) of the table is read.',
    },
    docs: {
      antiPattern: "SELECT id FROM jobs WHERE status <> 'done'",
      bestPractice: "SELECT id FROM jobs WHERE status IN ('new', 'running', 'failed')",
      notes: [
        'Name the values you want (IN, or = per branch) when they are few; or add a condition that narrows the table through an index.',
        'NOT around a comparison counts as the negated operator: `NOT a = 1` is `a <> 1`, `NOT a IN (…)` is NOT IN.',
        'Not reported when another AND-ed condition narrows the same table (=, IN, ranges, LIKE with a fixed prefix, IS NULL): the negation then only filters the rows that condition found.',
        'Both servers read <>, NOT IN (list) and NOT BETWEEN as index ranges (EXPLAIN type range) but never NOT LIKE; either way nearly every row is read.',
      ],
    },
    peers: { soar: ['ARG.011'], sqle: ['dml_check_where_exist_not'] },
  },
  detect(context) {
    // Under ANSI_QUOTES a "…" token is a column (the parser reads it as a string): not a constant.
    const ansi = quotesIdentifiers(context.server.sqlMode.session);
    const constant = (node: AstNode | null): boolean =>
      constantSide(node) && !(ansi && hasDoubleQuoted(node));
    const sites = context.sites();
    const conjunct = (site: PredicateSite): boolean => {
      const ancestors = ancestorsOf(context.ast, site.node);
      return ancestors !== undefined && isConjunct(ancestors);
    };
    const tableOf = (site: PredicateSite, node: AstNode | null): unknown =>
      node?.type === 'column_ref'
        ? (context.resolveColumns(site, node)[0]?.scopeTable ?? undefined)
        : undefined;
    // The operator each site has with a NOT directly around it applied (undefined: not a plain one).
    const effective = new Map<PredicateSite, string | undefined>();
    const notOf = new Map<PredicateSite, AstNode>();
    for (const site of sites) {
      const ancestors = ancestorsOf(context.ast, site.node) ?? [];
      const parent = ancestors[ancestors.length - 1];
      const grandparent = ancestors[ancestors.length - 2];
      const not = isNot(parent)
        ? parent
        : parent?.type === 'expr_list' && isNot(grandparent)
          ? grandparent
          : undefined;
      if (not) notOf.set(site, not);
      effective.set(site, not ? UNDER_NOT[site.operator ?? ''] : (site.operator ?? undefined));
    }
    for (const site of sites) {
      if (site.clause !== 'where' && site.clause !== 'on') continue;
      const kind = NEGATED[effective.get(site) ?? ''];
      if (!kind) continue;
      const [column, value] =
        site.left?.type === 'column_ref' ? [site.left, site.right] : [site.right, site.left];
      if (!column || column.type !== 'column_ref' || !constant(value)) continue;
      if (kind === 'notLike' && column !== site.left) continue;
      // NOT IN (…, NULL, …) is never true: no row is kept at all, which is not this rule's story.
      if (kind === 'notIn' && isNode(value) && Array.isArray(value.value) && value.value.some(isNull))
        continue;
      const table = tableOf(site, column);
      const narrowed = sites.some((other) => {
        if (other === site || other.scope !== site.scope || !NARROWING.has(effective.get(other) ?? ''))
          return false;
        const [otherColumn, otherValue] =
          other.left?.type === 'column_ref' ? [other.left, other.right] : [other.right, other.left];
        if (!otherColumn || otherColumn.type !== 'column_ref' || !constant(otherValue)) return false;
        if (other.operator === 'LIKE' && leadingWildcard(otherValue)) return false;
        const otherTable = tableOf(other, otherColumn);
        return (table === undefined || otherTable === table) && conjunct(other);
      });
      if (narrowed) continue;
      const not = notOf.get(site);
      const expression = not
        ? context.textOf(not) || `NOT ${context.textOf(site.node)}`
        : context.textOf(site.node);
      const resolved = context.resolveColumns(site, column)[0];
      context.report({
        messageId: kind,
        data: { expression, column: resolved?.info?.name ?? String(column.column) },
        span: spanNear(context.sql, site.node),
        table: resolved?.table?.name ?? null,
        columns: [resolved?.info?.name ?? String(column.column)],
        expression,
      });
    }
  },
});
