// SQL completion for the editor: schema names, keywords and functions, chosen by the cursor's context.
/*
 * Design note: completion runs on every keystroke, so it never calls the SQL parser. A small scanner
 * tokenizes the text (words, `quoted` identifiers, strings, numbers, comments, punctuation) and cuts
 * it into statements at `;`. Only the statement around the cursor is looked at:
 *  - inside a string or a comment: nothing;
 *  - right after `name.`: the columns of the alias or table `name`, else the tables of database `name`;
 *  - after FROM / JOIN / UPDATE / INTO / TABLE / leading DESCRIBE, or a comma of a FROM list: tables,
 *    views and databases;
 *  - right after a table reference (`FROM t |`): keywords (an alias or WHERE / JOIN … comes next);
 *  - elsewhere: the columns of the tables the statement names (before or after the cursor), those
 *    tables' aliases, functions, keywords, then the other tables.
 * Table references are read as `[db.]name [[AS] alias]` after FROM / JOIN / UPDATE / INTO and after
 * commas of a FROM list: enough to resolve aliases, not a parser. The outline of a big server is
 * bounded where it is loaded; here results are filtered by the typed prefix and capped, and the list
 * says `incomplete` so the editor asks again as the prefix grows.
 */
import type { SchemaModel } from '../model/schema.js';
import { RESERVED_WORDS, SQL_FUNCTIONS, SQL_KEYWORDS } from './completion-words.js';

/** A column of the outline: name and full type (`varchar(255)`, `int unsigned`). */
export interface OutlineColumn {
  name: string;
  type: string;
}

/** A table or view of the outline, columns in table order. */
export interface OutlineTable {
  name: string;
  kind: 'table' | 'view';
  columns: OutlineColumn[];
}

/** A database (schema) of the outline. Offline (pasted DDL) tables live in one database named ''. */
export interface OutlineDatabase {
  name: string;
  tables: OutlineTable[];
}

/** The names completion knows: databases → tables → columns with types. */
export interface SchemaOutline {
  /** The connection's default database ('' offline), whose tables are inserted unqualified. */
  defaultDatabase: string | null;
  databases: OutlineDatabase[];
  /** The server had more than the bounds allow; some names are missing. */
  truncated: boolean;
}

/** What a completion item names (the renderer maps these to Monaco's kinds and icons). */
export type CompletionItemKind = 'database' | 'table' | 'view' | 'column' | 'alias' | 'keyword' | 'function';

/** One suggestion. */
export interface SqlCompletionItem {
  label: string;
  kind: CompletionItemKind;
  /** Type and table of a column, database of a table, signature of a function. */
  detail: string;
  insertText: string;
  /** `insertText` is a snippet (`$0` marks where the cursor goes). */
  snippet?: true;
  /** Sorts before other items with a smaller value (groups: in-scope columns first …). */
  sortText: string;
}

/** Where the cursor is, as far as completion cares. */
export type CompletionContextKind =
  'none' | 'member-columns' | 'member-tables' | 'tables' | 'after-table' | 'expression';

/** The suggestions for one cursor position. */
export interface SqlCompletion {
  context: CompletionContextKind;
  /** Offset where the text being completed starts (the typed prefix, including an opening backquote). */
  from: number;
  items: SqlCompletionItem[];
  /** More items matched than were returned (or the outline was truncated): ask again as the user types. */
  incomplete: boolean;
}

/** Options of {@link completeSql}. */
export interface CompletionOptions {
  /** At most this many items (default 300). */
  limit?: number;
}

type TokenType = 'word' | 'quoted' | 'string' | 'number' | 'comment' | 'punct';

interface Token {
  type: TokenType;
  /** For words the text; for quoted identifiers the name without quotes; for punctuation the character. */
  value: string;
  start: number;
  end: number;
  /** False for a string, quoted identifier or block comment that runs to the end of the text. */
  closed: boolean;
}

const identifierChar = /[\w$\u0080-\uffff]/;

/** Tokenize SQL text (see the design note). Whitespace is dropped; everything else becomes a token. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text[index] as string;
    const next = text[index + 1] ?? '';
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    const start = index;
    if (char === '#' || (char === '-' && next === '-' && /[\s]|^$/.test(text[index + 2] ?? ''))) {
      const newline = text.indexOf('\n', index);
      index = newline === -1 ? length : newline;
      tokens.push({ type: 'comment', value: '', start, end: index, closed: true });
      continue;
    }
    if (char === '/' && next === '*') {
      const close = text.indexOf('*/', index + 2);
      index = close === -1 ? length : close + 2;
      tokens.push({ type: 'comment', value: '', start, end: index, closed: close !== -1 });
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      let value = '';
      let closed = false;
      index++;
      while (index < length) {
        const current = text[index] as string;
        if (char !== '`' && current === '\\') {
          value += text[index + 1] ?? '';
          index += 2;
          continue;
        }
        if (current === char) {
          if (text[index + 1] === char) {
            value += char;
            index += 2;
            continue;
          }
          index++;
          closed = true;
          break;
        }
        value += current;
        index++;
      }
      tokens.push({ type: char === '`' ? 'quoted' : 'string', value, start, end: index, closed });
      continue;
    }
    if (identifierChar.test(char)) {
      while (index < length && identifierChar.test(text[index] as string)) index++;
      const value = text.slice(start, index);
      tokens.push({ type: /^\d+$/.test(value) ? 'number' : 'word', value, start, end: index, closed: true });
      continue;
    }
    tokens.push({ type: 'punct', value: char, start, end: index + 1, closed: true });
    index++;
  }
  return tokens;
}

function isName(token: Token | undefined): token is Token {
  return token !== undefined && (token.type === 'word' || token.type === 'quoted');
}

function upper(token: Token | undefined): string {
  return token?.type === 'word' ? token.value.toUpperCase() : '';
}

/** Keywords after which a table name comes. */
const TABLE_KEYWORDS = new Set(['FROM', 'JOIN', 'STRAIGHT_JOIN', 'UPDATE', 'INTO', 'TABLE']);
/** Keywords that end a FROM list (its commas no longer separate tables). */
const FROM_LIST_END = new Set([
  'WHERE',
  'GROUP',
  'ORDER',
  'HAVING',
  'LIMIT',
  'UNION',
  'ON',
  'USING',
  'SET',
  'WINDOW',
  'SELECT',
  'VALUES',
  'FOR',
]);

/** A table named by the statement, with its alias when it has one. */
interface TableReference {
  database: string | null;
  table: string;
  alias: string | null;
}

/** Read `[db.]name [[AS] alias]` starting at `tokens[index]`; returns the reference and the next index. */
function readReference(tokens: Token[], index: number): { reference: TableReference | null; next: number } {
  const first = tokens[index];
  if (!isName(first) || (first.type === 'word' && RESERVED_WORDS.has(first.value.toUpperCase()))) {
    return { reference: null, next: index };
  }
  let database: string | null = null;
  let table = first.value;
  let next = index + 1;
  const dot = tokens[next];
  const second = tokens[next + 1];
  if (dot?.type === 'punct' && dot.value === '.' && isName(second)) {
    database = table;
    table = second.value;
    next += 2;
  }
  let alias: string | null = null;
  const maybeAs = tokens[next];
  if (upper(maybeAs) === 'AS' && isName(tokens[next + 1])) {
    alias = (tokens[next + 1] as Token).value;
    next += 2;
  } else if (
    maybeAs &&
    (maybeAs.type === 'quoted' ||
      (maybeAs.type === 'word' && !RESERVED_WORDS.has(maybeAs.value.toUpperCase())))
  ) {
    alias = maybeAs.value;
    next += 1;
  }
  return { reference: { database, table, alias }, next };
}

/** Every `[db.]table [alias]` the statement names after FROM / JOIN / UPDATE / INTO and FROM-list commas. */
function tableReferences(tokens: Token[]): TableReference[] {
  const references: TableReference[] = [];
  let inFromList = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    const word = upper(token);
    if (FROM_LIST_END.has(word)) inFromList = false;
    const startsReference =
      (TABLE_KEYWORDS.has(word) && word !== 'TABLE') ||
      (inFromList && token.type === 'punct' && token.value === ',');
    if (!startsReference) continue;
    if (word === 'FROM') inFromList = true;
    const { reference, next } = readReference(tokens, index + 1);
    if (reference) {
      references.push(reference);
      index = next - 1;
    }
  }
  return references;
}

/** Lookups over the outline, case-insensitive as MySQL names usually are. */
class OutlineIndex {
  constructor(readonly outline: SchemaOutline) {}

  database(name: string): OutlineDatabase | undefined {
    const lower = name.toLowerCase();
    return this.outline.databases.find((database) => database.name.toLowerCase() === lower);
  }

  /** A table by name: in `database` when given, else the default database first, then any. */
  table(
    name: string,
    database: string | null,
  ): { database: OutlineDatabase; table: OutlineTable } | undefined {
    const lower = name.toLowerCase();
    const candidates = database
      ? [this.database(database)].filter((entry): entry is OutlineDatabase => entry !== undefined)
      : [...this.outline.databases].sort(
          (a, b) =>
            Number(b.name === this.outline.defaultDatabase) - Number(a.name === this.outline.defaultDatabase),
        );
    for (const candidate of candidates) {
      const table = candidate.tables.find((entry) => entry.name.toLowerCase() === lower);
      if (table) return { database: candidate, table };
    }
    return undefined;
  }

  defaultDatabase(): OutlineDatabase | undefined {
    const name = this.outline.defaultDatabase;
    return name === null ? undefined : this.database(name);
  }
}

/** `name` as it must be written: bare when it can be, else back-quoted (always when the user opened a quote). */
export function quoteIdentifier(name: string, forceQuotes = false): string {
  if (!forceQuotes && /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED_WORDS.has(name.toUpperCase())) return name;
  return '`' + name.replace(/`/g, '``') + '`';
}

/** Zero-padded sort key inside a group, so items keep their order (columns in table order). */
function sortKey(group: number, position: number): string {
  return `${group}${String(position).padStart(5, '0')}`;
}

/**
 * The completions at `offset` (0-based) of `text`, from `outline` (null: keywords and functions only).
 * Pure and synchronous: it runs on every keystroke.
 */
export function completeSql(
  text: string,
  offset: number,
  outline: SchemaOutline | null,
  options: CompletionOptions = {},
): SqlCompletion {
  const limit = options.limit ?? 300;
  const tokens = tokenize(text);
  const none: SqlCompletion = { context: 'none', from: offset, items: [], incomplete: false };

  // The token under the cursor decides the prefix (or that there is nothing to complete).
  let from = offset;
  let prefix = '';
  let quoted = false;
  for (const token of tokens) {
    if (token.start >= offset) break;
    const open = offset < token.end || !token.closed;
    if (token.type === 'string' && open) return none;
    if (token.type === 'comment') {
      const lineComment = text[token.start] !== '/';
      if (open || (lineComment && offset <= token.end)) return none;
    } else if (token.type === 'quoted' && open) {
      from = token.start;
      prefix = text.slice(token.start + 1, offset);
      quoted = true;
    } else if ((token.type === 'word' || token.type === 'number') && offset <= token.end) {
      from = token.start;
      prefix = text.slice(token.start, offset);
    }
  }

  // The statement around the cursor, without comments.
  let statementStart = 0;
  let statementEnd = tokens.length;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (token.type !== 'punct' || token.value !== ';') continue;
    if (token.end <= from) statementStart = index + 1;
    else {
      statementEnd = index;
      break;
    }
  }
  const statement = tokens.slice(statementStart, statementEnd).filter((token) => token.type !== 'comment');
  const before = statement.filter((token) => token.end <= from);
  const index = outline ? new OutlineIndex(outline) : null;
  const references = tableReferences(statement);

  const items: SqlCompletionItem[] = [];
  const lowerCase = prefix !== '' && /[a-z]/.test(prefix) && prefix === prefix.toLowerCase();
  const identifier = (name: string) => quoteIdentifier(name, quoted);
  const addColumns = (table: OutlineTable, group: number, detailTable: string | null) => {
    table.columns.forEach((column, position) =>
      items.push({
        label: column.name,
        kind: 'column',
        detail: detailTable ? `${column.type} · ${detailTable}` : column.type,
        insertText: identifier(column.name),
        sortText: sortKey(group, position),
      }),
    );
  };
  const addTables = (database: OutlineDatabase, group: number, qualify: boolean) => {
    database.tables.forEach((table, position) =>
      items.push({
        label: table.name,
        kind: table.kind,
        detail: database.name ? `${table.kind} in ${database.name}` : table.kind,
        insertText: qualify
          ? `${identifier(database.name)}.${identifier(table.name)}`
          : identifier(table.name),
        sortText: sortKey(group, position),
      }),
    );
  };
  const addDatabases = (group: number) => {
    outline?.databases.forEach((database, position) => {
      if (database.name === '' || database.name === outline.defaultDatabase) return;
      items.push({
        label: database.name,
        kind: 'database',
        detail: 'database',
        insertText: identifier(database.name),
        sortText: sortKey(group, position),
      });
    });
  };
  const addAllTables = (group: number) => {
    if (!outline) return;
    const defaultDatabase = index?.defaultDatabase();
    if (defaultDatabase) addTables(defaultDatabase, group, false);
    for (const database of outline.databases) {
      if (database !== defaultDatabase) addTables(database, group + 1, database.name !== '');
    }
  };
  const addKeywords = (group: number) =>
    SQL_KEYWORDS.forEach((keyword, position) =>
      items.push({
        label: lowerCase ? keyword.toLowerCase() : keyword,
        kind: 'keyword',
        detail: 'keyword',
        insertText: lowerCase ? keyword.toLowerCase() : keyword,
        sortText: sortKey(group, position),
      }),
    );
  const addFunctions = (group: number) =>
    SQL_FUNCTIONS.forEach((fn, position) => {
      const name = lowerCase ? fn.name.toLowerCase() : fn.name;
      items.push({
        label: name,
        kind: 'function',
        detail: fn.signature,
        insertText: `${name}($0)`,
        snippet: true,
        sortText: sortKey(group, position),
      });
    });

  let context: CompletionContextKind;
  const last = before[before.length - 1];
  const qualifier = before[before.length - 2];
  if (last?.type === 'punct' && last.value === '.' && last.end === from) {
    // `name.` — an alias or table (columns), or a database (tables); `db.table.` — columns.
    if (!isName(qualifier) || !index) return { ...none, from };
    const outer = before[before.length - 3];
    const database = outer?.type === 'punct' && outer.value === '.' ? before[before.length - 4] : undefined;
    const viaAlias = references.find(
      (reference) => reference.alias?.toLowerCase() === qualifier.value.toLowerCase(),
    );
    const table = isName(database)
      ? index.table(qualifier.value, database.value)
      : viaAlias
        ? index.table(viaAlias.table, viaAlias.database)
        : index.table(qualifier.value, null);
    if (table) {
      context = 'member-columns';
      addColumns(table.table, 0, null);
    } else {
      const database = index.database(qualifier.value);
      if (!database) return { ...none, from };
      context = 'member-tables';
      addTables(database, 0, false);
    }
  } else {
    const previous = upper(last);
    const isLeadingDescribe = (previous === 'DESC' || previous === 'DESCRIBE') && before.length === 1;
    let clause = '';
    let depth = 0;
    for (let position = before.length - 1; position >= 0; position--) {
      const token = before[position] as Token;
      if (token.type === 'punct' && token.value === ')') depth++;
      else if (token.type === 'punct' && token.value === '(') {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && (TABLE_KEYWORDS.has(upper(token)) || FROM_LIST_END.has(upper(token)))) {
        clause = upper(token);
        break;
      }
    }
    const afterComma = last?.type === 'punct' && last.value === ',' && clause === 'FROM';
    // `FROM t |`, `JOIN db.t |`, `FROM a, t |`: an alias or the next keyword comes.
    const tableStart = (position: number): boolean => {
      const token = before[position];
      return (
        TABLE_KEYWORDS.has(upper(token)) ||
        (token?.type === 'punct' && token.value === ',' && clause === 'FROM')
      );
    };
    const n = before.length;
    const afterTable =
      isName(last) &&
      !RESERVED_WORDS.has(upper(last)) &&
      (tableStart(n - 2) ||
        (before[n - 2]?.type === 'punct' &&
          before[n - 2]?.value === '.' &&
          isName(before[n - 3]) &&
          tableStart(n - 4)));
    if (TABLE_KEYWORDS.has(previous) || isLeadingDescribe || afterComma) {
      context = 'tables';
      addAllTables(0);
      addDatabases(2);
    } else if (afterTable) {
      context = 'after-table';
      addKeywords(0);
    } else {
      context = 'expression';
      const seen = new Set<string>();
      references.forEach((reference) => {
        const found = index?.table(reference.table, reference.database);
        if (!found) return;
        const key = `${found.database.name}.${found.table.name}`;
        if (seen.has(key)) return;
        seen.add(key);
        addColumns(found.table, 0, reference.alias ?? found.table.name);
        items.push({
          label: reference.alias ?? found.table.name,
          kind: 'alias',
          detail: reference.alias ? `alias of ${found.table.name}` : found.table.kind,
          insertText: identifier(reference.alias ?? found.table.name),
          sortText: sortKey(1, items.length),
        });
      });
      if (seen.size === 0) {
        // Nothing named yet (`SELECT |`): the default database's columns, after functions and keywords.
        const defaultDatabase = index?.defaultDatabase();
        defaultDatabase?.tables.forEach((table) => addColumns(table, 5, table.name));
      }
      addFunctions(2);
      addKeywords(3);
      addAllTables(6);
    }
  }

  // Filter by the prefix, merge same-named columns of several tables, cap.
  const needle = prefix.toLowerCase();
  const merged = new Map<string, SqlCompletionItem>();
  for (const item of items) {
    if (!item.label.toLowerCase().startsWith(needle)) continue;
    const key = `${item.kind}:${item.label.toLowerCase()}`;
    const existing = merged.get(key);
    if (!existing) merged.set(key, item);
    else if (item.kind === 'column' && !existing.detail.endsWith(' …')) existing.detail += ' …';
  }
  const matched = [...merged.values()].sort(
    (a, b) => a.sortText.localeCompare(b.sortText) || a.label.localeCompare(b.label),
  );
  return {
    context,
    from,
    items: matched.slice(0, limit),
    incomplete: matched.length > limit || Boolean(outline?.truncated),
  };
}

/**
 * A column type as completion shows it: lower case, without integer display widths (`int(11)` on
 * MariaDB and MySQL < 8.0.19 means the same as `int`; MySQL 8.0.19 deprecated them, keeping only
 * `tinyint(1)`), so both servers read alike.
 */
export function columnTypeLabel(columnType: string): string {
  return columnType
    .toLowerCase()
    .replace(
      /\b(tinyint|smallint|mediumint|int|integer|bigint)\((\d+)\)/g,
      (whole, type: string, width: string) => (type === 'tinyint' && width === '1' ? whole : type),
    );
}

/** The outline of a SchemaModel (offline DDL or a loaded live schema); tables without a schema go under ''. */
export function outlineFromSchema(schema: SchemaModel, defaultDatabase: string | null = ''): SchemaOutline {
  const databases = new Map<string, OutlineDatabase>();
  for (const table of schema.tables) {
    const name = table.schema ?? '';
    let database = databases.get(name);
    if (!database) {
      database = { name, tables: [] };
      databases.set(name, database);
    }
    database.tables.push({
      name: table.name,
      kind: table.kind === 'view' ? 'view' : 'table',
      columns: table.columns.map((column) => ({
        name: column.name,
        type: columnTypeLabel(column.columnType),
      })),
    });
  }
  return { defaultDatabase, databases: [...databases.values()], truncated: false };
}
