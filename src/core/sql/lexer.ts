// A tokenizer that follows the MySQL / MariaDB server lexer, for deciding what a statement will do.
/*
 * Design note.
 * - The safety checks (the analysis session's statement guard, Apply DDL, what-if) must see the
 *   statement the way the server will read it, or text hidden from them runs on the server. So this
 *   lexer copies the server's rules, checked against MySQL 8.0.33 and MariaDB 10.11
 *   (tests/security/lexer-oracle.test.ts runs generated variants on both and compares):
 *   - whitespace is exactly TAB, LF, VT, FF, CR and SPACE (0x09–0x0D, 0x20); characters from
 *     U+0080 up (NO-BREAK SPACE, U+2028, U+FEFF …) are identifier characters, not separators;
 *   - `#` comments and `-- ` comments run to LF only; `--` starts a comment only when the next
 *     character is whitespace or a control character (0x01–0x1F, 0x7F) or the end of the text;
 *   - `/* … *\/` comments do not nest and end at the first `*\/`;
 *   - executable comments: `/*!` runs its content; `/*!NNNNN` (5 digits) runs it when the server's
 *     version is at least NNNNN. MariaDB also reads 6-digit versions, ignores 5-digit versions
 *     50700–99999 (MySQL-only syntax), and runs `/*M!` / `/*M!NNNNNN`, which MySQL treats as a plain
 *     comment. Inside a running executable comment, strings and plain comments are read as code is
 *     (a quote can run past `*\/`), and the comment ends at the first `*\/` outside them;
 *   - strings: `'…'` always; `"…"` unless ANSI_QUOTES (then `"` quotes identifiers); a doubled
 *     quote stands for itself; backslash escapes the next character unless NO_BACKSLASH_ESCAPES
 *     (never in identifiers);
 *   - `` `…` `` identifiers with ``` `` ``` for a backtick.
 * - It fails closed: NUL, other control characters outside strings and comments, unterminated
 *   strings or comments, nested executable comments, a version with another number of digits, and
 *   a versioned executable comment when the server version is unknown are all errors, never a guess.
 * - The caller passes what the server would use: flavor, version and the two sql_mode flags. When
 *   one is unknown, {@link lexicalContexts} lists every combination and a safety check must hold for
 *   all of them.
 */

/** What the server's lexer depends on. */
export interface LexicalContext {
  flavor: 'mysql' | 'mariadb';
  /** `major*10000 + minor*100 + patch` (8.0.33 → 80033, 10.11.9 → 101109); null when unknown. */
  version: number | null;
  ansiQuotes: boolean;
  noBackslashEscapes: boolean;
}

export type SqlTokenKind = 'word' | 'quoted' | 'string' | 'number' | 'uservar' | 'sysvar' | 'param' | 'punct';

export interface SqlToken {
  kind: SqlTokenKind;
  /**
   * word: upper-cased; quoted: the identifier (unquoted, as written); string: the raw text between
   * the quotes; uservar/sysvar: upper-cased name without `@`/`@@` and quotes; punct: the operator.
   */
  value: string;
  /** Offset of the token's first character in the statement. */
  start: number;
  end: number;
  /** True when the token came from inside an executable comment. */
  executable?: boolean;
}

export interface LexSuccess {
  ok: true;
  tokens: SqlToken[];
  /** Plain comments seen (not executable ones). */
  comments: number;
  /** Executable comments the server runs under this context. */
  executableComments: number;
}

export interface LexFailure {
  ok: false;
  error: string;
  at: number;
}

export type LexResult = LexSuccess | LexFailure;

/** Server version number from `SELECT VERSION()` text (`8.0.33`, `10.11.19-MariaDB-0+deb12u1`). */
export function versionNumber(version: string): number | null {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return null;
  return Number(match[1]) * 10000 + Number(match[2]) * 100 + Number(match[3]);
}

/** The lexical context of a session from its `VERSION()` and `@@sql_mode`. */
export function sessionLexicalContext(version: string, sqlMode: string): LexicalContext {
  const modes = new Set(
    sqlMode
      .toUpperCase()
      .split(',')
      .map((mode) => mode.trim()),
  );
  return {
    flavor: /mariadb/i.test(version) ? 'mariadb' : 'mysql',
    version: versionNumber(version),
    // ANSI is a combination mode that includes ANSI_QUOTES; the server stores it expanded, but a
    // caller may pass the short form.
    ansiQuotes: modes.has('ANSI_QUOTES') || modes.has('ANSI'),
    noBackslashEscapes: modes.has('NO_BACKSLASH_ESCAPES'),
  };
}

/** Every context that agrees with what is known (unknown flavor and sql_mode flags: all values). */
export function lexicalContexts(known: Partial<LexicalContext> = {}): LexicalContext[] {
  const flavors = known.flavor ? [known.flavor] : (['mysql', 'mariadb'] as const);
  const ansi = known.ansiQuotes === undefined ? [false, true] : [known.ansiQuotes];
  const nbe = known.noBackslashEscapes === undefined ? [false, true] : [known.noBackslashEscapes];
  const contexts: LexicalContext[] = [];
  for (const flavor of flavors)
    for (const ansiQuotes of ansi)
      for (const noBackslashEscapes of nbe)
        contexts.push({ flavor, version: known.version ?? null, ansiQuotes, noBackslashEscapes });
  return contexts;
}

const isSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d);
const isControl = (code: number): boolean => code <= 0x1f || code === 0x7f;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
/** Identifier characters: ASCII letters, digits, `_`, `$` and everything from U+0080 up. */
const isIdentPart = (code: number): boolean =>
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  isDigit(code) ||
  code === 0x5f ||
  code === 0x24 ||
  code >= 0x80;

/** Multi-character operators, longest first. */
const OPERATORS = ['<=>', '->>', '<=', '>=', '<>', '!=', ':=', '||', '&&', '<<', '>>', '->', '@@'];

const fail = (error: string, at: number): LexFailure => ({ ok: false, error, at });

/** Decide what an executable-comment opener at `index` does; see the design note. */
function executableComment(
  sql: string,
  index: number,
  context: LexicalContext,
): { run: boolean; length: number } | { error: string } | null {
  // index points at `/*`.
  let cursor = index + 2;
  let mariadbOnly = false;
  if (sql[cursor] === 'M' && sql[cursor + 1] === '!') {
    mariadbOnly = true;
    cursor += 2;
  } else if (sql[cursor] === '!') {
    cursor += 1;
  } else {
    return null;
  }
  let digits = 0;
  while (digits < 8 && isDigit(sql.charCodeAt(cursor + digits))) digits += 1;
  const length =
    cursor + (digits === 5 || (digits === 6 && context.flavor === 'mariadb') ? digits : 0) - index;
  if (mariadbOnly && context.flavor === 'mysql') {
    // A plain comment for MySQL.
    return { run: false, length };
  }
  if (digits === 0) return { run: true, length };
  if (context.flavor === 'mysql' && digits !== 5) {
    return { error: `an executable comment with a ${digits}-digit version (MySQL reads 5)` };
  }
  if (context.flavor === 'mariadb' && digits !== 5 && digits !== 6) {
    return { error: `an executable comment with a ${digits}-digit version (MariaDB reads 5 or 6)` };
  }
  const version = Number(sql.slice(cursor, cursor + digits));
  if (context.flavor === 'mariadb' && !mariadbOnly && digits === 5 && version >= 50700 && version <= 99999) {
    // MariaDB skips MySQL 5.7+ version comments.
    return { run: false, length };
  }
  if (context.version === null) {
    return { error: 'a versioned executable comment, and the server version is unknown' };
  }
  return { run: version <= context.version, length };
}

/** Tokenize one statement (or several: `;` is a token) under `context`. */
export function lexSql(sql: string, context: LexicalContext): LexResult {
  const tokens: SqlToken[] = [];
  let comments = 0;
  let executableComments = 0;
  let inExecutable = false;
  let index = 0;
  const length = sql.length;
  const nul = sql.indexOf('\0');
  if (nul >= 0) return fail('a NUL character', nul);
  while (index < length) {
    const code = sql.charCodeAt(index);
    const char = sql[index]!;
    const next = sql[index + 1];
    if (isSpace(code)) {
      index += 1;
      continue;
    }
    if (isControl(code)) return fail(`the control character U+${code.toString(16).padStart(4, '0')}`, index);
    if (inExecutable && char === '*' && next === '/') {
      inExecutable = false;
      index += 2;
      continue;
    }
    if (char === '/' && next === '*') {
      const executable = executableComment(sql, index, context);
      if (executable && 'error' in executable) return fail(executable.error, index);
      if (executable?.run) {
        if (inExecutable) return fail('an executable comment inside an executable comment', index);
        inExecutable = true;
        executableComments += 1;
        index += executable.length;
        continue;
      }
      const end = sql.indexOf('*/', index + 2);
      if (end < 0) return fail('an unterminated comment', index);
      comments += 1;
      index = end + 2;
      continue;
    }
    if (
      char === '#' ||
      (char === '-' && next === '-' && (index + 2 >= length || isControlOrSpace(sql.charCodeAt(index + 2))))
    ) {
      const end = sql.indexOf('\n', index);
      comments += 1;
      index = end < 0 ? length : end + 1;
      continue;
    }
    const start = index;
    const executable = inExecutable ? { executable: true } : {};
    if (char === "'" || (char === '"' && !context.ansiQuotes)) {
      const end = scanQuoted(sql, index, char, !context.noBackslashEscapes);
      if (end < 0) return fail('an unterminated string', index);
      tokens.push({ kind: 'string', value: sql.slice(index + 1, end), start, end: end + 1, ...executable });
      index = end + 1;
      continue;
    }
    if (char === '`' || char === '"') {
      const end = scanQuoted(sql, index, char, false);
      if (end < 0) return fail('an unterminated quoted identifier', index);
      const body = sql
        .slice(index + 1, end)
        .split(char + char)
        .join(char);
      tokens.push({ kind: 'quoted', value: body, start, end: end + 1, ...executable });
      index = end + 1;
      continue;
    }
    if (char === '@') {
      if (next === '@') {
        // @@name, @@GLOBAL.name, @@`name` (the server also reads quoted parts).
        let cursor = index + 2;
        let name = '';
        for (;;) {
          const c = sql[cursor];
          if (c === '`' || c === '"' || c === "'") {
            const end = scanQuoted(sql, cursor, c, false);
            if (end < 0) return fail('an unterminated quoted name', cursor);
            name += sql.slice(cursor + 1, end);
            cursor = end + 1;
          } else if (c !== undefined && (isIdentPart(c.charCodeAt(0)) || c === '.')) {
            name += c;
            cursor += 1;
          } else break;
        }
        tokens.push({ kind: 'sysvar', value: name.toUpperCase(), start, end: cursor, ...executable });
        index = cursor;
        continue;
      }
      let cursor = index + 1;
      const quote = sql[cursor];
      let name: string;
      if (quote === "'" || quote === '"' || quote === '`') {
        const end = scanQuoted(sql, cursor, quote, quote !== '`' && !context.noBackslashEscapes);
        if (end < 0) return fail('an unterminated user variable name', cursor);
        name = sql.slice(cursor + 1, end);
        cursor = end + 1;
      } else {
        while (cursor < length && (isIdentPart(sql.charCodeAt(cursor)) || sql[cursor] === '.')) cursor += 1;
        name = sql.slice(index + 1, cursor);
      }
      tokens.push({ kind: 'uservar', value: name.toUpperCase(), start, end: cursor, ...executable });
      index = cursor;
      continue;
    }
    if (isDigit(code) || (char === '.' && isDigit(sql.charCodeAt(index + 1)))) {
      // Numbers: 12, 1.5, .5, 1e10, 1.5e-3, 0x1F, 0b101. `12abc` and `0xZZ` are identifiers.
      const match = /^(?:0x[0-9a-f]+|0b[01]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)/i.exec(
        sql.slice(index, index + 400),
      )!;
      let cursor = index + match[0].length;
      if (cursor < length && isIdentPart(sql.charCodeAt(cursor)) && /^\w+$/.test(match[0])) {
        while (cursor < length && isIdentPart(sql.charCodeAt(cursor))) cursor += 1;
        tokens.push({
          kind: 'word',
          value: sql.slice(index, cursor).toUpperCase(),
          start,
          end: cursor,
          ...executable,
        });
      } else {
        tokens.push({ kind: 'number', value: match[0], start, end: cursor, ...executable });
      }
      index = cursor;
      continue;
    }
    if (isIdentPart(code)) {
      let cursor = index + 1;
      while (cursor < length && isIdentPart(sql.charCodeAt(cursor))) cursor += 1;
      tokens.push({
        kind: 'word',
        value: sql.slice(index, cursor).toUpperCase(),
        start,
        end: cursor,
        ...executable,
      });
      index = cursor;
      continue;
    }
    if (char === '?') {
      tokens.push({ kind: 'param', value: '?', start, end: index + 1, ...executable });
      index += 1;
      continue;
    }
    const operator = OPERATORS.find((candidate) => sql.startsWith(candidate, index));
    const text = operator ?? char;
    tokens.push({ kind: 'punct', value: text, start, end: index + text.length, ...executable });
    index += text.length;
  }
  if (inExecutable) return fail('an unterminated executable comment', length);
  return { ok: true, tokens, comments, executableComments };
}

const isControlOrSpace = (code: number): boolean =>
  isSpace(code) || (isControl(code) && code !== 0) || Number.isNaN(code);

/** Index of the closing quote of a quoted text starting at `index`, or -1. */
function scanQuoted(sql: string, index: number, quote: string, backslash: boolean): number {
  let cursor = index + 1;
  while (cursor < sql.length) {
    const c = sql[cursor];
    if (backslash && c === '\\') {
      cursor += 2;
      continue;
    }
    if (c === quote) {
      if (sql[cursor + 1] === quote) {
        cursor += 2;
        continue;
      }
      return cursor;
    }
    cursor += 1;
  }
  return -1;
}
