// Monaco completion provider: schema tables/columns, keywords and functions from core's completeSql.
/*
 * Design note: one provider serves every editor model. The outline comes from a source function the
 * editor pane sets per session (`schema.outline` on the live connection, or on the offline DDL). It is
 * loaded on the first completion request (which waits for it) and reloaded in the background when it is
 * older than REFRESH_MS, so tables created meanwhile appear without reconnecting. A failed load leaves
 * keywords and functions, and is retried at the next request after REFRESH_MS.
 */
import { completeSql, type CompletionItemKind, type SchemaOutline } from '../core/sql/completion.js';
import { monaco, sqlLanguageId } from './monaco-setup.js';

/** An outline older than this is reloaded in the background. */
const REFRESH_MS = 30_000;

interface OutlineState {
  load: () => Promise<SchemaOutline>;
  outline: SchemaOutline | null;
  loadedAt: number;
  pending: Promise<void> | null;
}

let state: OutlineState | null = null;

/** Where completion reads schema names from (null: keywords and functions only). Replaces the previous source. */
export function setCompletionSource(load: (() => Promise<SchemaOutline>) | null): void {
  state = load ? { load, outline: null, loadedAt: 0, pending: null } : null;
}

/** Start a (re)load unless one is running; resolves when it settles. */
function reload(current: OutlineState): Promise<void> {
  current.pending ??= current
    .load()
    .then(
      (outline) => {
        if (state === current) current.outline = outline;
      },
      () => undefined,
    )
    .finally(() => {
      current.loadedAt = Date.now();
      current.pending = null;
    });
  return current.pending;
}

/** The outline to complete from: waits for the first load, refreshes stale ones in the background. */
async function currentOutline(): Promise<SchemaOutline | null> {
  const current = state;
  if (!current) return null;
  if (current.loadedAt === 0) await reload(current);
  else if (Date.now() - current.loadedAt > REFRESH_MS) void reload(current);
  return state === current ? current.outline : null;
}

const kindMap: Record<CompletionItemKind, monaco.languages.CompletionItemKind> = {
  database: monaco.languages.CompletionItemKind.Module,
  table: monaco.languages.CompletionItemKind.Struct,
  view: monaco.languages.CompletionItemKind.Interface,
  column: monaco.languages.CompletionItemKind.Field,
  alias: monaco.languages.CompletionItemKind.Variable,
  keyword: monaco.languages.CompletionItemKind.Keyword,
  function: monaco.languages.CompletionItemKind.Function,
};

let registered = false;

/** Register the provider once for the SQL language. */
export function registerSqlCompletion(): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider(sqlLanguageId, {
    triggerCharacters: ['.', '`'],
    async provideCompletionItems(model, position) {
      const outline = await currentOutline();
      if (model.isDisposed()) return { suggestions: [] };
      const text = model.getValue();
      const result = completeSql(text, model.getOffsetAt(position), outline);
      // Inside an opened backquote the typed text includes it, so the filter text must too.
      const typedQuote = text[result.from] === '`';
      const start = model.getPositionAt(result.from);
      const range = new monaco.Range(start.lineNumber, start.column, position.lineNumber, position.column);
      return {
        incomplete: result.incomplete,
        suggestions: result.items.map((item) => ({
          label: { label: item.label, description: item.detail },
          kind: kindMap[item.kind],
          detail: item.detail,
          insertText: item.insertText,
          // Filter on the name, not the insert text (`events_t` inserts `analytics.events_t`).
          filterText: typedQuote ? '`' + item.label : item.label,
          sortText: item.sortText,
          range,
          ...(item.snippet
            ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet }
            : {}),
        })),
      };
    },
  });
}
