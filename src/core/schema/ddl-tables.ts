// CREATE TABLE, CREATE INDEX and the keys of a table, for the schema loader (ddl-load.ts).
//
// Design note: `readTableElements` reads the element list one element at a time; an element it cannot
// read is left out and described (the table still loads, reported as partial), so only a statement
// whose list does not close is skipped. Keys are named as the server names unnamed ones (`col`,
// `col_2`, …); `finishTable` runs after the table options, since they decide the engine (InnoDB adds an
// index for a foreign key no key covers) and the charset the columns inherit. Table options and
// partitioning are read past by balanced parentheses: they decide where rows go, not which columns or
// keys exist.

import type { IndexInfo, IndexPart } from '../model/schema.js';
import type { StatementSlice } from '../sql/split.js';
import {
  charsetOfCollation,
  defaultCollation,
  knownCharset,
  readColumn,
  resolveCharset,
  serverCollation,
} from './ddl-columns.js';
import { applyKeyLimits, declaredBtree, resolveIndexKinds } from './ddl-keys.js';
import { ParseError, RejectedError, type Reader } from './ddl-reader.js';
import {
  canonicalExpression,
  emptyTable,
  keyOf,
  type LoadState,
  type Skip,
  type TableState,
} from './ddl-state.js';

export function readCreateTable(
  reader: Reader,
  state: LoadState,
  orReplace: boolean,
  skip: Skip,
  note: Skip,
): void {
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
  const rejection = serverRejection(table, state);
  if (rejection) {
    skip(rejection, 0);
    return;
  }
  state.tables.set(key, table);
  if (partial.length > 0) note(`loaded without ${partial.join('; ')}`, 0);
}

/** Columns of a table being read that were declared NULL or DEFAULT NULL. */
const explicitNulls = new WeakMap<TableState, Set<string>>();

/** Why the server refuses a table the loader read whole (its own message), or null. */
function serverRejection(table: TableState, state: LoadState): string | null {
  const auto = table.columns.filter((column) => column.autoIncrement);
  const inKey = (name: string) =>
    table.indexes.some((index) => index.parts.some((part) => part.column?.toLowerCase() === name));
  if (auto.length > 1 || (auto.length === 1 && !inKey(auto[0]!.name.toLowerCase())))
    return 'Incorrect table definition; there can be only one auto column and it must be defined as a key (ERROR 1075)';
  const keys = applyKeyLimits(table, state);
  if (keys) return keys;
  const nullable = explicitNulls.get(table);
  const primary = table.indexes.find((index) => index.primary);
  // MySQL 5.7.3 and later; MariaDB makes such a column NOT NULL.
  if (
    state.flavor === 'mysql' &&
    state.version >= 50703 &&
    nullable &&
    primary?.parts.some((part) => part.column !== null && nullable.has(part.column.toLowerCase()))
  )
    return 'All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use UNIQUE instead (ERROR 1171)';
  return null;
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
      if (!(error instanceof ParseError) || error instanceof RejectedError) throw error;
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

export function readTableElement(
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
  if (column.explicitNull) {
    const declared = explicitNulls.get(table) ?? new Set<string>();
    declared.add(column.info.name.toLowerCase());
    explicitNulls.set(table, declared);
  }
  for (const index of column.indexes) addIndex(table, index);
}

export function readNameList(reader: Reader): string[] {
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
export function readIndexBody(
  reader: Reader,
  state: LoadState,
  flags: { primary: boolean; unique: boolean; kind: IndexInfo['kind'] },
  fallbackName: string | null,
): IndexInfo & { named: boolean; usingBtree: boolean } {
  let name: string | null = null;
  if (!reader.isPunct('(') && !reader.is('USING') && !reader.is('TYPE'))
    name = reader.identifier('an index name');
  let kind = flags.kind;
  let usingBtree = false;
  const using = () => {
    const value = reader.value();
    usingBtree = value?.toUpperCase() === 'BTREE';
    kind = indexType(value, kind);
  };
  if (reader.accept('USING') || reader.accept('TYPE')) using();
  const parts = readKeyParts(reader, state);
  let visible = true;
  // Index options: KEY_BLOCK_SIZE [=] n, USING t, WITH PARSER p, COMMENT 's', VISIBLE, INVISIBLE,
  // IGNORED, NOT IGNORED, CLUSTERING=yes, ENGINE_ATTRIBUTE …
  while (!reader.atEnd() && !reader.isPunct(',') && !reader.isPunct(')')) {
    if (reader.accept('INVISIBLE') || reader.accept('IGNORED')) visible = false;
    else if (reader.accept('VISIBLE') || reader.accept('NOT', 'IGNORED')) visible = true;
    else if (reader.accept('USING') || reader.accept('TYPE')) using();
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
    usingBtree,
  };
}

export function indexType(value: string | null, current: IndexInfo['kind']): IndexInfo['kind'] {
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

export function addIndex(
  table: TableState,
  index: IndexInfo & { named?: boolean; usingBtree?: boolean },
): void {
  const { named, usingBtree, ...info } = index;
  if (usingBtree) declaredBtree.add(info);
  // information_schema.STATISTICS gives SPATIAL key parts a SUB_PART of 32 on both servers.
  if (info.kind === 'spatial')
    info.parts = info.parts.map((part) => ({ ...part, prefixLength: part.prefixLength ?? 32 }));
  // A prefix as long as the column is the whole column: the server keeps no SUB_PART for it.
  else
    info.parts = info.parts.map((part) =>
      isWholeColumn(table, part) ? { ...part, prefixLength: null } : part,
    );
  if (info.primary) {
    info.name = 'PRIMARY';
    table.indexes = table.indexes.filter((entry) => !entry.primary);
    table.indexes.unshift(info);
    dropReplacedForeignKeyIndexes(table, info);
    return;
  }
  if (!named || !info.name) {
    const base = info.parts[0]?.column ?? 'functional_index';
    info.name = uniqueIndexName(table, base);
  }
  table.indexes.push(info);
  dropReplacedForeignKeyIndexes(table, info);
}

function isWholeColumn(table: TableState, part: IndexPart): boolean {
  if (part.prefixLength === null || part.column === null) return false;
  const name = part.column.toLowerCase();
  const column = table.columns.find((entry) => entry.name.toLowerCase() === name);
  const length = column && /^(?:var)?(?:char|binary)\((\d+)\)/.exec(column.columnType)?.[1];
  return length !== undefined && Number(length) === part.prefixLength;
}

/** The index's leading key parts are these columns, whole (a prefix part cannot serve a foreign key). */
function coversColumns(index: IndexInfo, columns: readonly string[]): boolean {
  return columns.every((column, position) => {
    const part = index.parts[position];
    return part?.prefixLength === null && part.column?.toLowerCase() === column.toLowerCase();
  });
}

/** A new index that covers a foreign key replaces the index the server had added for it. */
function dropReplacedForeignKeyIndexes(table: TableState, added: IndexInfo): void {
  if (!table.foreignKeyIndexes?.length) return;
  const implicit = new Set(table.foreignKeyIndexes);
  table.indexes = table.indexes.filter((index) => {
    const name = index.name.toLowerCase();
    if (index === added || !implicit.has(name)) return true;
    const columns = index.parts.map((part) => part.column ?? '');
    if (!coversColumns(added, columns)) return true;
    implicit.delete(name);
    return false;
  });
  table.foreignKeyIndexes = [...implicit];
}

function uniqueIndexName(table: { indexes: IndexInfo[] }, base: string): string {
  const taken = new Set(table.indexes.map((entry) => entry.name.toLowerCase()));
  if (!taken.has(base.toLowerCase()) && base.toUpperCase() !== 'PRIMARY') return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}_${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
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
    if (reader.accept('SEQUENCE')) {
      // MariaDB's SHOW CREATE TABLE of a sequence: its columns, then `SEQUENCE=1`.
      reader.acceptPunct('=');
      if (reader.value() === '1') table.kind = 'sequence';
      continue;
    }
    reader.accept('DEFAULT');
    if (reader.accept('ENGINE') || reader.accept('TYPE')) {
      reader.acceptPunct('=');
      table.engineName = reader.value();
      table.engine = table.engineName;
    } else if (reader.accept('CHARACTER', 'SET') || reader.accept('CHARSET')) {
      reader.acceptPunct('=');
      const charset = knownCharset(reader);
      table.charset = charset === 'utf8' ? 'utf8mb3' : charset;
      if (!table.collation || charsetOfCollation(table.collation) !== table.charset)
        table.collation = defaultCollation(table.charset, state.flavor, state.version);
    } else if (reader.accept('COLLATE')) {
      reader.acceptPunct('=');
      table.collation = serverCollation(reader.value() ?? '', state.flavor, state.version);
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
export function finishTable(table: TableState, state: LoadState): void {
  const pending = (
    table as TableState & { pendingForeignKeys?: { columns: string[]; name: string | null }[] }
  ).pendingForeignKeys;
  delete (table as TableState & { pendingForeignKeys?: unknown }).pendingForeignKeys;
  if (!table.engineName) table.engine = null;
  // The SQL layer adds the key whatever the engine (a MyISAM table keeps it, and ignores the
  // constraint): both servers list it in information_schema.STATISTICS.
  for (const foreignKey of pending ?? []) {
    const covered = table.indexes.some((index) => coversColumns(index, foreignKey.columns));
    if (covered || foreignKey.columns.length === 0) continue;
    const name = uniqueIndexName(table, foreignKey.name ?? foreignKey.columns[0]!);
    table.indexes.push({
      name,
      unique: false,
      primary: false,
      kind: 'btree',
      parts: foreignKey.columns.map((column) => ({ column, expression: null, prefixLength: null })),
      visible: true,
    });
    (table.foreignKeyIndexes ??= []).push(name.toLowerCase());
  }
  resolveIndexKinds(table, state);
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

export function readCreateIndex(
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
  let usingBtree = false;
  if (reader.accept('USING') || reader.accept('TYPE')) {
    const value = reader.value();
    usingBtree = value?.toUpperCase() === 'BTREE';
    kind = indexType(value, kind);
  }
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
  const before = [...table.indexes];
  addIndex(table, { ...body, name, named: true, usingBtree: body.usingBtree || usingBtree });
  // The engine decides the new key's type and length, as for the keys of CREATE TABLE.
  resolveIndexKinds(table, state);
  const rejection = applyKeyLimits(table, state);
  if (rejection) {
    table.indexes = before;
    skip(`CREATE INDEX ${name}: ${rejection}`, 0);
  }
}
