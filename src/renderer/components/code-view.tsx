// A read-only Monaco view of generated SQL (the export script and its rollback).
import { useEffect, useRef } from 'react';
import { monaco, sqlLanguageId, themes } from '../monaco-setup.js';

/** Read-only SQL with the app's editor theme; the text updates in place. */
export function CodeView({ text, dark, label }: { text: string; dark: boolean; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  useEffect(() => {
    if (!container.current) return;
    const instance = monaco.editor.create(container.current, {
      value: text,
      language: sqlLanguageId,
      readOnly: true,
      theme: dark ? themes.dark : themes.light,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      wordWrap: 'on',
      ariaLabel: label,
      lineNumbers: 'on',
    });
    editor.current = instance;
    return () => {
      instance.getModel()?.dispose();
      instance.dispose();
      editor.current = null;
    };
  }, []);
  useEffect(() => {
    const instance = editor.current;
    if (instance && instance.getValue() !== text) instance.setValue(text);
  }, [text]);
  return <div className="code-view" ref={container} data-testid="code-view" />;
}
