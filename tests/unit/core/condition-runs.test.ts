// Runs of plain comparisons: the placeholder-and-rebuilt parse is identical to a full parse, positions included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elideConditionRuns } from '../../../src/core/sql/condition-runs.js';
import { parseStatement } from '../../../src/core/sql/parse.js';
import { expectSameAsFullParse, fullParse, grammarParse, parsed } from '../../support/full-parse.js';

const space = fc.constantFrom(' ', ' ', ' ', '  ', '\n  ', '\n', ' /* c */ ', '\t');
const name = fc.constantFrom(
  'a',
  'qty',
  'status',
  'name',
  'created_at',
  '`code`',
  '_id',
  'date',
  'user',
  'x1',
);
const table = fc.constantFrom('', '', 't.', 'a3.', '`u`.', 'a3 .');
const column = fc.tuple(table, name).map(([t, n]) => `${t}${n}`);
const literal = fc.oneof(
  fc.integer({ min: 0, max: 10 ** 9 }).map(String),
  fc.constantFrom("''", "'it''s'", "'2020-01-06'", "'n5%'", '0'),
  fc.constantFrom('007', '-3', '1.50', '1e3', '0x1F', 'NULL', 'TRUE', "'a\\'b'", '"dq"', "_utf8mb4'x'", '?'),
);
const wrappedColumn = fc
  .tuple(
    fc.constantFrom(
      'MONTH',
      'year',
      'DATE',
      'LOWER',
      'upper',
      'DAYOFWEEK',
      'ABS',
      'CHAR_LENGTH',
      'COALESCE',
      'COUNT',
      'LEFT',
      'TRIM',
      'DATE ',
    ),
    column,
    fc.constantFrom('', '', '', ' ', ', 0', ', 3'),
  )
  .map(([fn, c, tail]) => `${fn}(${c}${tail})`);
const operator = fc.constantFrom('=', '<>', '!=', '<', '<=', '>', '>=', '<=>', '= =');
const simple = fc.oneof(
  fc.tuple(column, space, operator, space, fc.oneof(literal, column)).map((parts) => parts.join('')),
  fc.tuple(column, fc.constantFrom(' LIKE ', ' like ', ' NOT LIKE '), literal).map((parts) => parts.join('')),
  fc.tuple(wrappedColumn, space, operator, space, literal).map((parts) => parts.join('')),
  fc
    .tuple(
      fc.oneof(column, wrappedColumn),
      fc.constantFrom(' BETWEEN ', ' between ', ' NOT BETWEEN '),
      literal,
      literal,
    )
    .map(([c, keyword, low, high]) => `${c}${keyword}${low} AND ${high}`),
  fc
    .tuple(column, fc.constantFrom(' IS NULL', ' is not null', ' IS NOT NULL'))
    .map((parts) => parts.join('')),
  fc
    .tuple(
      column,
      fc.constantFrom(' IN ', ' in', ' NOT IN '),
      fc.array(literal, { minLength: 1, maxLength: 12 }),
    )
    .map(([c, keyword, items]) => `${c}${keyword}(${items.join(', ')})`),
  fc
    .tuple(column, fc.constantFrom(" LIKE 'x!%' ESCAPE '!'", " = 'a' COLLATE utf8mb4_bin", ' = 1 + 2'))
    .map((p) => p.join('')),
);
const complex = fc.constantFrom(
  'MONTH(created_at) = 10',
  'a.qty + 1 = 5',
  'x BETWEEN 1 AND 2',
  'code IN (1, 2, 3)',
  "code IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) AND s IN ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')",
  "LOWER(name) = 'x'",
  'EXISTS (SELECT 1 FROM u WHERE u.id = t.id AND u.s = 1)',
  'NOT a = 1',
  'a.id IN (SELECT id FROM u WHERE k = 2 AND j = 3)',
);
const element = fc.letrec<{ element: string; group: string }>((tie) => ({
  element: fc.oneof(
    { weight: 5, arbitrary: simple },
    { weight: 2, arbitrary: complex },
    { weight: 1, arbitrary: tie('group') },
  ),
  group: fc
    .tuple(
      fc.array(tie('element'), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(' AND ', ' OR ', ' and '),
    )
    .map(([items, joiner]) => `(${items.join(joiner)})`),
})).element;
const condition = fc
  .tuple(
    fc.array(element, { minLength: 1, maxLength: 7 }),
    fc.array(fc.constantFrom(' AND ', ' OR ', '\n  AND '), { minLength: 7, maxLength: 7 }),
  )
  .map(([items, joiners]) =>
    items.map((item, index) => (index === 0 ? item : `${joiners[index - 1]}${item}`)).join(''),
  );
/** Join keywords as people write them (NATURAL JOIN has no ON: never read as a run). */
const joinKeywords = [
  'JOIN',
  'join',
  'INNER JOIN',
  'LEFT JOIN',
  'left outer join',
  'RIGHT JOIN',
  'CROSS JOIN',
  'STRAIGHT_JOIN',
];
const join = fc
  .tuple(
    fc.constantFrom(...joinKeywords, 'LEFT OUTER JOIN', 'NATURAL JOIN'),
    fc.constantFrom('u', 'u', '`v`', 'w2', 'db.x', 'status', '(SELECT 1 AS id)'),
    fc.constantFrom('', ' a1', ' a1', ' AS a2', ' `q`', ' AS'),
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .array(fc.oneof(simple, simple, simple, fc.constantFrom('(a = 1 OR b IS NULL)')), {
            minLength: 1,
            maxLength: 3,
          })
          .map((items) => ` ON ${items.join(' AND ')}`),
      },
      { weight: 2, arbitrary: condition.map((on) => ` ON ${on}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(' USING (id)', ' ON a = 1 /* c */', ' FORCE INDEX (i) ON a = 1'),
      },
    ),
    space,
  )
  .map(([keyword, table, alias, on, gap]) => `${keyword} ${table}${alias}${on}${gap}`);
const statement = fc
  .tuple(
    condition,
    fc.array(join, { minLength: 0, maxLength: 5 }),
    condition,
    fc.constantFrom('', ' GROUP BY a HAVING ', ' ORDER BY a', '\nLIMIT 5', ';'),
    fc.constantFrom('', ', t9 ', ' '),
  )
  .map(([where, joins, having, tail, comma]) =>
    tail === ' GROUP BY a HAVING '
      ? `SELECT a, COUNT(*) FROM t ${joins.join(' ')}${comma}WHERE ${where}${tail}${having}`
      : `SELECT t.a, u.b FROM t t0 ${joins.join(' ')}${comma}LEFT JOIN v ON v.id = u.id AND v.k = 1 WHERE ${where}${tail}`,
  );

// Joins whose ON conditions the reader takes whole: most sequences become one `JOIN \`zN\``.
const plainValue = fc.oneof(
  fc.integer({ min: 0, max: 99999 }).map(String),
  fc.constantFrom("'x'", "'2020-01-01'", 'b.id'),
);
const plainCondition = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(column, fc.constantFrom(' = ', '=', ' <> ', ' >= ', ' < '), plainValue)
      .map((parts) => parts.join('')),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(wrappedColumn, fc.constantFrom(' = ', ' > '), plainValue).map((p) => p.join('')),
  },
  { weight: 1, arbitrary: column.map((c) => `${c} IS NOT NULL`) },
  { weight: 1, arbitrary: column.map((c) => `${c} IN (1, 2, 3)`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('(a = 1 OR b IS NULL)', 'x BETWEEN 1 AND 5', 'MONTH(t.d) + 1 = 2'),
  },
);
const plainJoin = fc
  .tuple(
    fc.constantFrom(...joinKeywords),
    fc.constantFrom('u', '`v`', 'w2', 'status', 'u', 'db.x'),
    fc.constantFrom('', ' a1', ' AS a2', ' `q`'),
    fc.array(plainCondition, { minLength: 1, maxLength: 2 }),
    space,
  )
  .map(([keyword, table, alias, on, gap]) => `${keyword} ${table}${alias} ON ${on.join(' AND ')}${gap}`);
const joinStatement = fc
  .tuple(
    fc.array(plainJoin, { minLength: 2, maxLength: 6 }),
    fc.array(plainCondition, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('', ', t9 ', ' JOIN (SELECT 1 AS id) d ON d.id = t.id '),
  )
  .map(([joins, where, more]) => `SELECT t.a FROM t ${joins.join(' ')}${more} WHERE ${where.join(' AND ')}`);

describe('condition runs', () => {
  it('replaces runs with one placeholder each; the parse keeps every offset, line and column', () => {
    const sql =
      "SELECT * FROM t JOIN u ON u.a = t.b AND u.c = 1\nWHERE COALESCE(t.d, 0) = 1 AND MONTH(t.e) = 2\n  AND (t.f > 2 OR t.g IS NULL) AND LEFT(t.h, 2) = 'y'";
    const elision = elideConditionRuns(sql);
    expect(elision?.runs.map((run) => run.elements.length)).toEqual([2, 2]);
    expect(elision?.text).toBe(
      "SELECT * FROM t JOIN u ON `z0`\nWHERE COALESCE(t.d, 0) = 1 AND `z1` AND LEFT(t.h, 2) = 'y'",
    );
    expect(parsed(sql)).toEqual(fullParse(sql));
    // Right after OR, inside function arguments: left to the grammar. BETWEEN's AND is not a chain's.
    expect(elideConditionRuns('SELECT 1 FROM t WHERE x = 0 OR a = 1 AND b = 2')?.text).toBe(
      'SELECT 1 FROM t WHERE `z0` OR a = 1 AND `z1`',
    );
    expect(elideConditionRuns('SELECT IF(a = 1 AND b = 2, 1, 0) FROM t')).toBeUndefined();
    expect(
      elideConditionRuns('SELECT 1 FROM t WHERE x BETWEEN 1 AND 2 AND b = 2')?.runs[0]?.elements.length,
    ).toBe(2);
  });

  it('the parse equals a full parse for any mix of conditions (property, 400 statements)', () => {
    let replaced = 0;
    fc.assert(
      fc.property(statement, (sql) => {
        if (elideConditionRuns(sql)) replaced++;
        expectSameAsFullParse(sql);
      }),
      { numRuns: 400 },
    );
    expect(replaced).toBeGreaterThan(100);
  }, 180_000);

  it('the parse equals a full parse for runs of joins (property, 200 statements)', () => {
    let joined = 0;
    fc.assert(
      fc.property(joinStatement, (sql) => {
        if (elideConditionRuns(sql)?.runs.some((run) => run.joins)) joined++;
        expectSameAsFullParse(sql);
      }),
      { numRuns: 200 },
    );
    expect(joined).toBeGreaterThan(15);
  }, 120_000);

  it('is several times faster on a WHERE clause of plain comparisons', () => {
    const conditions = Array.from({ length: 60 }, (_, k) =>
      k % 3 === 0 ? `(a${k}.price > ${k} OR a${k}.status = 2)` : `a${k}.name LIKE 'n${k}%'`,
    );
    const sql = `SELECT id FROM t WHERE MONTH(d) = 1 AND ${conditions.join('\n  AND ')}`;
    expect(parsed(sql)).toEqual(fullParse(sql));
    // Best of 7 runs each after a warm-up, so a busy machine does not decide the comparison.
    const best = (fn: () => unknown): number => {
      for (let i = 0; i < 3; i++) fn();
      let fastest = Infinity;
      for (let i = 0; i < 7; i++) {
        const start = performance.now();
        fn();
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    expect(best(() => parseStatement(sql, 'mysql'))).toBeLessThan(best(() => grammarParse(sql)) / 2);
  });
});
