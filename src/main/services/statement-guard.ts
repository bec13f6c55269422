// Read-only statement guard: the last check before a statement runs on an analysis session.
/*
 * Design note.
 * - Analysis sessions already run `SET SESSION TRANSACTION READ ONLY`, so the server refuses DML and
 *   DDL on them. The guard adds a second, client-side wall that also covers what a read-only
 *   transaction does NOT stop: KILL, SET GLOBAL, GRANT, ANALYZE TABLE, user-level locks, files
 *   written by SELECT … INTO OUTFILE, turning the session back to READ WRITE, MariaDB sequences, and
 *   code run by functions (SLEEP, BENCHMARK, stored functions of other users running with our
 *   privileges).
 * - It reads the statement with src/core/sql/lexer.ts, which follows the server's own lexical rules
 *   (comments and executable comments with versions, whitespace, quoting per sql_mode). When the
 *   session's flavor, version or sql_mode flags are not known, every combination is tried and the
 *   statement runs only when all of them allow it. Text the lexer cannot read safely is refused.
 * - It is an allow-list of statements: SELECT / WITH … SELECT / TABLE / VALUES, SHOW, DESCRIBE,
 *   EXPLAIN (any statement; EXPLAIN ANALYZE and MariaDB's ANALYZE [FORMAT=JSON] only of a read
 *   query, because they execute it), SET session variables (not GLOBAL/PERSIST, not
 *   transaction_read_only=OFF, not sql_mode or the client character set, which would change how the
 *   next statement is read), SET NAMES utf8mb4, USE, START TRANSACTION READ ONLY, ROLLBACK.
 * - Everything that executes (queries, SHOW … WHERE, SET values, EXPLAIN ANALYZE) must be provably
 *   free of side effects: only built-in functions from the allow-list in src/core/sql/safe-functions.ts,
 *   no INTO, no locking reads, no `:=`, no sequences. Plain EXPLAIN does not run the statement, but
 *   the optimizer evaluates constant subqueries and deterministic functions while planning, so
 *   side-effect built-ins are refused there too, and functions that may be stored routines only run
 *   when the caller passes `allowRoutineCalls` (the user chose to, after seeing why).
 */

import { AdvisorError } from '../../shared/errors.js';
import { lexicalContexts, lexSql, type LexicalContext, type SqlToken } from '../../core/sql/lexer.js';
import { executionRisks, functionRisks, type ExecutionRisk } from '../../core/sql/side-effects.js';

/** Why a statement was refused, or null when it may run on a read-only analysis session. */
export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

/** Options for {@link checkReadOnlyStatement}. */
export interface GuardOptions {
  /** What the session's lexer uses (flavor, version, sql_mode flags); unknown parts: every value. */
  context?: Partial<LexicalContext>;
  /** Plain EXPLAIN may plan a statement that calls functions that may be stored routines. */
  allowRoutineCalls?: boolean;
}

type Token = SqlToken;

const READ_QUERY_START = new Set(['SELECT', 'WITH', 'TABLE', 'VALUES']);
const READ_ONLY_VARIABLES = new Set(['TRANSACTION_READ_ONLY', 'TX_READ_ONLY']);
/** Session variables that change how the server reads the next statement (the guard's own lexer). */
const LEXER_VARIABLES = new Set([
  'SQL_MODE',
  'CHARACTER_SET_CLIENT',
  'CHARACTER_SET_CONNECTION',
  'COLLATION_CONNECTION',
]);
/** Client character sets in which the server reads the UTF-8 text mysql2 sends as the lexer does. */
const SAFE_CHARSETS = new Set(['UTF8MB4', 'UTF8MB3', 'UTF8', 'DEFAULT']);
const TRUE_VALUES = new Set(['1', 'ON', 'TRUE']);
/** Statements EXPLAIN / DESCRIBE may plan. */
const EXPLAINABLE_START = new Set([...READ_QUERY_START, 'UPDATE', 'DELETE', 'INSERT', 'REPLACE']);

function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token !== undefined && token.kind === 'word' && values.includes(token.value);
}

function isPunct(token: Token | undefined, value: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.value === value;
}

const refuse = (reason: string): GuardVerdict => ({ allowed: false, reason });
const ALLOW: GuardVerdict = { allowed: true };

function refuseRisks(risks: readonly ExecutionRisk[]): GuardVerdict {
  const first = risks[0];
  if (!first) return ALLOW;
  const more = risks.length > 1 ? ` (and ${risks.length - 1} more)` : '';
  return refuse(`${first.message}${more}`);
}

/** A query that reads: SELECT / WITH … SELECT / TABLE / VALUES, provably without side effects. */
function checkReadQuery(tokens: Token[]): GuardVerdict {
  let start = 0;
  while (isPunct(tokens[start], '(')) start += 1;
  const first = tokens[start];
  if (!first || first.kind !== 'word' || !READ_QUERY_START.has(first.value)) {
    return refuse(`only SELECT, TABLE or VALUES may be executed here, not ${describe(first)}`);
  }
  const risks = refuseRisks(executionRisks(tokens));
  if (!risks.allowed) return risks;
  for (const token of tokens) {
    if (isWord(token, 'UPDATE', 'DELETE', 'INSERT', 'REPLACE') && !isPunctAfter(tokens, token, '(')) {
      return refuse(`${token.value} writes data`);
    }
  }
  return ALLOW;
}

/** True when `token` is directly followed by the punctuation `value` (INSERT(…) and REPLACE(…) are string functions). */
function isPunctAfter(tokens: Token[], token: Token, value: string): boolean {
  const next = tokens[tokens.indexOf(token) + 1];
  return isPunct(next, value) && next!.start === token.end;
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

/** The value of an assignment: whatever follows the first `=` or `:=`. */
function assignedValue(part: Token[], from: number): Token[] {
  const equals = part.findIndex(
    (token, index) => index >= from && (isPunct(token, '=') || isPunct(token, ':=')),
  );
  return equals < 0 ? part.slice(from) : part.slice(equals + 1);
}

function checkAssignment(part: Token[]): GuardVerdict {
  const [first, second] = part;
  if (!first) return refuse('an empty SET assignment');
  let name: string | undefined;
  let valueStart: number;
  if (first.kind === 'uservar') {
    name = undefined;
    valueStart = 1;
  } else if (isWord(first, 'GLOBAL', 'PERSIST', 'PERSIST_ONLY')) {
    return refuse(`SET ${first.value} changes the server for every session`);
  } else if (isWord(first, 'SESSION', 'LOCAL')) {
    name = second?.value.toUpperCase();
    valueStart = 2;
  } else if (first.kind === 'sysvar') {
    const match = /^(?:(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\.)?(.*)$/.exec(first.value);
    if (match?.[1] && ['GLOBAL', 'PERSIST', 'PERSIST_ONLY'].includes(match[1])) {
      return refuse(`SET @@${match[1]}.… changes the server for every session`);
    }
    name = match?.[2];
    valueStart = 1;
  } else if (first.kind === 'word' || first.kind === 'quoted') {
    name = first.value.toUpperCase();
    valueStart = 1;
  } else {
    return refuse(`SET ${describe(first)} is not a session variable`);
  }
  const value = assignedValue(part, valueStart);
  if (name && READ_ONLY_VARIABLES.has(name)) {
    const only = value.length === 1 ? value[0]! : undefined;
    if (!only || !TRUE_VALUES.has(only.value.toUpperCase())) {
      return refuse(`SET ${name} would make the analysis session writable`);
    }
  }
  if (name && LEXER_VARIABLES.has(name)) {
    const only = value.length === 1 ? value[0]! : undefined;
    const charset = name !== 'SQL_MODE' && only && (only.kind === 'word' || only.kind === 'string');
    if (!charset || !SAFE_CHARSETS.has(only!.value.toUpperCase().replace(/_.*$/, ''))) {
      return refuse(`SET ${name} would change how the server reads the next statements`);
    }
  }
  return refuseRisks(functionRisks(value));
}

function checkSet(tokens: Token[], options: GuardOptions): GuardVerdict {
  const [first, second] = tokens;
  if (isWord(first, 'PASSWORD', 'ROLE', 'DEFAULT', 'RESOURCE')) {
    return refuse(`SET ${first!.value} is not allowed on an analysis session`);
  }
  if (isWord(first, 'NAMES', 'CHARSET') || (isWord(first, 'CHARACTER') && isWord(second, 'SET'))) {
    const charset = tokens[isWord(first, 'CHARACTER') ? 2 : 1];
    const name =
      charset && (charset.kind === 'word' || charset.kind === 'string') ? charset.value.toUpperCase() : '';
    return SAFE_CHARSETS.has(name)
      ? ALLOW
      : refuse(
          `SET ${first!.value} ${describe(charset)} would change how the server reads the next statements`,
        );
  }
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
        return checkTokens(tokens.slice(index + 1), options);
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

function checkExplain(tokens: Token[], options: GuardOptions): GuardVerdict {
  const { start, analyze } = skipExplainOptions(tokens, 1);
  const inner = tokens.slice(start);
  const head = inner[0];
  if (analyze) return checkReadQuery(inner);
  if (isPunct(head, '(') || (head?.kind === 'word' && EXPLAINABLE_START.has(head.value))) {
    // Plain EXPLAIN plans without running, but the optimizer may evaluate constant expressions.
    return refuseRisks(functionRisks(inner, { allowUnknown: options.allowRoutineCalls === true }));
  }
  if (isWord(head, 'FOR') && isWord(inner[1], 'CONNECTION') && inner.length === 3) return ALLOW;
  // DESCRIBE table [column]: names only.
  const names = inner.filter((token) => !isPunct(token, '.'));
  if (
    names.length >= 1 &&
    names.length <= 3 &&
    names.every((token) => token.kind === 'word' || token.kind === 'quoted' || token.kind === 'string') &&
    !isWord(head, 'INTO', 'FOR')
  ) {
    return ALLOW;
  }
  return refuse(`EXPLAIN ${describe(head)} is not a statement Sargable explains`);
}

function checkTokens(tokens: Token[], options: GuardOptions): GuardVerdict {
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
      return refuseRisks(functionRisks(tokens));
    case 'USE':
      return tokens.length === 2 && (tokens[1]!.kind === 'word' || tokens[1]!.kind === 'quoted')
        ? ALLOW
        : refuse('USE takes one database name');
    case 'DESCRIBE':
    case 'DESC':
    case 'EXPLAIN':
      return checkExplain(tokens, options);
    case 'ANALYZE': {
      if (isWord(tokens[1], 'TABLE', 'NO_WRITE_TO_BINLOG', 'LOCAL')) {
        return refuse('ANALYZE TABLE updates index statistics');
      }
      // MariaDB: ANALYZE [FORMAT=JSON] statement executes the statement.
      const { start } = skipExplainOptions(tokens, 1);
      return checkReadQuery(tokens.slice(start));
    }
    case 'SET':
      return checkSet(tokens.slice(1), options);
    case 'START':
      if (!isWord(tokens[1], 'TRANSACTION')) return refuse(`START ${describe(tokens[1])} is not allowed`);
      return readsOnly(tokens.slice(2))
        ? ALLOW
        : refuse('only START TRANSACTION READ ONLY is allowed on an analysis session');
    case 'ROLLBACK':
      return tokens.length === 1 ? ALLOW : refuse('only a plain ROLLBACK is allowed on an analysis session');
    default:
      return refuse(`${first.value} is not a read-only statement`);
  }
}

function describeContext(context: LexicalContext): string {
  const modes = [
    context.ansiQuotes ? 'ANSI_QUOTES' : '',
    context.noBackslashEscapes ? 'NO_BACKSLASH_ESCAPES' : '',
  ]
    .filter(Boolean)
    .join(',');
  return `${context.flavor === 'mariadb' ? 'MariaDB' : 'MySQL'}${modes ? ` with sql_mode ${modes}` : ''}`;
}

/** Decide whether `sql` may run on a read-only analysis session (see the design note). */
export function checkReadOnlyStatement(sql: string, options: GuardOptions = {}): GuardVerdict {
  const contexts = lexicalContexts(options.context ?? {});
  for (const [index, context] of contexts.entries()) {
    const verdict = checkInContext(sql, context, options);
    if (!verdict.allowed) {
      // Name the reading only when it is what makes the difference.
      return index === 0 ? verdict : refuse(`${verdict.reason} when read as ${describeContext(context)}`);
    }
  }
  return ALLOW;
}

function checkInContext(sql: string, context: LexicalContext, options: GuardOptions): GuardVerdict {
  const lexed = lexSql(sql, context);
  if (!lexed.ok) return refuse(`the statement could not be read safely (${lexed.error})`);
  let tokens = lexed.tokens;
  const semicolon = tokens.findIndex((token) => isPunct(token, ';'));
  if (semicolon >= 0) {
    if (tokens.slice(semicolon).some((token) => !isPunct(token, ';'))) {
      return refuse('only one statement at a time');
    }
    tokens = tokens.slice(0, semicolon);
  }
  return checkTokens(tokens, options);
}

/** Throw an AdvisorError when `sql` may not run on a read-only analysis session. */
export function assertReadOnlyStatement(sql: string, options: GuardOptions = {}): void {
  const verdict = checkReadOnlyStatement(sql, options);
  if (verdict.allowed) return;
  throw new AdvisorError('UNSUPPORTED', `Refused on a read-only analysis session: ${verdict.reason}.`, {
    hint: 'Analysis sessions only read. Writes (apply DDL, what-if index, kill, slow-log window) are separate actions with a confirmation; functions that may be stored routines are not run for you.',
  });
}

/** Where a caller attaches {@link GuardOptions} to one statement (a symbol: no JSON input can carry it). */
export const GUARD_OPTIONS: unique symbol = Symbol('sargable.guardOptions');

/** A mysql2 query argument that carries guard options for this statement only. */
export function withGuardOptions(
  sql: string,
  options: GuardOptions,
): { sql: string; [GUARD_OPTIONS]: GuardOptions } {
  return { sql, [GUARD_OPTIONS]: options };
}

/** The guard options a query argument carries, if any. */
export function guardOptionsOf(argument: unknown): GuardOptions {
  if (argument && typeof argument === 'object' && GUARD_OPTIONS in argument) {
    return (argument as { [GUARD_OPTIONS]: GuardOptions })[GUARD_OPTIONS];
  }
  return {};
}

/** Lexical context of driver connections, recorded when a read-only session opens (see connection.ts). */
const sessionContexts = new WeakMap<object, Partial<LexicalContext>>();

export function setSessionLexicalContext(connection: object, context: Partial<LexicalContext>): void {
  sessionContexts.set(connection, context);
}

export function sessionLexicalContextOf(connection: object | undefined): Partial<LexicalContext> {
  return (connection && sessionContexts.get(connection)) ?? {};
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
