// Equivalent forms: syntax the servers accept and node-sql-parser rejects, rewritten before the parse into a
// form the grammar reads and that means the same to the rules, with every position put back afterwards.
/*
 * Design note.
 * - Runs only after the grammar and the tolerant scan (tolerant.ts) have rejected a statement (parse.ts),
 *   so it costs nothing on SQL the grammar reads.
 * - Each construct becomes a list of edits of the statement's own text (replace [start, end) by a
 *   string). Most keep the length (a keyword blanked, `USING` written as `FROM `); some do not (`TABLE t`
 *   is `SELECT * FROM t`). After the parse every `loc` of the AST is mapped back through the edits to
 *   an offset, line and column of the original statement: a node inside a replacement gets the
 *   replaced span, so every position a rule reports is one of the statement as written.
 * - What is rewritten, each exactly what the server's manual says it means:
 *   - `TABLE t [ORDER BY …] [LIMIT …]` (MySQL) → `SELECT * FROM t …`, where a query may start (statement
 *     start, after `(`, a set operator, `INSERT … ` / `REPLACE …` target).
 *   - A table value constructor `VALUES ROW(a, b), ROW(c, d)` (MySQL; MariaDB `VALUES (a, b), (c, d)`)
 *     where a query may start → `SELECT a, b UNION ALL SELECT c, d`; `ROW` in `INSERT … VALUES ROW(…)`
 *     is blanked. `INSERT … VALUE (…)` → `VALUES (…)`.
 *   - `DELETE FROM t1, t2 USING <tables> WHERE …` → `DELETE t1, t2 FROM <tables> WHERE …` (same
 *     length: `FROM` blanked, `USING` written `FROM `); `t1.*` targets of a multi-table DELETE lose the `.*`.
 *   - `a <=> b` → `a = b` parsed, the node's operator set back to `<=>` afterwards (a stand-in that is
 *     not found exactly once where expected fails the rewrite).
 *   - `NATURAL [LEFT | RIGHT] [OUTER | INNER] JOIN t` → the join without `NATURAL`, its FROM entry
 *     marked `natural: true` (its columns are the tables' common columns: the schema's, not the text's).
 *   - SELECT options the grammar lacks (`ALL`, `DISTINCTROW` → `DISTINCT`, `HIGH_PRIORITY`,
 *     `STRAIGHT_JOIN`), `PARTITION (p, …)` after a table name, the `FIELDS …` / `LINES …` export options
 *     of `INTO OUTFILE`, `INT`/`INTEGER` after `CAST(… AS SIGNED|UNSIGNED`: blanked (how rows are read,
 *     planned or written to the file, not which columns and conditions the query has). They are named in
 *     `constructs` so the caller can say what the grammar did not see.
 *   - A number written `.5` → `0.5`.
 * - If nothing applies, or the rewritten text does not parse, or a stand-in cannot be put back, the
 *   statement is what it was: not fully analysed (PRS001), never a syntax error.
 */

import { isNode, type AstNode } from './ast.js';
import {
  DEFAULT_STAND_IN,
  EMPTY_ROW_STAND_IN,
  expressionEdits,
  type Edit,
} from './equivalent-expressions.js';
import { tokenize, type Token } from './tolerant.js';

export type { Edit };

export interface EquivalentForm {
  /** The rewritten statement. */
  text: string;
  edits: Edit[];
  /** What was rewritten, in words (for notes and tests). */
  constructs: string[];
  /** Offsets (original) of each `<=>` whose stand-in `=` must get its operator back. */
  nullSafe: number[];
  /** Offsets (original) just after each `NATURAL` keyword: the next FROM entry is a natural join. */
  natural: number[];
}

const upper = (token: Token | undefined): string => (token?.kind === 'word' ? token.text.toUpperCase() : '');
const isSymbol = (token: Token | undefined, symbol: string): boolean =>
  token?.kind === 'symbol' && token.text === symbol;
const isName = (token: Token | undefined): boolean =>
  token?.kind === 'identifier' || (token?.kind === 'word' && /^[A-Za-z_$\u0080-\uffff]/.test(token.text));

const SET_OPERATORS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

/** The `)` closing the `(` at index `open`, or -1. */
function closing(tokens: readonly Token[], open: number): number {
  const depth = tokens[open]!.depth;
  for (let index = open + 1; index < tokens.length; index++)
    if (isSymbol(tokens[index], ')') && tokens[index]!.depth === depth) return index;
  return -1;
}

/** A query may start at token `index` (statement start, after `(`, after a set operator). */
function queryStart(tokens: readonly Token[], index: number): boolean {
  const previous = tokens[index - 1];
  if (!previous || isSymbol(previous, '(')) return true;
  const word = upper(previous);
  if (SET_OPERATORS.has(word)) return true;
  return (word === 'ALL' || word === 'DISTINCT') && SET_OPERATORS.has(upper(tokens[index - 2]));
}

/** Head keyword of the statement (after a leading `WITH …` list, the verb at depth 0). */
function statementVerb(tokens: readonly Token[]): { verb: string; index: number } {
  const first = upper(tokens[0]);
  if (first !== 'WITH') return { verb: first, index: 0 };
  for (let index = 1; index < tokens.length; index++) {
    const word = upper(tokens[index]);
    if (
      tokens[index]!.depth === 0 &&
      ['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'TABLE'].includes(word)
    )
      return { verb: word, index };
  }
  return { verb: first, index: 0 };
}

/** The equivalent form of `sql`, or null when none of the constructs above is found. */
export function equivalentForm(sql: string, flavor: 'mysql' | 'mariadb'): EquivalentForm | null {
  const tokens = tokenize(sql);
  const edits: Edit[] = [];
  const constructs = new Set<string>();
  const nullSafe: number[] = [];
  const natural: number[] = [];
  const blank = (token: Token) => edits.push({ start: token.start, end: token.end, text: '' });
  const { verb, index: verbIndex } = statementVerb(tokens);
  const insert = verb === 'INSERT' || verb === 'REPLACE';
  // MariaDB has no `VALUES ROW(…)` in INSERT (the grammar takes it anyway): nothing is rewritten around it.
  if (
    flavor === 'mariadb' &&
    insert &&
    tokens.some((token, at) => upper(token) === 'ROW' && upper(tokens[at - 1]) === 'VALUES')
  )
    return null;

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const word = upper(token);
    const next = tokens[index + 1];
    if (word === 'TABLE' && flavor === 'mysql' && isName(next)) {
      const insertSource =
        insert &&
        token.depth === 0 &&
        index > verbIndex + 1 &&
        (isName(tokens[index - 1]) || isSymbol(tokens[index - 1], ')'));
      if (queryStart(tokens, index) || insertSource) {
        edits.push({ start: token.start, end: token.end, text: 'SELECT * FROM' });
        constructs.add('TABLE statement');
      }
    } else if (word === 'VALUES' && !insert && queryStart(tokens, index)) {
      const rows = valueRows(tokens, index + 1, flavor);
      if (rows) {
        edits.push(...rows);
        constructs.add('VALUES table constructor');
      }
    } else if (word === 'ROW' && insert && isSymbol(next, '(') && flavor === 'mysql') {
      const previous = tokens[index - 1];
      if (upper(previous) === 'VALUES' || (isSymbol(previous, ',') && isSymbol(tokens[index - 2], ')'))) {
        blank(token);
        constructs.add('VALUES ROW');
      }
    } else if (word === 'VALUE' && insert && token.depth === 0 && isSymbol(next, '(')) {
      edits.push({ start: token.start, end: token.end, text: 'VALUES' });
      constructs.add('VALUE');
    } else if (word === 'DELETE' && token.depth === 0 && index === verbIndex) {
      // MariaDB 10.11 has no WITH … DELETE: left to the grammar (PRS001).
      if (flavor === 'mysql' || index === 0) deleteUsing(tokens, index, edits, constructs);
    } else if (isSymbol(token, '<') && isSymbol(next, '=') && isSymbol(tokens[index + 2], '>')) {
      if (next!.start === token.end && tokens[index + 2]!.start === next!.end) {
        edits.push({ start: token.start, end: token.start + 3, text: ' = ' });
        nullSafe.push(token.start);
        index += 2;
      }
    } else if (word === 'NATURAL') {
      let at = index + 1;
      if (['LEFT', 'RIGHT'].includes(upper(tokens[at]))) at++;
      if (['OUTER', 'INNER'].includes(upper(tokens[at]))) at++;
      if (upper(tokens[at]) === 'JOIN') {
        blank(token);
        natural.push(token.end);
        constructs.add('NATURAL JOIN');
      }
    } else if (word === 'SELECT') {
      selectOptions(tokens, index + 1, edits, constructs);
    } else if (
      word === 'PARTITION' &&
      isSymbol(next, '(') &&
      isName(tokens[index - 1]) &&
      verb !== 'CREATE' &&
      verb !== 'ALTER'
    ) {
      const close = closing(tokens, index + 1);
      if (
        close > 0 &&
        ['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'WITH'].includes(upper(tokens[0]))
      ) {
        edits.push({ start: token.start, end: tokens[close]!.end, text: '' });
        constructs.add('PARTITION selection');
        index = close;
      }
    } else if (word === 'OUTFILE' && upper(tokens[index - 1]) === 'INTO' && next?.kind === 'string') {
      const end = exportOptionsEnd(tokens, index + 2);
      if (end > index + 2) {
        edits.push({ start: tokens[index + 2]!.start, end: tokens[end - 1]!.end, text: '' });
        constructs.add('INTO OUTFILE options');
        index = end - 1;
      }
    } else if ((word === 'SIGNED' || word === 'UNSIGNED') && upper(tokens[index - 1]) === 'AS') {
      if (['INT', 'INTEGER'].includes(upper(next)) && isSymbol(tokens[index + 2], ')')) {
        blank(next!);
        constructs.add(`CAST AS ${word} INT`);
        index++;
      }
    } else if (
      isSymbol(token, '.') &&
      next?.kind === 'word' &&
      /^\d/.test(next.text) &&
      next.start === token.end
    ) {
      const previous = tokens[index - 1];
      const qualifier =
        previous &&
        previous.end === token.start &&
        (previous.kind === 'word' || previous.kind === 'identifier' || isSymbol(previous, ')'));
      if (!qualifier && /^\d+(e[-+]?\d*)?$/i.test(next.text)) {
        edits.push({ start: token.start, end: token.start, text: '0' });
        constructs.add('number without leading digit');
      }
    } else index = expressionEdits(tokens, index, { sql, verb, flavor }, edits, constructs);
  }
  if (edits.length === 0) return null;
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let at = 1; at < edits.length; at++) if (edits[at]!.start < edits[at - 1]!.end) return null;
  let text = '';
  let cursor = 0;
  for (const edit of edits) {
    // From here on an edit's text is what the rewritten statement holds (padded, line breaks kept).
    edit.text = keepLines(sql.slice(edit.start, edit.end), edit.text);
    text += sql.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  text += sql.slice(cursor);
  if (nullSafe.length > 0) constructs.add('<=>');
  return { text, edits, constructs: [...constructs], nullSafe, natural };
}

/** A replacement for `original`: `text`, padded with spaces to its length, keeping its line breaks. */
function keepLines(original: string, text: string): string {
  if (text.length > original.length)
    return original.includes('\n') ? `${text}${'\n'.repeat(count(original))}` : text;
  const padded = text + ' '.repeat(original.length - text.length);
  return [...padded].map((char, at) => (original[at] === '\n' ? '\n' : char === '\n' ? ' ' : char)).join('');
}
const count = (text: string) => text.split('\n').length - 1;

/** Edits turning `ROW(a), ROW(b)` / `(a), (b)` after VALUES (at `index - 1`) into `SELECT a UNION ALL SELECT b`. */
function valueRows(tokens: readonly Token[], index: number, flavor: 'mysql' | 'mariadb'): Edit[] | null {
  const edits: Edit[] = [];
  const values = tokens[index - 1]!;
  let at = index;
  for (let row = 0; ; row++) {
    const keyword = upper(tokens[at]) === 'ROW' ? tokens[at] : undefined;
    if (flavor === 'mysql' ? !keyword : keyword) return null;
    const open = keyword ? at + 1 : at;
    if (!isSymbol(tokens[open], '(')) return null;
    const close = closing(tokens, open);
    if (close < 0 || close === open + 1) return null;
    const head = row === 0 ? values : tokens[at - 1]!; // VALUES, or the `,` before the row
    edits.push({
      start: head.start,
      end: tokens[open]!.end,
      text: row === 0 ? 'SELECT ' : ' UNION ALL SELECT ',
    });
    edits.push({ start: tokens[close]!.start, end: tokens[close]!.end, text: '' });
    at = close + 1;
    if (!isSymbol(tokens[at], ',')) return edits;
    at++;
  }
}

/** `DELETE FROM targets USING tables` → `DELETE targets FROM tables`; `t.*` targets lose `.*`. */
function deleteUsing(tokens: readonly Token[], index: number, edits: Edit[], constructs: Set<string>): void {
  let from = -1;
  let using = -1;
  for (let at = index + 1; at < tokens.length; at++) {
    const token = tokens[at]!;
    if (token.depth !== tokens[index]!.depth) continue;
    const word = upper(token);
    if (word === 'FROM' && from < 0) from = at;
    else if (word === 'USING' && from >= 0 && using < 0) using = at;
    else if (word === 'WHERE') break;
    // A multi-table DELETE has no ORDER BY or LIMIT: the statement is invalid, left to the grammar.
    else if (word === 'ORDER' || word === 'LIMIT') return;
  }
  if (from < 0) return;
  const targets = using >= 0 ? [from + 1, using] : [index + 1, from];
  // Nor aliases in its list of targets (`DELETE FROM t1 AS a USING …`).
  for (let at = targets[0]!; at < targets[1]!; at++) if (upper(tokens[at]) === 'AS') return;
  let star = false;
  for (let at = targets[0]!; at < targets[1]!; at++)
    if (isSymbol(tokens[at], '.') && isSymbol(tokens[at + 1], '*')) {
      edits.push({ start: tokens[at]!.start, end: tokens[at + 1]!.end, text: '' });
      star = true;
    }
  if (using >= 0) {
    edits.push({ start: tokens[from]!.start, end: tokens[from]!.end, text: '' });
    edits.push({ start: tokens[using]!.start, end: tokens[using]!.end, text: 'FROM' });
    constructs.add('DELETE … USING');
  }
  if (star) constructs.add('DELETE t.*');
}

const SELECT_OPTIONS = new Set([
  'ALL',
  'DISTINCT',
  'DISTINCTROW',
  'HIGH_PRIORITY',
  'STRAIGHT_JOIN',
  'SQL_SMALL_RESULT',
  'SQL_BIG_RESULT',
  'SQL_BUFFER_RESULT',
  'SQL_NO_CACHE',
  'SQL_CACHE',
  'SQL_CALC_FOUND_ROWS',
]);

/** Blank the SELECT options the grammar does not read (`DISTINCTROW` is written `DISTINCT`). */
function selectOptions(
  tokens: readonly Token[],
  index: number,
  edits: Edit[],
  constructs: Set<string>,
): void {
  let distinct = false;
  for (let at = index; at < tokens.length && SELECT_OPTIONS.has(upper(tokens[at])); at++) {
    const token = tokens[at]!;
    const word = upper(token);
    // `SELECT ALL` / `SELECT DISTINCT` followed by nothing but `FROM`: a column named so, not an option.
    if (upper(tokens[at + 1]) === 'FROM' || isSymbol(tokens[at + 1], ',')) return;
    if (word === 'DISTINCTROW' && !distinct) {
      edits.push({ start: token.start, end: token.end, text: 'DISTINCT' });
      constructs.add('SELECT DISTINCTROW');
      distinct = true;
    } else if (word === 'DISTINCT' && !distinct) distinct = true;
    else if (
      word === 'ALL' ||
      word === 'DISTINCTROW' ||
      word === 'HIGH_PRIORITY' ||
      word === 'STRAIGHT_JOIN'
    ) {
      edits.push({ start: token.start, end: token.end, text: '' });
      constructs.add(`SELECT ${word}`);
    }
  }
}

const EXPORT_WORDS = new Set(['FIELDS', 'COLUMNS', 'LINES']);

/** Index just past the `FIELDS …` / `LINES …` options starting at `index` (index itself when none). */
function exportOptionsEnd(tokens: readonly Token[], index: number): number {
  let at = index;
  if (upper(tokens[at]) === 'CHARACTER' && upper(tokens[at + 1]) === 'SET') at += 3;
  else if (upper(tokens[at]) === 'CHARSET') at += 2;
  let end = index;
  while (EXPORT_WORDS.has(upper(tokens[at]))) {
    at++;
    let options = 0;
    for (;;) {
      if (upper(tokens[at]) === 'OPTIONALLY') at++;
      const word = upper(tokens[at]);
      if (!['TERMINATED', 'ENCLOSED', 'ESCAPED', 'STARTING'].includes(word)) break;
      if (upper(tokens[at + 1]) !== 'BY' || tokens[at + 2]?.kind !== 'string') return end;
      at += 3;
      options++;
    }
    if (options === 0) return end;
    end = at;
  }
  return end === index ? index : end;
}

/** Line starts of `sql`, for offsets → line and column. */
function lineStarts(sql: string): number[] {
  const starts = [0];
  for (let at = sql.indexOf('\n'); at >= 0; at = sql.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * Map the AST parsed from `form.text` back onto `sql` (mutates it): every `loc` to offsets, lines and
 * columns of `sql`, each `<=>` stand-in's operator set back, natural joins marked. False when a stand-in
 * cannot be found exactly where expected (the caller then keeps the parse error).
 */
export function restoreEquivalent(ast: AstNode, form: EquivalentForm, sql: string): boolean {
  const starts = lineStarts(sql);
  const toOriginal = offsetMapper(form.edits);
  const point = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { offset, line: low + 1, column: offset - starts[low]! + 1 };
  };
  const moved = new Set<object>();
  const binaries: AstNode[] = [];
  const joins: AstNode[] = [];
  const stack: unknown[] = [ast];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      stack.push(...(value as unknown[]));
      continue;
    }
    const node = value as AstNode;
    const loc = node.loc as { start?: { offset?: number }; end?: { offset?: number } } | undefined;
    if (isNode(loc) && !moved.has(loc)) {
      moved.add(loc);
      if (typeof loc.start?.offset === 'number' && typeof loc.end?.offset === 'number') {
        const start = toOriginal(loc.start.offset, 'start');
        const end = Math.max(start, toOriginal(loc.end.offset, 'end'));
        node.loc = { start: point(start), end: point(end) };
      }
    }
    if (node.type === 'binary_expr' && node.operator === '=') binaries.push(node);
    if (node.type === 'expr_list' && Array.isArray(node.value) && node.value.length === 1) {
      const only = node.value[0] as AstNode;
      if (only?.type === 'column_ref' && only.column === EMPTY_ROW_STAND_IN && !only.table) node.value = [];
    }
    if (node.type === 'column_ref' && node.column === DEFAULT_STAND_IN && !node.table) {
      for (const key of Object.keys(node)) if (key !== 'loc') delete node[key];
      Object.assign(node, { type: 'default', value: 'DEFAULT' });
      continue;
    }
    if (typeof node.table === 'string' && 'join' in node) joins.push(node);
    for (const key in node) if (key !== 'loc') stack.push(node[key]);
  }
  for (const at of form.nullSafe) {
    const inner = binaries
      .filter((node) => {
        const span = locSpan(node);
        return span && span.start <= at && at < span.end;
      })
      .sort((a, b) => locSpan(a)!.end - locSpan(a)!.start - (locSpan(b)!.end - locSpan(b)!.start))[0];
    const left = inner && locSpan(inner.left);
    const right = inner && locSpan(inner.right);
    if (!inner || (left && left.end > at) || (right && right.start < at + 3)) return false;
    inner.operator = '<=>';
  }
  for (const at of form.natural) {
    const entry = joins
      .filter((node) => (locSpan(node)?.start ?? -1) >= at)
      .sort((a, b) => locSpan(a)!.start - locSpan(b)!.start)[0];
    if (!entry) return false;
    entry.natural = true;
  }
  return true;
}

function locSpan(node: unknown): { start: number; end: number } | undefined {
  if (!isNode(node) || !isNode(node.loc)) return undefined;
  const start = (node.loc.start as { offset?: number } | undefined)?.offset;
  const end = (node.loc.end as { offset?: number } | undefined)?.offset;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/**
 * Offsets of the rewritten text → offsets of the original. Inside a replacement: its start (a `start`)
 * or its end (an `end`), so a node spans the whole construct it stands in.
 */
export function offsetMapper(edits: readonly Edit[]): (offset: number, side: 'start' | 'end') => number {
  // Each edit's span in the rewritten text.
  let delta = 0;
  const spans = edits.map((edit) => {
    const original = edit.end - edit.start;
    const written = edit.text.length;
    const start = edit.start + delta;
    delta += written - original;
    return { edit, start, end: start + written, delta };
  });
  return (offset, side) => {
    let shift = 0;
    for (const span of spans) {
      if (offset < span.start) break;
      if (offset < span.end || (side === 'end' && offset === span.end && span.end > span.start)) {
        if (span.end - span.start === span.edit.end - span.edit.start)
          return span.edit.start + (offset - span.start);
        return side === 'start' ? span.edit.start : span.edit.end;
      }
      shift = span.delta;
    }
    return offset - shift;
  };
}
