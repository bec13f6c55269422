// Time and peak memory of the UI's "Analyse SQL file…" (sqlFile.analyze, main/services/sql-file-analysis.ts)
// on a generated statements file (bench/limits/statements-file.ts: 64 KB extended INSERTs, queries with
// findings, DELIMITER blocks, 1 MB comments; never committed). The service runs as the app runs it: a
// job on the CaptureService through the handlers, the file granted as a picked file, progress followed
// on job.events; in a child process under /usr/bin/time -v (wall, user+sys, maximum resident set size).
//   npx tsx bench/input/ui-stream.ts [MB]        default 200 MB
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeStatementsFile } from '../limits/statements-file.js';

const megabytes = Number(process.argv[2] ?? 200);
const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'sargable-ui-stream-bench-'));
const file = path.join(dir, 'input.sql');

const child = `
const { createHandlers } = await import('./src/main/handlers/index.ts');
const { CaptureService } = await import('./src/main/services/capture-jobs.ts');
const { ConnectionService } = await import('./src/main/services/connection.ts');
const { FileGrants } = await import('./src/main/services/file-grants.ts');
const files = new FileGrants();
const capture = new CaptureService();
const services = { connections: new ConnectionService(), capture, files, app: { name: 'Sargable', version: 'bench', mode: 'web' } };
const api = createHandlers(services);
const ref = files.grant(process.argv.at(-1), 'read', 'input.sql');
const { jobId } = await api['sqlFile.analyze']({ ref, target: { flavor: 'mysql', version: '8.0.33' } });
let events = 0, last = 0;
await capture.watchJob(jobId, (status) => {
  events++;
  if (Date.now() - last > 10000) {
    last = Date.now();
    process.stderr.write('  ' + ((status.progress.bytesRead ?? 0) / 1048576).toFixed(0) + ' MiB, ' + (status.progress.events ?? 0) + ' statements\\n');
  }
});
const status = await api['job.status']({ jobId });
if (status.state !== 'done') { console.log(JSON.stringify(status.error)); process.exit(1); }
const r = status.result;
console.log(JSON.stringify({ statements: r.statements, findings: r.findings, errors: r.errorCount, rules: r.rules.length, bytesRead: r.bytesRead, complete: r.complete, progressEvents: events, replyBytes: JSON.stringify(r).length }));
services.sqlFiles.disposeAll();
`;

try {
  const bytes = writeStatementsFile(file, megabytes * 1024 * 1024, {
    insertBytes: 64 * 1024,
    commentBytes: 1024 * 1024,
  });
  console.log(`input: ${(bytes / 1_048_576).toFixed(0)} MiB`);
  const run = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, '--import', 'tsx', '--input-type=module', '-e', child, file],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
  );
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(run.stderr)?.[1]?.trim() ?? '?';
  const cpu = Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'));
  console.log(
    run.stderr
      .split('\n')
      .filter((line) => /^ {2}\d+ MiB, /.test(line))
      .join('\n'),
  );
  console.log(
    `sqlFile.analyze: exit ${run.status}, wall ${field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')}, cpu ${cpu.toFixed(1)} s, peak RSS ${(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024).toFixed(0)} MiB`,
  );
  console.log(`  ${run.stdout.trim()}`);
  if (run.status !== 0) console.log(run.stderr.split('\n').slice(0, 12).join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
