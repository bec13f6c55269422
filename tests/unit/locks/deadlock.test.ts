// Golden tests: real SHOW ENGINE INNODB STATUS captures (MySQL 8.0.33, MariaDB 10.11) → parsed deadlocks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addToDeadlockHistory,
  normalizeStatement,
  parseLatestDeadlock,
} from '../../../src/core/locks/deadlock.js';

const dir = path.join(import.meta.dirname, '../../fixtures/locks/deadlock');
const cases = fs.readdirSync(dir).filter((name) => name.endsWith('.txt'));
const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');

describe('parseLatestDeadlock golden', () => {
  it.each(cases)('%s', (name) => {
    const expected = JSON.parse(read(name.replace(/\.txt$/, '.expected.json'))) as unknown;
    expect(parseLatestDeadlock(read(name))).toEqual(expected);
  });
});

describe('deadlock fingerprint', () => {
  it('is the same for the same pattern on both servers and differs between patterns', () => {
    const fingerprint = (name: string): string | undefined => parseLatestDeadlock(read(name))?.fingerprint;
    const updates = [
      fingerprint('mysql-8.0.33-two-updates.txt'),
      fingerprint('mariadb-10.11-two-updates.txt'),
    ];
    const inserts = [
      fingerprint('mysql-8.0.33-insert-intention.txt'),
      fingerprint('mariadb-10.11-insert-intention.txt'),
    ];
    expect({
      updatesEqual: updates[0] === updates[1],
      insertsEqual: inserts[0] === inserts[1],
      differ: updates[0] !== inserts[0],
    }).toEqual({
      updatesEqual: true,
      insertsEqual: true,
      differ: true,
    });
  });

  it('history counts a repeat once per detection time and ignores re-reads', () => {
    const first = parseLatestDeadlock(read('mysql-8.0.33-two-updates.txt'));
    if (!first) throw new Error('fixture must parse');
    const again = { ...first };
    const later = { ...first, detectedAt: '2026-11-21 23:59:59' };
    const step1 = addToDeadlockHistory([], first);
    const step2 = addToDeadlockHistory(step1.history, again);
    const step3 = addToDeadlockHistory(step2.history, later);
    expect([
      step1.added,
      step2.added,
      step3.added,
      step3.history.length,
      step3.history[0]?.occurrences,
    ]).toEqual([true, false, true, 1, 2]);
  });

  it('normalizes literals away', () => {
    expect(normalizeStatement("UPDATE product SET p_name = 'x' WHERE p_id IN (1, 2,3)")).toBe(
      'update product set p_name = ? where p_id in (?+)',
    );
  });
});
