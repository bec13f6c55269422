// The renderer's hooks (state/ and the API hooks next to it) rendered in a DOM, against a fake bridge that records calls.
// @vitest-environment happy-dom
/*
 * Each hook runs in a real React root (happy-dom + @testing-library/react's renderHook): the test
 * checks what it asks the API, in which order, what lands in its state or store, and that
 * unmounting stops what it started (streams, timers, listeners). The commands behind the hooks are
 * tested without a DOM in workbench-commands.test.ts; what the server answers, in tests/integration.
 */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilitiesFor } from '../../../src/core/flavors/capabilities.js';
import type { JobStatusReply } from '../../../src/shared/api/capture.js';
import type { ConnectionStatus } from '../../../src/shared/api/connection-status.js';
import { AdvisorError } from '../../../src/shared/errors.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { dispatch } from '../../../src/main/dispatch.js';
import { demoSchemaSql } from '../../../src/renderer/demo.js';
import { useLinkStatus } from '../../../src/renderer/link-status.js';
import { notifyProfilesChanged, useProfiles } from '../../../src/renderer/profiles.js';
import type { Session } from '../../../src/renderer/session.js';
import { useAnalysis } from '../../../src/renderer/state/analysis.js';
import type { EditorPort, Workbench } from '../../../src/renderer/state/context.js';
import { useJobEvents } from '../../../src/renderer/state/job.js';
import { useLiveCapture } from '../../../src/renderer/state/live-capture.js';
import { usePolling } from '../../../src/renderer/state/polling.js';
import { createStore, useStore } from '../../../src/renderer/state/store.js';
import { setOptInRule, useRuleToggles } from '../../../src/renderer/state/suggestions.js';
import { useTabs } from '../../../src/renderer/state/tabs.js';
import type { TopQueriesAction } from '../../../src/renderer/state/top-queries.js';
import { activeAnalysis, initialWorkbench, workbenchReducer } from '../../../src/renderer/state/workbench.js';
import { fakeBridge, type FakeBridge } from '../../support/fake-bridge.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;';

/** An editor double with one text and a log of what the commands did to it. */
function fakeEditor(text: string) {
  const log: string[] = [];
  const shown: unknown[][] = [];
  const editor: EditorPort = {
    getText: () => text,
    cursorOffset: () => 0,
    selectOffsets: (start, end) => void log.push(`select ${start}-${end}`),
    replaceOffsets: () => void log.push('replace'),
    applyRewrite: () => true,
    focus: () => void log.push('focus'),
    trigger: () => undefined,
    clearAllItems: () => void log.push('clear'),
    showItems: (items) => void shown.push(items),
    reveal: (key) => void log.push(`reveal ${key}`),
    nextKey: () => null,
    liveKeys: () => new Set(),
    addTab: (id) => void log.push(`add ${id}`),
    switchTab: (id) => void log.push(`switch ${id}`),
    closeTab: (id) => void log.push(`close ${id}`),
  };
  return { editor, log, shown };
}

function liveSession(connectionId: string): Session {
  return {
    kind: 'live',
    connectionId,
    label: 'root@127.0.0.1:3306',
    server: {
      flavor: 'mysql',
      version: '8.0.33',
      versionString: '8.0.33',
      versionComment: 'MySQL Community Server - GPL',
      sqlMode: { session: '', global: '' },
      capabilities: { ...capabilitiesFor('mysql', '8.0.33'), performanceSchema: true },
      database: 'shop',
    } as Extract<Session, { kind: 'live' }>['server'],
    allowWhatIf: true,
  };
}

function workbench(bridge: FakeBridge, editor: EditorPort, session?: Session): Workbench {
  return {
    api: bridge.api,
    listen: bridge.listen,
    store: createStore(workbenchReducer, initialWorkbench(session)),
    editor: () => editor,
    analyzing: false,
  };
}

/** The report the real analyzer (offline handlers) gives for `sql`: a canned analyze.run reply. */
async function realReport(sql = seedQuery): Promise<unknown> {
  const handlers = createHandlers({
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
  });
  const reply = await dispatch(handlers, 'analyze.run', {
    sql,
    schemaSql: demoSchemaSql,
    target: { flavor: 'mysql', version: '8.0.33' },
  });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value;
}

const seedReport = await realReport();

describe('useStore', () => {
  it('re-renders the component on every change and not after unsubscribing', () => {
    const store = createStore(workbenchReducer, initialWorkbench());
    let renders = 0;
    const { result, unmount } = renderHook(() => {
      renders++;
      return useStore(store);
    });
    expect(result.current.panel).toBe(store.getState().panel);
    const before = renders;
    act(() => store.dispatch({ type: 'panel/shown', panel: 'plan' }));
    expect(result.current.panel).toBe('plan');
    expect(renders).toBe(before + 1);
    unmount();
    store.dispatch({ type: 'panel/shown', panel: 'findings' });
    expect(renders).toBe(before + 1);
  });
});

describe('useAnalysis', () => {
  it('analyze sends the tab text with the session and puts the reply in the store', async () => {
    const bridge = fakeBridge({ 'analyze.run': () => seedReport });
    const { editor, shown } = fakeEditor(seedQuery);
    const wb = workbench(bridge, editor);
    const { result } = renderHook(() => useAnalysis(wb));
    await act(() => result.current.analyze('all'));
    expect(bridge.calls.map((call) => call.method)).toEqual(['analyze.run']);
    expect(bridge.requests('analyze.run')[0]).toMatchObject({ sql: seedQuery });
    const analysis = activeAnalysis(wb.store.getState());
    expect(analysis.status).toBe('done');
    if (analysis.status !== 'done') return;
    expect(analysis.items.some((item) => item.kind === 'finding' && item.finding.rule === 'FUN001')).toBe(
      true,
    );
    expect(wb.store.getState().panel).toBe('findings');
    expect(shown).toEqual([analysis.items]);
  });

  it('the bound commands are the same object across renders of the same workbench', () => {
    const bridge = fakeBridge();
    const wb = workbench(bridge, fakeEditor('').editor);
    const { result, rerender } = renderHook(() => useAnalysis(wb));
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });

  it('explain on a live session asks explain.run for the statement and, without a fresh report, analyze.run too', async () => {
    const bridge = fakeBridge({
      'analyze.run': () => seedReport,
      'explain.run': (request: { sql: string }) => ({
        sql: request.sql,
        report: { format: 'json', nodes: [], findings: [], notes: [] },
        raw: { json: '{}' },
      }),
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor, liveSession('c-7'));
    const { result } = renderHook(() => useAnalysis(wb));
    await act(() => result.current.explain(false));
    await waitFor(() => expect(bridge.requests('analyze.run')).toHaveLength(1));
    expect(bridge.requests('explain.run')).toEqual([{ connectionId: 'c-7', sql: seedQuery.slice(0, -1) }]);
    expect(wb.store.getState().plan).toMatchObject({ status: 'done', source: 'server', analyzed: false });
  });

  it('a failed explain.run is the plan error the panel shows', async () => {
    const bridge = fakeBridge({
      'analyze.run': () => seedReport,
      'explain.run': () => {
        throw new AdvisorError('CONNECTION_LOST', 'The server went away');
      },
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor, liveSession('c-7'));
    const { result } = renderHook(() => useAnalysis(wb));
    await act(() => result.current.explain(false));
    expect(wb.store.getState().plan).toMatchObject({
      status: 'failed',
      error: { code: 'CONNECTION_LOST', message: 'The server went away' },
    });
  });
});

describe('useTabs', () => {
  it('switching away from a live session closes its connection; an offline switch calls nothing', async () => {
    const bridge = fakeBridge({ 'connection.close': () => ({}) });
    const { editor, log } = fakeEditor('');
    const wb = workbench(bridge, editor, liveSession('c-1'));
    const { result } = renderHook(() => useTabs(wb));
    await act(() => result.current.switchSession(liveSession('c-2')));
    expect(bridge.requests('connection.close')).toEqual([{ connectionId: 'c-1' }]);
    await act(() =>
      result.current.switchSession({ kind: 'offline', flavor: 'mysql', version: '8.0.33', schemaSql: '' }),
    );
    expect(bridge.requests('connection.close')).toEqual([{ connectionId: 'c-1' }, { connectionId: 'c-2' }]);
    await act(() =>
      result.current.switchSession({ kind: 'offline', flavor: 'mariadb', version: '10.11', schemaSql: '' }),
    );
    expect(bridge.calls).toHaveLength(2);
    expect(log.filter((entry) => entry === 'clear')).toHaveLength(3);
  });

  it('showAbout opens the dialog, then loads app.info into it (or its error)', async () => {
    const info = { name: 'Sargable', version: '9.9.9', mode: 'web' };
    const bridge = fakeBridge({ 'app.info': () => info });
    const wb = workbench(bridge, fakeEditor('').editor);
    const { result } = renderHook(() => useTabs(wb));
    act(() => result.current.showAbout());
    expect(wb.store.getState().dialog).toEqual({ kind: 'about' });
    await waitFor(() => expect(wb.store.getState().info.info).toMatchObject({ version: '9.9.9' }));
    bridge.reply({
      'app.info': () => {
        throw new AdvisorError('INTERNAL', 'no info');
      },
    });
    act(() => result.current.showAbout());
    await waitFor(() => expect(wb.store.getState().info.error).toMatchObject({ message: 'no info' }));
    expect(bridge.requests('app.info')).toHaveLength(2);
  });
});

describe('useProfiles', () => {
  const list = (names: string[]) => ({
    profiles: names.map((name) => ({ id: name, name })),
    secrets: { available: true, backend: 'test' },
  });

  it('lists on mount, reloads when any view saves, and stops listening when unmounted', async () => {
    let names = ['a'];
    const bridge = fakeBridge({ 'profiles.list': () => list(names) });
    const { result, unmount } = renderHook(() => useProfiles(bridge.api));
    expect(result.current.profiles).toBeNull();
    await waitFor(() => expect(result.current.profiles?.map((p) => p.name)).toEqual(['a']));
    expect(result.current.secrets).toMatchObject({ available: true });
    names = ['a', 'b'];
    act(() => notifyProfilesChanged());
    await waitFor(() => expect(result.current.profiles?.map((p) => p.name)).toEqual(['a', 'b']));
    expect(bridge.requests('profiles.list')).toHaveLength(2);
    unmount();
    notifyProfilesChanged();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bridge.requests('profiles.list')).toHaveLength(2);
  });

  it('a failed list keeps the last profiles and shows the error', async () => {
    const bridge = fakeBridge({ 'profiles.list': () => list(['a']) });
    const { result } = renderHook(() => useProfiles(bridge.api));
    await waitFor(() => expect(result.current.profiles).toHaveLength(1));
    bridge.reply({
      'profiles.list': () => {
        throw new AdvisorError('INTERNAL', 'store unreadable');
      },
    });
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.error).toBeInstanceOf(AdvisorError));
    expect(result.current.profiles).toHaveLength(1);
  });
});

function status(state: JobStatusReply['state'], bytesRead: number): JobStatusReply {
  return { jobId: 'j-1', kind: 'digest', state, progress: { elapsedMs: 10, bytesRead, totalBytes: 100 } };
}

describe('useJobEvents', () => {
  it('follow hands every status to the caller and resolves with the last one', async () => {
    const bridge = fakeBridge();
    const { result } = renderHook(() => useJobEvents(bridge.listen));
    const seen: JobStatusReply[] = [];
    const following = result.current.follow('j-1', (value) => seen.push(value));
    expect(bridge.streams).toHaveLength(1);
    expect(bridge.streams[0]).toMatchObject({ event: 'job.events', args: { jobId: 'j-1' } });
    const stream = bridge.streams[0]!;
    stream.send({ kind: 'event', value: status('running', 40) });
    stream.send({ kind: 'event', value: status('done', 100) });
    stream.send({ kind: 'end' });
    await expect(following).resolves.toMatchObject({ state: 'done' });
    expect(seen.map((value) => value.progress.bytesRead)).toEqual([40, 100]);
    expect(stream.signal.aborted).toBe(true); // the transport is released once the stream ended
  });

  it('unmounting stops an open stream: the follow resolves null, later events are ignored', async () => {
    const bridge = fakeBridge();
    const { result, unmount } = renderHook(() => useJobEvents(bridge.listen));
    const seen: JobStatusReply[] = [];
    const following = result.current.follow('j-1', (value) => seen.push(value));
    const stream = bridge.streams[0]!;
    stream.send({ kind: 'event', value: status('running', 10) });
    expect(stream.signal.aborted).toBe(false);
    unmount();
    expect(stream.signal.aborted).toBe(true);
    await expect(following).resolves.toBeNull();
    stream.send({ kind: 'event', value: status('running', 20) });
    expect(seen).toHaveLength(1);
  });

  it('a stream that fails rejects the follow with the error', async () => {
    const bridge = fakeBridge();
    const { result } = renderHook(() => useJobEvents(bridge.listen));
    const following = result.current.follow('gone', () => undefined);
    bridge.streams[0]!.send({ kind: 'error', error: { code: 'NOT_FOUND', message: 'No job gone.' } });
    await expect(following).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('useLiveCapture', () => {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  /** The window so far after `polls` polls: one class that ran 3 times per poll. */
  const windowSoFar = (polls: number) => ({
    from: { takenAt: at(0), uptime: 100 },
    to: { takenAt: at(polls), uptime: 100 + polls },
    windowSeconds: polls,
    serverRestarted: false,
    totals: { count: 3 * polls, totalMs: 30 * polls, classes: polls > 0 ? 1 : 0 },
    classes:
      polls > 0
        ? [
            {
              ...{
                schema: 'app',
                digest: 'd1',
                digestText: 'SELECT * FROM `t` WHERE `v` = ?',
                status: 'changed',
              },
              ...{ count: 3 * polls, totalMs: 30 * polls, avgMs: 10, lockMs: 0, errors: 0, warnings: 0 },
              ...{
                rowsAffected: 0,
                rowsSent: polls,
                rowsExamined: polls,
                examinedPerSent: 1,
                noIndexUsed: 0,
              },
              ...{
                noGoodIndexUsed: 0,
                selectFullJoin: 0,
                selectFullRangeJoin: 0,
                selectRange: 0,
                selectScan: 0,
              },
              ...{
                sortMergePasses: 0,
                sortRows: 0,
                sortScan: 0,
                sortRange: 0,
                tmpTables: 0,
                tmpDiskTables: 0,
              },
              lifetime: { maxMs: 12, p95Ms: 11, p99Ms: 12, firstSeen: at(0), lastSeen: at(polls) },
              sampleText: "SELECT * FROM t WHERE v = 'x'",
              fingerprint: null,
            },
          ]
        : [],
    overflow: null,
    digestLost: 0,
    prepared: null,
    notes: [],
  });

  function liveBridge() {
    let polls = 0;
    return fakeBridge({
      'capture.windowStart': () => ({ windowId: 'w-1', takenAt: at(0) }),
      'capture.windowPoll': () => windowSoFar(++polls),
      'capture.windowEnd': () => ({
        ended: true,
        recorded: { windowId: 3, samples: 'full', classes: 1, omitted: 0, pruned: 0 },
      }),
    });
  }

  it('a window that is not a number is an error; nothing is asked', async () => {
    const bridge = liveBridge();
    const actions: TopQueriesAction[] = [];
    const { result } = renderHook(() => useLiveCapture(bridge.api, (a) => actions.push(a), true));
    await act(() => result.current.start('c-1', 'soon'));
    expect(bridge.calls).toEqual([]);
    expect(actions).toEqual([
      { type: 'run/failed', error: expect.objectContaining({ code: 'INVALID_INPUT' }) },
    ]);
  });

  it('the table shows the live window as it refreshes: empty at its start, then the window so far after each poll', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const bridge = liveBridge();
    const actions: TopQueriesAction[] = [];
    const { result } = renderHook(() => useLiveCapture(bridge.api, (a) => actions.push(a), true));
    let running!: Promise<void>;
    act(() => {
      running = result.current.start('c-1', '40'); // 20 steps of 2 s
    });
    const windows = () => actions.filter((a) => a.type === 'live/window');
    await vi.waitFor(() => expect(windows()).toHaveLength(1));
    // Right after the first snapshot: an empty table that says since when the window runs.
    expect(windows()[0]).toMatchObject({
      list: { classes: [], events: 0 },
      window: { startedAt: at(0), seconds: 0 },
    });
    expect(bridge.requests('capture.windowPoll')).toEqual([]);
    for (let poll = 1; poll <= 2; poll++) {
      await act(() => vi.advanceTimersByTimeAsync(2000));
      await vi.waitFor(() => expect(windows()).toHaveLength(poll + 1));
      // Each poll is the whole window so far: the table shows it at once, with its start and duration.
      expect(windows()[poll]).toMatchObject({
        list: {
          events: 3 * poll,
          classes: [{ id: 'app/d1', count: 3 * poll }],
          timeline: { counts: Array(poll).fill(3) },
        },
        window: { startedAt: at(0), seconds: poll },
      });
      expect((windows()[poll] as { stepCounts: Map<string, number[]> }).stepCounts.get('app/d1')).toEqual(
        Array(poll).fill(3),
      );
    }
    expect(bridge.requests('capture.windowPoll')).toEqual([
      { connectionId: 'c-1', windowId: 'w-1' },
      { connectionId: 'c-1', windowId: 'w-1' },
    ]);
    expect(actions.filter((a) => a.type === 'live/progress').at(-1)).toMatchObject({
      live: { steps: 2, totalMs: 40_000 },
    });
    act(() => result.current.stop());
    await act(() => running);
    // Stop keeps the window so far as the table; the service stores it in the history and forgets it.
    expect(bridge.calls.map((call) => call.method).at(-1)).toBe('capture.windowEnd');
    expect(bridge.requests('capture.windowEnd')).toEqual([
      { connectionId: 'c-1', windowId: 'w-1', record: true },
    ]);
    expect(actions.find((a) => a.type === 'history/recorded')).toEqual({
      type: 'history/recorded',
      recorded: { windowId: 3, samples: 'full', classes: 1, omitted: 0, pruned: 0 },
    });
    expect(actions.some((a) => a.type === 'list/shown')).toBe(false);
    expect(actions.at(-1)).toEqual({ type: 'live/progress', live: null });
  });

  it('stop during the first step: the empty window stays, no poll is made', async () => {
    const bridge = liveBridge();
    const actions: TopQueriesAction[] = [];
    const { result } = renderHook(() => useLiveCapture(bridge.api, (a) => actions.push(a), true));
    let running!: Promise<void>;
    act(() => {
      running = result.current.start('c-1', '600');
    });
    await waitFor(() => expect(bridge.requests('capture.windowStart')).toHaveLength(1));
    act(() => result.current.stop());
    await act(() => running);
    expect(bridge.calls.map((call) => call.method)).toEqual(['capture.windowStart', 'capture.windowEnd']);
    expect(actions[0]).toEqual({ type: 'run/reset' });
    expect(actions.find((a) => a.type === 'live/window')).toMatchObject({
      list: { source: { kind: 'performance_schema' }, classes: [] },
    });
    expect(actions.at(-1)).toEqual({ type: 'live/progress', live: null });
  });

  it('unmounting aborts a running window: the loop stops asking the server', async () => {
    const bridge = liveBridge();
    const { result, unmount } = renderHook(() => useLiveCapture(bridge.api, () => undefined, true));
    let running!: Promise<void>;
    act(() => {
      running = result.current.start('c-1', '600');
    });
    await waitFor(() => expect(bridge.requests('capture.windowStart')).toHaveLength(1));
    unmount();
    await running;
    const asked = bridge.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bridge.calls.length).toBe(asked);
    expect(bridge.requests('capture.windowPoll')).toHaveLength(0);
    // A panel that went away mid-window does not store it in the history.
    expect(bridge.requests('capture.windowEnd')).toEqual([
      { connectionId: 'c-1', windowId: 'w-1', record: false },
    ]);
  });

  it('while the link is down no snapshot is taken; it starts when the link is back', async () => {
    const bridge = liveBridge();
    const actions: TopQueriesAction[] = [];
    const { result, rerender } = renderHook(
      ({ up }: { up: boolean }) => useLiveCapture(bridge.api, (a) => actions.push(a), up),
      { initialProps: { up: false } },
    );
    let running!: Promise<void>;
    act(() => {
      running = result.current.start('c-1', '600');
    });
    await waitFor(() =>
      expect(actions.some((a) => a.type === 'live/progress' && a.live?.paused === true)).toBe(true),
    );
    expect(bridge.calls).toEqual([]);
    rerender({ up: true });
    await waitFor(() => expect(bridge.requests('capture.windowStart')).toHaveLength(1), { timeout: 10_000 });
    act(() => result.current.stop());
    await act(() => running);
  });
});

describe('useRuleToggles', () => {
  it("loads the profile's disabled rules on mount and again when the profile changes", async () => {
    const bridge = fakeBridge({
      'workspace.get': (request: { profileId: string }) => ({
        workspace: { disabledRules: request.profileId === 'p-1' ? ['FUN001'] : ['CNV001', 'IDX001'] },
      }),
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor);
    const { rerender } = renderHook(({ profile }) => useRuleToggles(wb, profile), {
      initialProps: { profile: 'p-1' },
    });
    await waitFor(() => expect(wb.store.getState().disabledRules).toEqual(['FUN001']));
    rerender({ profile: 'p-2' });
    await waitFor(() => expect(wb.store.getState().disabledRules).toEqual(['CNV001', 'IDX001']));
    expect(bridge.requests('workspace.get')).toEqual([{ profileId: 'p-1' }, { profileId: 'p-2' }]);
  });

  it('a reply for the previous profile that comes late is dropped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bridge = fakeBridge({
      'workspace.get': async (request: { profileId: string }) => {
        if (request.profileId === 'slow') await gate;
        return { workspace: { disabledRules: [request.profileId] } };
      },
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor);
    const { rerender } = renderHook(({ profile }) => useRuleToggles(wb, profile), {
      initialProps: { profile: 'slow' },
    });
    rerender({ profile: 'fast' });
    await waitFor(() => expect(wb.store.getState().disabledRules).toEqual(['fast']));
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(wb.store.getState().disabledRules).toEqual(['fast']);
  });

  it('toggling saves the rule in the workspace, then analyzes with it disabled', async () => {
    const bridge = fakeBridge({
      'workspace.get': () => ({ workspace: { disabledRules: [] } }),
      'workspace.setRuleDisabled': (request: { disabled: boolean }) => ({
        workspace: { disabledRules: request.disabled ? ['FUN001'] : [] },
      }),
      'analyze.run': () => seedReport,
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor);
    const { result } = renderHook(() => useRuleToggles(wb, 'p-1'));
    act(() => result.current('FUN001', true));
    await waitFor(() => expect(bridge.requests('analyze.run')).toHaveLength(1));
    expect(bridge.calls.map((call) => call.method)).toEqual([
      'workspace.get',
      'workspace.setRuleDisabled',
      'analyze.run',
    ]);
    expect(bridge.requests('workspace.setRuleDisabled')[0]).toEqual({
      profileId: 'p-1',
      rule: 'FUN001',
      disabled: true,
    });
    expect(bridge.requests('analyze.run')[0]).toMatchObject({ disabledRules: ['FUN001'] });
  });

  it('the opt-in rule checkboxes come back from the workspace and are saved to it', async () => {
    const bridge = fakeBridge({
      'workspace.get': () => ({ workspace: { disabledRules: [], enabledRules: ['QRY001'] } }),
      'workspace.setRuleEnabled': (request: { enabled: boolean }) => ({
        workspace: { enabledRules: request.enabled ? ['QRY001'] : [] },
      }),
    });
    const wb = workbench(bridge, fakeEditor(seedQuery).editor);
    renderHook(() => useRuleToggles(wb, 'p-1'));
    await waitFor(() => expect(wb.store.getState().enabledRules).toEqual(['QRY001']));
    await act(() => setOptInRule(wb, 'p-1', 'QRY001', false));
    expect(wb.store.getState().enabledRules).toEqual([]);
    expect(bridge.requests('workspace.setRuleEnabled')).toEqual([
      { profileId: 'p-1', rule: 'QRY001', enabled: false },
    ]);
  });
});

describe('useLinkStatus', () => {
  const open: ConnectionStatus = { state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 0 };
  const down: ConnectionStatus = {
    state: 'reconnecting',
    failedAttempts: 1,
    nextAttemptInMs: 500,
    reconnects: 0,
  };

  it('offline it asks nothing; live it asks at once, then every 3 s while open and every 1 s while down', async () => {
    vi.useFakeTimers();
    let current = open;
    const bridge = fakeBridge({ 'connection.status': () => current });
    const { result, rerender } = renderHook(({ id }) => useLinkStatus(bridge.api, id), {
      initialProps: { id: null as string | null },
    });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(bridge.calls).toEqual([]);
    expect(result.current.status).toBeNull();
    rerender({ id: 'c-1' });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.status).toEqual(open);
    expect(bridge.requests('connection.status')).toEqual([{ connectionId: 'c-1' }]);
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(bridge.calls).toHaveLength(1);
    current = down;
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(bridge.calls).toHaveLength(2);
    expect(result.current.status?.state).toBe('reconnecting');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(bridge.calls).toHaveLength(3);
  });

  it('retryNow asks with retryNow; going offline stops the polling', async () => {
    vi.useFakeTimers();
    const bridge = fakeBridge({ 'connection.status': () => open });
    const { result, rerender } = renderHook(({ id }) => useLinkStatus(bridge.api, id), {
      initialProps: { id: 'c-1' as string | null },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => result.current.retryNow());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(bridge.requests('connection.status')).toEqual([
      { connectionId: 'c-1' },
      { connectionId: 'c-1', retryNow: true },
    ]);
    rerender({ id: null });
    expect(result.current.status).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(bridge.calls).toHaveLength(2);
  });
});

describe('usePolling', () => {
  it('reads at once, then every interval; one read at a time; pause, a lost link and enabled=false stop it', async () => {
    vi.useFakeTimers();
    const resolvers: Array<(value: number) => void> = [];
    const read = vi.fn(() => new Promise<number>((resolve) => resolvers.push(resolve)));
    const { result, rerender } = renderHook(({ linkUp, enabled }) => usePolling(read, { linkUp, enabled }), {
      initialProps: { linkUp: true, enabled: true },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(read).toHaveBeenCalledTimes(1);
    // The first read has not answered: the next tick and pollNow do not start a second one.
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await act(() => result.current.pollNow());
    expect(read).toHaveBeenCalledTimes(1);
    await act(async () => resolvers[0]!(7));
    expect(result.current.snapshot).toBe(7);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(read).toHaveBeenCalledTimes(2);
    await act(async () => resolvers[1]!(8));
    act(() => result.current.setIntervalSeconds(10));
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(async () => resolvers[2]!(9));
    const afterInterval = read.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(read).toHaveBeenCalledTimes(afterInterval);
    act(() => result.current.setPaused(() => true));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(read).toHaveBeenCalledTimes(afterInterval);
    rerender({ linkUp: false, enabled: true });
    act(() => result.current.setPaused(() => false));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    rerender({ linkUp: true, enabled: false });
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(read).toHaveBeenCalledTimes(afterInterval);
    expect(result.current.snapshot).toBe(9);
  });

  it('settle: after the read in flight (it may predate the action), reads again while paused until the snapshot shows the change, at most 6 reads', async () => {
    vi.useFakeTimers();
    const resolvers: Array<(value: number) => void> = [];
    const read = vi.fn(() => new Promise<number>((resolve) => resolvers.push(resolve)));
    const { result } = renderHook(() => usePolling(read));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(read).toHaveBeenCalledTimes(1);
    act(() => result.current.setPaused(() => true));
    // The first read is still in flight: settle waits for it, then reads anew (pollNow would skip).
    let settled = false;
    act(() => {
      void result.current.settle((value) => value >= 3).then(() => (settled = true));
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(read).toHaveBeenCalledTimes(1);
    await act(async () => resolvers[0]!(1));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(read).toHaveBeenCalledTimes(2);
    await act(async () => resolvers[1]!(2)); // not yet: read again after 250 ms, paused or not
    await act(() => vi.advanceTimersByTimeAsync(249));
    expect(read).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(read).toHaveBeenCalledTimes(3);
    await act(async () => resolvers[2]!(3));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.snapshot).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(settled).toBe(true);
    expect(read).toHaveBeenCalledTimes(3);

    // A change that never shows: bounded, then paused polling stays paused.
    let gaveUp = false;
    act(() => {
      void result.current.settle(() => false).then(() => (gaveUp = true));
    });
    for (let step = 0; step < 6; step++) {
      await act(() => vi.advanceTimersByTimeAsync(2500));
      await act(async () => resolvers.at(-1)!(0));
    }
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(gaveUp).toBe(true);
    expect(read).toHaveBeenCalledTimes(3 + 6);
  });

  it('a failed read is the error beside the last snapshot; the next good read clears it', async () => {
    vi.useFakeTimers();
    let fail = false;
    const read = vi.fn(async () => {
      if (fail) throw new AdvisorError('CONNECTION_LOST', 'the server went away');
      return 'ok';
    });
    const { result } = renderHook(() => usePolling(read));
    await act(() => vi.advanceTimersByTimeAsync(0));
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(result.current.snapshot).toBe('ok');
    expect(result.current.error?.message).toContain('the server went away');
    fail = false;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(result.current.error).toBeNull();
  });
});
