// The Monaco editor wrapper: Ctrl/Cmd+Enter, report markers that follow edits, and reveal-on-click.
/*
 * Design note: markers come from the last report, whose positions refer to the text that was sent.
 * Each report item gets a tracking decoration (no visible style) so its range moves with edits; after
 * every edit the markers are recomputed from those ranges. A finding whose flagged text changed is
 * dropped (its advice no longer applies), and parse errors are dropped on any edit (the user is
 * probably fixing them). Re-analysis replaces everything.
 */
import { monaco, sqlLanguageId, themes } from './monaco-setup.js';
import { itemMessage, itemSeverity, type ReportItem } from './report-items.js';
import type { Severity } from '../core/model/report.js';

const markerOwner = 'sargable';

/** Callbacks the editor reports to the UI. */
export interface EditorEvents {
  onAnalyze(): void;
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

const severityMap: Record<Severity, monaco.MarkerSeverity> = {
  info: monaco.MarkerSeverity.Info,
  warning: monaco.MarkerSeverity.Warning,
  error: monaco.MarkerSeverity.Error,
};

/** Owns one Monaco editor and the markers of the current report. */
export class SqlEditor {
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private tracked: Tracked[] = [];
  private readonly disposables: monaco.IDisposable[] = [];

  constructor(container: HTMLElement, initialText: string, dark: boolean, events: EditorEvents) {
    this.editor = monaco.editor.create(container, {
      value: initialText,
      language: sqlLanguageId,
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
    });
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => events.onAnalyze());
    const model = this.model();
    this.disposables.push(
      model.onDidChangeContent(() => {
        if (this.tracked.length === 0) return;
        this.refreshAfterEdit();
        events.onEdit();
      }),
      this.editor.onDidChangeCursorPosition((event) =>
        events.onCursor(event.position.lineNumber, event.position.column),
      ),
    );
  }

  private model(): monaco.editor.ITextModel {
    const model = this.editor.getModel();
    if (!model) throw new Error('The SQL editor has no model.');
    return model;
  }

  /** The whole editor text (what Analyze sends). */
  getText(): string {
    return this.model().getValue();
  }

  focus(): void {
    this.editor.focus();
  }

  setDark(dark: boolean): void {
    monaco.editor.setTheme(dark ? themes.dark : themes.light);
  }

  /** Replace markers and tracking with a new report's items. */
  showItems(items: ReportItem[]): void {
    const model = this.model();
    const ranges = items.map((item) => this.itemRange(model, item));
    const ids = model.deltaDecorations(
      this.tracked.map((entry) => entry.decorationId),
      ranges.map((range) => ({
        range,
        options: { stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges },
      })),
    );
    this.tracked = items.map((item, index) => {
      const range = ranges[index] as monaco.Range;
      return {
        item,
        decorationId: ids[index] as string,
        text: item.kind === 'finding' ? model.getValueInRange(range) : '',
      };
    });
    this.publishMarkers();
  }

  /** Move the cursor to an item, select its range and focus the editor. */
  reveal(key: string): void {
    const entry = this.tracked.find((candidate) => candidate.item.key === key);
    if (!entry) return;
    const range = this.model().getDecorationRange(entry.decorationId);
    if (!range) return;
    this.editor.setSelection(range);
    this.editor.revealRangeInCenterIfOutsideViewport(range, monaco.editor.ScrollType.Smooth);
    this.editor.focus();
  }

  /** Item keys that still have a marker (their text is unchanged since the report). */
  liveKeys(): Set<string> {
    return new Set(this.tracked.map((entry) => entry.item.key));
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    monaco.editor.setModelMarkers(this.model(), markerOwner, []);
    this.editor.getModel()?.dispose();
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

  private refreshAfterEdit(): void {
    const model = this.model();
    const stale: string[] = [];
    this.tracked = this.tracked.filter((entry) => {
      const range = model.getDecorationRange(entry.decorationId);
      const keep =
        entry.item.kind === 'finding' && range !== null && model.getValueInRange(range) === entry.text;
      if (!keep) stale.push(entry.decorationId);
      return keep;
    });
    if (stale.length > 0) model.deltaDecorations(stale, []);
    this.publishMarkers();
  }

  private publishMarkers(): void {
    const model = this.model();
    const markers: monaco.editor.IMarkerData[] = [];
    for (const entry of this.tracked) {
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
