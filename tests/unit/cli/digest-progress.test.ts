// `sargable digest --progress`: progress lines on stderr come from the digest job's events; the output is unchanged.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const workload = fileURLToPath(
  new URL('../../fixtures/slowlogs/generated/mysql-workload.log', import.meta.url),
);
let dir: string;
let big: string;

beforeAll(() => {
  // A real server's slow log repeated to about 20 MB: long enough for several progress events.
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-digest-progress-'));
  big = path.join(dir, 'slow.log');
  const text = readFileSync(workload, 'utf8');
  writeFileSync(big, text.repeat(Math.ceil((20 * 1024 * 1024) / text.length)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sargable digest progress', () => {
  it('--progress prints growing lines ending at 100%, and the same report as without it', async () => {
    const withProgress = await runCliCaptured(['digest', '--progress', '--format', 'json', big], {
      cwd: '.',
    });
    const without = await runCliCaptured(['digest', '--format', 'json', big], { cwd: '.' });
    expect([withProgress.code, without.code]).toEqual([0, 0]);
    const lines = withProgress.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const percents = lines.map((line) => Number(/^([\d.]+)%/.exec(line)?.[1]));
    expect(percents.every((value) => Number.isFinite(value))).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(lines.at(-1)).toMatch(/^100\.0% {2}20\.\d\/20\.\d MiB {2}\d+ events/);
    expect(without.stderr).toBe('');
    const strip = (json: string) => {
      const report = JSON.parse(json) as { source?: unknown };
      delete report.source; // bytes/time of the read
      return report;
    };
    expect(strip(withProgress.stdout)).toEqual(strip(without.stdout));
  });

  it('a missing file is still the same usage error (exit 2) through the job', async () => {
    const missing = await runCliCaptured(['digest', '--progress', path.join(dir, 'nope.log')], { cwd: '.' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  });
});
