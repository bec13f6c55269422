// Findings belong to their statement: the plan view links only the findings of the statement it is the plan of.
import { describe, expect, it } from 'vitest';
import type { PlanNode, PlanReport } from '../../../src/core/explain/index.js';
import type { AnalysisReport } from '../../../src/core/model/report.js';
import { dispatch } from '../../../src/main/dispatch.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { demoExplainSql, demoExplainText, demoSchemaSql, demoTabs } from '../../../src/renderer/demo.js';
import { findingsForNode, itemsOfStatement } from '../../../src/renderer/plan-view.js';
import { reportItems } from '../../../src/renderer/report-items.js';

const handlers = createHandlers({
  connections: new ConnectionService(),
  app: { name: 'Sargable', version: 'test', mode: 'web' },
});

async function call<T>(method: 'analyze.run' | 'explain.parse', request: unknown): Promise<T> {
  const reply = await dispatch(handlers, method, request);
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value as T;
}

// The demo's first tab (the real analyzer on it) and the demo's pasted EXPLAIN of its MONTH() statement.
const text = demoTabs[0]!.text;
const report = await call<AnalysisReport>('analyze.run', {
  sql: text,
  schemaSql: demoSchemaSql,
  target: { flavor: 'mysql', version: '8.0.33' },
});
const plan = await call<PlanReport>('explain.parse', { text: demoExplainText, flavor: 'mysql' });
const items = reportItems(report);
const scan = (function find(node: PlanNode): PlanNode {
  if (node.table === 'products') return node;
  for (const child of node.children) {
    const found = find(child);
    if (found.table === 'products') return found;
  }
  return node;
})(plan.root);

describe('itemsOfStatement', () => {
  it('both statements on products have findings, but the plan gets only its own', () => {
    const onProducts = items.filter((item) => item.kind === 'finding' && item.finding.table === 'products');
    expect(new Set(onProducts.map((item) => item.kind === 'finding' && item.statementIndex)).size).toBe(2);
    const own = itemsOfStatement(items, report.statements, demoExplainSql);
    expect(own.length).toBeGreaterThan(0);
    const statement = report.statements.find((entry) => entry.sql.includes('MONTH('))!;
    for (const item of own) expect(item.kind === 'finding' && item.statementIndex).toBe(statement.index);
    const linked = findingsForNode(scan, own, demoExplainSql);
    expect(linked.map((item) => item.kind === 'finding' && item.finding.expression)).toEqual([
      expect.stringContaining('MONTH'),
    ]);
  });

  it('matches the statement however it was spaced or terminated; a statement not in the report gets none', () => {
    const spaced = 'select avg(price)\n  FROM products\tWHERE MONTH(create_time)=10 ;';
    expect(itemsOfStatement(items, report.statements, spaced)).toEqual(
      itemsOfStatement(items, report.statements, demoExplainSql),
    );
    expect(itemsOfStatement(items, report.statements, 'SELECT 1 FROM products')).toEqual([]);
    expect(itemsOfStatement(items, report.statements, null)).toEqual([]);
  });
});
