// Workspace model: migration from version 1, refusal of corrupt and newer files, de-duplication by suggestion and query class.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalysisReport, Suggestion } from '../../../src/core/model/report.js';
import {
  acceptItem,
  addItem,
  dismissItem,
  emptyWorkspace,
  fromAnalysis,
  parseWorkspace,
  serializeWorkspace,
  sourceQuery,
  WORKSPACE_VERSION,
} from '../../../src/core/workspace/model.js';

const NOW = '2025-01-01T00:00:00.000Z';
const index = (ddl: string, kind: Suggestion['kind'] = 'index'): Suggestion => ({
  kind,
  equivalent: true,
  ddl: [ddl],
  notes: [],
});

describe('workspace file', () => {
  it('migrates version 1: accepted, dismissed with reason, notes; the same query class once', () => {
    const text = readFileSync(
      path.join(import.meta.dirname, '../../fixtures/export/workspace-v1.json'),
      'utf8',
    );
    const result = parseWorkspace(text);
    if (!result.ok) throw new Error(result.problem.message);
    expect(result.migratedFrom).toBe(1);
    const { workspace } = result;
    expect({
      version: workspace.version,
      profile: workspace.profile,
      items: workspace.items.map((item) => [
        item.table,
        item.status,
        item.dismissReason ?? null,
        item.sources.length,
      ]),
      notes: workspace.notes.map((note) => note.text),
    }).toEqual({
      version: WORKSPACE_VERSION,
      profile: { id: 'prod-db', name: 'prod-db' },
      // Both MONTH() queries have one fingerprint: one query class.
      items: [
        ['products', 'accepted', null, 1],
        ['orders', 'dismissed', 'orders is archived', 1],
      ],
      notes: ['review with the team'],
    });
    // The migrated workspace round-trips in the current format.
    expect(parseWorkspace(serializeWorkspace(workspace, NOW))).toEqual({
      ok: true,
      workspace: { ...workspace, savedAt: NOW },
    });
  });

  it.each([
    ['not JSON', '{"version": 2,', 'corrupt'],
    ['no version', '{"items": []}', 'corrupt'],
    ['wrong shape', JSON.stringify({ format: 'sargable-workspace', version: 2, items: 'x' }), 'corrupt'],
    ['unknown old version', JSON.stringify({ version: 0 }), 'corrupt'],
    ['newer', JSON.stringify({ format: 'sargable-workspace', version: 99 }), 'newer'],
  ])('refuses %s with a clear message', (_name, text, kind) => {
    const result = parseWorkspace(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.kind).toBe(kind);
    expect(result.problem.message).toMatch(
      kind === 'newer' ? /newer Sargable.*left unchanged/ : /left unchanged/,
    );
  });
});

describe('workspace items', () => {
  it('one item per suggestion (spacing, case and backticks aside), all its queries; accept and dismiss', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const first = addItem(
      workspace,
      'orders',
      index('ALTER TABLE orders ADD INDEX idx_c (created);'),
      [sourceQuery('SELECT 1 FROM orders WHERE YEAR(created) = 2019', 'pasted')],
      NOW,
    );
    const again = addItem(
      workspace,
      'Orders',
      index('alter table `orders`  add index `idx_c` (`created`)'),
      [sourceQuery('SELECT 1 FROM orders WHERE DATE(created) = "2019-01-01"', 'slowlog')],
      NOW,
    );
    expect(again).toBe(first);
    expect(workspace.items).toHaveLength(1);
    expect(first.sources.map((source) => source.origin)).toEqual(['pasted', 'slowlog']);
    expect(dismissItem(workspace, first.id, 'not now', NOW)).toBe(true);
    expect([first.status, first.dismissReason]).toEqual(['dismissed', 'not now']);
    expect(acceptItem(workspace, first.id, NOW)).toBe(true);
    expect([first.status, first.dismissReason]).toEqual(['accepted', undefined]);
    expect(acceptItem(workspace, 'missing', NOW)).toBe(false);
  });

  it('fromAnalysis takes the first DDL suggestion per finding and keeps the rewritten query with a plain index', () => {
    const finding = (sql: string, suggestions: Suggestion[]) => ({
      index: 0,
      sql,
      line: 1,
      column: 1,
      findings: [
        {
          rule: 'FUN001',
          category: 'function-wrapped-predicate' as const,
          severity: 'warning' as const,
          message: 'm',
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 2,
          table: 'orders',
          columns: ['created'],
          expression: 'YEAR(created)',
          suggestions,
        },
      ],
    });
    const rewrite: Suggestion = {
      kind: 'rewrite',
      equivalent: true,
      ddl: [],
      rewrittenSql: "SELECT 1 FROM orders WHERE created >= '2019-01-01' AND created < '2020-01-01'",
      notes: [],
    };
    const report: AnalysisReport = {
      server: { flavor: 'mysql', version: '8.0.33', source: 'flags' },
      statements: [
        finding('SELECT 1 FROM orders WHERE YEAR(created) = 2019', [
          rewrite,
          index('ALTER TABLE orders ADD INDEX idx_c (created);'),
        ]),
        finding('SELECT 1 FROM orders WHERE MONTH(created) = 2', [
          index('ALTER TABLE orders ADD INDEX f ((MONTH(created)));', 'functional-index'),
        ]),
        finding('SELECT 1 FROM orders WHERE x = 1', [rewrite]),
      ],
      errors: [],
    };
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    expect(fromAnalysis(workspace, report, NOW)).toEqual({ added: 2, findingsWithoutDdl: 1 });
    expect(
      workspace.items.map((item) => [item.suggestion.kind, item.suggestion.rewrittenSql ?? null]),
    ).toEqual([
      ['index', rewrite.rewrittenSql],
      ['functional-index', null],
    ]);
    const onlyFunctional = emptyWorkspace({ id: 'p' }, NOW);
    expect(fromAnalysis(onlyFunctional, report, NOW, 'functional-index').added).toBe(1);
  });
});
