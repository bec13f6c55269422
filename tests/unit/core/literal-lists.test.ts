// Long literal IN lists: the blanked-and-rebuilt parse is identical to a full parse, positions included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elideLiteralLists, MIN_ELIDED_ITEMS } from '../../../src/core/sql/literal-lists.js';
import { expectSameAsFullParse, fullParse, parsed } from '../../support/full-parse.js';

const plain = fc.oneof(
  fc.integer({ min: 0, max: 10 ** 9 }).map(String),
  fc.constantFrom('0', "''", "'it''s'"),
  fc.stringMatching(/^[a-z0-9 ]{0,8}$/).map((text) => `'${text}'`),
);
const literal = fc.oneof(
  plain,
  fc.constantFrom('007', '-3', '1.50', '1e3', '0x1F', 'NULL', 'TRUE', '999999999999999999'),
  fc.constantFrom("'a\\'b'", "'back\\\\slash'", '"dq"', "_utf8mb4'x'"),
);
const separator = fc.constantFrom(', ', ',', ' ,\n  ', ', /* c */ ', ',\n');
// Half the lists are long and plain (the blanked path), half anything (mostly parsed as written).
const list = fc
  .tuple(
    fc.oneof(
      fc.array(plain, { minLength: MIN_ELIDED_ITEMS, maxLength: 20 }),
      fc.array(literal, { minLength: 1, maxLength: 14 }),
    ),
    separator,
  )
  .map(([items, sep]) => items.join(sep));
const statement = fc
  .tuple(list, list, fc.constantFrom('IN', 'NOT IN', 'in'), fc.boolean())
  .map(
    ([first, second, keyword, nested]) =>
      `SELECT id, name FROM t\nWHERE a ${keyword} (${first})\n  AND b = 1 AND c ${keyword}(${second})` +
      (nested ? ` AND id IN (SELECT id FROM u WHERE d IN (${first}))` : ''),
  );

describe('literal IN lists', () => {
  it('blanks the tail of long plain lists only, keeping every offset and line', () => {
    const items = Array.from({ length: MIN_ELIDED_ITEMS }, (_, index) => String(index + 1));
    const sql = `SELECT * FROM t WHERE a IN (${items.join(',\n ')}) AND s NOT IN ('x', 'y') AND b IN (1, -2, 3, 4, 5, 6, 7, 8)`;
    const elision = elideLiteralLists(sql);
    expect(elision?.text.length).toBe(sql.length);
    expect(elision?.text.split('\n').length).toBe(sql.split('\n').length);
    expect(elision?.lists.map((entry) => entry.items.length)).toEqual([MIN_ELIDED_ITEMS]);
    expect(elision?.text).toContain('AND b IN (1, -2, 3'); // a signed item keeps the list as written
    expect(elideLiteralLists('SELECT * FROM t WHERE a IN (1, 2)')).toBeUndefined();
  });

  it('the parse equals a full parse for any list (property, 150 statements)', () => {
    let blanked = 0;
    fc.assert(
      fc.property(statement, (sql) => {
        if (elideLiteralLists(sql)) blanked++;
        expectSameAsFullParse(sql);
      }),
      { numRuns: 150 },
    );
    expect(blanked).toBeGreaterThan(50);
  }, 120_000);

  it('is several times faster on a query padded with long lists', () => {
    const lists = Array.from(
      { length: 10 },
      (_, k) => `AND q${k} IN (${Array.from({ length: 30 }, (_, j) => j + k).join(', ')})`,
    );
    const sql = `SELECT id FROM t WHERE a = 1 ${lists.join(' ')}`;
    expect(parsed(sql)).toEqual(fullParse(sql));
    // Best of 5 runs each, so a busy machine does not decide the comparison.
    const best = (fn: () => unknown): number => {
      let fastest = Infinity;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        fn();
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    expect(best(() => parsed(sql))).toBeLessThan(best(() => fullParse(sql)) / 2);
  });
});
