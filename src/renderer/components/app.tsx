// The workbench: toolbar, SQL editor, bottom panels (Findings), status bar and the connection dialog.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AdvisorApi, OpenResult } from '../../shared/api.js';
import type { AnalysisReport } from '../../core/model/report.js';
import { analyzeShortcut, usePrefersDark } from '../platform.js';
import { reportItems, severityCounts, type ReportItem } from '../report-items.js';
import { analyzeRequest, initialSession, liveSession, targetLabel, type Session } from '../session.js';
import type { SqlEditor } from '../sql-editor.js';
import { ConnectionDialog } from './connection-dialog.js';
import { EditorPane } from './editor-pane.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { FindingsPanel } from './findings-panel.js';
import { StatusBar } from './status-bar.js';

/** The text a new window starts with: what to do, and the seeds' query. */
export const initialSql = `-- Paste a query and press Ctrl+Enter (Cmd+Enter on macOS) to analyze it.
-- Connect… to read the schema from a server, or work offline with CREATE TABLE statements.
SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;
`;

type Analysis =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; report: AnalysisReport; items: ReportItem[]; durationMs: number; stale: boolean }
  | { status: 'failed'; error: ShownError };

/** Bottom-area panels. Later capabilities add Plan, Top queries, Locks, Modes and Export here. */
type PanelId = 'findings';

/** The whole UI. */
export function App({ api }: { api: AdvisorApi }) {
  const dark = usePrefersDark();
  const shortcut = analyzeShortcut();
  const [session, setSession] = useState<Session>(initialSession);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [analysis, setAnalysis] = useState<Analysis>({ status: 'idle' });
  const [liveKeys, setLiveKeys] = useState<Set<string>>(new Set());
  const [cursor, setCursor] = useState({ line: 1, column: 1 });
  const [panel, setPanel] = useState<PanelId>('findings');
  const [panelHeight, setPanelHeight] = useState(() => Math.round(window.innerHeight * 0.36));
  const editor = useRef<SqlEditor | null>(null);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const running = useRef(false);

  const analyze = useCallback(async () => {
    const instance = editor.current;
    if (!instance || running.current) return;
    running.current = true;
    setAnalysis({ status: 'running' });
    setPanel('findings');
    const started = performance.now();
    try {
      const report = await api['analyze.run'](analyzeRequest(sessionRef.current, instance.getText()));
      const items = reportItems(report);
      instance.showItems(items);
      setLiveKeys(instance.liveKeys());
      setAnalysis({ status: 'done', report, items, durationMs: performance.now() - started, stale: false });
    } catch (caught) {
      instance.showItems([]);
      setAnalysis({ status: 'failed', error: toShownError(caught) });
    } finally {
      running.current = false;
    }
  }, [api]);

  // Ctrl/Cmd+Enter anywhere outside the editor (Monaco handles it inside) and outside the dialog.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || dialogOpen) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void analyze();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [analyze, dialogOpen]);

  const editorEvents = useMemo(
    () => ({
      onAnalyze: () => void analyze(),
      onEdit: () => {
        setLiveKeys(editor.current?.liveKeys() ?? new Set());
        setAnalysis((current) =>
          current.status === 'done' && !current.stale ? { ...current, stale: true } : current,
        );
      },
      onCursor: (line: number, column: number) => setCursor({ line, column }),
    }),
    [analyze],
  );

  async function switchSession(next: Session) {
    const previous = sessionRef.current;
    setSession(next);
    setDialogOpen(false);
    // A report made for another target no longer applies.
    editor.current?.showItems([]);
    setAnalysis({ status: 'idle' });
    editor.current?.focus();
    if (previous.kind === 'live' && (next.kind !== 'live' || next.connectionId !== previous.connectionId)) {
      await api['connection.close']({ connectionId: previous.connectionId }).catch(() => undefined);
    }
  }

  const summary =
    analysis.status === 'done'
      ? `${analysis.items.length === 1 ? '1 item' : `${analysis.items.length} items`} · ${Math.round(analysis.durationMs)} ms`
      : analysis.status === 'running'
        ? 'Analyzing…'
        : '';

  return (
    <div className="app">
      <header className="toolbar" role="toolbar" aria-label="Main">
        <span className="toolbar__brand">Sargable</span>
        <button
          type="button"
          className="button"
          onClick={() => setDialogOpen(true)}
          data-testid="open-connect"
        >
          {session.kind === 'live' ? 'Change connection…' : 'Connect…'}
        </button>
        {session.kind === 'live' && (
          <button
            type="button"
            className="button"
            onClick={() => void switchSession(initialSession())}
            data-testid="disconnect"
          >
            Disconnect
          </button>
        )}
        <span className="toolbar__spacer" />
        <span className="toolbar__target" title="Analyses run against this target">
          {session.kind === 'live' ? session.label : 'offline'} · {targetLabel(session)}
        </span>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void analyze()}
          disabled={analysis.status === 'running'}
          aria-keyshortcuts={shortcut === 'Ctrl+Enter' ? 'Control+Enter' : 'Meta+Enter'}
          data-testid="analyze"
        >
          {analysis.status === 'running' ? 'Analyzing…' : 'Analyze'}
          <kbd className="button__kbd">{shortcut}</kbd>
        </button>
      </header>

      <main className="workbench" style={{ gridTemplateRows: `minmax(120px, 1fr) auto ${panelHeight}px` }}>
        <EditorPane
          initialText={initialSql}
          dark={dark}
          events={editorEvents}
          onReady={(instance) => {
            editor.current = instance;
          }}
        />
        <Splitter height={panelHeight} onResize={setPanelHeight} />
        <section className="panels" aria-label="Results">
          <div className="panels__tabs" role="tablist" aria-label="Panels">
            <button
              type="button"
              role="tab"
              id="tab-findings"
              aria-selected={panel === 'findings'}
              aria-controls="panel-findings"
              className="panels__tab is-active"
              onClick={() => setPanel('findings')}
            >
              Findings
              {analysis.status === 'done' && <FindingsCount items={analysis.items} />}
            </button>
          </div>
          <div
            className="panels__body"
            role="tabpanel"
            id="panel-findings"
            aria-labelledby="tab-findings"
            data-testid="findings-panel"
          >
            {analysis.status === 'failed' ? (
              <div className="panels__error">
                <ErrorBox error={analysis.error} testId="analyze-error" />
              </div>
            ) : analysis.status === 'running' ? (
              <div className="empty-state" aria-busy="true">
                <p className="empty-state__title">Analyzing…</p>
              </div>
            ) : (
              <FindingsPanel
                items={analysis.status === 'done' ? analysis.items : []}
                analyzed={analysis.status === 'done'}
                stale={analysis.status === 'done' && analysis.stale}
                liveKeys={liveKeys}
                shortcut={shortcut}
                onReveal={(key) => editor.current?.reveal(key)}
              />
            )}
          </div>
        </section>
      </main>

      <StatusBar session={session} cursor={cursor} summary={summary} />

      {dialogOpen && (
        <ConnectionDialog
          api={api}
          session={session}
          onConnected={(result: OpenResult) => void switchSession(liveSession(result))}
          onOffline={(offline) => void switchSession(offline)}
          onClose={() => {
            setDialogOpen(false);
            editor.current?.focus();
          }}
        />
      )}
    </div>
  );
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
