// The query blocks of a statement besides its main one: UNION branches, derived tables, CTEs and
// subqueries (IN, EXISTS, scalar), each designed on its own (design.ts).
//
// Design note: every SELECT block reads its tables through its own access path, so each gets the same
// per-table design as the main block. A correlated reference to an outer table (`i.order_id = o.id` inside
// EXISTS) is a constant for the inner block (access.ts), so the inner table's correlated column becomes
// an equality column, as the lookup per outer row uses it. For `x IN (SELECT c FROM …)` the server either
// materialises the subquery or turns it into a lookup `c = x` per outer row (semi-join FirstMatch /
// EXISTS); `c` is added as an equality after the subquery's own equalities, so one index serves both
// (the filters seek the materialisation, and with `c` the lookup). A trailing ORDER BY / LIMIT after the
// last UNION branch belongs to the whole union, not to that branch.

import { embeddedSelect, isNode, type AstNode } from '../sql/ast.js';

export interface NestedBlock {
  ast: AstNode;
  /** Where it is read: `UNION branch 2`, `derived table d`, `WITH c`, `IN subquery`, `EXISTS subquery`, `subquery`. */
  scope: string;
  /** `x IN (SELECT c …)`: the subquery's selected column `c`, looked up per outer row. */
  inColumn?: AstNode;
}

/** Every block of the statement except the main one, outermost first. */
export function nestedBlocks(ast: AstNode): NestedBlock[] {
  const found: NestedBlock[] = [];
  const seen = new Set<AstNode>();
  const visitBlock = (block: AstNode): void => {
    if (seen.has(block)) return;
    seen.add(block);
    // UNION branches.
    let branch = 1;
    for (let next = block._next; isNode(next); next = next._next) {
      branch++;
      const last = !isNode(next._next);
      const own = last && (next.orderby || next.limit) ? { ...next, orderby: null, limit: null } : next;
      const scope = `UNION branch ${branch}`;
      found.push({ ast: own, scope });
      seen.add(next);
      visitParts(own);
    }
    visitParts(block);
  };
  const visitParts = (block: AstNode): void => {
    if (Array.isArray(block.with))
      for (const cte of block.with)
        if (isNode(cte) && isNode(cte.stmt) && isNode(cte.stmt.ast)) {
          const name = isNode(cte.name) ? String(cte.name.value ?? '') : '';
          add(cte.stmt.ast, `WITH ${name}`);
        }
    const from = (String(block.type) === 'update' ? block.table : block.from) as unknown;
    if (Array.isArray(from))
      for (const item of from) {
        if (!isNode(item)) continue;
        const inner = isNode(item.expr) ? embeddedSelect(item.expr) : undefined;
        if (inner) add(inner, `derived table ${typeof item.as === 'string' ? item.as : ''}`.trim());
        scan(item.on);
      }
    for (const key of ['columns', 'where', 'having', 'set', 'orderby']) scan(block[key]);
  };
  const add = (inner: AstNode, scope: string, inColumn?: AstNode): void => {
    if (String(inner.type) !== 'select' || seen.has(inner)) return;
    found.push({ ast: inner, scope, ...(inColumn ? { inColumn } : {}) });
    visitBlock(inner);
  };
  // Subqueries inside expressions.
  const scan = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(scan);
    if (!isNode(value)) return;
    if (value.type === 'binary_expr' && /^(NOT )?IN$/i.test(String(value.operator))) {
      const list = isNode(value.right) && Array.isArray(value.right.value) ? value.right.value : [];
      const only = list.length === 1 && isNode(list[0]) ? embeddedSelect(list[0]) : undefined;
      if (only) {
        scan(value.left);
        const columns = Array.isArray(only.columns) ? only.columns : [];
        const first =
          columns.length === 1 && isNode(columns[0]) && isNode(columns[0].expr) ? columns[0].expr : undefined;
        add(
          only,
          `${String(value.operator).toUpperCase()} subquery`,
          first?.type === 'column_ref' ? first : undefined,
        );
        return;
      }
    }
    if (value.type === 'function' && isNode(value.name)) {
      const names = Array.isArray(value.name.name) ? value.name.name : [];
      const exists = names.some((part) => isNode(part) && String(part.value).toUpperCase() === 'EXISTS');
      if (exists) {
        const args = isNode(value.args) ? value.args.value : undefined;
        const list = Array.isArray(args) ? args : [args];
        for (const arg of list) {
          const inner = isNode(arg) ? embeddedSelect(arg) : undefined;
          if (inner) add(inner, 'EXISTS subquery');
        }
        return;
      }
    }
    const inner = embeddedSelect(value);
    if (inner) {
      add(inner, 'subquery');
      return;
    }
    for (const key in value) if (key !== 'loc') scan(value[key]);
  };
  visitBlock(ast);
  return found;
}
