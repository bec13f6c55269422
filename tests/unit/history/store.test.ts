// The history store (sql.js file): modes, atomic writes, privacy policies with a canary, retention, trends, concurrent writers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TopClass } from '../../../src/core/capture/index.js';
import type { CaptureWindow } from '../../../src/core/history/index.js';
import { HistoryService } from '../../../src/main/services/history.js';
import { HISTORY_FILE } from '../../../src/main/services/history-db.js';

const CANARY = 'CANARY_7f3a9_LITERAL';

function topClass(id: string, count: number, totalSeconds: number, p95: number | null = null): TopClass {
  return {
    id,
    checksum: null,
    digest: id.split('/')[1] ?? null,
    fingerprint: `select * from t_${id.replace(/\W/g, '_')} where a = ?`,
    schemas: ['shop'],
    count,
    totalSeconds,
    latency: {
      min: null,
      median: null,
      avg: count ? totalSeconds / count : null,
      p95,
      p99: null,
      max: p95,
      lifetime: true,
    },
    lockSeconds: 0,
    rowsSent: count,
    rowsExamined: count * 10,
    firstSeen: '2026-01-01T00:00:00.000Z',
    lastSeen: '2026-01-01T00:01:00.000Z',
    example: `SELECT * FROM t WHERE a = '${CANARY}'`,
    normalized: 'SELECT * FROM `t` WHERE `a` = ?',
    histogram: null,
    execution: { tmpTables: 0, tmpDiskTables: 0, filesorts: 0, fullScans: 0, fullJoins: 0 },
  };
}

function capture(minute: number, classes: TopClass[]): CaptureWindow {
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString();
  return {
    source: 'performance_schema',
    label: `window at ${minute}`,
    start: at(minute),
    end: at(minute + 1),
    events: classes.reduce((sum, c) => sum + c.count, 0),
    classes,
  };
}

const owner = { profile: 'staging', server: 'db:3306', production: false };
const prodOwner = { profile: 'prod', server: 'prod-db:3306', production: true };

let dir: string;
let file: string;
let now: Date;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-history-')), 'config');
  file = path.join(dir, HISTORY_FILE);
  now = new Date(Date.UTC(2026, 0, 2));
});
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

const service = () => new HistoryService(file, () => now);

describe('HistoryService', () => {
  it('creates a 0700 directory and a 0600 file, and leaves no temp file', async () => {
    await service().record(capture(0, [topClass('shop/a', 1, 1)]), owner);
    if (process.platform !== 'win32') {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(fs.readdirSync(dir).sort()).toEqual([HISTORY_FILE]);
    expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('a failed write leaves the previous file as it was', async () => {
    const history = service();
    await history.record(capture(0, [topClass('shop/a', 1, 1)]), owner);
    const before = fs.readFileSync(file);
    // Writing the temp file fails (directory not writable): the old file stays, no temp left.
    if (process.platform !== 'win32' && process.getuid?.() !== 0) {
      fs.chmodSync(dir, 0o500);
      await expect(history.record(capture(1, [topClass('shop/b', 1, 1)]), owner)).rejects.toThrow();
      fs.chmodSync(dir, 0o700);
    } else {
      // As root permissions do not stop writes: a class id the change rejects rolls it back instead.
      await expect(
        history.record(
          capture(1, [{ ...topClass('shop/b', 1, 1), fingerprint: null as unknown as string }]),
          owner,
        ),
      ).rejects.toThrow();
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await history.windows()).map((w) => w.label)).toEqual(['window at 0']);
  });

  it('a write that dies halfway through the bytes leaves the previous file whole', async () => {
    const history = service();
    await history.record(capture(0, [topClass('shop/a', 1, 1)]), owner);
    const before = fs.readFileSync(file);
    const real = fs.writeSync;
    // The database's bytes (the lock file's JSON is a string and goes through): half of them are
    // written, then the process "dies" (throws).
    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(((
      fd: number,
      data: Uint8Array | string,
      offset = 0,
      length?: number,
    ) => {
      if (typeof data === 'string') return real(fd, data);
      real(fd, data, offset, Math.floor((length ?? data.length - offset) / 2));
      throw new Error('killed mid-write');
    }) as unknown as typeof fs.writeSync);
    try {
      await expect(
        history.record(
          capture(
            1,
            Array.from({ length: 300 }, (_, i) => topClass(`shop/b${i}`, 1, 1)),
          ),
          owner,
        ),
      ).rejects.toThrow('killed mid-write');
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect((await service().windows()).map((w) => w.label)).toEqual(['window at 0']);
  });

  it.each([
    [
      'production profile, default: placeholders only',
      prodOwner,
      {},
      false,
      'SELECT * FROM `t` WHERE `a` = ?',
    ],
    ['other profile, default: the real sample', owner, {}, true, `SELECT * FROM t WHERE a = '${CANARY}'`],
    ['other profile set to none', owner, { other: 'none' as const }, false, null],
    [
      'production profile set to full (the user chose)',
      prodOwner,
      { production: 'full' as const },
      true,
      `SELECT * FROM t WHERE a = '${CANARY}'`,
    ],
  ])('samples: %s', async (_name, who, samples, canaryInFile, stored) => {
    const history = service();
    await history.setSettings({ samples });
    const recorded = await history.record(capture(0, [topClass('shop/a', 2, 1)]), who);
    expect(recorded).not.toBeNull();
    expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(canaryInFile);
    expect((await history.classHistory({ classId: 'shop/a' })).sample).toBe(stored);
    // The fingerprint is always stored.
    expect(fs.readFileSync(file).includes(Buffer.from('select * from t_shop_a where a = ?'))).toBe(true);
  });

  it('clearing removes the samples from the file bytes', async () => {
    const history = service();
    await history.record(capture(0, [topClass('shop/a', 2, 1)]), owner);
    expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(true);
    expect(await history.clear()).toEqual({ windowsDeleted: 1 });
    expect(fs.readFileSync(file).includes(Buffer.from(CANARY))).toBe(false);
    expect(await history.windows()).toEqual([]);
  });

  it('clear and windows by end time: since / before, times with an offset compare as instants', async () => {
    const history = service();
    for (const m of [0, 10, 20]) await history.record(capture(m, [topClass(`shop/c${m}`, 1, 1)]), owner);
    // Ends: 00:01, 00:11, 00:21 UTC. 01:11+01:00 is 00:11Z: as text it would sort after every end.
    expect((await history.windows({ before: '2026-01-01T01:11:00+01:00' })).map((w) => w.label)).toEqual([
      'window at 0',
    ]);
    expect((await history.windows({ since: '2026-01-01T01:11:00+01:00' })).map((w) => w.label)).toEqual([
      'window at 20',
      'window at 10',
    ]);
    expect(await history.clear({ before: '2026-01-01T00:11:00.000Z', profile: 'prod' })).toEqual({
      windowsDeleted: 0,
    });
    expect(await history.clear({ before: '2026-01-01T00:11:00.000Z' })).toEqual({ windowsDeleted: 1 });
    expect((await history.windows()).map((w) => w.label)).toEqual(['window at 20', 'window at 10']);
    expect((await history.exportRows({})).map((row) => row.classId).sort()).toEqual(['shop/c10', 'shop/c20']);
  });

  it('records nothing when turned off', async () => {
    const history = service();
    await history.setSettings({ enabled: false });
    expect(await history.record(capture(0, [topClass('shop/a', 1, 1)]), owner)).toBeNull();
    expect(await history.windows()).toEqual([]);
  });

  it('prunes by age and by count', async () => {
    const history = service();
    await history.setSettings({ retentionDays: 1, maxWindows: 3 });
    now = new Date(Date.UTC(2026, 0, 1, 12));
    for (let m = 0; m < 5; m++) await history.record(capture(m, [topClass(`shop/c${m}`, 1, 1)]), owner);
    expect((await history.windows()).map((w) => w.label)).toEqual([
      'window at 4',
      'window at 3',
      'window at 2',
    ]);
    now = new Date(Date.UTC(2026, 0, 3));
    const pruned = await history.record(capture(24 * 60 * 2 - 10, [topClass('shop/late', 1, 1)]), owner);
    expect(pruned?.pruned).toBe(3);
    expect((await history.windows()).map((w) => w.label)).toEqual([`window at ${24 * 60 * 2 - 10}`]);
    // Classes without windows left are gone too.
    expect((await history.exportRows({})).map((row) => row.classId)).toEqual(['shop/late']);
  });

  it('trends: counts per window, "new" and "regressed" on the current window, scope by profile and source', async () => {
    const history = service();
    const first = await history.record(
      capture(0, [topClass('shop/a', 10, 1, 0.1), topClass('shop/b', 5, 0.5, 0.1)]),
      owner,
    );
    await history.record(capture(0, [topClass('shop/z', 1, 1)]), prodOwner);
    const second = await history.record(
      capture(5, [
        topClass('shop/a', 20, 2, 0.1),
        topClass('shop/b', 5, 2.5, 0.4),
        topClass('shop/new', 3, 0.3),
      ]),
      owner,
    );
    const trends = await history.trends({ profile: 'staging' });
    expect(trends.windows.map((w) => w.id)).toEqual([first!.windowId, second!.windowId]);
    const byId = new Map(trends.classes.map((c) => [c.classId, c]));
    expect([...byId.keys()]).toEqual(['shop/b', 'shop/a', 'shop/new']);
    expect(byId.get('shop/a')!.points.map((p) => p?.count ?? null)).toEqual([10, 20]);
    expect(byId.get('shop/a')!.markers).toEqual({ new: false, regressed: null });
    expect(byId.get('shop/b')!.markers).toEqual({ new: false, regressed: { factor: 5, metric: 'avg' } });
    expect(byId.get('shop/new')!.points.map((p) => p?.count ?? null)).toEqual([null, 3]);
    expect(byId.get('shop/new')!.markers.new).toBe(true);
    // As of the first window: the scope's first, so nothing is new.
    const asOfFirst = await history.trends({ windowId: first!.windowId });
    expect(asOfFirst.windows.map((w) => w.id)).toEqual([first!.windowId]);
    expect(asOfFirst.classes.every((c) => !c.markers.new)).toBe(true);
    // The production profile's window is another scope.
    expect((await history.trends({ profile: 'prod-db:3306' })).classes.map((c) => c.classId)).toEqual([
      'shop/z',
    ]);
    const one = await history.classHistory({ classId: 'shop/b' });
    expect(one.points.map((p) => p?.totalSeconds ?? null)).toEqual([0.5, 2.5]);
    expect(one.schemas).toEqual(['shop']);
    await expect(history.classHistory({ classId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(history.trends({ windowId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("two services on one file (the app and the CLI) keep each other's windows", async () => {
    const app = service();
    const cli = service();
    await app.record(capture(0, [topClass('shop/a', 1, 1)]), owner);
    expect((await app.windows()).length).toBe(1);
    await cli.record(capture(1, [topClass('shop/b', 1, 1)]), owner);
    await app.record(capture(2, [topClass('shop/c', 1, 1)]), owner);
    expect((await cli.windows()).map((w) => w.label)).toEqual(['window at 2', 'window at 1', 'window at 0']);
  });

  it('an unreadable file is reported and kept, not overwritten', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, 'not a database at all, but the user may want it back'.repeat(100));
    const before = fs.readFileSync(file);
    await expect(service().record(capture(0, [topClass('shop/a', 1, 1)]), owner)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});
