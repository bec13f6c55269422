// Small helpers for rules about the statement's shape (clauses, keywords, LIMIT), not its predicates.

import { isNode, spanOf, type AstNode, type Span } from '../../sql/ast.js';

/** The span of a node, else of the first occurrence of `needle` (case-insensitive, as a word), else the statement. */
export function spanNear(sql: string, node: unknown, needle?: string): Span {
  const own = spanOf(node);
  if (own) return own;
  if (needle) {
    const body = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    const pattern = `${/^\w/.test(needle) ? '\\b' : ''}${body}${/\w$/.test(needle) ? '\\b' : ''}`;
    const match = new RegExp(pattern, 'i').exec(sql);
    if (match) return { start: match.index, end: match.index + match[0].length };
  }
  return { start: 0, end: sql.trimEnd().length };
}

/** Every SELECT block of the statement: the statement, UNION parts, subqueries and derived tables. */
export function selectBlocks(ast: AstNode): AstNode[] {
  const blocks: AstNode[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (value.type === 'select') blocks.push(value);
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(ast);
  return blocks;
}

/** LIMIT row count and offset as numbers when literal (`LIMIT 10 OFFSET 5000`, `LIMIT 5000, 10`). */
export function limitOf(block: AstNode): { count?: number; offset?: number; present: boolean } {
  const limit = block.limit as { seperator?: string; value?: AstNode[] } | null | undefined;
  const values = limit?.value ?? [];
  if (values.length === 0) return { present: false };
  const number = (node: AstNode | undefined): number | undefined =>
    node?.type === 'number' && /^\d+$/.test(String(node.value)) ? Number(node.value) : undefined;
  if (values.length === 1) return { present: true, count: number(values[0]) };
  if (limit?.seperator === ',') return { present: true, offset: number(values[0]), count: number(values[1]) };
  return { present: true, count: number(values[0]), offset: number(values[1]) };
}

/** The top-level AND conjuncts of a condition (`a AND (b AND c)` → a, b, c); a non-AND condition is one conjunct. */
export function andConjuncts(condition: unknown): AstNode[] {
  if (!isNode(condition)) return [];
  if (condition.type === 'binary_expr' && ['AND', '&&'].includes(String(condition.operator).toUpperCase()))
    return [...andConjuncts(condition.left), ...andConjuncts(condition.right)];
  return [condition];
}

/** The items of a SELECT block's GROUP BY (empty without one). */
export function groupByItems(block: AstNode): AstNode[] {
  const group = block.groupby as { columns?: unknown } | null | undefined;
  return Array.isArray(group?.columns) ? group.columns.filter(isNode) : [];
}

/** True when a SELECT block groups WITH ROLLUP (its super-aggregate rows carry NULL in the grouped columns). */
export function hasRollup(block: AstNode): boolean {
  const group = block.groupby as { modifiers?: unknown[] } | null | undefined;
  return (group?.modifiers ?? []).some((modifier) => modifier !== null && modifier !== undefined);
}

/** A LIKE pattern literal that starts with a wildcard (`'%x'`, `'_x'`): no index prefix to seek. */
export function leadingWildcard(pattern: unknown): boolean {
  return isNode(pattern) && typeof pattern.value === 'string' && /^[%_]/.test(pattern.value);
}

/**
 * Names (alias, else table name; lower case) of the tables an outer join of some block NULL-extends:
 * the right side of LEFT JOIN, every table before a RIGHT JOIN, both sides of FULL JOIN.
 */
export function nullSupplyingNames(ast: AstNode): Set<string> {
  const names = new Set<string>();
  for (const block of selectBlocks(ast)) {
    const from = (Array.isArray(block.from) ? block.from : []).filter(isNode);
    const joins = from.map((entry) =>
      String(entry.join ?? '')
        .toUpperCase()
        .replace(/\s+/g, ''),
    );
    const rightAt = joins.findIndex((join) => join.startsWith('RIGHT'));
    from.forEach((entry, index) => {
      const supplying =
        joins[index]!.startsWith('LEFT') ||
        joins[index]!.startsWith('FULL') ||
        joins[index + 1]?.startsWith('FULL') === true ||
        (rightAt >= 0 && index < rightAt);
      const name =
        typeof entry.as === 'string' ? entry.as : typeof entry.table === 'string' ? entry.table : null;
      if (supplying && name) names.add(name.toLowerCase());
    });
  }
  return names;
}
