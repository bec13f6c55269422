// Visual-Explain detail of one plan node: access type by cost class, key parts used, rows passed on, prefix cost, estimate misses.
/*
 * Design note: what MySQL Workbench's Visual Explain and a DBA read off each table of a plan, from
 * the fields the plan parsers already keep (core/explain: the typed PlanNode, plus `extra` for
 * the server's fields the model has no place for: `used_key_parts`, `cost_info.prefix_cost`).
 *  - Access type → cost class: Workbench's scale (system/const very low … ALL very high).
 *  - key_len → the key parts used: MySQL and MariaDB name them in FORMAT=JSON (`used_key_parts`).
 *  - rows × filtered = rows passed on to the next table, per scan of this one.
 *  - Prefix cost: MySQL's cost of the join up to and including this table (FORMAT=JSON only).
 *  - With ANALYZE: estimated vs actual rows per loop; a miss of 10× or more either way means the
 *    optimizer planned with wrong numbers (stale statistics, or no histogram for a filtered column),
 *    and ANALYZE TABLE (MySQL 8.0: UPDATE HISTOGRAM; MariaDB: PERSISTENT FOR) is the advice.
 * Pure functions, unit- and integration-tested on both servers' real output.
 */
import type { Flavor } from '../core/flavors/capabilities.js';
import type { PlanNode } from '../core/explain/index.js';

export type CostClass = 'very-low' | 'low' | 'medium' | 'high' | 'very-high' | 'unknown';

/** Cost class per access type (MySQL Workbench's Visual Explain scale) and what it means. */
const accessCosts: Record<string, { cost: CostClass; meaning: string }> = {
  system: { cost: 'very-low', meaning: 'the table has one row' },
  const: { cost: 'very-low', meaning: 'at most one matching row, read once' },
  eq_ref: { cost: 'low', meaning: 'one row per row of the previous tables (unique key)' },
  ref: { cost: 'low', meaning: 'the rows matching a key value (non-unique key)' },
  ref_or_null: { cost: 'low', meaning: 'like ref, plus the NULL rows' },
  fulltext: { cost: 'low', meaning: 'FULLTEXT index' },
  unique_subquery: { cost: 'medium', meaning: 'unique index lookup per subquery row' },
  index_subquery: { cost: 'medium', meaning: 'index lookup per subquery row' },
  range: { cost: 'medium', meaning: 'a range of one index' },
  index_merge: { cost: 'medium', meaning: 'several indexes merged' },
  index: { cost: 'high', meaning: 'the whole index is read' },
  ALL: { cost: 'very-high', meaning: 'the whole table is read' },
};

/** The node's access type cost class, and a sentence for its tooltip. */
export function accessCost(accessType: string | null): { cost: CostClass; title: string } {
  if (!accessType) return { cost: 'unknown', title: 'Access type' };
  const known = accessCosts[accessType];
  if (!known) return { cost: 'unknown', title: `Access type ${accessType}` };
  return {
    cost: known.cost,
    title: `Access type ${accessType}: ${known.meaning} (${known.cost.replace('-', ' ')} cost)`,
  };
}

/** The key parts (columns) the index access uses, as the server names them; null when not given. */
export function usedKeyParts(node: PlanNode): string[] | null {
  const parts = node.extra.used_key_parts;
  return Array.isArray(parts) && parts.every((part) => typeof part === 'string') ? parts : null;
}

/** Rows passed on to the next table per scan: rows examined × filtered %. Null when either is unknown. */
export function rowsPassedOn(node: PlanNode): number | null {
  if (node.rowsEstimated === null || node.filtered === null) return null;
  return Math.round(node.rowsEstimated * node.filtered) / 100;
}

/** MySQL's prefix cost (the join up to and including this table, FORMAT=JSON); null elsewhere. */
export function prefixCost(node: PlanNode): number | null {
  const info = node.extra.cost_info;
  if (typeof info !== 'object' || info === null) return null;
  const value = Number((info as Record<string, unknown>).prefix_cost);
  return Number.isFinite(value) ? value : null;
}

/** How far off an estimate must be (either way) to warn. */
export const ESTIMATE_MISS_FACTOR = 10;

/** An estimate the optimizer got wrong by ESTIMATE_MISS_FACTOR or more, with the advice. */
export interface EstimateMiss {
  estimated: number;
  actual: number;
  /** ≥ 10: actual / estimated, or estimated / actual when the optimizer expected more. */
  factor: number;
  direction: 'more' | 'fewer';
  /** The table whose statistics planned this node (the node's own, or the one it filters). */
  table: string;
  /** The statements that refresh the numbers the optimizer used. */
  advice: string[];
  message: string;
}

/** The table a node reads, or for a filter/join node the one table below it (null if several or none). */
function tableOf(node: PlanNode): string | null {
  if (node.table) return node.table;
  const tables = new Set<string>();
  const visit = (child: PlanNode) => {
    if (child.table) tables.add(child.table);
    else child.children.forEach(visit);
  };
  node.children.forEach(visit);
  return tables.size === 1 ? [...tables][0]! : null;
}

function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/**
 * Estimated vs actual rows per loop (EXPLAIN ANALYZE / ANALYZE FORMAT=JSON) when they differ by
 * 10× or more; null without ANALYZE numbers or when the estimate was close. Counts below one row
 * count as one, so "0.5 expected, 0 found" is no miss.
 */
export function estimateMiss(node: PlanNode, flavor: Flavor): EstimateMiss | null {
  if (node.rowsEstimated === null || node.rowsActual === null) return null;
  const estimated = node.rowsEstimated;
  const actual = node.rowsActual;
  const high = Math.max(estimated, actual, 1);
  const low = Math.max(Math.min(estimated, actual), 1);
  const factor = high / low;
  if (factor < ESTIMATE_MISS_FACTOR) return null;
  // A join or aggregate over several tables inherits its inputs' misses: those nodes carry the warning.
  const table = tableOf(node);
  if (table === null) return null;
  const advice = [`ANALYZE TABLE ${quoteName(table)};`];
  if (node.condition && !node.key) {
    // A filtered column the optimizer guessed: only a histogram gives it the distribution.
    advice.push(
      flavor === 'mariadb'
        ? `ANALYZE TABLE ${quoteName(table)} PERSISTENT FOR ALL;`
        : `ANALYZE TABLE ${quoteName(table)} UPDATE HISTOGRAM ON <filtered columns>;`,
    );
  }
  const direction = actual > estimated ? 'more' : 'fewer';
  const format = (value: number) =>
    value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 0 });
  return {
    estimated,
    actual,
    factor,
    direction,
    table,
    advice,
    message:
      `The optimizer expected ${format(estimated)} rows per loop and got ${format(actual)} ` +
      `(${Math.round(factor)}× ${direction}): it planned with wrong numbers, usually stale statistics` +
      (node.condition && !node.key ? ' or a filtered column without a histogram' : '') +
      `. Refresh them with ${advice.map((line) => line.replace(/;$/, '')).join(', then ')}, and EXPLAIN again.`,
  };
}
