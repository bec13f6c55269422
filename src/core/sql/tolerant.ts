// Tolerant re-parse: recognise syntax node-sql-parser rejects (GROUP BY … ASC/DESC, UPDATE/DELETE IGNORE, INSERT/REPLACE priority modifiers, index hints, ALTER COLUMN … DEFAULT, locking clauses) with a token scan, blank it out, parse the rest.
/*
 * Design note.
 * - Runs only after the parser has rejected a statement (parse.ts), so it costs nothing on valid SQL.
 * - A small tokenizer, not regular expressions over the raw text: it skips whitespace and comments
 *   (`-- `, `#`, block comments) and reads single/double-quoted strings (backslash escapes and doubled
 *   quotes) and backtick identifiers as single tokens, so keywords inside strings, identifiers and
 *   comments are never matched. Each token knows its parenthesis depth.
 * - Recognised constructs are recorded as facts with their span in the ORIGINAL text, then blanked
 *   out: every character of the construct is replaced by a space (newlines kept). The text keeps its
 *   length and line breaks, so every position node-sql-parser reports for the rest of the statement is
 *   a position in the original text too. Nothing is inserted or reordered.
 * - What is blanked (the facts let the rules report what the parser never saw):
 *   - `GROUP BY a DESC, b ASC`: the ASC/DESC after a GROUP BY item (removed in MySQL 8.0.13).
 *   - `UPDATE [LOW_PRIORITY] [IGNORE]`, `DELETE [LOW_PRIORITY] [QUICK] [IGNORE]`: the modifiers; and
 *     `INSERT {LOW_PRIORITY | DELAYED | HIGH_PRIORITY}`, `REPLACE {LOW_PRIORITY | DELAYED}` (scheduling
 *     only: what the statement writes is the same).
 *   - Index hints `{USE | FORCE | IGNORE} {INDEX | KEY} [FOR …] (names)` after a table (the grammar reads
 *     none): they steer the optimizer, not what the query reads or writes; kept as `indexHints` facts.
 *   - `ALTER TABLE … ALTER [COLUMN] c {SET DEFAULT v | DROP DEFAULT}`: the clause and one comma; when no
 *     clause is left the statement is `{type: 'alter', table, expr: []}` built here (the parser rejects
 *     an ALTER TABLE without clauses).
 *   - Locking clauses `FOR SHARE …` and `FOR UPDATE OF t …` are always recorded but blanked only when
 *     the caller asks (`lockingReads: true`): a SELECT whose `FOR SHARE` vanished would look like a
 *     plain read to code that reads `locking_read` from the AST.
 * - If nothing was recognised, or the blanked text still does not parse, the caller keeps the
 *   parser's original error.
 */

import type { AstNode } from './ast.js';

/** One token of the scan. `depth` is the parenthesis depth it sits at (a `)` has the outer depth). */
export interface Token {
  kind: 'word' | 'string' | 'identifier' | 'variable' | 'symbol';
  /** The text as written (strings and identifiers with their quotes). */
  text: string;
  start: number;
  end: number;
  depth: number;
}

/** A recognised construct: its text and span in the original statement. */
export interface Mark {
  text: string;
  start: number;
  end: number;
}

/** A locking clause (`FOR UPDATE`, `FOR SHARE`, `LOCK IN SHARE MODE`) with its options. */
export interface LockingReadFact extends Mark {
  strength: 'update' | 'share';
  /** `OF t1, t2` table names (unquoted), empty when absent. */
  of: string[];
  /** `NOWAIT`, `SKIP LOCKED`, `WAIT n`, or null. */
  option: string | null;
}

/** `ALTER [COLUMN] c SET DEFAULT v` / `DROP DEFAULT` of an ALTER TABLE. */
export interface ColumnDefaultFact extends Mark {
  column: string;
  /** The new default, or null for DROP DEFAULT. `string` is the literal's value when it is a string. */
  value: { text: string; string: string | null } | null;
}

/** What the scan recognised (positions relative to the statement text that was parsed). */
export interface ToleratedFacts {
  /** ASC/DESC after GROUP BY items. */
  groupByOrder: (Mark & { direction: 'ASC' | 'DESC' })[];
  /** The IGNORE modifier of UPDATE / DELETE. */
  ignore: Mark | null;
  /** Other modifiers blanked for the parser (LOW_PRIORITY, QUICK). */
  modifiers: Mark[];
  columnDefaults: ColumnDefaultFact[];
  lockingReads: LockingReadFact[];
  /** Index hints after a table (`USE INDEX (i)`, `FORCE KEY FOR JOIN (a, b)`, `IGNORE INDEX (i)`). */
  indexHints: IndexHintFact[];
}

/** An index hint: `{USE | FORCE | IGNORE} {INDEX | KEY} [FOR {JOIN | ORDER BY | GROUP BY}] (names)`. */
export interface IndexHintFact extends Mark {
  hint: 'USE' | 'FORCE' | 'IGNORE';
  scope: 'JOIN' | 'ORDER BY' | 'GROUP BY' | null;
  /** Index names, unquoted (`PRIMARY` for the primary key); empty for `USE INDEX ()`. */
  indexes: string[];
}

/** Options of {@link scanStatement} / {@link parseTolerantly}. */
export interface TolerantOptions {
  /** Also blank `FOR SHARE …` clauses and the `OF t` list of `FOR UPDATE OF t` (off by default). */
  lockingReads?: boolean;
}

const WORD = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Split a statement into tokens, skipping whitespace and comments. Never throws. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let index = 0;
  const length = sql.length;
  while (index < length) {
    const char = sql[index] ?? '';
    const next = sql[index + 1] ?? '';
    if (/\s/.test(char)) {
      index++;
    } else if (char === '#' || (char === '-' && next === '-' && /[\s]|^$/.test(sql[index + 2] ?? ''))) {
      while (index < length && sql[index] !== '\n') index++;
    } else if (char === '/' && next === '*') {
      const close = sql.indexOf('*/', index + 2);
      index = close < 0 ? length : close + 2;
    } else if (char === "'" || char === '"' || char === '`') {
      const start = index;
      index++;
      while (index < length) {
        const current = sql[index];
        if (current === '\\' && char !== '`') index += 2;
        else if (current === char && sql[index + 1] === char) index += 2;
        else if (current === char) {
          index++;
          break;
        } else index++;
      }
      index = Math.min(index, length);
      tokens.push({
        kind: char === '`' ? 'identifier' : 'string',
        text: sql.slice(start, index),
        start,
        end: index,
        depth,
      });
    } else if (char === '@') {
      const start = index;
      index++;
      while (index < length && (WORD.test(sql[index] ?? '') || sql[index] === '@' || sql[index] === '.'))
        index++;
      tokens.push({ kind: 'variable', text: sql.slice(start, index), start, end: index, depth });
    } else if (WORD.test(char)) {
      const start = index;
      while (index < length && WORD.test(sql[index] ?? '')) index++;
      tokens.push({ kind: 'word', text: sql.slice(start, index), start, end: index, depth });
    } else {
      if (char === ')') depth = Math.max(0, depth - 1);
      tokens.push({ kind: 'symbol', text: char, start: index, end: index + 1, depth });
      if (char === '(') depth++;
      index++;
    }
  }
  return tokens;
}

const upper = (token: Token | undefined): string => (token?.kind === 'word' ? token.text.toUpperCase() : '');
const isSymbol = (token: Token | undefined, symbol: string): boolean =>
  token?.kind === 'symbol' && token.text === symbol;

/** Words that end a GROUP BY list at its own depth. */
const AFTER_GROUP_BY = new Set([
  'HAVING',
  'ORDER',
  'LIMIT',
  'WINDOW',
  'WITH',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'FOR',
  'LOCK',
  'INTO',
  'PROCEDURE',
]);

/** The unquoted name of an identifier token (`\`a\`\`b\`` → a`b). */
function identifierName(token: Token): string {
  if (token.kind === 'identifier') return token.text.slice(1, -1).replace(/``/g, '`');
  return token.text;
}

/** The value of a string literal token (quotes removed, doubled quotes and common escapes undone). */
function stringValue(token: Token): string {
  const quote = token.text[0] ?? "'";
  return token.text
    .slice(1, -1)
    .replace(new RegExp(`${quote}${quote}`, 'g'), quote)
    .replace(
      /\\(.)/g,
      (_match, escaped: string) => ({ n: '\n', t: '\t', r: '\r', '0': '\0' })[escaped] ?? escaped,
    );
}

function groupByOrder(tokens: readonly Token[]): ToleratedFacts['groupByOrder'] {
  const found: ToleratedFacts['groupByOrder'] = [];
  tokens.forEach((token, index) => {
    if (upper(token) !== 'GROUP' || upper(tokens[index + 1]) !== 'BY') return;
    const depth = token.depth;
    for (let at = index + 2; at < tokens.length; at++) {
      const current = tokens[at] as Token;
      if (current.depth < depth || (current.depth === depth && isSymbol(current, ';'))) break;
      if (current.depth !== depth) continue;
      const word = upper(current);
      if (AFTER_GROUP_BY.has(word)) break;
      if (word !== 'ASC' && word !== 'DESC') continue;
      const previous = tokens[at - 1];
      if (!previous || isSymbol(previous, ',') || upper(previous) === 'BY') continue;
      const following = tokens[at + 1];
      const ends =
        !following ||
        following.depth < depth ||
        isSymbol(following, ',') ||
        isSymbol(following, ';') ||
        AFTER_GROUP_BY.has(upper(following));
      if (ends)
        found.push({
          text: current.text,
          start: current.start,
          end: current.end,
          direction: word as 'ASC' | 'DESC',
        });
    }
  });
  return found;
}

function modifiers(tokens: readonly Token[]): { ignore: Mark | null; others: Mark[] } {
  const head = upper(tokens[0]);
  const allowed =
    head === 'UPDATE'
      ? new Set(['LOW_PRIORITY', 'IGNORE'])
      : head === 'DELETE'
        ? new Set(['LOW_PRIORITY', 'QUICK', 'IGNORE'])
        : head === 'INSERT'
          ? new Set(['LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY'])
          : head === 'REPLACE'
            ? new Set(['LOW_PRIORITY', 'DELAYED'])
            : new Set<string>();
  let ignore: Mark | null = null;
  const others: Mark[] = [];
  for (let at = 1; at < tokens.length && allowed.has(upper(tokens[at])); at++) {
    const token = tokens[at] as Token;
    const mark = { text: token.text, start: token.start, end: token.end };
    if (upper(token) === 'IGNORE') ignore = mark;
    else others.push(mark);
  }
  return { ignore, others };
}

function lockingReads(tokens: readonly Token[]): { fact: LockingReadFact; blank: Mark[] }[] {
  const found: { fact: LockingReadFact; blank: Mark[] }[] = [];
  tokens.forEach((token, index) => {
    const word = upper(token);
    let strength: 'update' | 'share' | undefined;
    let at = index + 2;
    if (word === 'FOR' && (upper(tokens[index + 1]) === 'UPDATE' || upper(tokens[index + 1]) === 'SHARE'))
      strength = upper(tokens[index + 1]) === 'UPDATE' ? 'update' : 'share';
    else if (
      word === 'LOCK' &&
      upper(tokens[index + 1]) === 'IN' &&
      upper(tokens[index + 2]) === 'SHARE' &&
      upper(tokens[index + 3]) === 'MODE'
    ) {
      strength = 'share';
      at = index + 4;
    }
    if (!strength) return;
    const of: string[] = [];
    let ofStart: number | undefined;
    let ofEnd = 0;
    if (upper(tokens[at]) === 'OF') {
      ofStart = (tokens[at] as Token).start;
      at++;
      while (at < tokens.length) {
        const name = tokens[at] as Token;
        if (name.kind !== 'word' && name.kind !== 'identifier') break;
        let last = name;
        let text = identifierName(name);
        if (isSymbol(tokens[at + 1], '.') && tokens[at + 2]) {
          last = tokens[at + 2] as Token;
          text = identifierName(last);
          at += 2;
        }
        of.push(text);
        ofEnd = last.end;
        at++;
        if (!isSymbol(tokens[at], ',')) break;
        at++;
      }
    }
    let option: string | null = null;
    let end = ofStart !== undefined ? ofEnd : (tokens[at - 1] as Token).end;
    const optionWord = upper(tokens[at]);
    if (optionWord === 'NOWAIT') {
      option = 'NOWAIT';
      end = (tokens[at] as Token).end;
    } else if (optionWord === 'SKIP' && upper(tokens[at + 1]) === 'LOCKED') {
      option = 'SKIP LOCKED';
      end = (tokens[at + 1] as Token).end;
    } else if (optionWord === 'WAIT' && tokens[at + 1]) {
      option = `WAIT ${(tokens[at + 1] as Token).text}`;
      end = (tokens[at + 1] as Token).end;
    }
    const fact: LockingReadFact = {
      text: '',
      start: token.start,
      end,
      strength,
      of,
      option,
    };
    const blank: Mark[] =
      word === 'FOR' && strength === 'share'
        ? [{ text: '', start: token.start, end }]
        : ofStart !== undefined
          ? [{ text: '', start: ofStart, end: ofEnd }]
          : [];
    found.push({ fact, blank });
  });
  return found;
}

/** Index hints after table names; each hint is blanked whole (its names are facts). */
function indexHints(tokens: readonly Token[]): IndexHintFact[] {
  const found: IndexHintFact[] = [];
  tokens.forEach((token, index) => {
    const hint = upper(token);
    if (hint !== 'USE' && hint !== 'FORCE' && hint !== 'IGNORE') return;
    if (!['INDEX', 'KEY'].includes(upper(tokens[index + 1]))) return;
    // After a table (its name, alias or quoted name) or another hint, never at the statement's start.
    const previous = tokens[index - 1];
    if (!previous || (previous.kind !== 'word' && previous.kind !== 'identifier' && !isSymbol(previous, ')')))
      return;
    let at = index + 2;
    let scope: IndexHintFact['scope'] = null;
    if (upper(tokens[at]) === 'FOR') {
      const what = upper(tokens[at + 1]);
      if (what === 'JOIN') [scope, at] = ['JOIN', at + 2];
      else if ((what === 'ORDER' || what === 'GROUP') && upper(tokens[at + 2]) === 'BY')
        [scope, at] = [what === 'ORDER' ? 'ORDER BY' : 'GROUP BY', at + 3];
      else return;
    }
    if (!isSymbol(tokens[at], '(')) return;
    const depth = (tokens[at] as Token).depth;
    const indexes: string[] = [];
    for (at++; at < tokens.length; at++) {
      const current = tokens[at] as Token;
      if (isSymbol(current, ')') && current.depth === depth) {
        found.push({ text: '', start: token.start, end: current.end, hint, scope, indexes });
        return;
      }
      if (current.kind === 'word' || current.kind === 'identifier') indexes.push(identifierName(current));
      else if (!isSymbol(current, ',')) return;
    }
  });
  return found;
}

interface AlterScan {
  table: { db: string | null; table: string } | null;
  defaults: ColumnDefaultFact[];
  /** Spans to blank: each clause with one adjacent comma. */
  blank: Mark[];
  /** Every clause of the ALTER TABLE was blanked. */
  emptied: boolean;
}

function alterColumnDefaults(tokens: readonly Token[], sql: string): AlterScan | undefined {
  if (upper(tokens[0]) !== 'ALTER') return undefined;
  let at = 1;
  while (at < tokens.length && ['ONLINE', 'IGNORE'].includes(upper(tokens[at]))) at++;
  if (upper(tokens[at]) !== 'TABLE') return undefined;
  at++;
  if (upper(tokens[at]) === 'IF' && upper(tokens[at + 1]) === 'EXISTS') at += 2;
  const first = tokens[at];
  if (!first || (first.kind !== 'word' && first.kind !== 'identifier')) return undefined;
  let table = { db: null as string | null, table: identifierName(first) };
  at++;
  if (isSymbol(tokens[at], '.') && tokens[at + 1]) {
    table = { db: table.table, table: identifierName(tokens[at + 1] as Token) };
    at += 2;
  }
  // Clauses: runs of tokens at depth 0 separated by commas.
  const clauses: { from: number; to: number }[] = [];
  let from = at;
  for (let index = at; index <= tokens.length; index++) {
    const token = tokens[index];
    if (!token || (token.depth === 0 && (isSymbol(token, ',') || isSymbol(token, ';')))) {
      if (index > from) clauses.push({ from, to: index - 1 });
      from = index + 1;
      if (token && isSymbol(token, ';')) break;
    }
  }
  const defaults: ColumnDefaultFact[] = [];
  const blankClauses = new Set<number>();
  clauses.forEach((clause, number) => {
    let index = clause.from;
    if (upper(tokens[index]) !== 'ALTER') return;
    index++;
    if (upper(tokens[index]) === 'COLUMN') index++;
    const name = tokens[index];
    if (!name || (name.kind !== 'word' && name.kind !== 'identifier')) return;
    if (['INDEX', 'KEY', 'CHECK', 'CONSTRAINT'].includes(upper(name))) return;
    index++;
    const action = `${upper(tokens[index])} ${upper(tokens[index + 1])}`;
    const last = tokens[clause.to] as Token;
    let value: ColumnDefaultFact['value'];
    if (action === 'SET DEFAULT' && index + 2 <= clause.to) {
      const valueFirst = tokens[index + 2] as Token;
      const single = index + 2 === clause.to && valueFirst.kind === 'string';
      value = {
        text: sql.slice(valueFirst.start, last.end),
        string: single ? stringValue(valueFirst) : null,
      };
    } else if (action === 'DROP DEFAULT' && index + 1 === clause.to) {
      value = null;
    } else return;
    const start = (tokens[clause.from] as Token).start;
    defaults.push({
      text: sql.slice(start, last.end),
      start,
      end: last.end,
      column: identifierName(name),
      value,
    });
    blankClauses.add(number);
  });
  if (defaults.length === 0) return undefined;
  // Blank each recognised clause with the comma after it, or before it for the last clause.
  const blank: Mark[] = [];
  const kept = clauses.filter((_clause, number) => !blankClauses.has(number)).length;
  clauses.forEach((clause, number) => {
    if (!blankClauses.has(number)) return;
    const after = tokens[clause.to + 1];
    const before = tokens[clause.from - 1];
    const start = (tokens[clause.from] as Token).start;
    const end = (tokens[clause.to] as Token).end;
    const nextKept = clauses.slice(number + 1).some((_c, offset) => !blankClauses.has(number + 1 + offset));
    if (after && isSymbol(after, ',') && nextKept) blank.push({ text: '', start, end: after.end });
    else if (before && isSymbol(before, ',')) blank.push({ text: '', start: before.start, end });
    else blank.push({ text: '', start, end });
  });
  return { table, defaults, blank, emptied: kept === 0 };
}

/** Replace each span by spaces, keeping line breaks, so positions stay those of the original text. */
function blankOut(sql: string, spans: readonly Mark[]): string {
  let result = '';
  let cursor = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < cursor) continue;
    result += sql.slice(cursor, span.start) + sql.slice(span.start, span.end).replace(/[^\n]/g, ' ');
    cursor = span.end;
  }
  return result + sql.slice(cursor);
}

/** The result of a scan: the facts and the text with the recognised constructs blanked out. */
export interface ScanResult {
  facts: ToleratedFacts;
  /** Same length and line breaks as the input. */
  text: string;
  /** Something was blanked (the text differs from the input). */
  changed: boolean;
  /** An ALTER TABLE all of whose clauses were blanked, with its table. */
  emptiedAlter: { db: string | null; table: string } | null;
}

/** Scan one statement for the constructs node-sql-parser rejects; see the design note. */
export function scanStatement(sql: string, options: TolerantOptions = {}): ScanResult {
  const tokens = tokenize(sql);
  const order = groupByOrder(tokens);
  const { ignore, others } = modifiers(tokens);
  const locks = lockingReads(tokens);
  const alter = alterColumnDefaults(tokens, sql);
  const hints = indexHints(tokens).map((hint) => ({ ...hint, text: sql.slice(hint.start, hint.end) }));
  const spans: Mark[] = [...order, ...others, ...(ignore ? [ignore] : []), ...(alter?.blank ?? []), ...hints];
  if (options.lockingReads) spans.push(...locks.flatMap((lock) => lock.blank));
  const facts: ToleratedFacts = {
    groupByOrder: order,
    ignore,
    modifiers: others,
    columnDefaults: alter?.defaults ?? [],
    lockingReads: locks.map(({ fact }) => ({ ...fact, text: sql.slice(fact.start, fact.end) })),
    indexHints: hints,
  };
  return {
    facts,
    text: spans.length > 0 ? blankOut(sql, spans) : sql,
    changed: spans.length > 0,
    emptiedAlter: alter?.emptied ? alter.table : null,
  };
}

/**
 * Parse a statement the parser rejected, without the constructs the scan recognises. `parse` is the
 * strict parser (throws on a syntax error). Returns undefined when nothing was recognised or the rest
 * still does not parse; the AST's positions are positions in `sql`.
 */
export function parseTolerantly(
  sql: string,
  parse: (text: string) => AstNode | undefined,
  options: TolerantOptions = {},
): { ast: AstNode; tolerated: ToleratedFacts } | undefined {
  const scan = scanStatement(sql, options);
  if (!scan.changed) return undefined;
  if (scan.emptiedAlter) {
    const ast: AstNode = { type: 'alter', table: [scan.emptiedAlter], expr: [] };
    return { ast, tolerated: scan.facts };
  }
  try {
    const ast = parse(scan.text.trimEnd());
    return ast ? { ast, tolerated: scan.facts } : undefined;
  } catch {
    return undefined;
  }
}
