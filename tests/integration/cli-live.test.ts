// The CLI against real servers: analyze --dsn (live schema), --verify --allow-what-if, and explain --dsn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../support/cli.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const productsDdl = readFileSync(path.join(fixtures, 'seed/products.sql'), 'utf8');

const cli = (argv: string[], env: Record<string, string> = {}, stdin = '') =>
  runCliCaptured(argv, { cwd: fixtures, env, stdin });

describe.each(testServers())('CLI live on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_cli');
  const dsn = `${url.replace(/\/$/, '')}/${database}`;

  beforeAll(async () => {
    const admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query(productsDdl);
    const digits =
      'SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9';
    // 5,000 deterministic rows without recursion limits: i = 0..4999 from a cross join of digits.
    await admin.query(
      `INSERT INTO products (price, create_time)
       SELECT i % 100, TIMESTAMP('2019-01-01') + INTERVAL (i % 365) DAY
         FROM (SELECT a.d * 1000 + b.d * 100 + c.d * 10 + e.d AS i FROM (${digits}) a, (${digits}) b, (${digits}) c, (${digits}) e) n
        WHERE i < 5000`,
    );
    await admin.query('ANALYZE TABLE products');
    await admin.end();
  });
  afterAll(async () => {
    const admin = await connect(url);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('analyze --dsn reads flavor, version and schema from the server; the password can come from the environment', async () => {
    const withoutPassword = new URL(dsn);
    const password = decodeURIComponent(withoutPassword.password);
    withoutPassword.password = '';
    const result = await cli(
      ['analyze', '--dsn', withoutPassword.toString(), '--format', 'json', 'seed/month-query.sql'],
      { SARGABLE_PASSWORD: password },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.server).toMatchObject({ flavor, source: 'dsn' });
    expect(report.statements[0].findings[0]).toMatchObject({
      rule: 'FUN001',
      table: 'products',
      columns: ['create_time'],
    });
  });

  it('analyze --dsn from standard input (and --stream FILE) streams to the report of the whole file, live notes included', async () => {
    const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-cli-stream-'));
    try {
      const sql = [
        readFileSync(path.join(fixtures, 'seed/month-query.sql'), 'utf8').trim(),
        'SELECT id FROM products WHERE price + 1 = 10;',
        'SELECT FROM;',
        'SELECT id FROM products WHERE YEAR(create_time) = 2019 AND price = 5;',
        'SELECT * FROM products WHERE MONTH(create_time) = 2;',
      ].join('\n');
      const file = path.join(dir, 'queries.sql');
      writeFileSync(file, sql);
      const whole = await cli(['analyze', '--dsn', dsn, '--format', 'json', file]);
      expect(whole.code).toBe(0);
      const report = JSON.parse(whole.stdout);
      expect(report.statements).toHaveLength(4);
      expect(report.errors).toHaveLength(1);
      // The live post-pass ran: selectivity measured on the server is in the advice.
      expect(whole.stdout).toMatch(/Selectivity of products/);
      const fromStdin = await runCliCaptured(['analyze', '--dsn', dsn, '--format', 'json', '-'], {
        cwd: fixtures,
        stdinChunks: async function* () {
          for (let start = 0; start < sql.length; start += 17)
            yield Buffer.from(sql.slice(start, start + 17));
        },
      });
      // Streamed, a table is sampled for what the statements so far asked, so a note lists the
      // measured columns up to its statement (the whole file: all of them); everything else is the same.
      const basis = /"Selectivity of products: ([^"]*)\."/g;
      const parts = (text: string) =>
        [...text.matchAll(basis)].map((match) =>
          match[1]!.split('; ').filter((part) => part.includes('distinct')),
        );
      const streamed = await cli(['analyze', '--dsn', dsn, '--stream', '--format', 'json', file]);
      for (const output of [fromStdin.stdout, streamed.stdout]) {
        expect(output.replace(basis, '')).toBe(whole.stdout.replace(basis, ''));
        const wholeParts = parts(whole.stdout);
        expect(parts(output)).toHaveLength(wholeParts.length);
        parts(output).forEach((list, index) => {
          expect(list.length).toBeGreaterThan(0);
          for (const part of list) expect(wholeParts[index]).toContain(part);
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('analyze --verify --allow-what-if adds a verification to index suggestions and leaves the table unchanged', async () => {
    const admin = await connect(url, database);
    const [[before]] = await admin.query<RowDataPacket[]>('SHOW CREATE TABLE products');
    const result = await cli([
      'analyze',
      '--dsn',
      dsn,
      '--verify',
      '--allow-what-if',
      '--format',
      'json',
      'seed/month-query.sql',
    ]);
    expect(result.code).toBe(0);
    const suggestions = JSON.parse(result.stdout).statements[0].findings[0].suggestions as {
      kind: string;
      verification?: unknown;
      indexName?: string;
    }[];
    const verified = suggestions.filter((suggestion) => suggestion.verification);
    expect(verified.length).toBeGreaterThan(0);
    for (const suggestion of verified) {
      expect(suggestion.verification).toMatchObject({
        server: expect.stringMatching(flavor === 'mysql' ? /^MySQL 8\.0\.33$/ : /^MariaDB 10\.11\./),
        method: flavor === 'mysql' ? 'invisible-index' : 'sandbox',
        before: [{ table: 'products', type: 'ALL', key: null }],
        after: [{ table: 'products', type: 'ref', key: suggestion.indexName }],
        verdict: 'improved',
        usesIndex: true,
      });
    }
    // The same JSON piped into `export --from-analysis -` puts the measured plans into the script.
    const exported = await cli(
      [
        'export',
        '--from-analysis',
        '-',
        '--flavor',
        flavor,
        '--server-version',
        flavor === 'mysql' ? '8.0.33' : '10.11',
      ],
      {},
      result.stdout,
    );
    expect(exported.stderr).not.toMatch(/error/i);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/-- +EXPLAIN before: products type=ALL key=NULL rows=\d+/);
    expect(exported.stdout).toMatch(/-- +EXPLAIN after: +products type=ref key=\w+ rows=\d+ \(verified /);
    expect(exported.stdout).toMatch(/improved, \d+(\.\d+)?% fewer rows examined, uses the new index/);
    const [[after]] = await admin.query<RowDataPacket[]>('SHOW CREATE TABLE products');
    expect(after?.['Create Table']).toBe(before?.['Create Table']);
    await admin.end();
  });

  it('explain --dsn prints the plan contract, and statement errors with the server code', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-cli-'));
    const file = path.join(dir, 'q.sql');
    writeFileSync(
      file,
      'SELECT * FROM products p JOIN products q ON q.id = p.id WHERE p.price > 90;\nSELECT * FROM missing_table;',
    );
    const result = await cli(['explain', '--dsn', dsn, '--format', 'json', file]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.server).toMatchObject({ flavor, source: 'dsn' });
    expect(output.statements).toHaveLength(1);
    expect(output.statements[0]).toMatchObject({ index: 0, plan: { id: '1' } });
    expect(output.errors).toEqual([
      expect.objectContaining({ index: 1, code: 'SERVER_ERROR', serverCode: 1146 }),
    ]);
  });
});
