// `--schema` with real dump forms: a mysqldump --tab directory, several files, and what the report
// says about them (schemaLoad, the text summary, notes naming a skipped definition); files that are
// not UTF-8 are refused with the offset of the first bad byte.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = path.resolve(__dirname, '../../fixtures/schemas');
const scratch = mkdtempSync(path.join(tmpdir(), 'sargable-schema-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cli = (argv: string[], stdin = '', cwd = fixtures) => runCliCaptured(argv, { cwd, stdin });

describe('--schema inputs', () => {
  it('reads a mysqldump --tab directory and reports what it loaded', async () => {
    const result = await cli(
      ['analyze', '--schema', 'dumps/mysql/sakila-tab', '--format', 'json', '-'],
      'SELECT * FROM film WHERE YEAR(last_update) = 2020',
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.schemaLoad).toMatchObject({ tables: 16, views: 4, skipped: [], partial: [] });
    expect(report.statements[0].findings.map((finding: { rule: string }) => finding.rule)).toContain(
      'FUN001',
    );
  });

  it('applies several files in order and names the file and line of a skipped statement', async () => {
    writeFileSync(
      path.join(scratch, 'a.sql'),
      '-- base\nCREATE TABLE orders (id INT PRIMARY KEY, d DATETIME);\n',
    );
    writeFileSync(
      path.join(scratch, 'b.sql'),
      'ALTER TABLE orders ADD INDEX idx_d (d);\n\nCREATE TABLE broken (id INT,, x INT);\n',
    );
    const result = await cli(
      ['analyze', '--schema', 'a.sql', '--schema', 'b.sql', '-'],
      'SELECT * FROM broken WHERE id = 1;\nSELECT * FROM orders WHERE d >= NOW();',
      scratch,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'b.sql:3:29: skipped CREATE TABLE broken: an empty element in the column list',
    );
    expect(result.stdout).toContain('schema: loaded 1 table; skipped 1');
    expect(result.stdout).toMatch(
      /note Table broken is not in the schema: its definition in b.sql at line 3 was skipped/,
    );
  });

  it('refuses a schema file that is not UTF-8, with the offset and what to do', async () => {
    writeFileSync(
      path.join(scratch, 'latin1.sql'),
      Buffer.from("CREATE TABLE t (c VARCHAR(5) DEFAULT 'caf\xe9');", 'latin1'),
    );
    const result = await cli(['analyze', '--schema', 'latin1.sql', '-'], 'SELECT 1', scratch);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/schema file latin1\.sql is not UTF-8 text \(byte 0xe9 at offset 41/);
    expect(result.stderr).toMatch(/iconv/);
  });

  it('reads UTF-16 with a BOM and UTF-8 with a BOM and CRLF', async () => {
    const ddl = 'CREATE TABLE t (id INT PRIMARY KEY,\r\n  name VARCHAR(10));\r\n';
    writeFileSync(
      path.join(scratch, 'utf16.sql'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ddl, 'utf16le')]),
    );
    writeFileSync(path.join(scratch, 'bom.sql'), `\uFEFF${ddl.replace('TABLE t', 'TABLE u')}`);
    const result = await cli(
      ['analyze', '--schema', 'utf16.sql', '--schema', 'bom.sql', '--format', 'json', '-'],
      'SELECT 1',
      scratch,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).schemaLoad.loaded).toEqual(['t', 'u']);
  });

  it('--schema - reads the schema from standard input, cut anywhere, as the file loads', async () => {
    const dump = readFileSync(path.join(fixtures, 'dumps/mysql/sakila-mysqldump-data.sql'));
    const query = path.join(scratch, 'film.sql');
    writeFileSync(query, 'SELECT * FROM film WHERE YEAR(last_update) = 2020;\n');
    const fromFile = await cli(
      ['analyze', '--schema', 'dumps/mysql/sakila-mysqldump-data.sql', '--format', 'json', query],
      '',
    );
    for (const size of [3, 4096, 1 << 20]) {
      const fromStdin = await runCliCaptured(['analyze', '--schema', '-', '--format', 'json', query], {
        cwd: fixtures,
        // Pieces cut inside characters, statements and DELIMITER blocks.
        stdinChunks: async function* () {
          for (let start = 0; start < dump.length; start += size) yield dump.subarray(start, start + size);
        },
      });
      expect(fromStdin.code).toBe(0);
      const report = JSON.parse(fromStdin.stdout);
      expect(report.schemaLoad).toMatchObject({ tables: 16, skipped: [] });
      expect(fromStdin.stdout).toBe(fromFile.stdout);
    }
  });

  it('--schema - with the SQL also on standard input is a usage error that says what to do', async () => {
    const result = await cli(['analyze', '--schema', '-', '-'], 'SELECT 1');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /Standard input can feed --schema - or the SQL, not both: give the SQL as FILE/,
    );
  });

  it('a schema from standard input that is not UTF-8 is refused with the offset, as a file is', async () => {
    const query = path.join(scratch, 'one.sql');
    writeFileSync(query, 'SELECT 1;\n');
    const bytes = Buffer.from("CREATE TABLE t (c VARCHAR(5) DEFAULT 'caf\xe9');", 'latin1');
    const result = await runCliCaptured(['analyze', '--schema', '-', query], {
      cwd: scratch,
      stdinChunks: async function* () {
        yield bytes.subarray(0, 20);
        yield bytes.subarray(20);
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/schema file <stdin> is not UTF-8 text \(byte 0xe9 at offset 41/);
  });
});
