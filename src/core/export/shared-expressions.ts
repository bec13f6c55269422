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

import { generatedColumnType } from '../advice/generated-type.js';
import { MAX_KEY_BYTES, uniqueName, wrapperToken } from '../advice/index-ddl.js';
import type { Flavor } from '../flavors/capabilities.js';
import { findColumn, type TableInfo } from '../model/schema.js';
import { columnRefs, isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { classifyWrapping } from '../sql/wrapping.js';
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

/** Bytes per character of a character set, for the key-length check of a generated string column. */
const BYTES_PER_CHAR: Readonly<Record<string, number>> = {
  latin1: 1,
  ascii: 1,
  utf8: 3,
  utf8mb3: 3,
  ucs2: 2,
};

/** The generated column's type for `expression` on `info`, or a reason it cannot be derived. */
function columnTypeFor(
  expression: string,
  info: TableInfo,
  flavor: Flavor,
): { ok: true; sql: string; token: string } | { ok: false; reason: string } {
  const parsed = parseStatement(`SELECT ${expression} FROM t`, flavor);
  const expr = parsed.ok ? (parsed.ast.columns as { expr?: unknown }[] | undefined)?.[0]?.expr : undefined;
  const wrapped = isNode(expr) ? classifyWrapping(expr) : undefined;
  if (!wrapped) return { ok: false, reason: 'the expression is not one the advisor classifies' };
  const refs = [...new Set(columnRefs(wrapped.node).map((ref) => ref.column.toLowerCase()))];
  const column = refs.length === 1 ? findColumn(info, refs[0]!) : undefined;
  if (!column) return { ok: false, reason: 'the expression does not read exactly one known column' };
  const type = generatedColumnType(wrapped, column, info);
  if (!type.ok) return type;
  const string = /^VARCHAR\((\d+)\) CHARACTER SET (\w+)/i.exec(type.sql);
  if (string && Number(string[1]) * (BYTES_PER_CHAR[string[2]!.toLowerCase()] ?? 4) > MAX_KEY_BYTES)
    return { ok: false, reason: 'the string result is longer than an index key can hold' };
  return { ok: true, sql: type.sql, token: `${column.name}_${wrapperToken(wrapped)}` };
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
    const type = columnTypeFor(expression.expression, info, flavor);
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
      definition: `${type.sql} GENERATED ALWAYS AS (${expression.expression}) VIRTUAL`,
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
