// Wrapped predicates the target's optimizer makes sargable by itself (MariaDB >= 11.1 / 11.3).
//
// Observed on MariaDB 11.4.5 (tests/integration/advisor.test.ts, "optimizer rewrites"): with an index
// on the bare column, `YEAR(d) = 2019`, `DATE(d) <= '…'` and `UPPER(ci_col) = 'X'` seek it unchanged,
// while BETWEEN, MONTH(), LOWER() and `_bin` columns still scan. MySQL 8.0 and MariaDB 10.11 scan all.

import type { ColumnInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import type { PredicateSite } from '../sql/predicates.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import { isConstant } from './literals.js';
import { functionArgs } from '../sql/ast.js';

const COMPARISONS = new Set(['=', '<', '<=', '>', '>=']);
const DATE_TYPES = new Set(['date', 'datetime', 'timestamp']);

/**
 * When the target's optimizer rewrites this wrapped predicate into a seek on the bare column, the
 * reason (with the MDEV); otherwise null. `column` is the wrapped column's schema info.
 */
export function optimizerMakesSargable(
  server: ServerInfo,
  site: PredicateSite,
  wrapped: WrappedOperand,
  column: ColumnInfo | null,
): string | null {
  if (wrapped.kind !== 'function' || !column || !site.operator) return null;
  if (wrapped.node !== site.left && wrapped.node !== site.right) return null;
  const other = wrapped.node === site.left ? site.right : site.left;
  if (!other || !isConstant(other)) return null;
  if (functionArgs(wrapped.node).length !== 1) return null;
  const caps = server.capabilities;
  if (
    caps.sargableDateFunctions &&
    (wrapped.name === 'YEAR' || wrapped.name === 'DATE') &&
    COMPARISONS.has(site.operator) &&
    DATE_TYPES.has(column.dataType)
  )
    return `MariaDB >= 11.1 turns ${wrapped.name}(${column.name}) compared with a constant into a range on ${column.name} itself (MDEV-8320)`;
  if (
    caps.sargableCaseFold &&
    (wrapped.name === 'UPPER' || wrapped.name === 'UCASE') &&
    site.operator === '=' &&
    /_ci$/i.test(column.collation ?? '')
  )
    return `MariaDB >= 11.3 turns ${wrapped.name}(${column.name}) = constant on a case-insensitive column into ${column.name} = constant itself (MDEV-31496, optimizer_switch sargable_casefold)`;
  return null;
}
