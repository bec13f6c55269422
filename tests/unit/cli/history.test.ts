// `sargable history` and `sargable digest --record`: nothing is stored unless asked; export as JSON and CSV with filters.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSince } from '../../../src/cli/commands/history.js';
import { historyCsvColumns } from '../../../src/core/history/index.js';
import { runCliCaptured } from '../../support/cli.js';

const event = (sql: string, second: number, time = '0.001000') =>
  `# Time: 2026-11-26T10:00:0${second}.000001Z\n# User@Host: app[app] @ localhost [127.0.0.1]  Id:    42\n` +
  `# Query_time: ${time}  Lock_time: 0.000002 Rows_sent: 1  Rows_examined: 10\nuse shop;\nSET timestamp=1795000000;\n${sql};\n`;

let dir: string;
let env: Record<string, string>;
let first: string;
let second: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-cli-history-'));
  env = { XDG_CONFIG_HOME: path.join(dir, 'config') };
  first = path.join(dir, 'monday.log');
  second = path.join(dir, 'tuesday.log');
  fs.writeFileSync(
    first,
    event("SELECT * FROM t WHERE a = 'x1'", 1) + event("SELECT * FROM t WHERE a = 'x2'", 2),
  );
  fs.writeFileSync(
    second,
    event("SELECT * FROM t WHERE a = 'x3'", 1, '0.005000') +
      event('SELECT COUNT(*) FROM t', 2) +
      event('SELECT COUNT(*) FROM t', 3),
  );
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCliCaptured(argv, { cwd: dir, env });
const historyFile = () => path.join(dir, 'config', 'sargable', 'history.sqlite');

describe('sargable digest --record', () => {
  it('stores nothing without --record', async () => {
    expect((await cli('digest', first)).code).toBe(0);
    expect(fs.existsSync(historyFile())).toBe(false);
    const listed = await cli('history');
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.stdout).toMatch(/^No capture windows stored/);
  });

  it('stores each digest as a window; history exports them as JSON and CSV, filtered', async () => {
    const one = await cli('digest', '--record', '--limit', '1', first);
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/recorded window #1 \(1 classes, samples: full\)/);
    const two = await cli('digest', '--record', '--format', 'json', second);
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout).classes).toHaveLength(2);
    if (process.platform !== 'win32') expect(fs.statSync(historyFile()).mode & 0o777).toBe(0o600);

    const json = await cli('history', '--format', 'json');
    expect(json.code).toBe(0);
    const exported = JSON.parse(json.stdout) as {
      format: string;
      windows: { id: number; source: string; label: string; start: string; end: string }[];
      rows: {
        windowId: number;
        fingerprint: string;
        count: number;
        sample: string | null;
        schemas: string;
      }[];
    };
    expect(exported.format).toBe('sargable-history/1');
    expect(exported.windows.map((w) => [w.id, w.source, w.label, w.start, w.end])).toEqual([
      [1, 'file', 'monday.log', '2026-11-26T10:00:01.000Z', '2026-11-26T10:00:02.000Z'],
      [2, 'file', 'tuesday.log', '2026-11-26T10:00:01.000Z', '2026-11-26T10:00:03.000Z'],
    ]);
    expect(exported.rows.map((r) => [r.windowId, r.fingerprint, r.count, r.schemas])).toEqual([
      [1, 'select * from t where a = ?', 2, 'shop'],
      [2, 'select * from t where a = ?', 1, 'shop'],
      [2, 'select count(*) from t', 2, 'shop'],
    ]);
    // Not a production profile: the real example is kept (the default policy).
    expect(exported.rows[0]!.sample).toMatch(/^SELECT \* FROM t WHERE a = 'x\d'$/);

    const csv = await cli('history', '--format', 'csv', '--since', '2026-11-26T10:00:02.500Z');
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(historyCsvColumns.join(','));
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['2', '2']);

    const checksum = JSON.parse(
      (await cli('history', '--format', 'json', '--class', 'select count(*) from t')).stdout,
    ).rows as unknown[];
    expect(checksum).toEqual([]);
    const countId = JSON.parse(json.stdout).rows[2].classId as string;
    const byClass = JSON.parse((await cli('history', '--format', 'json', '--class', countId)).stdout);
    expect(byClass.rows.map((r: { windowId: number }) => r.windowId)).toEqual([2]);
    expect(byClass.windows.map((w: { id: number }) => w.id)).toEqual([2]);
    expect(JSON.parse((await cli('history', '--format', 'json', '--profile', 'prod')).stdout).rows).toEqual(
      [],
    );

    const text = await cli('history');
    expect(text.stdout).toMatch(/ \[- 2\] {2}new {2}select count\(\*\) from t\n/);
    // 1 ms then 5 ms per execution (p95 and time per execution alike: the tie names p95).
    expect(text.stdout).toMatch(/ \[2 1\] {2}regressed x5 \(p95\) {2}select \* from t where a = \?\n/);
  });

  it('bad options are usage errors', async () => {
    expect((await cli('history', '--format', 'xml')).code).toBe(2);
    expect((await cli('history', '--since', 'yesterday')).code).toBe(2);
    expect((await cli('history', '--source', 'disk')).code).toBe(2);
  });
});

describe('sargable history --clear', () => {
  const labels = async () =>
    (
      JSON.parse((await cli('history', '--format', 'json')).stdout) as { windows: { label: string }[] }
    ).windows.map((w) => w.label);

  it('deletes the windows the filters select, needs a filter or --all, prompts for nothing', async () => {
    // No history file: nothing deleted, and no file made.
    const none = await cli('history', '--clear', '--all');
    expect(none).toMatchObject({ code: 0 });
    expect(none.stdout).toMatch(/^Deleted 0 windows from .*history\.sqlite\.\n$/);
    expect(fs.existsSync(historyFile())).toBe(false);

    expect((await cli('digest', '--record', first)).code).toBe(0); // ends 10:00:02
    expect((await cli('digest', '--record', second)).code).toBe(0); // ends 10:00:03
    const bare = await cli('history', '--clear');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--clear needs a filter .* or --all/);
    expect((await cli('history', '--clear', '--class', 'x', '--all')).code).toBe(2);
    expect((await cli('history', '--all')).code).toBe(2);
    expect((await cli('history', '--clear', '--before', 'last week')).code).toBe(2);
    expect(await labels()).toEqual(['monday.log', 'tuesday.log']);

    // Filters that match nothing delete nothing.
    expect((await cli('history', '--clear', '--profile', 'prod')).stdout).toMatch(/^Deleted 0 windows/);
    expect((await cli('history', '--clear', '--source', 'slow_log')).stdout).toMatch(/^Deleted 0 windows/);
    // Before 10:00:02.5Z, given with an offset: the first window only.
    const before = await cli(
      'history',
      '--clear',
      '--format',
      'json',
      '--before',
      '2026-11-26T12:00:02.500+02:00',
    );
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ file: historyFile(), windowsDeleted: 1 });
    expect(await labels()).toEqual(['tuesday.log']);

    expect((await cli('history', '--clear', '--all')).stdout).toMatch(/^Deleted 1 window from /);
    expect(await labels()).toEqual([]);
  });
});

describe('parseSince', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it.each([
    ['30m', '2026-11-27T11:30:00.000Z'],
    ['24h', '2026-11-26T12:00:00.000Z'],
    ['7d', '2026-11-20T12:00:00.000Z'],
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2026-01-31T08:00:00+02:00', '2026-01-31T06:00:00.000Z'],
  ])('%s', (value, expected) => {
    expect(parseSince(value, now)).toBe(expected);
  });
});
