// When node-sql-parser rejects a statement, is it provably invalid, or only syntax the grammar does
// not know? The servers accept far more than the grammar (issue #19 measured 4-5% of documented DML
// and 30-40% of other statements rejected by the grammar but accepted by MySQL 8.0.33 / MariaDB 10.11),
// so a statement counts as a syntax error only when one of these server-independent checks fails:
// unbalanced parentheses or an unterminated string/name/comment, a first word that starts no statement,
// or token sequences no MySQL/MariaDB statement contains (`SELECT FROM`, `FROM WHERE`, `, ,`, `a = )`,
// `ORDER a`, `LIMIT -1`, …). Everything else is "not fully analysed" (rule PRS001), never a syntax error.
// tests/integration/statement-corpus.test.ts measures both directions on the real servers.

import { tokenize, type Token } from '../schema/ddl-tokens.js';
import type { Flavor } from '../flavors/capabilities.js';

/** Why the statement is invalid whatever the server, or null when it may be valid. */
export function provablyInvalid(sql: string, flavor: Flavor): { offset: number; reason: string } | null {
  const lexical = lexicalProblem(sql);
  if (lexical) return lexical;
  const tokens = tokenize(sql, { flavor, version: flavor === 'mariadb' ? 101100 : 80033 });
  if (tokens.length === 0) return null;
  let first = 0;
  while (isPunct(tokens[first], '(')) first++;
  const head = tokens[first];
  if (!head) return { offset: 0, reason: 'no statement inside the parentheses' };
  const label = (head.type === 'ident' || head.type === 'word') && isPunct(tokens[first + 1], ':');
  if (!label && !(head.type === 'word' && STATEMENT_WORDS.has(head.value)))
    return { offset: head.start, reason: `'${sql.slice(head.start, head.end)}' starts no statement` };
  // GRANT/REVOKE name privileges (`GRANT SELECT, INSERT ON …`): SELECT there starts no select list.
  const privileges = isWord(head, 'GRANT', 'REVOKE');
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (privileges && isWord(token, 'SELECT')) continue;
    const problem = adjacency(token, next, tokens[index - 1]);
    if (problem) return { offset: next?.start ?? token.end, reason: problem };
  }
  return null;
}

const STATEMENT_WORDS = new Set(
  (
    'SELECT WITH INSERT UPDATE DELETE REPLACE TABLE VALUES CREATE ALTER DROP RENAME TRUNCATE SET SHOW EXPLAIN ' +
    'DESCRIBE DESC ANALYZE OPTIMIZE REPAIR CHECK CHECKSUM GRANT REVOKE USE BEGIN START COMMIT ROLLBACK SAVEPOINT ' +
    'RELEASE LOCK UNLOCK CALL DO HANDLER LOAD PREPARE EXECUTE DEALLOCATE FLUSH KILL RESET PURGE CHANGE STOP ' +
    'INSTALL UNINSTALL XA SIGNAL RESIGNAL GET DECLARE IF WHILE REPEAT LOOP LEAVE ITERATE RETURN CASE CACHE ' +
    'BINLOG HELP SHUTDOWN RESTART CLONE IMPORT BACKUP FOR OPEN CLOSE FETCH NOT'
  ).split(' '),
);

const CLAUSE_END = new Set([
  'WHERE',
  'GROUP',
  'ORDER',
  'LIMIT',
  'HAVING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
]);
const COMPARISON = new Set(['=', '<', '>', '!']);
const WORD_OPERATORS = new Set(['AND', 'OR', 'XOR', 'LIKE', 'REGEXP', 'RLIKE', 'BETWEEN']);

function isPunct(token: Token | undefined, value: string): boolean {
  return token?.type === 'punct' && token.value === value;
}
function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token?.type === 'word' && values.includes(token.value);
}
const ends = (token: Token | undefined) => token === undefined || isPunct(token, ';');

function adjacency(token: Token, next: Token | undefined, previous: Token | undefined): string | null {
  if (token.type === 'word') {
    switch (token.value) {
      case 'SELECT':
        if (ends(next) || isWord(next, 'FROM') || isPunct(next, ')') || isPunct(next, ','))
          return 'SELECT has no select list';
        return null;
      case 'FROM':
        if (
          ends(next) ||
          isPunct(next, ')') ||
          isPunct(next, ',') ||
          (next?.type === 'word' && CLAUSE_END.has(next.value))
        )
          return 'FROM names no table';
        return null;
      case 'WHERE':
      case 'HAVING':
        if (ends(next) || isPunct(next, ')') || isWord(next, 'GROUP', 'ORDER', 'LIMIT'))
          return `${token.value} has no condition`;
        return null;
      case 'ORDER':
      case 'GROUP':
        // Only as the clause keyword (after a name, a closing parenthesis or a literal).
        if (
          next &&
          !isWord(next, 'BY') &&
          previous &&
          previous.type !== 'punct' &&
          !isWord(previous, 'SELECT', 'AS', 'TABLE', 'RESOURCE', 'WITHIN', 'LOGFILE')
        )
          return `${token.value} without BY`;
        return null;
      case 'LIMIT':
        if (isPunct(next, '-')) return 'LIMIT takes no negative number';
        if (ends(next)) return 'LIMIT has no row count';
        return null;
      case 'SET':
        if (isWord(next, 'WHERE')) return 'SET assigns nothing';
        return null;
      default:
        if (
          WORD_OPERATORS.has(token.value) &&
          previous &&
          (ends(next) || isPunct(next, ')') || isPunct(next, ','))
        )
          return `${token.value} has no right operand`;
        return null;
    }
  }
  if (token.type !== 'punct') return null;
  if (token.value === ',') {
    if (ends(next) || isPunct(next, ',') || isPunct(next, ')') || isWord(next, 'FROM', 'WHERE'))
      return 'a list item is missing after the comma';
    return null;
  }
  if (token.value === '(' && isPunct(next, ',')) return 'a list item is missing after the parenthesis';
  if (COMPARISON.has(token.value)) {
    const operand =
      next && !(next.type === 'punct' && (next.value === '=' || next.value === '>' || next.value === '<'));
    if (
      operand &&
      (isPunct(next, ')') || isPunct(next, ',') || isWord(next, 'FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT'))
    )
      return `'${token.value}' has no right operand`;
    if (!next) return `'${token.value}' has no right operand`;
    return null;
  }
  if (token.value === '*' && isWord(previous, 'SELECT') && next && !ends(next)) {
    if (next.type === 'ident' || (next.type === 'word' && !SELECT_STAR_FOLLOWERS.has(next.value)))
      return `'*' cannot be followed by '${next.value}'`;
  }
  return null;
}

const SELECT_STAR_FOLLOWERS = new Set([
  'FROM',
  'INTO',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'LIMIT',
  'ORDER',
  'FOR',
  'LOCK',
  'WINDOW',
  'WHERE',
  'GROUP',
  'HAVING',
]);

/** Unbalanced parentheses, or a string, quoted name or comment that never ends. */
function lexicalProblem(sql: string): { offset: number; reason: string } | null {
  const open: number[] = [];
  for (let index = 0; index < sql.length; index++) {
    const code = sql.charCodeAt(index);
    if (code === 39 || code === 34 || code === 96) {
      const end = closing(sql, index, code);
      if (end === -1)
        return { offset: index, reason: `the ${code === 96 ? 'quoted name' : 'string'} is never closed` };
      index = end;
    } else if (
      code === 35 ||
      (code === 45 && sql.charCodeAt(index + 1) === 45 && /\s/.test(sql[index + 2] ?? ' '))
    ) {
      const end = sql.indexOf('\n', index);
      if (end === -1) break;
      index = end;
    } else if (code === 47 && sql.charCodeAt(index + 1) === 42) {
      const marker = sql.charCodeAt(index + 2);
      if (marker === 33 || marker === 43 || (marker === 77 && sql.charCodeAt(index + 3) === 33)) continue;
      const end = sql.indexOf('*/', index + 2);
      if (end === -1) return { offset: index, reason: 'the comment is never closed' };
      index = end + 1;
    } else if (code === 40) open.push(index);
    else if (code === 41) {
      if (open.pop() === undefined) return { offset: index, reason: "')' closes nothing" };
    }
  }
  const unclosed = open.pop();
  return unclosed === undefined ? null : { offset: unclosed, reason: "'(' is never closed" };
}

function closing(sql: string, index: number, quote: number): number {
  for (let cursor = index + 1; cursor < sql.length; cursor++) {
    const code = sql.charCodeAt(cursor);
    if (code === 92 && quote !== 96) cursor++;
    else if (code === quote) {
      if (sql.charCodeAt(cursor + 1) === quote) cursor++;
      else return cursor;
    }
  }
  return -1;
}
