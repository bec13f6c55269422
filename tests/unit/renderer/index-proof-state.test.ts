// The Index set proof's reducer and candidates (src/renderer/state/index-proof.ts), and the hygiene drop report.
import { describe, expect, it } from 'vitest';
import { designWorkloadIndexes, workloadFromText } from '../../../src/core/indexing/index.js';
import { offlineSchema } from '../../../src/main/services/analysis.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { fromAnalysis, emptyWorkspace } from '../../../src/core/workspace/model.js';
import {
  indexProofReducer,
  initialIndexProof,
  proofCandidates,
} from '../../../src/renderer/state/index-proof.js';
import { dropReport, indexKey } from '../../../src/renderer/state/index-set.js';

const schemaSql = `CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, status VARCHAR(10) NOT NULL,
  created_at DATETIME NOT NULL, total DECIMAL(10,2) NOT NULL, KEY a (created_at), KEY b (created_at));`;
const workload = `SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10;
SELECT id FROM orders WHERE customer_id = 7;`;

function plan() {
  const server = offlineServerInfo('mysql', '8.0.33');
  return designWorkloadIndexes(
    workloadFromText(workload),
    offlineSchema(schemaSql, 'mysql', '8.0.33'),
    server,
  );
}

describe('index proof state', () => {
  it('candidates: each index with the statements it serves, keyed like the view', () => {
    const designed = plan();
    const candidates = proofCandidates(designed);
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({
      key: indexKey(designed.indexes[0]!),
      table: 'orders',
      statements: [
        { index: 0, sql: expect.stringContaining('customer_id = 42') },
        { index: 1, sql: expect.stringContaining('customer_id = 7') },
      ],
    });
  });
  it('confirm → started → progress → done keeps the verdicts by key; close never hides a running proof', () => {
    let state = indexProofReducer(initialIndexProof, { type: 'proof/confirm' });
    expect(state.step).toBe('confirm');
    state = indexProofReducer(state, { type: 'proof/started', jobId: 'j', total: 2 });
    expect(indexProofReducer(state, { type: 'proof/close' }).step).toBe('running');
    state = indexProofReducer(state, { type: 'proof/progress', done: 1, total: 2 });
    expect(state).toMatchObject({ done: 1, total: 2 });
    const proof = {
      key: 'k',
      table: 'orders',
      name: 'i',
      status: 'rejected' as const,
      chosenBy: [],
      statements: [],
      reason: 'no',
      method: 'invisible-index' as const,
    };
    state = indexProofReducer(state, {
      type: 'proof/done',
      result: { proofs: [proof], method: 'invisible-index' },
    });
    expect(state).toMatchObject({ step: 'done', jobId: null, proofs: { k: proof } });
    const cancelled = indexProofReducer(
      indexProofReducer(state, { type: 'proof/started', jobId: 'j2', total: 1 }),
      { type: 'proof/failed', cancelled: true, error: { code: 'CANCELLED', message: 'x' } },
    );
    expect(cancelled).toMatchObject({ step: 'failed', cancelled: true, jobId: null });
    expect(indexProofReducer(cancelled, { type: 'proof/reset' })).toEqual(initialIndexProof);
  });
  it('the set proof: confirm asks for the set, done keeps the per-statement plans', () => {
    let state = indexProofReducer(initialIndexProof, { type: 'proof/confirm', mode: 'set' });
    expect(state).toMatchObject({ step: 'confirm', mode: 'set' });
    state = indexProofReducer(state, { type: 'proof/started', jobId: 'j', total: 9 });
    const statement = {
      statement: 0,
      before: { cost: 10, rows: 100, keys: [] },
      after: { cost: 1, rows: 1, keys: ['i'] },
      uses: ['k'],
    };
    state = indexProofReducer(state, {
      type: 'proof/done',
      result: { proofs: [], method: 'sandbox', mode: 'set', statements: [statement] },
    });
    expect(state).toMatchObject({ step: 'done', mode: 'set', statements: [statement] });
    // The one-by-one proof again: no set statements left over.
    state = indexProofReducer(indexProofReducer(state, { type: 'proof/confirm' }), {
      type: 'proof/done',
      result: { proofs: [], method: 'sandbox', mode: 'each' },
    });
    expect(state).toMatchObject({ mode: 'each', statements: [] });
  });
});

describe('hygiene drop report', () => {
  it('one drop-index item per index (never alternatives of one another), the final DROP as its DDL', () => {
    const session = { kind: 'offline', flavor: 'mysql', version: '8.0.33' } as never;
    const workspace = emptyWorkspace({ id: 't' }, 'now');
    for (const index of ['a', 'b'])
      fromAnalysis(
        workspace,
        dropReport(
          {
            table: 'orders',
            index,
            ddl: [
              `ALTER TABLE orders ALTER INDEX ${index} INVISIBLE;`,
              `ALTER TABLE orders DROP INDEX ${index};`,
            ],
            notes: ['dup'],
            why: 'duplicate',
          },
          session,
        ),
        'now',
        'drop-index',
      );
    expect(workspace.items.map((item) => [item.status, item.suggestion.kind, item.suggestion.ddl])).toEqual([
      ['accepted', 'drop-index', ['ALTER TABLE orders DROP INDEX a;']],
      ['accepted', 'drop-index', ['ALTER TABLE orders DROP INDEX b;']],
    ]);
  });
});
