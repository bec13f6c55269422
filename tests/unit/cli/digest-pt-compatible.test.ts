// `sargable digest --pt-compatible`: pt-query-digest's reading (it cuts a literal holding ';\n#'); the default reads the statement whole.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

let dir: string;
let log: string;

const event = (sql: string, second: number) =>
  `# Time: 2026-11-26T10:00:0${second}.000001Z\n# User@Host: app[app] @ localhost [127.0.0.1]  Id:    42\n` +
  `# Query_time: 0.000100  Lock_time: 0.000002 Rows_sent: 1  Rows_examined: 0\nSET timestamp=1795000000;\n${sql};\n`;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-digest-pt-'));
  log = path.join(dir, 'slow.log');
  writeFileSync(
    log,
    event('SELECT 1', 1) + event("SELECT 'a;\n# Query_time: 9' AS x", 2) + event('SELECT 2', 3),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sargable digest --pt-compatible', () => {
  it('reads the log as pt-query-digest does; the default reads what the server wrote', async () => {
    const run = async (...flags: string[]) => {
      const out = await runCliCaptured(['digest', '--format', 'json', ...flags, log], { cwd: '.' });
      expect(out.code).toBe(0);
      const report = JSON.parse(out.stdout) as { classes: { fingerprint: string; count: number }[] };
      return Object.fromEntries(report.classes.map((c) => [c.fingerprint, c.count]));
    };
    expect(await run()).toEqual({ 'select ?': 2, 'select ? as x': 1 });
    const pt = await run('--pt-compatible');
    expect(pt['select ? as x']).toBeUndefined();
    expect(pt['select ?']).toBe(2);
  });
});
