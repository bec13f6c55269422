// The index set proof's statement list and verdict (core/explain/what-if-set.ts), and INVISIBLE placement.
import { describe, expect, it } from 'vitest';
import { invisibleVariant } from '../../../src/core/explain/what-if.js';
import {
  proofSteps,
  proofVerdict,
  setProofSteps,
  setProofVerdicts,
  tableLine,
  type ProofPlan,
  type SetStatementProof,
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

describe('a statement that must change (an index on a generated column MariaDB does not substitute)', () => {
  const generated = {
    key: 'g',
    table: 'orders',
    name: 'idx_y',
    ddl: [
      'ALTER TABLE orders ADD COLUMN created_at_year SMALLINT GENERATED ALWAYS AS (YEAR(created_at)) VIRTUAL, ADD INDEX idx_y (created_at_year);',
    ],
    statements: [
      {
        index: 0,
        sql: 'SELECT id FROM orders WHERE YEAR(created_at) = 2021',
        afterSql: 'SELECT id FROM orders WHERE created_at_year = 2021',
      },
    ],
  };
  it('is EXPLAINed as written before the build (the column does not exist yet) and rewritten after it', () => {
    const reads = (steps: { kind: string; sql: string }[]) =>
      steps.filter((step) => step.kind === 'read').map((step) => step.sql);
    const expected = [
      'EXPLAIN SELECT id FROM orders WHERE YEAR(created_at) = 2021',
      'EXPLAIN SELECT id FROM orders WHERE created_at_year = 2021',
    ];
    expect(reads(proofSteps(generated, 'sandbox', 'mariadb', 5))).toEqual(expected);
    expect(reads(setProofSteps([generated], 'sandbox', 'mariadb', 5))).toEqual(expected);
    // The drop removes the column the build adds.
    expect(proofSteps(generated, 'sandbox', 'mariadb', 5).at(-1)?.sql).toMatch(
      /DROP COLUMN `created_at_year`/,
    );
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

describe('the set proof', () => {
  const longer = {
    key: 'long',
    table: 'orders',
    name: 'idx_cs',
    ddl: ['ALTER TABLE `orders` ADD INDEX `idx_cs` (`customer_id`, `status`);'],
    statements: [{ index: 3, sql: 'SELECT id FROM orders WHERE customer_id = 2' }],
  };
  const other = {
    key: 'n',
    table: 'notes',
    name: 'idx_a',
    ddl: ['ALTER TABLE `notes` ADD INDEX `idx_a` (`author`);'],
    statements: [{ index: 5, sql: 'SELECT id FROM notes WHERE author = 2' }],
  };

  it('MySQL 8: EXPLAIN each statement once, build every index INVISIBLE, ANALYZE each table once, switch on, EXPLAIN again, drop all (last built first)', () => {
    expect(
      setProofSteps([candidate, longer, other], 'invisible-index', 'mysql', 5).map(
        (step) => `${step.phase} ${step.kind}: ${step.sql}`,
      ),
    ).toEqual([
      'session session: SET SESSION lock_wait_timeout = 5',
      "session session: SET SESSION optimizer_switch = 'use_invisible_indexes=off'",
      'before read: EXPLAIN SELECT id FROM orders WHERE customer_id = 1',
      'before read: EXPLAIN SELECT id FROM orders WHERE customer_id = 2',
      'before read: EXPLAIN SELECT id FROM notes WHERE author = 2',
      'build write: ALTER TABLE `orders` ADD INDEX `idx_c` (`customer_id`) INVISIBLE',
      'build write: ALTER TABLE `orders` ADD INDEX `idx_cs` (`customer_id`, `status`) INVISIBLE',
      'build write: ALTER TABLE `notes` ADD INDEX `idx_a` (`author`) INVISIBLE',
      'analyze write: ANALYZE TABLE `orders`',
      'analyze write: ANALYZE TABLE `notes`',
      "session session: SET SESSION optimizer_switch = 'use_invisible_indexes=on'",
      'after read: EXPLAIN SELECT id FROM orders WHERE customer_id = 1',
      'after read: EXPLAIN SELECT id FROM orders WHERE customer_id = 2',
      'after read: EXPLAIN SELECT id FROM notes WHERE author = 2',
      'drop write: ALTER TABLE `notes` DROP INDEX `idx_a`',
      'drop write: ALTER TABLE `orders` DROP INDEX `idx_cs`',
      'drop write: ALTER TABLE `orders` DROP INDEX `idx_c`',
    ]);
    // The sandbox: plain builds, no optimizer switch.
    const sandbox = setProofSteps([candidate, longer], 'sandbox', 'mariadb', 5);
    expect(sandbox.some((step) => /optimizer_switch|INVISIBLE/.test(step.sql))).toBe(false);
    expect(sandbox.filter((step) => step.phase === 'build').map((step) => step.candidate)).toEqual([
      'k',
      'long',
    ]);
  });

  it('verdicts: picked with the set present, or made redundant by the index picked instead (another of the set, or an existing one)', () => {
    const plan = (key: string | null, cost: number): ProofPlan => ({ cost, rows: 1, key, access: 'ref' });
    const statements: SetStatementProof[] = [
      {
        statement: 0,
        before: { cost: 900, rows: 9000, keys: [] },
        after: { cost: 2, rows: 2, keys: ['idx_cs'] },
        uses: ['long'],
      },
      {
        statement: 3,
        before: { cost: 900, rows: 9000, keys: [] },
        after: { cost: 2, rows: 2, keys: ['idx_cs'] },
        uses: ['long'],
      },
      {
        statement: 5,
        before: { cost: 50, rows: 500, keys: [] },
        after: { cost: 50, rows: 500, keys: ['fk_author'] },
        uses: [],
      },
    ];
    const built = new Map([
      ['k', ['idx_c']],
      ['long', ['idx_cs']],
      ['n', ['idx_a']],
    ]);
    const [short, long, notes] = setProofVerdicts(
      [candidate, longer, other],
      built,
      new Map(),
      statements,
      (entry, index) => ({
        before: plan(null, 900),
        after: plan(entry.table === 'notes' ? 'fk_author' : 'idx_cs', index === 5 ? 50 : 2),
      }),
      'invisible-index',
    );
    expect(long).toMatchObject({ status: 'chosen', chosenBy: [0, 3] });
    expect(long!.reason).toMatch(/picks it for #1, #4: #1 cost 900 → 2; #4 cost 900 → 2/);
    expect(short).toMatchObject({ status: 'rejected', redundantBy: ['orders.idx_cs'] });
    expect(short!.reason).toMatch(/made redundant by orders\.idx_cs/);
    expect(notes).toMatchObject({ status: 'rejected', redundantBy: ['the existing notes.fk_author'] });
    // A failed build is reported as such, not as rejected.
    const [failed] = setProofVerdicts(
      [candidate],
      new Map(),
      new Map([['k', 'Duplicate key name']]),
      [],
      () => null,
      'sandbox',
    );
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringMatching(/Duplicate key name/) });
  });
});
