// COR001: `x NOT IN (SELECT c …)` where c can be NULL: one NULL makes the predicate unknown for every row.

import { findColumn, findTable } from '../model/schema.js';
import { isNode, type AstNode } from '../sql/ast.js';
import { defineRule } from './engine.js';
import { spanNear } from './utils/statement.js';

export const rule = defineRule({
  meta: {
    id: 'COR001',
    name: 'correctness.not-in-nullable-subquery',
    category: 'correctness',
    severity: 'error',
    title: 'NOT IN (subquery) over a NULLable column',
    rationale:
      'x NOT IN (SELECT c …) is x <> c for every c, and x <> NULL is unknown: as soon as the subquery returns one NULL, no row qualifies, silently. NOT EXISTS compares row by row and ignores the NULLs.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      nullable:
        'NOT IN (SELECT {{column}} …): {{column}} can be NULL, and one NULL in the subquery makes NOT IN return no rows at all. Use NOT EXISTS, or filter {{column}} IS NOT NULL in the subquery.',
    },
    docs: {
      antiPattern: 'SELECT id FROM customers WHERE id NOT IN (SELECT referrer_id FROM customers)',
      bestPractice:
        'SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM customers r WHERE r.referrer_id = c.id)',
      notes: [
        'Needs the subquery column’s definition (live schema or DDL): reported only when the column is NULLable.',
        'The two forms also differ when the outer value is NULL: NOT IN drops that row, NOT EXISTS keeps it.',
      ],
    },
  },
  detect(context) {
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!isNode(value)) return;
      if (value.type === 'binary_expr' && String(value.operator).toUpperCase() === 'NOT IN') check(value);
      for (const key in value) if (key !== 'loc') visit(value[key]);
    };
    const check = (node: AstNode): void => {
      const list = node.right as AstNode | undefined;
      const item = Array.isArray(list?.value) ? (list.value as AstNode[])[0] : undefined;
      const sub = item && isNode(item.ast) ? item.ast : undefined;
      if (!sub || sub.type !== 'select') return;
      const expr = (sub.columns as { expr?: AstNode }[] | undefined)?.[0]?.expr;
      const from =
        (sub.from as { table?: string; as?: string | null; db?: string | null }[] | undefined) ?? [];
      if (!expr || expr.type !== 'column_ref') return;
      const qualifier = typeof expr.table === 'string' ? expr.table : null;
      const source = from.find((entry) => !qualifier || entry.as === qualifier || entry.table === qualifier);
      const table = source?.table ? findTable(context.schema, source.table, source.db ?? null) : undefined;
      const info = table ? findColumn(table, String(expr.column)) : undefined;
      if (!info?.nullable) return;
      context.report({
        messageId: 'nullable',
        data: { column: info.name },
        span: spanNear(context.sql, node, 'NOT IN'),
        table: table?.name ?? null,
        columns: [info.name],
        expression: 'NOT IN (SELECT …)',
      });
    };
    visit(context.ast);
  },
});
