// Mounts the SqlEditor into the layout and hands the instance to the app.
import { useEffect, useRef } from 'react';
import { SqlEditor, type EditorEvents } from '../sql-editor.js';

/** Props of {@link EditorPane}. */
export interface EditorPaneProps {
  initialTab: { id: string; text: string };
  dark: boolean;
  events: EditorEvents;
  onReady(editor: SqlEditor | null): void;
}

/** The editor area; the Monaco instance lives as long as the pane. */
export function EditorPane({ initialTab, dark, events, onReady }: EditorPaneProps) {
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

  return <div className="editor-pane" ref={container} data-testid="editor" />;
}
