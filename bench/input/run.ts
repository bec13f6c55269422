// Peak memory of the CLI's streamed inputs (issue 19; docs/cli.md, "Large files"): a generated statements
// file (bench/limits/statements-file.ts: extended INSERTs, queries with findings, DELIMITER blocks, long
// comments) fed through a real pipe to
//   1. sargable analyze --format json -                    (the SQL on standard input)
//   2. sargable analyze --schema - --format json Q.sql      (the same file as a schema dump on stdin)
//   3. sargable analyze --dsn DSN --format json -           (live; only with SARGABLE_BENCH_DSN, an admin
//      URL: a scratch database with the file's `orders` table and 20,000 rows is created and dropped)
// each under /usr/bin/time -v (wall, user+sys, maximum resident set size).
//   npx tsx bench/input/run.ts [MB]        default 300 MB; the file is generated, never committed
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { writeStatementsFile } from '../limits/statements-file.js';

const megabytes = Number(process.argv[2] ?? 300);
const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'sargable-input-bench-'));
const file = path.join(dir, 'input.sql');
const query = path.join(dir, 'query.sql');
const cli = `${JSON.stringify(process.execPath)} --import tsx src/cli/bin.ts`;

function measure(label: string, shell: string): void {
  const child = spawnSync('/usr/bin/time', ['-v', 'sh', '-c', shell], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(child.stderr)?.[1]?.trim() ?? '?';
  const cpu = Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'));
  const report = /"statements": (\d+)|(\d+) statements/.exec(child.stdout);
  console.log(
    `${label}: exit ${child.status}, wall ${field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')}, cpu ${cpu.toFixed(1)} s, peak RSS ${(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024).toFixed(0)} MiB ${report ? '' : ''}`,
  );
  if (child.status !== 0) console.log(child.stderr.split('\n').slice(0, 8).join('\n'));
  console.log(`  ${child.stdout.trim().split('\n').slice(-1)[0]}`);
}

try {
  const bytes = writeStatementsFile(file, megabytes * 1024 * 1024, {
    insertBytes: 64 * 1024,
    commentBytes: 1024 * 1024,
  });
  writeFileSync(query, 'SELECT id FROM orders WHERE MONTH(created) = 1;\n');
  console.log(`input: ${(bytes / 1_048_576).toFixed(0)} MiB`);
  // Counts only (the report itself goes to a pipe that keeps its last line): statements and findings.
  const summary = `| node -e "let n=0,s='';process.stdin.on('data',d=>{s=(s+d).slice(-200);n+=d.length}).on('end',()=>console.log('report bytes',n))"`;
  measure('tiny stdin (baseline)', `echo 'SELECT 1;' | ${cli} analyze --format json - ${summary}`);
  measure('SQL on stdin', `cat ${file} | ${cli} analyze --format json - ${summary}`);
  measure('--schema - on stdin', `cat ${file} | ${cli} analyze --schema - --format json ${query} ${summary}`);
  const admin = process.env.SARGABLE_BENCH_DSN;
  if (admin) {
    const database = `sargable_bench_${randomBytes(4).toString('hex')}`;
    const connection = await mysql.createConnection({ uri: admin, multipleStatements: true });
    try {
      await connection.query(`CREATE DATABASE \`${database}\``);
      await connection.query(
        `USE \`${database}\`; CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status VARCHAR(20), note VARCHAR(200), created DATETIME, KEY (customer_id), KEY (created));
         INSERT INTO orders SELECT seq, seq % 977, CONCAT('s', seq % 7), NULL, '2024-01-01' + INTERVAL seq % 300 DAY
           FROM (SELECT a.n * 1000 + b.n * 10 + c.n AS seq FROM
             (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15 UNION ALL SELECT 16 UNION ALL SELECT 17 UNION ALL SELECT 18 UNION ALL SELECT 19) a,
             (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15 UNION ALL SELECT 16 UNION ALL SELECT 17 UNION ALL SELECT 18 UNION ALL SELECT 19 UNION ALL SELECT 20 UNION ALL SELECT 21 UNION ALL SELECT 22 UNION ALL SELECT 23 UNION ALL SELECT 24 UNION ALL SELECT 25 UNION ALL SELECT 26 UNION ALL SELECT 27 UNION ALL SELECT 28 UNION ALL SELECT 29 UNION ALL SELECT 30 UNION ALL SELECT 31 UNION ALL SELECT 32 UNION ALL SELECT 33 UNION ALL SELECT 34 UNION ALL SELECT 35 UNION ALL SELECT 36 UNION ALL SELECT 37 UNION ALL SELECT 38 UNION ALL SELECT 39 UNION ALL SELECT 40 UNION ALL SELECT 41 UNION ALL SELECT 42 UNION ALL SELECT 43 UNION ALL SELECT 44 UNION ALL SELECT 45 UNION ALL SELECT 46 UNION ALL SELECT 47 UNION ALL SELECT 48 UNION ALL SELECT 49 UNION ALL SELECT 50 UNION ALL SELECT 51 UNION ALL SELECT 52 UNION ALL SELECT 53 UNION ALL SELECT 54 UNION ALL SELECT 55 UNION ALL SELECT 56 UNION ALL SELECT 57 UNION ALL SELECT 58 UNION ALL SELECT 59 UNION ALL SELECT 60 UNION ALL SELECT 61 UNION ALL SELECT 62 UNION ALL SELECT 63 UNION ALL SELECT 64 UNION ALL SELECT 65 UNION ALL SELECT 66 UNION ALL SELECT 67 UNION ALL SELECT 68 UNION ALL SELECT 69 UNION ALL SELECT 70 UNION ALL SELECT 71 UNION ALL SELECT 72 UNION ALL SELECT 73 UNION ALL SELECT 74 UNION ALL SELECT 75 UNION ALL SELECT 76 UNION ALL SELECT 77 UNION ALL SELECT 78 UNION ALL SELECT 79 UNION ALL SELECT 80 UNION ALL SELECT 81 UNION ALL SELECT 82 UNION ALL SELECT 83 UNION ALL SELECT 84 UNION ALL SELECT 85 UNION ALL SELECT 86 UNION ALL SELECT 87 UNION ALL SELECT 88 UNION ALL SELECT 89 UNION ALL SELECT 90 UNION ALL SELECT 91 UNION ALL SELECT 92 UNION ALL SELECT 93 UNION ALL SELECT 94 UNION ALL SELECT 95 UNION ALL SELECT 96 UNION ALL SELECT 97 UNION ALL SELECT 98 UNION ALL SELECT 99) b,
             (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c) s;
         ANALYZE TABLE orders;`,
      );
      const dsn = new URL(admin);
      dsn.pathname = `/${database}`;
      const password = decodeURIComponent(dsn.password);
      dsn.password = '';
      measure(
        '--dsn, SQL on stdin',
        `cat ${file} | SARGABLE_PASSWORD='${password.replace(/'/g, "'\\''")}' ${cli} analyze --dsn '${dsn.toString()}' --format json - ${summary}`,
      );
    } finally {
      await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection.end();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
