// What running a statement may do beyond reading: function calls, INTO, locking reads, sequences.
/*
 * Design note.
 * - Works on the tokens of src/core/sql/lexer.ts (comments are gone, executable comments are code).
 * - A function call is a name followed by `(`. It is provably side-effect free only when it is an
 *   unqualified, unquoted built-in from {@link SAFE_FUNCTIONS} written with the `(` right after the
 *   name: with a space, or quoted, or `db.name`, the server may resolve the name to a stored
 *   function (MySQL resolves `count (x)` and `` `trim`(x) `` outside the built-in grammar). The lists
 *   of built-ins (safe ones, and ones with side effects) are data in src/core/sql/safe-functions.ts.
 * - Keywords followed by `(` (IN, EXISTS, OVER, type names in CAST …) are not calls: the servers'
 *   grammars only call a stored function through a plain identifier, never through a keyword.
 * - Column lists (`WITH cte (a, b) AS (`, `AS dt (a, b)`) are recognised; everything else that
 *   looks like a call and is not a known built-in is reported as a possible stored function.
 */

import type { SqlToken } from './lexer.js';
import { SAFE_FUNCTIONS, SIDE_EFFECT_FUNCTIONS } from './safe-functions.js';

export { SAFE_FUNCTIONS, SIDE_EFFECT_FUNCTIONS };

/** Keywords that may be followed by `(` without being a call. */
const NOT_CALLS: ReadonlySet<string> = new Set([
  'AGAINST',
  'ALL',
  'AND',
  'ANY',
  'AS',
  'BETWEEN',
  'BINARY',
  'BY',
  'CASE',
  'COLUMNS',
  'DISTINCT',
  'DISTINCTROW',
  'DIV',
  'ELSE',
  'EXCEPT',
  'EXISTS',
  'EXPLAIN',
  'DESCRIBE',
  'DESC',
  'FOR',
  'FROM',
  'HAVING',
  'IN',
  'INDEX',
  'INTERSECT',
  'INTERVAL',
  'INTO',
  'IS',
  'JOIN',
  'KEY',
  'LATERAL',
  'LIKE',
  'LIMIT',
  'NESTED',
  'NOT',
  'OF',
  'ON',
  'OR',
  'OVER',
  'PARTITION',
  'PATH',
  'RECURSIVE',
  'REGEXP',
  'RETURNING',
  'RLIKE',
  'SELECT',
  'SOME',
  'STRAIGHT_JOIN',
  'TABLE',
  'THEN',
  'UNION',
  'USING',
  'VALUES',
  'WHEN',
  'WHERE',
  'WITH',
  'XOR',
  'ESCAPE',
  'SET',
  'UPDATE',
  'DELETE',

  // Type names (CAST(x AS CHAR(10)), JSON_TABLE columns, RETURNING DECIMAL(10,2)).
  'VARCHAR',
  'VARBINARY',
  'DECIMAL',
  'NUMERIC',
  'FLOAT',
  'DOUBLE',
  'REAL',
  'INT',
  'INTEGER',
  'BIGINT',
  'SMALLINT',
  'TINYINT',
  'MEDIUMINT',
  'DATETIME',
  'NCHAR',
  'SIGNED',
  'UNSIGNED',
  'BIT',
]);

/** One call of a function in a statement. */
export interface FunctionCall {
  /** Upper-cased name (without the schema). */
  name: string;
  /** `db.fn(…)`. */
  qualified: boolean;
  /** Where the name starts in the statement (its schema's start when qualified) and ends. */
  nameStart: number;
  nameEnd: number;
  /** `` `fn`(…) `` or `"fn"(…)` under ANSI_QUOTES. */
  quoted: boolean;
  /** `fn (…)`: a space (or comment) between the name and `(`. */
  spaced: boolean;
  /** Offset in the statement. */
  start: number;
  verdict: 'safe' | 'side-effect' | 'unknown';
}

/** Why executing a statement is not provably free of side effects. */
export interface ExecutionRisk {
  kind:
    | 'side-effect-function'
    | 'unknown-function'
    | 'into'
    | 'locking-read'
    | 'assignment'
    | 'sequence'
    | 'procedure';
  message: string;
  start: number;
}

const isPunct = (token: SqlToken | undefined, value: string): boolean =>
  token?.kind === 'punct' && token.value === value;
const isWord = (token: SqlToken | undefined, ...values: string[]): boolean =>
  token?.kind === 'word' && values.includes(token.value);

/** Index of the `)` that closes the `(` at `open`, or -1. */
function closingParen(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index += 1) {
    if (isPunct(tokens[index], '(')) depth += 1;
    else if (isPunct(tokens[index], ')')) {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** `( a, b, c )` of identifiers only. */
function identifierList(tokens: readonly SqlToken[], open: number, close: number): boolean {
  if (close <= open + 1) return false;
  for (let index = open + 1; index < close; index += 1) {
    const token = tokens[index]!;
    const expectName = (index - open) % 2 === 1;
    if (expectName ? token.kind !== 'word' && token.kind !== 'quoted' : !isPunct(token, ',')) return false;
  }
  return true;
}

/** Every function call in the tokens, with its verdict. */
export function functionCalls(tokens: readonly SqlToken[]): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const open = tokens[index + 1];
    if (!isPunct(open, '(') || (token.kind !== 'word' && token.kind !== 'quoted')) continue;
    const previous = tokens[index - 1];
    const qualified = isPunct(previous, '.');
    const name = token.value.toUpperCase();
    if (token.kind === 'word' && !qualified && NOT_CALLS.has(name)) continue;
    const close = closingParen(tokens, index + 1);
    if (close > 0 && identifierList(tokens, index + 1, close) && !qualified) {
      // WITH cte (a, b) AS (…) and … AS dt (a, b): column lists, not calls.
      if (isWord(tokens[close + 1], 'AS') && isPunct(tokens[close + 2], '(')) continue;
      if (isWord(previous, 'AS') && !isPunct(tokens[close + 1], '(')) continue;
    }
    const quoted = token.kind === 'quoted';
    const spaced = open!.start !== token.end;
    let verdict: FunctionCall['verdict'] = 'unknown';
    if (!qualified && !quoted) {
      if (SIDE_EFFECT_FUNCTIONS.has(name)) verdict = 'side-effect';
      else if (SAFE_FUNCTIONS.has(name) && !spaced) verdict = 'safe';
    }
    if (!qualified && SIDE_EFFECT_FUNCTIONS.has(name)) verdict = 'side-effect';
    const schema = qualified ? tokens[index - 2] : undefined;
    const nameStart =
      schema && (schema.kind === 'word' || schema.kind === 'quoted') ? schema.start : token.start;
    calls.push({
      name,
      qualified,
      quoted,
      spaced,
      nameStart,
      nameEnd: token.end,
      start: token.start,
      verdict,
    });
  }
  return calls;
}

/**
 * The calls that may be stored or loadable functions (what `allowRoutineCalls` lets EXPLAIN run), as
 * written in `sql` (the text `tokens` were read from) and once each: the names a confirmation shows before the user allows them.
 */
export function routineCallNames(sql: string, tokens: readonly SqlToken[]): string[] {
  const names = functionCalls(tokens)
    .filter((call) => call.verdict === 'unknown')
    .map((call) => sql.slice(call.nameStart, call.nameEnd));
  return [...new Set(names)];
}

function callText(call: FunctionCall): string {
  return `${call.qualified ? '….' : ''}${call.quoted ? `\`${call.name}\`` : call.name}()`;
}

/** Risks of calling functions: side-effect built-ins always; unknown functions too unless allowed. */
export function functionRisks(
  tokens: readonly SqlToken[],
  options: { allowUnknown?: boolean } = {},
): ExecutionRisk[] {
  const risks: ExecutionRisk[] = [];
  for (const call of functionCalls(tokens)) {
    if (call.verdict === 'side-effect') {
      risks.push({
        kind: 'side-effect-function',
        message: `${callText(call)} ${SIDE_EFFECT_FUNCTIONS.get(call.name)}`,
        start: call.start,
      });
    } else if (call.verdict === 'unknown' && !options.allowUnknown) {
      const why = call.qualified
        ? 'a stored function'
        : call.quoted || call.spaced
          ? 'written so that the server may resolve it to a stored function'
          : 'not a built-in function known to be free of side effects (it may be a stored or loadable function)';
      risks.push({ kind: 'unknown-function', message: `${callText(call)} is ${why}`, start: call.start });
    }
  }
  return risks;
}

/**
 * Everything that makes executing `tokens` (a SELECT, TABLE, VALUES or the statement of EXPLAIN
 * ANALYZE) more than a read: function risks, INTO, locking reads, `:=`, sequences, PROCEDURE.
 */
export function executionRisks(tokens: readonly SqlToken[]): ExecutionRisk[] {
  const risks = functionRisks(tokens);
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (isWord(token, 'INTO')) {
      const what = isWord(next, 'OUTFILE', 'DUMPFILE')
        ? `INTO ${next!.value} writes a file on the server host`
        : 'INTO assigns variables';
      risks.push({ kind: 'into', message: `SELECT … ${what}`, start: token.start });
    } else if (isWord(token, 'FOR') && isWord(next, 'UPDATE', 'SHARE')) {
      risks.push({
        kind: 'locking-read',
        message: `SELECT … FOR ${next!.value} takes row locks`,
        start: token.start,
      });
    } else if (isWord(token, 'LOCK') && isWord(next, 'IN')) {
      risks.push({
        kind: 'locking-read',
        message: 'SELECT … LOCK IN SHARE MODE takes row locks',
        start: token.start,
      });
    } else if (isPunct(token, ':=')) {
      risks.push({ kind: 'assignment', message: ':= assigns a user variable', start: token.start });
    } else if (
      isWord(token, 'NEXT', 'PREVIOUS') &&
      isWord(next, 'VALUE') &&
      isWord(tokens[index + 2], 'FOR')
    ) {
      risks.push({
        kind: 'sequence',
        message: `${token.value} VALUE FOR uses a sequence`,
        start: token.start,
      });
    } else if (isWord(token, 'PROCEDURE')) {
      risks.push({ kind: 'procedure', message: 'SELECT … PROCEDURE runs a procedure', start: token.start });
    }
  }
  return risks.sort((a, b) => a.start - b.start);
}
