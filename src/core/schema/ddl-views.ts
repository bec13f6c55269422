// CREATE VIEW for the schema loader (ddl-load.ts): a view's columns, for resolving queries against it.
//
// Design note: the view's column names come from its column list or its (first) SELECT's items; an item
// that names a column of a table in the FROM clause (by alias, loaded before the view) gets that
// column's type. The SELECT is not parsed: items are split at depth-0 commas and the FROM clause is
// walked for table names, which is enough for the names and keeps views of any syntax loadable.
// mysqldump's stand-in tables for views are replaced when the real CREATE VIEW comes.

import type { ColumnInfo } from '../model/schema.js';
import type { Token } from './ddl-tokens.js';
import { ParseError, type Reader } from './ddl-reader.js';
import { emptyTable, keyOf, type LoadState, type Skip, type TableState } from './ddl-state.js';
import { readNameList } from './ddl-tables.js';

/** CREATE VIEW name [(columns)] AS select: columns from the list or the select list. */
export function readView(reader: Reader, state: LoadState, orReplace: boolean, skip: Skip): void {
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
