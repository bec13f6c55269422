// A read-only Monaco diff of a statement and its rewrite (original left, rewritten right).
import { useEffect, useRef } from 'react';
import { monaco, sqlLanguageId, themes } from '../monaco-setup.js';

/** Props of {@link DiffView}. */
export interface DiffViewProps {
  original: string;
  rewritten: string;
  dark: boolean;
  label: string;
}

/** Inline diff (side by side when wide enough); both sides read-only, models disposed on unmount. */
export function DiffView({ original, rewritten, dark, label }: DiffViewProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const editor = monaco.editor.createDiffEditor(container.current, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      diffWordWrap: 'on',
      fontSize: 13,
      lineNumbers: 'off',
      renderOverviewRuler: false,
      theme: dark ? themes.dark : themes.light,
      ariaLabel: label,
    });
    const models = {
      original: monaco.editor.createModel(original, sqlLanguageId),
      modified: monaco.editor.createModel(rewritten, sqlLanguageId),
    };
    editor.setModel(models);
    return () => {
      editor.dispose();
      models.original.dispose();
      models.modified.dispose();
    };
  }, [original, rewritten, dark, label]);
  return <div className="diff-view" ref={container} data-testid="rewrite-diff" aria-label={label} />;
}
