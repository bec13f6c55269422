// `sargable sqlmode --schema`, `sargable export --schema` and `sargable indexes --schema` take the schema as `analyze` does: files,
// directories, several files and `-` for standard input, all read as a stream (statement by statement,
// no whole-file read, no 512 MB cap). Each route gives the same result as the schema read from a file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchemaLoader } from '../../../src/core/schema/ddl-load.js';
import { FRAMING_SAMPLE } from '../../../src/core/schema/client-output.js';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');
const scratch = mkdtempSync(path.join(tmpdir(), 'sargable-schema-commands-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const sqlmodeDir = path.join(fixtures, 'sqlmode');
const exportDir = path.join(fixtures, 'export');
const sqlmodeSchema = readFileSync(path.join(sqlmodeDir, 'schema.sql'));
const shopSchema = readFileSync(path.join(exportDir, 'shop-schema.sql'));
const indexingDir = path.join(fixtures, 'indexing');
const indexingSchema = readFileSync(path.join(indexingDir, 'schema.sql'));
let analysisFile = '';

beforeAll(async () => {
  const analysis = await runCliCaptured(
    ['analyze', '--schema', 'shop-schema.sql', '--format', 'json', 'shop-queries.sql'],
    { cwd: exportDir },
  );
  expect(analysis.code).toBe(0);
  analysisFile = path.join(scratch, 'analysis.json');
  writeFileSync(analysisFile, analysis.stdout);
});

/** `bytes` as standard input cut into `size`-byte pieces (inside characters, words and statements). */
function cut(bytes: Buffer, size: number) {
  return async function* () {
    for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
  };
}

/**
 * Standard input paced by the loader: a comment longer than the client-output sample, then one CREATE
 * TABLE per piece, each given only once the loader has taken the CREATE TABLE two pieces before. The
 * canary: a command that read standard input whole before loading it would wait here (and fail after 5 s).
 */
function paced(pieces: readonly string[]) {
  const seen = { tables: 0 };
  const original = SchemaLoader.prototype.statement;
  vi.spyOn(SchemaLoader.prototype, 'statement').mockImplementation(function (this: SchemaLoader, slice) {
    if (/^CREATE TABLE/i.test(slice.sql)) seen.tables++;
    return original.call(this, slice);
  });
  const head = '-- padding before the first table, longer than the framing sample\n'.repeat(
    Math.ceil(FRAMING_SAMPLE / 60),
  );
  const text = head + pieces.join('');
  const chunks = async function* () {
    yield Buffer.from(head);
    for (const [index, piece] of pieces.entries()) {
      const started = Date.now();
      while (seen.tables < index - 1) {
        // An input read whole first waits forever; 20 s is for one table on a loaded machine.
        if (Date.now() - started > 20_000)
          throw new Error(`CREATE TABLE ${index - 1} was not loaded before more input was read`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      yield Buffer.from(piece);
    }
  };
  return { chunks, text };
}

describe('sargable sqlmode --schema', () => {
  const run = (argv: string[], stdinChunks?: () => AsyncIterable<Uint8Array>) =>
    runCliCaptured(['sqlmode', ...argv], { cwd: sqlmodeDir, ...(stdinChunks ? { stdinChunks } : {}) });

  it('--schema - gives the result of --schema FILE, whatever the pieces standard input arrives in', async () => {
    const fromFile = await run(['--schema', 'schema.sql', '--format', 'json', 'workload.sql']);
    const without = await run(['--format', 'json', 'workload.sql']);
    expect(fromFile.code).toBe(1);
    // The schema matters to this report (a NOT NULL column without a default): without it, another answer.
    expect(without.stdout).not.toBe(fromFile.stdout);
    for (const size of [1, 7, 4096]) {
      const fromStdin = await run(
        ['--schema', '-', '--format', 'json', 'workload.sql'],
        cut(sqlmodeSchema, size),
      );
      expect({ code: fromStdin.code, stderr: fromStdin.stderr }).toEqual({
        code: 1,
        stderr: fromFile.stderr,
      });
      expect(fromStdin.stdout).toBe(fromFile.stdout);
    }
  });

  it('takes a directory of *.sql files and several files, as one concatenated file', async () => {
    const dir = path.join(scratch, 'sqlmode-tab');
    mkdirSync(dir, { recursive: true });
    const extra = 'CREATE TABLE profiles (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL);\n';
    writeFileSync(path.join(dir, 'a-events.sql'), sqlmodeSchema);
    writeFileSync(path.join(dir, 'b-profiles.sql'), extra);
    writeFileSync(path.join(dir, 'notes.txt'), 'not SQL: ignored');
    writeFileSync(path.join(scratch, 'sqlmode-all.sql'), `${sqlmodeSchema}\n${extra}`);
    const workload = path.join(scratch, 'sqlmode-workload.sql');
    writeFileSync(
      workload,
      `${readFileSync(path.join(sqlmodeDir, 'workload.sql'), 'utf8')}INSERT INTO profiles (id) VALUES (1);\n`,
    );
    const whole = await run([
      '--schema',
      path.join(scratch, 'sqlmode-all.sql'),
      '--format',
      'json',
      workload,
    ]);
    const directory = await run(['--schema', dir, '--format', 'json', workload]);
    const several = await run([
      '--schema',
      path.join(dir, 'a-events.sql'),
      '--schema',
      path.join(dir, 'b-profiles.sql'),
      '--format',
      'json',
      workload,
    ]);
    const onlyEvents = await run(['--schema', 'schema.sql', '--format', 'json', workload]);
    expect(whole.code).toBe(1);
    expect(directory.stdout).toBe(whole.stdout);
    expect(several.stdout).toBe(whole.stdout);
    // The second file is read: without it the INSERT into profiles is judged differently.
    expect(onlyEvents.stdout).not.toBe(whole.stdout);
  });

  it('loads a schema from standard input as it arrives (paced canary), with the file result', async () => {
    const pieces = Array.from(
      { length: 30 },
      (_, index) => `CREATE TABLE t${index} (id INT PRIMARY KEY, d DATETIME NOT NULL);\n`,
    );
    pieces.push(sqlmodeSchema.toString('utf8'));
    const file = path.join(scratch, 'sqlmode-paced.sql');
    const { chunks, text } = paced(pieces);
    const fromStdin = await run(['--schema', '-', '--format', 'json', 'workload.sql'], chunks);
    writeFileSync(file, text);
    const fromFile = await run(['--schema', file, '--format', 'json', 'workload.sql']);
    expect(fromStdin.stderr).toBe('');
    expect(fromStdin.code).toBe(1);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });

  it('--schema - with the SQL also on standard input is a usage error that says what to do', async () => {
    const result = await run(['--schema', '-', '-']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Standard input can feed --schema - or the SQL, not both/);
  });
});

describe('sargable export --schema', () => {
  const run = (argv: string[], stdinChunks?: () => AsyncIterable<Uint8Array>) =>
    runCliCaptured(['export', '--from-analysis', analysisFile, '--database', 'shop', ...argv], {
      cwd: exportDir,
      ...(stdinChunks ? { stdinChunks } : {}),
    });
  // The script's header carries the time it was generated; everything else must match.
  const script = (text: string) => text.replace(/^-- Generated .*$/gm, '-- Generated');

  it('--schema - gives the script of --schema FILE; a schema without a table sets its changes aside', async () => {
    const fromFile = await run(['--schema', 'shop-schema.sql']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/^ALTER TABLE `orders`/m);
    for (const size of [1, 13, 4096]) {
      const fromStdin = await run(['--schema', '-'], cut(shopSchema, size));
      expect({ code: fromStdin.code, stderr: fromStdin.stderr }).toEqual({
        code: 0,
        stderr: fromFile.stderr,
      });
      expect(script(fromStdin.stdout)).toBe(script(fromFile.stdout));
    }
    // Canary that the streamed schema is applied: without `orders`, its ALTER is set aside with a note.
    const partial = Buffer.from(shopSchema.toString('utf8').replace(/CREATE TABLE orders \([^;]*;\n/, ''));
    const withoutOrders = await run(['--schema', '-'], cut(partial, 4096));
    expect(withoutOrders.code).toBe(0);
    expect(withoutOrders.stdout).not.toMatch(/^ALTER TABLE `orders`/m);
    expect(withoutOrders.stderr).toMatch(/note: not exported \(orders\)/);
  });

  it('takes a directory and several files, as one concatenated file', async () => {
    const dir = path.join(scratch, 'shop-tab');
    mkdirSync(dir, { recursive: true });
    const statements = shopSchema
      .toString('utf8')
      .split(/(?<=;)\n/)
      .filter((text) => text.trim());
    expect(statements).toHaveLength(3);
    const names = statements.map((_, index) => path.join(dir, `${index}.sql`));
    statements.forEach((text, index) => writeFileSync(names[index]!, text));
    const whole = await run(['--schema', 'shop-schema.sql']);
    const directory = await run(['--schema', dir]);
    const several = await run(names.flatMap((name) => ['--schema', name]));
    expect(script(directory.stdout)).toBe(script(whole.stdout));
    expect(directory.stderr).toBe(whole.stderr);
    expect(script(several.stdout)).toBe(script(whole.stdout));
    // One file of the three: the other tables' changes are set aside, so each file counts.
    const one = await run(['--schema', names[0]!]);
    expect(script(one.stdout)).not.toBe(script(whole.stdout));
  });

  it('loads a schema from standard input as it arrives (paced canary), with the file result', async () => {
    const pieces = [
      ...Array.from({ length: 30 }, (_, index) => `CREATE TABLE t${index} (id INT PRIMARY KEY);\n`),
      ...shopSchema
        .toString('utf8')
        .split(/(?<=;)\n/)
        .filter((text) => text.trim())
        .map((text) => `${text}\n`),
    ];
    const { chunks, text } = paced(pieces);
    const fromStdin = await run(['--schema', '-'], chunks);
    const file = path.join(scratch, 'shop-paced.sql');
    writeFileSync(file, text);
    const fromFile = await run(['--schema', file]);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).toBe(fromFile.stderr);
    expect(script(fromStdin.stdout)).toBe(script(fromFile.stdout));
    expect(fromStdin.stdout).toMatch(/^ALTER TABLE `orders`/m);
  });

  it('--from-analysis - with --schema - is a usage error that says what to do', async () => {
    const result = await runCliCaptured(['export', '--from-analysis', '-', '--schema', '-'], {
      cwd: exportDir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Standard input can feed --from-analysis - or --schema -, not both/);
  });
});

describe('sargable indexes --schema', () => {
  const run = (argv: string[], stdinChunks?: () => AsyncIterable<Uint8Array>) =>
    runCliCaptured(['indexes', ...argv], { cwd: indexingDir, ...(stdinChunks ? { stdinChunks } : {}) });
  const tableStatements = indexingSchema
    .toString('utf8')
    .split(/(?<=;)\n/)
    .filter((text) => text.trim());

  it('--schema - gives the index set of --schema FILE, whatever the pieces standard input arrives in', async () => {
    const fromFile = await run(['--schema', 'schema.sql', '--format', 'json', 'workload.sql']);
    expect(fromFile.code).toBe(0);
    // The existing indexes are read: the orders index extends idx_customer (a schema without it creates one).
    expect(fromFile.stdout).toMatch(/idx_customer/);
    for (const size of [1, 11, 4096]) {
      const fromStdin = await run(
        ['--schema', '-', '--format', 'json', 'workload.sql'],
        cut(indexingSchema, size),
      );
      expect({ code: fromStdin.code, stderr: fromStdin.stderr }).toEqual({
        code: 0,
        stderr: fromFile.stderr,
      });
      expect(fromStdin.stdout).toBe(fromFile.stdout);
    }
    // Canary that the streamed schema is applied: without `customers`, its statements get no index.
    const partial = Buffer.from(tableStatements.filter((text) => !/TABLE customers/.test(text)).join('\n'));
    const withoutCustomers = await run(
      ['--schema', '-', '--format', 'json', 'workload.sql'],
      cut(partial, 4096),
    );
    expect(withoutCustomers.code).toBe(0);
    expect(withoutCustomers.stdout).not.toBe(fromFile.stdout);
    const tables = (stdout: string) =>
      (JSON.parse(stdout) as { indexes: { table: string }[] }).indexes.map((index) => index.table);
    expect(tables(fromFile.stdout)).toContain('customers');
    expect(tables(withoutCustomers.stdout)).not.toContain('customers');
  });

  it('takes a directory of *.sql files and several files, as one concatenated file', async () => {
    const dir = path.join(scratch, 'indexing-tab');
    mkdirSync(dir, { recursive: true });
    expect(tableStatements).toHaveLength(2);
    const names = tableStatements.map((_, index) => path.join(dir, `${index}.sql`));
    tableStatements.forEach((text, index) => writeFileSync(names[index]!, text));
    writeFileSync(path.join(dir, 'notes.txt'), 'not SQL: ignored');
    const whole = await run(['--schema', 'schema.sql', '--format', 'json', 'workload.sql']);
    const directory = await run(['--schema', dir, '--format', 'json', 'workload.sql']);
    const several = await run([
      ...names.flatMap((name) => ['--schema', name]),
      '--format',
      'json',
      'workload.sql',
    ]);
    expect(whole.code).toBe(0);
    expect(directory.stdout).toBe(whole.stdout);
    expect(directory.stderr).toBe(whole.stderr);
    expect(several.stdout).toBe(whole.stdout);
    // One file of the two: the other table's statements are designed differently, so each file counts.
    const one = await run(['--schema', names[1]!, '--format', 'json', 'workload.sql']);
    expect(one.stdout).not.toBe(whole.stdout);
  });

  it('loads a schema from standard input as it arrives (paced canary), with the file result', async () => {
    const pieces = [
      ...Array.from({ length: 30 }, (_, index) => `CREATE TABLE t${index} (id INT PRIMARY KEY);\n`),
      ...tableStatements.map((text) => `${text}\n`),
    ];
    const { chunks, text } = paced(pieces);
    const fromStdin = await run(['--schema', '-', '--format', 'json', 'workload.sql'], chunks);
    const file = path.join(scratch, 'indexing-paced.sql');
    writeFileSync(file, text);
    const fromFile = await run(['--schema', file, '--format', 'json', 'workload.sql']);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).toBe(fromFile.stderr);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(fromStdin.stdout).toMatch(/idx_customer/);
  });

  it('--schema - with the statements also on standard input is a usage error that says what to do', async () => {
    for (const argv of [
      ['--schema', '-', '-'],
      ['--schema', '-'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/Standard input can feed --schema - or the statements, not both/);
    }
    // With the workload from a slow log, standard input is free for the schema.
    const slow = await run(
      ['--schema', '-', '--slow-log', 'slow.log', '--format', 'json'],
      cut(indexingSchema, 4096),
    );
    expect(slow.code).toBe(0);
    expect(JSON.parse(slow.stdout).indexes.length).toBeGreaterThan(0);
  });
});
