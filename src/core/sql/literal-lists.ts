// Long `IN (…)` lists of plain literals: parsed as one item, the rest rebuilt as the parser would build them.
//
// Design note: node-sql-parser spends ~75 µs per literal of an `IN` list (every item descends the
// whole expression grammar, with location bookkeeping), so a query with a few hundred list values
// costs tens of milliseconds for nothing the advisor needs parsed. Before parsing, a scan finds
// `IN (` followed only by plain literals — unsigned integers and single-quoted strings without
// backslashes — and commas. When a list has at least `minItems` items, everything after its first
// item up to the `)` is blanked with spaces (newlines kept), so every offset, line and column of the
// statement is unchanged. After parsing, the list's `expr_list` (found through its IN expression,
// which ends right after the `)`) gets the items back, built exactly as the grammar builds them:
// `{ type: 'number', value }` and `{ type: 'single_quote_string', value: raw text between quotes }`
// (literals carry no `loc`). The first item, which the parser did read, must equal the rebuilt
// one; if that or anything else does not line up, the caller parses the original text instead.
// A property test checks that the rebuilt AST is identical to a full parse.

import type { AstNode } from './ast.js';

/** One blanked list: the offset of its `)` and all its items as AST nodes. */
export interface ElidedList {
  close: number;
  items: AstNode[];
}

/** The text the parser sees and the lists to put back. */
export interface Elision {
  text: string;
  lists: ElidedList[];
}

/** Lists shorter than this are parsed as written (blanking saves little on them). */
export const MIN_ELIDED_ITEMS = 8;

const IN_LIST = /\bIN\s*\(/gi;
const SPACE = new Set([32, 9, 10, 13]);
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const QUOTE = 39;
const BACKSLASH = 92;
/** Integers up to 15 digits (exact as numbers); a leading zero only for 0 itself. */
const MAX_DIGITS = 15;

/** One literal at `from`: its node and end, or undefined for anything else. */
function literalAt(sql: string, from: number): { node: AstNode; end: number } | undefined {
  const first = sql.charCodeAt(from);
  if (first >= DIGIT_0 && first <= DIGIT_9) {
    let end = from;
    while (end < sql.length && sql.charCodeAt(end) >= DIGIT_0 && sql.charCodeAt(end) <= DIGIT_9) end++;
    const text = sql.slice(from, end);
    const next = sql.charCodeAt(end);
    // 1.5, 1e3, 0x1F, 12abc: not a plain integer.
    if (end < sql.length && (next === 46 || /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[end] ?? '')))
      return undefined;
    if (text.length > MAX_DIGITS || (text.length > 1 && first === DIGIT_0)) return undefined;
    return { node: { type: 'number', value: Number(text) }, end };
  }
  if (first === QUOTE) {
    let end = from + 1;
    for (;;) {
      const code = sql.charCodeAt(end);
      if (Number.isNaN(code) || code === BACKSLASH) return undefined;
      if (code === QUOTE) {
        if (sql.charCodeAt(end + 1) === QUOTE) {
          end += 2;
          continue;
        }
        end++;
        break;
      }
      end++;
    }
    return { node: { type: 'single_quote_string', value: sql.slice(from + 1, end - 1) }, end };
  }
  return undefined;
}

function skipSpace(sql: string, from: number): number {
  let index = from;
  while (SPACE.has(sql.charCodeAt(index))) index++;
  return index;
}

/**
 * Blank the tails of long literal `IN` lists, or undefined when the statement has none. The scan
 * is textual (an `IN (` inside a string or comment may be blanked too): `restoreLiteralLists` only
 * accepts a parse in which every blanked list is the list of a real IN expression, so such a
 * statement is simply parsed as written.
 */
export function elideLiteralLists(sql: string, minItems = MIN_ELIDED_ITEMS): Elision | undefined {
  const lists: ElidedList[] = [];
  const blanks: [number, number][] = [];
  IN_LIST.lastIndex = 0;
  for (let match = IN_LIST.exec(sql); match; match = IN_LIST.exec(sql)) {
    const items: AstNode[] = [];
    let cursor = skipSpace(sql, match.index + match[0].length);
    let firstEnd = -1;
    let close = -1;
    for (;;) {
      const literal = literalAt(sql, cursor);
      if (!literal) break;
      items.push(literal.node);
      if (firstEnd < 0) firstEnd = literal.end;
      cursor = skipSpace(sql, literal.end);
      const code = sql.charCodeAt(cursor);
      if (code === 44) {
        cursor = skipSpace(sql, cursor + 1);
        continue;
      }
      if (code === 41) close = cursor;
      break;
    }
    if (close < 0 || items.length < minItems) continue;
    lists.push({ close, items });
    blanks.push([firstEnd, close]);
    IN_LIST.lastIndex = close + 1;
  }
  if (lists.length === 0) return undefined;
  let text = '';
  let from = 0;
  for (const [start, end] of blanks) {
    text += sql.slice(from, start) + sql.slice(start, end).replace(/[^\n]/g, ' ');
    from = end;
  }
  text += sql.slice(from);
  return { text, lists };
}

function sameLiteral(parsed: unknown, built: AstNode | undefined): boolean {
  if (!built || typeof parsed !== 'object' || parsed === null) return false;
  const node = parsed as AstNode;
  return Object.keys(node).length === 2 && node.type === built.type && node.value === built.value;
}

/**
 * Put the elided items back into the AST parsed from `elision.text` (mutates it). Returns false
 * when a list cannot be matched, in which case the AST must be discarded.
 */
export function restoreLiteralLists(ast: AstNode, elision: Elision): boolean {
  const byClose = new Map(elision.lists.map((list) => [list.close, list]));
  let restored = 0;
  let consistent = true;
  const visit = (value: unknown): void => {
    if (!consistent) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as AstNode;
    if (node.type === 'binary_expr' && (node.operator === 'IN' || node.operator === 'NOT IN')) {
      const loc = node.loc as { end?: { offset?: number } } | undefined;
      const right = node.right as AstNode | undefined;
      const end = loc?.end?.offset;
      const list = typeof end === 'number' ? byClose.get(end - 1) : undefined;
      if (list && right?.type === 'expr_list' && Array.isArray(right.value)) {
        if (right.value.length !== 1 || !sameLiteral(right.value[0], list.items[0])) {
          consistent = false;
          return;
        }
        right.value = list.items.map((item) => ({ ...item }));
        byClose.delete(list.close);
        restored++;
      }
    }
    for (const key in node) if (key !== 'loc') visit(node[key]);
  };
  visit(ast);
  return consistent && restored === elision.lists.length;
}
