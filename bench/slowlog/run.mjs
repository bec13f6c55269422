// Times Sargable's slow-log digest against pt-query-digest on the same generated log.
// Usage: node bench/slowlog/run.mjs [--mb 20] [--ours-mb 0] [--skip-pt]
//   --mb       size of the log both tools digest (pt-query-digest is slow: keep it small)
//   --ours-mb  also digest a larger log with Sargable only (memory stays flat), e.g. 500
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '20' },
    'ours-mb': { type: 'string', default: '0' },
    'skip-pt': { type: 'boolean', default: false },
  },
});

function generate(mb) {
  const file = path.join(os.tmpdir(), `sargable-bench-slowlog-${mb}mb.log`);
  if (!existsSync(file)) {
    const r = spawnSync(process.execPath, [path.join(here, 'generate.mjs'), file, String(mb)], {
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('generator failed');
  }
  return file;
}

/** Runs a command under /usr/bin/time; returns wall seconds, peak RSS (MiB) and stdout. */
function timed(command, args, env = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const rssKb = Number(r.stderr.trim().split('\n').pop());
  return { wall, rssMb: rssKb / 1024, stdout: r.stdout };
}

function ours(file) {
  const r = timed(process.execPath, ['--import', 'tsx', path.join(here, 'digest-child.ts'), file]);
  return { ...r, summary: JSON.parse(r.stdout) };
}

const mb = Number(values.mb);
const file = generate(mb);
const bytes = readFileSync(file).length;
const a = ours(file);
const eventsOurs = a.summary.events;
const lines = [
  `Log: ${file} (${(bytes / 1048576).toFixed(1)} MiB, ${eventsOurs} events, ${a.summary.classes.length} classes)`,
  `sargable digest:   ${a.wall.toFixed(2)} s wall (${(a.summary.ms / 1000).toFixed(2)} s parsing), ${Math.round(eventsOurs / a.wall)} events/s, peak RSS ${a.rssMb.toFixed(0)} MiB`,
];
if (!values['skip-pt']) {
  const out = path.join(os.tmpdir(), `sargable-bench-pt-${mb}mb.json`);
  const b = timed(
    'sh',
    ['-c', `pt-query-digest --no-version-check --output json --limit 1000000 "$0" > "${out}"`, file],
    {
      TZ: 'UTC',
    },
  );
  const pt = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  const ptEvents = pt.global.query_count;
  lines.push(
    `pt-query-digest:   ${b.wall.toFixed(2)} s wall, ${Math.round(ptEvents / b.wall)} events/s, peak RSS ${b.rssMb.toFixed(0)} MiB`,
    `speed ratio:       ${(eventsOurs / a.wall / (ptEvents / b.wall)).toFixed(1)}x pt-query-digest's events/s (wall clock, both including start-up)`,
  );
  const theirs = new Map(pt.classes.map((c) => [c.checksum, c.query_count]));
  const same =
    theirs.size === a.summary.classes.length &&
    a.summary.classes.every(([checksum, count]) => theirs.get(checksum) === count) &&
    pt.global.metrics.Query_time.sum === a.summary.queryTimeSum;
  lines.push(`same classes, counts and Query_time sum as pt-query-digest: ${same ? 'yes' : 'NO'}`);
}
const oursMb = Number(values['ours-mb']);
if (oursMb > 0) {
  const big = generate(oursMb);
  const c = ours(big);
  lines.push(
    `sargable digest on ${oursMb} MiB: ${c.wall.toFixed(2)} s wall, ${Math.round(c.summary.events / c.wall)} events/s (${c.summary.events} events), peak RSS ${c.rssMb.toFixed(0)} MiB`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
