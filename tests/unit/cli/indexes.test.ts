// `sargable indexes`: the workload index set as JSON and text, from a query file and from a slow log.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/indexing');
const cli = (argv: string[], stdin = '') => runCliCaptured(argv, { cwd: fixtures, stdin });

describe('sargable indexes', () => {
  it('designs one set for a query file, with per-index and per-statement use', async () => {
    const result = await cli(['indexes', '--schema', 'schema.sql', 'workload.sql', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    const summary = plan.indexes.map(
      (index: { table: string; verdict: string; parts: { column: string }[]; serves: number[] }) => [
        index.table,
        index.verdict,
        index.parts.map((part) => part.column).join(','),
        index.serves,
      ],
    );
    expect(summary).toEqual([
      ['orders', 'extend', 'customer_id,status,created_at,total', [0, 1]],
      ['customers', 'create', 'country,segment', [2, 3]],
    ]);
    expect(plan.indexes[0].ddl).toEqual([
      'ALTER TABLE orders DROP INDEX idx_customer, ADD INDEX idx_customer (customer_id, `status`, created_at, total), ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
    expect(plan.queries[4].tables).toEqual([{ table: 'customers', uses: 'uk_email', via: 'existing' }]);
    expect(plan.queries.map((query: { weight: number }) => query.weight)).toEqual([40, 10, 5, 1, 1]);
  });

  it('reads a slow log: one statement per class, weighted by total Query_time', async () => {
    const result = await cli([
      'indexes',
      '--schema',
      'schema.sql',
      '--slow-log',
      'slow.log',
      '--format',
      'json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.queries.map((query: { weight: number }) => query.weight)).toEqual([4, 0.3]);
    expect(plan.indexes.map((index: { table: string }) => index.table)).toEqual(['orders', 'customers']);
    const text = await cli(['indexes', '--schema', 'schema.sql', '--slow-log', 'slow.log']);
    expect(text.stdout).toMatch(/^2 indexes for 2 statements/);
    expect(text.stdout).toContain('ALTER TABLE customers ADD INDEX idx_customers_country (country);');
  });

  it('says what to do on bad input', async () => {
    expect((await cli(['indexes', 'workload.sql'])).stderr).toMatch(/--schema FILE/);
    expect((await cli(['indexes', '--schema', 'schema.sql', '--digests'])).stderr).toMatch(/--dsn/);
    expect(
      (await cli(['indexes', '--schema', 'schema.sql', '--max-indexes', '0', 'workload.sql'])).code,
    ).toBe(2);
  });
});
