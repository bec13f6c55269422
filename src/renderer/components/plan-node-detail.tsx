// The Visual-Explain detail line of a plan node (key parts, ref, rows passed on, prefix cost) and its estimate-miss warning.
import type { PlanNode } from '../../core/explain/index.js';
import type { Flavor } from '../../core/flavors/capabilities.js';
import { estimateMiss, prefixCost, rowsPassedOn, usedKeyParts } from '../plan-detail.js';
import { formatCount } from '../plan-view.js';

export function PlanNodeDetail({ node, flavor }: { node: PlanNode; flavor: Flavor }) {
  const parts = usedKeyParts(node);
  const passed = rowsPassedOn(node);
  const prefix = prefixCost(node);
  const miss = estimateMiss(node, flavor);
  const facts: { label: string; value: string; title: string; testId: string }[] = [];
  if (node.key && (node.keyLength !== null || parts)) {
    facts.push({
      label: 'key_len',
      value: `${node.keyLength ?? '?'}${parts ? ` (${parts.join(', ')})` : ''}`,
      title: `Bytes of the key ${node.key} used${parts ? `: the key parts ${parts.join(', ')}` : ''}`,
      testId: 'plan-node-keylen',
    });
  }
  if (node.ref) {
    facts.push({
      label: 'ref',
      value: node.ref,
      title: 'What the key is compared with (const: a constant; a column: the previous table)',
      testId: 'plan-node-ref',
    });
  }
  if (passed !== null && node.rowsEstimated !== null && node.filtered !== null) {
    facts.push({
      label: 'rows × filtered',
      value: `${formatCount(node.rowsEstimated)} × ${formatCount(node.filtered)}% = ${formatCount(passed)}`,
      title: 'Rows examined per scan × the share expected to pass the condition = rows passed on per scan',
      testId: 'plan-node-passed',
    });
  }
  if (prefix !== null) {
    facts.push({
      label: 'prefix cost',
      value: formatCount(prefix),
      title: 'Cost of the join up to and including this table (MySQL optimizer units)',
      testId: 'plan-node-prefix-cost',
    });
  }
  if (facts.length === 0 && !miss) return null;
  return (
    <>
      {facts.length > 0 && (
        <div className="plan-node__detail" data-testid="plan-node-detail">
          {facts.map((fact) => (
            <span key={fact.label} title={fact.title} data-testid={fact.testId}>
              <span className="plan-node__detail-label">{fact.label}</span> {fact.value}
            </span>
          ))}
        </div>
      )}
      {miss && (
        <div
          className="plan-node__miss"
          role="note"
          data-testid="plan-node-miss"
          data-factor={Math.round(miss.factor)}
        >
          <strong>
            Estimate {Math.round(miss.factor)}× {miss.direction === 'more' ? 'too low' : 'too high'}:
          </strong>{' '}
          {miss.message}
          {miss.advice.length > 0 && (
            <code className="plan-node__advice" data-testid="plan-node-advice">
              {miss.advice.join('\n')}
            </code>
          )}
        </div>
      )}
    </>
  );
}
