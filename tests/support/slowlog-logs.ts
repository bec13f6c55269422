// For tests that read the slow logs real servers wrote: class keys and counts, pt-query-digest's JSON, waiting for a line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fingerprint } from '../../src/core/fingerprint/index.js';
import { utf8ToBinaryString } from '../../src/core/slowlog/index.js';
import type { SlowLogFileResult } from '../../src/main/services/slowlog-file.js';
import type { ExpectedJson } from '../unit/slowlog/pt-json.js';

/** The class (fingerprint) a statement the test ran falls in. */
export const classKey = (sql: string): string => fingerprint(utf8ToBinaryString(sql));

/** How many events each class of a digest holds, by fingerprint. */
export function classCounts(result: SlowLogFileResult): Record<string, number> {
  return Object.fromEntries(result.classes.map((c) => [c.fingerprint, c.queryCount]));
}

/** Whether pt-query-digest is installed (CI installs it; a developer machine may not have it). */
export function ptAvailable(): boolean {
  return spawnSync('pt-query-digest', ['--version']).status === 0;
}

/** pt-query-digest's `--output json` of `file` (every class), or undefined when it cannot run. */
export function ptDigest(file: string): ExpectedJson | undefined {
  const pt = spawnSync(
    'pt-query-digest',
    ['--no-version-check', '--output', 'json', '--limit', '1000000', file],
    {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (pt.error || pt.status !== 0) return undefined;
  return JSON.parse(pt.stdout) as ExpectedJson;
}

/** The log's text once the server has written `marker` to it (a server writes after answering). */
export async function waitForLog(file: string, marker: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const text = readFileSync(file, 'latin1');
    if (text.includes(marker)) return text;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the server never wrote "${marker}" to ${file}`);
}
