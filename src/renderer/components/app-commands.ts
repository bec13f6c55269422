// The command palette's list: every workbench action, with its shortcut and why it is unavailable now.
import type { ThemePreference } from '../platform.js';
import { initialSession } from '../session.js';
import type { useAnalysis } from '../state/analysis.js';
import { features, type Workbench } from '../state/context.js';
import { applyDdlCommand } from '../state/suggestions.js';
import type { useTabs } from '../state/tabs.js';
import { liveOf, type PanelId, type WorkbenchState } from '../state/workbench.js';
import type { Command } from './command-palette.js';

/** Shortcut labels for this platform (`Ctrl+E` or `⌘E`). */
export interface ShortcutKeys {
  analyze: string;
  analyzeAll: string;
  explain: string;
  palette: string;
  quickFix: string;
}

/** The palette's commands for the current state. */
export function paletteCommands(
  wb: Workbench,
  state: WorkbenchState,
  keys: ShortcutKeys,
  run: ReturnType<typeof useAnalysis>,
  tabs: ReturnType<typeof useTabs>,
  /** The toolbar's theme switch (System → Light → Dark). */
  theme?: { preference: ThemePreference; cycle(): void },
): Command[] {
  const live = liveOf(state);
  const dispatch = wb.store.dispatch;
  const show = (panel: PanelId) => () => dispatch({ type: 'panel/shown', panel });
  return [
    {
      id: 'analyze',
      title: 'Analyze statement at cursor',
      shortcut: keys.analyze,
      run: () => void run.analyze('statement'),
    },
    {
      id: 'analyze-all',
      title: 'Analyze all statements in the tab',
      shortcut: keys.analyzeAll,
      run: () => void run.analyze('all'),
    },
    {
      id: 'explain',
      title: live ? 'EXPLAIN statement at cursor' : 'EXPLAIN: paste EXPLAIN output (offline)',
      shortcut: keys.explain,
      run: () => void run.explain(false),
    },
    {
      id: 'explain-analyze',
      title: 'EXPLAIN ANALYZE statement at cursor (executes it)…',
      ...(!live
        ? { disabledReason: 'Connect to a server first' }
        : !live.server.capabilities.explainAnalyze && !live.server.capabilities.analyzeFormatJson
          ? { disabledReason: 'This server has no EXPLAIN ANALYZE' }
          : {}),
      run: run.confirmExplainAnalyze,
    },
    {
      id: 'paste-explain',
      title: 'Paste EXPLAIN output…',
      run: () => dispatch({ type: 'dialog/opened', dialog: { kind: 'paste' } }),
    },
    { id: 'next-finding', title: 'Next finding', shortcut: 'F8', run: () => tabs.nextFinding(1) },
    {
      id: 'previous-finding',
      title: 'Previous finding',
      shortcut: 'Shift+F8',
      run: () => tabs.nextFinding(-1),
    },
    {
      id: 'quick-fix',
      title: 'Quick fix at cursor (apply a rewrite)',
      shortcut: keys.quickFix,
      run: () => wb.editor()?.trigger('editor.action.quickFix'),
    },
    { id: 'new-tab', title: 'New editor tab', run: () => void tabs.newTab() },
    {
      id: 'close-tab',
      title: 'Close editor tab',
      ...(state.tabs.length <= 1 ? { disabledReason: 'The last tab stays open' } : {}),
      run: () => tabs.closeTab(state.activeTab),
    },
    {
      id: 'connect',
      title: live ? 'Change connection…' : 'Connect…',
      run: () => dispatch({ type: 'dialog/opened', dialog: { kind: 'connect' } }),
    },
    ...(live
      ? [{ id: 'disconnect', title: 'Disconnect', run: () => void tabs.switchSession(initialSession()) }]
      : []),
    {
      id: 'manage-profiles',
      title: 'Manage profiles…',
      run: () => dispatch({ type: 'dialog/opened', dialog: { kind: 'connect', tab: 'profiles' } }),
    },
    {
      id: 'apply-ddl',
      title: 'Apply DDL… (selected suggestion or the Export script)',
      ...(live ? {} : { disabledReason: 'Connect to a server first' }),
      run: () => applyDdlCommand(wb),
    },
    { id: 'demo', title: 'Try it: load the demo (no server needed)', run: () => void tabs.tryDemo() },
    { id: 'panel-findings', title: 'Show Findings panel', run: show('findings') },
    { id: 'panel-plan', title: 'Show Plan panel', run: show('plan') },
    ...(features.indexes
      ? [{ id: 'panel-indexes', title: 'Show Indexes panel (index plan, index set)', run: show('indexes') }]
      : []),
    ...(features.top
      ? [{ id: 'panel-top', title: 'Show Top queries panel (slow log, live digests)', run: show('top') }]
      : []),
    ...(features.locks ? [{ id: 'panel-locks', title: 'Show Locks panel', run: show('locks') }] : []),
    ...(features.modes
      ? [{ id: 'panel-modes', title: 'Show Modes panel (sql_mode)', run: show('modes') }]
      : []),
    ...(features.export ? [{ id: 'panel-export', title: 'Show Export panel', run: show('export') }] : []),
    ...(features.run
      ? [{ id: 'panel-run', title: 'Show Run panel (read-only result grid)', run: show('run') }]
      : []),
    ...(features.sqlFile
      ? [{ id: 'panel-file', title: 'Analyse a large SQL file (SQL file panel)…', run: show('file') }]
      : []),
    {
      id: 'palette',
      title: 'Command palette',
      shortcut: keys.palette,
      run: () => dispatch({ type: 'dialog/opened', dialog: { kind: 'palette' } }),
    },
    { id: 'about', title: 'About Sargable', run: tabs.showAbout },
    ...(theme
      ? [
          {
            id: 'theme',
            title: `Theme: switch to ${({ system: 'light', light: 'dark', dark: 'the system setting' } as const)[theme.preference]}`,
            run: theme.cycle,
          },
        ]
      : []),
  ];
}
