// A small MySQL/MariaDB lexer for the schema loader: words, quoted identifiers, strings, numbers and
// punctuation, with comments skipped and executable comments (`/*!50100 … */`, `/*M!100301 … */`)
// unwrapped the way the target server would read them.
//
// Design note: the schema loader reads whole dumps (thousands of tables, megabytes), so this is a
// single forward scan over char codes, no regular expressions per character, and it never throws:
// anything unknown becomes a one-character punctuation token and the parser decides.

import type { Flavor } from '../flavors/capabilities.js';

export type TokenType = 'word' | 'ident' | 'string' | 'dstring' | 'number' | 'punct';

export interface Token {
  type: TokenType;
  /** Words: upper-cased text; identifiers and strings: the unquoted value; others: the text. */
  value: string;
  /** Offset of the first character in the statement text. */
  start: number;
  /** Offset after the last character. */
  end: number;
}

const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || // 0-9
  (code >= 65 && code <= 90) || // A-Z
  (code >= 97 && code <= 122) || // a-z
  code === 95 || // _
  code === 36 || // $
  code > 127;

const isSpace = (code: number): boolean =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12 || code === 0xa0;

export interface LexOptions {
  flavor: Flavor;
  /** Server version as a number like 80033 or 101100, for versioned comments. */
  version: number;
}

/** Tokens of one statement. Comments are dropped; executable comments that apply are read as code. */
export function tokenize(text: string, options: LexOptions): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let index = 0;
  // Depth of open executable comments whose `*/` must be skipped as if it were whitespace.
  let openExecutable = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) {
      index++;
      continue;
    }
    const next = text.charCodeAt(index + 1);
    // Comments.
    if (code === 35 /* # */) {
      index = lineEnd(text, index);
      continue;
    }
    if (code === 45 /* - */ && next === 45) {
      const after = text.charCodeAt(index + 2);
      if (index + 2 >= length || isSpace(after) || after < 32) {
        index = lineEnd(text, index);
        continue;
      }
    }
    if (code === 42 /* * */ && next === 47 /* / */ && openExecutable > 0) {
      openExecutable--;
      index += 2;
      continue;
    }
    if (code === 47 /* / */ && next === 42 /* * */) {
      const marker = text.charCodeAt(index + 2);
      const mariaMarker = marker === 77 /* M */ && text.charCodeAt(index + 3) === 33; /* ! */
      if (marker === 33 /* ! */ || mariaMarker) {
        let cursor = index + (mariaMarker ? 4 : 3);
        const digitsStart = cursor;
        while (cursor < length && text.charCodeAt(cursor) >= 48 && text.charCodeAt(cursor) <= 57) cursor++;
        const digits = text.slice(digitsStart, cursor);
        const applies = executableApplies(mariaMarker, digits, options);
        if (applies) {
          openExecutable++;
          index = cursor;
          continue;
        }
      }
      // Optimizer hints are comments for the schema loader, too.
      const close = text.indexOf('*/', index + 2);
      index = close === -1 ? length : close + 2;
      continue;
    }
    const start = index;
    // Quoted identifiers.
    if (code === 96 /* ` */) {
      const { value, end } = readQuoted(text, index, 96, false);
      tokens.push({ type: 'ident', value, start, end });
      index = end;
      continue;
    }
    if (code === 39 /* ' */ || code === 34 /* " */) {
      const { value, end } = readQuoted(text, index, code, true);
      tokens.push({ type: code === 39 ? 'string' : 'dstring', value, start, end });
      index = end;
      continue;
    }
    // Numbers (a word that starts with digits but has letters is an identifier, as MySQL reads it).
    if ((code >= 48 && code <= 57) || (code === 46 && next >= 48 && next <= 57)) {
      let cursor = index;
      while (cursor < length && (isWordChar(text.charCodeAt(cursor)) || text.charCodeAt(cursor) === 46)) {
        const c = text.charCodeAt(cursor);
        // 1e-5 / 1E+5
        if (
          (c === 101 || c === 69) &&
          (text.charCodeAt(cursor + 1) === 45 || text.charCodeAt(cursor + 1) === 43)
        ) {
          cursor += 2;
          continue;
        }
        cursor++;
      }
      const raw = text.slice(index, cursor);
      const numeric =
        /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw) || /^0x[0-9a-f]+$/i.test(raw) || /^0b[01]+$/.test(raw);
      tokens.push(
        numeric
          ? { type: 'number', value: raw, start, end: cursor }
          : { type: 'word', value: raw.toUpperCase(), start, end: cursor },
      );
      index = cursor;
      continue;
    }
    if (isWordChar(code)) {
      let cursor = index + 1;
      while (cursor < length && isWordChar(text.charCodeAt(cursor))) cursor++;
      // X'…', B'…', N'…' and charset introducers _utf8mb4'…' are string literals.
      if (text.charCodeAt(cursor) === 39) {
        const word = text.slice(index, cursor).toLowerCase();
        if (word === 'x' || word === 'b' || word === 'n' || word.startsWith('_')) {
          const { value, end } = readQuoted(text, cursor, 39, true);
          tokens.push({ type: 'string', value, start, end });
          index = end;
          continue;
        }
      }
      tokens.push({ type: 'word', value: text.slice(index, cursor).toUpperCase(), start, end: cursor });
      index = cursor;
      continue;
    }
    tokens.push({ type: 'punct', value: text[index] ?? '', start, end: index + 1 });
    index++;
  }
  return tokens;
}

/**
 * Whether the server runs an executable comment: MySQL runs `/*!NNNNN` up to its own version;
 * MariaDB runs 5-digit (MySQL) versions only below 50700 (it does not claim MySQL 5.7 syntax) and
 * 6-digit ones up to its own version; `/*M!` is MariaDB's alone. Checked on MySQL 8.0.33 and
 * MariaDB 10.11: `SELECT 1` followed by the comments `!50699 +1` and `!50700 +10` gives 2 on
 * MariaDB and 12 on MySQL.
 */
function executableApplies(mariaMarker: boolean, digits: string, options: LexOptions): boolean {
  if (mariaMarker)
    return options.flavor === 'mariadb' && (digits === '' || Number(digits) <= options.version);
  if (digits === '') return true;
  if (options.flavor === 'mariadb')
    return digits.length === 5 ? Number(digits) < 50700 : Number(digits) <= options.version;
  return Number(digits) <= options.version;
}

function lineEnd(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end === -1 ? text.length : end + 1;
}

function readQuoted(
  text: string,
  index: number,
  quote: number,
  backslash: boolean,
): { value: string; end: number } {
  let cursor = index + 1;
  let value = '';
  let chunk = cursor;
  while (cursor < text.length) {
    const code = text.charCodeAt(cursor);
    if (backslash && code === 92 /* \ */) {
      value += text.slice(chunk, cursor) + unescape(text[cursor + 1] ?? '');
      cursor += 2;
      chunk = cursor;
      continue;
    }
    if (code === quote) {
      if (text.charCodeAt(cursor + 1) === quote) {
        value += text.slice(chunk, cursor + 1);
        cursor += 2;
        chunk = cursor;
        continue;
      }
      value += text.slice(chunk, cursor);
      return { value, end: cursor + 1 };
    }
    cursor++;
  }
  return { value: value + text.slice(chunk), end: text.length };
}

function unescape(char: string): string {
  switch (char) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '0':
      return '\0';
    case 'Z':
      return '\x1a';
    case 'b':
      return '\b';
    default:
      return char;
  }
}

/** A server version string like `8.0.33` or `10.11.6-MariaDB` as the number versioned comments use. */
export function versionNumber(version: string): number {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return 80033;
  return Number(match[1]) * 10000 + Number(match[2]) * 100 + Number(match[3]);
}
