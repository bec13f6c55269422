// Peak memory of the real `sargable digest` command on a slow log with many distinct classes.
/*
 * Usage: node bench/slowlog/memory.mjs [--classes 110000] [--per-class 3] [--log FILE] [--keep]
 * Generates the log with bench/slowlog/many-classes.mjs (unless --log), then runs
 * `node bin/sargable.mjs digest FILE` (text, top 20) and `… --format json FILE` (every class)
 * under /usr/bin/time and prints wall time and peak RSS of each. Needs `npm run build` first
 * (the command runs from dist/, with its worker threads).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    classes: { type: 'string', default: '110000' },
    'per-class': { type: 'string', default: '3' },
    log: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-bench-memory-'));
const log = values.log ?? path.join(dir, 'many-classes.log');
try {
  if (!values.log) {
    const gen = spawnSync(
      process.execPath,
      [path.join(root, 'bench/slowlog/many-classes.mjs'), log, values.classes, values['per-class']],
      { stdio: 'inherit' },
    );
    if (gen.status !== 0) throw new Error('generating the log failed');
  }
  console.log(`log: ${(statSync(log).size / 1048576).toFixed(1)} MiB`);
  for (const format of ['text', 'json']) {
    const run = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%e %M',
        process.execPath,
        path.join(root, 'bin/sargable.mjs'),
        'digest',
        '--format',
        format,
        log,
      ],
      { cwd: root, encoding: 'latin1', maxBuffer: 1 << 30 },
    );
    if (run.status !== 0) throw new Error(`sargable digest failed: ${run.stderr}`);
    const [wall, rssKb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    const classes = format === 'json' ? JSON.parse(run.stdout).classes.length : undefined;
    console.log(
      `sargable digest --format ${format}: ${wall.toFixed(2)} s wall, peak RSS ${(rssKb / 1024).toFixed(0)} MiB` +
        (classes === undefined ? '' : `, ${classes} classes`),
    );
  }
} finally {
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
