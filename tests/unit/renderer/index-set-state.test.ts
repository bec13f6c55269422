// The Index set view's reducer and helpers (src/renderer/state/index-set.ts), and the offline indexes.design handler.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  designWorkloadIndexes,
  workloadFromText,
  type WorkloadPlan,
} from '../../../src/core/indexing/index.js';
import { offlineSchema } from '../../../src/main/services/analysis.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import {
  benefitBars,
  indexKey,
  indexReport,
  indexSetReducer,
  initialIndexSet,
} from '../../../src/renderer/state/index-set.js';
import { testHandlers } from '../../support/handlers.js';

const schemaSql = `CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, status VARCHAR(10) NOT NULL,
  created_at DATETIME NOT NULL, total DECIMAL(10,2) NOT NULL);
CREATE TABLE items (id INT PRIMARY KEY, order_id INT NOT NULL, sku VARCHAR(20) NOT NULL);`;
const workload = `-- weight: 10
SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10;
-- weight: 3
SELECT id FROM orders WHERE customer_id = 7;
SELECT order_id FROM items WHERE sku = 'x';`;

function plan(): WorkloadPlan {
  const server = offlineServerInfo('mysql', '8.0.33');
  return designWorkloadIndexes(workloadFromText(workload), offlineSchema(schemaSql, 'mysql'), server);
}

describe('index set state', () => {
  it('keeps decisions of indexes a new design proposes again, and drops the others', () => {
    const designed = plan();
    expect(designed.indexes.map((index) => index.table).sort()).toEqual(['items', 'orders']);
    const [a, b] = designed.indexes;
    let state = indexSetReducer(initialIndexSet, { type: 'design/started' });
    expect(state.status).toBe('running');
    state = indexSetReducer(state, { type: 'design/done', plan: designed });
    state = indexSetReducer(state, {
      type: 'index/decided',
      key: indexKey(a!),
      decision: { kind: 'accepted', itemId: 'i1' },
    });
    state = indexSetReducer(state, {
      type: 'index/decided',
      key: indexKey(b!),
      decision: { kind: 'rejected' },
    });
    expect(Object.keys(state.decisions)).toHaveLength(2);
    // The next design proposes only the first index again: its decision stays, the other's goes.
    const again: WorkloadPlan = { ...designed, indexes: [a!] };
    state = indexSetReducer(state, { type: 'design/done', plan: again });
    expect(state.decisions).toEqual({ [indexKey(a!)]: { kind: 'accepted', itemId: 'i1' } });
    state = indexSetReducer(state, { type: 'index/undecided', key: indexKey(a!) });
    expect(state.decisions).toEqual({});
    state = indexSetReducer(state, { type: 'design/failed', error: { code: 'X', message: 'm' } });
    expect(state.status).toBe('failed');
    expect(state.plan).toBe(again);
  });

  it('keys an index by table and key parts, not by its name', () => {
    const parts = [
      { column: 'A', role: 'equality' as const },
      { expression: 'MONTH(`d`)', role: 'range' as const },
    ];
    expect(indexKey({ table: 'T', parts })).toBe('t:a,(month(d))');
    expect(indexKey({ table: 't', parts: [parts[0]!] })).not.toBe(indexKey({ table: 't', parts }));
  });

  it('bars are relative to the largest benefit and weight', () => {
    const designed = plan();
    const bars = benefitBars(designed);
    expect(Math.max(...bars.indexes)).toBe(1);
    expect(bars.queries).toEqual([1, 0.3, 0.1]);
  });

  it('carries an index into the workspace as its heaviest statement with one IDX001 index suggestion', () => {
    const designed = plan();
    const orders = designed.indexes.find((index) => index.table === 'orders')!;
    expect(orders.serves).toEqual([0, 1]);
    const report = indexReport(designed, orders, {
      kind: 'offline',
      flavor: 'mysql',
      version: '8.0.33',
      schemaSql,
    });
    expect(report.statements).toHaveLength(1);
    expect(report.statements[0]!.sql).toContain("status = 'paid'");
    const finding = report.statements[0]!.findings[0]!;
    expect(finding.rule).toBe('IDX001');
    expect(finding.suggestions).toEqual([
      expect.objectContaining({ kind: 'index', ddl: orders.ddl, indexName: orders.name }),
    ]);
  });
});

describe('indexes.design (offline)', () => {
  const { connections, userDataDir, call } = testHandlers('sargable-index-set');
  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('designs the editor text against the pasted schema, and says what to do without one', async () => {
    const reply = await call('indexes.design', {
      sql: workload,
      schemaSql,
      target: { flavor: 'mysql', version: '8.0.33' },
    });
    if (!reply.ok) throw new Error(reply.error.message);
    expect((reply.value as { plan: WorkloadPlan }).plan).toEqual(plan());
    const missing = await call('indexes.design', {
      sql: workload,
      target: { flavor: 'mysql', version: '8.0.33' },
    });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.hint).toMatch(/CREATE TABLE/);
  });
});
