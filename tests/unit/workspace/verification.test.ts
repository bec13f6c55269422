// What-if verification records: built from the plans, kept on a pending item until accepted, printed by the export.
import { describe, expect, it } from 'vitest';
import { exportWorkspace } from '../../../src/core/export/index.js';
import { parseTraditionalRows, type PlanNode } from '../../../src/core/explain/index.js';
import type { Suggestion } from '../../../src/core/model/report.js';
import {
  addItem,
  emptyWorkspace,
  keepVerification,
  parseWorkspace,
  serializeWorkspace,
  sourceQuery,
  verificationOf,
  verificationRecord,
} from '../../../src/core/workspace/model.js';

const NOW = '2026-01-02T03:04:05.000Z';

function plan(rows: Record<string, unknown>[]): PlanNode {
  const parsed = parseTraditionalRows(rows, 'mysql');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.report.root;
}

const before = plan([
  { id: 1, select_type: 'SIMPLE', table: 'orders', type: 'ALL', key: null, rows: 6000, Extra: 'Using where' },
]);
const after = plan([
  { id: 1, select_type: 'SIMPLE', table: 'orders', type: 'ref', key: 'idx_day', rows: 12, Extra: null },
]);
const suggestion: Suggestion = {
  kind: 'functional-index',
  equivalent: true,
  ddl: ['ALTER TABLE orders ADD INDEX idx_day ((DATE(created_at)))'],
  indexName: 'idx_day',
  notes: [],
};
const sql = "SELECT id FROM orders WHERE DATE(created_at) = '2024-05-01'";

describe('verification records', () => {
  it('keeps the table accesses before and after, the verdict, and whether a created index is used', () => {
    const input = {
      before,
      after,
      method: 'invisible-index' as const,
      verdict: 'improved' as const,
      rowsReduction: 0.998,
      server: 'MySQL 8.0.33',
    };
    expect(verificationRecord({ ...input, createdIndexes: ['IDX_DAY'] }, NOW)).toEqual({
      verifiedAt: NOW,
      server: 'MySQL 8.0.33',
      method: 'invisible-index',
      verdict: 'improved',
      rowsReduction: 0.998,
      before: [{ table: 'orders', type: 'ALL', key: null, rows: 6000, extra: 'full-scan, using-where' }],
      after: [{ table: 'orders', type: 'ref', key: 'idx_day', rows: 12 }],
      usesIndex: true,
    });
    // An index the run did not create does not count as used.
    expect(verificationRecord({ ...input, createdIndexes: ['idx_other'] }, NOW).usesIndex).toBe(false);
  });

  it('a verified suggestion is kept as pending, accepted later with its record, and survives a save', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const record = verificationRecord(
      {
        before,
        after,
        method: 'sandbox',
        verdict: 'improved',
        rowsReduction: 0.998,
        createdIndexes: ['idx_day'],
      },
      NOW,
    );
    const kept = keepVerification(workspace, 'orders', suggestion, [sourceQuery(sql, 'analysis')], record);
    expect(kept).toMatchObject({ status: 'pending', verification: record });
    const accepted = addItem(workspace, 'orders', suggestion, [sourceQuery(sql, 'pasted')], NOW);
    expect(accepted).toBe(kept);
    expect(accepted.status).toBe('accepted');
    const reread = parseWorkspace(serializeWorkspace(workspace, NOW));
    expect(reread.ok && reread.workspace.items[0]?.verification).toEqual(record);
    // The CLI attaches the same record to the suggestion: addItem picks it up from there too.
    const other = emptyWorkspace({ id: 'q' }, NOW);
    expect(addItem(other, 'orders', { ...suggestion, verification: record }, [], NOW).verification).toEqual(
      record,
    );
    expect(verificationOf({ error: 'Access denied' })).toBeUndefined();

    const script = exportWorkspace(workspace, {
      flavor: 'mysql',
      version: '8.0.33',
      schema: null,
      generatedAt: NOW,
      sargableVersion: 'test',
    }).script.text;
    expect(script).toContain('--   EXPLAIN before: orders type=ALL key=NULL rows=6000');
    expect(script).toContain(`--   EXPLAIN after:  orders type=ref key=idx_day rows=12 (verified ${NOW})`);
    expect(script).toContain('--   Result: improved, 99.8% fewer rows examined, uses the new index');
  });
});
