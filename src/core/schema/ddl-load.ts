// The schema loader: builds the SchemaModel from real schema text — mysqldump / mariadb-dump output
// (with or without data), SHOW CREATE TABLE output pasted from a client, `mysqldump --tab` files and
// hand-written DDL — and says what it loaded and what it skipped, with the line and the reason.
//
// Design note: node-sql-parser's CREATE TABLE grammar misses much of what real dumps hold
// (partitioning, system versioning, MariaDB column attributes, …) and costs milliseconds per table.
// So the loader reads DDL with its own lexer (ddl-tokens.ts) and a tolerant recursive-descent reader
// that knows the parts the advisor needs (columns, types, charsets, generated columns, indexes,
// invisible/ignored flags) and skips the rest by balanced parentheses: an unknown table option or
// column attribute never loses a table. Statements are applied in order (DROP, ALTER, RENAME, CREATE
// INDEX, views replacing their stand-ins), as the server would, so a dump loads to the state it holds.

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo, IndexPart, SchemaModel, TableInfo } from '../model/schema.js';
import { splitStatements, type StatementSlice } from '../sql/split.js';
import { tokenize, versionNumber, type Token } from './ddl-tokens.js';
import { unwrapClientOutput } from './client-output.js';

/** One input of a schema load: a file (or pasted text) and its name for messages. */
export interface SchemaSource {
  name: string;
  text: string;
}

/** A statement the loader could not use although it defines or changes a table or view. */
export interface SkippedStatement {
  /** The source's name when several sources were loaded (a file name), else undefined. */
  source?: string;
  /** The table or view the statement defines or changes, when the loader got that far. */
  table?: string;
  line: number;
  column: number;
  /** The first words of the statement, e.g. `CREATE TABLE orders`. */
  statement: string;
  reason: string;
}

/** What the loader did: the documented `schemaLoad` object of the CLI JSON and the UI. */
export interface SchemaLoadSummary {
  tables: number;
  views: number;
  sequences: number;
  /** Loaded objects by name (`db.name` when the dump names the database). */
  loaded: string[];
  skipped: SkippedStatement[];
  /** Statements that define no table (INSERT, SET, LOCK, triggers, routines, …): read past, counted. */
  ignored: number;
  /** Tables loaded only in part (an element the loader could not read), with what was left out. */
  partial: SkippedStatement[];
}

export interface SchemaLoadResult {
  schema: SchemaModel;
  summary: SchemaLoadSummary;
}

export interface LoadOptions {
  flavor?: Flavor;
  /** Canonical text of an expression (null when it cannot); without it expressions keep their text. */
  printExpression?: (text: string, flavor: Flavor) => string | null;
  /** Target server version (for versioned comments and default collations). */
  version?: string;
}

/** Default collation of a character set per flavor (what a table gets when it names only the charset). */
function defaultCollation(charset: string, flavor: Flavor, version: number): string | null {
  const name = charset.toLowerCase();
  if (name === 'utf8mb4') {
    if (flavor === 'mariadb') return version >= 110500 ? 'utf8mb4_uca1400_ai_ci' : 'utf8mb4_general_ci';
    return version >= 80000 ? 'utf8mb4_0900_ai_ci' : 'utf8mb4_general_ci';
  }
  if (name === 'utf8' || name === 'utf8mb3')
    return flavor === 'mariadb' ? 'utf8mb3_general_ci' : 'utf8mb3_general_ci';
  if (name === 'binary') return 'binary';
  const known: Record<string, string> = {
    latin1: 'latin1_swedish_ci',
    ascii: 'ascii_general_ci',
    latin2: 'latin2_general_ci',
    ucs2: 'ucs2_general_ci',
    utf16: 'utf16_general_ci',
    utf32: 'utf32_general_ci',
    cp1251: 'cp1251_general_ci',
    cp1250: 'cp1250_general_ci',
    greek: 'greek_general_ci',
    hebrew: 'hebrew_general_ci',
    sjis: 'sjis_japanese_ci',
    ujis: 'ujis_japanese_ci',
    gbk: 'gbk_chinese_ci',
    gb2312: 'gb2312_chinese_ci',
    big5: 'big5_chinese_ci',
    euckr: 'euckr_korean_ci',
    koi8r: 'koi8r_general_ci',
    tis620: 'tis620_thai_ci',
  };
  return known[name] ?? null;
}

function charsetOfCollation(collation: string): string {
  const lower = collation.toLowerCase();
  if (lower === 'binary') return 'binary';
  const cut = lower.indexOf('_');
  const charset = cut === -1 ? lower : lower.slice(0, cut);
  return charset === 'utf8' ? 'utf8mb3' : charset;
}

const TEXTUAL = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** Type aliases as information_schema.COLUMNS.DATA_TYPE names them. */
const TYPE_ALIASES: Record<string, string> = {
  BOOL: 'tinyint',
  BOOLEAN: 'tinyint',
  INTEGER: 'int',
  INT1: 'tinyint',
  INT2: 'smallint',
  INT3: 'mediumint',
  INT4: 'int',
  INT8: 'bigint',
  MIDDLEINT: 'mediumint',
  DEC: 'decimal',
  NUMERIC: 'decimal',
  FIXED: 'decimal',
  REAL: 'double',
  FLOAT4: 'float',
  FLOAT8: 'double',
  CHARACTER: 'char',
  NCHAR: 'char',
  NVARCHAR: 'varchar',
  VARCHARACTER: 'varchar',
  VARCHAR2: 'varchar',
  NUMBER: 'decimal',
  CLOB: 'longtext',
  RAW: 'varbinary',
};

interface TableState extends Omit<TableInfo, 'kind'> {
  kind: 'table' | 'view' | 'sequence';
  /** Columns read since the table's charset was last applied, with what their DDL said. */
  pendingCharsets: [ColumnInfo, DeclaredCharset][];
  engineName: string | null;
  charset: string | null;
}

interface LoadState {
  flavor: Flavor;
  /** Expressions left to print in the parser's canonical form (see canonicalExpression). */
  expressionBudget: number;
  printExpression: LoadOptions['printExpression'];
  version: number;
  database: string | null;
  tables: Map<string, TableState>;
  summary: SchemaLoadSummary;
  source: string | undefined;
}

const keyOf = (database: string | null, name: string): string =>
  `${(database ?? '').toLowerCase()}\u0000${name.toLowerCase()}`;

/** Load schema text (one source or several, applied in order). Never throws on bad input. */
export function loadSchemaText(
  input: string | readonly SchemaSource[],
  options: LoadOptions = {},
): SchemaLoadResult {
  const flavor = options.flavor ?? 'mysql';
  const state: LoadState = {
    flavor,
    expressionBudget: EXPRESSION_BUDGET,
    printExpression: options.printExpression,
    version: versionNumber(options.version ?? (flavor === 'mariadb' ? '10.11.0' : '8.0.33')),
    database: null,
    tables: new Map(),
    summary: { tables: 0, views: 0, sequences: 0, loaded: [], skipped: [], ignored: 0, partial: [] },
    source: undefined,
  };
  const sources = typeof input === 'string' ? [{ name: '', text: input }] : input;
  for (const source of sources) {
    state.source = sources.length > 1 || source.name ? source.name || undefined : undefined;
    // Each file of a `--tab` directory starts without a database (the file belongs to the dump's).
    const text = unwrapClientOutput(normalizeText(source.text));
    for (const slice of splitStatements(text)) readStatement(slice, state);
  }
  const tables = [...state.tables.values()];
  const summary = state.summary;
  summary.tables = tables.filter((table) => table.kind === 'table').length;
  summary.views = tables.filter((table) => table.kind === 'view').length;
  summary.sequences = tables.filter((table) => table.kind === 'sequence').length;
  summary.loaded = tables.map((table) => (table.schema ? `${table.schema}.${table.name}` : table.name));
  return {
    schema: {
      source: 'ddl',
      ...(summary.skipped.length > 0
        ? {
            skipped: summary.skipped.map((entry) => ({
              table: entry.table ?? null,
              line: entry.line,
              reason: entry.reason,
              ...(entry.source ? { source: entry.source } : {}),
            })),
          }
        : {}),
      tables: tables
        .filter((table) => table.kind !== 'sequence')
        .map(({ kind, engineName: _engine, charset: _charset, pendingCharsets: _pending, ...table }) =>
          kind === 'view' ? { ...table, kind } : table,
        ),
    },
    summary,
  };
}

/**
 * Generated-column and functional key-part expressions go through `options.printExpression` (the
 * advisor passes node-sql-parser's printer, ddl.ts): 1–2 ms each, so a load prints at most this many
 * and keeps the text as written after that.
 */
const EXPRESSION_BUDGET = 400;

function canonicalExpression(raw: string, state: LoadState): string {
  const text = raw.trim();
  if (!state.printExpression || state.expressionBudget <= 0) return text;
  state.expressionBudget--;
  return state.printExpression(text, state.flavor) ?? text;
}

/** A BOM is dropped; NUL bytes become spaces (they cannot be in DDL and would end C strings). */
function normalizeText(text: string): string {
  let result = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (result.includes('\u0000')) result = result.split('\u0000').join(' ');
  return result;
}

class ParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A cursor over a statement's tokens. */
class Reader {
  index = 0;
  constructor(
    readonly tokens: Token[],
    readonly text: string,
  ) {}

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.index + ahead];
  }
  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }
  /** True (and consumed) when the next token is the keyword `word`. */
  accept(first: string, second?: string, third?: string): boolean {
    // Fixed parameters, no rest array: this runs for every attribute of every column of a dump.
    const token = this.tokens[this.index];
    if (token === undefined || token.type !== 'word' || token.value !== first) return false;
    if (second === undefined) {
      this.index++;
      return true;
    }
    const next = this.tokens[this.index + 1];
    if (next === undefined || next.type !== 'word' || next.value !== second) return false;
    if (third === undefined) {
      this.index += 2;
      return true;
    }
    const last = this.tokens[this.index + 2];
    if (last === undefined || last.type !== 'word' || last.value !== third) return false;
    this.index += 3;
    return true;
  }
  is(word: string, ahead = 0): boolean {
    const token = this.tokens[this.index + ahead];
    return token?.type === 'word' && token.value === word;
  }
  isPunct(char: string, ahead = 0): boolean {
    const token = this.tokens[this.index + ahead];
    return token?.type === 'punct' && token.value === char;
  }
  acceptPunct(char: string): boolean {
    if (!this.isPunct(char)) return false;
    this.index++;
    return true;
  }
  expectPunct(char: string): Token {
    const token = this.peek();
    if (!token || token.type !== 'punct' || token.value !== char)
      throw new ParseError(
        `expected '${char}'${token ? ` before '${this.text.slice(token.start, token.end)}'` : ' at the end'}`,
        token?.start ?? this.text.length,
      );
    this.index++;
    return token;
  }
  /** An identifier: a backticked name, a double-quoted name, or a bare word. */
  identifier(what: string): string {
    const token = this.peek();
    if (token && (token.type === 'ident' || token.type === 'word' || token.type === 'dstring')) {
      this.index++;
      return token.type === 'word' ? this.text.slice(token.start, token.end) : token.value;
    }
    throw new ParseError(
      `expected ${what}${token ? ` before '${this.text.slice(token.start, token.end)}'` : ' at the end'}`,
      token?.start ?? this.text.length,
    );
  }
  /** `name` or `db.name`. */
  qualifiedName(what: string): { database: string | null; name: string } {
    const first = this.identifier(what);
    if (this.isPunct('.')) {
      this.index++;
      return { database: first, name: this.identifier(what) };
    }
    return { database: null, name: first };
  }
  /** Skip one token, or a whole balanced parenthesised group. */
  skipOne(): void {
    if (this.isPunct('(')) {
      this.skipGroup();
      return;
    }
    this.index++;
  }
  /** Skip `( … )` with nesting; the cursor is on `(`. Returns the offsets inside the parentheses. */
  skipGroup(): { start: number; end: number } {
    const open = this.expectPunct('(');
    let depth = 1;
    while (!this.atEnd()) {
      const token = this.tokens[this.index++]!;
      if (token.type !== 'punct') continue;
      if (token.value === '(') depth++;
      else if (token.value === ')' && --depth === 0) return { start: open.end, end: token.start };
    }
    throw new ParseError("unbalanced '(': the statement ends inside parentheses", open.start);
  }
  /** Skip to the next `,` or `)` at depth 0 (not consumed). */
  skipToElementEnd(): void {
    while (!this.atEnd() && !this.isPunct(',') && !this.isPunct(')')) this.skipOne();
  }
  value(): string | null {
    const token = this.peek();
    if (!token) return null;
    this.index++;
    if (token.type === 'word') return this.text.slice(token.start, token.end);
    return token.value;
  }
}

const MAX_STATEMENT_WORDS = 6;

/** `CREATE TABLE orders`: the first words of a statement, for messages. */
function statementHead(tokens: Token[], text: string): string {
  const words: string[] = [];
  for (const token of tokens) {
    if (words.length >= MAX_STATEMENT_WORDS) break;
    if (token.type === 'punct' && token.value === '(') break;
    words.push(token.type === 'ident' ? `\`${token.value}\`` : text.slice(token.start, token.end));
  }
  const head = words.join(' ').replace(/\s+/g, ' ');
  return head.length > 80 ? `${head.slice(0, 77)}...` : head;
}

/** The object a CREATE/ALTER/DROP TABLE|VIEW|INDEX statement names (for `skipped` entries). */
function objectName(tokens: Token[], text: string): string | null {
  for (let i = 0; i < tokens.length && i < 24; i++) {
    const token = tokens[i]!;
    if (token.type !== 'word') continue;
    if (token.value === 'TABLE' || token.value === 'VIEW' || token.value === 'ON') {
      let j = i + 1;
      while (tokens[j]?.type === 'word' && ['IF', 'NOT', 'EXISTS'].includes(tokens[j]!.value)) j++;
      let name = tokens[j];
      if (tokens[j + 1]?.type === 'punct' && tokens[j + 1]!.value === '.') name = tokens[j + 2];
      if (!name || (name.type !== 'ident' && name.type !== 'word' && name.type !== 'dstring')) return null;
      return name.type === 'word' ? text.slice(name.start, name.end) : name.value;
    }
  }
  return null;
}

function readStatement(slice: StatementSlice, state: LoadState): void {
  // Cheap look at the first keyword before tokenizing: INSERT sections of data dumps are most of the
  // text and define nothing.
  const lead = /^(?:\s|--[^\n]*\n|#[^\n]*\n|\/\*(?![!+])[\s\S]*?\*\/)*([A-Za-z]+)/.exec(
    slice.sql.slice(0, 4096),
  );
  const first = lead?.[1]?.toUpperCase();
  if (
    first === 'INSERT' ||
    first === 'REPLACE' ||
    first === 'LOCK' ||
    first === 'UNLOCK' ||
    first === 'SET' ||
    first === 'SELECT'
  ) {
    state.summary.ignored++;
    return;
  }
  const tokens = tokenize(slice.sql, { flavor: state.flavor, version: state.version });
  if (tokens.length === 0) return;
  const reader = new Reader(tokens, slice.sql);
  const report = (list: SkippedStatement[]) => (reason: string, offset: number) => {
    const position = positionIn(slice, offset);
    const table = objectName(tokens, slice.sql);
    list.push({
      ...(state.source ? { source: state.source } : {}),
      ...(table ? { table } : {}),
      ...position,
      statement: statementHead(tokens, slice.sql),
      reason,
    });
  };
  const skip = report(state.summary.skipped);
  const note = report(state.summary.partial);
  try {
    if (reader.accept('USE')) {
      state.database = reader.identifier('a database name');
      state.summary.ignored++;
      return;
    }
    if (reader.accept('CREATE')) {
      if (readCreate(reader, state, slice, skip, note)) return;
      state.summary.ignored++;
      return;
    }
    if (reader.accept('DROP')) {
      readDrop(reader, state);
      state.summary.ignored++;
      return;
    }
    if (reader.accept('ALTER')) {
      readAlter(reader, state, slice, skip);
      return;
    }
    if (reader.accept('RENAME', 'TABLE') || reader.accept('RENAME', 'TABLES')) {
      readRename(reader, state);
      return;
    }
    state.summary.ignored++;
  } catch (error) {
    if (error instanceof ParseError) skip(error.message, error.offset);
    else skip(`unexpected: ${error instanceof Error ? error.message : String(error)}`, 0);
  }
}

function positionIn(slice: StatementSlice, offset: number): { line: number; column: number } {
  const before = slice.sql.slice(0, Math.max(0, offset));
  let line = slice.line;
  let lastBreak = -1;
  for (let i = 0; i < before.length; i++) {
    if (before.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: lastBreak === -1 ? slice.column + before.length : before.length - lastBreak };
}

type Skip = (reason: string, offset: number) => void;

/** CREATE …: returns true when the statement was a table/view/index/sequence definition (handled). */
function readCreate(
  reader: Reader,
  state: LoadState,
  slice: StatementSlice,
  skip: Skip,
  note: Skip,
): boolean {
  const orReplace = reader.accept('OR', 'REPLACE');
  // View prefixes: ALGORITHM=…, DEFINER=…, SQL SECURITY …
  let viewPrefix = false;
  for (;;) {
    if (reader.accept('ALGORITHM')) {
      reader.acceptPunct('=');
      reader.value();
      viewPrefix = true;
    } else if (reader.accept('DEFINER')) {
      reader.acceptPunct('=');
      skipUser(reader);
      viewPrefix = true;
    } else if (reader.accept('SQL', 'SECURITY')) {
      reader.value();
      viewPrefix = true;
    } else break;
  }
  if (reader.accept('VIEW')) {
    readView(reader, state, orReplace, skip);
    return true;
  }
  if (viewPrefix) return false; // DEFINER=… TRIGGER / PROCEDURE / FUNCTION / EVENT
  const temporary = reader.accept('TEMPORARY');
  if (reader.accept('TABLE')) {
    if (temporary) return false; // session-only: not part of the schema
    readCreateTable(reader, state, orReplace, skip, note);
    return true;
  }
  if (reader.accept('SEQUENCE')) {
    const ifNotExists = reader.accept('IF', 'NOT', 'EXISTS');
    const { database, name } = reader.qualifiedName('a sequence name');
    const key = keyOf(database ?? state.database, name);
    if (ifNotExists && state.tables.has(key)) return true;
    state.tables.set(key, { ...emptyTable(database ?? state.database, name), kind: 'sequence' });
    return true;
  }
  // CREATE [ONLINE|OFFLINE] [UNIQUE|FULLTEXT|SPATIAL] INDEX name [USING …] ON table (parts)
  const save = reader.index;
  if (!reader.accept('ONLINE')) reader.accept('OFFLINE');
  const unique = reader.accept('UNIQUE');
  const fulltext = !unique && reader.accept('FULLTEXT');
  const spatial = !unique && !fulltext && reader.accept('SPATIAL');
  if (reader.accept('INDEX') || reader.accept('KEY')) {
    readCreateIndex(reader, state, { unique, fulltext, spatial }, skip, slice);
    return true;
  }
  reader.index = save;
  return false;
}

function skipUser(reader: Reader): void {
  // `user`@`host`, 'user'@'host', CURRENT_USER[()], user@host
  reader.value();
  if (reader.isPunct('(')) reader.skipGroup();
  if (reader.isPunct('@')) {
    reader.index++;
    reader.value();
  } else {
    const token = reader.peek();
    // `@host` lexed as punct '@' then word; a word like `root@localhost` is one word plus '@'.
    if (token?.type === 'punct' && token.value === '@') reader.index++;
  }
}

function readDrop(reader: Reader, state: LoadState): void {
  reader.accept('TEMPORARY');
  if (!(
    reader.accept('TABLE') ||
    reader.accept('TABLES') ||
    reader.accept('VIEW') ||
    reader.accept('SEQUENCE')
  )) {
    if (reader.accept('INDEX')) {
      const index = reader.identifier('an index name');
      if (reader.accept('ON')) {
        const { database, name } = reader.qualifiedName('a table name');
        const table = state.tables.get(keyOf(database ?? state.database, name));
        if (table)
          table.indexes = table.indexes.filter((entry) => entry.name.toLowerCase() !== index.toLowerCase());
      }
    } else if (reader.accept('DATABASE') || reader.accept('SCHEMA')) {
      reader.accept('IF', 'EXISTS');
      const database = reader.identifier('a database name').toLowerCase();
      for (const [key, table] of state.tables)
        if (table.schema?.toLowerCase() === database) state.tables.delete(key);
    }
    return;
  }
  reader.accept('IF', 'EXISTS');
  do {
    const { database, name } = reader.qualifiedName('a table name');
    state.tables.delete(keyOf(database ?? state.database, name));
  } while (reader.acceptPunct(','));
}

function readRename(reader: Reader, state: LoadState): void {
  do {
    const from = reader.qualifiedName('a table name');
    if (!reader.accept('TO')) throw new ParseError('expected TO', reader.peek()?.start ?? 0);
    const to = reader.qualifiedName('a table name');
    const key = keyOf(from.database ?? state.database, from.name);
    const table = state.tables.get(key);
    if (table) {
      state.tables.delete(key);
      table.name = to.name;
      table.schema = to.database ?? state.database;
      state.tables.set(keyOf(table.schema, table.name), table);
    }
  } while (reader.acceptPunct(','));
  state.summary.ignored++;
}

function emptyTable(database: string | null, name: string): TableState {
  return {
    kind: 'table',
    pendingCharsets: [],
    schema: database,
    name,
    columns: [],
    indexes: [],
    engine: null,
    engineName: null,
    collation: null,
    charset: null,
    rowsEstimate: null,
  };
}

function readCreateTable(reader: Reader, state: LoadState, orReplace: boolean, skip: Skip, note: Skip): void {
  const ifNotExists = reader.accept('IF', 'NOT', 'EXISTS');
  const target = reader.qualifiedName('a table name');
  const database = target.database ?? state.database;
  const key = keyOf(database, target.name);
  if (ifNotExists && !orReplace && state.tables.has(key)) return;
  // CREATE TABLE t LIKE other / CREATE TABLE t (LIKE other)
  const like =
    reader.accept('LIKE') || (reader.isPunct('(') && reader.is('LIKE', 1) && (reader.index += 2) > 0);
  if (like) {
    const source = reader.qualifiedName('a table name');
    const original = state.tables.get(keyOf(source.database ?? state.database, source.name));
    if (!original || original.kind !== 'table') {
      skip(
        `CREATE TABLE … LIKE ${source.name}: ${source.name} is not defined before this statement`,
        reader.peek()?.start ?? 0,
      );
      return;
    }
    const copy: TableState = JSON.parse(JSON.stringify(original)) as TableState;
    copy.name = target.name;
    copy.schema = database;
    state.tables.set(key, copy);
    return;
  }
  const table = emptyTable(database, target.name);
  let partial: string[] = [];
  if (reader.isPunct('(')) {
    partial = readTableElements(reader, state, table);
  }
  readTableOptions(reader, table, state);
  if (!reader.atEnd()) {
    // [IGNORE | REPLACE] [AS] SELECT / TABLE / VALUES / WITH: the query decides the other columns.
    if (!reader.accept('IGNORE')) reader.accept('REPLACE');
    reader.accept('AS');
    if (
      reader.is('SELECT') ||
      reader.is('WITH') ||
      reader.is('TABLE') ||
      reader.is('VALUES') ||
      reader.isPunct('(')
    ) {
      partial.push('the columns that come from the query of CREATE TABLE … SELECT');
      if (table.columns.length === 0) {
        skip(
          'CREATE TABLE … SELECT: its columns come from the query, which the loader does not run',
          reader.peek()?.start ?? 0,
        );
        return;
      }
    } else {
      const token = reader.peek();
      if (token)
        partial.push(
          `what follows '${reader.text.slice(token.start, Math.min(token.end, token.start + 40))}'`,
        );
    }
  }
  finishTable(table, state);
  state.tables.set(key, table);
  if (partial.length > 0) note(`loaded without ${partial.join('; ')}`, 0);
}

/** Reads `( element, … )` of CREATE TABLE; returns descriptions of elements it could not read. */
function readTableElements(reader: Reader, state: LoadState, table: TableState): string[] {
  const problems: string[] = [];
  const foreignKeys: { columns: string[]; name: string | null }[] = [];
  const open = reader.expectPunct('(');
  let closed = false;
  while (!reader.atEnd()) {
    if (
      reader.isPunct(',') ||
      (reader.isPunct(')') && reader.index > 0 && reader.tokens[reader.index - 1]?.value === ',')
    )
      throw new ParseError('an empty element in the column list', reader.peek()!.start);
    if (reader.acceptPunct(')')) {
      closed = true;
      break;
    }
    const start = reader.index;
    try {
      readTableElement(reader, state, table, foreignKeys);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      reader.index = start;
      const token = reader.peek();
      problems.push(
        `the element at '${token ? reader.text.slice(token.start, Math.min(reader.text.length, token.start + 30)).split('\n')[0] : ''}' (${error.message})`,
      );
      reader.skipToElementEnd();
    }
    if (reader.acceptPunct(',')) continue;
    if (reader.acceptPunct(')')) {
      closed = true;
      break;
    }
    const token = reader.peek();
    if (!token) break;
    problems.push(
      `what follows '${reader.text.slice(token.start, Math.min(reader.text.length, token.start + 30)).split('\n')[0]}'`,
    );
    reader.skipToElementEnd();
    if (reader.acceptPunct(',')) continue;
    if (reader.acceptPunct(')')) {
      closed = true;
      break;
    }
  }
  if (!closed) throw new ParseError("the column list has no closing ')'", open.start);
  (table as TableState & { pendingForeignKeys?: typeof foreignKeys }).pendingForeignKeys = foreignKeys;
  return problems;
}

const INDEX_WORDS = new Set(['INDEX', 'KEY']);

function readTableElement(
  reader: Reader,
  state: LoadState,
  table: TableState,
  foreignKeys: { columns: string[]; name: string | null }[],
): void {
  let constraint: string | null = null;
  if (reader.is('CONSTRAINT')) {
    reader.index++;
    if (!reader.is('PRIMARY') && !reader.is('UNIQUE') && !reader.is('FOREIGN') && !reader.is('CHECK'))
      constraint = reader.identifier('a constraint name');
  }
  if (reader.accept('PRIMARY', 'KEY')) {
    const index = readIndexBody(reader, state, { primary: true, unique: true, kind: 'btree' }, 'PRIMARY');
    addIndex(table, { ...index, name: 'PRIMARY' });
    return;
  }
  if (reader.accept('UNIQUE')) {
    if (!reader.accept('INDEX')) reader.accept('KEY');
    const index = readIndexBody(reader, state, { primary: false, unique: true, kind: 'btree' }, constraint);
    addIndex(table, index);
    return;
  }
  if (reader.is('FULLTEXT') || reader.is('SPATIAL')) {
    const kind = reader.is('FULLTEXT') ? 'fulltext' : 'spatial';
    reader.index++;
    if (!reader.accept('INDEX')) reader.accept('KEY');
    addIndex(table, readIndexBody(reader, state, { primary: false, unique: false, kind }, null));
    return;
  }
  const word = reader.peek();
  // INDEX and KEY are reserved words: unquoted at the start of an element they begin an index.
  if (word?.type === 'word' && INDEX_WORDS.has(word.value)) {
    reader.index++;
    reader.accept('IF', 'NOT', 'EXISTS');
    addIndex(table, readIndexBody(reader, state, { primary: false, unique: false, kind: 'btree' }, null));
    return;
  }
  if (reader.accept('FOREIGN', 'KEY')) {
    reader.accept('IF', 'NOT', 'EXISTS');
    let name = constraint;
    if (!reader.isPunct('(')) name = reader.identifier('an index name');
    const columns = readNameList(reader);
    foreignKeys.push({ columns, name });
    reader.skipToElementEnd(); // REFERENCES … ON DELETE … ON UPDATE …
    return;
  }
  if (reader.accept('CHECK')) {
    reader.skipToElementEnd();
    return;
  }
  if (reader.accept('PERIOD', 'FOR')) {
    reader.skipToElementEnd();
    return;
  }
  if (constraint !== null) {
    // CONSTRAINT name followed by something we do not know: leave it out, loudly.
    throw new ParseError('unknown constraint', reader.peek()?.start ?? 0);
  }
  const column = readColumn(reader, state, table);
  table.columns.push(column.info);
  for (const index of column.indexes) addIndex(table, index);
}

function readNameList(reader: Reader): string[] {
  reader.expectPunct('(');
  const names: string[] = [];
  while (!reader.atEnd() && !reader.acceptPunct(')')) {
    names.push(reader.identifier('a column name'));
    while (!reader.atEnd() && !reader.isPunct(',') && !reader.isPunct(')')) reader.skipOne();
    reader.acceptPunct(',');
  }
  return names;
}

/** Index definition after its leading keywords: `[name] [USING t] (parts) [options]`. */
function readIndexBody(
  reader: Reader,
  state: LoadState,
  flags: { primary: boolean; unique: boolean; kind: IndexInfo['kind'] },
  fallbackName: string | null,
): IndexInfo & { named: boolean } {
  let name: string | null = null;
  if (!reader.isPunct('(') && !reader.is('USING') && !reader.is('TYPE'))
    name = reader.identifier('an index name');
  let kind = flags.kind;
  if (reader.accept('USING') || reader.accept('TYPE')) kind = indexType(reader.value(), kind);
  const parts = readKeyParts(reader, state);
  let visible = true;
  // Index options: KEY_BLOCK_SIZE [=] n, USING t, WITH PARSER p, COMMENT 's', VISIBLE, INVISIBLE,
  // IGNORED, NOT IGNORED, CLUSTERING=yes, ENGINE_ATTRIBUTE …
  while (!reader.atEnd() && !reader.isPunct(',') && !reader.isPunct(')')) {
    if (reader.accept('INVISIBLE') || reader.accept('IGNORED')) visible = false;
    else if (reader.accept('VISIBLE') || reader.accept('NOT', 'IGNORED')) visible = true;
    else if (reader.accept('USING') || reader.accept('TYPE')) kind = indexType(reader.value(), kind);
    else reader.skipOne();
  }
  void state;
  const chosen = name ?? fallbackName;
  return {
    name: chosen ?? '',
    named: chosen !== null,
    unique: flags.unique,
    primary: flags.primary,
    kind,
    parts,
    visible,
  };
}

function indexType(value: string | null, current: IndexInfo['kind']): IndexInfo['kind'] {
  const upper = (value ?? '').toUpperCase();
  if (upper === 'HASH') return current === 'btree' ? 'hash' : current;
  return current;
}

function readKeyParts(reader: Reader, state: LoadState): IndexPart[] {
  reader.expectPunct('(');
  const parts: IndexPart[] = [];
  while (!reader.atEnd()) {
    if (reader.acceptPunct(')')) break;
    if (reader.isPunct('(')) {
      const inner = reader.skipGroup();
      parts.push({
        column: null,
        expression: canonicalExpression(reader.text.slice(inner.start, inner.end), state),
        prefixLength: null,
      });
    } else {
      const column = reader.identifier('a key column');
      let prefixLength: number | null = null;
      if (reader.isPunct('(')) {
        const inner = reader.skipGroup();
        const number = Number(reader.text.slice(inner.start, inner.end).trim());
        prefixLength = Number.isFinite(number) ? number : null;
      }
      parts.push({ column, expression: null, prefixLength });
    }
    if (!reader.accept('ASC')) reader.accept('DESC');
    if (reader.acceptPunct(',')) continue;
    reader.expectPunct(')');
    break;
  }
  return parts;
}

function addIndex(table: TableState, index: IndexInfo & { named?: boolean }): void {
  const { named, ...info } = index;
  // information_schema.STATISTICS gives SPATIAL key parts a SUB_PART of 32 on both servers.
  if (info.kind === 'spatial')
    info.parts = info.parts.map((part) => ({ ...part, prefixLength: part.prefixLength ?? 32 }));
  if (info.primary) {
    info.name = 'PRIMARY';
    table.indexes = table.indexes.filter((entry) => !entry.primary);
    table.indexes.unshift(info);
    return;
  }
  if (!named || !info.name) {
    const base = info.parts[0]?.column ?? 'functional_index';
    info.name = uniqueIndexName(table, base);
  }
  table.indexes.push(info);
}

function uniqueIndexName(table: { indexes: IndexInfo[] }, base: string): string {
  const taken = new Set(table.indexes.map((entry) => entry.name.toLowerCase()));
  if (!taken.has(base.toLowerCase()) && base.toUpperCase() !== 'PRIMARY') return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}_${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** `id INT PRIMARY KEY` / `email VARCHAR(100) UNIQUE`: the key a column attribute declares. */
function inlineKey(column: string, primary: boolean): IndexInfo & { named: boolean } {
  return {
    name: primary ? 'PRIMARY' : column,
    named: true,
    unique: true,
    primary,
    kind: 'btree',
    parts: [{ column, expression: null, prefixLength: null }],
    visible: true,
  };
}

interface ReadColumn {
  info: ColumnInfo & { invisible?: boolean };
  indexes: (IndexInfo & { named: boolean })[];
}

function readColumn(reader: Reader, state: LoadState, table: TableState): ReadColumn {
  const name = reader.identifier('a column name');
  const typeToken = reader.peek();
  if (!typeToken || typeToken.type !== 'word')
    throw new ParseError(`column ${name}: expected a data type`, typeToken?.start ?? reader.text.length);
  reader.index++;
  let typeName = typeToken.value;
  // Two-word types.
  if (typeName === 'DOUBLE' && reader.accept('PRECISION')) typeName = 'DOUBLE';
  else if (typeName === 'NATIONAL') {
    const next = reader.value()?.toUpperCase() ?? '';
    typeName =
      next === 'VARCHAR' || (next === 'CHARACTER' && reader.accept('VARYING'))
        ? 'VARCHAR'
        : next === 'CHAR' && reader.accept('VARYING')
          ? 'VARCHAR'
          : 'CHAR';
  } else if ((typeName === 'CHAR' || typeName === 'CHARACTER') && reader.accept('VARYING'))
    typeName = 'VARCHAR';
  else if (typeName === 'LONG') {
    if (reader.accept('VARBINARY')) typeName = 'MEDIUMBLOB';
    else {
      if (!reader.accept('VARCHAR')) reader.accept('CHAR', 'VARYING');
      typeName = 'MEDIUMTEXT';
    }
  }
  let dataType = TYPE_ALIASES[typeName] ?? typeName.toLowerCase();
  if (dataType === 'json' && state.flavor === 'mariadb') dataType = 'longtext';
  let args = '';
  if (reader.isPunct('(')) {
    const inner = reader.skipGroup();
    args = `(${reader.text.slice(inner.start, inner.end).trim()})`;
  }
  const modifiers: string[] = [];
  let charset: string | null = null;
  let collation: string | null = null;
  let binary = false;
  let nullable = true;
  let hasDefault = false;
  let autoIncrement = false;
  let invisible = false;
  let generated: ColumnInfo['generated'] = null;
  const indexes: (IndexInfo & { named: boolean })[] = [];
  if (typeName === 'SERIAL') {
    dataType = 'bigint';
    modifiers.push('unsigned');
    nullable = false;
    autoIncrement = true;
    indexes.push({
      name: '',
      named: false,
      unique: true,
      primary: false,
      kind: 'btree',
      parts: [{ column: name, expression: null, prefixLength: null }],
      visible: true,
    });
  }
  if (typeName === 'BOOL' || typeName === 'BOOLEAN') args = '(1)';
  while (!reader.atEnd() && !reader.isPunct(',') && !reader.isPunct(')')) {
    // Fast paths for the attributes every dump repeats on most columns.
    const token = reader.tokens[reader.index]!;
    if (token.type === 'punct' && token.value !== '(') {
      reader.index++;
      continue;
    }
    if (token.type === 'word') {
      const next = reader.tokens[reader.index + 1];
      if (token.value === 'NOT' && next?.type === 'word' && next.value === 'NULL') {
        nullable = false;
        reader.index += 2;
        continue;
      }
      if (token.value === 'NULL') {
        reader.index++;
        continue;
      }
      if (token.value === 'COMMENT') {
        reader.index += 2;
        continue;
      }
      if (token.value === 'DEFAULT') {
        reader.index++;
        hasDefault = !reader.is('NULL');
        readExpression(reader);
        continue;
      }
    }
    if (reader.accept('UNSIGNED')) modifiers.push('unsigned');
    else if (reader.accept('SIGNED')) continue;
    else if (reader.accept('ZEROFILL')) {
      if (!modifiers.includes('unsigned')) modifiers.push('unsigned');
      modifiers.push('zerofill');
    } else if (reader.accept('NOT', 'NULL')) nullable = false;
    else if (reader.accept('NULL')) nullable = true;
    else if (reader.accept('CHARACTER', 'SET') || reader.accept('CHARSET')) {
      reader.acceptPunct('=');
      charset = (reader.value() ?? '').toLowerCase();
    } else if (reader.accept('COLLATE')) {
      reader.acceptPunct('=');
      collation = (reader.value() ?? '').toLowerCase();
    } else if (reader.accept('BINARY')) binary = true;
    else if (reader.accept('ASCII')) charset = 'latin1';
    else if (reader.accept('UNICODE')) charset = 'ucs2';
    else if (reader.accept('BYTE')) charset = 'binary';
    else if (reader.accept('DEFAULT')) {
      hasDefault = !reader.is('NULL');
      readExpression(reader);
    } else if (reader.accept('ON', 'UPDATE')) readExpression(reader);
    else if (reader.accept('AUTO_INCREMENT')) autoIncrement = true;
    else if (reader.accept('PRIMARY', 'KEY') || reader.accept('KEY')) {
      indexes.push(inlineKey(name, true));
      nullable = false;
    } else if (reader.accept('UNIQUE')) {
      reader.accept('KEY');
      indexes.push(inlineKey(name, false));
    } else if (reader.accept('COMMENT')) reader.value();
    else if (reader.accept('INVISIBLE')) invisible = true;
    else if (reader.accept('VISIBLE')) invisible = false;
    else if (reader.accept('GENERATED', 'ALWAYS') || reader.is('AS')) {
      if (reader.accept('AS', 'ROW')) {
        // MariaDB system-versioning period columns: information_schema calls them generated
        // (GENERATION_EXPRESSION 'ROW START' / 'ROW END'), stored and NOT NULL.
        generated = { expression: `ROW ${(reader.value() ?? '').toUpperCase()}`, stored: true };
        nullable = false;
        continue;
      }
      if (reader.accept('AS', 'IDENTITY')) {
        autoIncrement = true;
        if (reader.isPunct('(')) reader.skipGroup();
        continue;
      }
      if (!reader.accept('AS'))
        throw new ParseError(`column ${name}: expected AS after GENERATED ALWAYS`, reader.peek()?.start ?? 0);
      const inner = reader.skipGroup();
      generated = {
        expression: canonicalExpression(reader.text.slice(inner.start, inner.end), state),
        stored: false,
      };
      if (reader.accept('STORED') || reader.accept('PERSISTENT')) generated.stored = true;
      else reader.accept('VIRTUAL');
    } else if (reader.accept('STORED') || reader.accept('PERSISTENT')) {
      if (generated) generated.stored = true;
    } else if (reader.accept('VIRTUAL')) continue;
    else if (reader.accept('REFERENCES')) {
      reader.qualifiedName('a table name');
      if (reader.isPunct('(')) reader.skipGroup();
      while (reader.accept('MATCH') || reader.accept('ON')) {
        reader.value();
        if (reader.is('NULL') || reader.is('ACTION') || reader.is('DEFAULT')) reader.index++;
      }
    } else if (reader.accept('CONSTRAINT')) {
      if (!reader.is('CHECK')) reader.identifier('a constraint name');
    } else if (reader.accept('CHECK')) {
      reader.skipGroup();
      if (!reader.accept('NOT', 'ENFORCED')) reader.accept('ENFORCED');
    } else if (reader.accept('SRID')) reader.value();
    else if (reader.accept('REF_SYSTEM_ID')) {
      reader.acceptPunct('=');
      reader.value();
    } else if (reader.accept('COLUMN_FORMAT') || reader.accept('STORAGE')) reader.value();
    else if (
      reader.accept('WITH', 'SYSTEM', 'VERSIONING') ||
      reader.accept('WITHOUT', 'SYSTEM', 'VERSIONING')
    )
      continue;
    else reader.skipOne();
  }
  if (charset === 'binary' && TEXTUAL.has(dataType) && dataType !== 'enum' && dataType !== 'set') {
    // CHAR(n) CHARACTER SET binary is BINARY(n) on the server, TEXT … binary a BLOB.
    dataType =
      dataType === 'char'
        ? 'binary'
        : dataType === 'varchar'
          ? 'varbinary'
          : dataType.replace('text', 'blob');
  }
  const info: ColumnInfo & { invisible?: boolean } = {
    name,
    dataType,
    // Lower-cased whole, as the live loader reads information_schema.COLUMNS.COLUMN_TYPE.
    columnType: `${dataType}${args}${modifiers.length > 0 ? ` ${modifiers.join(' ')}` : ''}`.toLowerCase(),
    nullable: nullable && !indexes.some((index) => index.primary),
    charset,
    collation,
    generated,
    autoIncrement,
    hasDefault,
  };
  if (invisible) info.invisible = true;
  const declared = { charset, collation, binary, json: typeName === 'JSON' };
  resolveCharset(info, declared, table, state);
  // The table's own charset comes after its columns: resolve again in finishTable.
  table.pendingCharsets.push([info, declared]);
  return { info, indexes };
}

/** What a column's own DDL said about its character set; resolved against the table's when known. */
interface DeclaredCharset {
  charset: string | null;
  collation: string | null;
  binary: boolean;
  json: boolean;
}

function resolveCharset(
  column: ColumnInfo,
  declared: DeclaredCharset,
  table: TableState,
  state: LoadState,
): void {
  if (declared.json && state.flavor === 'mariadb') {
    // MariaDB's JSON is LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin.
    column.charset = 'utf8mb4';
    column.collation = 'utf8mb4_bin';
    return;
  }
  if (!TEXTUAL.has(column.dataType)) {
    column.charset = null;
    column.collation = null;
    return;
  }
  const tableCharset = table.charset ?? (table.collation ? charsetOfCollation(table.collation) : null);
  let charset = declared.charset === 'utf8' ? 'utf8mb3' : declared.charset;
  let collation = declared.collation;
  if (!charset && collation) charset = charsetOfCollation(collation);
  if (!charset) charset = tableCharset;
  if (!collation) {
    if (declared.binary && charset) collation = `${charset}_bin`;
    else if (charset && charset === tableCharset && table.collation) collation = table.collation;
    else collation = charset ? defaultCollation(charset, state.flavor, state.version) : null;
  }
  column.charset = charset;
  column.collation = collation;
}

/** Skip one expression of a column attribute (DEFAULT x, ON UPDATE f(), DEFAULT (expr), NEXT VALUE FOR s). */
function readExpression(reader: Reader): void {
  if (reader.isPunct('(')) {
    reader.skipGroup();
    return;
  }
  if (reader.isPunct('-') || reader.isPunct('+')) reader.index++;
  if (reader.accept('NEXT', 'VALUE', 'FOR') || reader.accept('PREVIOUS', 'VALUE', 'FOR')) {
    reader.qualifiedName('a sequence name');
    return;
  }
  reader.index++;
  if (reader.isPunct('.')) {
    reader.index++;
    reader.index++;
  }
  if (reader.isPunct('(')) reader.skipGroup();
}

/** Table options after the element list, then PARTITION BY …, WITH SYSTEM VERSIONING. */
function readTableOptions(reader: Reader, table: TableState, state: LoadState): void {
  while (!reader.atEnd()) {
    if (reader.acceptPunct(',')) continue;
    if (
      reader.is('AS') ||
      reader.is('SELECT') ||
      (reader.is('WITH') && !reader.is('SYSTEM', 1)) ||
      reader.is('IGNORE') ||
      reader.is('REPLACE') ||
      reader.is('TABLE') ||
      reader.is('VALUES') ||
      reader.isPunct('(')
    )
      return;
    if (reader.accept('PARTITION', 'BY')) {
      // Partitioning decides where rows go, not which columns or indexes exist: read past it.
      while (!reader.atEnd() && !reader.is('AS') && !reader.is('SELECT')) reader.skipOne();
      continue;
    }
    if (reader.accept('WITH', 'SYSTEM', 'VERSIONING')) continue;
    reader.accept('DEFAULT');
    if (reader.accept('ENGINE') || reader.accept('TYPE')) {
      reader.acceptPunct('=');
      table.engineName = reader.value();
      table.engine = table.engineName;
    } else if (reader.accept('CHARACTER', 'SET') || reader.accept('CHARSET')) {
      reader.acceptPunct('=');
      const charset = (reader.value() ?? '').toLowerCase();
      table.charset = charset === 'utf8' ? 'utf8mb3' : charset;
      if (!table.collation || charsetOfCollation(table.collation) !== table.charset)
        table.collation = defaultCollation(table.charset, state.flavor, state.version);
    } else if (reader.accept('COLLATE')) {
      reader.acceptPunct('=');
      table.collation = (reader.value() ?? '').toLowerCase();
      table.charset = charsetOfCollation(table.collation);
    } else {
      // Any other `name [=] value` option (COMMENT, ROW_FORMAT, AUTO_INCREMENT, STATS_*, UNION=(…), …).
      const token = reader.peek();
      if (!token) break;
      if (token.type !== 'word') {
        reader.skipOne();
        continue;
      }
      reader.index++;
      while (reader.is('DIRECTORY') || reader.is('FORMAT') || reader.is('ATTRIBUTE')) reader.index++;
      reader.acceptPunct('=');
      if (!reader.atEnd() && !reader.isPunct(',')) reader.skipOne();
    }
  }
}

/** Adds the indexes InnoDB creates for foreign keys no index covers, after the element list. */
function finishTable(table: TableState, state: LoadState): void {
  const pending = (
    table as TableState & { pendingForeignKeys?: { columns: string[]; name: string | null }[] }
  ).pendingForeignKeys;
  delete (table as TableState & { pendingForeignKeys?: unknown }).pendingForeignKeys;
  if (!table.engineName) table.engine = null;
  const engine = (table.engineName ?? 'InnoDB').toLowerCase();
  if (engine === 'innodb' && pending) {
    for (const foreignKey of pending) {
      const covered = table.indexes.some((index) =>
        foreignKey.columns.every(
          (column, position) => index.parts[position]?.column?.toLowerCase() === column.toLowerCase(),
        ),
      );
      if (covered || foreignKey.columns.length === 0) continue;
      const base = foreignKey.name ?? foreignKey.columns[0]!;
      table.indexes.push({
        name: uniqueIndexName(table, base),
        unique: false,
        primary: false,
        kind: 'btree',
        parts: foreignKey.columns.map((column) => ({ column, expression: null, prefixLength: null })),
        visible: true,
      });
    }
  }
  // Charsets and collations of textual columns, now that the table's defaults are known.
  for (const [column, declared] of table.pendingCharsets) resolveCharset(column, declared, table, state);
  table.pendingCharsets = [];
  // A UNIQUE NOT NULL key makes nothing nullable; PRIMARY KEY columns are NOT NULL.
  const primary = table.indexes.find((index) => index.primary);
  if (primary)
    for (const part of primary.parts) {
      const column = table.columns.find((entry) => entry.name.toLowerCase() === part.column?.toLowerCase());
      if (column) column.nullable = false;
    }
}

function readCreateIndex(
  reader: Reader,
  state: LoadState,
  flags: { unique: boolean; fulltext: boolean; spatial: boolean },
  skip: Skip,
  slice: StatementSlice,
): void {
  void slice;
  reader.accept('IF', 'NOT', 'EXISTS');
  const name = reader.identifier('an index name');
  let kind: IndexInfo['kind'] = flags.fulltext ? 'fulltext' : flags.spatial ? 'spatial' : 'btree';
  if (reader.accept('USING') || reader.accept('TYPE')) kind = indexType(reader.value(), kind);
  if (!reader.accept('ON')) throw new ParseError('CREATE INDEX: expected ON', reader.peek()?.start ?? 0);
  const target = reader.qualifiedName('a table name');
  const table = state.tables.get(keyOf(target.database ?? state.database, target.name));
  if (!table) {
    skip(
      `CREATE INDEX ${name}: table ${target.name} is not defined before this statement`,
      reader.peek()?.start ?? 0,
    );
    return;
  }
  const body = readIndexBody(reader, state, { primary: false, unique: flags.unique, kind }, name);
  addIndex(table, { ...body, name, named: true });
}

/** CREATE VIEW name [(columns)] AS select: columns from the list or the select list. */
function readView(reader: Reader, state: LoadState, orReplace: boolean, skip: Skip): void {
  void orReplace;
  reader.accept('IF', 'NOT', 'EXISTS');
  const target = reader.qualifiedName('a view name');
  const database = target.database ?? state.database;
  let names: string[] | null = null;
  if (reader.isPunct('(')) names = readNameList(reader);
  if (!reader.accept('AS')) {
    skip('CREATE VIEW: expected AS', reader.peek()?.start ?? 0);
    return;
  }
  const items = selectItems(reader);
  const sources = fromTables(reader, state, database);
  const columns: ColumnInfo[] = [];
  items.forEach((item, position) => {
    const name = names?.[position] ?? item.alias;
    if (item.star) {
      const tables = item.qualifier
        ? sources.filter((source) => source.alias.toLowerCase() === item.qualifier!.toLowerCase())
        : sources;
      for (const source of tables)
        for (const column of source.table?.columns ?? []) columns.push({ ...column });
      return;
    }
    let base: ColumnInfo | undefined;
    if (item.column) {
      const candidates = item.qualifier
        ? sources.filter((source) => source.alias.toLowerCase() === item.qualifier!.toLowerCase())
        : sources;
      for (const source of candidates) {
        base = source.table?.columns.find(
          (column) => column.name.toLowerCase() === item.column!.toLowerCase(),
        );
        if (base) break;
      }
    }
    const columnName = name ?? item.column ?? item.text;
    columns.push(
      base
        ? { ...base, name: columnName, generated: null, autoIncrement: false }
        : {
            name: columnName,
            dataType: 'unknown',
            columnType: 'unknown',
            nullable: true,
            charset: null,
            collation: null,
            generated: null,
            autoIncrement: false,
            hasDefault: false,
          },
    );
  });
  if (names && names.length !== columns.length && !items.some((item) => item.star)) {
    skip(`CREATE VIEW ${target.name}: ${names.length} column names for ${items.length} select items`, 0);
    return;
  }
  const view = emptyTable(database, target.name);
  view.kind = 'view';
  view.columns = columns;
  state.tables.set(keyOf(database, target.name), view);
}

interface SelectItem {
  alias: string | null;
  column: string | null;
  qualifier: string | null;
  star: boolean;
  text: string;
}

/** Items of the (first) SELECT's list; the reader stops at its FROM (or the end). */
function selectItems(reader: Reader): SelectItem[] {
  // Skip WITH …, leading parentheses.
  while (reader.acceptPunct('(')) continue;
  if (reader.accept('WITH')) {
    reader.accept('RECURSIVE');
    do {
      reader.identifier('a CTE name');
      if (reader.isPunct('(')) reader.skipGroup();
      reader.accept('AS');
      reader.skipGroup();
    } while (reader.acceptPunct(','));
  }
  while (reader.acceptPunct('(')) continue;
  if (!reader.accept('SELECT'))
    throw new ParseError('CREATE VIEW: expected SELECT', reader.peek()?.start ?? 0);
  while (
    reader.accept('DISTINCT') ||
    reader.accept('ALL') ||
    reader.accept('DISTINCTROW') ||
    reader.accept('STRAIGHT_JOIN') ||
    reader.accept('SQL_CACHE') ||
    reader.accept('SQL_NO_CACHE') ||
    reader.accept('HIGH_PRIORITY') ||
    reader.accept('SQL_CALC_FOUND_ROWS') ||
    reader.accept('SQL_SMALL_RESULT') ||
    reader.accept('SQL_BIG_RESULT') ||
    reader.accept('SQL_BUFFER_RESULT')
  )
    continue;
  const items: SelectItem[] = [];
  for (;;) {
    const start = reader.index;
    while (
      !reader.atEnd() &&
      !reader.isPunct(',') &&
      !reader.is('FROM') &&
      !reader.isPunct(')') &&
      !reader.is('UNION') &&
      !reader.is('INTO') &&
      !reader.is('EXCEPT') &&
      !reader.is('INTERSECT') &&
      !reader.isPunct(';')
    )
      reader.skipOne();
    const tokens = reader.tokens.slice(start, reader.index);
    if (tokens.length > 0) items.push(selectItem(tokens, reader.text));
    if (!reader.acceptPunct(',')) break;
  }
  return items;
}

function selectItem(tokens: Token[], text: string): SelectItem {
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  const itemText = text.slice(first.start, last.end);
  const name = (token: Token | undefined) =>
    token &&
    (token.type === 'ident' || token.type === 'word' || token.type === 'dstring' || token.type === 'string')
      ? token.type === 'word'
        ? text.slice(token.start, token.end)
        : token.value
      : null;
  // `t.*` / `*`
  if (
    last.type === 'punct' &&
    last.value === '*' &&
    (tokens.length === 1 || (tokens.length === 3 && tokens[1]!.value === '.'))
  )
    return {
      alias: null,
      column: null,
      qualifier: tokens.length === 3 ? name(first) : null,
      star: true,
      text: itemText,
    };
  let alias: string | null = null;
  let body = tokens;
  const beforeLast = tokens[tokens.length - 2];
  if (tokens.length >= 3 && beforeLast?.type === 'word' && beforeLast.value === 'AS') {
    alias = name(last);
    body = tokens.slice(0, -2);
  } else if (
    tokens.length >= 2 &&
    (last.type === 'ident' ||
      last.type === 'dstring' ||
      (last.type === 'word' && !RESERVED_AFTER_EXPRESSION.has(last.value))) &&
    !(beforeLast?.type === 'punct' && beforeLast.value === '.') &&
    !(beforeLast?.type === 'punct' && /[-+*/%=<>!^&|~]/.test(beforeLast.value))
  ) {
    alias = name(last);
    body = tokens.slice(0, -1);
  }
  // A plain column reference: col, t.col, db.t.col.
  let column: string | null = null;
  let qualifier: string | null = null;
  const isName = (token: Token | undefined) => token && (token.type === 'ident' || token.type === 'word');
  if (body.length === 1 && isName(body[0])) column = name(body[0]);
  else if (body.length === 3 && isName(body[0]) && body[1]!.value === '.' && isName(body[2])) {
    qualifier = name(body[0]);
    column = name(body[2]);
  } else if (body.length === 5 && isName(body[2]) && body[3]!.value === '.' && isName(body[4])) {
    qualifier = name(body[2]);
    column = name(body[4]);
  }
  return { alias, column, qualifier, star: false, text: itemText.slice(0, 64) };
}

const RESERVED_AFTER_EXPRESSION = new Set([
  'END',
  'NULL',
  'TRUE',
  'FALSE',
  'DESC',
  'ASC',
  'AND',
  'OR',
  'NOT',
  'IS',
  'LIKE',
  'IN',
  'BETWEEN',
]);

/** Tables of the FROM clause (after selectItems), by alias, resolved against what is loaded so far. */
function fromTables(
  reader: Reader,
  state: LoadState,
  database: string | null,
): { alias: string; table: TableState | undefined }[] {
  const sources: { alias: string; table: TableState | undefined }[] = [];
  if (!reader.accept('FROM')) return sources;
  let expectTable = true;
  let depth = 0;
  while (!reader.atEnd()) {
    const token = reader.peek()!;
    if (token.type === 'punct' && token.value === '(') {
      // A derived table or a parenthesised join: step in (tables inside still count).
      depth++;
      reader.index++;
      expectTable = true;
      continue;
    }
    if (token.type === 'punct' && token.value === ')') {
      if (depth === 0) break;
      depth--;
      reader.index++;
      continue;
    }
    if (
      token.type === 'word' &&
      (token.value === 'WHERE' ||
        token.value === 'GROUP' ||
        token.value === 'HAVING' ||
        token.value === 'ORDER' ||
        token.value === 'LIMIT' ||
        token.value === 'UNION' ||
        token.value === 'WINDOW')
    ) {
      if (depth === 0) break;
    }
    if (token.type === 'word' && (token.value === 'JOIN' || token.value === 'STRAIGHT_JOIN')) {
      reader.index++;
      expectTable = true;
      continue;
    }
    if (token.type === 'punct' && token.value === ',') {
      reader.index++;
      expectTable = true;
      continue;
    }
    if (
      expectTable &&
      (token.type === 'ident' ||
        (token.type === 'word' && token.value !== 'SELECT' && token.value !== 'LATERAL'))
    ) {
      const name = reader.qualifiedName('a table name');
      reader.accept('AS');
      let alias = name.name;
      const next = reader.peek();
      if (next && (next.type === 'ident' || (next.type === 'word' && !JOIN_WORDS.has(next.value)))) {
        alias = reader.identifier('an alias');
      }
      sources.push({ alias, table: state.tables.get(keyOf(name.database ?? database, name.name)) });
      expectTable = false;
      continue;
    }
    expectTable = false;
    reader.index++;
  }
  return sources;
}

const JOIN_WORDS = new Set([
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'CROSS',
  'NATURAL',
  'STRAIGHT_JOIN',
  'ON',
  'USING',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'UNION',
  'FULL',
  'OUTER',
  'USE',
  'FORCE',
  'IGNORE',
  'PARTITION',
  'WINDOW',
  'FOR',
  'LOCK',
  'INTO',
  'WITH',
  'EXCEPT',
  'INTERSECT',
]);

/** ALTER TABLE: the changes that decide columns and indexes; the rest (ENGINE, partitions, …) is read past. */
function readAlter(reader: Reader, state: LoadState, slice: StatementSlice, skip: Skip): void {
  void slice;
  if (!reader.accept('ONLINE')) reader.accept('OFFLINE');
  reader.accept('IGNORE');
  if (!reader.accept('TABLE')) {
    state.summary.ignored++;
    return;
  }
  reader.accept('IF', 'EXISTS');
  const target = reader.qualifiedName('a table name');
  const key = keyOf(target.database ?? state.database, target.name);
  const table = state.tables.get(key);
  if (!table) {
    skip(
      `ALTER TABLE ${target.name}: the table is not defined before this statement`,
      reader.peek()?.start ?? 0,
    );
    return;
  }
  const foreignKeys: { columns: string[]; name: string | null }[] = [];
  do {
    if (reader.atEnd()) break;
    if (reader.accept('ADD')) {
      reader.accept('COLUMN');
      reader.accept('IF', 'NOT', 'EXISTS');
      if (reader.isPunct('(')) {
        reader.index++;
        do {
          readTableElement(reader, state, table, foreignKeys);
        } while (reader.acceptPunct(','));
        reader.expectPunct(')');
      } else {
        readTableElement(reader, state, table, foreignKeys);
        reader.accept('FIRST');
        if (reader.accept('AFTER')) reader.identifier('a column name');
      }
    } else if (reader.accept('DROP')) {
      if (reader.accept('PRIMARY', 'KEY')) table.indexes = table.indexes.filter((index) => !index.primary);
      else if (reader.accept('INDEX') || reader.accept('KEY')) {
        reader.accept('IF', 'EXISTS');
        const name = reader.identifier('an index name').toLowerCase();
        table.indexes = table.indexes.filter((index) => index.name.toLowerCase() !== name);
      } else if (
        reader.accept('FOREIGN', 'KEY') ||
        reader.accept('CONSTRAINT') ||
        reader.accept('CHECK') ||
        reader.accept('PARTITION')
      ) {
        reader.skipToElementEnd();
      } else {
        reader.accept('COLUMN');
        reader.accept('IF', 'EXISTS');
        const name = reader.identifier('a column name').toLowerCase();
        table.columns = table.columns.filter((column) => column.name.toLowerCase() !== name);
        for (const index of table.indexes)
          index.parts = index.parts.filter((part) => part.column?.toLowerCase() !== name);
        table.indexes = table.indexes.filter((index) => index.parts.length > 0);
      }
    } else if (reader.accept('MODIFY') || reader.is('CHANGE')) {
      const change = reader.accept('CHANGE');
      reader.accept('COLUMN');
      reader.accept('IF', 'EXISTS');
      const old = change ? reader.identifier('a column name') : null;
      const column = readColumn(reader, state, table);
      const oldName = (old ?? column.info.name).toLowerCase();
      const at = table.columns.findIndex((entry) => entry.name.toLowerCase() === oldName);
      if (at === -1) table.columns.push(column.info);
      else table.columns[at] = column.info;
      if (old && old.toLowerCase() !== column.info.name.toLowerCase())
        for (const index of table.indexes)
          for (const part of index.parts)
            if (part.column?.toLowerCase() === oldName) part.column = column.info.name;
      for (const index of column.indexes) addIndex(table, index);
      reader.accept('FIRST');
      if (reader.accept('AFTER')) reader.identifier('a column name');
    } else if (reader.accept('RENAME')) {
      if (reader.accept('INDEX') || reader.accept('KEY')) {
        const from = reader.identifier('an index name').toLowerCase();
        reader.accept('TO');
        const to = reader.identifier('an index name');
        const index = table.indexes.find((entry) => entry.name.toLowerCase() === from);
        if (index) index.name = to;
      } else if (reader.accept('COLUMN')) {
        const from = reader.identifier('a column name').toLowerCase();
        reader.accept('TO');
        const to = reader.identifier('a column name');
        const column = table.columns.find((entry) => entry.name.toLowerCase() === from);
        if (column) column.name = to;
        for (const index of table.indexes)
          for (const part of index.parts) if (part.column?.toLowerCase() === from) part.column = to;
      } else {
        if (!reader.accept('TO')) reader.accept('AS');
        const to = reader.qualifiedName('a table name');
        state.tables.delete(key);
        table.name = to.name;
        table.schema = to.database ?? state.database;
        state.tables.set(keyOf(table.schema, table.name), table);
      }
    } else if (reader.accept('ALTER', 'INDEX') || reader.accept('ALTER', 'KEY')) {
      const name = reader.identifier('an index name').toLowerCase();
      const index = table.indexes.find((entry) => entry.name.toLowerCase() === name);
      if (reader.accept('INVISIBLE') || reader.accept('IGNORED')) {
        if (index) index.visible = false;
      } else if (reader.accept('VISIBLE') || reader.accept('NOT', 'IGNORED')) {
        if (index) index.visible = true;
      }
    } else {
      // ENGINE=…, AUTO_INCREMENT=…, DISABLE KEYS, ALGORITHM=…, partition maintenance, ALTER COLUMN … DEFAULT …
      if (reader.accept('ENGINE')) {
        reader.acceptPunct('=');
        table.engineName = reader.value();
        table.engine = table.engineName;
      }
      reader.skipToElementEnd();
    }
  } while (reader.acceptPunct(','));
  finishTable(Object.assign(table, { pendingForeignKeys: foreignKeys }), state);
  state.summary.ignored++;
}
