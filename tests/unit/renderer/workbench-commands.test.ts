// The workbench commands (state/analysis.ts, tabs.ts, suggestions.ts) against the real offline API and a recording editor.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { dispatch } from '../../../src/main/dispatch.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import type { AdvisorApi } from '../../../src/shared/api.js';
import { createClient } from '../../../src/shared/client.js';
import { createListen } from '../../../src/shared/events.js';
import { AdvisorError } from '../../../src/shared/errors.js';
import { capabilitiesFor } from '../../../src/core/flavors/capabilities.js';
import { demoExplainSql, demoExplainText, demoSchemaSql } from '../../../src/renderer/demo.js';
import type { Session } from '../../../src/renderer/session.js';
import { analyze, explain, showPlanReport } from '../../../src/renderer/state/analysis.js';
import type { EditorPort, Workbench } from '../../../src/renderer/state/context.js';
import { createStore } from '../../../src/renderer/state/store.js';
import {
  acceptSuggestion,
  applyDdlCommand,
  findItem,
  suggestionActions,
  toggleRule,
  verifyBlocked,
  whatIfTarget,
} from '../../../src/renderer/state/suggestions.js';
import { closeTab, newTab, switchSession } from '../../../src/renderer/state/tabs.js';
import { activeAnalysis, initialWorkbench, workbenchReducer } from '../../../src/renderer/state/workbench.js';

const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;';

/** The real handlers (offline: no server needed), with some methods replaced and every call recorded. */
function offlineApi(overrides: Partial<Record<keyof AdvisorApi, (request: never) => Promise<unknown>>> = {}) {
  const handlers = createHandlers({
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
  });
  const calls: { method: string; request: unknown }[] = [];
  const api = createClient(async (method, request) => {
    calls.push({ method, request });
    const override = overrides[method];
    if (override) {
      try {
        return { ok: true, value: await override(request as never) };
      } catch (error) {
        return { ok: false, error: (error as AdvisorError).toWire() };
      }
    }
    return dispatch(handlers, method, request);
  });
  return { api, calls };
}

/** An editor double: one text per tab, a cursor, and a log of what the commands did to it. */
function fakeEditor(text: string, cursor = 0) {
  const texts = new Map([['tab-1', text]]);
  let active = 'tab-1';
  const log: string[] = [];
  const shown: unknown[][] = [];
  const editor: EditorPort = {
    getText: () => texts.get(active) ?? '',
    cursorOffset: () => cursor,
    selectOffsets: (start, end) => void log.push(`select ${start}-${end}`),
    replaceOffsets: () => void log.push('replace'),
    applyRewrite: () => true,
    focus: () => void log.push('focus'),
    trigger: () => undefined,
    clearAllItems: () => void log.push('clear'),
    showItems: (items) => void shown.push(items),
    reveal: (key) => void log.push(`reveal ${key}`),
    nextKey: () => null,
    liveKeys: () => new Set(shown.at(-1)?.map((item) => (item as { key: string }).key) ?? []),
    addTab: (id, value) => {
      texts.set(id, value);
      active = id;
      log.push(`add ${id}`);
    },
    switchTab: (id) => {
      active = id;
      log.push(`switch ${id}`);
    },
    closeTab: (id) => void log.push(`close ${id}`),
  };
  return { editor, log, shown };
}

function workbench(api: AdvisorApi, editor: EditorPort, session?: Session): Workbench {
  return {
    api,
    // The workbench commands use no event channel (the Top queries panel does).
    listen: createListen(() => undefined),
    store: createStore(workbenchReducer, initialWorkbench(session)),
    editor: () => editor,
    analyzing: false,
  };
}

const offlineWithSchema: Session = {
  kind: 'offline',
  flavor: 'mysql',
  version: '8.0.33',
  schemaSql: demoSchemaSql,
};

function liveSession(database: string | null = 'shop'): Session {
  // A connected MySQL 8.0.33 as connection.open describes it (no server in unit tests).
  return {
    kind: 'live',
    connectionId: 'c-1',
    label: 'root@127.0.0.1:3306',
    server: {
      flavor: 'mysql',
      version: '8.0.33',
      versionString: '8.0.33',
      versionComment: 'MySQL Community Server - GPL',
      sqlMode: { session: '', global: '' },
      capabilities: { ...capabilitiesFor('mysql', '8.0.33'), performanceSchema: true },
      database,
    } as Extract<Session, { kind: 'live' }>['server'],
    allowWhatIf: true,
  };
}

describe('useAnalysis commands', () => {
  it('analyze: the seed query gets FUN001 from the real analyzer, shown in the editor and the state', async () => {
    const { api, calls } = offlineApi();
    const { editor, shown } = fakeEditor(seedQuery);
    const wb = workbench(api, editor, offlineWithSchema);
    await analyze(wb, 'all');
    const analysis = activeAnalysis(wb.store.getState());
    expect(analysis.status).toBe('done');
    if (analysis.status !== 'done') return;
    expect(analysis.items.some((item) => item.kind === 'finding' && item.finding.rule === 'FUN001')).toBe(
      true,
    );
    expect(shown.at(-1)).toEqual(analysis.items);
    expect(wb.store.getState().liveKeys).toEqual(new Set(analysis.items.map((item) => item.key)));
    expect(calls[0]).toMatchObject({ method: 'analyze.run', request: { schemaSql: demoSchemaSql } });
    expect(wb.analyzing).toBe(false);
  });

  it('analyze: one at a time; a second call while the first runs is ignored', async () => {
    const { api, calls } = offlineApi();
    const wb = workbench(api, fakeEditor(seedQuery).editor);
    await Promise.all([analyze(wb, 'all'), analyze(wb, 'all')]);
    expect(calls.filter((call) => call.method === 'analyze.run')).toHaveLength(1);
  });

  it('analyze: the report lands on the tab that asked even when the user switched tabs meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const real = offlineApi().api;
    const { api } = offlineApi({
      'analyze.run': async (request: never) => {
        await gate;
        return real['analyze.run'](request);
      },
    });
    const { editor, shown } = fakeEditor(seedQuery);
    const wb = workbench(api, editor, offlineWithSchema);
    const running = analyze(wb, 'all');
    newTab(wb, 'Other', 'SELECT 1');
    release();
    await running;
    const state = wb.store.getState();
    expect(state.activeTab).toBe('tab-2');
    expect(state.analyses['tab-1']?.status).toBe('done');
    expect(activeAnalysis(state).status).toBe('idle');
    expect(shown).toEqual([]); // not drawn over the other tab's text
  });

  it("analyze: a failure is the tab's error and clears the markers", async () => {
    const { api } = offlineApi({
      'analyze.run': async () => {
        throw new AdvisorError('CONNECTION_LOST', 'gone');
      },
    });
    const { editor, shown } = fakeEditor(seedQuery);
    const wb = workbench(api, editor);
    await analyze(wb, 'statement');
    expect(activeAnalysis(wb.store.getState())).toEqual({
      status: 'failed',
      error: expect.objectContaining({ code: 'CONNECTION_LOST' }),
    });
    expect(shown).toEqual([[]]);
  });

  it('disabled rules travel with every analysis after a toggle, which re-analyzes', async () => {
    const { api, calls } = offlineApi({
      'workspace.setRuleDisabled': async (request: never) => ({
        workspace: { disabledRules: (request as { disabled: boolean }).disabled ? ['FUN001'] : [] },
      }),
    });
    const wb = workbench(api, fakeEditor(seedQuery).editor, offlineWithSchema);
    await toggleRule(wb, 'offline', 'FUN001', true);
    expect(wb.store.getState().disabledRules).toEqual(['FUN001']);
    const analyzeCall = calls.find((call) => call.method === 'analyze.run');
    expect(analyzeCall?.request).toMatchObject({ disabledRules: ['FUN001'] });
    const analysis = activeAnalysis(wb.store.getState());
    expect(
      analysis.status === 'done' &&
        analysis.items.some((item) => item.kind === 'finding' && item.finding.rule === 'FUN001'),
    ).toBe(false);
  });

  it('explain offline opens Paste EXPLAIN; pasted output becomes the plan with the SQL it names', async () => {
    const { api } = offlineApi();
    const wb = workbench(api, fakeEditor(seedQuery).editor);
    await explain(wb, false);
    expect(wb.store.getState().dialog).toEqual({ kind: 'paste' });
    expect(await showPlanReport(wb, demoExplainText, 'mysql', demoExplainSql)).toBeNull();
    const { plan, panel } = wb.store.getState();
    expect(panel).toBe('plan');
    expect(plan.status === 'done' && plan.source === 'pasted' && plan.sql).toBe(demoExplainSql);
    const failure = await showPlanReport(wb, 'not an explain', undefined, null);
    expect(failure?.code).toBeTruthy();
  });

  it('explain live: placeholders ask for values; EXPLAIN ANALYZE of a write is refused; a statement runs explain.run', async () => {
    const explained: unknown[] = [];
    const { api } = offlineApi({
      'explain.run': async (request: never) => {
        explained.push(request);
        throw new AdvisorError('CONNECTION_LOST', 'no server in a unit test');
      },
      'analyze.run': async () => ({ server: {}, errors: [], statements: [] }),
    });
    const session = liveSession();
    const withPlaceholder = workbench(api, fakeEditor('SELECT * FROM t WHERE id = ?').editor, session);
    await explain(withPlaceholder, false);
    expect(withPlaceholder.store.getState().dialog).toMatchObject({
      kind: 'placeholders',
      offsets: [27],
      analyze: false,
    });
    expect(explained).toEqual([]);

    const write = workbench(api, fakeEditor('UPDATE t SET a = 1').editor, session);
    await explain(write, true);
    expect(write.store.getState().plan).toMatchObject({ status: 'failed', error: { code: 'INVALID_INPUT' } });
    expect(explained).toEqual([]);

    const { editor, log } = fakeEditor('SELECT 1; SELECT 2', 12);
    const plain = workbench(api, editor, session);
    await explain(plain, false);
    expect(explained).toEqual([{ connectionId: 'c-1', sql: 'SELECT 2' }]);
    expect(log).toContain('select 10-18');
    expect(plain.store.getState().plan).toMatchObject({
      status: 'failed',
      error: { code: 'CONNECTION_LOST' },
    });
  });
});

describe('useTabs commands', () => {
  it('switching from a live session closes the old connection and drops its reports', async () => {
    const { api, calls } = offlineApi({ 'connection.close': async () => null });
    const { editor, log } = fakeEditor(seedQuery);
    const wb = workbench(api, editor, liveSession());
    wb.store.dispatch({ type: 'analysis/failed', tabId: 'tab-1', error: { code: 'X', message: 'x' } });
    await switchSession(wb, offlineWithSchema);
    expect(calls.filter((call) => call.method === 'connection.close')).toEqual([
      { method: 'connection.close', request: { connectionId: 'c-1' } },
    ]);
    expect(wb.store.getState().analyses).toEqual({});
    expect(log).toContain('clear');
  });

  it('closing the active tab shows the one before it and closes its editor model', () => {
    const { api } = offlineApi();
    const { editor, log } = fakeEditor('');
    const wb = workbench(api, editor);
    newTab(wb);
    newTab(wb);
    closeTab(wb, 'tab-3');
    expect(wb.store.getState().activeTab).toBe('tab-2');
    expect(log.slice(-2)).toEqual(['switch tab-2', 'close tab-3']);
    closeTab(wb, 'tab-1');
    closeTab(wb, 'tab-2'); // the last tab stays
    expect(wb.store.getState().tabs.map((tab) => tab.id)).toEqual(['tab-2']);
  });
});

describe('useWhatIf / suggestion commands', () => {
  async function analyzedLive(
    overrides: Parameters<typeof offlineApi>[0] = {},
    database: string | null = 'shop',
  ) {
    const real = offlineApi().api;
    const { api, calls } = offlineApi({
      // The live analysis is the offline one against the demo schema (no server in unit tests).
      'analyze.run': async (request: never) =>
        real['analyze.run']({
          sql: (request as { sql: string }).sql,
          schemaSql: demoSchemaSql,
          target: { flavor: 'mysql', version: '8.0.33' },
        }),
      ...overrides,
    });
    const wb = workbench(api, fakeEditor(seedQuery).editor, liveSession(database));
    await analyze(wb, 'all');
    const analysis = activeAnalysis(wb.store.getState());
    if (analysis.status !== 'done') throw new Error('analysis failed');
    const finding = analysis.items.find((item) => item.kind === 'finding' && item.finding.rule === 'FUN001');
    if (finding?.kind !== 'finding') throw new Error('no FUN001');
    return { wb, calls, finding };
  }

  it('verify: blocked without a database; the target is the statement, table and served suggestion', async () => {
    const { wb, finding } = await analyzedLive();
    expect(verifyBlocked(wb.store.getState())).toBeNull();
    const index = finding.finding.suggestions.findIndex((s) => s.kind !== 'rewrite');
    const target = whatIfTarget(wb.store.getState(), finding.key, index);
    expect(target).toMatchObject({
      connectionId: 'c-1',
      table: 'products',
      sql: seedQuery.replace(/;$/, ''),
      invisible: true,
    });
    suggestionActions(wb, wb.store.getState(), false).onVerify(finding.key, index);
    expect(wb.store.getState().dialog).toMatchObject({ kind: 'what-if', key: `${finding.key}#${index}` });
    const noDatabase = await analyzedLive({}, null);
    expect(verifyBlocked(noDatabase.wb.store.getState())).toMatch(/default database/);
    expect(verifyBlocked({ ...initialWorkbench() })).toMatch(/needs a server/);
  });

  it('accept: one finding with the one suggestion (carrying its what-if record) goes to the workspace', async () => {
    const { wb, calls, finding } = await analyzedLive({ 'workspace.addFromAnalysis': async () => ({}) });
    const index = 0;
    const record = { measuredAt: 'now' } as never;
    wb.store.dispatch({
      type: 'whatif/verified',
      key: `${finding.key}#${index}`,
      reply: { record } as never,
    });
    await acceptSuggestion(wb, finding.key, index);
    const request = calls.find((call) => call.method === 'workspace.addFromAnalysis')?.request as {
      profileId: string;
      report: { statements: { findings: { suggestions: { verification?: unknown }[] }[] }[] };
      pick: string;
    };
    expect(request.profileId).toBe('root@127.0.0.1:3306');
    expect(request.pick).toBe(finding.finding.suggestions[index]!.kind);
    expect(request.report.statements).toHaveLength(1);
    expect(request.report.statements[0]!.findings).toHaveLength(1);
    expect(request.report.statements[0]!.findings[0]!.suggestions).toEqual([
      { ...finding.finding.suggestions[index], verification: record },
    ]);
    expect(wb.store.getState().accepted.has(`${finding.key}#${index}`)).toBe(true);
    expect(wb.store.getState().exportRevision).toBe(1);
  });

  it("accept: a workspace error is shown as the tab's error", async () => {
    const { wb, finding } = await analyzedLive({
      'workspace.addFromAnalysis': async () => {
        throw new AdvisorError('INTERNAL', 'disk full');
      },
    });
    await acceptSuggestion(wb, finding.key, 0);
    expect(activeAnalysis(wb.store.getState())).toMatchObject({
      status: 'failed',
      error: { message: 'disk full' },
    });
    expect(wb.store.getState().accepted.size).toBe(0);
  });

  it("palette Apply DDL: the selected finding's DDL suggestion, else the Export script", async () => {
    const { wb, finding } = await analyzedLive();
    applyDdlCommand(wb);
    expect(wb.store.getState()).toMatchObject({ panel: 'export', exportApplyRequest: 1, dialog: null });
    wb.store.dispatch({ type: 'finding/selected', key: finding.key });
    expect(findItem(wb.store.getState(), finding.key)).not.toBeNull();
    applyDdlCommand(wb);
    const { dialog, panel } = wb.store.getState();
    expect(panel).toBe('findings');
    expect(dialog?.kind).toBe('apply-ddl');
    expect(dialog?.kind === 'apply-ddl' && dialog.statements.join('\n')).toMatch(/ALTER TABLE|CREATE INDEX/i);
  });
});
