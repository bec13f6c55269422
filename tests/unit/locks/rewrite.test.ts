// Locking-read rewrites (fixtures/locks/rewrites.yml), SKIP LOCKED caveats, batching and scan warnings.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { capabilitiesFor, type Flavor } from '../../../src/core/flavors/capabilities.js';
import { adviseBatching } from '../../../src/core/locks/batching.js';
import { assessLockFootprint } from '../../../src/core/locks/footprint.js';
import { rewriteLockingRead } from '../../../src/core/locks/rewrite.js';

interface Case {
  sql: string;
  server: { flavor: Flavor; version: string };
  status: string;
  rewrites: Record<string, string>;
  unavailable: string[];
}
const cases = parse(
  fs.readFileSync(path.join(import.meta.dirname, '../../fixtures/locks/rewrites.yml'), 'utf8'),
) as Record<string, Case>;
const target = (flavor: Flavor, version: string) => ({
  flavor,
  capabilities: capabilitiesFor(flavor, String(version)),
});
const mysql8 = target('mysql', '8.0.33');

describe('rewriteLockingRead', () => {
  it.each(Object.entries(cases))('%s', (_name, testCase) => {
    const result = rewriteLockingRead(
      testCase.sql,
      target(testCase.server.flavor, String(testCase.server.version)),
    );
    expect({
      status: result.status,
      rewrites: Object.fromEntries(result.rewrites.map((rewrite) => [rewrite.kind, rewrite.sql])),
      unavailable: result.unavailable.map((entry) => entry.kind),
    }).toEqual({ status: testCase.status, rewrites: testCase.rewrites, unavailable: testCase.unavailable });
  });

  it('names the error code per flavor and carries the SKIP LOCKED caveats', () => {
    const onMysql = rewriteLockingRead('SELECT * FROM product WHERE p_id = 3 FOR UPDATE', mysql8).rewrites;
    const onMariadb = rewriteLockingRead(
      'SELECT * FROM product WHERE p_id = 3 FOR UPDATE',
      target('mariadb', '10.11.19'),
    ).rewrites;
    const skip = onMysql.find((rewrite) => rewrite.kind === 'skip-locked');
    expect({
      mysqlNowait: onMysql.find((rewrite) => rewrite.kind === 'nowait')?.errorCode,
      mariadbNowait: onMariadb.find((rewrite) => rewrite.kind === 'nowait')?.errorCode,
      snippetHandles3572: onMysql
        .find((rewrite) => rewrite.kind === 'nowait')
        ?.snippet.includes('err.errno === 3572'),
      caveats: ['non-deterministic', 'totals', 'statement-based'].map((word) =>
        skip?.notes.some((note) => note.includes(word)),
      ),
    }).toEqual({
      mysqlNowait: 3572,
      mariadbNowait: 1205,
      snippetHandles3572: true,
      caveats: [true, true, true],
    });
  });

  it('does not recommend SKIP LOCKED for an aggregate', () => {
    const rewrites = rewriteLockingRead(
      'SELECT COUNT(*) FROM product WHERE p_cost > 3 FOR UPDATE',
      mysql8,
    ).rewrites;
    expect(rewrites.map((rewrite) => [rewrite.kind, rewrite.recommended])).toEqual([
      ['nowait', true],
      ['skip-locked', false],
    ]);
  });
});

describe('adviseBatching', () => {
  it('adds ORDER BY the primary key and LIMIT to a single-table DELETE', () => {
    const advice = adviseBatching(
      'DELETE FROM orders WHERE created < NOW() - INTERVAL 30 DAY',
      mysql8,
      ['id'],
      500,
    );
    expect([advice.status, advice.sql]).toEqual([
      'ok',
      'DELETE FROM `orders` WHERE `created` < NOW() - INTERVAL 30 DAY ORDER BY `id` ASC LIMIT 500',
    ]);
  });

  it('refuses multi-table statements and unknown primary keys', () => {
    const multi = adviseBatching('UPDATE a JOIN b ON a.id = b.id SET a.x = 1 WHERE b.y = 2', mysql8, ['id']);
    const noKey = adviseBatching('UPDATE a SET x = 1 WHERE y = 2', mysql8, []);
    expect([multi.status, noKey.status]).toEqual(['cannot-rewrite', 'cannot-rewrite']);
  });
});

describe('assessLockFootprint', () => {
  const sql = "SELECT * FROM product WHERE p_availability = 'YES' FOR UPDATE";
  it('flags a full scan and returns the predicate columns', () => {
    const warning = assessLockFootprint(sql, mysql8, {
      explain: [{ table: 'product', type: 'ALL', key: null, rows: 4 }],
    });
    expect([warning?.reason, warning?.table, warning?.columns]).toEqual([
      'full-scan',
      'product',
      ['p_availability'],
    ]);
  });

  it("does not flag the seed's indexed range (5 locks for 2 rows) but flags a lock count far above the rows", () => {
    const indexed = assessLockFootprint(
      'SELECT * FROM product WHERE p_cost >= 20 AND p_cost <= 30 FOR UPDATE',
      mysql8,
      { locksHeld: 5, rowsReturned: 2 },
    );
    const wide = assessLockFootprint(
      'SELECT * FROM product p WHERE p.p_availability = ? FOR UPDATE',
      mysql8,
      { locksHeld: 40, rowsReturned: 2 },
    );
    expect([indexed, wide?.reason, wide?.columns]).toEqual([null, 'locks-exceed-rows', ['p_availability']]);
  });
});
