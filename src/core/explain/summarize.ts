// Plan summaries and before/after comparison (the what-if verdict), computed from the plan model alone.
//
// Design note: a summary describes the plan by its worst table access — the one a user should look at first:
// lowest access type on the scale below (a full scan beats everything), ties broken by more estimated rows.
// Internal tables (`<derived2>`, `<temporary>`, `<union1,2>`) count only when a plan has no base table.
// "Rows examined" is the sum of the estimated rows of every base table access; it is exact for one table and
// a lower bound for joins. The verdict (`planVerdict`, the one definition the UI, the CLI and the export
// show) reads both numbers the user sees next to it, the optimizer's estimated cost and the rows examined:
// a number "improved" when it drops by at least the threshold (default 50%, Dexter's savings threshold),
// "worse" when it rises by more than 10%. Improved when some number improved and none got worse; worse when
// some got worse and none improved; when they disagree the cost decides (it is what the optimizer chose the
// plan by); when neither moved enough, a worse access type is worse; with no numbers at all, the access
// type decides. A 14× lower cost with 17% fewer rows is therefore improved, never "unchanged".

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

/**
 * Result of `comparePlans`. `rowsReduction` is the fraction of rows examined saved (0.98 = 98% fewer),
 * `costReduction` the same for the estimated query cost; `reason` says which numbers decided, in words.
 */
export interface PlanComparison {
  before: PlanSummary;
  after: PlanSummary;
  verdict: PlanVerdict;
  rowsReduction: number | null;
  costReduction: number | null;
  reason: string;
}

/** Options for `comparePlans`. */
export interface CompareOptions {
  /** Minimum fraction a number must drop by to count as improved (default 0.5, like Dexter). */
  threshold?: number;
}

/** A rise above this fraction counts as worse (estimates wobble by a few percent between runs). */
const WORSE_TOLERANCE = 0.1;

function reduction(before: number | null, after: number | null): number | null {
  return before !== null && after !== null && before > 0
    ? Math.round(((before - after) / before) * 10000) / 10000
    : null;
}

/** `14× lower`, `−17%`, `+20%`: how a number moved, as the dialog prints it. */
export function describeChange(fraction: number, before: number, after: number): string {
  if (after > 0 && before / after >= 2) return `${formatFactor(before / after)}× lower`;
  if (before > 0 && after / before >= 2) return `${formatFactor(after / before)}× higher`;
  const percent = Math.round(Math.abs(fraction) * 100);
  return fraction >= 0 ? `−${percent}%` : `+${percent}%`;
}

function formatFactor(factor: number): string {
  return factor >= 10 ? String(Math.round(factor)) : factor.toFixed(1).replace(/\.0$/, '');
}

/** The verdict from the numbers shown beside it (see the design note at the top). */
export function planVerdict(
  before: PlanSummary,
  after: PlanSummary,
  options: CompareOptions = {},
): Omit<PlanComparison, 'before' | 'after'> {
  const threshold = options.threshold ?? 0.5;
  const rowsReduction = reduction(before.rowsExamined, after.rowsExamined);
  const costReduction = reduction(before.cost, after.cost);
  const measures = [
    { name: 'estimated cost', value: costReduction, from: before.cost, to: after.cost },
    { name: 'rows examined', value: rowsReduction, from: before.rowsExamined, to: after.rowsExamined },
  ].flatMap((measure) =>
    measure.value === null || measure.from === null || measure.to === null
      ? []
      : [
          {
            ...measure,
            value: measure.value,
            text: `${measure.name} ${describeChange(measure.value, measure.from, measure.to)}`,
          },
        ],
  );
  const improved = measures.filter((measure) => measure.value >= threshold);
  const worse = measures.filter((measure) => measure.value < -WORSE_TOLERANCE);
  const all = measures.map((measure) => measure.text).join(', ');
  const rankChange = accessRank(after.accessType) - accessRank(before.accessType);
  const access = `access ${before.accessType ?? '?'} → ${after.accessType ?? '?'}`;
  const result = (verdict: PlanVerdict, reason: string) => ({
    verdict,
    rowsReduction,
    costReduction,
    reason,
  });
  if (improved.length > 0 && worse.length === 0) return result('improved', all);
  if (worse.length > 0 && improved.length === 0) return result('worse', all);
  if (improved.length > 0 && worse.length > 0) {
    const cost = measures.find((measure) => measure.name === 'estimated cost');
    return result(
      cost && cost.value >= threshold ? 'improved' : 'worse',
      `${all} (the cost decides: the optimizer picks plans by it)`,
    );
  }
  if (rankChange < 0) return result('worse', [all, access].filter(Boolean).join(', '));
  if (measures.length === 0 && rankChange > 0) return result('improved', access);
  return result(
    'unchanged',
    measures.length > 0
      ? `${all}: below the ${Math.round(threshold * 100)}% needed to call it improved`
      : 'no estimated cost or rows to compare, same access type',
  );
}

/** Compare two plans (roots or summaries) and give a verdict on the change. */
export function comparePlans(
  before: PlanNode | PlanSummary,
  after: PlanNode | PlanSummary,
  options: CompareOptions = {},
): PlanComparison {
  const b = 'children' in before ? summarizePlan(before) : before;
  const a = 'children' in after ? summarizePlan(after) : after;
  return { before: b, after: a, ...planVerdict(b, a, options) };
}
