// The fingerprint cache key never changes a fingerprint: fingerprint(key(q)) === fingerprint(q).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprintKey, plainKeyHash, sameKey } from '../../../src/core/fingerprint/index.js';
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

/** A start followed by 1-30 pieces. */
const sqlLike = fc
  .tuple(fc.constantFrom(...starts), fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 30 }))
  .map(([start, parts]) => start + parts.join(''));

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
      fc.property(sqlLike, (query) => {
        if (fingerprintKey(query) !== undefined) eligible++;
        expect(mismatches([query])).toEqual([]);
      }),
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

describe('plainKeyHash / sameKey (the digest’s allocation-free path for plain queries)', () => {
  const plainPieces = pieces.filter((piece) => !/['"\\#]|\/\*|--/.test(piece));
  const fold = (query: string): string => query.replace(/[0-9]+/g, '0');

  it('a plain query’s key is the query with digit runs shortened; anything else is refused', () => {
    let plain = 0;
    fc.assert(
      fc.property(sqlLike, (query) => {
        const hash = plainKeyHash(query);
        if (hash === -1) {
          // Refused: the query holds a quote, backslash or comment marker, or starts like
          // call/use/administrator (fingerprintKey's own path handles it).
          expect(/['"\\#]|\/\*|--/.test(query) || /^\s*(?:call|use|administrator)/i.test(query)).toBe(true);
          return;
        }
        plain++;
        expect(fingerprintKey(query)).toBe(fold(query));
        expect(fingerprint(query)).toBe(fingerprint(fold(query)));
      }),
      { numRuns: 20_000, seed: 11 },
    );
    expect(plain).toBeGreaterThan(1_000);
  });

  it('equal hashes and sameKey exactly when the folded keys are equal', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...plainPieces), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(...plainPieces), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (a, b, relabel) => {
          const x = `SELECT ${a.join('')}`;
          // Half the time, the same text with other digits: the keys must then be equal.
          const y = relabel
            ? x.replace(/[0-9]+/g, (run) => String(Number(run.slice(0, 6)) * 7 + 1))
            : `SELECT ${b.join('')}`;
          const same = fold(x) === fold(y);
          expect(sameKey(x, y)).toBe(same);
          expect(sameKey(y, x)).toBe(same);
          if (same) expect(plainKeyHash(x)).toBe(plainKeyHash(y));
        },
      ),
      { numRuns: 20_000, seed: 12 },
    );
    expect(sameKey('id=5012', 'id=7')).toBe(true);
    expect(sameKey('id=5012', 'id=7 ')).toBe(false);
    expect(sameKey('t1', 'tx')).toBe(false);
    expect(sameKey('', '')).toBe(true);
  });
});
