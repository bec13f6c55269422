// The tolerant re-parse: what the token scan recognises, where (original positions), and what the parser then sees.
import { describe, expect, it } from 'vitest';
import { spanOf } from '../../../src/core/sql/ast.js';
import { parseStatement } from '../../../src/core/sql/parse.js';
import { scanStatement, tokenize } from '../../../src/core/sql/tolerant.js';

/** The text of each recognised construct, taken from the ORIGINAL statement by its span. */
function marked(sql: string): Record<string, string[]> {
  const { facts } = scanStatement(sql);
  const at = (mark: { start: number; end: number }) => sql.slice(mark.start, mark.end);
  return {
    groupByOrder: facts.groupByOrder.map(at),
    ignore: facts.ignore ? [at(facts.ignore)] : [],
    modifiers: facts.modifiers.map(at),
    columnDefaults: facts.columnDefaults.map(
      (fact) => `${fact.column}=${fact.value ? (fact.value.string ?? fact.value.text) : 'DROP'}@${at(fact)}`,
    ),
    lockingReads: facts.lockingReads.map(
      (fact) => `${fact.strength}[${fact.of.join(',')}]${fact.option ?? ''}@${at(fact)}`,
    ),
    indexHints: facts.indexHints.map(
      (fact) => `${fact.hint}${fact.scope ? ` ${fact.scope}` : ''}[${fact.indexes.join(',')}]@${at(fact)}`,
    ),
  };
}

const none = {
  groupByOrder: [],
  ignore: [],
  modifiers: [],
  columnDefaults: [],
  lockingReads: [],
  indexHints: [],
};

describe('tolerant scan', () => {
  it.each([
    ['GROUP BY a DESC', 'SELECT a, COUNT(*) FROM t GROUP BY a DESC', { groupByOrder: ['DESC'] }],
    [
      'several items, nested, mixed case',
      'SELECT * FROM (SELECT a, b FROM t GROUP BY a asc, f(b) Desc WITH ROLLUP) d GROUP BY x',
      { groupByOrder: ['asc', 'Desc'] },
    ],
    [
      'keywords in strings, comments and quoted identifiers are not matched',
      "SELECT 'GROUP BY a DESC', `desc` FROM t /* GROUP BY b DESC */ GROUP BY `desc` -- GROUP BY c ASC\n",
      {},
    ],
    ['ORDER BY DESC is not GROUP BY', 'SELECT a FROM t GROUP BY a ORDER BY a DESC', {}],
    ['UPDATE IGNORE', "UPDATE IGNORE t SET a = 'IGNORE'", { ignore: ['IGNORE'] }],
    [
      'DELETE LOW_PRIORITY QUICK IGNORE',
      'DELETE LOW_PRIORITY QUICK IGNORE FROM t',
      { ignore: ['IGNORE'], modifiers: ['LOW_PRIORITY', 'QUICK'] },
    ],
    ['INSERT IGNORE is left to the parser', 'INSERT IGNORE INTO t VALUES (1)', {}],
    [
      'INSERT/REPLACE priority modifiers',
      'INSERT HIGH_PRIORITY IGNORE INTO t VALUES (1)',
      { modifiers: ['HIGH_PRIORITY'] },
    ],
    ['REPLACE DELAYED', 'REPLACE DELAYED t VALUES (1)', { modifiers: ['DELAYED'] }],
    [
      'index hints (percona-toolkit nibble queries, the MySQL manual)',
      'SELECT * FROM `db`.`t` FORCE INDEX(`PRIMARY`) JOIN t2 AS b USE KEY FOR ORDER BY (i1, i2) IGNORE INDEX () ON 1',
      {
        indexHints: [
          'FORCE[PRIMARY]@FORCE INDEX(`PRIMARY`)',
          'USE ORDER BY[i1,i2]@USE KEY FOR ORDER BY (i1, i2)',
          'IGNORE[]@IGNORE INDEX ()',
        ],
      },
    ],
    [
      'IGNORE of UPDATE is not a hint',
      'UPDATE IGNORE t USE INDEX (i) SET a = 1',
      { ignore: ['IGNORE'], indexHints: ['USE[i]@USE INDEX (i)'] },
    ],
    [
      'ALTER COLUMN SET/DROP DEFAULT',
      "ALTER TABLE db.t ADD c int, ALTER COLUMN d SET DEFAULT 'it''s', ALTER `e` DROP DEFAULT",
      { columnDefaults: ["d=it's@ALTER COLUMN d SET DEFAULT 'it''s'", 'e=DROP@ALTER `e` DROP DEFAULT'] },
    ],
    [
      'locking clauses are recorded',
      'SELECT * FROM t1 JOIN t2 FOR UPDATE OF t1, `t2` SKIP LOCKED',
      { lockingReads: ['update[t1,t2]SKIP LOCKED@FOR UPDATE OF t1, `t2` SKIP LOCKED'] },
    ],
    [
      'FOR SHARE NOWAIT',
      'SELECT * FROM t WHERE id = 1 FOR SHARE NOWAIT',
      { lockingReads: ['share[]NOWAIT@FOR SHARE NOWAIT'] },
    ],
  ])('%s', (_name, sql, expected) => {
    expect(marked(sql)).toEqual({ ...none, ...expected });
  });

  it('blanks constructs without moving anything: same length, same line breaks', () => {
    const sql = 'SELECT a,\n  COUNT(*)\nFROM t\nGROUP BY a DESC,\n  b ASC';
    const { text } = scanStatement(sql);
    expect(text).toBe('SELECT a,\n  COUNT(*)\nFROM t\nGROUP BY a     ,\n  b    ');
    expect(tokenize("a'b\\'c'`d``e`#x\n@@v").map((token) => [token.kind, token.text])).toEqual([
      ['word', 'a'],
      ['string', "'b\\'c'"],
      ['identifier', '`d``e`'],
      ['variable', '@@v'],
    ]);
  });
});

describe('parseStatement with the tolerant hook', () => {
  it.each(['mysql', 'mariadb'] as const)('%s: positions point into the original text', (flavor) => {
    const sql = 'SELECT a, b\nFROM t\nGROUP BY a DESC, b\nHAVING COUNT(*) > 1';
    const parsed = parseStatement(sql, flavor);
    if (!parsed.ok) throw new Error(parsed.message);
    const groupBy = (parsed.ast.groupby as { columns: unknown[] }).columns;
    expect(
      groupBy.map((node) => spanOf(node)).map((span) => span && sql.slice(span.start, span.end)),
    ).toEqual(['a', 'b']);
    expect(parsed.tolerated?.groupByOrder.map((mark) => sql.slice(mark.start, mark.end))).toEqual(['DESC']);
  });

  it('MariaDB: UPDATE IGNORE is not read as a table named IGNORE', () => {
    const parsed = parseStatement('UPDATE IGNORE t SET a = 1', 'mariadb');
    expect(parsed.ok && parsed.ast.table).toMatchObject([{ db: null, table: 't', as: null }]);
    expect(parsed.ok && parsed.tolerated?.ignore).toEqual({ text: 'IGNORE', start: 7, end: 13 });
  });

  it('an ALTER TABLE whose only clauses are ALTER COLUMN … DEFAULT still parses', () => {
    const parsed = parseStatement('ALTER TABLE t ALTER COLUMN c SET DEFAULT 1', 'mysql');
    expect(parsed.ok && parsed.ast).toEqual({ type: 'alter', table: [{ db: null, table: 't' }], expr: [] });
  });

  it('keeps the original error when the rest does not parse; FOR SHARE comes back as a tolerated locking read', () => {
    expect(parseStatement('SELECT a FROM t GROUP BY a DESC WHERE', 'mysql')).toMatchObject({ ok: false });
    expect(parseStatement('SELECT a FROM t FOR SHARE WHERE', 'mysql')).toMatchObject({ ok: false });
    const shared = parseStatement('SELECT a FROM t FOR SHARE', 'mysql');
    expect(shared.ok && shared.tolerated?.lockingReads).toEqual([
      expect.objectContaining({ text: 'FOR SHARE', strength: 'share', of: [], option: null, start: 16 }),
    ]);
  });
});

describe('index hints are read around, not lost', () => {
  it.each(['mysql', 'mariadb'] as const)(
    '%s: the query parses with its tables, conditions and positions',
    (flavor) => {
      const sql =
        'SELECT * FROM t1 AS a FORCE INDEX (i1)\n  JOIN t2 USE INDEX FOR JOIN (i2) ON a.x = t2.x\nWHERE a.y = 1';
      const parsed = parseStatement(sql, flavor);
      if (!parsed.ok) throw new Error(parsed.message);
      expect((parsed.ast.from as { table: string }[]).map((entry) => entry.table)).toEqual(['t1', 't2']);
      expect(parsed.tolerated?.indexHints.map((hint) => [hint.hint, hint.scope, hint.indexes])).toEqual([
        ['FORCE', null, ['i1']],
        ['USE', 'JOIN', ['i2']],
      ]);
      const where = spanOf(parsed.ast.where);
      expect(where && sql.slice(where.start, where.end).trim()).toBe('a.y = 1');
    },
  );
});
