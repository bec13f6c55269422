// `sargable digest --format json` writes its classes one at a time: the bytes are JSON.stringify's of the whole document.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { digestToJson, writeDigestJson } from '../../../src/cli/format.js';
import { digestFilesInThread } from '../../../src/main/services/slowlog-file.js';
import { runCliCaptured } from '../../support/cli.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const logs = [
  ...readdirSync(`${fixtures}percona`)
    .filter((name) => name.endsWith('.log') || name.endsWith('.txt'))
    .map((name) => `${fixtures}percona/${name}`),
  `${fixtures}generated/mysql-workload.log`,
  `${fixtures}generated/mariadb-workload.log`,
];

async function written(
  result: Parameters<typeof writeDigestJson>[0],
  metrics: boolean,
): Promise<{ text: string; writes: number; waits: number }> {
  const parts: string[] = [];
  let waits = 0;
  await writeDigestJson(
    result,
    { metrics },
    (text) => parts.push(text),
    () => {
      waits++;
      return Promise.resolve();
    },
  );
  return { text: parts.join(''), writes: parts.length, waits };
}

describe('streamed digest JSON', () => {
  it('has logs to compare', () => expect(logs.length).toBeGreaterThan(40));

  it.each(logs)('%s: the lazy result writes the same bytes as stringifying the full one', async (log) => {
    const full = await digestFilesInThread([log], { parallel: false });
    const lazy = await digestFilesInThread([log], { parallel: false, lazy: true });
    expect(lazy.classes).toEqual([]);
    expect(lazy.eachClass).toBeTypeOf('function');
    for (const metrics of [false, true]) {
      const expected = `${JSON.stringify(digestToJson(full, { metrics }), null, 2)}\n`;
      // The source's elapsed time differs between the two runs.
      const same = (text: string) => text.replace(/"elapsedMs": \d+/, '"elapsedMs": 0');
      expect(same((await written(lazy, metrics)).text)).toBe(same(expected));
      expect((await written(full, metrics)).text).toBe(expected);
    }
  });

  it('writes a big document in pieces, and the CLI output parses to the full result', async () => {
    // Many classes: every statement its own table name (letters: digits would fingerprint to ?).
    const name = (i: number) => i.toString(26).replace(/\d/g, (d) => String.fromCharCode(113 + Number(d)));
    const log = Array.from(
      { length: 6000 },
      (_, i) =>
        `# Time: 2026-11-26T10:00:00.000001Z\n# Query_time: 0.00${i % 10}100  Lock_time: 0.000002 Rows_sent: 1  Rows_examined: ${i}\n` +
        `SET timestamp=1795000000;\nSELECT a, '${'x'.repeat(200)}' FROM t_${name(i)} WHERE id = ${i};\n`,
    ).join('');
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const dir = mkdtempSync(`${os.tmpdir()}/sargable-json-stream-`);
    try {
      writeFileSync(`${dir}/slow.log`, log);
      const lazy = await digestFilesInThread([`${dir}/slow.log`], { parallel: false, lazy: true });
      const { text, writes, waits } = await written(lazy, false);
      expect(writes).toBeGreaterThan(1);
      // Each piece but the last waits for the reader.
      expect(waits).toBe(writes - 1);
      const parsed = JSON.parse(text) as {
        classes: { count: number }[];
        global: { uniqueQueryCount: number };
      };
      expect(parsed.classes).toHaveLength(6000);
      expect(parsed.global.uniqueQueryCount).toBe(6000);
      const out = await runCliCaptured(['digest', '--format', 'json', 'slow.log'], { cwd: dir });
      expect(out.code).toBe(0);
      const same = (t: string) => t.replace(/"elapsedMs": \d+/, '"elapsedMs": 0');
      expect(same(out.stdout)).toBe(same(text.replace(`"path": "${dir}/slow.log"`, '"path": "slow.log"')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
