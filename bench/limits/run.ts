// Benchmark of the input limits (docs/parsing.md, "Limits"): each case runs `sargable analyze` on a
// generated file in a child process and prints wall time, CPU time (user+sys) and peak RSS.
//   npx tsx bench/limits/run.ts            20,000 ORs; 2,500 nested parentheses; a 50 MB single-line INSERT;
//                                           a 1 GB file of statements (streamed; generated, never committed)
//   npx tsx bench/limits/run.ts "1 GB"     only the cases whose name contains the argument
// Targets (issue #19): the 50 MB INSERT in <= 5 s and <= 1 GB peak RSS; no case ends in an unexpected error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeStatementsFile } from './statements-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sargable-limits-'));
const cases: [string, (file: string) => void][] = [
  [
    '20,000 ORs',
    (file) =>
      writeFileSync(
        file,
        `SELECT id FROM t WHERE ${Array.from({ length: 20_000 }, (_, i) => `a = ${i}`).join(' OR ')};\n`,
      ),
  ],
  [
    '2,500 nested parentheses',
    (file) => writeFileSync(file, `SELECT id FROM t WHERE ${'('.repeat(2500)}a = 1${')'.repeat(2500)};\n`),
  ],
  [
    '50 MB single-line INSERT',
    (file) => {
      const rows: string[] = [];
      let size = 0;
      for (let i = 0; size < 50 * 1024 * 1024; i++) {
        const row = `(${i},'name ${i}','${'x'.repeat(10 + (i % 50))}',${(i % 1000) + 0.5},'2024-01-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00',NULL)`;
        rows.push(row);
        size += row.length + 1;
      }
      writeFileSync(file, `INSERT INTO t (id,name,note,price,created,extra) VALUES ${rows.join(',')};\n`);
    },
  ],
  [
    '1 GB statements file',
    // Blocks of a 64 KB extended INSERT, 7 queries/DDL (4 with findings, a DELIMITER procedure) and a
    // 1 MB comment: every byte goes through the streaming splitter; the statements through the analysis.
    (file) =>
      void writeStatementsFile(file, 1024 ** 3, { insertBytes: 64 * 1024, commentBytes: 1024 * 1024 }),
  ],
];
const only = process.argv[2];
try {
  for (const [name, write] of cases) {
    if (only && !name.includes(only)) continue;
    const file = path.join(dir, 'input.sql');
    write(file);
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const u=process.resourceUsage;process.on('exit',()=>{const r=u();process.stderr.write('@@'+JSON.stringify({cpu:(r.userCPUTime+r.systemCPUTime)/1000,rss:r.maxRSS/1024})+'\\n')});process.argv=[process.argv[0],'sargable','analyze','--format','json',${JSON.stringify(file)}];await import('./src/cli/bin.ts')`,
      ],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, cwd: path.resolve(import.meta.dirname, '../..') },
    );
    const wall = performance.now() - started;
    const usage = JSON.parse(/@@(.*)/.exec(child.stderr)?.[1] ?? '{}') as { cpu?: number; rss?: number };
    let outcome = `exit ${child.status}`;
    try {
      const report = JSON.parse(child.stdout) as {
        errors: { code?: string }[];
        statements: { notes?: string[] }[];
      };
      outcome =
        report.errors.length > 0
          ? `error ${report.errors[0]?.code ?? 'syntax'}`
          : `analysed ${report.statements.length} statement(s)${report.statements[0]?.notes ? ' (note: rows elided)' : ''}`;
    } catch {
      outcome += ` ${child.stderr.split('\n')[0]}`;
    }
    console.log(
      `${name.padEnd(26)} wall ${(wall / 1000).toFixed(1)} s, CPU ${((usage.cpu ?? 0) / 1000).toFixed(1)} s, peak RSS ${(usage.rss ?? 0).toFixed(0)} MB: ${outcome}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
