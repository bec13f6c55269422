// One explicit generated column for an expression that several proposed MySQL indexes key on.
//
// Design note: MySQL 8 indexes a functional key part through a hidden virtual column per index and
// substitutes a query's expression by ONE matching generated column. With two functional indexes
// over the same expression on a table — `((MONTH(create_time)))` and
// `(category, (MONTH(create_time)), create_time)` — a query on MONTH(create_time) alone no longer
// lists the first as a possible key (measured on 8.0.33: ref on the index before the second one
// was added, a full scan after). An explicit VIRTUAL generated column shared by both indexes keeps
// both usable, and queries still write the expression (MySQL substitutes it by the column).
// MariaDB has no functional key parts (its advice already uses generated columns), so this is MySQL
// only. Expressions an existing index already keys on are left as they are, with a remark: fixing
// those means rebuilding that index, which the export never does on its own.

import { generatedColumnFor } from '../advice/generated-column.js';
import { uniqueName } from '../advice/index-ddl.js';
import type { Flavor } from '../flavors/capabilities.js';
import type { TableInfo } from '../model/schema.js';
import { canonicalExpression, type KeyPart } from './alter-clauses.js';
import type { Generated } from './alter-clauses.js';

/** The parts of the export plan's index this pass rewrites (plan.ts's PlannedIndex; kept structural, no cycle). */
interface PlanIndex {
  parts: KeyPart[];
  functional: boolean;
  newColumns: string[];
  itemIds: string[];
  remarks: string[];
}

/** plan.ts's PlannedColumn. */
interface PlanColumn {
  name: string;
  definition: string;
  generated: Generated | null;
  itemIds: string[];
}

/** plan.ts's TablePlan, as far as this pass reads and writes it. */
interface TablePlan {
  info: TableInfo | null;
  columns: PlanColumn[];
  indexes: PlanIndex[];
}

function expressionKey(part: KeyPart): string | null {
  return 'expression' in part ? canonicalExpression(part.expression) : null;
}

/**
 * On MySQL, give every expression that two or more planned indexes of the table key on one
 * VIRTUAL generated column, and key those indexes on the column instead.
 */
export function shareRepeatedExpressions(tablePlan: TablePlan, flavor: Flavor): void {
  const info = tablePlan.info;
  if (flavor !== 'mysql' || !info) return;
  const users = new Map<string, PlanIndex[]>();
  for (const index of tablePlan.indexes)
    for (const part of index.parts) {
      const key = expressionKey(part);
      if (key === null) continue;
      const list = users.get(key) ?? [];
      if (!list.includes(index)) list.push(index);
      users.set(key, list);
    }
  for (const [key, indexes] of users) {
    const existing = info.indexes.filter((index) =>
      index.parts.some((part) => part.expression && canonicalExpression(part.expression) === key),
    );
    if (indexes.length + existing.length < 2) continue;
    const expression = indexes[0]!.parts.find((part) => expressionKey(part) === key) as {
      expression: string;
    };
    if (existing.length > 0) {
      for (const index of indexes)
        index.remarks.push(
          `Existing index ${existing[0]!.name} already keys on ${expression.expression}: MySQL substitutes the expression by one hidden column, so only one of the two indexes can serve a query on it. Rebuild ${existing[0]!.name} on a shared generated column if both are needed.`,
        );
      continue;
    }
    const type = generatedColumnFor(expression.expression, info, flavor);
    if (!type.ok) {
      for (const index of indexes)
        index.remarks.push(
          `Other proposed indexes also key on ${expression.expression}; MySQL substitutes the expression by one hidden column, so only one of them can serve a query on it (no shared generated column: ${type.reason}).`,
        );
      continue;
    }
    const name = uniqueName(type.token, [
      ...info.columns.map((column) => column.name),
      ...tablePlan.columns.map((column) => column.name),
    ]);
    const column: PlanColumn = {
      name,
      definition: `${type.sql} GENERATED ALWAYS AS (${type.expression}) VIRTUAL`,
      generated: { expression: expression.expression, stored: false },
      itemIds: [...new Set(indexes.flatMap((index) => index.itemIds))],
    };
    tablePlan.columns.push(column);
    for (const index of indexes) {
      index.parts = index.parts.map((part) =>
        expressionKey(part) === key
          ? { column: name, prefixLength: null, descending: part.descending }
          : part,
      );
      index.functional = index.parts.some((part) => 'expression' in part);
      if (!index.newColumns.includes(name)) index.newColumns.push(name);
      index.remarks.push(
        `Keys on the generated column ${name} = ${expression.expression}, shared with ${indexes.length - 1} other index(es): MySQL substitutes an expression by one hidden column only, so separate functional key parts would leave all but one unused. Queries keep writing ${expression.expression}.`,
      );
    }
  }
}
