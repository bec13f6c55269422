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
});
