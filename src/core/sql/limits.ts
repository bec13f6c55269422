// Limits of what one statement may hold, and the two rewrites that keep deep input inside them
// without changing what the statement means. See docs/parsing.md, "Limits".
//
// node-sql-parser's grammar and every AST walker of the advisor recurse: 2,500 nested parentheses
// overflow the parser's stack (the servers accept 10,000), and a WHERE of 20,000 ORs parses into a
// left-deep chain 20,000 nodes deep that overflows the walkers. So, before the parse, parentheses
// that only wrap another parenthesised group are blanked (offsets kept), and after it, long AND/OR/XOR
// chains are rebuilt as balanced trees (same operator, same operand order, same printed SQL). What is
// still too deep gets the documented INPUT_TOO_COMPLEX error instead of a stack overflow.

import { isNode, walkChains, type AstNode } from './ast.js';

/** Parenthesis nesting a statement may have after redundant pairs are removed. */
export const MAX_NESTING_DEPTH = 1000;
/** Nesting at which redundant pairs start to be removed (below it the text is parsed as written). */
const COLLAPSE_FROM_DEPTH = 100;
/** Boolean chains longer than this are rebalanced after the parse. */
const REBALANCE_FROM_TERMS = 128;

/** The documented error code of a statement beyond the limits (also in src/shared/errors.ts). */
export const TOO_COMPLEX = 'INPUT_TOO_COMPLEX' as const;

/** Matching parenthesis pairs of code (strings, quoted names and comments skipped) and the deepest nesting. */
function parenthesisPairs(sql: string): { open: number[]; close: number[]; depth: number } {
  const open: number[] = [];
  const close: number[] = [];
  const stack: number[] = [];
  let depth = 0;
  const length = sql.length;
  for (let index = 0; index < length; index++) {
    const code = sql.charCodeAt(index);
    if (code === 40 /* ( */) {
      stack.push(index);
      if (stack.length > depth) depth = stack.length;
    } else if (code === 41 /* ) */) {
      const start = stack.pop();
      if (start !== undefined) {
        open.push(start);
        close.push(index);
      }
    } else if (code === 39 || code === 34 || code === 96) {
      index = quotedEnd(sql, index, code);
    } else if (code === 35 || (code === 45 && sql.charCodeAt(index + 1) === 45)) {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? length : end;
    } else if (code === 47 && sql.charCodeAt(index + 1) === 42 && sql.charCodeAt(index + 2) !== 33) {
      const end = sql.indexOf('*/', index + 2);
      index = end === -1 ? length : end + 1;
    }
  }
  return { open, close, depth };
}

function quotedEnd(sql: string, index: number, quote: number): number {
  for (let cursor = index + 1; cursor < sql.length; cursor++) {
    const code = sql.charCodeAt(cursor);
    if (code === 92 /* \ */ && quote !== 96) cursor++;
    else if (code === quote) {
      if (sql.charCodeAt(cursor + 1) === quote) cursor++;
      else return cursor;
    }
  }
  return sql.length;
}

/** Deepest parenthesis nesting of a statement's code. */
export function nestingDepth(sql: string): number {
  return parenthesisPairs(sql).depth;
}

/**
 * `((( a = 1 )))` → `(   a = 1   )`: a pair whose only content is another parenthesised group is
 * redundant; the inner pair is blanked with spaces (so offsets, lines and columns stay), which also
 * keeps `f((a))` a function call. Returns the text unchanged when nesting is below 100.
 */
export function collapseRedundantParentheses(sql: string): string {
  const { open, close, depth } = parenthesisPairs(sql);
  if (depth < COLLAPSE_FROM_DEPTH) return sql;
  const matchOf = new Map<number, number>();
  for (let i = 0; i < open.length; i++) matchOf.set(open[i]!, close[i]!);
  const chars = sql.split('');
  const isBlank = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
  for (let i = 0; i < open.length; i++) {
    const outerOpen = open[i]!;
    const outerClose = close[i]!;
    let innerOpen = outerOpen + 1;
    while (innerOpen < outerClose && isBlank(sql.charCodeAt(innerOpen))) innerOpen++;
    let innerClose = outerClose - 1;
    while (innerClose > innerOpen && isBlank(sql.charCodeAt(innerClose))) innerClose--;
    if (sql.charCodeAt(innerOpen) === 40 && matchOf.get(innerOpen) === innerClose) {
      chars[innerOpen] = ' ';
      chars[innerClose] = ' ';
    }
  }
  return chars.join('');
}

const BOOLEAN = new Set(['AND', 'OR', 'XOR', '&&', '||']);

/**
 * Rebuilds AND/OR/XOR chains of more than 128 terms (the grammar builds them left-deep, one level per
 * term) as balanced trees of the same operator over the same terms in the same order. A group in
 * parentheses is a term of its own, so the printed SQL is unchanged. Iterative: no recursion on depth.
 */
export function rebalanceBooleanChains(ast: unknown): void {
  walkChains(
    ast,
    (node) => node.type === 'binary_expr' && BOOLEAN.has(String(node.operator).toUpperCase()),
    (node) => {
      const terms = chainTerms(node);
      if (terms.length > REBALANCE_FROM_TERMS) {
        const balanced = balance(terms, node);
        node.left = balanced.left;
        node.right = balanced.right;
      }
      return terms;
    },
  );
}

/** The terms of a chain of one operator, left to right (parenthesised groups are terms). */
function chainTerms(root: AstNode): unknown[] {
  const operator = String(root.operator).toUpperCase();
  const terms: unknown[] = [];
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (
      isNode(node) &&
      node.type === 'binary_expr' &&
      String(node.operator).toUpperCase() === operator &&
      (node === root || !node.parentheses)
    ) {
      pending.push(node.right, node.left);
    } else terms.push(node);
  }
  return terms;
}

function balance(terms: unknown[], template: AstNode): AstNode {
  const build = (from: number, to: number): unknown => {
    if (to - from === 1) return terms[from];
    const middle = (from + to) >> 1;
    return {
      type: 'binary_expr',
      operator: template.operator,
      left: build(from, middle),
      right: build(middle, to),
      ...(template.loc ? { loc: template.loc } : {}),
    };
  };
  return build(0, terms.length) as AstNode;
}

/** INSERT/REPLACE … VALUES statements longer than this have their rows after the first ones elided. */
const LARGE_INSERT_BYTES = 1_000_000;
/** Rows of a large INSERT that are parsed and checked. */
export const CHECKED_INSERT_ROWS = 1000;

/**
 * A multi-megabyte `INSERT … VALUES (…), (…), …` (a dump's data line) would take the grammar tens of
 * seconds and a gigabyte: the rows after the first 1,000 are blanked with spaces (offsets kept, so
 * positions stay right) and only the first ones are parsed and checked. Returns null when the statement
 * is small or not a plain VALUES list (then it is parsed as written).
 */
export function elideInsertRows(sql: string): { text: string; kept: number; total: number } | null {
  if (sql.length < LARGE_INSERT_BYTES || !/^\s*(?:insert|replace)\b/i.test(sql.slice(0, 64))) return null;
  const values = /\bvalues?\b/i.exec(sql.slice(0, 100_000));
  if (!values) return null;
  let index = values.index + values[0].length;
  let rows = 0;
  let keptEnd = -1;
  let lastEnd = -1;
  const length = sql.length;
  const skipBlank = () => {
    for (
      let code = sql.charCodeAt(index);
      code === 32 || (code >= 9 && code <= 13);
      code = sql.charCodeAt(++index)
    );
  };
  for (;;) {
    skipBlank();
    if ((sql.charCodeAt(index) | 32) === 114 /* r */ && /^row\s*\(/i.test(sql.slice(index, index + 8)))
      index = sql.indexOf('(', index);
    if (sql.charCodeAt(index) !== 40) return null;
    // One row: to its matching ')', strings skipped.
    let depth = 0;
    for (; index < length; index++) {
      const code = sql.charCodeAt(index);
      if (code === 39 || code === 34 || code === 96) index = quotedEnd(sql, index, code);
      else if (code === 40) depth++;
      else if (code === 41 && --depth === 0) break;
    }
    if (index >= length) return null;
    index++;
    rows++;
    if (rows === CHECKED_INSERT_ROWS) keptEnd = index;
    lastEnd = index;
    skipBlank();
    if (sql.charCodeAt(index) !== 44 /* , */) break;
    index++;
  }
  if (keptEnd === -1 || rows <= CHECKED_INSERT_ROWS) return null;
  // Blank from the end of the last kept row to the end of the last row (commas included).
  const section = sql.slice(keptEnd, lastEnd);
  const blank = section.includes('\n') ? section.replace(/[^\n]/g, ' ') : ' '.repeat(section.length);
  return { text: sql.slice(0, keptEnd) + blank + sql.slice(lastEnd), kept: CHECKED_INSERT_ROWS, total: rows };
}
