// Editor tabs, the session switch, finding navigation, the demo and About: commands over the editor and the store.
import { useMemo } from 'react';
import { demoExplainSql, demoExplainText, demoSchemaSql, demoTabs } from '../demo.js';
import type { Session } from '../session.js';
import { toShownError } from '../components/error-box.js';
import { analyze, showPlanReport } from './analysis.js';
import { features, type Workbench } from './context.js';
import { nextTab, tabAfterClose } from './workbench.js';

/** Open a new editor tab with `text` and make it active; returns its id. */
export function newTab(wb: Workbench, title?: string, text = ''): string {
  const tab = nextTab(wb.store.getState(), title);
  wb.editor()?.addTab(tab.id, text);
  wb.store.dispatch({ type: 'tab/opened', ...(title === undefined ? {} : { title }) });
  wb.editor()?.focus();
  return tab.id;
}

export function switchTab(wb: Workbench, tabId: string): void {
  const editor = wb.editor();
  editor?.switchTab(tabId);
  wb.store.dispatch({ type: 'tab/switched', tabId, liveKeys: editor?.liveKeys() ?? new Set() });
}

/** Close a tab (never the last one); closing the active tab shows the one before it. */
export function closeTab(wb: Workbench, tabId: string): void {
  const state = wb.store.getState();
  if (state.tabs.length <= 1) return;
  const next = tabAfterClose(state, tabId);
  if (next) switchTab(wb, next);
  wb.editor()?.closeTab(tabId);
  wb.store.dispatch({ type: 'tab/closed', tabId });
}

/** Select a finding, show it in the Findings panel and reveal it in the editor. */
export function openFinding(wb: Workbench, key: string): void {
  wb.store.dispatch({ type: 'panel/shown', panel: 'findings' });
  wb.store.dispatch({ type: 'finding/selected', key });
  wb.editor()?.reveal(key);
}

/** F8 / Shift+F8. */
export function nextFinding(wb: Workbench, direction: 1 | -1): void {
  const key = wb.editor()?.nextKey(direction);
  if (key) openFinding(wb, key);
}

/** Analyze against another target: reports and plans are dropped, the previous live connection closed. */
export async function switchSession(wb: Workbench, next: Session): Promise<void> {
  const previous = wb.store.getState().session;
  wb.store.dispatch({ type: 'session/switched', session: next });
  wb.editor()?.clearAllItems();
  wb.editor()?.focus();
  if (previous.kind === 'live' && (next.kind !== 'live' || next.connectionId !== previous.connectionId)) {
    await wb.api['connection.close']({ connectionId: previous.connectionId }).catch(() => undefined);
  }
}

/** Try it: the seeds' schema offline, the demo tabs analyzed, a pasted plan and an export. */
export async function tryDemo(wb: Workbench): Promise<void> {
  await switchSession(wb, {
    kind: 'offline',
    flavor: 'mysql',
    version: '8.0.33',
    schemaSql: demoSchemaSql,
    demo: true,
  });
  let first: string | null = null;
  for (const demo of demoTabs) {
    const id = newTab(wb, demo.title, demo.text);
    first ??= id;
  }
  if (first) switchTab(wb, first);
  await analyze(wb, 'all');
  await showPlanReport(wb, demoExplainText, 'mysql', demoExplainSql);
  wb.store.dispatch({ type: 'panel/shown', panel: 'findings' });
  if (features.export) {
    const editor = wb.editor();
    const report = editor
      ? await wb.api['analyze.run']({
          sql: editor.getText(),
          schemaSql: demoSchemaSql,
          target: { flavor: 'mysql', version: '8.0.33' },
        }).catch(() => null)
      : null;
    if (report) {
      await wb.api['workspace.addFromAnalysis']({ profileId: 'demo', report, pick: 'index-first' }).catch(
        () => undefined,
      );
      wb.store.dispatch({ type: 'export/changed' });
    }
  }
}

/** Open About and load the app's facts into it. */
export function showAbout(wb: Workbench): void {
  wb.store.dispatch({ type: 'dialog/opened', dialog: { kind: 'about' } });
  wb.api['app.info']().then(
    (value) => wb.store.dispatch({ type: 'about/loaded', info: value, error: null }),
    (error: unknown) => wb.store.dispatch({ type: 'about/loaded', info: null, error: toShownError(error) }),
  );
}

/** The tab, session and navigation commands bound to one workbench. */
export function useTabs(wb: Workbench) {
  return useMemo(
    () => ({
      newTab: (title?: string, text?: string) => newTab(wb, title, text),
      switchTab: (tabId: string) => switchTab(wb, tabId),
      closeTab: (tabId: string) => closeTab(wb, tabId),
      openFinding: (key: string) => openFinding(wb, key),
      nextFinding: (direction: 1 | -1) => nextFinding(wb, direction),
      switchSession: (next: Session) => switchSession(wb, next),
      tryDemo: () => tryDemo(wb),
      showAbout: () => showAbout(wb),
    }),
    [wb],
  );
}
