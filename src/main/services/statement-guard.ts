// Read-only statement guard: the last check before a statement runs on an analysis session.
/*
 * Design note.
 * - Analysis sessions already run `SET SESSION TRANSACTION READ ONLY`, so the server refuses DML and
 *   DDL on them. The guard adds a second, client-side wall that also covers what a read-only
 *   transaction does NOT stop: KILL, SET GLOBAL, GRANT, ANALYZE TABLE, user-level locks, files
 *   written by SELECT … INTO OUTFILE, turning the session back to READ WRITE, and MariaDB sequences.
 * - It is an allow-list: SELECT / WITH … SELECT / TABLE / VALUES, SHOW, DESCRIBE, EXPLAIN (any
 *   statement; EXPLAIN ANALYZE and MariaDB's ANALYZE [FORMAT=JSON] only of a read query, because
 *   they execute it), SET [SESSION] variables (not GLOBAL/PERSIST, not transaction_read_only=OFF),
 *   SET NAMES, USE, START TRANSACTION READ ONLY, ROLLBACK. Everything else is refused.
 * - A tiny lexer, not a parser: it drops comments and string literals, keeps executable comments
 *   (`/*!80000 … *\/`, `/*M!100500 … *\/`) as code because the server runs them, and refuses a second
 *   statement after `;`. It only has to find keywords at the right places, so it never needs the
 *   SQL grammar, and it fails closed: anything it does not recognise is refused.
 */

import { AdvisorError } from '../../shared/errors.js';

type TokenKind = 'word' | 'string' | 'quoted' | 'number' | 'sysvar' | 'uservar' | 'punct';

interface Token {
  kind: TokenKind;
  /** Upper-cased for words and system variables; the character for punctuation. */
  value: string;
}

/** Why a statement was refused, or null when it may run on a read-only session. */
export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

const WORD_START = /[A-Za-z_$\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Split SQL into tokens; returns null for input the lexer cannot read safely (unterminated quote). */
function tokenize(sql: string): Token[] | { error: string } {
  const tokens: Token[] = [];
  let index = 0;
  let inExecutableComment = false;
  const length = sql.length;
  while (index < length) {
    const char = sql[index]!;
    const next = sql[index + 1];
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    if (char === '*' && next === '/' && inExecutableComment) {
      inExecutableComment = false;
      index += 2;
      continue;
    }
    if (char === '/' && next === '*') {
      // `/*!NNNNN code */` (MySQL and MariaDB) and `/*M!NNNNNN code */` (MariaDB) are executed.
      const executable = /^\/\*(?:M?!)(\d{5,6})?/.exec(sql.slice(index, index + 10));
      if (executable) {
        if (inExecutableComment) return { error: 'nested executable comment' };
        inExecutableComment = true;
        index += executable[0].length;
        continue;
      }
      const end = sql.indexOf('*/', index + 2);
      if (end < 0) return { error: 'unterminated comment' };
      index = end + 2;
      continue;
    }
    if (
      char === '#' ||
      (char === '-' && next === '-' && (index + 2 >= length || /\s/.test(sql[index + 2]!)))
    ) {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? length : end + 1;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      let cursor = index + 1;
      let closed = false;
      while (cursor < length) {
        const c = sql[cursor]!;
        if (c === '\\' && char !== '`') {
          cursor += 2;
          continue;
        }
        if (c === char) {
          if (sql[cursor + 1] === char) {
            cursor += 2;
            continue;
          }
          closed = true;
          break;
        }
        cursor += 1;
      }
      if (!closed) return { error: 'unterminated quoted text' };
      const body = sql.slice(index + 1, cursor);
      tokens.push(
        char === '`' ? { kind: 'quoted', value: body.toUpperCase() } : { kind: 'string', value: body },
      );
      index = cursor + 1;
      continue;
    }
    if (char === '@') {
      if (next === '@') {
        let cursor = index + 2;
        while (cursor < length && /[A-Za-z0-9_.$`]/.test(sql[cursor]!)) cursor += 1;
        tokens.push({ kind: 'sysvar', value: sql.slice(index, cursor).replace(/`/g, '').toUpperCase() });
        index = cursor;
        continue;
      }
      let cursor = index + 1;
      if (sql[cursor] === "'" || sql[cursor] === '"' || sql[cursor] === '`') {
        const quote = sql[cursor]!;
        const end = sql.indexOf(quote, cursor + 1);
        if (end < 0) return { error: 'unterminated quoted text' };
        cursor = end + 1;
      } else {
        while (cursor < length && /[A-Za-z0-9_.$]/.test(sql[cursor]!)) cursor += 1;
      }
      tokens.push({ kind: 'uservar', value: sql.slice(index, cursor) });
      index = cursor;
      continue;
    }
    if (/[0-9]/.test(char)) {
      let cursor = index + 1;
      while (cursor < length && WORD_PART.test(sql[cursor]!)) cursor += 1;
      // `1e10`, `0x1F` and identifiers that start with digits all read as one token.
      const text = sql.slice(index, cursor);
      tokens.push(
        /^[0-9]+$|^0x[0-9a-f]+$/i.test(text)
          ? { kind: 'number', value: text }
          : { kind: 'word', value: text.toUpperCase() },
      );
      index = cursor;
      continue;
    }
    if (WORD_START.test(char)) {
      let cursor = index + 1;
      while (cursor < length && WORD_PART.test(sql[cursor]!)) cursor += 1;
      // x'..', b'..', N'..', _utf8mb4'..' are literals: the prefix word is harmless.
      tokens.push({ kind: 'word', value: sql.slice(index, cursor).toUpperCase() });
      index = cursor;
      continue;
    }
    tokens.push({ kind: 'punct', value: char });
    index += 1;
  }
  if (inExecutableComment) return { error: 'unterminated executable comment' };
  return tokens;
}

const READ_QUERY_START = new Set(['SELECT', 'WITH', 'TABLE', 'VALUES']);
/** Functions whose call changes server state even inside a read-only transaction. */
const STATEFUL_FUNCTIONS = new Set(['GET_LOCK', 'RELEASE_LOCK', 'RELEASE_ALL_LOCKS', 'NEXTVAL', 'SETVAL']);
const READ_ONLY_VARIABLES = new Set(['TRANSACTION_READ_ONLY', 'TX_READ_ONLY']);
const TRUE_VALUES = new Set(['1', 'ON', 'TRUE']);

function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token !== undefined && token.kind === 'word' && values.includes(token.value);
}

function isPunct(token: Token | undefined, value: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.value === value;
}

const refuse = (reason: string): GuardVerdict => ({ allowed: false, reason });
const ALLOW: GuardVerdict = { allowed: true };

/** A query that reads: SELECT / WITH … SELECT / TABLE / VALUES, without locks, files or stateful calls. */
function checkReadQuery(tokens: Token[]): GuardVerdict {
  let start = 0;
  while (isPunct(tokens[start], '(')) start += 1;
  const first = tokens[start];
  if (!first || first.kind !== 'word' || !READ_QUERY_START.has(first.value)) {
    return refuse(`only SELECT, TABLE or VALUES may be executed here, not ${describe(first)}`);
  }
  if (first.value === 'WITH') {
    // The main statement is the first depth-0 statement keyword after the CTE list.
    let depth = 0;
    for (let index = start + 1; index < tokens.length; index += 1) {
      const token = tokens[index]!;
      if (isPunct(token, '(')) depth += 1;
      else if (isPunct(token, ')')) depth -= 1;
      else if (depth === 0 && isWord(token, 'UPDATE', 'DELETE', 'INSERT', 'REPLACE')) {
        return refuse(`WITH … ${token.value} writes data`);
      } else if (depth === 0 && isWord(token, 'SELECT', 'TABLE', 'VALUES')) break;
    }
  }
  for (let index = start; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (isWord(token, 'INTO') && isWord(next, 'OUTFILE', 'DUMPFILE')) {
      return refuse(`SELECT … INTO ${next!.value} writes a file on the server`);
    }
    if (isWord(token, 'FOR') && isWord(next, 'UPDATE', 'SHARE')) {
      return refuse(`SELECT … FOR ${next!.value} takes row locks`);
    }
    if (isWord(token, 'LOCK') && isWord(next, 'IN'))
      return refuse('SELECT … LOCK IN SHARE MODE takes row locks');
    if (token.kind === 'word' && STATEFUL_FUNCTIONS.has(token.value) && isPunct(next, '(')) {
      return refuse(`${token.value}() changes server state`);
    }
    if (isWord(token, 'NEXT') && isWord(next, 'VALUE') && isWord(tokens[index + 2], 'FOR')) {
      return refuse('NEXT VALUE FOR advances a sequence');
    }
  }
  return ALLOW;
}

function describe(token: Token | undefined): string {
  if (!token) return 'an empty statement';
  return token.kind === 'word' ? token.value : `'${token.value}'`;
}

/** Transaction characteristics (`READ ONLY`, `ISOLATION LEVEL …`, `WITH CONSISTENT SNAPSHOT`). */
function readsOnly(tokens: Token[]): boolean {
  let readOnly = false;
  for (let index = 0; index < tokens.length; index += 1) {
    if (isWord(tokens[index], 'READ') && isWord(tokens[index + 1], 'WRITE')) return false;
    if (isWord(tokens[index], 'READ') && isWord(tokens[index + 1], 'ONLY')) readOnly = true;
  }
  return readOnly;
}

/** Split a SET list at depth-0 commas. */
function splitAssignments(tokens: Token[]): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (isPunct(token, '(')) depth += 1;
    if (isPunct(token, ')')) depth -= 1;
    if (depth === 0 && isPunct(token, ',')) parts.push([]);
    else parts[parts.length - 1]!.push(token);
  }
  return parts;
}

function checkAssignment(part: Token[]): GuardVerdict {
  const [first, second] = part;
  if (!first) return refuse('an empty SET assignment');
  if (first.kind === 'uservar') return ALLOW;
  let name: string | undefined;
  let valueStart: number;
  if (isWord(first, 'GLOBAL', 'PERSIST', 'PERSIST_ONLY')) {
    return refuse(`SET ${first.value} changes the server for every session`);
  }
  if (isWord(first, 'SESSION', 'LOCAL')) {
    name = second?.value;
    valueStart = 2;
  } else if (first.kind === 'sysvar') {
    const match = /^@@(?:(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\.)?(.*)$/.exec(first.value);
    if (match?.[1] && ['GLOBAL', 'PERSIST', 'PERSIST_ONLY'].includes(match[1])) {
      return refuse(`SET @@${match[1]}.… changes the server for every session`);
    }
    name = match?.[2];
    valueStart = 1;
  } else if (first.kind === 'word' || first.kind === 'quoted') {
    name = first.value;
    valueStart = 1;
  } else {
    return refuse(`SET ${describe(first)} is not a session variable`);
  }
  if (name && READ_ONLY_VARIABLES.has(name)) {
    const value = part.slice(valueStart).filter((token) => !isPunct(token, '=') && !isPunct(token, ':'));
    const only = value.length === 1 ? value[0]! : undefined;
    if (!only || !TRUE_VALUES.has(only.value.toUpperCase())) {
      return refuse(`SET ${name} would make the analysis session writable`);
    }
  }
  return ALLOW;
}

function checkSet(tokens: Token[]): GuardVerdict {
  const [first, second] = tokens;
  if (isWord(first, 'PASSWORD', 'ROLE', 'DEFAULT', 'RESOURCE')) {
    return refuse(`SET ${first!.value} is not allowed on an analysis session`);
  }
  if (isWord(first, 'NAMES', 'CHARSET') || (isWord(first, 'CHARACTER') && isWord(second, 'SET')))
    return ALLOW;
  const transactionAt = isWord(first, 'TRANSACTION') ? 0 : isWord(second, 'TRANSACTION') ? 1 : -1;
  if (transactionAt >= 0) {
    if (transactionAt === 1 && !isWord(first, 'SESSION', 'LOCAL')) {
      return refuse(`SET ${describe(first)} TRANSACTION changes other sessions`);
    }
    const characteristics = tokens.slice(transactionAt + 1);
    for (let index = 0; index < characteristics.length; index += 1) {
      if (isWord(characteristics[index], 'READ') && isWord(characteristics[index + 1], 'WRITE')) {
        return refuse('SET TRANSACTION READ WRITE would make the analysis session writable');
      }
    }
    return ALLOW;
  }
  if (isWord(first, 'STATEMENT')) {
    // MariaDB: SET STATEMENT var=value[, …] FOR statement
    let depth = 0;
    for (let index = 1; index < tokens.length; index += 1) {
      const token = tokens[index]!;
      if (isPunct(token, '(')) depth += 1;
      else if (isPunct(token, ')')) depth -= 1;
      else if (depth === 0 && isWord(token, 'FOR')) {
        for (const part of splitAssignments(tokens.slice(1, index))) {
          const verdict = checkAssignment(part);
          if (!verdict.allowed) return verdict;
        }
        return checkTokens(tokens.slice(index + 1));
      }
    }
    return refuse('SET STATEMENT without FOR');
  }
  for (const part of splitAssignments(tokens)) {
    const verdict = checkAssignment(part);
    if (!verdict.allowed) return verdict;
  }
  return ALLOW;
}

/** Skip EXPLAIN/ANALYZE options (FORMAT=JSON, EXTENDED, PARTITIONS, ANALYZE); returns the statement start. */
function skipExplainOptions(tokens: Token[], from: number): { start: number; analyze: boolean } {
  let index = from;
  let analyze = false;
  for (;;) {
    const token = tokens[index];
    if (isWord(token, 'ANALYZE')) {
      analyze = true;
      index += 1;
    } else if (isWord(token, 'EXTENDED', 'PARTITIONS')) {
      index += 1;
    } else if (isWord(token, 'FORMAT') && isPunct(tokens[index + 1], '=')) {
      index += 3;
    } else {
      return { start: index, analyze };
    }
  }
}

function checkTokens(tokens: Token[]): GuardVerdict {
  const first = tokens[0];
  if (!first) return ALLOW;
  if (isPunct(first, '(')) return checkReadQuery(tokens);
  if (first.kind !== 'word') return refuse(`statements cannot start with ${describe(first)}`);
  switch (first.value) {
    case 'SELECT':
    case 'WITH':
    case 'TABLE':
    case 'VALUES':
      return checkReadQuery(tokens);
    case 'SHOW':
    case 'USE':
      return ALLOW;
    case 'DESCRIBE':
    case 'DESC':
    case 'EXPLAIN': {
      const { start, analyze } = skipExplainOptions(tokens, 1);
      // EXPLAIN only plans a statement; EXPLAIN ANALYZE runs it.
      return analyze ? checkReadQuery(tokens.slice(start)) : ALLOW;
    }
    case 'ANALYZE': {
      if (isWord(tokens[1], 'TABLE', 'NO_WRITE_TO_BINLOG', 'LOCAL')) {
        return refuse('ANALYZE TABLE updates index statistics');
      }
      // MariaDB: ANALYZE [FORMAT=JSON] statement executes the statement.
      const { start } = skipExplainOptions(tokens, 1);
      return checkReadQuery(tokens.slice(start));
    }
    case 'SET':
      return checkSet(tokens.slice(1));
    case 'START':
      if (!isWord(tokens[1], 'TRANSACTION')) return refuse(`START ${describe(tokens[1])} is not allowed`);
      return readsOnly(tokens.slice(2))
        ? ALLOW
        : refuse('only START TRANSACTION READ ONLY is allowed on an analysis session');
    case 'ROLLBACK':
      return ALLOW;
    default:
      return refuse(`${first.value} is not a read-only statement`);
  }
}

/** Decide whether `sql` may run on a read-only analysis session (see the design note). */
export function checkReadOnlyStatement(sql: string): GuardVerdict {
  const lexed = tokenize(sql);
  if (!Array.isArray(lexed)) return refuse(`the statement could not be read safely (${lexed.error})`);
  let tokens = lexed;
  const semicolon = tokens.findIndex((token) => isPunct(token, ';'));
  if (semicolon >= 0) {
    if (tokens.slice(semicolon).some((token) => !isPunct(token, ';'))) {
      return refuse('only one statement at a time');
    }
    tokens = tokens.slice(0, semicolon);
  }
  return checkTokens(tokens);
}

/** Throw an AdvisorError when `sql` may not run on a read-only analysis session. */
export function assertReadOnlyStatement(sql: string): void {
  const verdict = checkReadOnlyStatement(sql);
  if (verdict.allowed) return;
  throw new AdvisorError('UNSUPPORTED', `Refused on a read-only analysis session: ${verdict.reason}.`, {
    hint: 'Analysis sessions only read. Writes (apply DDL, what-if index, kill, slow-log window) are separate actions with a confirmation.',
  });
}

/** The SQL text of a mysql2 `query`/`execute` argument (a string or `{ sql }`). */
export function statementText(argument: unknown): string | undefined {
  if (typeof argument === 'string') return argument;
  if (argument && typeof argument === 'object' && 'sql' in argument) {
    const sql = (argument as { sql: unknown }).sql;
    return typeof sql === 'string' ? sql : undefined;
  }
  return undefined;
}
