// Equivalent forms inside expressions and clauses (the second half of equivalents.ts, which runs these): the
// DEFAULT keyword as a value, JSON_VALUE … RETURNING, SUBSTRING … FROM … FOR, CAST type synonyms,
// INTERSECT/EXCEPT ALL, MySQL's INSERT row alias, MariaDB's FETCH FIRST. Each returns edits of the
// statement's own text (equivalents.ts maps positions back) and what it rewrote.
/*
 * Design note (the meaning of each rewrite, from the servers' manuals):
 * - `DEFAULT` as a value (`VALUES (1, DEFAULT)`, `SET a = DEFAULT`): the column's default. Parsed as the
 *   placeholder column `__dflt_` (same length), turned back into `{type: 'default', value: 'DEFAULT'}` after
 *   the parse (equivalents.ts), so no rule reads it as a column or a NULL.
 * - `JSON_VALUE(doc, path RETURNING type [ON EMPTY / ON ERROR …])` is `CAST(JSON_VALUE(doc, path) AS type)`
 *   for what the query reads and compares (the ON EMPTY / ON ERROR defaults only change the result for
 *   documents without the path): a comparison with it keeps the returned type, so no rule sees a string.
 * - `SUBSTRING(s FROM p [FOR n])` / `SUBSTR` is `SUBSTRING(s, p[, n])`.
 * - `CAST(x AS DEC|REAL|CHARACTER …)` is DECIMAL, DOUBLE (without REAL_AS_FLOAT), CHAR.
 * - `INTERSECT ALL` / `EXCEPT ALL` keep duplicates: the same tables, columns and conditions are read; the
 *   ALL is blanked.
 * - `INSERT … AS new [(m, n)] ON DUPLICATE KEY UPDATE c = new.a` (MySQL 8.0.19+): `new.a` is `VALUES(a)`,
 *   an alias column is `VALUES(<the column it names>)`; only when the alias's columns can be named from the
 *   statement's own column list.
 * - `[OFFSET n ROWS] FETCH {FIRST | NEXT} [m] {ROW | ROWS} ONLY` (MariaDB) is `LIMIT m [OFFSET n]`; WITH
 *   TIES is left to the grammar (it returns more rows than the limit).
 */

import type { Token } from './tolerant.js';

/** Replace `[start, end)` of the original statement by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The placeholder the DEFAULT keyword is parsed as (same length). */
export const DEFAULT_STAND_IN = '__dflt_';
/** The placeholder an empty row `()` of INSERT … VALUES is parsed with (the row is emptied again after). */
export const EMPTY_ROW_STAND_IN = '__empty';

const upper = (token: Token | undefined): string => (token?.kind === 'word' ? token.text.toUpperCase() : '');
const isSymbol = (token: Token | undefined, symbol: string): boolean =>
  token?.kind === 'symbol' && token.text === symbol;

function closing(tokens: readonly Token[], open: number): number {
  const depth = tokens[open]!.depth;
  for (let index = open + 1; index < tokens.length; index++)
    if (isSymbol(tokens[index], ')') && tokens[index]!.depth === depth) return index;
  return -1;
}

/** Rewrites found at token `index`; `constructs` gets their names. Returns the index to continue after. */
export function expressionEdits(
  tokens: readonly Token[],
  index: number,
  context: { sql: string; verb: string; flavor: 'mysql' | 'mariadb' },
  edits: Edit[],
  constructs: Set<string>,
): number {
  const token = tokens[index]!;
  const word = upper(token);
  const next = tokens[index + 1];
  const previous = tokens[index - 1];
  if (
    isSymbol(token, '(') &&
    isSymbol(next, ')') &&
    token.depth === 0 &&
    (context.verb === 'INSERT' || context.verb === 'REPLACE') &&
    !context.sql.includes(EMPTY_ROW_STAND_IN)
  ) {
    // `INSERT INTO t () VALUES (), ()`: no columns named, every column its default.
    const before = upper(previous);
    if (
      before === 'VALUES' ||
      before === 'VALUE' ||
      (isSymbol(previous, ',') && isSymbol(tokens[index - 2], ')'))
    ) {
      edits.push({ start: token.end, end: next!.start, text: EMPTY_ROW_STAND_IN });
      constructs.add('empty VALUES row');
    } else if (
      previous &&
      (previous.kind === 'word' || previous.kind === 'identifier') &&
      ['VALUES', 'VALUE', 'SELECT'].includes(upper(tokens[index + 2]))
    ) {
      edits.push({ start: token.start, end: next!.end, text: '' });
      constructs.add('empty column list');
    }
    return index + 1;
  }
  if (word === 'DEFAULT' && ['INSERT', 'REPLACE', 'UPDATE'].includes(context.verb)) {
    const value = isSymbol(previous, '(') || isSymbol(previous, ',') || isSymbol(previous, '=');
    const ends =
      !next ||
      isSymbol(next, ',') ||
      isSymbol(next, ')') ||
      isSymbol(next, ';') ||
      ['WHERE', 'ON', 'ORDER', 'LIMIT', 'AS'].includes(upper(next));
    if (value && ends && !context.sql.includes(DEFAULT_STAND_IN)) {
      edits.push({ start: token.start, end: token.end, text: DEFAULT_STAND_IN });
      constructs.add('DEFAULT value');
    }
  } else if (word === 'JSON_VALUE' && isSymbol(next, '(') && context.flavor === 'mysql') {
    // MariaDB 10.11's JSON_VALUE has no RETURNING.
    return jsonValue(tokens, index, edits, constructs);
  } else if ((word === 'SUBSTRING' || word === 'SUBSTR') && isSymbol(next, '(')) {
    const close = closing(tokens, index + 1);
    const depth = next!.depth + 1;
    const from = tokens.findIndex(
      (item, at) => at > index + 2 && at < close && item.depth === depth && upper(item) === 'FROM',
    );
    if (close > 0 && from > 0) {
      edits.push({ start: tokens[from]!.start, end: tokens[from]!.end, text: ',' });
      const forAt = tokens.findIndex(
        (item, at) => at > from && at < close && item.depth === depth && upper(item) === 'FOR',
      );
      if (forAt > 0) edits.push({ start: tokens[forAt]!.start, end: tokens[forAt]!.end, text: ',' });
      constructs.add('SUBSTRING … FROM');
    }
  } else if (
    ['DEC', 'REAL', 'CHARACTER'].includes(word) &&
    upper(previous) === 'AS' &&
    (word !== 'REAL' || context.flavor === 'mysql') // MariaDB 10.11 has no CAST AS REAL
  ) {
    const cast = castOpen(tokens, index - 1);
    if (cast) {
      const type = word === 'DEC' ? 'DECIMAL' : word === 'REAL' ? 'DOUBLE' : 'CHAR';
      edits.push({ start: token.start, end: token.end, text: type });
      constructs.add(`CAST AS ${word}`);
    }
  } else if ((word === 'INTERSECT' || word === 'EXCEPT') && upper(next) === 'ALL') {
    edits.push({ start: next!.start, end: next!.end, text: '' });
    constructs.add(`${word} ALL`);
    return index + 1;
  } else if (
    word === 'AS' &&
    context.flavor === 'mysql' &&
    (context.verb === 'INSERT' || context.verb === 'REPLACE')
  ) {
    return rowAlias(tokens, index, edits, constructs);
  } else if ((word === 'FETCH' || word === 'OFFSET') && context.flavor === 'mariadb' && token.depth === 0) {
    return fetchFirst(tokens, index, edits, constructs);
  }
  return index;
}

/** The `(` of `CAST(` when the `AS` at `as` is that CAST's. */
function castOpen(tokens: readonly Token[], as: number): boolean {
  const depth = tokens[as]!.depth;
  for (let at = as - 1; at >= 0; at--) {
    const token = tokens[at]!;
    if (isSymbol(token, '(') && token.depth === depth - 1) return upper(tokens[at - 1]) === 'CAST';
  }
  return false;
}

const JSON_VALUE_TYPES = new Set([
  'SIGNED',
  'UNSIGNED',
  'DECIMAL',
  'CHAR',
  'DATE',
  'DATETIME',
  'TIME',
  'DOUBLE',
  'FLOAT',
  'JSON',
  'BINARY',
]);

function jsonValue(tokens: readonly Token[], index: number, edits: Edit[], constructs: Set<string>): number {
  const close = closing(tokens, index + 1);
  if (close < 0) return index;
  const depth = tokens[index + 1]!.depth + 1;
  const returning = tokens.findIndex(
    (item, at) => at > index + 1 && at < close && item.depth === depth && upper(item) === 'RETURNING',
  );
  if (returning < 0 || !JSON_VALUE_TYPES.has(upper(tokens[returning + 1]))) return index;
  // The type: a word, an optional (…) and CHARACTER SET / CHARSET cs; then ON EMPTY / ON ERROR clauses.
  let at = returning + 2;
  if (isSymbol(tokens[at], '(')) at = closing(tokens, at) + 1;
  if (upper(tokens[at]) === 'CHARACTER' && upper(tokens[at + 1]) === 'SET') at += 3;
  else if (upper(tokens[at]) === 'CHARSET') at += 2;
  if (at <= 0 || at > close) return index;
  edits.push({ start: tokens[index]!.start, end: tokens[index]!.start, text: 'CAST(' });
  edits.push({ start: tokens[returning]!.start, end: tokens[returning]!.end, text: ') AS' });
  if (at < close) edits.push({ start: tokens[at]!.start, end: tokens[close - 1]!.end, text: '' });
  constructs.add('JSON_VALUE … RETURNING');
  return close;
}

/** `AS alias [(columns)]` before ON DUPLICATE KEY UPDATE, and the alias's uses after it. */
function rowAlias(tokens: readonly Token[], index: number, edits: Edit[], constructs: Set<string>): number {
  const aliasToken = tokens[index + 1];
  if (
    !aliasToken ||
    aliasToken.depth !== 0 ||
    !(aliasToken.kind === 'word' || aliasToken.kind === 'identifier')
  )
    return index;
  const unquote = (token: Token) =>
    (token.kind === 'identifier' ? token.text.slice(1, -1) : token.text).toLowerCase();
  let at = index + 2;
  const aliasColumns: string[] = [];
  if (isSymbol(tokens[at], '(')) {
    const close = closing(tokens, at);
    if (close < 0) return index;
    for (let item = at + 1; item < close; item++)
      if (!isSymbol(tokens[item], ',')) aliasColumns.push(unquote(tokens[item]!));
    at = close + 1;
  }
  if (upper(tokens[at]) !== 'ON' || upper(tokens[at + 1]) !== 'DUPLICATE') return index;
  // The statement's own column list (INSERT INTO t (a, b, c) …) names the alias's columns.
  let columns: string[] | null = null;
  const source = tokens.findIndex(
    (token) => token.depth === 0 && ['VALUES', 'VALUE', 'SELECT', 'SET'].includes(upper(token)),
  );
  const into = tokens.findIndex((token, item) => item < source && token.depth === 0 && isSymbol(token, '('));
  if (into > 0 && upper(tokens[into + 1]) !== 'SELECT') {
    const close = closing(tokens, into);
    columns = [];
    for (let item = into + 1; item < close; item++)
      if (!isSymbol(tokens[item], ',')) columns.push(unquote(tokens[item]!));
  }
  const set = upper(tokens[source]) === 'SET';
  if (aliasColumns.length > 0 && (set || !columns || columns.length !== aliasColumns.length)) return index;
  const alias = unquote(aliasToken);
  const uses: Edit[] = [];
  for (let item = at + 4; item < tokens.length; item++) {
    const token = tokens[item]!;
    if (token.kind !== 'word' && token.kind !== 'identifier') continue;
    const name = unquote(token);
    if (isSymbol(tokens[item - 1], '.')) continue;
    if (name === alias && isSymbol(tokens[item + 1], '.') && tokens[item + 2]) {
      const column = tokens[item + 2]!;
      uses.push({ start: token.start, end: column.end, text: `VALUES(${column.text})` });
      item += 2;
    } else if (
      aliasColumns.includes(name) &&
      !isSymbol(tokens[item + 1], '(') &&
      !isSymbol(tokens[item + 1], '.')
    ) {
      // The left side of `c = …` is the table's column, not the alias's.
      if (
        isSymbol(tokens[item + 1], '=') &&
        (isSymbol(tokens[item - 1], ',') || upper(tokens[item - 1]) === 'UPDATE')
      )
        continue;
      uses.push({
        start: token.start,
        end: token.end,
        text: `VALUES(${columns![aliasColumns.indexOf(name)]})`,
      });
    }
  }
  edits.push({ start: tokens[index]!.start, end: tokens[at - 1]!.end, text: '' }, ...uses);
  constructs.add('INSERT row alias');
  return tokens.length;
}

/** MariaDB `[OFFSET n {ROW | ROWS}] FETCH {FIRST | NEXT} [m] {ROW | ROWS} ONLY` → `LIMIT m [OFFSET n]`. */
function fetchFirst(tokens: readonly Token[], index: number, edits: Edit[], constructs: Set<string>): number {
  let at = index;
  let offset: string | null = null;
  if (upper(tokens[at]) === 'OFFSET') {
    if (tokens[at + 1]?.kind !== 'word' || !['ROW', 'ROWS'].includes(upper(tokens[at + 2]))) return index;
    offset = tokens[at + 1]!.text;
    at += 3;
  }
  let count = '1';
  if (upper(tokens[at]) === 'FETCH' && ['FIRST', 'NEXT'].includes(upper(tokens[at + 1]))) {
    at += 2;
    if (tokens[at]?.kind === 'word' && /^\d+$/.test(tokens[at]!.text)) count = tokens[at++]!.text;
    if (!['ROW', 'ROWS'].includes(upper(tokens[at])) || upper(tokens[at + 1]) !== 'ONLY') return index;
    at += 2;
  } else if (offset === null) return index;
  else count = '18446744073709551615';
  edits.push({
    start: tokens[index]!.start,
    end: tokens[at - 1]!.end,
    text: `LIMIT ${count}${offset === null ? '' : ` OFFSET ${offset}`}`,
  });
  constructs.add('OFFSET … FETCH FIRST');
  return at - 1;
}
