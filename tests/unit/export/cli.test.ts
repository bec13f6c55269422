// `sargable analyze --format json | sargable export --from-analysis -` through the CLI entry point, without a process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import type { CliIo } from '../../../src/cli/io.js';

const FIXTURES = path.join(import.meta.dirname, '../../fixtures/export');

function io(stdin = ''): CliIo & { out: string; err: string } {
  const result = {
    out: '',
    err: '',
    stdout: (text: string) => void (result.out += text),
    stderr: (text: string) => void (result.err += text),
    readStdin: async () => stdin,
    env: {},
    cwd: FIXTURES,
  };
  return result;
}

describe('sargable export', () => {
  it('turns analyze JSON into one ALTER per table, and its rollback', async () => {
    const analysis = io();
    const args = [
      'analyze',
      '--schema',
      path.join(FIXTURES, 'shop-schema.sql'),
      '--format',
      'json',
      path.join(FIXTURES, 'shop-queries.sql'),
    ];
    expect(await runCli(args, { ...analysis, cwd: FIXTURES })).toBe(0);
    const forward = io(analysis.out);
    expect(
      await runCli(
        ['export', '--from-analysis', '-', '--schema', 'shop-schema.sql', '--database', 'shop'],
        forward,
      ),
    ).toBe(0);
    const rollback = io(analysis.out);
    expect(await runCli(['export', '--from-analysis', '-', '--rollback'], rollback)).toBe(0);
    expect({
      alters: forward.out.match(/^ALTER TABLE `\w+`/gm),
      drops: rollback.out.match(/^ALTER TABLE `\w+`/gm),
      prelude: /^SET SESSION lock_wait_timeout = 10;$/m.test(forward.out),
      stderr: forward.err,
    }).toEqual({
      alters: ['ALTER TABLE `products`', 'ALTER TABLE `orders`', 'ALTER TABLE `customers`'],
      drops: ['ALTER TABLE `customers`', 'ALTER TABLE `orders`', 'ALTER TABLE `products`'],
      prelude: true,
      // products' two indexes over MONTH(create_time) share one VIRTUAL column (indexed in the same statement).
      stderr: expect.stringMatching(
        /warning: products: Indexing a VIRTUAL column[^]*warning: orders: A functional index/,
      ),
    });
  });

  it('reports a corrupt workspace, bad variants and a missing source as usage/input errors (exit 2)', async () => {
    const corrupt = io();
    expect(await runCli(['export', '--workspace', 'shop-schema.sql'], corrupt)).toBe(2);
    expect(corrupt.err).toMatch(/not valid JSON.*left unchanged/);
    const variant = io();
    expect(await runCli(['export', '--workspace', 'x', '--variant', 'liquibase'], variant)).toBe(2);
    expect(variant.err).toMatch(/--variant must be one of sql, pt-osc, gh-ost/);
    expect(await runCli(['export'], io())).toBe(2);
    const notReport = io('{"hello": 1}');
    expect(await runCli(['export', '--from-analysis', '-'], notReport)).toBe(2);
    expect(notReport.err).toMatch(/not an AnalysisReport/);
  });
});
