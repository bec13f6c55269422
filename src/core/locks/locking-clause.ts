// Token-level recognition of a SELECT's trailing locking clause(s), so statements the SQL parser cannot read
// (`FOR SHARE`, `FOR UPDATE OF t`) can be parsed without them and rewritten on the AST.
/*
 * Design note.
 * node-sql-parser 5.4 rejects `FOR SHARE` and `OF tbl` (both MySQL >= 8.0.1), so the statement is cut
 * in two: the query (parsed as usual) and the locking clauses at its end (recognized here and
 * re-emitted by the rewrite). Only the *trailing* clauses of the top-level query are recognized —
 * what the server binds to the last query block, after ORDER BY / LIMIT; clauses inside
 * parentheses stay with the parser.
 *
 * 1. `scanTokens` is a single left-to-right scan with a small state machine: whitespace, comments
 *    (`-- `, `#`, `/* … *\/`), strings ('…', "…" with backslash escapes and doubled quotes),
 *    backtick identifiers (doubled backticks), words, numbers, punctuation. Nothing inside a
 *    string, quoted identifier or comment is ever read as a keyword. Versioned comments
 *    (`/*!80000 … *\/`) stay comments: their clause is not recognized and the parser decides.
 * 2. `findTrailingLocking` tracks parenthesis depth and tries each depth-0 `FOR` / `LOCK` word as a
 *    start: the tokens from there to the end (ignoring comments and a final `;`) must read exactly
 *    as a list of clauses
 *        clause := ( FOR UPDATE | FOR SHARE | LOCK IN SHARE MODE ) [ OF name {, name} ]
 *                  [ NOWAIT | SKIP LOCKED | WAIT n ]
 *    The earliest start that consumes everything wins (MySQL allows `FOR UPDATE OF a FOR SHARE OF b`).
 *    Grammar acceptance per server (MySQL: no options after LOCK IN SHARE MODE, no WAIT n; MariaDB:
 *    no FOR SHARE, no OF) is decided by the rewrite, not here: the scanner describes what is written.
 */

/** One lexical token. `start`/`end` are offsets into the scanned text. */
export interface SqlToken {
  kind: 'space' | 'comment' | 'string' | 'quoted' | 'word' | 'number' | 'punct';
  text: string;
  start: number;
  end: number;
}

/** One recognized locking clause. */
export interface LockingClauseSpec {
  /** The clause as written (comments and extra whitespace dropped). */
  text: string;
  strength: 'update' | 'share';
  /** How the lock is spelled: `FOR UPDATE`, `FOR SHARE` or `LOCK IN SHARE MODE`. */
  syntax: 'for-update' | 'for-share' | 'lock-in-share-mode';
  /** `OF` table names as written (backticks kept), empty when absent. */
  of: string[];
  option: 'none' | 'nowait' | 'skip-locked' | 'wait';
  /** Seconds of `WAIT n`. */
  waitSeconds?: number;
}

/** The trailing locking clauses of a statement and the query before them. */
export interface TrailingLocking {
  /** The statement up to the first clause, trimmed (what the parser reads). */
  query: string;
  clauses: LockingClauseSpec[];
  /** Offset of the first clause in the scanned text. */
  start: number;
}

const WORD_START = /[A-Za-z_$\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Split SQL into tokens. Never throws: an unterminated string or comment runs to the end of the text. */
export function scanTokens(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let index = 0;
  const push = (kind: SqlToken['kind'], start: number, end: number): void => {
    tokens.push({ kind, text: sql.slice(start, end), start, end });
    index = end;
  };
  while (index < sql.length) {
    const start = index;
    const char = sql[index] as string;
    const next = sql[index + 1] ?? '';
    if (/\s/.test(char)) {
      let end = index + 1;
      while (end < sql.length && /\s/.test(sql[end] as string)) end += 1;
      push('space', start, end);
    } else if (char === '#' || (char === '-' && next === '-' && /[\s]|^$/.test(sql[index + 2] ?? ''))) {
      const newline = sql.indexOf('\n', index);
      push('comment', start, newline === -1 ? sql.length : newline);
    } else if (char === '/' && next === '*') {
      const close = sql.indexOf('*/', index + 2);
      push('comment', start, close === -1 ? sql.length : close + 2);
    } else if (char === "'" || char === '"' || char === '`') {
      let end = index + 1;
      while (end < sql.length) {
        const current = sql[end];
        if (current === '\\' && char !== '`') end += 2;
        else if (current === char && sql[end + 1] === char) end += 2;
        else if (current === char) {
          end += 1;
          break;
        } else end += 1;
      }
      push(char === '`' ? 'quoted' : 'string', start, Math.min(end, sql.length));
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next))) {
      let end = index + 1;
      while (end < sql.length && /[0-9A-Za-z_.]/.test(sql[end] as string)) end += 1;
      push('number', start, end);
    } else if (WORD_START.test(char)) {
      let end = index + 1;
      while (end < sql.length && WORD_PART.test(sql[end] as string)) end += 1;
      push('word', start, end);
    } else {
      push('punct', start, index + 1);
    }
  }
  return tokens;
}

function isWord(token: SqlToken | undefined, ...words: string[]): boolean {
  return token?.kind === 'word' && words.includes(token.text.toUpperCase());
}

/** Read one clause list from `at` to the end of `tokens` (code tokens only); null unless it consumes all. */
function readClauses(tokens: readonly SqlToken[], at: number): LockingClauseSpec[] | null {
  const clauses: LockingClauseSpec[] = [];
  let index = at;
  while (index < tokens.length) {
    const parts: string[] = [];
    let syntax: LockingClauseSpec['syntax'];
    if (isWord(tokens[index], 'FOR') && isWord(tokens[index + 1], 'UPDATE', 'SHARE')) {
      syntax = isWord(tokens[index + 1], 'UPDATE') ? 'for-update' : 'for-share';
      parts.push('FOR', syntax === 'for-update' ? 'UPDATE' : 'SHARE');
      index += 2;
    } else if (
      isWord(tokens[index], 'LOCK') &&
      isWord(tokens[index + 1], 'IN') &&
      isWord(tokens[index + 2], 'SHARE') &&
      isWord(tokens[index + 3], 'MODE')
    ) {
      syntax = 'lock-in-share-mode';
      parts.push('LOCK IN SHARE MODE');
      index += 4;
    } else return null;
    const of: string[] = [];
    if (isWord(tokens[index], 'OF')) {
      index += 1;
      for (;;) {
        const name = readName(tokens, index);
        if (!name) return null;
        of.push(name.text);
        index = name.next;
        if (tokens[index]?.text !== ',') break;
        index += 1;
      }
      parts.push('OF', of.join(', '));
    }
    let option: LockingClauseSpec['option'] = 'none';
    let waitSeconds: number | undefined;
    if (isWord(tokens[index], 'NOWAIT')) {
      option = 'nowait';
      parts.push('NOWAIT');
      index += 1;
    } else if (isWord(tokens[index], 'SKIP') && isWord(tokens[index + 1], 'LOCKED')) {
      option = 'skip-locked';
      parts.push('SKIP LOCKED');
      index += 2;
    } else if (isWord(tokens[index], 'WAIT') && tokens[index + 1]?.kind === 'number') {
      option = 'wait';
      waitSeconds = Number(tokens[index + 1]?.text);
      if (!Number.isFinite(waitSeconds)) return null;
      parts.push('WAIT', String(tokens[index + 1]?.text));
      index += 2;
    }
    clauses.push({
      text: parts.join(' '),
      strength: syntax === 'for-update' ? 'update' : 'share',
      syntax,
      of,
      option,
      ...(waitSeconds === undefined ? {} : { waitSeconds }),
    });
  }
  return clauses.length > 0 ? clauses : null;
}

/** A table name of an `OF` list: `t`, `` `t` ``, `db.t`. */
function readName(tokens: readonly SqlToken[], at: number): { text: string; next: number } | null {
  const first = tokens[at];
  if (!first || (first.kind !== 'word' && first.kind !== 'quoted')) return null;
  let text = first.text;
  let next = at + 1;
  while (tokens[next]?.text === '.') {
    const part = tokens[next + 1];
    if (!part || (part.kind !== 'word' && part.kind !== 'quoted')) return null;
    text += `.${part.text}`;
    next += 2;
  }
  return { text, next };
}

/**
 * The locking clauses at the very end of a statement (outside parentheses, strings, quoted identifiers
 * and comments), and the query before them. Null when the statement does not end with one.
 */
export function findTrailingLocking(sql: string): TrailingLocking | null {
  const code = scanTokens(sql).filter((token) => token.kind !== 'space' && token.kind !== 'comment');
  while (code.length > 0 && code[code.length - 1]?.text === ';') code.pop();
  let depth = 0;
  for (let index = 0; index < code.length; index += 1) {
    const token = code[index] as SqlToken;
    if (token.kind === 'punct') {
      if (token.text === '(') depth += 1;
      else if (token.text === ')') depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth !== 0 || index === 0 || !isWord(token, 'FOR', 'LOCK')) continue;
    const clauses = readClauses(code, index);
    if (clauses) return { query: sql.slice(0, token.start).trim(), clauses, start: token.start };
  }
  return null;
}

/** The clause text a server accepts for a strength, `OF` list and option (see the rewrite for per-server rules). */
export function formatLockingClause(
  syntax: LockingClauseSpec['syntax'],
  of: readonly string[],
  option: string,
): string {
  const head =
    syntax === 'for-update' ? 'FOR UPDATE' : syntax === 'for-share' ? 'FOR SHARE' : 'LOCK IN SHARE MODE';
  return [head, of.length > 0 ? `OF ${of.join(', ')}` : '', option].filter(Boolean).join(' ');
}

/** Whether the statement has a locking clause anywhere (outside strings, quoted identifiers and comments). */
export function containsLockingClause(sql: string): boolean {
  const code = scanTokens(sql).filter((token) => token.kind === 'word');
  return code.some(
    (token, index) =>
      (isWord(token, 'FOR') && isWord(code[index + 1], 'UPDATE', 'SHARE')) ||
      (isWord(token, 'LOCK') &&
        isWord(code[index + 1], 'IN') &&
        isWord(code[index + 2], 'SHARE') &&
        isWord(code[index + 3], 'MODE')),
  );
}
