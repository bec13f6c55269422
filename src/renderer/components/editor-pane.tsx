// Mounts the SqlEditor into the layout and hands the instance to the app.
import { useEffect, useRef } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { Session } from '../session.js';
import { setCompletionSource } from '../sql-completion.js';
import { SqlEditor, type EditorEvents } from '../sql-editor.js';

/** Props of {@link EditorPane}. */
export interface EditorPaneProps {
  initialTab: { id: string; text: string };
  dark: boolean;
  events: EditorEvents;
  onReady(editor: SqlEditor | null): void;
  /** With both, SQL completion offers the session's tables and columns (`schema.outline`). */
  api?: AdvisorApi;
  session?: Session;
}

/** The editor area; the Monaco instance lives as long as the pane. */
export function EditorPane({ initialTab, dark, events, onReady, api, session }: EditorPaneProps) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<SqlEditor | null>(null);
  // Latest callbacks without re-creating the editor.
  const latest = useRef(events);
  latest.current = events;

  useEffect(() => {
    if (!container.current) return;
    const instance = new SqlEditor(container.current, initialTab, dark, {
      onAnalyze: () => latest.current.onAnalyze(),
      onAnalyzeAll: () => latest.current.onAnalyzeAll(),
      onExplain: () => latest.current.onExplain(),
      onNextFinding: (direction) => latest.current.onNextFinding(direction),
      onPalette: () => latest.current.onPalette(),
      onEdit: () => latest.current.onEdit(),
      onCursor: (line, column) => latest.current.onCursor(line, column),
    });
    editor.current = instance;
    onReady(instance);
    instance.focus();
    return () => {
      onReady(null);
      instance.dispose();
      editor.current = null;
    };
    // Created once per pane: later theme changes go through setDark below.
  }, []);

  useEffect(() => {
    editor.current?.setDark(dark);
  }, [dark]);

  // Completion reads the schema of the session: the live server, or the offline CREATE TABLE text.
  const request = session && api ? outlineRequest(session) : null;
  const requestKey = request ? JSON.stringify(request) : '';
  useEffect(() => {
    setCompletionSource(request && api ? () => api['schema.outline'](request) : null);
    return () => setCompletionSource(null);
    // The request is rebuilt every render; its JSON says when it really changed.
  }, [requestKey, api]);

  return <div className="editor-pane" ref={container} data-testid="editor" />;
}

/** The `schema.outline` request for a session, or null when there is no schema to read. */
function outlineRequest(
  session: Session,
):
  | { connectionId: string }
  | { schemaId: string }
  | { schemaSql: string; flavor: 'mysql' | 'mariadb' }
  | null {
  if (session.kind === 'live') return { connectionId: session.connectionId };
  if (session.schemaFile) return { schemaId: session.schemaFile.schemaId };
  return session.schemaSql.trim() === '' ? null : { schemaSql: session.schemaSql, flavor: session.flavor };
}
