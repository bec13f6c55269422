// A SQL file analysed as a stream (main/services/sql-file-analysis.ts, the UI's "Analyse SQL file…"):
// the findings and errors are those of the same text analysed in one piece (committed mysqldump output
// with data and routines, the statement corpus, a generated file far bigger than a chunk); progress is
// monotonic and ends at the file's size; a cancel ends with what was read; a malformed statement is
// reported at its line and the statements after it are analysed; what is not text is refused.
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeStatementsFile } from '../../../bench/limits/statements-file.js';
import { MAX_FINDINGS_PER_RULE, type SqlFileReply } from '../../../src/shared/api/sql-file.js';
import { offlineStatementAnalysis, runOfflineAnalysis } from '../../../src/main/services/analysis.js';
import { createHandlers, type Services } from '../../../src/main/handlers/index.js';
import { CaptureService } from '../../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { FileGrants } from '../../../src/main/services/file-grants.js';
import type { JobProgressReply } from '../../../src/shared/api/capture.js';
import {
  analyzeSqlFile,
  StatementSpill,
  SqlFileAnalyses,
  type SqlFileProgress,
} from '../../../src/main/services/sql-file-analysis.js';

const root = path.resolve('.');
const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sql-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const target = { flavor: 'mysql' as const, version: '8.0.33' };

function write(name: string, content: string | Buffer): { path: string; name: string } {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return { path: file, name };
}

/** The findings and errors of the whole text (analyze() over it) in the reply's terms. */
function whole(text: string, schema?: string) {
  const report = runOfflineAnalysis(text, target, 'flags', schema);
  const findings = report.statements.flatMap((statement) =>
    statement.findings.map((finding) => ({
      rule: finding.rule,
      line: finding.line,
      column: finding.column,
      message: finding.message,
      statement: statement.index,
      statementLine: statement.line,
    })),
  );
  const errors = report.errors.map((error) => ({
    statement: error.index,
    line: error.line,
    column: error.column,
    message: error.message,
  }));
  return { findings, errors, statements: report.statements.length };
}

/** The streamed result in the same terms (per rule in file order; flattened and put in file order). */
function streamed(result: Omit<SqlFileReply, 'analysisId'>) {
  const findings = result.rules
    .flatMap((group) =>
      group.findings.map((finding) => ({
        rule: finding.rule,
        line: finding.line,
        column: finding.column,
        message: finding.message,
        statement: finding.statement,
        statementLine: finding.statementLine,
      })),
    )
    .sort((a, b) => a.statement - b.statement);
  const errors = result.errors.map(({ statement, line, column, message }) => ({
    statement,
    line,
    column,
    message,
  }));
  return { findings, errors, statements: result.statements };
}

/** Per statement, findings keep the order the analysis gave them; compare as multisets per statement. */
function normalise(findings: { statement: number; rule: string; line: number; column: number }[]) {
  return [...findings].sort(
    (a, b) =>
      a.statement - b.statement || a.rule.localeCompare(b.rule) || a.line - b.line || a.column - b.column,
  );
}

async function analyseFile(file: { path: string; name: string }, schema?: string, extra = {}) {
  return analyzeSqlFile(file, offlineStatementAnalysis(target, 'flags', schema), extra);
}

describe('the findings of a file streamed are those of its text analysed in one piece', () => {
  it.each([
    'tests/fixtures/schemas/dumps/mysql/sakila-mysqldump-data.sql',
    'tests/fixtures/schemas/dumps/mariadb/shop-data.sql',
    'tests/fixtures/corpus/known-misses.sql',
  ])('%s', async (fixture) => {
    const text = readFileSync(path.join(root, fixture), 'utf8');
    const result = await analyseFile({ path: path.join(root, fixture), name: path.basename(fixture) });
    const expected = whole(text);
    const actual = streamed(result);
    expect(actual.statements).toBe(expected.statements);
    expect(normalise(actual.findings)).toEqual(normalise(expected.findings));
    expect(actual.errors).toEqual(expected.errors);
    expect(result.findings).toBe(expected.findings.length);
    expect(result.complete).toBe(true);
  });

  it('the manual examples of the corpus, with a schema, as one file of many chunks', async () => {
    const corpus = JSON.parse(
      readFileSync(path.join(root, 'tests/fixtures/corpus/mysql-manual.json'), 'utf8'),
    ) as { groups: { statements: string[] }[] };
    const list = corpus.groups.flatMap((group) => group.statements);
    // Statements that carry their own DELIMITER are left out: joined, they would change the others' delimiter.
    const text = list
      .filter((sql) => !/delimiter/i.test(sql))
      .slice(0, 1500)
      .map((sql) => `${sql.trim().replace(/;$/, '')};`)
      .join('\n');
    const schema = readFileSync(
      path.join(root, 'tests/fixtures/schemas/dumps/mysql/sakila-mysqldump-nodata.sql'),
      'utf8',
    );
    const file = write('manual.sql', text);
    const result = await analyseFile(file, schema);
    const expected = whole(text, schema);
    const actual = streamed(result);
    expect(actual.statements).toBeGreaterThan(500);
    expect(actual.statements).toBe(expected.statements);
    expect(normalise(actual.findings)).toEqual(normalise(expected.findings));
    expect(actual.errors).toEqual(expected.errors);
  });

  it('a generated file far bigger than a chunk: the same counts, the first findings per rule, monotonic progress to the end', async () => {
    const file = path.join(dir, 'generated.sql');
    const bytes = writeStatementsFile(file, 600 * 1024, { insertBytes: 4 * 1024 });
    const text = readFileSync(file, 'utf8');
    const progress: SqlFileProgress[] = [];
    const result = await analyseFile({ path: file, name: 'generated.sql' }, undefined, {
      onProgress: (p: SqlFileProgress) => progress.push(p),
    });
    const expected = whole(text);
    expect(result.statements).toBe(expected.statements);
    expect(result.findings).toBe(expected.findings.length);
    for (const group of result.rules) {
      const ofRule = expected.findings.filter((finding) => finding.rule === group.rule);
      expect(group.count).toBe(ofRule.length);
      expect(group.findings.length).toBe(Math.min(ofRule.length, MAX_FINDINGS_PER_RULE));
      expect(group.findings.map((finding) => [finding.statement, finding.line, finding.column])).toEqual(
        ofRule
          .slice(0, MAX_FINDINGS_PER_RULE)
          .map((finding) => [finding.statement, finding.line, finding.column]),
      );
    }
    expect(progress.length).toBeGreaterThan(3);
    for (const key of ['bytesRead', 'statements', 'findings', 'errors'] as const)
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]![key]).toBeGreaterThanOrEqual(progress[i - 1]![key]);
    expect(progress.at(-1)).toMatchObject({
      bytesRead: bytes,
      totalBytes: bytes,
      statements: result.statements,
    });
    expect(result).toMatchObject({ bytesRead: bytes, totalBytes: bytes, complete: true });
  });
});

describe('errors, cancel and input that is not SQL text', () => {
  it('a rule with more findings than the reply keeps: the exact count and the first MAX_FINDINGS_PER_RULE', async () => {
    const text = Array.from(
      { length: MAX_FINDINGS_PER_RULE + 300 },
      (_, i) => `SELECT * FROM t WHERE YEAR(d) = ${i};`,
    ).join('\n');
    const result = await analyseFile(write('many.sql', text));
    const [group] = result.rules;
    expect(group).toMatchObject({ rule: 'FUN001', count: MAX_FINDINGS_PER_RULE + 300 });
    expect(group!.findings).toHaveLength(MAX_FINDINGS_PER_RULE);
    expect(group!.findings.at(-1)).toMatchObject({
      line: MAX_FINDINGS_PER_RULE,
      statement: MAX_FINDINGS_PER_RULE - 1,
    });
    expect(group!.findings[7]!.excerpt).toBe('SELECT * FROM t WHERE YEAR(d) = 7');
  });

  it('a malformed statement is reported at its line with an excerpt; the statements after it are analysed', async () => {
    const text = [
      'SELECT id FROM orders WHERE MONTH(created) = 1;',
      '',
      '-- a broken one on line 4:',
      'SELECT FROM WHERE orders id = ;',
      "UPDATE orders SET status = 'x' WHERE LOWER(status) = 'open';",
      'SELECT * FROM orders WHERE DATE(created) =',
      "  '2024-01-01';",
    ].join('\n');
    const result = await analyseFile(write('broken.sql', text));
    expect(result.errorCount).toBe(1);
    expect(result.errors[0]).toMatchObject({
      statement: 1,
      line: 4,
      excerpt: 'SELECT FROM WHERE orders id =',
    });
    const fun = result.rules.find((group) => group.rule === 'FUN001')!;
    expect(fun.findings.map((finding) => [finding.line, finding.statement])).toEqual([
      [1, 0],
      [5, 2],
      [6, 3],
    ]);
    expect(result.statements).toBe(3);
    expect(streamed(result).errors).toEqual(whole(text).errors);
  });

  it('a cancel ends the analysis with what was read, said so (complete: false)', async () => {
    const file = write('cancel.sql', 'SELECT * FROM t WHERE YEAR(d) = 2024;\n'.repeat(200_000));
    const controller = new AbortController();
    const result = await analyseFile(file, undefined, {
      signal: controller.signal,
      onProgress: (p: SqlFileProgress) => {
        if (p.statements >= 2000) controller.abort();
      },
    });
    expect(result.complete).toBe(false);
    expect(result.statements).toBeGreaterThanOrEqual(2000);
    expect(result.statements).toBeLessThan(200_000);
    expect(result.bytesRead).toBeLessThan(result.totalBytes);
    expect(result.findings).toBe(result.statements);
  });

  it('refuses a compressed file, a binary file and text that is not UTF-8, saying what to do', async () => {
    const gz = await analyseFile(write('dump.sql.gz', gzipSync('SELECT 1;'))).catch(
      (error: unknown) => error,
    );
    expect(gz).toMatchObject({
      code: 'INVALID_INPUT',
      userMessage: 'dump.sql.gz is gzip-compressed, not SQL text.',
    });
    const binary = await analyseFile(write('data.bin', Buffer.from([0x53, 0x45, 0, 1, 2]))).catch(
      (error: unknown) => error,
    );
    expect(binary).toMatchObject({
      code: 'INVALID_INPUT',
      userMessage: expect.stringContaining('NUL byte at offset 2'),
    });
    const latin1 = await analyseFile(write('latin1.sql', Buffer.from("SELECT 'caf\xe9';", 'latin1'))).catch(
      (error: unknown) => error,
    );
    expect(latin1).toMatchObject({
      code: 'INVALID_INPUT',
      userMessage: expect.stringContaining('latin1.sql is not UTF-8'),
      details: { hint: expect.stringContaining('iconv') },
    });
    const gone = await analyseFile({ path: path.join(dir, 'missing.sql'), name: 'missing.sql' }).catch(
      (error: unknown) => error,
    );
    expect(gone).toMatchObject({ code: 'NOT_FOUND' });
    // UTF-16 with a BOM is text (NUL bytes in every character): analysed.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('SELECT * FROM t WHERE YEAR(d) = 1;', 'utf16le'),
    ]);
    expect((await analyseFile(write('u16.sql', utf16))).findings).toBe(1);
  });

  it('kept statements open from the spill file; a statement too large for a tab, or not kept, says so', async () => {
    const analyses = new SqlFileAnalyses();
    try {
      const { analysisId, spill } = analyses.open();
      const big = `SELECT * FROM t WHERE YEAR(d) = 1 AND c IN (${Array.from({ length: 200_000 }, (_, i) => i).join(',')})`;
      const text = `SELECT 1;\nSELECT * FROM t\n  WHERE YEAR(d) = 2024;\n${big};\n`;
      const result = await analyzeSqlFile(
        write('spill.sql', text),
        offlineStatementAnalysis(target, 'flags'),
        { spill },
      );
      expect(result.findings).toBe(2);
      expect(analyses.statement(analysisId, 1)).toEqual({
        index: 1,
        line: 2,
        column: 1,
        sql: 'SELECT * FROM t\n  WHERE YEAR(d) = 2024',
      });
      expect(() => analyses.statement(analysisId, 2)).toThrow(/at line 4 is 1\.\d MB/);
      expect(() => analyses.statement(analysisId, 0)).toThrow(/not kept/);
      expect(() => analyses.statement('sqlfile:other', 1)).toThrow(/no longer kept/);
    } finally {
      analyses.disposeAll();
    }
  });

  it('keeps the newest analyses only, and removes the spill files of the others', () => {
    const analyses = new SqlFileAnalyses();
    const opened = Array.from({ length: 6 }, () => analyses.open());
    expect(() => analyses.statement(opened[0]!.analysisId, 0)).toThrow(/no longer kept/);
    expect(() => analyses.statement(opened[5]!.analysisId, 0)).toThrow(/not kept/);
    analyses.disposeAll();
    expect(opened.every(({ spill }) => spill instanceof StatementSpill)).toBe(true);
  });
});

describe('the API (sqlFile.analyze as a job, sqlFile.statement)', () => {
  it('a chosen file: progress on job.events, job.cancel ends it done with what was read', async () => {
    const files = new FileGrants();
    const capture = new CaptureService();
    const services: Services = {
      connections: new ConnectionService(),
      capture,
      files,
      app: { name: 'Sargable', version: 'test', mode: 'web' as const },
    };
    const api = createHandlers(services);
    try {
      const file = write('job.sql', 'SELECT * FROM t WHERE YEAR(d) = 2024;\n'.repeat(100_000));
      const ref = files.grant(file.path, 'read', 'job.sql');
      const { jobId } = await api['sqlFile.analyze']({
        ref,
        target: { flavor: 'mariadb', version: '10.11.6' },
      });
      const seen: JobProgressReply[] = [];
      let cancelled: Promise<unknown> | null = null;
      await capture.watchJob(jobId, (status) => {
        seen.push(status.progress);
        if (!cancelled && (status.progress.events ?? 0) > 500) cancelled = api['job.cancel']({ jobId });
      });
      await cancelled;
      const status = await api['job.status']({ jobId });
      expect(status.state).toBe('done');
      const result = status.result as SqlFileReply;
      expect(result).toMatchObject({ complete: false, server: { flavor: 'mariadb', version: '10.11.6' } });
      expect(result.statements).toBeGreaterThan(500);
      expect(result.findings).toBe(result.statements);
      const events = seen.map((progress) => progress.events ?? 0);
      expect([...events].sort((a, b) => a - b)).toEqual(events);
      expect(seen.some((progress) => (progress.findings ?? 0) > 0)).toBe(true);
      expect(await api['sqlFile.statement']({ analysisId: result.analysisId, index: 3 })).toMatchObject({
        line: 4,
        sql: 'SELECT * FROM t WHERE YEAR(d) = 2024',
      });
    } finally {
      services.sqlFiles?.disposeAll();
    }
  });
});

describe('memory', () => {
  it(
    'a 60 MB file analyses with peak RSS bounded by the longest statement, not the file',
    { timeout: 300_000 },
    () => {
      const tiny = path.join(dir, 'tiny.sql');
      writeStatementsFile(tiny, 1, { insertBytes: 64 * 1024 });
      const big = path.join(dir, 'big.sql');
      const bytes = writeStatementsFile(big, 60 * 1024 * 1024, {
        insertBytes: 64 * 1024,
        commentBytes: 1024 * 1024,
      });
      expect(statSync(big).size).toBe(bytes);
      const base = peakRss(tiny);
      const run = peakRss(big);
      expect(run.statements).toBeGreaterThan(300);
      expect(run.bytesRead).toBe(bytes);
      // Read whole, the file would be held twice at least (60 MB of bytes, 120 MB of UTF-16 text); the
      // child's heap is capped (HEAP_CAP_MB) so V8's machine-dependent headroom does not decide it.
      expect(run.kb - base.kb).toBeLessThan(150 * 1024);
      rmSync(big);
    },
  );
});

/** The child's V8 old-space limit: streamed work runs within it; the measure no longer depends on the machine. */
const HEAP_CAP_MB = 128;

/** Peak RSS (KiB) of the service analysing `file` in a child process (bench/input/ui-stream.ts measures bigger files). */
function peakRss(file: string) {
  const child = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_CAP_MB}`,
      '--import',
      'tsx',
      '-e',
      `const { analyzeSqlFile } = await import('./src/main/services/sql-file-analysis.ts');
       const { offlineStatementAnalysis } = await import('./src/main/services/analysis.ts');
       const result = await analyzeSqlFile({ path: ${JSON.stringify(file)}, name: 'f.sql' }, offlineStatementAnalysis({ flavor: 'mysql', version: '8.0.33' }, 'flags'));
       process.stdout.write(JSON.stringify({ statements: result.statements, bytesRead: result.bytesRead, kb: process.resourceUsage().maxRSS }));`,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as { statements: number; bytesRead: number; kb: number };
}
