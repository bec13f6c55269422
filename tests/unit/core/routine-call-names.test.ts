// The names the Plan panel's confirmation shows before EXPLAIN may run a statement's routines.
import { describe, expect, it } from 'vitest';
import { lexSql } from '../../../src/core/sql/lexer.js';
import { routineCallNames } from '../../../src/core/sql/side-effects.js';

function names(sql: string, flavor: 'mysql' | 'mariadb' = 'mysql'): string[] {
  const lexed = lexSql(sql, { flavor, version: null, ansiQuotes: false, noBackslashEscapes: false });
  if (!lexed.ok) throw new Error(lexed.error);
  return routineCallNames(sql, lexed.tokens);
}

describe('routineCallNames', () => {
  it('names every call that may be a stored or loadable function, as written, once', () => {
    expect(
      names(
        'SELECT * FROM t WHERE id = lowdb.evil() AND a = f(1) AND b = `app`.`g`(2) AND c = f(3) AND d = `trim`(x)',
      ),
    ).toEqual(['lowdb.evil', 'f', '`app`.`g`', '`trim`']);
  });

  it('leaves out built-ins that are free of side effects and keywords before a parenthesis', () => {
    expect(names('SELECT COUNT(*), MOD(a, 3) FROM t WHERE a IN (1, 2) AND EXISTS (SELECT 1)')).toEqual([]);
  });

  it('names a built-in written with a space before the parenthesis (the server may resolve a stored one)', () => {
    expect(names('SELECT count (a) FROM t')).toEqual(['count']);
  });

  it('leaves out side-effect built-ins: those are refused, never allowed', () => {
    expect(names('SELECT SLEEP(1), f(2)')).toEqual(['f']);
  });

  it('sees calls inside executable comments', () => {
    expect(names('SELECT /*! secret_fn(1) */ 1', 'mysql')).toEqual(['secret_fn']);
  });
});
