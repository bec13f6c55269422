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
