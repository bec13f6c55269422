// The workbench: toolbar, editor tabs, bottom panels (Findings, Plan, Modes, Export), status bar, dialogs, palette.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AdvisorApi, AppInfo, OpenResult } from '../../shared/api.js';
import { apiMethods, type ApiMethod } from '../../shared/methods.js';
import type { WhatIfReply } from '../../shared/api/explain.js';
import { servedSql, type AnalysisReport, type Finding, type Suggestion } from '../../core/model/report.js';
import { demoExplainSql, demoExplainText, demoSchemaSql, demoTabs } from '../demo.js';
import { isReadOnlyQuery, isolateStatement, statementAt } from '../plan-view.js';
import { shortcutLabel, usePrefersDark } from '../platform.js';
import { reportItems, severityCounts, type ReportItem } from '../report-items.js';
import {
  analyzeRequest,
  initialSession,
  liveSession,
  productionName,
  profileId,
  targetLabel,
  type Session,
} from '../session.js';
import type { SqlEditor } from '../sql-editor.js';
import { CommandPalette, type Command } from './command-palette.js';
import { ConnectionDialog, type ConnectionDialogTab } from './connection-dialog.js';
import { ConnectionBanner } from './connection-banner.js';
import { ProfilesSidebar } from './profiles-sidebar.js';
import { ApplyDdlDialog, ddlStatements, type DdlOutcome } from './apply-ddl-dialog.js';
import { useLinkStatus } from '../link-status.js';
import { EditorPane } from './editor-pane.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { ExportPanel } from './export-panel.js';
import { FindingsPanel, type SuggestionActions } from './findings-panel.js';
import { AboutDialog, ConfirmDialog, FillPlaceholdersDialog, PasteExplainDialog } from './modal.js';
import { fillPlaceholders, placeholderOffsets } from '../placeholders.js';
import { LocksPanel } from './locks-panel.js';
import { ModesPanel } from './modes-panel.js';
import { PlanPanel, type PlanState } from './plan-panel.js';
import { StatusBar } from './status-bar.js';
import { TopQueriesPanel } from './top-queries-panel.js';
import { WhatIfDialog, type WhatIfTarget } from './what-if-dialog.js';

/** The text a new window starts with: what to do, and the seeds' query. */
export const initialSql = `-- Paste a query and press Ctrl+Enter (Cmd+Enter on macOS) to analyze it; Ctrl+E shows its plan.
-- Connect… to read the schema from a server, work offline with CREATE TABLE statements, or choose Try it.
-- Ctrl+Shift+P lists every action.
SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;
`;

type Analysis =
  | { status: 'idle' }
  | { status: 'running' }
  | {
      status: 'done';
      report: AnalysisReport;
      items: ReportItem[];
      durationMs: number;
      stale: boolean;
      scope: 'statement' | 'all';
    }
  | { status: 'failed'; error: ShownError };

/** Bottom-area panels; a panel exists only when its API methods do. */
type PanelId = 'findings' | 'plan' | 'top' | 'locks' | 'modes' | 'export';

type Dialog =
  | null
  | { kind: 'connect'; tab?: ConnectionDialogTab; profileId?: string | null }
  | { kind: 'palette' }
  | { kind: 'about' }
  | { kind: 'paste' }
  | { kind: 'analyze-confirm'; sql: string }
  | { kind: 'placeholders'; sql: string; offset: number; offsets: number[]; analyze: boolean }
  | { kind: 'what-if'; target: WhatIfTarget; key: string }
  | { kind: 'apply-ddl'; statements: string[]; key: string };

interface Tab {
  id: string;
  title: string;
}

const idle: Analysis = { status: 'idle' };
const firstTab: Tab = { id: 'tab-1', title: 'Query 1' };

/** True when this build's API has the method (the method list has no dependencies, unlike shared/api). */
function hasMethod(name: string): boolean {
  return (apiMethods as readonly string[]).includes(name as ApiMethod);
}

/** Panels whose methods exist in this build. */
const hasModes = hasMethod('sqlmode.view') && hasMethod('sqlmode.upgrade');
const hasTop = hasMethod('digest.start') && hasMethod('job.status') && hasMethod('job.cancel');
const hasLocks = hasMethod('locks.poll') && hasMethod('locks.kill');
const hasExport = hasMethod('workspace.get') && hasMethod('export.preview');
const hasRuleToggles = hasMethod('workspace.get') && hasMethod('workspace.setRuleDisabled');

/** The whole UI. */
export function App({ api }: { api: AdvisorApi }) {
  const dark = usePrefersDark();
  const keys = useMemo(
    () => ({
      analyze: shortcutLabel({ key: 'Enter', mod: true }),
      analyzeAll: shortcutLabel({ key: 'Enter', mod: true, shift: true }),
      explain: shortcutLabel({ key: 'E', mod: true }),
      palette: shortcutLabel({ key: 'P', mod: true, shift: true }),
      quickFix: shortcutLabel({ key: '.', mod: true }),
    }),
    [],
  );
  const [session, setSession] = useState<Session>(initialSession);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tabs, setTabs] = useState<Tab[]>([firstTab]);
  const [activeTab, setActiveTab] = useState(firstTab.id);
  const [analyses, setAnalyses] = useState<Record<string, Analysis>>({});
  const [liveKeys, setLiveKeys] = useState<Set<string>>(new Set());
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [cursor, setCursor] = useState({ line: 1, column: 1 });
  const [panel, setPanel] = useState<PanelId>('findings');
  const [topKept, setTopKept] = useState(false);
  const [ddlOutcomes, setDdlOutcomes] = useState<Record<string, DdlOutcome>>({});
  /** Bumped by the palette's Apply DDL when no suggestion is selected: the Export panel opens its confirmation. */
  const [exportApplyRequest, setExportApplyRequest] = useState(0);
  if (panel === 'top' && !topKept) setTopKept(true);
  const [plan, setPlan] = useState<PlanState>({ status: 'idle' });
  const [verifications, setVerifications] = useState<Record<string, WhatIfReply>>({});
  const [accepted, setAccepted] = useState<Set<string>>(new Set());
  /** Rules disabled in the current profile's workspace (passed to every analysis). */
  const [disabledRules, setDisabledRules] = useState<string[]>([]);
  const disabledRulesRef = useRef(disabledRules);
  disabledRulesRef.current = disabledRules;
  const [exportRevision, setExportRevision] = useState(0);
  const [info, setInfo] = useState<{ info: AppInfo | null; error: ShownError | null }>({
    info: null,
    error: null,
  });
  const [panelHeight, setPanelHeight] = useState(() => Math.round(window.innerHeight * 0.4));
  const editor = useRef<SqlEditor | null>(null);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const currentProfile = profileId(session);
  const analyzeRef = useRef<
    ((scope: 'statement' | 'all', options?: { showPanel?: boolean }) => Promise<void>) | null
  >(null);
  useEffect(() => {
    if (!hasRuleToggles) return;
    let cancelled = false;
    api['workspace.get']({ profileId: currentProfile }).then(
      ({ workspace }) => {
        if (!cancelled) setDisabledRules(workspace.disabledRules ?? []);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [api, currentProfile]);
  const toggleRule = useCallback(
    (rule: string, disabled: boolean) => {
      api['workspace.setRuleDisabled']({ profileId: currentProfile, rule, disabled }).then(
        ({ workspace }) => {
          setDisabledRules(workspace.disabledRules ?? []);
          disabledRulesRef.current = workspace.disabledRules ?? [];
          void analyzeRef.current?.('all', { showPanel: true });
        },
        () => undefined,
      );
    },
    [api, currentProfile],
  );
  const activeRef = useRef(activeTab);
  activeRef.current = activeTab;
  const running = useRef(false);
  const tabCounter = useRef(1);

  const analysis = analyses[activeTab] ?? idle;
  const items = analysis.status === 'done' ? analysis.items : [];

  const setTabAnalysis = useCallback((tabId: string, next: Analysis | ((current: Analysis) => Analysis)) => {
    setAnalyses((current) => ({
      ...current,
      [tabId]: typeof next === 'function' ? next(current[tabId] ?? idle) : next,
    }));
  }, []);

  const analyze = useCallback(
    async (scope: 'statement' | 'all', options: { showPanel?: boolean } = {}) => {
      const instance = editor.current;
      if (!instance || running.current) return;
      running.current = true;
      const tabId = activeRef.current;
      setTabAnalysis(tabId, { status: 'running' });
      setSelectedKey(null);
      if (options.showPanel !== false) setPanel('findings');
      const started = performance.now();
      const text = instance.getText();
      const slice = scope === 'statement' ? statementAt(text, instance.cursorOffset()) : null;
      const sql = slice ? isolateStatement(text, slice) : text;
      try {
        const request = analyzeRequest(sessionRef.current, sql);
        if (disabledRulesRef.current.length > 0) request.disabledRules = disabledRulesRef.current;
        const report = await api['analyze.run'](request);
        const reported = reportItems(report);
        if (activeRef.current === tabId) {
          instance.showItems(reported);
          setLiveKeys(instance.liveKeys());
        }
        setTabAnalysis(tabId, {
          status: 'done',
          report,
          items: reported,
          durationMs: performance.now() - started,
          stale: false,
          scope: slice ? 'statement' : 'all',
        });
      } catch (caught) {
        if (activeRef.current === tabId) instance.showItems([]);
        setTabAnalysis(tabId, { status: 'failed', error: toShownError(caught) });
      } finally {
        running.current = false;
      }
    },
    [api, setTabAnalysis],
  );
  analyzeRef.current = analyze;

  const showPlanReport = useCallback(
    async (
      text: string,
      flavor: 'mysql' | 'mariadb' | undefined,
      sql: string | null,
    ): Promise<ShownError | null> => {
      try {
        const report = await api['explain.parse']({ text, ...(flavor ? { flavor } : {}) });
        const fromText = /explain\s+(?:format\s*=\s*\w+\s+)?(?:analyze\s+)?([\s\S]+?)\s*(?:\\G|;)\s*$/im.exec(
          text,
        );
        setPlan({
          status: 'done',
          source: 'pasted',
          sql: sql ?? fromText?.[1]?.trim() ?? null,
          report,
          raw: { pasted: text },
          analyzed: report.format === 'analyze' || report.format === 'analyze-json',
        });
        setPanel('plan');
        return null;
      } catch (caught) {
        return toShownError(caught);
      }
    },
    [api],
  );

  const explain = useCallback(
    async (analyzeIt: boolean) => {
      const instance = editor.current;
      const current = sessionRef.current;
      if (!instance) return;
      if (current.kind !== 'live') {
        setDialog({ kind: 'paste' });
        return;
      }
      setPanel('plan');
      const slice = statementAt(instance.getText(), instance.cursorOffset());
      if (!slice) {
        setPlan({
          status: 'failed',
          error: { code: 'INVALID_INPUT', message: 'Put the cursor in a statement to EXPLAIN it.' },
        });
        return;
      }
      if (analyzeIt && !isReadOnlyQuery(slice.sql)) {
        setPlan({
          status: 'failed',
          error: {
            code: 'INVALID_INPUT',
            message:
              'EXPLAIN ANALYZE runs the statement, so Sargable only allows it for plain SELECT queries.',
            hint: 'Use EXPLAIN (without ANALYZE) for this statement: it is never executed.',
          },
        });
        return;
      }
      const placeholders = placeholderOffsets(slice.sql);
      if (placeholders.length > 0) {
        // Captured digests and prepared statements carry ? placeholders: ask for values first.
        setDialog({
          kind: 'placeholders',
          sql: slice.sql,
          offset: slice.offset,
          offsets: placeholders,
          analyze: analyzeIt,
        });
        return;
      }
      instance.selectOffsets(slice.offset, slice.offset + slice.sql.length);
      setPlan({ status: 'running', analyze: analyzeIt });
      // Findings explain bad plan nodes: analyze too when this tab has no fresh report.
      const tabAnalysis = analyses[activeRef.current];
      if (tabAnalysis?.status !== 'done' || tabAnalysis.stale) void analyze('all', { showPanel: false });
      try {
        const reply = await api['explain.run']({
          connectionId: current.connectionId,
          sql: slice.sql,
          ...(analyzeIt ? { analyze: true } : {}),
        });
        setPlan({
          status: 'done',
          source: 'server',
          sql: reply.sql,
          report: reply.report,
          raw: reply.raw,
          analyzed: analyzeIt,
        });
      } catch (caught) {
        setPlan({ status: 'failed', error: toShownError(caught) });
      }
    },
    [api, analyses, analyze],
  );

  const confirmExplainAnalyze = useCallback(() => {
    const instance = editor.current;
    if (!instance || sessionRef.current.kind !== 'live') return;
    const slice = statementAt(instance.getText(), instance.cursorOffset());
    if (!slice) return;
    setDialog({ kind: 'analyze-confirm', sql: slice.sql });
  }, []);

  const openFinding = useCallback((key: string) => {
    setPanel('findings');
    setSelectedKey(key);
    editor.current?.reveal(key);
  }, []);

  const nextFinding = useCallback(
    (direction: 1 | -1) => {
      const key = editor.current?.nextKey(direction);
      if (key) openFinding(key);
    },
    [openFinding],
  );

  const newTab = useCallback((title?: string, text = '') => {
    tabCounter.current += 1;
    const tab: Tab = { id: `tab-${tabCounter.current}`, title: title ?? `Query ${tabCounter.current}` };
    setTabs((current) => [...current, tab]);
    editor.current?.addTab(tab.id, text);
    activeRef.current = tab.id;
    setActiveTab(tab.id);
    setLiveKeys(new Set());
    setSelectedKey(null);
    editor.current?.focus();
    return tab.id;
  }, []);

  const switchTab = useCallback((id: string) => {
    editor.current?.switchTab(id);
    activeRef.current = id;
    setActiveTab(id);
    setLiveKeys(editor.current?.liveKeys() ?? new Set());
    setSelectedKey(null);
  }, []);

  const closeTab = useCallback(
    (id: string) => {
      if (tabs.length <= 1) return;
      const index = tabs.findIndex((tab) => tab.id === id);
      const remaining = tabs.filter((tab) => tab.id !== id);
      if (id === activeTab) switchTab((remaining[Math.max(0, index - 1)] ?? remaining[0])!.id);
      editor.current?.closeTab(id);
      setTabs(remaining);
      setAnalyses(({ [id]: _dropped, ...rest }) => rest);
    },
    [tabs, activeTab, switchTab],
  );

  async function switchSession(next: Session) {
    const previous = sessionRef.current;
    setSession(next);
    sessionRef.current = next;
    setDialog(null);
    // Reports and plans made for another target no longer apply.
    editor.current?.clearAllItems();
    setAnalyses({});
    setLiveKeys(new Set());
    setPlan({ status: 'idle' });
    setVerifications({});
    setAccepted(new Set());
    editor.current?.focus();
    if (previous.kind === 'live' && (next.kind !== 'live' || next.connectionId !== previous.connectionId)) {
      await api['connection.close']({ connectionId: previous.connectionId }).catch(() => undefined);
    }
  }

  const tryDemo = useCallback(async () => {
    await switchSession({
      kind: 'offline',
      flavor: 'mysql',
      version: '8.0.33',
      schemaSql: demoSchemaSql,
      demo: true,
    });
    let first: string | null = null;
    for (const demo of demoTabs) {
      const id = newTab(demo.title, demo.text);
      first ??= id;
    }
    if (first) switchTab(first);
    await analyze('all');
    await showPlanReport(demoExplainText, 'mysql', demoExplainSql);
    setPanel('findings');
    if (hasExport) {
      const report = editor.current
        ? await api['analyze.run']({
            sql: editor.current.getText(),
            schemaSql: demoSchemaSql,
            target: { flavor: 'mysql', version: '8.0.33' },
          }).catch(() => null)
        : null;
      if (report) {
        await api['workspace.addFromAnalysis']({ profileId: 'demo', report, pick: 'index-first' }).catch(
          () => undefined,
        );
        setExportRevision((value) => value + 1);
      }
    }
    // switchSession is recreated each render; the demo only needs the current one.
  }, [analyze, api, newTab, showPlanReport, switchTab]);

  const showAbout = useCallback(() => {
    setDialog({ kind: 'about' });
    api['app.info']().then(
      (value) => setInfo({ info: value, error: null }),
      (error: unknown) => setInfo({ info: null, error: toShownError(error) }),
    );
  }, [api]);

  // Global shortcuts outside the editor (Monaco handles them inside and marks the event handled).
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || dialog) return;
      const mod = event.ctrlKey || event.metaKey;
      if (event.key === 'Enter' && mod) void analyze(event.shiftKey ? 'all' : 'statement');
      else if (mod && !event.shiftKey && event.key.toLowerCase() === 'e') void explain(false);
      else if (mod && event.shiftKey && event.key.toLowerCase() === 'p') setDialog({ kind: 'palette' });
      else if (event.key === 'F8') nextFinding(event.shiftKey ? -1 : 1);
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [analyze, explain, nextFinding, dialog]);

  const editorEvents = useMemo(
    () => ({
      onAnalyze: () => void analyze('statement'),
      onAnalyzeAll: () => void analyze('all'),
      onExplain: () => void explain(false),
      onNextFinding: (direction: 1 | -1) => nextFinding(direction),
      onPalette: () => setDialog({ kind: 'palette' }),
      onEdit: () => {
        setLiveKeys(editor.current?.liveKeys() ?? new Set());
        setTabAnalysis(activeRef.current, (current) =>
          current.status === 'done' && !current.stale ? { ...current, stale: true } : current,
        );
      },
      onCursor: (line: number, column: number) => setCursor({ line, column }),
    }),
    [analyze, explain, nextFinding, setTabAnalysis],
  );

  const live = session.kind === 'live' ? session : null;
  const link = useLinkStatus(api, live?.connectionId ?? null);
  const verifyBlocked = !live
    ? 'Verify needs a server: connect with “Allow what-if indexes (sandbox)” checked.'
    : !live.allowWhatIf
      ? 'This connection was not opened as a sandbox: reconnect with “Allow what-if indexes (sandbox)” checked to verify.'
      : !live.server.database
        ? 'Choose a default database for this connection to verify.'
        : null;

  function findItem(
    key: string,
  ): { item: Extract<ReportItem, { kind: 'finding' }>; report: AnalysisReport } | null {
    if (analysis.status !== 'done') return null;
    const item = analysis.items.find((candidate) => candidate.key === key);
    return item?.kind === 'finding' ? { item, report: analysis.report } : null;
  }

  function openApplyDdl(itemKey: string, index: number): void {
    const suggestion = findItem(itemKey)?.item.finding.suggestions[index];
    if (!suggestion || !live || suggestion.ddl.length === 0) return;
    setDialog({ kind: 'apply-ddl', statements: ddlStatements(suggestion.ddl), key: `${itemKey}#${index}` });
  }

  /** Palette: the selected finding's first DDL suggestion, else the Export panel's script. */
  function applyDdlCommand(): void {
    const found = selectedKey ? findItem(selectedKey) : null;
    const index =
      found?.item.finding.suggestions.findIndex((s) => s.kind !== 'rewrite' && s.ddl.length > 0) ?? -1;
    if (found && index >= 0) {
      setPanel('findings');
      openApplyDdl(found.item.key, index);
      return;
    }
    setPanel('export');
    setExportApplyRequest((value) => value + 1);
  }

  const suggestionActions: SuggestionActions = {
    verifyBlocked,
    verifications,
    accepted,
    applyBlocked: live ? null : 'Apply DDL needs a live connection to the server.',
    onApplyDdl: openApplyDdl,
    ddlOutcomes,
    onVerify(itemKey, index) {
      const found = findItem(itemKey);
      const suggestion = found?.item.finding.suggestions[index];
      const statement = found?.report.statements.find((entry) => entry.index === found.item.statementIndex);
      if (!found || !suggestion || !statement || !live || !found.item.finding.table) return;
      setDialog({
        kind: 'what-if',
        key: `${itemKey}#${index}`,
        target: {
          connectionId: live.connectionId,
          production: productionName(session),
          invisible: live.server.capabilities.invisibleIndexes,
          sql: statement.sql,
          table: found.item.finding.table,
          // A plain index for an exact rewrite is verified on the rewritten query it serves.
          suggestion: withServedSql(found.item.finding, suggestion),
        },
      });
    },
    onApplyRewrite(itemKey, rewrittenSql) {
      editor.current?.applyRewrite(itemKey, rewrittenSql);
    },
    originalSql(itemKey) {
      const found = findItem(itemKey);
      return found?.report.statements.find((entry) => entry.index === found.item.statementIndex)?.sql;
    },
    dark,
    onAccept: hasExport
      ? (itemKey, index) => {
          const found = findItem(itemKey);
          const suggestion = found?.item.finding.suggestions[index];
          const statement = found?.report.statements.find(
            (entry) => entry.index === found.item.statementIndex,
          );
          if (!found || !suggestion || !statement) return;
          // A what-if run in this session travels with the suggestion, so the item keeps its record.
          const record = verifications[`${itemKey}#${index}`]?.record;
          const kept = record ? { ...suggestion, verification: record } : suggestion;
          const report: AnalysisReport = {
            server: found.report.server,
            errors: [],
            statements: [{ ...statement, findings: [{ ...found.item.finding, suggestions: [kept] }] }],
          };
          api['workspace.addFromAnalysis']({
            profileId: profileId(session),
            report,
            pick: suggestion.kind,
          }).then(
            () => {
              setAccepted((current) => new Set(current).add(`${itemKey}#${index}`));
              setExportRevision((value) => value + 1);
            },
            (error: unknown) => setTabAnalysis(activeTab, { status: 'failed', error: toShownError(error) }),
          );
        }
      : null,
  };

  const commands: Command[] = [
    {
      id: 'analyze',
      title: 'Analyze statement at cursor',
      shortcut: keys.analyze,
      run: () => void analyze('statement'),
    },
    {
      id: 'analyze-all',
      title: 'Analyze all statements in the tab',
      shortcut: keys.analyzeAll,
      run: () => void analyze('all'),
    },
    {
      id: 'explain',
      title: live ? 'EXPLAIN statement at cursor' : 'EXPLAIN: paste EXPLAIN output (offline)',
      shortcut: keys.explain,
      run: () => void explain(false),
    },
    {
      id: 'explain-analyze',
      title: 'EXPLAIN ANALYZE statement at cursor (executes it)…',
      ...(!live
        ? { disabledReason: 'Connect to a server first' }
        : !live.server.capabilities.explainAnalyze && !live.server.capabilities.analyzeFormatJson
          ? { disabledReason: 'This server has no EXPLAIN ANALYZE' }
          : {}),
      run: confirmExplainAnalyze,
    },
    { id: 'paste-explain', title: 'Paste EXPLAIN output…', run: () => setDialog({ kind: 'paste' }) },
    { id: 'next-finding', title: 'Next finding', shortcut: 'F8', run: () => nextFinding(1) },
    { id: 'previous-finding', title: 'Previous finding', shortcut: 'Shift+F8', run: () => nextFinding(-1) },
    {
      id: 'quick-fix',
      title: 'Quick fix at cursor (apply a rewrite)',
      shortcut: keys.quickFix,
      run: () => editor.current?.trigger('editor.action.quickFix'),
    },
    { id: 'new-tab', title: 'New editor tab', run: () => newTab() },
    {
      id: 'close-tab',
      title: 'Close editor tab',
      ...(tabs.length <= 1 ? { disabledReason: 'The last tab stays open' } : {}),
      run: () => closeTab(activeTab),
    },
    {
      id: 'connect',
      title: live ? 'Change connection…' : 'Connect…',
      run: () => setDialog({ kind: 'connect' }),
    },
    ...(live
      ? [{ id: 'disconnect', title: 'Disconnect', run: () => void switchSession(initialSession()) }]
      : []),
    {
      id: 'manage-profiles',
      title: 'Manage profiles…',
      run: () => setDialog({ kind: 'connect', tab: 'profiles' }),
    },
    {
      id: 'apply-ddl',
      title: 'Apply DDL… (selected suggestion or the Export script)',
      ...(live ? {} : { disabledReason: 'Connect to a server first' }),
      run: applyDdlCommand,
    },
    { id: 'demo', title: 'Try it: load the demo (no server needed)', run: () => void tryDemo() },
    { id: 'panel-findings', title: 'Show Findings panel', run: () => setPanel('findings') },
    { id: 'panel-plan', title: 'Show Plan panel', run: () => setPanel('plan') },
    ...(hasTop
      ? [
          {
            id: 'panel-top',
            title: 'Show Top queries panel (slow log, live digests)',
            run: () => setPanel('top'),
          },
        ]
      : []),
    ...(hasLocks ? [{ id: 'panel-locks', title: 'Show Locks panel', run: () => setPanel('locks') }] : []),
    ...(hasModes
      ? [{ id: 'panel-modes', title: 'Show Modes panel (sql_mode)', run: () => setPanel('modes') }]
      : []),
    ...(hasExport ? [{ id: 'panel-export', title: 'Show Export panel', run: () => setPanel('export') }] : []),
    {
      id: 'palette',
      title: 'Command palette',
      shortcut: keys.palette,
      run: () => setDialog({ kind: 'palette' }),
    },
    { id: 'about', title: 'About Sargable', run: showAbout },
  ];

  const summary =
    analysis.status === 'done'
      ? `${analysis.items.length === 1 ? '1 item' : `${analysis.items.length} items`}${analysis.scope === 'statement' ? ' in this statement' : ''} · ${Math.round(analysis.durationMs)} ms`
      : analysis.status === 'running'
        ? 'Analyzing…'
        : '';

  const panels: { id: PanelId; label: string }[] = [
    { id: 'findings', label: 'Findings' },
    { id: 'plan', label: 'Plan' },
    ...(hasTop ? [{ id: 'top' as const, label: 'Top queries' }] : []),
    ...(hasLocks ? [{ id: 'locks' as const, label: 'Locks' }] : []),
    ...(hasModes ? [{ id: 'modes' as const, label: 'Modes' }] : []),
    ...(hasExport ? [{ id: 'export' as const, label: 'Export' }] : []),
  ];
  const flavor = live ? live.server.flavor : session.kind === 'offline' ? session.flavor : 'mysql';
  const version = live ? live.server.version : session.kind === 'offline' ? session.version : '8.0.33';

  return (
    <div className="app">
      <header className="toolbar" role="toolbar" aria-label="Main">
        <span className="toolbar__brand">Sargable</span>
        <button
          type="button"
          className="button"
          onClick={() => setDialog({ kind: 'connect' })}
          data-testid="open-connect"
        >
          {live ? 'Change connection…' : 'Connect…'}
        </button>
        {live && (
          <button
            type="button"
            className="button"
            onClick={() => void switchSession(initialSession())}
            data-testid="disconnect"
          >
            Disconnect
          </button>
        )}
        <button
          type="button"
          className="button"
          onClick={() => void tryDemo()}
          title="Load the seeds' schema and example queries offline: findings, a plan and an export"
          data-testid="try-demo"
        >
          Try it
        </button>
        <span className="toolbar__spacer" />
        <span className="toolbar__target" title="Analyses run against this target">
          {live ? live.label : 'offline'} · {targetLabel(session)}
        </span>
        <button
          type="button"
          className="button button--icon"
          onClick={() => setDialog({ kind: 'palette' })}
          title={`Command palette (${keys.palette})`}
          aria-label="Command palette"
          data-testid="open-palette"
        >
          ⌘
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void explain(false)}
          title={live ? 'EXPLAIN the statement at the cursor' : 'Offline: paste EXPLAIN output'}
          data-testid="explain"
        >
          {live ? 'EXPLAIN' : 'Paste EXPLAIN'}
          <kbd className="button__kbd">{keys.explain}</kbd>
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void analyze('all')}
          disabled={analysis.status === 'running'}
          title={`Analyze every statement in the tab (${keys.analyze} analyzes the statement at the cursor)`}
          aria-keyshortcuts="Shift+Control+Enter"
          data-testid="analyze"
        >
          {analysis.status === 'running' ? 'Analyzing…' : 'Analyze all'}
          <kbd className="button__kbd">{keys.analyzeAll}</kbd>
        </button>
      </header>

      <ProfilesSidebar
        api={api}
        activeProfileId={live?.profile?.id ?? null}
        onConnected={(connection) =>
          void switchSession(liveSession(connection.result, connection.allowWhatIf, connection.profile))
        }
        onManage={(profileId) => setDialog({ kind: 'connect', tab: 'profiles', profileId })}
      />
      <ConnectionBanner
        status={link.status}
        label={live?.label ?? ''}
        onRetry={link.retryNow}
        onReconnect={() => setDialog({ kind: 'connect', tab: 'profiles' })}
      />
      <main className="workbench" style={{ gridTemplateRows: `minmax(150px, 1fr) auto ${panelHeight}px` }}>
        <div className="editor-area">
          <div className="editor-tabs" role="tablist" aria-label="Editor tabs">
            {tabs.map((tab) => (
              <div key={tab.id} className={`editor-tab${tab.id === activeTab ? ' is-active' : ''}`}>
                <button
                  type="button"
                  role="tab"
                  aria-selected={tab.id === activeTab}
                  className="editor-tab__title"
                  onClick={() => switchTab(tab.id)}
                  data-testid="editor-tab"
                >
                  {tab.title}
                </button>
                {tabs.length > 1 && (
                  <button
                    type="button"
                    className="editor-tab__close"
                    aria-label={`Close ${tab.title}`}
                    onClick={() => closeTab(tab.id)}
                  >
                    ×
                  </button>
                )}
              </div>
            ))}
            <button
              type="button"
              className="editor-tabs__new"
              onClick={() => newTab()}
              aria-label="New tab"
              data-testid="new-tab"
            >
              +
            </button>
          </div>
          <EditorPane
            initialTab={{ id: firstTab.id, text: initialSql }}
            dark={dark}
            api={api}
            session={session}
            events={editorEvents}
            onReady={(instance) => {
              editor.current = instance;
            }}
          />
        </div>
        <Splitter height={panelHeight} onResize={setPanelHeight} />
        <section className="panels" aria-label="Results">
          <div className="panels__tabs" role="tablist" aria-label="Panels">
            {panels.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`tab-${id}`}
                aria-selected={panel === id}
                aria-controls={`panel-${id}`}
                className={`panels__tab${panel === id ? ' is-active' : ''}`}
                onClick={() => setPanel(id)}
                data-testid={`panel-tab-${id}`}
              >
                {label}
                {id === 'findings' && analysis.status === 'done' && <FindingsCount items={analysis.items} />}
                {id === 'plan' && plan.status === 'done' && (
                  <span className="panels__dot" aria-label="has a plan" />
                )}
              </button>
            ))}
          </div>
          <div
            className="panels__body"
            role="tabpanel"
            id={`panel-${panel}`}
            aria-labelledby={`tab-${panel}`}
            data-testid={`${panel}-panel`}
          >
            {panel === 'findings' &&
              (analysis.status === 'failed' ? (
                <div className="panels__error">
                  <ErrorBox error={analysis.error} testId="analyze-error" />
                </div>
              ) : analysis.status === 'running' ? (
                <div className="empty-state" aria-busy="true">
                  <p className="empty-state__title">Analyzing…</p>
                </div>
              ) : (
                <FindingsPanel
                  items={items}
                  analyzed={analysis.status === 'done'}
                  stale={analysis.status === 'done' && analysis.stale}
                  liveKeys={liveKeys}
                  shortcut={keys.analyze}
                  onReveal={(key) => {
                    setSelectedKey(key);
                    editor.current?.reveal(key);
                  }}
                  selectedKey={selectedKey}
                  actions={suggestionActions}
                  rules={
                    hasRuleToggles
                      ? {
                          disabled: disabledRules,
                          onDisable: (rule) => toggleRule(rule, true),
                          onEnable: (rule) => toggleRule(rule, false),
                        }
                      : undefined
                  }
                />
              ))}
            {panel === 'plan' && (
              <PlanPanel
                state={plan}
                connected={live !== null}
                canAnalyze={Boolean(
                  live &&
                  (live.server.capabilities.explainAnalyze || live.server.capabilities.analyzeFormatJson),
                )}
                explainShortcut={keys.explain}
                items={items}
                onExplain={() => void explain(false)}
                onExplainAnalyze={confirmExplainAnalyze}
                onPaste={() => setDialog({ kind: 'paste' })}
                onOpenFinding={openFinding}
              />
            )}
            {hasTop && (panel === 'top' || topKept) && (
              // Kept mounted once opened: a running capture and its result survive a switch to another panel.
              <div className="panels__keep" hidden={panel !== 'top'}>
                <TopQueriesPanel
                  api={api}
                  connected={live !== null}
                  connectionId={live?.connectionId ?? null}
                  production={productionName(session)}
                  linkUp={link.status === null || link.status.state === 'open'}
                  onSend={(sql, explainIt) => {
                    newTab('Top query', `${sql.replace(/;?\s*$/, '')};\n`);
                    if (explainIt) void explain(false);
                    else void analyze('all');
                  }}
                />
              </div>
            )}
            {panel === 'locks' && hasLocks && (
              <LocksPanel
                api={api}
                connectionId={live?.connectionId ?? null}
                production={productionName(session)}
                linkUp={link.status === null || link.status.state === 'open'}
              />
            )}
            {panel === 'modes' && hasModes && (
              <ModesPanel
                api={api}
                connectionId={live?.connectionId ?? null}
                getSql={() => editor.current?.getText() ?? ''}
                schemaSql={session.kind === 'offline' ? session.schemaSql : ''}
              />
            )}
            {panel === 'export' && hasExport && (
              <ExportPanel
                api={api}
                profileId={profileId(session)}
                flavor={flavor}
                version={version}
                connectionId={live?.connectionId ?? null}
                dark={dark}
                revision={exportRevision}
                where={live?.label ?? null}
                production={productionName(session)}
                applyRequest={exportApplyRequest}
              />
            )}
          </div>
        </section>
      </main>

      <StatusBar session={session} cursor={cursor} summary={summary} link={link.status} />

      {dialog?.kind === 'connect' && (
        <ConnectionDialog
          api={api}
          session={session}
          {...(dialog.tab ? { initialTab: dialog.tab } : {})}
          {...(dialog.profileId !== undefined ? { initialProfileId: dialog.profileId } : {})}
          onConnected={(result: OpenResult, options) =>
            void switchSession(liveSession(result, options.allowWhatIf, options.profile))
          }
          onOffline={(offline) => void switchSession(offline)}
          onClose={() => {
            setDialog(null);
            editor.current?.focus();
          }}
        />
      )}
      {dialog?.kind === 'palette' && (
        <CommandPalette
          commands={commands}
          onClose={() => {
            setDialog(null);
            editor.current?.focus();
          }}
        />
      )}
      {dialog?.kind === 'about' && (
        <AboutDialog info={info.info} error={info.error} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'placeholders' && (
        <FillPlaceholdersDialog
          sql={dialog.sql}
          offsets={dialog.offsets}
          onClose={() => setDialog(null)}
          onFill={(values) => {
            const filled = fillPlaceholders(dialog.sql, dialog.offsets, values);
            editor.current?.replaceOffsets(dialog.offset, dialog.offset + dialog.sql.length, filled);
            editor.current?.selectOffsets(dialog.offset, dialog.offset + filled.length);
            setDialog(null);
            void explain(dialog.analyze);
          }}
        />
      )}
      {dialog?.kind === 'paste' && (
        <PasteExplainDialog
          onClose={() => setDialog(null)}
          onParse={async (text, pastedFlavor) => {
            const failure = await showPlanReport(text, pastedFlavor, null);
            if (!failure) setDialog(null);
            return failure;
          }}
        />
      )}
      {dialog?.kind === 'analyze-confirm' && (
        <ConfirmDialog
          testId="analyze-confirm"
          title="Run EXPLAIN ANALYZE?"
          message={
            <>
              <p>
                <strong>EXPLAIN ANALYZE executes the query</strong> on {live?.label ?? 'the server'} to
                measure it: it reads every row the plan reads and takes as long as the query does.
              </p>
              <p>
                Sargable runs it in a read-only transaction that is rolled back, with a time limit. Only
                SELECT is allowed.
              </p>
            </>
          }
          sql={dialog.sql}
          confirmLabel="Execute and measure"
          onClose={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void explain(true);
          }}
        />
      )}
      {dialog?.kind === 'apply-ddl' && live && (
        <ApplyDdlDialog
          api={api}
          connectionId={live.connectionId}
          statements={dialog.statements}
          where={live.label}
          production={productionName(session)}
          onOutcome={(outcome) => setDdlOutcomes((current) => ({ ...current, [dialog.key]: outcome }))}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'what-if' && (
        <WhatIfDialog
          api={api}
          target={dialog.target}
          onVerified={(reply) => {
            setVerifications((current) => ({ ...current, [dialog.key]: reply }));
            // Keep the measured plans in the workspace (a pending item until the suggestion is accepted).
            if (hasExport)
              api['workspace.recordVerification']({
                profileId: profileId(session),
                table: dialog.target.table,
                sql: dialog.target.sql,
                suggestion: dialog.target.suggestion,
                record: reply.record,
              }).then(
                () => setExportRevision((value) => value + 1),
                (error: unknown) =>
                  setTabAnalysis(activeTab, { status: 'failed', error: toShownError(error) }),
              );
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/** The suggestion with the query it serves as `rewrittenSql` (a plain index for an exact rewrite serves the rewrite). */
function withServedSql(finding: Finding, suggestion: Suggestion): Suggestion {
  const served = servedSql(finding, suggestion);
  return served && !suggestion.rewrittenSql ? { ...suggestion, rewrittenSql: served } : suggestion;
}

function FindingsCount({ items }: { items: ReportItem[] }) {
  const counts = severityCounts(items);
  const title = `${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`;
  return (
    <span
      className={`panels__count${counts.error > 0 ? ' panels__count--error' : ''}`}
      title={title}
      data-testid="findings-count"
    >
      {items.length}
    </span>
  );
}

const minPanel = 96;
const step = 24;

/** The drag handle between editor and panels; arrow keys resize it too. */
function Splitter({ height, onResize }: { height: number; onResize(height: number): void }) {
  const clamp = (value: number) => Math.max(minPanel, Math.min(window.innerHeight - 220, value));
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize panels"
      aria-valuenow={height}
      aria-valuemin={minPanel}
      tabIndex={0}
      onKeyDown={(event) => {
        if (event.key === 'ArrowUp') onResize(clamp(height + step));
        else if (event.key === 'ArrowDown') onResize(clamp(height - step));
        else return;
        event.preventDefault();
      }}
      onPointerDown={(event) => {
        const handle = event.currentTarget;
        handle.setPointerCapture(event.pointerId);
        const startY = event.clientY;
        const startHeight = height;
        const move = (moveEvent: PointerEvent) => onResize(clamp(startHeight + startY - moveEvent.clientY));
        const up = () => {
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
        };
        handle.addEventListener('pointermove', move);
        handle.addEventListener('pointerup', up);
      }}
    />
  );
}
