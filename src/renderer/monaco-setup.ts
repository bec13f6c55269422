// Loads a lean Monaco: the editor API, the editor features the advisor uses, MySQL highlighting and the worker.
/*
 * Design note: `monaco-editor` (0.57) maps `monaco-editor/<path>` to `esm/vs/<path>.js` through its
 * package exports, so these imports are the ESM files the full `editor.main` would pull in, minus the
 * 80 other languages, the TypeScript/CSS/HTML/JSON language services and their workers. Everything is
 * bundled by Vite (no CDN, works offline and from file:// in Electron). Only the generic editor worker
 * is needed (diffing, link detection); it is a Vite worker import.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

// Editor features, each a side-effect registration (see monaco-editor's features/register.all.js).
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/codeAction/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/readOnlyMessage/register';
// SQL completion (sql-completion.ts): the suggest widget (features/suggest/register only adds its inline
// variant; the controller is what editor.main imports) and snippet insertion for function items.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/snippet/register';
// MySQL's tokenizer (the MySQL/MariaDB keywords and comment styles); loaded lazily on first use.
import 'monaco-editor/languages/definitions/mysql/register';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

/** Language id the editor uses. */
export const sqlLanguageId = 'mysql';

/** Theme names that follow the app's light/dark palette (see styles.css). */
export const themes = { light: 'sargable-light', dark: 'sargable-dark' } as const;

monaco.editor.defineTheme(themes.light, {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editorGutter.background': '#f7f8fa',
    'editorLineNumber.foreground': '#9aa1ad',
  },
});
monaco.editor.defineTheme(themes.dark, {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#1b1e24',
    'editorGutter.background': '#1b1e24',
    'editorLineNumber.foreground': '#5c6370',
  },
});

export { monaco };
