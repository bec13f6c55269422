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
//
// The readers live in one module per statement family: ddl-tables.ts (CREATE TABLE, CREATE INDEX,
// keys), ddl-columns.ts (column definitions, charsets), ddl-views.ts (CREATE VIEW), ddl-alter.ts
// (ALTER TABLE), on the cursor of ddl-reader.ts and the shared state of ddl-state.ts. This module
// splits the text into statements, dispatches each, applies DROP/RENAME/USE and reports what it skipped.

import { splitStatements, type StatementSlice } from '../sql/split.js';
import { tokenize, versionNumber, type Token } from './ddl-tokens.js';
import { unwrapClientOutput } from './client-output.js';
import { readAlter } from './ddl-alter.js';
import { ParseError, Reader } from './ddl-reader.js';
import {
  EXPRESSION_BUDGET,
  emptyTable,
  keyOf,
  sequenceColumns,
  type TableState,
  type LoadOptions,
  type LoadState,
  type SchemaLoadResult,
  type SchemaSource,
  type Skip,
  type SkippedStatement,
} from './ddl-state.js';
import { readCreateIndex, readCreateTable } from './ddl-tables.js';
import { readView } from './ddl-views.js';

export type {
  LoadOptions,
  SchemaLoadResult,
  SchemaLoadSummary,
  SchemaSource,
  SkippedStatement,
} from './ddl-state.js';

/** Load schema text (one source or several, applied in order). Never throws on bad input. */
export function loadSchemaText(
  input: string | readonly SchemaSource[],
  options: LoadOptions = {},
): SchemaLoadResult {
  const loader = new SchemaLoader(options);
  const sources = typeof input === 'string' ? [{ name: '', text: input }] : input;
  for (const source of sources) {
    loader.startSource(sources.length > 1 || source.name ? source.name || undefined : undefined);
    // Each file of a `--tab` directory starts without a database (the file belongs to the dump's).
    const text = unwrapClientOutput(normalizeText(source.text));
    for (const slice of splitStatements(text)) loader.statement(slice);
  }
  return loader.result();
}

/**
 * The loader fed one statement at a time, for input read as a stream (a schema file far bigger than
 * the text a request may carry; main/services/schema-files.ts): the same result as loadSchemaText on
 * the whole text, with memory bounded by the model and the longest statement. The caller splits the
 * text (core/sql/split-stream.ts) and unwraps pasted client output first (`hasClientFraming`).
 */
export class SchemaLoader {
  private readonly state: LoadState;

  constructor(options: LoadOptions = {}) {
    const flavor = options.flavor ?? 'mysql';
    this.state = {
      flavor,
      expressionBudget: EXPRESSION_BUDGET,
      printExpression: options.printExpression,
      version: versionNumber(options.version ?? (flavor === 'mariadb' ? '10.11.0' : '8.0.33')),
      database: null,
      tables: new Map(),
      summary: { tables: 0, views: 0, sequences: 0, loaded: [], skipped: [], ignored: 0, partial: [] },
      source: undefined,
    };
  }

  /** The next statements come from this source (its name in skipped entries; undefined: one text). */
  startSource(name: string | undefined): void {
    this.state.source = name;
  }

  /** Apply one statement, as the server would. Never throws on bad input. */
  statement(slice: StatementSlice): void {
    for (const part of serverStatements(slice)) readStatement(part, this.state);
  }

  /** The schema and the account of what was loaded and skipped, after the last statement. */
  result(): SchemaLoadResult {
    const state = this.state;
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
        tables: tables.map(
          ({
            kind,
            engineName: _engine,
            charset: _charset,
            pendingCharsets: _pending,
            foreignKeyIndexes: _implicit,
            ...table
          }) => (kind === 'table' ? table : { ...table, kind }),
        ),
      },
      summary,
    };
  }
}

/**
 * The statements the server runs for one client statement. After `DELIMITER //` a client sends all
 * the text up to `//` at once, and the mysql/mariadb clients enable multi-statements, so the server
 * runs every `;`-separated statement of it (Cacti's cacti.sql sets `DELIMITER //` and never ends a
 * statement with `//`: the whole file is one client statement). A part that holds BEGIN may be a
 * compound statement whose body has its own `;`: from there on the rest stays one statement.
 */
function serverStatements(slice: StatementSlice): StatementSlice[] {
  if (!slice.sql.includes(';')) return [slice];
  const parts = splitStatements(slice.sql);
  if (parts.length <= 1) return [slice];
  const result: StatementSlice[] = [];
  for (const part of parts) {
    const shifted: StatementSlice = {
      sql: part.sql,
      offset: slice.offset + part.offset,
      line: slice.line + part.line - 1,
      column: part.line === 1 ? slice.column + part.column - 1 : part.column,
    };
    if (/\bBEGIN\b/i.test(part.sql)) {
      result.push({ ...shifted, sql: slice.sql.slice(part.offset) });
      break;
    }
    result.push(shifted);
  }
  return result;
}

/** A BOM is dropped; NUL bytes become spaces (they cannot be in DDL and would end C strings). */
function normalizeText(text: string): string {
  let result = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (result.includes('\u0000')) result = result.split('\u0000').join(' ');
  return result;
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
    const sequence: TableState = {
      ...emptyTable(database ?? state.database, name),
      kind: 'sequence',
      columns: sequenceColumns(),
    };
    // START WITH …, CACHE …, NOCYCLE … decide values, not columns; ENGINE= is kept as for tables.
    while (!reader.atEnd())
      if (reader.accept('ENGINE')) {
        reader.acceptPunct('=');
        sequence.engine = sequence.engineName = reader.value();
      } else reader.index++;
    state.tables.set(key, sequence);
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
