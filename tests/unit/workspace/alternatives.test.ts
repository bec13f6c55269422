// One fix per finding: the functional index and the generated column of one finding are alternatives, in the
// workspace (accepting one dismisses the other), in the export (a second one is never exported) and in the
// Findings panel (keys by finding identity survive re-analysis; accepting one drops its siblings' badges).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { exportWorkspace } from '../../../src/core/export/index.js';
import type { AnalysisReport } from '../../../src/core/model/report.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import {
  acceptItem,
  acceptedItems,
  addItem,
  emptyWorkspace,
  findingIdentity,
  fromAnalysis,
  parseWorkspace,
  serializeWorkspace,
  sourceQuery,
} from '../../../src/core/workspace/model.js';
import { reportItems } from '../../../src/renderer/report-items.js';
import { acceptOne } from '../../../src/renderer/state/workbench.js';

const NOW = '2025-01-01T00:00:00.000Z';
const SCHEMA = `CREATE TABLE products (id INT PRIMARY KEY, price DECIMAL(8,2), create_time DATETIME, name VARCHAR(40));
CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, total INT);`;
const MONTH = 'SELECT AVG(price) FROM products WHERE MONTH(create_time) = 10;';
const YEAR = 'SELECT id FROM orders WHERE YEAR(created) + 0 = 2020 AND total * 2 > 10;';

function run(sql: string): AnalysisReport {
  return analyze(sql, {
    server: offlineServerInfo('mysql', '8.0.33'),
    source: 'flags',
    schema: schemaFromDdl(SCHEMA, 'mysql').schema,
  });
}

/** The one-finding report the Findings panel sends when a suggestion of `kind` is accepted. */
function pickOf(report: AnalysisReport, kind: string): { report: AnalysisReport; kind: 'functional-index' } {
  const statement = report.statements.find((entry) =>
    entry.findings.some((finding) => finding.suggestions.some((s) => s.kind === kind)),
  )!;
  const finding = statement.findings.find((entry) => entry.suggestions.some((s) => s.kind === kind))!;
  return {
    report: { ...report, statements: [{ ...statement, findings: [finding] }] },
    kind: kind as 'functional-index',
  };
}

describe('alternative fixes of one finding', () => {
  const report = run(MONTH);
  const kinds = report.statements[0]!.findings[0]!.suggestions.map((suggestion) => suggestion.kind);

  it('the analyzer offers both alternatives for MONTH() (the premise)', () => {
    expect(kinds).toEqual(expect.arrayContaining(['functional-index', 'generated-column']));
  });

  it('accepting the generated column after the functional index dismisses the index, and the export builds one', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const functional = pickOf(report, 'functional-index');
    fromAnalysis(workspace, functional.report, NOW, 'functional-index');
    fromAnalysis(workspace, pickOf(report, 'generated-column').report, NOW, 'generated-column');
    expect(workspace.items.map((item) => [item.suggestion.kind, item.status])).toEqual([
      ['functional-index', 'dismissed'],
      ['generated-column', 'accepted'],
    ]);
    expect(workspace.items[0]!.dismissReason).toContain('replaced by its alternative');
    const { script } = exportWorkspace(workspace, {
      schema: null,
      flavor: 'mysql',
      version: '8.0.33',
      generatedAt: NOW,
      sargableVersion: 'test',
    });
    const sql = script.statements.map((statement) => statement.sql).join('\n');
    expect(sql.match(/ADD INDEX/g)).toHaveLength(1);
    expect(sql).toContain('ADD COLUMN');

    // Toggling the index back on in the Export panel dismisses the generated column.
    expect(acceptItem(workspace, workspace.items[0]!.id, NOW)).toBe(true);
    expect(acceptedItems(workspace).map((item) => item.suggestion.kind)).toEqual(['functional-index']);
    // The identity survives the file.
    const reread = parseWorkspace(serializeWorkspace(workspace, NOW));
    expect(reread.ok && reread.workspace.items.map((item) => item.finding)).toEqual([
      findingIdentity(report.statements[0]!.sql, report.statements[0]!.findings[0]!),
      findingIdentity(report.statements[0]!.sql, report.statements[0]!.findings[0]!),
    ]);
  });

  it('a workspace that accepted both (an older file) exports only the first and lists the other', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const finding = report.statements[0]!.findings[0]!;
    for (const kind of ['functional-index', 'generated-column'] as const) {
      const suggestion = finding.suggestions.find((entry) => entry.kind === kind)!;
      workspace.items.push({
        ...addItem(
          emptyWorkspace({ id: 'x' }, NOW),
          'products',
          suggestion,
          [sourceQuery(MONTH, 'pasted')],
          NOW,
        ),
        finding: findingIdentity(MONTH, finding),
      });
    }
    const { plan, script } = exportWorkspace(workspace, {
      schema: null,
      flavor: 'mysql',
      version: '8.0.33',
      generatedAt: NOW,
      sargableVersion: 'test',
    });
    expect(
      script.statements
        .map((statement) => statement.sql)
        .join('\n')
        .match(/ADD INDEX/g),
    ).toHaveLength(1);
    expect(plan.skipped.map((entry) => entry.reason)).toEqual([
      expect.stringContaining('alternative fix of the same finding'),
    ]);
  });

  it('different findings are not alternatives', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const both = run(`${MONTH}\n${YEAR}`);
    fromAnalysis(workspace, both, NOW, 'index-first');
    expect(acceptedItems(workspace).length).toBe(
      both.statements.flatMap((statement) =>
        statement.findings.filter((finding) => finding.suggestions.some((s) => s.ddl.length > 0)),
      ).length,
    );
    expect(acceptedItems(workspace).length).toBeGreaterThanOrEqual(2);
  });
});

describe('Findings panel keys', () => {
  it('a finding keeps its key when statements are reordered and re-analysed; positions do not', () => {
    const first = reportItems(run(`${MONTH}\n${YEAR}`));
    const second = reportItems(run(`${YEAR}\n${MONTH}`));
    const month = (items: typeof first) =>
      items.find((item) => item.kind === 'finding' && item.finding.expression.includes('MONTH'))!;
    expect(month(second).key).toBe(month(first).key);
    expect(first.indexOf(month(first))).not.toBe(second.indexOf(month(second)));
    expect(new Set(first.map((item) => item.key)).size).toBe(first.length);
  });

  it('the same query twice gives two keys; literals do not change the key', () => {
    const twice = reportItems(run(`${MONTH}\n${MONTH}`));
    const keys = twice.map((item) => item.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.some((key) => key.endsWith('~2'))).toBe(true);
    const other = reportItems(run(MONTH.replace('10', '11')));
    expect(other[0]!.key).toBe(twice[0]!.key);
  });

  it('accepting a suggestion drops its alternatives from the accepted set, not other findings’', () => {
    const accepted = acceptOne(new Set(['finding:A#0', 'finding:B#1']), 'finding:A#1');
    expect([...accepted].sort()).toEqual(['finding:A#1', 'finding:B#1']);
  });
});
