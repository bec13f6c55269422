// The what-if verdict agrees with the numbers printed beside it: cost and rows examined, then the access type.
import { describe, expect, it } from 'vitest';
import { comparePlans, planVerdict, type PlanSummary } from '../../../src/core/explain/index.js';

function summary(accessType: string | null, rows: number | null, cost: number | null): PlanSummary {
  return {
    accessType,
    key: accessType === 'ALL' ? null : 'idx',
    rowsEstimated: rows,
    cost,
    fullScans: accessType === 'ALL' ? 1 : 0,
    flags: [],
    rowsExamined: rows,
  };
}

describe('planVerdict', () => {
  it('the reported case: cost 14× lower with 17% fewer rows is improved, and the reason says both', () => {
    const verdict = planVerdict(summary('ALL', 1200, 1400), summary('range', 996, 100));
    expect(verdict).toMatchObject({ verdict: 'improved', rowsReduction: 0.17, costReduction: 0.9286 });
    expect(verdict.reason).toBe('estimated cost 14× lower, rows examined −17%');
  });

  it('rows alone decide when the cost is unknown (MariaDB plans have none)', () => {
    expect(planVerdict(summary('ALL', 24000, null), summary('ref', 1000, null))).toMatchObject({
      verdict: 'improved',
      reason: 'rows examined 24× lower',
    });
    expect(planVerdict(summary('ALL', 1000, null), summary('ALL', 700, null)).verdict).toBe('unchanged');
  });

  it('worse when a number rises by more than 10% and none improved; small wobbles are unchanged', () => {
    expect(planVerdict(summary('ref', 100, 50), summary('ref', 100, 60)).verdict).toBe('worse');
    expect(planVerdict(summary('ref', 100, 50), summary('ref', 105, 53)).verdict).toBe('unchanged');
    expect(planVerdict(summary('ref', 100, 50), summary('ref', 105, 53)).reason).toBe(
      'estimated cost +6%, rows examined +5%: below the 50% needed to call it improved',
    );
  });

  it('when the numbers disagree the cost decides, and the reason says so', () => {
    const cheaper = planVerdict(summary('ALL', 1000, 1000), summary('ref', 1500, 100));
    expect(cheaper.verdict).toBe('improved');
    expect(cheaper.reason).toContain('the cost decides');
    expect(planVerdict(summary('ref', 1000, 100), summary('ref', 100, 1000)).verdict).toBe('worse');
  });

  it('without numbers the access type decides; with numbers that did not move, a worse access is worse', () => {
    expect(planVerdict(summary('ALL', null, null), summary('ref', null, null))).toMatchObject({
      verdict: 'improved',
      reason: 'access ALL → ref',
    });
    expect(planVerdict(summary('ref', 100, 10), summary('ALL', 100, 10)).verdict).toBe('worse');
    expect(planVerdict(summary('ref', null, null), summary('ref', null, null)).verdict).toBe('unchanged');
  });

  it('comparePlans carries the same verdict and both reductions', () => {
    const before = summary('ALL', 1200, 1400);
    const after = summary('range', 996, 100);
    expect(comparePlans(before, after)).toEqual({ before, after, ...planVerdict(before, after) });
    expect(planVerdict(before, after, { threshold: 0.95 }).verdict).toBe('unchanged');
  });
});
