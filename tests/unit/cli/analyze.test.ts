import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/seed');

const cli = (argv: string[], stdin = '') => runCliCaptured(argv, { cwd: fixtures, stdin });

describe('sargable analyze', () => {
  it('prints the JSON contract for the seed query with an offline schema', async () => {
    const result = await cli(['analyze', '--schema', 'products.sql', 'month-query.sql', '--format', 'json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    // Suggestions and notes are the Advisor's (tested with the rule fixtures); the rest of the contract is exact.
    for (const statement of report.statements)
      for (const finding of statement.findings) {
        finding.suggestions = [];
        delete finding.notes;
      }
    // The index design is the designer's (tests/unit/indexing); here only that it is there, per table.
    expect(report.statements[0].indexPlan.tables.map((table: { table: string }) => table.table)).toEqual([
      'products',
    ]);
    delete report.statements[0].indexPlan;
    // What the schema loader made of --schema (docs/cli.md, schemaLoad).
    expect(report.schemaLoad).toEqual({
      tables: 1,
      views: 0,
      sequences: 0,
      loaded: ['products'],
      skipped: [],
      ignored: 0,
      partial: [],
    });
    delete report.schemaLoad;
    expect(report).toEqual({
      server: { flavor: 'mysql', version: '8.0.33', source: 'default' },
      statements: [
        {
          index: 0,
          sql: 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10',
          line: 1,
          column: 1,
          findings: [
            {
              rule: 'FUN001',
              category: 'function-wrapped-predicate',
              severity: 'warning',
              message:
                'MONTH() wraps column create_time: an index on create_time cannot serve this predicate, so every row is read.',
              line: 1,
              column: 39,
              endLine: 1,
              endColumn: 57,
              table: 'products',
              columns: ['create_time'],
              expression: 'MONTH(create_time)',
              suggestions: [],
            },
          ],
        },
      ],
      errors: [],
    });
  });

  it('reads standard input, takes an offline target and reports parse errors in errors[]', async () => {
    const result = await cli(
      ['analyze', '--flavor', 'mariadb', '--server-version', '10.11.6', '--format', 'json', '-'],
      'SELECT 1;\nSELEC oops;',
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.server).toEqual({ flavor: 'mariadb', version: '10.11.6', source: 'flags' });
    expect(report.errors).toEqual([{ index: 1, message: "Syntax error near 'oops'.", line: 2, column: 7 }]);
  });

  it('exits 1 when a finding reaches --fail-on, 0 when it does not', async () => {
    expect((await cli(['analyze', '--fail-on', 'warning', 'month-query.sql'])).code).toBe(1);
    expect((await cli(['analyze', '--fail-on', 'error', 'month-query.sql'])).code).toBe(0);
  });

  it('exits 2 with a message on usage and input errors', async () => {
    const unknown = await cli(['analyze', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--bogus/);
    const missing = await cli(['analyze', 'no-such-file.sql']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('SQL file not found: no-such-file.sql'),
    });
    const badFlavor = await cli(['analyze', '--flavor', 'oracle', 'month-query.sql']);
    expect(badFlavor).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown flavor 'oracle'") });
    const badFormat = await cli(['analyze', '--format', 'xml', 'month-query.sql']);
    expect(badFormat.code).toBe(2);
  });

  it('prints help', async () => {
    expect((await cli(['--help'])).stdout).toMatch(/Usage: sargable <command>/);
    expect((await cli(['analyze', '--help'])).stdout).toMatch(/--fail-on SEVERITY/);
    expect((await cli(['nope'])).code).toBe(2);
  });
});

describe('sargable analyze: disabled rules', () => {
  const rulesOf = (stdout: string): string[] =>
    (JSON.parse(stdout) as { statements: { findings: { rule: string }[] }[] }).statements.flatMap(
      (statement) => statement.findings.map((finding) => finding.rule),
    );
  const base = ['analyze', '--schema', 'products.sql', '--format', 'json', '-'];
  const sql = 'SELECT id FROM products WHERE MONTH(create_time) = 10 AND price > 5';

  it('--disable and a workspace file both remove the rules; unknown IDs are usage errors', async () => {
    const workspace = JSON.stringify({
      format: 'sargable-workspace',
      version: 2,
      profile: { id: 'offline' },
      savedAt: '2024-01-01T00:00:00.000Z',
      items: [],
      notes: [],
      disabledRules: ['IDX001'],
    });
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const os = await import('node:os');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sargable-cli-'));
    const file = path.join(dir, 'ws.sargable.json');
    await writeFile(file, workspace);
    const results = {
      all: rulesOf((await cli(base, sql)).stdout),
      disabled: rulesOf((await cli([...base, '--disable', 'fun.001'], sql)).stdout),
      workspace: rulesOf((await cli([...base, '--workspace', file], sql)).stdout),
      both: rulesOf((await cli([...base, '--workspace', file, '--disable', 'FUN001'], sql)).stdout),
      unknown: (await cli([...base, '--disable', 'NOPE1'], sql)).code,
    };
    expect(results).toEqual({
      all: ['FUN001', 'IDX001'],
      disabled: ['IDX001'],
      workspace: ['FUN001'],
      both: [],
      unknown: 2,
    });
  });

  it("--workspace runs the workspace's enabled opt-in rules (the UI's choices); its disabled rules stay off", async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const os = await import('node:os');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sargable-cli-'));
    const write = async (name: string, rules: Record<string, string[]>): Promise<string> => {
      const file = path.join(dir, name);
      await writeFile(
        file,
        JSON.stringify({
          format: 'sargable-workspace',
          version: 2,
          profile: { id: 'offline' },
          savedAt: '2024-01-01T00:00:00.000Z',
          items: [],
          notes: [],
          ...rules,
        }),
      );
      return file;
    };
    const star = 'SELECT * FROM products WHERE MONTH(create_time) = 10';
    const enabled = await write('enabled.sargable.json', { enabledRules: ['QRY001'] });
    const both = await write('both.sargable.json', {
      enabledRules: ['QRY001'],
      disabledRules: ['QRY001', 'FUN001'],
    });
    const stale = await write('stale.sargable.json', { enabledRules: ['FUN001', 'ZZZ999'] });
    const staleRun = await cli([...base, '--workspace', stale], star);
    const results = {
      plain: rulesOf((await cli(base, star)).stdout),
      workspace: rulesOf((await cli([...base, '--workspace', enabled], star)).stdout),
      flagDisables: rulesOf(
        (await cli([...base, '--workspace', enabled, '--disable', 'QRY001'], star)).stdout,
      ),
      workspaceDisables: rulesOf((await cli([...base, '--workspace', both], star)).stdout),
      stale: { code: staleRun.code, rules: rulesOf(staleRun.stdout) },
    };
    expect(results).toEqual({
      plain: ['FUN001'],
      workspace: ['QRY001', 'FUN001'],
      flagDisables: ['FUN001'],
      workspaceDisables: [],
      stale: { code: 0, rules: ['FUN001'] },
    });
    expect(staleRun.stderr).toMatch(/enables FUN001, which is not an opt-in rule .*it runs by default/);
    expect(staleRun.stderr).toMatch(/enables ZZZ999, .*unknown/);
  });

  it('--enable turns on an opt-in rule (QRY001); a default rule, an unknown ID or one also disabled is a usage error', async () => {
    const star = 'SELECT * FROM products WHERE id = 1';
    const results = {
      default: rulesOf((await cli(base, star)).stdout),
      enabled: rulesOf((await cli([...base, '--enable', 'qry.001'], star)).stdout),
      notOptIn: await cli([...base, '--enable', 'FUN001'], star),
      unknown: (await cli([...base, '--enable', 'NOPE1'], star)).code,
      conflict: await cli([...base, '--enable', 'QRY001', '--disable', 'QRY001'], star),
    };
    expect(results.default).toEqual([]);
    expect(results.enabled).toEqual(['QRY001']);
    expect(results.notOptIn.code).toBe(2);
    expect(results.notOptIn.stderr).toMatch(/FUN001 is not an opt-in rule.*opt-in rules: QRY001/);
    expect(results.unknown).toBe(2);
    expect(results.conflict.code).toBe(2);
    expect(results.conflict.stderr).toMatch(/QRY001 is also disabled/);
  });
});
