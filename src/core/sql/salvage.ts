// The queries inside a statement the grammar rejects: each SELECT the statement contains that the
// parser reads on its own, so a statement reported as not fully analysed (PRS001) still gets the
// checks of the queries in it (analyze.ts).
/*
 * Design note.
 * - Which parts: a SELECT (or WITH … SELECT) in parentheses — a subquery or derived table — and a
 *   SELECT at depth 0 that follows AS or FOR (`CREATE VIEW v AS SELECT …`, `CREATE TABLE t AS
 *   SELECT …`, `DECLARE c CURSOR FOR SELECT …`), up to the end of the statement. Only the outermost
 *   part is taken (it contains the inner ones); a part that does not parse on its own is dropped.
 * - Each part is returned with its span; the caller analyses it as a statement slice at its own
 *   offset, so every position the parser and the rules report is a position in the original script.
 *   Nothing is inserted or reordered.
 * - Sound by construction: a query's own checks (a wrapped column, a type mismatch in its WHERE …)
 *   hold wherever the query sits. What the part cannot see (the outer query's aliases in a correlated
 *   subquery) stays unresolved, and unresolved columns make no findings.
 * - Not salvaged: constructs inside one query (MEMBER OF in a WHERE, JSON_TABLE or FOR SYSTEM_TIME in
 *   a FROM). Rewriting those into something the grammar reads would change the query the rules check;
 *   docs/parsing.md lists them.
 */

import { tokenize, type Token } from './tolerant.js';

/** One part: its span in the statement and its text. */
export interface SalvagedPart {
  start: number;
  end: number;
  text: string;
}

const QUERY_START = new Set(['SELECT', 'WITH']);

/** The parts of `sql` worth parsing on their own (outermost first, in text order). */
export function queryParts(sql: string): SalvagedPart[] {
  const tokens = tokenize(sql);
  const spans: { start: number; end: number }[] = [];
  for (let index = 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind !== 'word' || !QUERY_START.has(token.text.toUpperCase())) continue;
    if (spans.some((span) => token.start >= span.start && token.start < span.end)) continue;
    const previous = tokens[index - 1]!;
    if (previous.kind === 'symbol' && previous.text === '(') {
      const close = closing(tokens, index - 1);
      if (close) spans.push({ start: token.start, end: close.start });
    } else if (
      token.depth === 0 &&
      previous.kind === 'word' &&
      ['AS', 'FOR'].includes(previous.text.toUpperCase())
    ) {
      const last = tokens[tokens.length - 1]!;
      const end = last.kind === 'symbol' && last.text === ';' ? last.start : last.end;
      spans.push({ start: token.start, end });
    }
  }
  return spans.map((span) => {
    const text = sql.slice(span.start, span.end).trimEnd();
    return { start: span.start, end: span.start + text.length, text };
  });
}

/** The `)` that closes the `(` at `open`, or null when the statement ends first. */
function closing(tokens: Token[], open: number): Token | null {
  const depth = tokens[open]!.depth;
  for (let index = open + 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind === 'symbol' && token.text === ')' && token.depth === depth) return token;
  }
  return null;
}

/** A construct of one query the grammar does not read, blanked so the rest of the query parses. */
export interface BlankedConstruct {
  construct: 'MEMBER OF' | 'JSON_TABLE' | 'FOR SYSTEM_TIME' | 'RETURNING' | 'LATERAL' | 'charset introducer';
  start: number;
  end: number;
}

/**
 * `sql` with the constructs node-sql-parser cannot read replaced by neutral stand-ins of the same
 * length (newlines kept, so every position stays a position in `sql`), or null when it has none:
 * - `expr MEMBER OF (json)` → `TRUE`: a condition no rule reads; the query's other conditions, tables
 *   and columns are still checked.
 * - `JSON_TABLE(…)` in a FROM → `(SELECT 1)`, a derived table under the same alias: its columns stay
 *   unresolved (no findings on them), the other tables of the query are checked.
 * - `FOR SYSTEM_TIME {ALL | AS OF … | BETWEEN … AND … | FROM … TO …}` after a table (MariaDB system-
 *   versioned tables) → blanked: the same table is read, at another point in time.
 * - `RETURNING …` at the end of a MariaDB INSERT/REPLACE/DELETE → blanked: it changes what the
 *   statement returns, not what it writes or reads.
 * - `LATERAL` before a derived table → blanked: the derived table's references to earlier tables stay
 *   unresolved.
 * - A charset introducer (`_utf8mb4'x'`, `_latin1 X'41'`) where the grammar reads none (inside a call,
 *   after a comparison) → blanked: the literal stays a string of the same text.
 * The caller reports the statement as not fully analysed all the same (PRS001), offers no rewrite
 * (the printed query would lack the construct), and drops findings inside a blanked span.
 */
export function withoutUnsupported(sql: string): { text: string; constructs: BlankedConstruct[] } | null {
  const tokens = tokenize(sql);
  const constructs: (BlankedConstruct & { standIn: string })[] = [];
  const taken = (at: number) => constructs.some((item) => at >= item.start && at < item.end);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind !== 'word' || taken(token.start)) continue;
    const word = token.text.toUpperCase();
    if (word === 'MEMBER') {
      const of = upperWord(tokens[index + 1]) === 'OF' ? index + 2 : index + 1;
      const open = tokens[of];
      if (!(open?.kind === 'symbol' && open.text === '(')) continue;
      const close = closing(tokens, of);
      const first = operandStart(tokens, index);
      if (!close || first === null) continue;
      constructs.push({
        construct: 'MEMBER OF',
        start: tokens[first]!.start,
        end: close.end,
        standIn: 'TRUE',
      });
    } else if (word === 'JSON_TABLE' && isOpen(tokens[index + 1])) {
      const close = closing(tokens, index + 1);
      if (!close) continue;
      constructs.push({ construct: 'JSON_TABLE', start: token.start, end: close.end, standIn: '(SELECT 1)' });
    } else if (word === 'FOR' && upperWord(tokens[index + 1]) === 'SYSTEM_TIME') {
      const end = systemTimeEnd(tokens, index + 2);
      if (end === null) continue;
      constructs.push({ construct: 'FOR SYSTEM_TIME', start: token.start, end, standIn: '' });
    } else if (word === 'RETURNING' && token.depth === 0 && /^\s*(INSERT|REPLACE|DELETE)\b/i.test(sql)) {
      const last = tokens[tokens.length - 1]!;
      const end = last.kind === 'symbol' && last.text === ';' ? last.start : last.end;
      constructs.push({ construct: 'RETURNING', start: token.start, end, standIn: '' });
    } else if (word === 'LATERAL' && isOpen(tokens[index + 1])) {
      constructs.push({ construct: 'LATERAL', start: token.start, end: token.end, standIn: '' });
    } else if (INTRODUCERS.has(word) && introduced(tokens[index + 1], tokens[index + 2])) {
      constructs.push({ construct: 'charset introducer', start: token.start, end: token.end, standIn: '' });
    }
  }
  if (constructs.length === 0) return null;
  const chars = [...sql];
  if (chars.length !== sql.length) return null; // Astral characters: offsets would not be kept.
  for (const { start, end, standIn } of constructs) {
    if (sql.slice(start, start + standIn.length).includes('\n') || end - start < standIn.length) return null;
    for (let at = start; at < end; at++) if (chars[at] !== '\n') chars[at] = ' ';
    for (let at = 0; at < standIn.length; at++) chars[start + at] = standIn[at]!;
  }
  return {
    text: chars.join(''),
    constructs: constructs.map(({ construct, start, end }) => ({ construct, start, end })),
  };
}

/** Character set names MySQL 8.0 and MariaDB 10.11 accept as `_name` introducers. */
const INTRODUCERS = new Set(
  (
    'armscii8 ascii big5 binary cp1250 cp1251 cp1256 cp1257 cp850 cp852 cp866 cp932 dec8 eucjpms euckr ' +
    'gb18030 gb2312 gbk geostd8 greek hebrew hp8 keybcs2 koi8r koi8u latin1 latin2 latin5 latin7 macce ' +
    'macroman sjis swe7 tis620 ucs2 ujis utf16 utf16le utf32 utf8 utf8mb3 utf8mb4'
  )
    .split(' ')
    .map((name) => `_${name.toUpperCase()}`),
);

/** A string literal, or a hex/bit literal (`X'…'`, `B'…'`), follows. */
function introduced(next: Token | undefined, after: Token | undefined): boolean {
  if (next?.kind === 'string' && next.text.startsWith("'")) return true;
  if (next?.kind === 'word' && /^0[xb]/i.test(next.text)) return true;
  return (
    next?.kind === 'word' && /^[xb]$/i.test(next.text) && after?.kind === 'string' && after.start === next.end
  );
}

const upperWord = (token: Token | undefined) => (token?.kind === 'word' ? token.text.toUpperCase() : '');
const isOpen = (token: Token | undefined) => token?.kind === 'symbol' && token.text === '(';

/** Words that end the left operand of MEMBER OF (it is a `bit_expr`: no comparison, no AND/OR/NOT). */
const OPERAND_STOP = new Set(
  (
    'SELECT WHERE AND OR XOR NOT ON HAVING WHEN THEN ELSE CASE SET BY IS LIKE IN BETWEEN REGEXP RLIKE ' +
    'RETURN DISTINCT ALL ANY SOME IF ELSEIF UNTIL WHILE VALUES VALUE AS ESCAPE SOUNDS'
  ).split(' '),
);

/** The index of the first token of the operand that ends just before `member`, or null. */
function operandStart(tokens: Token[], member: number): number | null {
  let index = member - 1;
  let first: number | null = null;
  while (index >= 0) {
    const token = tokens[index]!;
    if (token.kind === 'symbol' && token.text === ')') {
      const open = opening(tokens, index);
      if (open === null) return null;
      index = open;
      // A function call: its name belongs to the operand.
      const name = tokens[index - 1];
      if (name?.kind === 'word' && !OPERAND_STOP.has(name.text.toUpperCase())) index--;
      first = index;
    } else if (token.kind === 'word') {
      if (OPERAND_STOP.has(token.text.toUpperCase())) break;
      first = index;
    } else if (token.kind === 'symbol') {
      // Arithmetic, `.` of a qualified name, and the `->` / `->>` JSON operators join the operand.
      const arrow =
        token.text === '>' &&
        (tokens[index - 1]?.text === '-' ||
          (tokens[index - 1]?.text === '>' && tokens[index - 2]?.text === '-'));
      if (arrow) {
        index -= tokens[index - 1]?.text === '-' ? 1 : 2;
      } else if (!['.', '+', '-', '*', '/', '%', '|', '&', '^', '~'].includes(token.text)) break;
    } else first = index;
    if (token.depth !== tokens[member]!.depth) break;
    index--;
  }
  return first;
}

/** The `(` opening the `)` at `close`, or null. */
function opening(tokens: Token[], close: number): number | null {
  const depth = tokens[close]!.depth;
  for (let index = close - 1; index >= 0; index--) {
    const token = tokens[index]!;
    if (token.kind === 'symbol' && token.text === '(' && token.depth === depth) return index;
  }
  return null;
}

/** Where `FOR SYSTEM_TIME …` ends (the end of its last token), given the token after SYSTEM_TIME. */
function systemTimeEnd(tokens: Token[], at: number): number | null {
  const head = upperWord(tokens[at]);
  if (head === 'ALL') return tokens[at]!.end;
  let index: number;
  let operands: number;
  if (head === 'AS' && upperWord(tokens[at + 1]) === 'OF') [index, operands] = [at + 2, 1];
  else if (head === 'BETWEEN' || head === 'FROM') [index, operands] = [at + 1, 2];
  else return null;
  let end: number | null = null;
  for (let operand = 0; operand < operands; operand++) {
    if (operand > 0) {
      if (upperWord(tokens[index]) !== (head === 'BETWEEN' ? 'AND' : 'TO')) return null;
      index++;
    }
    const next = expressionEnd(tokens, index);
    if (next === null) return null;
    end = tokens[next - 1]!.end;
    index = next;
  }
  return end;
}

/** The index just past a point-in-time expression starting at `at` (literal, call, INTERVAL arithmetic). */
function expressionEnd(tokens: Token[], at: number): number | null {
  let index = at;
  for (;;) {
    if (
      ['TIMESTAMP', 'TRANSACTION', 'DATE', 'DATETIME'].includes(upperWord(tokens[index])) &&
      tokens[index + 1]
    )
      if (tokens[index + 1]!.kind !== 'symbol' || isOpen(tokens[index + 1])) index++;
    const interval = upperWord(tokens[index]) === 'INTERVAL';
    if (interval) index++;
    const token = tokens[index];
    if (!token) return null;
    if (isOpen(token)) {
      const close = closing(tokens, index);
      if (!close) return null;
      index = tokens.indexOf(close) + 1;
    } else if (token.kind === 'symbol') {
      if (token.text !== '-' && token.text !== '+') return null;
      index++;
      continue;
    } else {
      index++;
      if (token.kind === 'word' && isOpen(tokens[index])) {
        const close = closing(tokens, index);
        if (!close) return null;
        index = tokens.indexOf(close) + 1;
      }
    }
    if (interval) index++; // The unit: DAY, HOUR, …
    const operator = tokens[index];
    if (operator?.kind === 'symbol' && ['+', '-', '*', '/'].includes(operator.text)) {
      index++;
      continue;
    }
    return index;
  }
}
