// A value comparison read both ways round: `col = 5`, `5 = col` and `col IN (1, 2)` each give the column
// with the values on its other side. CNV001 (number against a string column) and CNV003 (date against
// a string column) look at the same pairs and differ only in which values they care about.
import { type AstNode, isNode } from '../../sql/ast.js';
import { type PredicateSite, VALUE_COMPARISON_OPERATORS } from '../../sql/predicates.js';

/** One column side of a comparison and the values compared with it (an IN list's items, or the one value). */
export interface ColumnComparison {
  column: AstNode;
  values: AstNode[];
}

/**
 * The column sides of a value comparison (=, <>, <, IN, …) in a WHERE, ON or HAVING; none for other
 * operators and for ORDER BY / GROUP BY sites.
 */
export function columnComparisons(site: PredicateSite): ColumnComparison[] {
  if (!site.operator || !VALUE_COMPARISON_OPERATORS.has(site.operator)) return [];
  if (site.clause === 'order-by' || site.clause === 'group-by') return [];
  const sides: [AstNode | null, AstNode | null][] = [
    [site.left, site.right],
    [site.right, site.left],
  ];
  const found: ColumnComparison[] = [];
  for (const [column, value] of sides) {
    if (!isNode(column) || column.type !== 'column_ref' || !value) continue;
    const values =
      value.type === 'expr_list' && Array.isArray(value.value) ? value.value.filter(isNode) : [value];
    found.push({ column, values });
  }
  return found;
}
