// The token-level locking-clause scanner: what counts as a trailing clause, and what never does.
import { describe, expect, it } from 'vitest';
import { containsLockingClause, findTrailingLocking } from '../../../src/core/locks/locking-clause.js';

const summary = (sql: string) => {
  const found = findTrailingLocking(sql);
  return found && { query: found.query, clauses: found.clauses.map((clause) => clause.text) };
};

describe('findTrailingLocking', () => {
  it.each([
    ['SELECT 1 FROM t FOR SHARE', { query: 'SELECT 1 FROM t', clauses: ['FOR SHARE'] }],
    [
      'select 1 from t for update of `t`, db.u skip   locked ;',
      { query: 'select 1 from t', clauses: ['FOR UPDATE OF `t`, db.u SKIP LOCKED'] },
    ],
    [
      'SELECT 1 FROM a, b FOR UPDATE OF a NOWAIT FOR SHARE OF b',
      { query: 'SELECT 1 FROM a, b', clauses: ['FOR UPDATE OF a NOWAIT', 'FOR SHARE OF b'] },
    ],
    [
      'SELECT 1 FROM t LOCK IN SHARE MODE WAIT 3 -- note',
      { query: 'SELECT 1 FROM t', clauses: ['LOCK IN SHARE MODE WAIT 3'] },
    ],
    ["SELECT 'FOR SHARE' FROM t", null],
    ['SELECT `FOR SHARE` FROM t', null],
    ['SELECT 1 FROM t /* FOR SHARE */', null],
    ['SELECT 1 FROM t # FOR SHARE', null],
    ['SELECT 1 FROM t WHERE id IN (SELECT id FROM u FOR SHARE)', null],
    ['SELECT 1 FROM t FOR UPDATE LIMIT 1', null],
    ['SELECT 1 FROM t FOR SHARE OF', null],
    [
      "SELECT 'it''s \\' FOR SHARE' FROM t FOR SHARE",
      { query: "SELECT 'it''s \\' FOR SHARE' FROM t", clauses: ['FOR SHARE'] },
    ],
  ])('%s', (sql, expected) => {
    expect(summary(sql)).toEqual(expected);
  });
});

describe('containsLockingClause', () => {
  it('finds clauses at any depth but never in strings, identifiers or comments', () => {
    expect(
      [
        'SELECT 1 FROM t WHERE id IN (SELECT id FROM u LOCK IN SHARE MODE)',
        "SELECT 'FOR UPDATE', `for share` FROM t -- FOR UPDATE",
      ].map(containsLockingClause),
    ).toEqual([true, false]);
  });
});
