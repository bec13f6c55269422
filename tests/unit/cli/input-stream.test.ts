// The SQL of `sargable sqlmode FILE` and the query file of `sargable indexes` are read as a stream
// (src/cli/input.ts, inputStatements: the splitter `analyze` streams with): the same report as the text
// read whole, and memory bounded by what the report keeps, not by the file — a file larger than a
// JavaScript string can hold (~512 MB) is read through.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadFromText } from '../../../src/core/indexing/index.js';
import { whatBreaks } from '../../../src/core/sqlmode/views.js';
import { decodeText } from '../../../src/main/services/text-input.js';
import { runCliCaptured } from '../../support/cli.js';

const root = path.resolve(import.meta.dirname, '../../..');
const fixtures = path.join(root, 'tests/fixtures');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-input-stream-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sqlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sqlFiles(file);
    return name.endsWith('.sql') ? [file] : [];
  });
}

// Real dumps (DELIMITER blocks, data) and the corpus of known misses.
const inputs = [
  ...sqlFiles(path.join(fixtures, 'schemas/dumps')).slice(0, 4),
  path.join(fixtures, 'corpus/known-misses.sql'),
].map((file) => path.relative(root, file));

describe('sqlmode FILE and indexes FILE read their SQL as a stream', () => {
  it.each(inputs)(
    'sqlmode: the same report as the text read whole, from the file and from stdin (%s)',
    async (file) => {
      const text = decodeText(readFileSync(path.join(root, file)), file);
      const expected = whatBreaks(text, { flavor: 'mysql', version: '8.0.33' });
      const streamed = await runCliCaptured(['sqlmode', '--format', 'json', file], { cwd: root });
      expect(streamed.stderr).toBe('');
      expect(JSON.parse(streamed.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(expected.statements).toBeGreaterThan(5);
      const fromStdin = await runCliCaptured(['sqlmode', '--format', 'json', '-'], {
        cwd: root,
        stdin: text,
      });
      expect(fromStdin.stdout).toBe(streamed.stdout);
      expect(streamed.code).toBe(expected.failing > 0 ? 1 : 0);
    },
  );

  it.each(inputs.slice(0, 2))(
    'indexes: the workload of the text read whole, weights and labels included (%s)',
    async (file) => {
      const text = decodeText(readFileSync(path.join(root, file)), file);
      // A weight comment on one statement: it must reach the design as read whole.
      const weighted = path.join(dir, 'weighted.sql');
      const withWeight = `-- weight: 7\n${text}`;
      writeFileSync(weighted, withWeight);
      const result = await runCliCaptured(['indexes', '--schema', file, '--format', 'json', weighted], {
        cwd: root,
      });
      expect(result.code, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout) as {
        queries: { sql: string; weight: number; label?: string }[];
      };
      const expected = workloadFromText(withWeight);
      expect(plan.queries.map(({ sql, weight, label }) => ({ sql, weight, label }))).toEqual(
        expected.map(({ sql, weight, label }) => ({ sql, weight: weight ?? 1, label })),
      );
      expect(plan.queries[0]!.weight).toBe(7);
    },
  );

  it('a missing file, a directory and text that is not UTF-8 are input errors with the file named', async () => {
    const missing = await runCliCaptured(['sqlmode', 'no-such.sql'], { cwd: root });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/SQL file not found: no-such\.sql/);
    const directory = await runCliCaptured(['sqlmode', dir], { cwd: root });
    expect(directory.stderr).toMatch(/is a directory: give a file/);
    const latin1 = path.join(dir, 'latin1.sql');
    writeFileSync(latin1, Buffer.from("SELECT 'caf\xe9';", 'latin1'));
    const bad = await runCliCaptured(['indexes', '--schema', inputs[0]!, latin1], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/query file .*latin1\.sql is not UTF-8 text \(byte 0xe9 at offset 11/);
  });

  it(
    'reads a 570 MB file (more than a JavaScript string holds) with peak RSS bounded: sqlmode and indexes',
    { timeout: 300_000 },
    () => {
      // Read whole, this file cannot even become one string (V8's limit is ~512 M characters), and
      // `indexes` used to refuse it (INPUT_TOO_LARGE, 512 MB). 600 comments of ~1 MB between a few statements.
      const big = path.join(dir, 'big.sql');
      const fd = openSync(big, 'w');
      const comment = `/* ${"commented out; 'x' ".repeat((1024 * 1024) / 22)} */;\n`;
      writeSync(fd, 'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, note VARCHAR(20));\n');
      for (let i = 0; i < 600; i++) {
        writeSync(fd, comment);
        if (i % 70 === 0) writeSync(fd, `SELECT id FROM orders WHERE note = ${i} GROUP BY created;\n`);
      }
      closeSync(fd);
      expect(statSync(big).size).toBeGreaterThan(2 ** 29);
      const tiny = path.join(dir, 'tiny.sql');
      writeFileSync(
        tiny,
        'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, note VARCHAR(20));\nSELECT 1;\n',
      );
      const base = peakRss(['sqlmode', '--format', 'json', tiny]);
      const sqlmode = peakRss(['sqlmode', '--format', 'json', big]);
      expect((sqlmode.report as { statements: number }).statements).toBe(10);
      // Streamed, the growth is one 1 MB statement at a time and the child's capped heap (HEAP_CAP_MB, so
      // V8's machine-dependent headroom does not decide it); whole, 560 MB of bytes alone would exceed it.
      expect(sqlmode.kb - base.kb).toBeLessThan(250 * 1024);
      const indexes = peakRss(['indexes', '--schema', tiny, '--format', 'json', big]);
      expect((indexes.report as { queries: unknown[] }).queries).toHaveLength(10);
      expect(indexes.kb - base.kb).toBeLessThan(250 * 1024);
      rmSync(big);
    },
  );
});

/** The child's V8 old-space limit: streamed work runs within it; the measure no longer depends on the machine. */
const HEAP_CAP_MB = 128;

/** Peak RSS (KiB) and the JSON output of `sargable ARGS` in a child process. */
function peakRss(args: string[]) {
  const child = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_CAP_MB}`,
      '--import',
      'tsx',
      '-e',
      `process.on('exit',()=>{process.stderr.write('@@'+process.resourceUsage().maxRSS+'\\n')});process.argv=[process.argv[0],'sargable',...${JSON.stringify(args)}];await import('./src/cli/bin.ts')`,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(child.status, child.stderr).toBeLessThanOrEqual(1);
  return { kb: Number(/@@(\d+)/.exec(child.stderr)?.[1]), report: JSON.parse(child.stdout) as unknown };
}
