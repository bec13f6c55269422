// The index set proof's statement list and verdict (core/explain/what-if-set.ts), and INVISIBLE placement.
import { describe, expect, it } from 'vitest';
import { invisibleVariant } from '../../../src/core/explain/what-if.js';
import {
  proofSteps,
  proofVerdict,
  tableLine,
  type StatementProof,
} from '../../../src/core/explain/what-if-set.js';

const candidate = {
  key: 'k',
  table: 'orders',
  name: 'idx_c',
  ddl: ['ALTER TABLE `orders` ADD INDEX `idx_c` (`customer_id`);'],
  statements: [
    { index: 0, sql: 'SELECT id FROM orders WHERE customer_id = 1;' },
    { index: 3, sql: 'SELECT id FROM orders WHERE customer_id = 2' },
  ],
};

describe('proofSteps', () => {
  it('MySQL 8: switch off, EXPLAIN each, build INVISIBLE, ANALYZE, switch on, EXPLAIN each, drop', () => {
    expect(
      proofSteps(candidate, 'invisible-index', 'mysql', 5).map((step) => `${step.kind}: ${step.sql}`),
    ).toEqual([
      'session: SET SESSION lock_wait_timeout = 5',
      "session: SET SESSION optimizer_switch = 'use_invisible_indexes=off'",
      'read: EXPLAIN SELECT id FROM orders WHERE customer_id = 1',
      'read: EXPLAIN SELECT id FROM orders WHERE customer_id = 2',
      'write: ALTER TABLE `orders` ADD INDEX `idx_c` (`customer_id`) INVISIBLE',
      'write: ANALYZE TABLE `orders`',
      "session: SET SESSION optimizer_switch = 'use_invisible_indexes=on'",
      'read: EXPLAIN SELECT id FROM orders WHERE customer_id = 1',
      'read: EXPLAIN SELECT id FROM orders WHERE customer_id = 2',
      'write: ALTER TABLE `orders` DROP INDEX `idx_c`',
    ]);
  });
  it('the sandbox (MariaDB): a plain index, no optimizer switch', () => {
    const sql = proofSteps(candidate, 'sandbox', 'mariadb', 5).map((step) => step.sql);
    expect(sql).toContain('ALTER TABLE `orders` ADD INDEX `idx_c` (`customer_id`)');
    expect(sql.join('\n')).not.toMatch(/optimizer_switch|INVISIBLE/);
  });
});

describe('invisibleVariant', () => {
  it('puts INVISIBLE before a trailing ALGORITHM/LOCK (the server refuses it after them)', () => {
    expect(invisibleVariant('ALTER TABLE t ADD INDEX i (a), ALGORITHM=INPLACE, LOCK=NONE;')).toBe(
      'ALTER TABLE t ADD INDEX i (a) INVISIBLE, ALGORITHM=INPLACE, LOCK=NONE',
    );
    expect(invisibleVariant('ALTER TABLE t ADD INDEX i (a);')).toBe(
      'ALTER TABLE t ADD INDEX i (a) INVISIBLE',
    );
  });
});

const plan = (cost: number | null, rows: number, key: string | null, access: string) => ({
  cost,
  rows,
  key,
  access,
});

describe('proofVerdict', () => {
  it('chosen when any statement uses it, with cost (or rows) before → after', () => {
    const statements: StatementProof[] = [
      {
        statement: 0,
        before: plan(2000, 10000, null, 'ALL'),
        after: plan(1.2, 5, 'idx_c', 'ref'),
        chosen: true,
      },
      {
        statement: 3,
        before: plan(null, 10000, null, 'ALL'),
        after: plan(null, 10000, null, 'ALL'),
        chosen: false,
      },
    ];
    const verdict = proofVerdict(candidate, statements, 'invisible-index');
    expect(verdict).toMatchObject({ status: 'chosen', chosenBy: [0] });
    expect(verdict.reason).toBe('The optimizer chose it for #1: #1 cost 2,000 → 1.');
  });
  it('rejected when none does, naming what each statement kept', () => {
    const statements: StatementProof[] = [
      {
        statement: 0,
        before: plan(null, 10000, null, 'ALL'),
        after: plan(null, 10000, 'PRIMARY', 'index'),
        chosen: false,
      },
    ];
    expect(proofVerdict(candidate, statements, 'sandbox')).toMatchObject({
      status: 'rejected',
      chosenBy: [],
      reason:
        'The optimizer did not choose it for any of its statements: #1 keeps PRIMARY (index), 10,000 rows. Not proposed.',
    });
  });
  it('tableLine prefers the access that uses the new index, then the table', () => {
    const lines = [
      { table: 'c', type: 'ALL', key: null, rows: 10 },
      { table: 'orders', type: 'ref', key: 'k1', rows: 1 },
    ];
    expect(tableLine(lines, 'orders', ['K1'])).toBe(lines[1]);
    expect(tableLine(lines, 'orders', ['other'])).toBe(lines[1]);
    expect(tableLine(lines, 'x', [])).toBe(lines[0]);
  });
});
