// The Index plan of the Indexes panel (components/indexes-panel.tsx): one table read in several scopes (the
// branches of an OR across its columns, the branches of a UNION) is several entries, each with its own
// React key and its scope shown, so a DBA can tell them apart.
// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { IndexesPanel, planEntryKey } from '../../../src/renderer/components/indexes-panel.js';
import { reportItems } from '../../../src/renderer/report-items.js';
import type { Workbench } from '../../../src/renderer/state/context.js';
import { initialWorkbench, type WorkbenchState } from '../../../src/renderer/state/workbench.js';
import { fakeBridge } from '../../support/fake-bridge.js';

afterEach(cleanup);

const schema = schemaFromDdl(
  `CREATE TABLE orders (
     id int NOT NULL PRIMARY KEY, customer_id int NOT NULL, status varchar(20) NOT NULL,
     region char(2), channel tinyint NOT NULL, total decimal(10,2), created_at datetime NOT NULL
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`,
  'mysql',
).schema;

type Target = ['mysql', '8.0.33'] | ['mariadb', '10.11.6'];

function panelState(sql: string, target: Target = ['mysql', '8.0.33']): WorkbenchState {
  const report = analyze(sql, { server: offlineServerInfo(target[0], target[1]), source: 'flags', schema });
  const state = initialWorkbench();
  return {
    ...state,
    analyses: {
      [state.activeTab]: {
        status: 'done',
        report,
        items: reportItems(report),
        durationMs: 1,
        stale: false,
        scope: 'all',
      },
    },
  };
}

function renderPanel(sql: string, target?: Target) {
  const bridge = fakeBridge();
  const state = panelState(sql, target);
  const wb = { api: bridge.api, listen: bridge.listen, store: null, editor: () => null, analyzing: false };
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  render(createElement(IndexesPanel, { wb: wb as unknown as Workbench, state }));
  const duplicateKeys = errors.mock.calls.filter((call) => /same key/.test(call.map(String).join(' ')));
  errors.mockRestore();
  return { state, duplicateKeys };
}

const SQL =
  "SELECT id, total FROM orders WHERE status = 'refunded' OR region = 'AP';\n" +
  'SELECT id FROM orders WHERE channel = 2 UNION ALL SELECT id FROM orders WHERE customer_id = 7;';

describe('Index plan entries', () => {
  it('one table in two OR branches and two UNION branches: distinct keys, each entry shows its scope', () => {
    const { state, duplicateKeys } = renderPanel(SQL);
    const analysis = state.analyses[state.activeTab];
    const plans = analysis?.status === 'done' ? analysis.report.statements.map((s) => s.indexPlan!) : [];
    // The data has the trap: the same table and alias twice in one statement's plan.
    for (const plan of plans) {
      expect(plan.tables.map((table) => `${table.table}-${table.alias ?? ''}`)).toEqual([
        'orders-',
        'orders-',
      ]);
      const keys = plan.tables.map(planEntryKey);
      expect(new Set(keys).size).toBe(keys.length);
    }
    expect(duplicateKeys).toEqual([]);
    expect(screen.getAllByTestId('index-plan-scope').map((chip) => chip.textContent)).toEqual([
      "OR branch 1 of 2: status = 'refunded'",
      "OR branch 2 of 2: region = 'AP'",
      'UNION branch 1',
      'UNION branch 2',
    ]);
    // The what-if of the table's finding builds every entry's index: offered once per table and statement.
    const statements = screen.getAllByTestId('index-plan-statement');
    for (const statement of statements)
      expect(statement.querySelectorAll('[data-testid="index-plan-explain"]')).toHaveLength(1);
  });

  it('the key a table and alias alone would give repeats (canary for the test above)', () => {
    const { state } = renderPanel(SQL);
    const analysis = state.analyses[state.activeTab];
    if (analysis?.status !== 'done') throw new Error('no analysis');
    const plan = analysis.report.statements[0]!.indexPlan!;
    const naive = plan.tables.map((table) => `${table.table}-${table.alias ?? ''}`);
    expect(new Set(naive).size).toBeLessThan(naive.length);
  });
});

describe('the query as advised', () => {
  const FUNCTION_WRAPPED = "SELECT id FROM orders WHERE channel = 2 AND DATE(created_at) = '2024-05-01'";

  it('MariaDB: the index is on a generated column, so the plan shows the query that names it, with Copy', () => {
    renderPanel(FUNCTION_WRAPPED, ['mariadb', '10.11.6']);
    expect(screen.getByTestId('index-plan-must-change').textContent).toMatch(/query must change/);
    const code = screen.getByTestId('code-block').textContent ?? '';
    expect(code).not.toMatch(/DATE\(/i);
    expect(code).toMatch(/channel = 2/);
    expect(screen.getByRole('button', { name: 'Copy Query as advised' })).toBeTruthy();
  });

  it('MySQL 8.0.33 keys on the expression itself: the query stays as written', () => {
    renderPanel(FUNCTION_WRAPPED, ['mysql', '8.0.33']);
    expect(screen.queryByTestId('index-plan-must-change')).toBeNull();
  });

  it('an OR across columns shows its UNION ALL rewrite with whether it is equivalent', () => {
    renderPanel("SELECT id, total FROM orders WHERE status = 'refunded' OR region = 'AP'");
    expect(screen.getByTestId('index-plan-or-rewrite').textContent).toMatch(/UNION ALL rewrite/);
    expect(screen.getByTestId('code-block').textContent).toMatch(/UNION ALL/);
  });
});
