// COR006: a comparison with the NULL literal (`x = NULL`, `x <> NULL`, `x NOT IN (…, NULL)`, `x IN (NULL)`) is never true.
/*
 * Design note.
 * - SQL comparisons with NULL are unknown, and WHERE / ON / HAVING keep only true rows: `x = NULL` and
 *   `x <> NULL` keep no row; `x NOT IN (a, NULL)` is `x <> a AND x <> NULL`, never true, so the
 *   statement silently returns (or changes) nothing; `x IN (NULL)` likewise. `x IN (a, NULL)` keeps the
 *   `x = a` rows but never the NULL ones the author probably meant (IS NULL). `<=>` is NULL-safe and fine.
 * - Only the NULL literal is judged: a NULLable column or a parameter may hold NULL or not (COR001 covers
 *   NOT IN over a NULLable subquery column).
 */

import { isNode, type AstNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

const isNull = (node: unknown): boolean => isNode(node) && node.type === 'null';

export const rule = defineRule({
  meta: {
    id: 'COR006',
    name: 'correctness.compared-with-null',
    category: 'correctness',
    severity: 'error',
    title: 'Comparison with NULL is never true',
    rationale:
      'A comparison with NULL (=, <>, <, IN, NOT IN) is unknown, not true, and a condition keeps only true rows: `x = NULL` finds nothing, `x NOT IN (1, NULL)` finds nothing, and `x IN (1, NULL)` never finds the NULL rows. IS NULL / IS NOT NULL (or <=>) test for NULL.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      comparison:
        '{{expression}} is never true (a comparison with NULL is unknown): no row passes it. Write {{fix}}.',
      notIn:
        '{{expression}} is never true: NOT IN with a NULL in the list is unknown for every row, so no row passes it. Drop the NULL, and add OR … IS NULL if NULL rows are meant.',
      inOnlyNull:
        '{{expression}} is never true: IN (NULL) matches no row, not even the NULL ones. Write {{fix}}.',
      inWithNull:
        '{{expression}}: the NULL in the list matches no row (IN compares with =). Add OR {{column}} IS NULL if NULL rows are meant, else drop it.',
    },
    docs: {
      antiPattern: 'SELECT id FROM orders WHERE shipped_at = NULL',
      bestPractice: 'SELECT id FROM orders WHERE shipped_at IS NULL',
      notes: [
        'Only the NULL literal is judged; `x <=> NULL` is NULL-safe and not reported.',
        'A NULLable column in NOT IN (SELECT …) is COR001.',
      ],
    },
    peers: { soar: ['ARG.004'], sqle: ['dml_avoid_where_equal_null', 'dml_hint_in_null_only_false'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      if (site.clause !== 'where' && site.clause !== 'on' && site.clause !== 'having') continue;
      const operator = site.operator ?? '';
      const expression = context.textOf(site.node);
      const span = spanNear(context.sql, site.node);
      const other = (node: AstNode | null): string => (node ? context.textOf(node) : '');
      const report = (
        messageId: 'comparison' | 'notIn' | 'inOnlyNull' | 'inWithNull',
        column: string,
        fix: string,
        severity?: 'warning',
      ): void =>
        context.report({
          messageId,
          data: { expression, column, fix },
          span,
          table: null,
          columns: [],
          expression,
          ...(severity ? { severity } : {}),
        });
      if (COMPARISONS.has(operator)) {
        const [value, nullSide] = isNull(site.right) ? [site.left, site.right] : [site.right, site.left];
        if (!isNull(nullSide) || isNull(value)) continue;
        const negated = operator === '<>' || operator === '!=';
        const fix =
          operator === '=' || negated
            ? `${other(value)} IS ${negated ? 'NOT ' : ''}NULL`
            : 'IS NULL / IS NOT NULL, or compare with a value';
        report('comparison', other(value), fix);
        continue;
      }
      if (operator !== 'IN' && operator !== 'NOT IN') continue;
      const list = site.right;
      if (!isNode(list) || list.type !== 'expr_list' || !Array.isArray(list.value)) continue;
      const items = list.value.filter(isNode);
      if (!items.some(isNull)) continue;
      const column = other(site.left);
      if (operator === 'NOT IN') report('notIn', column, '');
      else if (items.every(isNull)) report('inOnlyNull', column, `${column} IS NULL`);
      else report('inWithNull', column, '', 'warning');
    }
  },
});
