// MySQL's lexical state over a slow-log record's statement: is the text inside a quote or comment?
/*
 * Design note
 * -----------
 * pt-query-digest cuts records at every `;\n#`, also inside a string literal. In strict mode
 * (the default) the parser asks here whether a record's query ends inside a quote or a comment:
 * then its `;\n#` may be part of it, and the record continues unless a server header follows. A record longer
 * than `maxRecordLength` is streamed through: `compactSql` lexes it chunk by chunk and keeps a
 * compacted copy (literal runs shortened) from which its fingerprint is the same.
 */
import type { ATTRIBUTE_LINE_OP } from './event.js';

/** How much of an over-long record's query is kept (see SlowLogParserOptions.maxRecordLength). */
export const LONG_QUERY_HEAD = 1024 * 1024;

/** Lexer states of {@link lexSql}: outside anything, or inside a quote or comment. */
export const LEX_CODE = 0;
const LEX_SINGLE = 1; // '…'
const LEX_DOUBLE = 2; // "…"
const LEX_BACKTICK = 3; // `…`
const LEX_BLOCK_COMMENT = 4; // /* … */
const LEX_LINE_COMMENT = 5; // -- … or # … (ends at a newline)

/** Where {@link lexSql} stopped (it may step one char past `to` to finish a two-char token). */
let lexEnd = 0;

/** Where the last {@link lexSql} or {@link compactSql} call stopped. */
export function lexStop(): number {
  return lexEnd;
}

/**
 * MySQL's lexical state after `text[from, to)`, starting in `state`: which quote or comment is
 * open. Backslash escapes count in '…' and "…" (the default sql_mode; NO_BACKSLASH_ESCAPES is not
 * visible in a slow log). Reads at most one char past `to` (for `''`, `*\/`, `\\x`, `--`).
 */
export function lexSql(text: string, from: number, to: number, state: number): number {
  let i = from;
  const n = text.length;
  while (i < to) {
    const c = text.charCodeAt(i);
    switch (state) {
      case LEX_CODE:
        if (c === 39 /* ' */) state = LEX_SINGLE;
        else if (c === 34 /* " */) state = LEX_DOUBLE;
        else if (c === 96 /* ` */) state = LEX_BACKTICK;
        else if (c === 35 /* # */) state = LEX_LINE_COMMENT;
        else if (c === 47 /* / */ && i + 1 < n && text.charCodeAt(i + 1) === 42 /* * */) {
          state = LEX_BLOCK_COMMENT;
          i++;
        } else if (c === 45 /* - */ && i + 2 < n && text.charCodeAt(i + 1) === 45) {
          // MySQL: `--` starts a comment only before whitespace or a control char.
          const d = text.charCodeAt(i + 2);
          if (d <= 32) {
            state = LEX_LINE_COMMENT;
            i++;
          }
        }
        break;
      case LEX_SINGLE:
      case LEX_DOUBLE:
      case LEX_BACKTICK: {
        const quote = state === LEX_SINGLE ? 39 : state === LEX_DOUBLE ? 34 : 96;
        if (c === 92 /* \ */ && state !== LEX_BACKTICK) i++;
        else if (c === quote) {
          if (i + 1 < n && text.charCodeAt(i + 1) === quote) i++;
          else state = LEX_CODE;
        }
        break;
      }
      case LEX_BLOCK_COMMENT:
        if (c === 42 /* * */ && i + 1 < n && text.charCodeAt(i + 1) === 47 /* / */) {
          state = LEX_CODE;
          i++;
        }
        break;
      default: // LEX_LINE_COMMENT
        if (c === 10) state = LEX_CODE;
    }
    i++;
  }
  lexEnd = i;
  return state;
}

/** An over-long record being streamed through (see startLongRecord in parser.ts). */
export interface LongRecord {
  offset: number;
  line: number;
  ops: readonly (string | typeof ATTRIBUTE_LINE_OP)[];
  /** The statement, compacted: literal runs beyond LITERAL_RUN_KEPT chars are dropped. */
  kept: string[];
  keptLength: number;
  /** Length of the current run of plain chars inside a '…' or "…" literal. */
  run?: number;
  /** More than LONG_QUERY_HEAD bytes were kept: the rest is dropped. */
  cut?: boolean;
}

/** How many chars of a run inside a literal a long record keeps (the fingerprint needs none). */
const LITERAL_RUN_KEPT = 64;

/**
 * {@link lexSql} that also appends `text[from, to)` to `long.kept`, without the chars of a
 * '…'/"…" literal past the first LITERAL_RUN_KEPT of each run of plain chars (quotes and
 * backslashes are all kept, so the literals stay where they were and pt's fingerprint, which
 * turns every literal into `?`, is the same). Stops keeping after LONG_QUERY_HEAD chars.
 */
export function compactSql(
  text: string,
  from: number,
  to: number,
  state: number,
  long: LongRecord | undefined,
): number {
  if (long === undefined || long.cut === true) return lexSql(text, from, to, state);
  let run = long.run ?? 0;
  let segment = from;
  let i = from;
  const n = text.length;
  const flush = (until: number): void => {
    if (until > segment) {
      long.kept.push(text.slice(segment, until));
      long.keptLength += until - segment;
    }
  };
  while (i < to) {
    const c = text.charCodeAt(i);
    if (state === LEX_SINGLE || state === LEX_DOUBLE) {
      const quote = state === LEX_SINGLE ? 39 : 34;
      if (c === 92 /* \ */) {
        run = 0;
        i += 2;
        continue;
      }
      if (c === quote) {
        run = 0;
        if (i + 1 < n && text.charCodeAt(i + 1) === quote) i += 2;
        else {
          state = LEX_CODE;
          i++;
        }
        continue;
      }
      if (c === 39 || c === 34) run = 0;
      else if (++run > LITERAL_RUN_KEPT) {
        flush(i);
        // Skip the rest of the run at once.
        let j = i + 1;
        while (j < to) {
          const d = text.charCodeAt(j);
          if (d === 92 || d === 39 || d === 34) break;
          j++;
        }
        i = j;
        segment = j;
        continue;
      }
      i++;
      continue;
    }
    const next = lexSql(text, i, i + 1, state);
    i = lexEnd;
    if (next !== state) run = 0;
    state = next;
  }
  lexEnd = i;
  flush(Math.min(i, n));
  long.run = run;
  if (long.keptLength > LONG_QUERY_HEAD) long.cut = true;
  return state;
}

/** Whether a lexer state means the text so far ends inside a quote or a block comment. */
export function lexOpen(state: number): boolean {
  return state !== LEX_CODE && state !== LEX_LINE_COMMENT;
}

/**
 * Whether `query` ends inside a quote or a comment, i.e. the `;\n#` that ended its record may
 * have been part of it: a literal, or a `-- …;` / `# …;` comment whose next line starts with `#`
 * (the server's own `;` after a statement that ends in a comment is told apart by the caller: a
 * server header follows it). Most queries are decided by native substring searches: without
 * quotes, `/*`, `#` or `--` nothing can be open, and with only `'` quotes (no backslash, other
 * quote or comment that could hide one) the count of `'` decides (a doubled `''` keeps it even).
 */
export function queryEndsOpen(query: string): boolean {
  const single = query.indexOf("'");
  if (
    single === -1 &&
    !query.includes('"') &&
    !query.includes('`') &&
    !query.includes('/*') &&
    !query.includes('#') &&
    !query.includes('--')
  ) {
    return false;
  }
  if (
    single !== -1 &&
    !query.includes('\\') &&
    !query.includes('"') &&
    !query.includes('`') &&
    !query.includes('/*') &&
    !query.includes('#') &&
    !query.includes('--')
  ) {
    let count = 0;
    for (let i = single; i !== -1; i = query.indexOf("'", i + 1)) count++;
    return (count & 1) === 1;
  }
  // The terminator's ';' is not part of the query; a char past the end reads as NaN (no token).
  return lexSql(query, 0, query.length, LEX_CODE) !== LEX_CODE;
}
