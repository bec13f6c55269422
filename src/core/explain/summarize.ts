// Plan summaries and before/after comparison (the what-if verdict), computed from the plan model alone.
//
// Design note: a summary describes the plan by its worst table access — the one a user should look at first:
// lowest access type on the scale below (a full scan beats everything), ties broken by more estimated rows.
// Internal tables (`<derived2>`, `<temporary>`, `<union1,2>`) count only when a plan has no base table.
// "Rows examined" is the sum of the estimated rows of every base table access; it is exact for one table and
// a lower bound for joins, which is what a Dexter-style savings threshold needs: a verdict is `improved` when
// rows examined drop by at least the threshold (default 50%), `worse` when they grow or, with rows equal or
// unknown, when the worst access type gets worse; otherwise `unchanged`.

import { sortFlags, tableNodes, walkPlan, type Flag, type PlanNode } from './plan.js';

/** Access types from worst to best. Unknown types sit between `index` and `range`. */
const accessOrder = [
  'ALL',
  'index',
  'range',
  'index_merge',
  'fulltext',
  'ref_or_null',
  'index_subquery',
  'ref',
  'unique_subquery',
  'eq_ref',
  'const',
  'system',
];

/** Rank of an access type: 0 is the worst (ALL). */
export function accessRank(accessType: string | null): number {
  if (accessType === null) return 1.5;
  const index = accessOrder.indexOf(accessType);
  return index < 0 ? 1.5 : index;
}

/** The numbers a what-if comparison shows side by side. */
export interface PlanSummary {
  accessType: string | null;
  key: string | null;
  rowsEstimated: number | null;
  cost: number | null;
  /** Base-table nodes flagged full-scan. */
  fullScans: number;
  /** Every flag anywhere in the plan. */
  flags: Flag[];
  /** Sum of estimated rows over base-table accesses; null when no access has an estimate. */
  rowsExamined: number | null;
}

function isBaseTable(node: PlanNode): boolean {
  return node.table !== null && !node.table.startsWith('<');
}

/** The worst (driving) table access of a plan, or null for plans without tables. */
export function worstTable(root: PlanNode): PlanNode | null {
  const tables = tableNodes(root);
  const base = tables.filter(isBaseTable);
  const candidates = base.length > 0 ? base : tables;
  let worst: PlanNode | null = null;
  for (const node of candidates) {
    if (worst === null) {
      worst = node;
      continue;
    }
    const rank = accessRank(node.accessType) - accessRank(worst.accessType);
    if (rank < 0 || (rank === 0 && (node.rowsEstimated ?? 0) > (worst.rowsEstimated ?? 0))) worst = node;
  }
  return worst;
}

/** Summarize a plan by its worst table access, the query cost, full scans and all flags. */
export function summarizePlan(root: PlanNode): PlanSummary {
  const worst = worstTable(root);
  const nodes = walkPlan(root);
  const base = nodes.filter(isBaseTable);
  const estimates = base.map((node) => node.rowsEstimated).filter((rows): rows is number => rows !== null);
  // The root's cost is the whole query's (query_cost, or the top iterator); otherwise the largest known cost.
  const costs = nodes.map((node) => node.cost).filter((cost): cost is number => cost !== null);
  return {
    accessType: worst?.accessType ?? null,
    key: worst?.key ?? null,
    rowsEstimated: worst?.rowsEstimated ?? null,
    cost: root.cost ?? (costs.length > 0 ? Math.max(...costs) : null),
    fullScans: base.filter((node) => node.flags.includes('full-scan')).length,
    flags: sortFlags(nodes.flatMap((node) => node.flags)),
    rowsExamined: estimates.length > 0 ? estimates.reduce((sum, rows) => sum + rows, 0) : null,
  };
}

/** Verdict of a before/after comparison. */
export type PlanVerdict = 'improved' | 'unchanged' | 'worse';

/** Result of `comparePlans`. `rowsReduction` is the fraction of rows examined saved (0.98 = 98% fewer). */
export interface PlanComparison {
  before: PlanSummary;
  after: PlanSummary;
  verdict: PlanVerdict;
  rowsReduction: number | null;
}

/** Options for `comparePlans`. */
export interface CompareOptions {
  /** Minimum fraction of rows examined that must be saved to call it improved (default 0.5, like Dexter). */
  threshold?: number;
}

/** Compare two plans (roots or summaries) and give a verdict on the change. */
export function comparePlans(
  before: PlanNode | PlanSummary,
  after: PlanNode | PlanSummary,
  options: CompareOptions = {},
): PlanComparison {
  const threshold = options.threshold ?? 0.5;
  const b = 'children' in before ? summarizePlan(before) : before;
  const a = 'children' in after ? summarizePlan(after) : after;
  const rowsReduction =
    b.rowsExamined !== null && a.rowsExamined !== null && b.rowsExamined > 0
      ? Math.round(((b.rowsExamined - a.rowsExamined) / b.rowsExamined) * 10000) / 10000
      : null;
  const rankChange = accessRank(a.accessType) - accessRank(b.accessType);
  let verdict: PlanVerdict;
  if (rowsReduction !== null && rowsReduction < 0) verdict = 'worse';
  else if (rowsReduction !== null && rowsReduction >= threshold) verdict = 'improved';
  else if (rankChange < 0) verdict = 'worse';
  else if (rowsReduction === null && rankChange > 0) verdict = 'improved';
  else verdict = 'unchanged';
  return { before: b, after: a, verdict, rowsReduction };
}
