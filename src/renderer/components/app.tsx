// The workbench layout: toolbar, profiles sidebar, editor tabs, bottom panels, status bar, dialogs.
/*
 * Design note: App holds no state of its own beyond the splitter height. The workbench state is one
 * reducer (state/workbench.ts) in a store (state/store.ts); what talks to the API or the editor is a
 * command in state/analysis.ts, state/tabs.ts or state/suggestions.ts, bound through the hooks
 * useAnalysis / useTabs / useRuleToggles. App wires them to the layout's components.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { Listen } from '../../shared/events.js';
import { shortcutLabel, useTheme } from '../platform.js';
import { useLinkStatus } from '../link-status.js';
import { initialSession, liveSession, profileId } from '../session.js';
import type { SqlEditor } from '../sql-editor.js';
import { useAnalysis } from '../state/analysis.js';
import type { Workbench } from '../state/context.js';
import { createStore, useStore } from '../state/store.js';
import { useRuleToggles } from '../state/suggestions.js';
import { useTabs } from '../state/tabs.js';
import {
  activeAnalysis,
  analysisSummary,
  firstTab,
  initialWorkbench,
  liveOf,
  workbenchReducer,
} from '../state/workbench.js';
import { paletteCommands, type ShortcutKeys } from './app-commands.js';
import { AppToolbar } from './app-toolbar.js';
import { ConnectionBanner } from './connection-banner.js';
import { NoticeArea } from './notice-area.js';
import { EditorPane } from './editor-pane.js';
import { EditorTabs } from './editor-tabs.js';
import { ProfilesSidebar } from './profiles-sidebar.js';
import { Splitter } from './splitter.js';
import { StatusBar } from './status-bar.js';
import { WorkbenchDialogs } from './workbench-dialogs.js';
import { WorkbenchPanels } from './workbench-panels.js';

/** The text a new window starts with: what to do, and the seeds' query. */
export const initialSql = `-- Paste a query and press Ctrl+Enter (Cmd+Enter on macOS) to analyze it; Ctrl+E shows its plan.
-- Connect… to read the schema from a server, work offline with CREATE TABLE statements, or choose Try it.
-- Ctrl+Shift+P lists every action.
SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;
`;

/** The whole UI. */
/** The panels' default share of the window's height, and on Top queries. */
const PANEL_SHARE = 0.4;
const TOP_PANEL_SHARE = 0.62;

export function App({ api, listen }: { api: AdvisorApi; listen: Listen }) {
  const theme = useTheme();
  const { dark } = theme;
  const keys = useMemo<ShortcutKeys>(
    () => ({
      analyze: shortcutLabel({ key: 'Enter', mod: true }),
      analyzeAll: shortcutLabel({ key: 'Enter', mod: true, shift: true }),
      explain: shortcutLabel({ key: 'E', mod: true }),
      palette: shortcutLabel({ key: 'P', mod: true, shift: true }),
      quickFix: shortcutLabel({ key: '.', mod: true }),
    }),
    [],
  );
  const editor = useRef<SqlEditor | null>(null);
  const wb = useMemo<Workbench>(
    () => ({
      api,
      listen,
      store: createStore(workbenchReducer, initialWorkbench()),
      editor: () => editor.current,
      analyzing: false,
    }),
    [api, listen],
  );
  const state = useStore(wb.store);
  const { dispatch } = wb.store;
  const run = useAnalysis(wb);
  const tabs = useTabs(wb);
  const toggleRule = useRuleToggles(wb, profileId(state.session));
  // The panels' height: the user's once the splitter was moved; until then 40 % of the window, and
  // 62 % on Top queries (its toolbar, chart and table need the room: 8+ rows at 1280×800).
  const [draggedHeight, setPanelHeight] = useState<number | null>(null);
  const panelHeight =
    draggedHeight ?? Math.round(window.innerHeight * (state.panel === 'top' ? TOP_PANEL_SHARE : PANEL_SHARE));
  const openPalette = () => dispatch({ type: 'dialog/opened', dialog: { kind: 'palette' } });

  // Global shortcuts outside the editor (Monaco handles them inside and marks the event handled).
  const dialogOpen = state.dialog !== null;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || dialogOpen) return;
      const mod = event.ctrlKey || event.metaKey;
      if (event.key === 'Enter' && mod) void run.analyze(event.shiftKey ? 'all' : 'statement');
      else if (mod && !event.shiftKey && event.key.toLowerCase() === 'e') void run.explain(false);
      else if (mod && event.shiftKey && event.key.toLowerCase() === 'p')
        dispatch({ type: 'dialog/opened', dialog: { kind: 'palette' } });
      else if (event.key === 'F8') tabs.nextFinding(event.shiftKey ? -1 : 1);
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [run, tabs, dispatch, dialogOpen]);

  const editorEvents = useMemo(
    () => ({
      onAnalyze: () => void run.analyze('statement'),
      onAnalyzeAll: () => void run.analyze('all'),
      onExplain: () => void run.explain(false),
      onNextFinding: (direction: 1 | -1) => tabs.nextFinding(direction),
      onPalette: () => dispatch({ type: 'dialog/opened', dialog: { kind: 'palette' } }),
      onEdit: () => dispatch({ type: 'editor/edited', liveKeys: editor.current?.liveKeys() ?? new Set() }),
      onCursor: (line: number, column: number) => dispatch({ type: 'editor/cursor', line, column }),
    }),
    [run, tabs, dispatch],
  );

  const live = liveOf(state);
  const link = useLinkStatus(api, live?.connectionId ?? null);
  const analysis = activeAnalysis(state);
  const commands = paletteCommands(wb, state, keys, run, tabs, theme);

  return (
    <div className="app">
      <AppToolbar
        theme={theme}
        session={state.session}
        keys={keys}
        analyzing={analysis.status === 'running'}
        onConnect={() => dispatch({ type: 'dialog/opened', dialog: { kind: 'connect' } })}
        onDisconnect={() => void tabs.switchSession(initialSession())}
        onDemo={() => void tabs.tryDemo()}
        onPalette={openPalette}
        onExplain={() => void run.explain(false)}
        onAnalyzeAll={() => void run.analyze('all')}
      />
      <ProfilesSidebar
        api={api}
        activeProfileId={live?.profile?.id ?? null}
        onConnected={(connection) =>
          void tabs.switchSession(liveSession(connection.result, connection.allowWhatIf, connection.profile))
        }
        onManage={(profileId) =>
          dispatch({ type: 'dialog/opened', dialog: { kind: 'connect', tab: 'profiles', profileId } })
        }
      />
      <ConnectionBanner
        status={link.status}
        label={live?.label ?? ''}
        onRetry={link.retryNow}
        onReconnect={() => dispatch({ type: 'dialog/opened', dialog: { kind: 'connect', tab: 'profiles' } })}
      />
      <NoticeArea api={api} />
      <main className="workbench" style={{ gridTemplateRows: `minmax(150px, 1fr) auto ${panelHeight}px` }}>
        <div className="editor-area">
          <EditorTabs
            tabs={state.tabs}
            activeTab={state.activeTab}
            onSwitch={tabs.switchTab}
            onClose={tabs.closeTab}
            onNew={() => void tabs.newTab()}
          />
          <EditorPane
            initialTab={{ id: firstTab.id, text: initialSql }}
            dark={dark}
            api={api}
            session={state.session}
            events={editorEvents}
            onReady={(instance) => {
              editor.current = instance;
            }}
          />
        </div>
        <Splitter height={panelHeight} onResize={setPanelHeight} />
        <WorkbenchPanels
          wb={wb}
          state={state}
          keys={keys}
          dark={dark}
          linkUp={link.status === null || link.status.state === 'open'}
          run={run}
          tabs={tabs}
          toggleRule={toggleRule}
        />
      </main>
      <StatusBar
        session={state.session}
        cursor={state.cursor}
        summary={analysisSummary(analysis)}
        link={link.status}
      />
      <WorkbenchDialogs wb={wb} state={state} commands={commands} run={run} tabs={tabs} />
    </div>
  );
}
