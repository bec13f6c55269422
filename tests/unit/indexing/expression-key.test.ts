// expressionKey (core/indexing/expression-key.ts): our spelling of an index expression and the servers'
// stored one (texts copied from information_schema on MySQL 8.0.33 and MariaDB 10.11, see
// tests/integration/index-expression-match.test.ts) get one key; different expressions do not.
import { describe, expect, it } from 'vitest';
import { expressionKey } from '../../../src/core/indexing/expression-key.js';

describe('expressionKey', () => {
  it.each([
    ['DATE(d)', 'cast(`d` as date)'],
    ['LOWER(s)', 'lcase(`s`)'],
    ['UPPER(TRIM(s))', 'ucase(trim(`s`))'],
    ['SUBSTRING(s, 1, 3)', 'substr(`s`,1,3)'],
    ['n * 2 + 3', '((`n` * 2) + 3)'],
    ['n + 1', '`n` + 1'],
    ["j->>'$.name'", "json_unquote(json_extract(`j`,_utf8mb4\\'$.name\\'))"],
    ["JSON_UNQUOTE(JSON_EXTRACT(j, '$.name'))", "json_unquote(json_extract(`j`,'$.name'))"],
    ['MONTH(create_time)', 'month(`create_time`)'],
    ['`t`.`d` + 0', 'd + 0'],
  ])('%s matches the stored %s', (ours, stored) => {
    expect(expressionKey(stored)).toBe(expressionKey(ours));
  });

  it.each([
    ['(n + 1) * 2', 'n + 1 * 2'],
    ['MONTH(d)', 'YEAR(d)'],
    ['LOWER(s)', 'UPPER(s)'],
    ["j->>'$.a'", "j->'$.a'"],
    ['SUBSTR(s, 1, 3)', 'SUBSTR(s, 1, 4)'],
  ])('%s differs from %s', (a, b) => {
    expect(expressionKey(a)).not.toBe(expressionKey(b));
  });
});
