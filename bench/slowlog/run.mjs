// Times Sargable's slow-log digest against pt-query-digest on the same log (sysbench or generated).
/*
 * Usage:
 *   node bench/slowlog/run.mjs --sysbench SECONDS   real log: sysbench oltp_read_write against a
 *                                                   throwaway MySQL 8.0.33, log_slow_extra=ON
 *   node bench/slowlog/run.mjs [--mb 20]            deterministic generated log (no sysbench needed)
 *   node bench/slowlog/run.mjs --log FILE           an existing log (e.g. one kept with --keep)
 * Options:
 *   --threads N     sysbench threads (default 4)
 *   --ours-mb N     also digest an N MiB generated log with Sargable only (memory stays flat)
 *   --skip-pt       do not run pt-query-digest
 *   --one-thread    digest on one thread (default: a big file is split across the machine's
 *                   cores, at most 8, each share at least 8 MiB)
 *   --parallel N    split a big file across N threads (this one included), whatever the cores
 *   --runs N        run our side N times (default 5; half before, half after pt-query-digest)
 *                   and compare its median run with pt-query-digest's one run
 *   --all-attributes  aggregate every attribute as pt-query-digest does (default: the reported
 *                   ones, what `sargable digest` and the app do; see docs/slowlog.md)
 *   --keep          keep the log files (in the OS temp dir) instead of deleting them
 * Our side runs the bundled service code (`digestFilesInThread`, what `sargable digest` runs) in a
 * child process under /usr/bin/time for peak RSS; pt-query-digest runs with `--output json` on
 * the same file. Both wall times include process start-up. Files of 16 MiB or more are cut at
 * record boundaries and the shares after the first digested by helper threads (the bundled
 * worker), as the app does; the CPU time then counts every thread. The summary says how many
 * threads the median run used and when each share's thread finished.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    sysbench: { type: 'string' },
    log: { type: 'string' },
    threads: { type: 'string', default: '4' },
    mb: { type: 'string', default: '20' },
    'ours-mb': { type: 'string', default: '0' },
    'skip-pt': { type: 'boolean', default: false },
    'one-thread': { type: 'boolean', default: false },
    parallel: { type: 'string' },
    'all-attributes': { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const work = mkdtempSync(path.join(os.tmpdir(), 'sargable-bench-slowlog-'));
const log = (message) => process.stderr.write(`${message}\n`);

function generate(mb) {
  const file = path.join(work, `generated-${mb}mb.log`);
  const r = spawnSync(process.execPath, [path.join(here, 'generate.mjs'), file, String(mb)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('generator failed');
  return file;
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...options });
  if (r.status !== 0) throw new Error(`${command} ${args[0] ?? ''} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** A sysbench oltp_read_write slow log from a throwaway MySQL 8.0.33 with log_slow_extra=ON. */
async function sysbenchLog(seconds) {
  const { tsImport } = await import('tsx/esm/api');
  const servers = await tsImport(
    pathToFileURL(path.join(root, 'tests/support/servers.ts')).href,
    import.meta.url,
  );
  const { default: mysql } = await import('mysql2/promise');
  log('starting MySQL 8.0.33…');
  const server = await servers.startServer('mysql', { log });
  const file = path.join(work, `sysbench-${seconds}s.log`);
  try {
    const admin = await mysql.createConnection({ uri: server.url });
    await admin.query('CREATE DATABASE sbtest');
    const common = [
      '--mysql-host=127.0.0.1',
      `--mysql-port=${server.port}`,
      `--mysql-user=${server.user}`,
      `--mysql-password=${server.password}`,
      '--mysql-db=sbtest',
      '--tables=4',
      '--table-size=20000',
    ];
    log('sysbench prepare…');
    run('sysbench', ['oltp_read_write', ...common, 'prepare']);
    // New connections pick up long_query_time; sysbench connects after this.
    await admin.query(
      "SET GLOBAL slow_query_log_file = ?, log_output = 'FILE', long_query_time = 0, log_slow_extra = ON, slow_query_log = ON",
      [file],
    );
    log(`sysbench run --time=${seconds}…`);
    run('sysbench', [
      'oltp_read_write',
      ...common,
      `--threads=${values.threads}`,
      `--time=${seconds}`,
      'run',
    ]);
    await admin.query('SET GLOBAL slow_query_log = OFF');
    await admin.end();
  } finally {
    await server.stop();
  }
  return file;
}

/** Busy and total CPU jiffies so far (Linux /proc/stat), or undefined elsewhere. */
function cpuTimes() {
  if (!existsSync('/proc/stat')) return undefined;
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  const total = fields.reduce((sum, n) => sum + n, 0);
  return { busy: total - idle, total };
}

/**
 * Waits (at most 30 s) until the machine is mostly idle: right after --sysbench the stopped
 * server's shutdown and the new log's write-back still take a core, and the first runs measured
 * 1.8-1.9 s against 0.9-1.0 s a minute later.
 */
async function settle() {
  spawnSync('sync');
  for (let waited = 0; waited < 30; waited++) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuTimes();
    if (!before || !after) return;
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    if (busy < 0.1) return;
  }
  log('the machine stayed busy for 30 s; measuring anyway');
}

/** Runs a command under /usr/bin/time: wall seconds, CPU seconds (user+sys), peak RSS (MiB), stdout. */
function timed(command, args, env = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', command, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const [rssKb, user, system] = (r.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wall, cpu: user + system, rssMb: rssKb / 1024, stdout: r.stdout };
}

const child = path.join(work, 'digest-child.mjs');
// The worker script, as scripts/build.mjs bundles it: the digest's helper thread runs it.
const worker = path.join(work, 'slowlog-worker.cjs');
await build({
  entryPoints: [path.join(root, 'src/main/services/slowlog-worker.ts')],
  outfile: worker,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'error',
});
await build({
  entryPoints: [path.join(here, 'digest-child.ts')],
  outfile: child,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'error',
});

function ours(file) {
  const r = timed(process.execPath, [
    child,
    file,
    values['one-thread'] ? '' : worker,
    values['all-attributes'] ? 'all' : 'reported',
    values.parallel ?? '',
  ]);
  return { ...r, summary: JSON.parse(r.stdout) };
}

try {
  const file = values.log
    ? path.resolve(values.log)
    : values.sysbench
      ? await sysbenchLog(Number(values.sysbench))
      : generate(Number(values.mb));
  const bytes = statSync(file).size;
  await settle();
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  // Our run lasts about a second, so one burst of CPU steal on a shared machine can cost it a
  // quarter of its speed, while pt-query-digest's minute-long run averages such bursts out. We
  // run ours --runs times (default 5), half before and half after pt-query-digest's run so that
  // a change in the machine's speed meanwhile weighs on both, and take the median run.
  const total = Math.max(1, Number(values.runs));
  const runs = [];
  const skipPt = values['skip-pt'];
  for (let i = 0; i < (skipPt ? total : Math.ceil(total / 2)); i++) runs.push(ours(file));
  let b;
  let pt;
  if (!skipPt) {
    const out = path.join(work, 'pt.json');
    b = timed(
      'sh',
      ['-c', `pt-query-digest --no-version-check --output json --limit 1000000 "$0" > "${out}"`, file],
      { TZ: 'UTC' },
    );
    pt = JSON.parse(readFileSync(out, 'utf8'));
    while (runs.length < total) runs.push(ours(file));
  }
  const byWall = [...runs].sort((x, y) => x.wall - y.wall);
  const a = byWall[Math.floor((byWall.length - 1) / 2)];
  const eventsOurs = a.summary.events;
  const oursRate = eventsOurs / a.wall;
  const lines = [
    `Log: ${values.log ? path.basename(values.log) : values.sysbench ? `sysbench oltp_read_write ${values.sysbench}s, MySQL 8.0.33 log_slow_extra=ON` : 'generated'}, ${(bytes / 1048576).toFixed(1)} MiB, ${eventsOurs} events, ${a.summary.classes.length} classes`,
    `load average at start: ${load} (${os.cpus().length} CPUs)`,
    `sargable runs:     ${runs.map((r) => r.wall.toFixed(2)).join(', ')} s wall${skipPt ? '' : ` (pt-query-digest ran after the first ${Math.ceil(total / 2)})`}; the median run:`,
    `sargable digest:   ${values['all-attributes'] ? '(every attribute) ' : ''}${a.wall.toFixed(2)} s wall (${(a.summary.ms / 1000).toFixed(2)} s digesting), ${a.cpu.toFixed(2)} s CPU, ${Math.round(oursRate)} events/s, peak RSS ${Math.max(...runs.map((r) => r.rssMb)).toFixed(0)} MiB (largest of the runs)`,
    `threads:           ${a.summary.threads}${a.summary.shares ? ` (share finished at ms, * = read by this thread: ${a.summary.shares.map((s, i) => `${Math.round(s.finishedMs ?? 0)}${i > 0 && !s.merged ? '*' : ''}`).join(', ')})` : ''}; CPU s of every run: ${runs.map((r) => r.cpu.toFixed(2)).join(', ')}`,
  ];
  if (b && pt) {
    const ptEvents = pt.global.query_count;
    const ptRate = ptEvents / b.wall;
    lines.push(
      `pt-query-digest:   ${b.wall.toFixed(2)} s wall, ${b.cpu.toFixed(2)} s CPU, ${Math.round(ptRate)} events/s, peak RSS ${b.rssMb.toFixed(0)} MiB`,
      `speed ratio:       ${(oursRate / ptRate).toFixed(1)}x pt-query-digest's events/s (wall clock, both including start-up)`,
      `CPU-time ratio:    ${(b.cpu / a.cpu).toFixed(1)}x (pt-query-digest CPU s / ours; steadier than wall time on a shared machine)`,
    );
    const theirs = new Map(pt.classes.map((c) => [c.checksum, c.query_count]));
    const same = runs.every(
      (run) =>
        theirs.size === run.summary.classes.length &&
        run.summary.classes.every(([checksum, count]) => theirs.get(checksum) === count) &&
        pt.global.metrics.Query_time.sum === run.summary.queryTimeSum,
    );
    lines.push(
      `same classes, counts and Query_time sum as pt-query-digest (every run): ${same ? 'yes' : 'NO'}`,
    );
  }
  const oursMb = Number(values['ours-mb']);
  if (oursMb > 0) {
    const big = generate(oursMb);
    const c = ours(big);
    lines.push(
      `sargable digest on a ${oursMb} MiB generated log: ${c.wall.toFixed(2)} s wall, ${Math.round(c.summary.events / c.wall)} events/s (${c.summary.events} events), peak RSS ${c.rssMb.toFixed(0)} MiB`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  if (values.keep) log(`kept ${work}`);
  else if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
