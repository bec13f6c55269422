// The functional-key-part validator (seed AT-3) and the literal helpers rewrites depend on.
import { describe, expect, it } from 'vitest';
import { checkFunctionalKeyParts, type IndexSpec } from '../../../src/core/advice/index.js';
import { likePrefixPattern, literalOf, nextDay, parseDate } from '../../../src/core/advice/literals.js';

describe('checkFunctionalKeyParts', () => {
  const cases: [string, IndexSpec, number][] = [
    ['expression part', { kind: 'index', parts: [{ expression: 'MONTH(create_time)' }] }, 0],
    [
      'expression plus column',
      { kind: 'index', parts: [{ expression: 'col1 + col2' }, { column: 'col4' }] },
      0,
    ],
    [
      'bare column in parentheses',
      { kind: 'index', parts: [{ expression: 'col1' }, { expression: 'col2' }] },
      2,
    ],
    ['primary key', { kind: 'primary', parts: [{ expression: 'MONTH(c)' }] }, 1],
    ['foreign key', { kind: 'foreign', parts: [{ expression: 'MONTH(c)' }] }, 1],
    ['fulltext', { kind: 'fulltext', parts: [{ expression: 'LOWER(c)' }] }, 1],
    ['spatial', { kind: 'spatial', parts: [{ expression: 'LOWER(c)' }] }, 1],
    ['prefix', { kind: 'index', parts: [{ expression: 'LOWER(c)', prefixLength: 10 }] }, 1],
    ['NOW()', { kind: 'index', parts: [{ expression: 'DATEDIFF(NOW(), c)' }] }, 1],
    ['RAND()', { kind: 'index', parts: [{ expression: 'c + RAND()' }] }, 1],
    ['UUID()', { kind: 'index', parts: [{ expression: 'CONCAT(c, UUID())' }] }, 1],
    ['CURRENT_USER()', { kind: 'index', parts: [{ expression: 'CONCAT(c, CURRENT_USER())' }] }, 1],
    ['JSON without CAST', { kind: 'index', parts: [{ expression: "doc->>'$.a'" }] }, 1],
    [
      'JSON with CAST … COLLATE',
      { kind: 'index', parts: [{ expression: "CAST(doc->>'$.a' AS CHAR(30)) COLLATE utf8mb4_bin" }] },
      0,
    ],
  ];
  it.each(cases)('%s', (_name, spec, problems) => {
    expect(checkFunctionalKeyParts(spec)).toHaveLength(problems);
  });
});

describe('literals', () => {
  it('escapes LIKE wildcards and backslashes, and decodes strings', () => {
    expect({
      plain: likePrefixPattern('abc'),
      wild: likePrefixPattern('a_c%'),
      backslash: likePrefixPattern('a\\b'),
      quote: likePrefixPattern("it's"),
      noBackslashEscapes: likePrefixPattern('a_c', false),
      decoded: literalOf({ type: 'single_quote_string', value: "it''s" }),
      ambiguous: literalOf({ type: 'single_quote_string', value: 'a\\nb' }),
      nextDay: [
        nextDay({ year: 2019, month: 2, day: 28 }),
        nextDay({ year: 2020, month: 2, day: 28 }),
        nextDay({ year: 2019, month: 12, day: 31 }),
      ],
      invalidDate: parseDate('2019-02-30'),
    }).toEqual({
      plain: 'abc%',
      wild: 'a\\\\_c\\\\%%',
      backslash: 'a\\\\\\\\b%',
      quote: "it''s%",
      noBackslashEscapes: 'a\\_c%',
      decoded: { kind: 'string', value: "it's" },
      ambiguous: undefined,
      nextDay: ['2019-03-01', '2020-02-29', '2020-01-01'],
      invalidDate: undefined,
    });
  });
});
