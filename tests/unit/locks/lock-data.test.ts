// Data-driven tests for lock_data decoding (fixtures/locks/lock-data.yml).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { decodeLockData, type IndexColumn } from '../../../src/core/locks/lock-data.js';
import { classifyLockMode, modeFromStatusText } from '../../../src/core/locks/lock-mode.js';

interface Case {
  lockData: string;
  columns: IndexColumn[];
  expect: unknown;
}
const cases = parse(
  fs.readFileSync(path.join(import.meta.dirname, '../../fixtures/locks/lock-data.yml'), 'utf8'),
) as Record<string, Case>;

describe('decodeLockData', () => {
  it.each(Object.entries(cases))('%s', (_name, testCase) => {
    expect(decodeLockData(testCase.lockData, testCase.columns)).toEqual(testCase.expect);
  });
});

describe('classifyLockMode', () => {
  it('reads flags as a set, per source', () => {
    const table: [string, string, string | null, 'data_locks' | 'innodb_locks' | 'innodb_status'][] = [
      ['TABLE', 'IX', null, 'data_locks'],
      ['RECORD', 'X', '2', 'data_locks'],
      ['RECORD', 'X,REC_NOT_GAP', '2', 'data_locks'],
      ['RECORD', 'S,GAP', "'Item5', 5", 'data_locks'],
      ['RECORD', 'X,GAP,INSERT_INTENTION', '5', 'data_locks'],
      ['RECORD', 'X', 'supremum pseudo-record', 'data_locks'],
      ['RECORD', 'X', '3', 'innodb_locks'],
    ];
    expect(table.map(([type, mode, data, source]) => classifyLockMode(type, mode, data, source))).toEqual([
      { strength: 'IX', granularity: 'table' },
      { strength: 'X', granularity: 'next-key' },
      { strength: 'X', granularity: 'record' },
      { strength: 'S', granularity: 'gap' },
      { strength: 'X', granularity: 'insert-intention' },
      { strength: 'X', granularity: 'gap' },
      { strength: 'X', granularity: 'record-or-next-key' },
    ]);
  });

  it('translates InnoDB status prose to data_locks notation', () => {
    expect(
      [
        'lock_mode X locks rec but not gap waiting',
        'lock_mode X locks gap before rec insert intention waiting',
        'lock mode IX',
        'lock_mode X',
      ].map(modeFromStatusText),
    ).toEqual(['X,REC_NOT_GAP', 'X,GAP,INSERT_INTENTION', 'IX', 'X']);
  });
});
