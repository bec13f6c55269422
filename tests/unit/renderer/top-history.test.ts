// The Top queries history part (state/top-history.ts): its reducer, the useTopHistory hook against a fake bridge, and the sparkline and markers it renders.
// @vitest-environment happy-dom
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { createElement, useReducer } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClassTrend, HistoryPoint, HistoryWindow } from '../../../src/core/history/index.js';
import { AdvisorError } from '../../../src/shared/errors.js';
import {
  ClassHistory,
  factorText,
  HistoryNote,
  TrendCell,
  TrendMarkers,
} from '../../../src/renderer/components/top-trends.js';
import {
  initialTopHistory,
  settingsRequest,
  topHistoryReducer,
  useTopHistory,
} from '../../../src/renderer/state/top-history.js';
import { initialTopQueries, topQueriesReducer } from '../../../src/renderer/state/top-queries.js';
import { fakeBridge } from '../../support/fake-bridge.js';

afterEach(cleanup);

const recorded = { windowId: 7, samples: 'full' as const, classes: 2, omitted: 0, pruned: 0 };

function historyWindow(id: number): HistoryWindow {
  return {
    id,
    source: 'performance_schema',
    label: '30 s window',
    profile: null,
    server: '127.0.0.1:3306',
    production: false,
    start: new Date(Date.UTC(2026, 0, 1, 10, id)).toISOString(),
    end: new Date(Date.UTC(2026, 0, 1, 10, id, 30)).toISOString(),
    recordedAt: new Date(Date.UTC(2026, 0, 1, 10, id, 31)).toISOString(),
    events: 10,
    classes: 2,
    samples: 'full',
  };
}

function point(windowId: number, count: number, p95Lifetime = false): HistoryPoint {
  return {
    windowId,
    count,
    totalSeconds: count / 100,
    avgSeconds: 0.01,
    p95: 0.02,
    p95Lifetime,
    max: 0.03,
    rowsExamined: count,
    firstSeen: null,
    lastSeen: null,
  };
}

function trend(classId: string, points: (HistoryPoint | null)[], markers: ClassTrend['markers']): ClassTrend {
  return {
    classId,
    checksum: null,
    digest: classId.split('/')[1] ?? null,
    fingerprint: 'select ?',
    points,
    markers,
  };
}

const repeating = trend('app/a', [null, point(6, 4), point(7, 9)], {
  new: false,
  regressed: { factor: 3.2, metric: 'p95' },
});
const fresh = trend('app/b', [null, null, point(7, 2)], { new: true, regressed: null });

function historyBridge() {
  return fakeBridge({
    'history.trends': () => ({ windows: [5, 6, 7].map(historyWindow), classes: [repeating, fresh] }),
    'history.class': (request: { classId: string }) => {
      if (request.classId === 'app/gone') throw new AdvisorError('NOT_FOUND', 'never stored');
      return {
        ...repeating,
        windows: [5, 6, 7].map(historyWindow),
        schemas: ['app'],
        sample: null,
      };
    },
    'history.settings': () => ({
      enabled: true,
      retentionDays: 90,
      maxWindows: 1000,
      samples: { production: 'placeholders', other: 'full' },
      file: 'history.sqlite',
    }),
    'history.setSettings': (request: { retentionDays: number }) => ({
      enabled: true,
      retentionDays: request.retentionDays,
      maxWindows: 1000,
      samples: { production: 'placeholders', other: 'full' },
      file: 'history.sqlite',
      pruned: 3,
    }),
    'history.clear': () => ({ windowsDeleted: 4 }),
  });
}

/** The hook with the panel's real reducer behind it. */
function renderHistory(bridge: ReturnType<typeof historyBridge>, selected: string | null = null) {
  return renderHook(
    ({ selectedId }: { selectedId: string | null }) => {
      const [state, dispatch] = useReducer(topQueriesReducer, initialTopQueries);
      const calls = useTopHistory(bridge.api, state.history, selectedId, dispatch);
      return { state, dispatch, calls };
    },
    { initialProps: { selectedId: selected } },
  );
}

describe('top history reducer', () => {
  it('a new run forgets the window and its trends but keeps the settings dialog', () => {
    let state = topQueriesReducer(initialTopQueries, { type: 'history/recorded', recorded });
    state = topQueriesReducer(state, {
      type: 'history/trends',
      windows: [historyWindow(7)],
      classes: [fresh],
    });
    state = topQueriesReducer(state, { type: 'history/settingsOpened' });
    expect(state.history.trends?.byClass.get('app/b')).toBe(fresh);
    state = topQueriesReducer(state, { type: 'run/reset' });
    expect(state.history).toMatchObject({ recorded: null, trends: null, detail: null, settingsOpen: true });
  });

  it('settings: numbers are checked before anything is asked', () => {
    const draft = {
      enabled: true,
      retentionDays: '30',
      maxWindows: '500',
      production: 'none',
      other: 'full',
    } as const;
    expect(settingsRequest(draft)).toEqual({
      enabled: true,
      retentionDays: 30,
      maxWindows: 500,
      samples: { production: 'none', other: 'full' },
    });
    expect(settingsRequest({ ...draft, retentionDays: '-1' })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(settingsRequest({ ...draft, maxWindows: '2.5' })).toMatchObject({ code: 'INVALID_INPUT' });
    const edited = topHistoryReducer(
      topHistoryReducer(initialTopHistory, {
        type: 'history/settingsLoaded',
        settings: {
          ...{ enabled: true, retentionDays: 90, maxWindows: 1000 },
          samples: { production: 'placeholders', other: 'full' },
          file: 'f',
        },
      }),
      { type: 'history/settingsEdited', patch: { retentionDays: '7' } },
    );
    expect(edited.draft).toEqual({
      enabled: true,
      retentionDays: '7',
      maxWindows: '1000',
      production: 'placeholders',
      other: 'full',
    });
  });
});

describe('useTopHistory', () => {
  it('nothing is asked until a window was recorded; then its trends, once', async () => {
    const bridge = historyBridge();
    const { result } = renderHistory(bridge);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bridge.calls).toEqual([]);
    act(() => result.current.dispatch({ type: 'history/recorded', recorded }));
    await waitFor(() => expect(result.current.state.history.trends).not.toBeNull());
    expect(bridge.requests('history.trends')).toEqual([{ windowId: 7, seriesWindows: 20, limit: 500 }]);
    expect(result.current.state.history.trends!.byClass.get('app/a')).toEqual(repeating);
    // A window the history did not store (recording off): no trends are asked.
    act(() =>
      result.current.dispatch({
        type: 'history/recorded',
        recorded: { ...recorded, windowId: null, skipped: 'off' },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bridge.requests('history.trends')).toHaveLength(1);
    expect(result.current.state.history.trends).toBeNull();
  });

  it("the selected class's windows are asked in the shown window's scope; a class never stored is an empty history", async () => {
    const bridge = historyBridge();
    const { result, rerender } = renderHistory(bridge, 'app/a');
    act(() => result.current.dispatch({ type: 'history/recorded', recorded }));
    await waitFor(() => expect(result.current.state.history.detail?.classId).toBe('app/a'));
    expect(bridge.requests('history.class').at(-1)).toEqual({
      classId: 'app/a',
      source: 'performance_schema',
      profile: '127.0.0.1:3306',
      seriesWindows: 100,
    });
    rerender({ selectedId: 'app/gone' });
    await waitFor(() =>
      expect(result.current.state.history.detail).toEqual({ classId: 'app/gone', reply: null }),
    );
    expect(result.current.state.history.detailError).toBeNull();
  });

  it('settings: load on open, save what was typed (pruned windows are said), refuse bad numbers, clear all', async () => {
    const bridge = historyBridge();
    const { result } = renderHistory(bridge);
    act(() => result.current.dispatch({ type: 'history/settingsOpened' }));
    await waitFor(() => expect(result.current.state.history.draft).not.toBeNull());
    expect(result.current.state.history.draft).toMatchObject({
      production: 'placeholders',
      retentionDays: '90',
    });
    await act(() =>
      result.current.calls.save({ ...result.current.state.history.draft!, retentionDays: 'x' }),
    );
    expect(bridge.requests('history.setSettings')).toEqual([]);
    expect(result.current.state.history.settingsError).toMatchObject({ code: 'INVALID_INPUT' });
    await act(() =>
      result.current.calls.save({ ...result.current.state.history.draft!, retentionDays: '7' }),
    );
    expect(bridge.requests('history.setSettings')).toEqual([
      {
        enabled: true,
        retentionDays: 7,
        maxWindows: 1000,
        samples: { production: 'placeholders', other: 'full' },
      },
    ]);
    expect(result.current.state.history.settingsNote).toBe('Saved. 3 old windows pruned.');
    await act(() => result.current.calls.clearAll());
    expect(bridge.requests('history.clear')).toEqual([{ all: true }]);
    expect(result.current.state.history.settingsNote).toBe('Cleared 4 windows.');
  });
});

describe('trend views', () => {
  it('sparklines: one dot per window the class ran in, a gap where it did not; markers say new and regressed ×N', () => {
    const { container } = render(
      createElement(
        'div',
        null,
        createElement(TrendCell, { trend: repeating }),
        createElement(TrendMarkers, { trend: repeating }),
      ),
    );
    const cell = container.querySelector('[data-testid="top-trend"]')!;
    expect(cell.getAttribute('data-points')).toBe('2');
    const count = container.querySelector('[data-testid="top-spark-count"]')!;
    expect(count.querySelectorAll('circle')).toHaveLength(2);
    expect(count.querySelectorAll('polyline')).toHaveLength(1);
    expect(count.getAttribute('aria-label')).toBe('Executions per window, oldest first: –, 4, 9');
    // In the table's cell the factor only (the words are its accessible name); in full elsewhere.
    const compact = container.querySelector('[data-testid="top-marker-regressed"]')!;
    expect(compact.textContent).toBe('×3.2');
    expect(compact.getAttribute('aria-label')).toBe('regressed ×3.2');
    expect(container.querySelector('[data-testid="top-history-marker-regressed"]')!.textContent).toBe(
      'regressed ×3.2',
    );
    expect(container.querySelector('[data-testid="top-marker-new"]')).toBeNull();
    cleanup();
    const other = render(
      createElement(
        'div',
        null,
        createElement(TrendCell, { trend: fresh }),
        createElement(TrendMarkers, { trend: fresh }),
      ),
    );
    expect(other.getByTestId('top-marker-new').textContent).toBe('new');
    expect([2.04, 9.96, 12.4, 123.6, 4200].map(factorText)).toEqual(['2.0', '10.0', '12', '124', '999+']);
    expect(other.getByTestId('top-history-marker-new').textContent).toBe('new');
    // One window: a dot, no line.
    expect(other.getByTestId('top-spark-time').querySelectorAll('polyline')).toHaveLength(0);
    expect(other.getByTestId('top-spark-time').querySelectorAll('circle')).toHaveLength(1);
  });

  it("history note: the first stored window says trends come later; a class's table lists its windows newest first", () => {
    const first = render(createElement(HistoryNote, { recorded, windows: [historyWindow(7)], error: null }));
    expect(first.getByTestId('top-history-note').textContent).toContain('first stored window');
    cleanup();
    const off = render(
      createElement(HistoryNote, {
        recorded: { ...recorded, windowId: null, skipped: 'Recording is off in the history settings.' },
        windows: null,
        error: null,
      }),
    );
    expect(off.getByTestId('top-history-note').textContent).toContain('Recording is off');
    cleanup();
    const table = render(
      createElement(ClassHistory, {
        detail: {
          classId: 'app/a',
          reply: { ...repeating, windows: [5, 6, 7].map(historyWindow), schemas: [], sample: null },
        },
        error: null,
      }),
    );
    expect(table.getByTestId('top-history-marker-regressed').textContent).toBe('regressed ×3.2');
    const rows = table.getAllByTestId('top-class-history-row');
    expect(rows.map((row) => row.querySelectorAll('td')[1]!.textContent)).toEqual(['9', '4']);
    // MySQL live windows: the p95 is the window's own (bucket deltas), the max since first seen.
    const headers = () =>
      [...document.querySelectorAll('.top__history-table th')].map((th) => th.textContent);
    expect(headers()).toEqual(['Window', 'Count', 'Total', '95th', 'Max*']);
    cleanup();
    // A window whose p95 is the digest table's QUANTILE_95 is marked.
    render(
      createElement(ClassHistory, {
        detail: {
          classId: 'app/a',
          reply: {
            ...trend('app/a', [null, point(6, 4), point(7, 9, true)], { new: false, regressed: null }),
            windows: [5, 6, 7].map(historyWindow),
            schemas: [],
            sample: null,
          },
        },
        error: null,
      }),
    );
    expect(headers()).toEqual(['Window', 'Count', 'Total', '95th*', 'Max*']);
  });
});
