import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

const cli = (argv: string[]) => runCliCaptured(argv, { cwd: fixtures });

describe('sargable explain --parse', () => {
  it('parses a pasted \\G block into the plan contract', async () => {
    const result = await cli([
      'explain',
      '--parse',
      '--format',
      'json',
      'explain/seed/4-functional-index.txt',
    ]);
    expect(result.code).toBe(0);
    const { plan } = JSON.parse(result.stdout);
    const table = plan.table ? plan : plan.children.find((node: { table: string | null }) => node.table);
    expect(table).toMatchObject({
      table: 'products',
      accessType: 'ref',
      key: 'functional_index',
      keyLength: 5,
      rowsEstimated: 182,
    });
    for (const key of [
      'id',
      'table',
      'accessType',
      'key',
      'possibleKeys',
      'keyLength',
      'rowsEstimated',
      'rowsActual',
      'timeMs',
      'filtered',
      'cost',
      'condition',
      'flags',
      'children',
    ]) {
      expect(table).toHaveProperty(key);
    }
  });

  it('prints a readable tree and flags the full scan', async () => {
    const result = await cli(['explain', '--parse', 'explain/seed/1-no-index.txt']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/products.*type=ALL.*full-scan/);
    expect(result.stdout).toContain('1 full table scan(s)');
  });

  it('explains usage errors', async () => {
    expect((await cli(['explain', 'x.sql'])).stderr).toContain('--dsn is required');
    expect((await cli(['explain', '--parse', 'seed/products.sql'])).code).toBe(2);
  });
});

describe('sargable analyze --verify', () => {
  it('refuses to build indexes without --allow-what-if, and says why', async () => {
    const result = await cli([
      'analyze',
      '--dsn',
      'mysql://u@127.0.0.1:1/db',
      '--verify',
      'seed/month-query.sql',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs explicit consent: add --allow-what-if');
  });

  it('validates --verify-threshold', async () => {
    const result = await cli([
      'analyze',
      '--dsn',
      'mysql://u@127.0.0.1:1/db',
      '--verify',
      '--allow-what-if',
      '--verify-threshold',
      '2',
      'seed/month-query.sql',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--verify-threshold must be a number from 0 to 1');
  });
});

describe('sargable digest --dsn', () => {
  it('hands live capture to the capture command (an unreachable server is a clear error)', async () => {
    const result = await cli(['digest', '--dsn', 'mysql://u:p@127.0.0.1:1/db', '--window', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('127.0.0.1:1');
  });
});
