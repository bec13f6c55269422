// The Monaco editor wrapper: tabs (one model each), shortcuts, report markers that follow edits, quick fixes.
/*
 * Design note: markers come from the last report, whose positions refer to the text that was sent.
 * Each report item gets a tracking decoration (no visible style) so its range moves with edits; after
 * every edit the markers are recomputed from those ranges. A finding whose flagged text changed is
 * dropped (its advice no longer applies), and parse errors are dropped on any edit (the user is
 * probably fixing them). Re-analysis replaces everything.
 *
 * Tabs are Monaco models on one editor; each model keeps its own tracked items (decorations live on the
 * model), so switching tabs keeps markers and undo history. Quick fixes (Ctrl+.) come from one code action
 * provider that looks the model's tracked items up in `trackedByModel`.
 */
import { monaco, sqlLanguageId, themes } from './monaco-setup.js';
import { itemMessage, itemSeverity, type ReportItem } from './report-items.js';
import type { Severity, Suggestion } from '../core/model/report.js';
import { splitStatements } from '../core/sql/split.js';
import { registerSqlCompletion } from './sql-completion.js';

const markerOwner = 'sargable';

/** Callbacks the editor reports to the UI. */
export interface EditorEvents {
  /** Ctrl/Cmd+Enter: the statement at the cursor. */
  onAnalyze(): void;
  /** Shift+Ctrl/Cmd+Enter: the whole tab. */
  onAnalyzeAll(): void;
  /** Ctrl/Cmd+E */
  onExplain(): void;
  /** F8 / Shift+F8 */
  onNextFinding(direction: 1 | -1): void;
  /** Ctrl/Cmd+Shift+P */
  onPalette(): void;
  /** The text changed after a report was shown. */
  onEdit(): void;
  onCursor(line: number, column: number): void;
}

interface Tracked {
  item: ReportItem;
  decorationId: string;
  /** The text the item flagged when it was reported ('' for parse errors). */
  text: string;
}

/** The models of open tabs and their tracked report items (read by the quick-fix provider). */
const trackedByModel = new WeakMap<monaco.editor.ITextModel, Tracked[]>();

/** Title of the quick fix for a rewrite suggestion. */
function fixTitle(suggestion: Suggestion): string {
  return suggestion.equivalent
    ? 'Apply the equivalent rewrite (Sargable)'
    : 'Apply the rewrite — not equivalent, check the notes (Sargable)';
}

/** The edit that replaces the statement containing `offset` with `rewrittenSql`, or null. */
export function rewriteEdit(
  text: string,
  offset: number,
  rewrittenSql: string,
): { start: number; end: number; text: string } | null {
  const slice = splitStatements(text).find(
    (candidate) => candidate.offset <= offset && offset <= candidate.offset + candidate.sql.length,
  );
  if (!slice) return null;
  return {
    start: slice.offset,
    end: slice.offset + slice.sql.length,
    text: rewrittenSql.replace(/;\s*$/, ''),
  };
}

let quickFixRegistered = false;

/** One code action provider for every SQL model: rewrites of findings under the cursor. */
function registerQuickFixes(): void {
  if (quickFixRegistered) return;
  quickFixRegistered = true;
  monaco.languages.registerCodeActionProvider(sqlLanguageId, {
    provideCodeActions(model, range) {
      const tracked = trackedByModel.get(model) ?? [];
      const actions: monaco.languages.CodeAction[] = [];
      for (const entry of tracked) {
        if (entry.item.kind !== 'finding') continue;
        const itemRange = model.getDecorationRange(entry.decorationId);
        if (!itemRange || !monaco.Range.areIntersectingOrTouching(itemRange, range)) continue;
        for (const suggestion of entry.item.finding.suggestions) {
          if (!suggestion.rewrittenSql) continue;
          const edit = rewriteEdit(
            model.getValue(),
            model.getOffsetAt(itemRange.getStartPosition()),
            suggestion.rewrittenSql,
          );
          if (!edit) continue;
          const start = model.getPositionAt(edit.start);
          const end = model.getPositionAt(edit.end);
          actions.push({
            title: fixTitle(suggestion),
            kind: 'quickfix',
            isPreferred: suggestion.equivalent,
            diagnostics: [],
            edit: {
              edits: [
                {
                  resource: model.uri,
                  versionId: model.getVersionId(),
                  textEdit: {
                    range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
                    text: edit.text,
                  },
                },
              ],
            },
          });
        }
      }
      return { actions, dispose() {} };
    },
  });
}

const severityMap: Record<Severity, monaco.MarkerSeverity> = {
  info: monaco.MarkerSeverity.Info,
  warning: monaco.MarkerSeverity.Warning,
  error: monaco.MarkerSeverity.Error,
};

/** One editor tab's model and its tracked report items. */
interface TabModel {
  model: monaco.editor.ITextModel;
  tracked: Tracked[];
  listener: monaco.IDisposable;
}

/** Owns one Monaco editor, one model per tab, and the markers of each tab's current report. */
export class SqlEditor {
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private readonly tabs = new Map<string, TabModel>();
  private activeId: string;
  private readonly disposables: monaco.IDisposable[] = [];

  constructor(
    container: HTMLElement,
    initial: { id: string; text: string },
    dark: boolean,
    private readonly events: EditorEvents,
  ) {
    registerQuickFixes();
    registerSqlCompletion();
    this.activeId = initial.id;
    const first = this.createTab(initial.id, initial.text);
    this.editor = monaco.editor.create(container, {
      model: first.model,
      theme: dark ? themes.dark : themes.light,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 14,
      lineHeight: 22,
      fontFamily:
        "'JetBrains Mono', 'Fira Code', 'Cascadia Code', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
      scrollBeyondLastLine: false,
      renderLineHighlight: 'line',
      tabSize: 2,
      wordWrap: 'on',
      padding: { top: 8 },
      ariaLabel: 'SQL editor',
      fixedOverflowWidgets: true,
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
    });
    const { KeyMod, KeyCode } = monaco;
    this.editor.addCommand(KeyMod.CtrlCmd | KeyCode.Enter, () => events.onAnalyze());
    this.editor.addCommand(KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.Enter, () => events.onAnalyzeAll());
    this.editor.addCommand(KeyMod.CtrlCmd | KeyCode.KeyE, () => events.onExplain());
    this.editor.addCommand(KeyCode.F8, () => events.onNextFinding(1));
    this.editor.addCommand(KeyMod.Shift | KeyCode.F8, () => events.onNextFinding(-1));
    this.editor.addCommand(KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.KeyP, () => events.onPalette());
    this.disposables.push(
      this.editor.onDidChangeCursorPosition((event) =>
        events.onCursor(event.position.lineNumber, event.position.column),
      ),
    );
  }

  private createTab(id: string, text: string): TabModel {
    const model = monaco.editor.createModel(text, sqlLanguageId);
    const tab: TabModel = {
      model,
      tracked: [],
      listener: model.onDidChangeContent(() => {
        if (tab.tracked.length === 0) return;
        this.refreshAfterEdit(tab);
        if (this.activeId === id) this.events.onEdit();
      }),
    };
    trackedByModel.set(model, tab.tracked);
    this.tabs.set(id, tab);
    return tab;
  }

  private tab(): TabModel {
    const tab = this.tabs.get(this.activeId);
    if (!tab) throw new Error('The SQL editor has no active tab.');
    return tab;
  }

  private model(): monaco.editor.ITextModel {
    return this.tab().model;
  }

  /** Open a new tab (and switch to it). */
  addTab(id: string, text: string): void {
    if (!this.tabs.has(id)) this.createTab(id, text);
    this.switchTab(id);
  }

  /** Show another tab's model; its markers and undo history come with it. */
  switchTab(id: string): void {
    const tab = this.tabs.get(id);
    if (!tab || id === this.activeId) return;
    this.activeId = id;
    this.editor.setModel(tab.model);
    const position = this.editor.getPosition();
    if (position) this.events.onCursor(position.lineNumber, position.column);
  }

  /** Close a tab (not the last one). */
  closeTab(id: string): void {
    const tab = this.tabs.get(id);
    if (!tab || this.tabs.size === 1) return;
    if (id === this.activeId) {
      const next = [...this.tabs.keys()].find((key) => key !== id);
      if (next) this.switchTab(next);
    }
    tab.listener.dispose();
    monaco.editor.setModelMarkers(tab.model, markerOwner, []);
    tab.model.dispose();
    this.tabs.delete(id);
  }

  /** The active tab's text (what Analyze all sends). */
  getText(): string {
    return this.model().getValue();
  }

  /** Replace the active tab's text as one undoable edit. */
  setText(text: string): void {
    const model = this.model();
    this.editor.executeEdits('sargable', [{ range: model.getFullModelRange(), text }]);
    this.editor.pushUndoStop();
  }

  /** 0-based offset of the cursor in the active tab. */
  cursorOffset(): number {
    const position = this.editor.getPosition();
    return position ? this.model().getOffsetAt(position) : 0;
  }

  /** Select a 0-based offset range and reveal it. */
  selectOffsets(start: number, end: number): void {
    const model = this.model();
    const from = model.getPositionAt(start);
    const to = model.getPositionAt(end);
    const range = new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column);
    this.editor.setSelection(range);
    this.editor.revealRangeInCenterIfOutsideViewport(range, monaco.editor.ScrollType.Smooth);
  }

  /** Replace a 0-based offset range of the active tab as one undoable edit. */
  replaceOffsets(start: number, end: number, text: string): void {
    const model = this.model();
    const from = model.getPositionAt(start);
    const to = model.getPositionAt(end);
    this.editor.executeEdits('sargable', [
      { range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column), text },
    ]);
    this.editor.pushUndoStop();
  }

  /** Replace the statement holding a finding with a suggestion's rewrite (the quick fix, from a button). */
  applyRewrite(key: string, rewrittenSql: string): boolean {
    const model = this.model();
    const entry = this.tab().tracked.find((candidate) => candidate.item.key === key);
    const range = entry ? model.getDecorationRange(entry.decorationId) : null;
    if (!range) return false;
    const edit = rewriteEdit(model.getValue(), model.getOffsetAt(range.getStartPosition()), rewrittenSql);
    if (!edit) return false;
    const start = model.getPositionAt(edit.start);
    const end = model.getPositionAt(edit.end);
    this.editor.executeEdits('sargable-quick-fix', [
      {
        range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
        text: edit.text,
      },
    ]);
    this.editor.pushUndoStop();
    this.editor.focus();
    return true;
  }

  focus(): void {
    this.editor.focus();
  }

  /** Run a Monaco editor action by id (e.g. `editor.action.quickFix`). */
  trigger(actionId: string): void {
    this.editor.focus();
    this.editor.trigger('sargable', actionId, null);
  }

  /** Drop every tab's markers (the target changed, so no report applies any more). */
  clearAllItems(): void {
    for (const tab of this.tabs.values()) {
      tab.model.deltaDecorations(
        tab.tracked.map((entry) => entry.decorationId),
        [],
      );
      tab.tracked.splice(0, tab.tracked.length);
      this.publishMarkers(tab);
    }
  }

  setDark(dark: boolean): void {
    monaco.editor.setTheme(dark ? themes.dark : themes.light);
  }

  /** Replace the active tab's markers and tracking with a new report's items. */
  showItems(items: ReportItem[]): void {
    const tab = this.tab();
    const model = tab.model;
    const ranges = items.map((item) => this.itemRange(model, item));
    const ids = model.deltaDecorations(
      tab.tracked.map((entry) => entry.decorationId),
      ranges.map((range) => ({
        range,
        options: { stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges },
      })),
    );
    tab.tracked.splice(
      0,
      tab.tracked.length,
      ...items.map((item, index) => {
        const range = ranges[index] as monaco.Range;
        return {
          item,
          decorationId: ids[index] as string,
          text: item.kind === 'finding' ? model.getValueInRange(range) : '',
        };
      }),
    );
    this.publishMarkers(tab);
  }

  /** Move the cursor to an item, select its range and focus the editor. */
  reveal(key: string): void {
    const entry = this.tab().tracked.find((candidate) => candidate.item.key === key);
    if (!entry) return;
    const range = this.model().getDecorationRange(entry.decorationId);
    if (!range) return;
    this.editor.setSelection(range);
    this.editor.revealRangeInCenterIfOutsideViewport(range, monaco.editor.ScrollType.Smooth);
    this.editor.focus();
  }

  /** The next (or previous) live item after the cursor, wrapping around; null when there is none. */
  nextKey(direction: 1 | -1): string | null {
    const model = this.model();
    const cursor = this.cursorOffset();
    const positions = this.tab()
      .tracked.map((entry) => {
        const range = model.getDecorationRange(entry.decorationId);
        return range ? { key: entry.item.key, offset: model.getOffsetAt(range.getStartPosition()) } : null;
      })
      .filter((entry): entry is { key: string; offset: number } => entry !== null)
      .sort((a, b) => a.offset - b.offset);
    if (positions.length === 0) return null;
    if (direction === 1) return (positions.find((entry) => entry.offset > cursor) ?? positions[0])!.key;
    const before = positions.filter((entry) => entry.offset < cursor);
    return (before[before.length - 1] ?? positions[positions.length - 1])!.key;
  }

  /** Item keys that still have a marker (their text is unchanged since the report). */
  liveKeys(): Set<string> {
    return new Set(this.tab().tracked.map((entry) => entry.item.key));
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    for (const tab of this.tabs.values()) {
      tab.listener.dispose();
      monaco.editor.setModelMarkers(tab.model, markerOwner, []);
      tab.model.dispose();
    }
    this.tabs.clear();
    this.editor.dispose();
  }

  private itemRange(model: monaco.editor.ITextModel, item: ReportItem): monaco.Range {
    if (item.kind === 'finding') {
      const { line, column, endLine, endColumn } = item.finding;
      return model.validateRange(new monaco.Range(line, column, endLine, endColumn));
    }
    // A parse error is a position; underline the token there (or one character) so it is visible.
    const position = model.validatePosition(new monaco.Position(item.error.line, item.error.column));
    const word = model.getWordAtPosition(position);
    if (word)
      return new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
    const lineEnd = model.getLineMaxColumn(position.lineNumber);
    if (position.column < lineEnd) {
      return new monaco.Range(position.lineNumber, position.column, position.lineNumber, position.column + 1);
    }
    return new monaco.Range(
      position.lineNumber,
      Math.max(1, position.column - 1),
      position.lineNumber,
      position.column,
    );
  }

  private refreshAfterEdit(tab: TabModel): void {
    const model = tab.model;
    const stale: string[] = [];
    const kept = tab.tracked.filter((entry) => {
      const range = model.getDecorationRange(entry.decorationId);
      const keep =
        entry.item.kind === 'finding' && range !== null && model.getValueInRange(range) === entry.text;
      if (!keep) stale.push(entry.decorationId);
      return keep;
    });
    tab.tracked.splice(0, tab.tracked.length, ...kept);
    if (stale.length > 0) model.deltaDecorations(stale, []);
    this.publishMarkers(tab);
  }

  private publishMarkers(tab: TabModel): void {
    const model = tab.model;
    const markers: monaco.editor.IMarkerData[] = [];
    for (const entry of tab.tracked) {
      const range = model.getDecorationRange(entry.decorationId);
      if (!range) continue;
      markers.push({
        severity: severityMap[itemSeverity(entry.item)],
        message: itemMessage(entry.item),
        source: 'Sargable',
        startLineNumber: range.startLineNumber,
        startColumn: range.startColumn,
        endLineNumber: range.endLineNumber,
        endColumn: range.endColumn,
      });
    }
    monaco.editor.setModelMarkers(model, markerOwner, markers);
  }
}
