// Splits a script into statements with their positions, honouring quotes, comments and DELIMITER.
//
// Design note: a single left-to-right scan with a tiny state machine (code, 'string', "string",
// `identifier`, -- / # line comment, /* block comment */). A statement ends at the current
// delimiter (`;` unless a `DELIMITER xx` line changed it) outside those states. We do not parse
// SQL here: node-sql-parser does that per statement, so one bad statement never hides the others.

/** One statement of a script. Positions are 1-based, relative to the whole script. */
export interface StatementSlice {
  /** Statement text without the trailing delimiter, trimmed. */
  sql: string;
  /** Offset (0-based) of the first character of `sql` in the script. */
  offset: number;
  line: number;
  column: number;
}

/** Position helper for mapping offsets of the script to line/column. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let index = 0; index < text.length; index++) {
      if (text.charCodeAt(index) === 10) this.starts.push(index + 1);
    }
  }

  /** 1-based line and column of a 0-based offset. */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }
}

/** Split `text` into statements. Empty statements (only whitespace/comments) are dropped. */
export function splitStatements(text: string): StatementSlice[] {
  const lines = new LineIndex(text);
  const slices: StatementSlice[] = [];
  let delimiter = ';';
  let start = 0;
  let index = 0;
  let hasCode = false;

  const flush = (end: number, next: number) => {
    const raw = text.slice(start, end);
    const leading = raw.length - raw.trimStart().length;
    const sql = raw.trim();
    if (sql && hasCode) {
      const offset = start + leading;
      slices.push({ sql, offset, ...lines.position(offset) });
    }
    start = next;
    hasCode = false;
  };

  const length = text.length;
  let delimiterCode = delimiter.charCodeAt(0);
  while (index < length) {
    const code = text.charCodeAt(index);
    // DELIMITER command at the start of a line (client-side, as the mysql client handles it).
    if (
      (code === 100 || code === 68) && // d / D
      (index === 0 || text.charCodeAt(index - 1) === 10) &&
      /^delimiter\s/i.test(text.slice(index, index + 10))
    ) {
      const lineEnd = text.indexOf('\n', index);
      const end = lineEnd === -1 ? length : lineEnd;
      const value = text.slice(index + 9, end).trim();
      if (value) {
        delimiter = value;
        delimiterCode = delimiter.charCodeAt(0);
      }
      flush(index, end + 1);
      index = end + 1;
      continue;
    }
    const next = text.charCodeAt(index + 1);
    if (code === 45 /* - */ && next === 45 && isSpace(index + 2 < length ? text.charCodeAt(index + 2) : 32)) {
      index = skipLine(text, index);
      continue;
    }
    if (code === 35 /* # */) {
      index = skipLine(text, index);
      continue;
    }
    if (code === 47 /* / */ && next === 42 /* * */) {
      const close = text.indexOf('*/', index + 2);
      // Executable comments /*! … */ and optimizer hints /*+ … */ are code.
      const marker = text.charCodeAt(index + 2);
      if (marker === 33 /* ! */ || marker === 43 /* + */) hasCode = true;
      index = close === -1 ? length : close + 2;
      continue;
    }
    if (code === 39 /* ' */ || code === 34 /* " */ || code === 96 /* ` */) {
      hasCode = true;
      index = skipQuoted(text, index, text[index] as string);
      continue;
    }
    if (code === delimiterCode && (delimiter.length === 1 || text.startsWith(delimiter, index))) {
      flush(index, index + delimiter.length);
      index += delimiter.length;
      continue;
    }
    if (!hasCode && !isSpace(code)) hasCode = true;
    index++;
  }
  flush(length, length);
  return slices;
}

/** What `/\s/` matches, without a regular expression per character (ASCII fast path). */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

const WHITESPACE = /\s/;

function skipLine(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end === -1 ? text.length : end + 1;
}

function skipQuoted(text: string, index: number, quote: string): number {
  let cursor = index + 1;
  while (cursor < text.length) {
    const char = text[cursor];
    if (char === '\\' && quote !== '`') {
      cursor += 2;
      continue;
    }
    if (char === quote) {
      if (text[cursor + 1] === quote) {
        cursor += 2;
        continue;
      }
      return cursor + 1;
    }
    cursor++;
  }
  return text.length;
}
