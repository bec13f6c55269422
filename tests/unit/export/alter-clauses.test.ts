// ALTER TABLE clause parsing: name/sql/expected table in tests/fixtures/export/alter/clauses.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalExpression, parseAlterTable } from '../../../src/core/export/alter-clauses.js';
import type { Flavor } from '../../../src/core/flavors/capabilities.js';

const cases = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../fixtures/export/alter/clauses.json'), 'utf8'),
) as { name: string; flavor: Flavor; sql: string; expected: unknown }[];

describe('parseAlterTable', () => {
  it.each(cases.map((test) => [test.name, test] as const))('%s', (_name, test) => {
    expect(parseAlterTable(test.sql, test.flavor)).toEqual(test.expected);
  });

  it('canonical expressions ignore backticks, case, spaces and outer parentheses only', () => {
    expect(
      ['((MONTH(`create_time`)))', 'month( create_time )', '(a) + (b)', '(a + b)'].map(canonicalExpression),
    ).toEqual(['month(create_time)', 'month(create_time)', '(a)+(b)', 'a+b']);
  });

  it("folds the servers' stored spellings: DATE(x) = cast(x as date), LOWER = lcase, charset introducers", () => {
    // Stored forms as information_schema returns them (MySQL 8.0.33 / MariaDB 10.11, GENERATION_EXPRESSION).
    const pairs: [string, string][] = [
      ['DATE(create_time)', 'cast(`create_time` as date)'],
      ['LOWER(code)', 'lcase(`code`)'],
      ['UPPER(code)', 'ucase(`code`)'],
      ["CONCAT(a, 'x')", "concat(`a`,_utf8mb4'x')"],
      ['DATE(DATE(a))', 'cast(cast(`a` as date) as date)'],
    ];
    for (const [written, stored] of pairs)
      expect(canonicalExpression(written)).toBe(canonicalExpression(stored));
    // Not folded: other functions that merely end in "date", and different expressions.
    expect(canonicalExpression('to_date(a)')).toBe('to_date(a)');
    expect(canonicalExpression('current_date()')).toBe('current_date()');
    expect(canonicalExpression('DATE(a)')).not.toBe(canonicalExpression('cast(a as datetime)'));
    expect(canonicalExpression('LOWER(a)')).not.toBe(canonicalExpression('ucase(a)'));
  });
});
