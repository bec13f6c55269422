// The fingerprint cache key never changes a fingerprint: fingerprint(key(q)) === fingerprint(q).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprintKey } from '../../../src/core/fingerprint/index.js';
import { parseSlowLog } from '../../../src/core/slowlog/index.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));

/** Queries whose key differs in fingerprint from the query itself (should be none). */
function mismatches(queries: Iterable<string>): { query: string; key: string }[] {
  const out: { query: string; key: string }[] = [];
  for (const query of queries) {
    const key = fingerprintKey(query);
    if (key !== undefined && fingerprint(key) !== fingerprint(query)) out.push({ query, key });
  }
  return out;
}

// Pieces that exercise every rule: quotes, escapes, comments, numbers in and around
// identifiers, IN/VALUES lists, multi-row inserts, unions, LIMIT, ORDER BY … ASC, call/use.
const pieces = [
  'SELECT ',
  'select ',
  'INSERT INTO t ',
  'insert ignore into t',
  'REPLACE INTO t ',
  'VALUES ',
  'values',
  '(',
  ')',
  ',',
  ', ',
  '),(',
  "'",
  "''",
  '"',
  '\\',
  "\\'",
  '/*',
  '*/',
  '/*!',
  '--',
  '#',
  '\n',
  '\r',
  '\t',
  ' ',
  '  ',
  '1',
  '12',
  '007',
  '0x1F',
  '1e5',
  '-3',
  '+4',
  '.5',
  'abc',
  'db1',
  't2e',
  'x',
  'b',
  'IN ',
  'in(',
  'null',
  'NULL',
  'true',
  'false',
  'UNION ',
  'union all ',
  'LIMIT ',
  'limit 5, 10',
  ' OFFSET ',
  'ORDER BY ',
  ' ASC',
  'asc',
  'call ',
  'use ',
  'administrator command: ',
  'FROM ',
  'WHERE ',
  '=',
  ';',
  'é',
  '\u00ff',
];

// How queries start matters to the shortcuts, the multi-row INSERT cut and `use`.
const starts = [
  '',
  ' ',
  'SELECT * FROM t WHERE a IN ',
  'INSERT INTO t VALUES ',
  "INSERT INTO t (a, b) VALUES ('x', 1),",
  "REPLACE INTO t SELECT '",
  'insert into t(a) values(',
  'call p(',
  'use ',
  'administrator command: ',
];

describe('fingerprintKey', () => {
  it('keeps the fingerprint of the 51 vectors', () => {
    const vectors = readFileSync(`${fixtures}fingerprint-vectors.jsonl`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { query: string }).query);
    expect(mismatches(vectors)).toEqual([]);
  });

  it('keeps the fingerprint of every query in the pt-query-digest corpus', () => {
    const queries: string[] = [];
    for (const name of readdirSync(`${fixtures}percona`).filter((n) => n !== 'README.md')) {
      const text = readFileSync(`${fixtures}percona/${name}`).toString('latin1');
      for (const event of parseSlowLog(text).events) queries.push(event.query);
    }
    expect(queries.length).toBeGreaterThan(500);
    expect(mismatches(queries)).toEqual([]);
  });

  it('keeps the fingerprint of random SQL-like text', () => {
    let eligible = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...starts),
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 30 }),
        (start, parts) => {
          const query = start + parts.join('');
          if (fingerprintKey(query) !== undefined) eligible++;
          expect(mismatches([query])).toEqual([]);
        },
      ),
      { numRuns: 30_000, seed: 7 },
    );
    // The property must exercise the cached path, not only the ineligible one.
    expect(eligible).toBeGreaterThan(2_000);
  });

  it('shares one key between queries that differ only in literals', () => {
    expect(
      new Set([
        fingerprintKey("SELECT c FROM sbtest1 WHERE id=17 AND k='abc'"),
        fingerprintKey("SELECT c FROM sbtest3 WHERE id=92113 AND k=''"),
        fingerprintKey("SELECT c FROM sbtest1 /* x */WHERE id=5 AND k='x y z'"),
      ]).size,
    ).toBe(1);
  });
});
