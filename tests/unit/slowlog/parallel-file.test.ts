// A file digested in N shares (helpers merged in order, failed or refused shares read by this thread) equals the one-thread digest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSlowLogWorker } from '../../support/slowlog-worker.js';
import { mulberry32 } from '../../../bench/slowlog/random.mjs';
import {
  digestFilesInThread,
  digestSlowLogFiles,
  PARALLEL_MAX_CLASSES,
  type ShareReport,
  type SlowLogFileResult,
  type SlowLogProgress,
} from '../../../src/main/services/slowlog-file.js';
import {
  digestFileInShares,
  digestFileSegment,
  findCuts,
  SAMPLE_BYTES,
  SAMPLE_MAX_CLASSES,
  type StartShare,
} from '../../../src/main/services/slowlog-parallel.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const corpus = ['percona', 'generated'].flatMap((dir) =>
  readdirSync(fixtures + dir)
    .filter((name) => name.endsWith('.txt') || name.endsWith('.log'))
    .sort()
    .map((name) => `${fixtures}${dir}/${name}`),
);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-parallel-'));

/** A record whose string literal holds `;\n# Query_time:`, a header-only record, a banner mid-file. */
const tricky = [
  '# Time: 2026-01-02T03:04:05.000001Z',
  '# User@Host: app[app] @ localhost []  Id:     7',
  '# Query_time: 1.000000  Lock_time: 0.000001 Rows_sent: 1  Rows_examined: 1',
  'use shop;',
  'SET timestamp=1767323045;',
  "SELECT 'a;",
  "# Query_time: 9' FROM t WHERE id = 1;",
  '# Time: 2026-01-02T03:04:06.000001Z',
  '# User@Host: app[app] @ localhost []  Id:     7',
  '# Query_time: 0.500000  Lock_time: 0.000001 Rows_sent: 0  Rows_examined: 0',
  'SET timestamp=1767323046;',
  '# administrator command: Ping;',
  '# Time: 2026-01-02T03:04:07.000001Z',
  '# User@Host: app[app] @ localhost []  Id:     8',
  '# Query_time: 0.250000  Lock_time: 0.000001 Rows_sent: 0  Rows_examined: 0',
  '/usr/sbin/mariadbd, Version: 10.11.6-MariaDB-log (MariaDB Server). started with:',
  'Tcp port: 3306  Unix socket: /run/mysqld/mysqld.sock',
  'Time                 Id Command    Argument',
  '# Time: 2026-01-02T03:04:08.000001Z',
  '# User@Host: app[app] @ localhost []  Id:     9',
  '# Query_time: 2.000000  Lock_time: 0.000001 Rows_sent: 3  Rows_examined: 30',
  'use other;',
  'SET timestamp=1767323048;',
  'SELECT * FROM orders WHERE customer_id = 42;',
  '',
].join('\n');

function strip(result: SlowLogFileResult): SlowLogFileResult {
  return { ...result, source: { ...result.source, elapsedMs: 0 } };
}

/** Shares digested on this thread (no worker), as a helper would; `fail` makes share k fail or be refused. */
function inThread(
  file: string,
  fail: (k: number) => 'reject' | 'refuse' | undefined = () => undefined,
): StartShare {
  return (k, range) => {
    const mode = fail(k);
    if (mode === 'reject') return { done: Promise.reject(new Error('helper failed')), stop: () => undefined };
    // A digest of every attribute cannot merge into one of the reported ones: absorb refuses it.
    const done = digestFileSegment(file, range, mode === 'refuse' ? { attributes: 'all' } : {});
    return { done, stop: () => undefined };
  };
}

/** Cut sets for a file: separators (every one, or ~12), separators ±1, and random positions. */
function cutSets(text: string, seed: number): number[][] {
  const seps: number[] = [];
  for (let at = text.indexOf(';\n#'); at !== -1; at = text.indexOf(';\n#', at + 1)) seps.push(at + 3);
  const step = Math.max(1, Math.ceil(seps.length / 12));
  const every = seps.filter((_, i) => i % step === 0);
  const random = mulberry32(seed);
  const anywhere = Array.from({ length: 8 }, () => 1 + Math.floor(random() * (text.length - 1)));
  return [every, every.map((at) => at - 1), every.map((at) => at + 1), anywhere].filter(
    (cuts) => cuts.length > 0,
  );
}

const tally = { merged: 0, read: 0 };

async function checkShares(
  file: string,
  expected: SlowLogFileResult,
  cuts: number[],
  fail?: (k: number) => 'reject' | 'refuse' | undefined,
): Promise<ShareReport[]> {
  const bytes = readFileSync(file).length;
  const usable = await findCuts(file, bytes, 0, cuts);
  let shares: ShareReport[] = [];
  const result = await digestFileInShares(
    { name: file, bytes },
    usable,
    inThread(file, fail),
    {},
    (s) => (shares = s),
  );
  expect(strip(result), `${file} cut at ${usable.join(',')}`).toEqual(expected);
  for (const share of shares.slice(1)) {
    if (share.merged) tally.merged++;
    else tally.read++;
  }
  return shares;
}

beforeAll(() => {
  writeFileSync(path.join(dir, 'tricky.log'), tricky.repeat(6));
  // The bench's generator: sysbench and ORM shapes, multi-line queries, `use`, banners.
  const generator = fileURLToPath(new URL('../../../bench/slowlog/generate.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [generator, path.join(dir, 'generated.log'), '1']);
  expect(r.status).toBe(0);
});

describe('a file in N shares = one thread', () => {
  it('corpus logs, the generated log and the tricky log, cut at many places', async () => {
    const files = [...corpus, path.join(dir, 'tricky.log'), path.join(dir, 'generated.log')];
    let seed = 1;
    for (const file of files) {
      const expected = strip(await digestFilesInThread([file], { parallel: false }));
      for (const cuts of cutSets(readFileSync(file).toString('latin1'), seed++)) {
        await checkShares(file, expected, cuts);
      }
    }
    // Both paths ran many times: merged shares, and shares this thread read itself (a cut
    // inside a record, or one whose record needs look-ahead past the cut).
    // (Measured: ~200 merged, ~1,100 read; bug_957442_sample.log's administrator commands need
    // look-ahead past every separator cut, so none of its shares merges.)
    expect(tally.merged).toBeGreaterThan(150);
    expect(tally.read).toBeGreaterThan(500);
  }, 120_000);

  it('a failed or refused share is read by this thread, and the later shares are still merged', async () => {
    const file = path.join(dir, 'generated.log');
    const text = readFileSync(file).toString('latin1');
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    const seps: number[] = [];
    for (let at = text.indexOf(';\n#'); at !== -1; at = text.indexOf(';\n#', at + 1)) seps.push(at + 3);
    const cuts = [1, 2, 3, 4, 5, 6, 7].map((k) => seps[Math.floor((k * seps.length) / 8)]!);
    for (const mode of ['reject', 'refuse'] as const) {
      const shares = await checkShares(file, expected, cuts, (k) => (k === 2 || k === 5 ? mode : undefined));
      expect(shares.map((share) => share.merged)).toEqual([
        false,
        true,
        false,
        true,
        true,
        false,
        true,
        true,
      ]);
    }
    // Every helper failing: this thread reads the whole file.
    const shares = await checkShares(file, expected, cuts, () => 'reject');
    expect(shares.every((share) => !share.merged)).toBe(true);
  }, 60_000);
});

describe('real slow logs: times of 1 s and more', () => {
  it('every share merges (none is re-read) and the sums are the exact decimal ones', async () => {
    // As MySQL writes a slow log with long_query_time = 1: every Query_time ≥ 1 s with six
    // decimals (1.668162 is not 1 + 668162 / 1e6 in doubles), a few classes seen in every share.
    const random = mulberry32(2101);
    const units: bigint[] = [];
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const micros = 1_000_000 + Math.floor(random() * 40_000_000);
      units.push(BigInt(micros));
      const seconds = `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
      const t = 1767323045 + i;
      lines.push(
        `# Time: 2026-01-02T03:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}Z`,
        `# User@Host: app[app] @ localhost []  Id: ${10 + (i % 7)}`,
        `# Query_time: ${seconds}  Lock_time: 0.000${String(100 + (i % 900))} Rows_sent: ${i % 13}  Rows_examined: ${i * 7}`,
        `SET timestamp=${t};`,
        `SELECT c FROM sbtest${i % 9} WHERE id BETWEEN ${i} AND ${i + 99};`,
      );
    }
    const file = path.join(dir, 'long-queries.log');
    writeFileSync(file, lines.join('\n') + '\n');
    const text = readFileSync(file).toString('latin1');
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    const total = units.reduce((a, b) => a + b, 0n);
    expect(expected.global.queryTime?.sum).toBe(
      Number(`${total / 1_000_000n}.${String(total % 1_000_000n).padStart(6, '0')}`),
    );
    const seps: number[] = [];
    for (let at = text.indexOf(';\n#'); at !== -1; at = text.indexOf(';\n#', at + 1)) seps.push(at + 3);
    const cuts = [1, 2, 3, 4, 5, 6, 7].map((k) => seps[Math.floor((k * seps.length) / 8)]!);
    const shares = await checkShares(file, expected, cuts);
    expect(shares.map((share) => share.merged)).toEqual([false, true, true, true, true, true, true, true]);
  }, 60_000);
});

describe('many classes', () => {
  it('a share past PARALLEL_MAX_CLASSES classes stops early and is read by this thread', async () => {
    // 24,000 classes of one event each, spread over the file: share 1 (95 % of it) passes 20,000.
    const file = path.join(dir, 'many.log');
    const generator = fileURLToPath(new URL('../../../bench/slowlog/many-classes.mjs', import.meta.url));
    expect(spawnSync(process.execPath, [generator, file, '24000', '1']).status).toBe(0);
    const text = readFileSync(file).toString('latin1');
    const cut = text.indexOf(';\n#', Math.floor(text.length / 20)) + 3;
    const alone = await digestFileSegment(file, { start: cut, end: text.length });
    expect(alone.complete).toBe(false);
    expect(alone.segment).toBeUndefined();
    expect(alone.bytes).toBeLessThan(text.length - cut);
    expect(alone.bytes).toBeGreaterThan((text.length - cut) / 2);
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    expect(expected.classes.length).toBeGreaterThan(PARALLEL_MAX_CLASSES);
    const shares = await checkShares(file, expected, [cut]);
    expect(shares.map((share) => share.merged)).toEqual([false, false]);
  }, 60_000);
});

describe('many classes early on: no helper at all', () => {
  it('a log whose first SAMPLE_BYTES hold more than SAMPLE_MAX_CLASSES classes starts no helper; a few-class log starts them all', async () => {
    const many = path.join(dir, 'many-early.log');
    const generator = fileURLToPath(new URL('../../../bench/slowlog/many-classes.mjs', import.meta.url));
    expect(spawnSync(process.execPath, [generator, many, '12000', '1']).status).toBe(0);
    const few = path.join(dir, 'few.log');
    writeFileSync(few, readFileSync(path.join(dir, 'generated.log')));
    for (const [file, helpersExpected] of [
      [many, 0],
      [few, 3],
    ] as const) {
      const bytes = readFileSync(file).length;
      const cuts = await findCuts(
        file,
        bytes,
        0,
        [0.3, 0.5, 0.7].map((f) => Math.floor(f * bytes)),
      );
      expect(cuts).toHaveLength(3);
      const sampled = await digestFileInShares({ name: file, bytes }, [], inThread(file), {});
      const started: number[] = [];
      const record: StartShare = (k, range, onProgress) => {
        started.push(k);
        // Every helper gets its part of the class budget (PARALLEL_MAX_CLASSES in all).
        expect(range.maxClasses).toBe(Math.max(SAMPLE_MAX_CLASSES, Math.floor(PARALLEL_MAX_CLASSES / 3)));
        return inThread(file)(k, range, onProgress);
      };
      const result = await digestFileInShares({ name: file, bytes }, cuts, record, {});
      expect(strip(result)).toEqual(strip(sampled));
      expect(started).toHaveLength(helpersExpected);
    }
    // The canary's premise: the many-class log's first 2 MiB do hold more than the sample's limit.
    const head = readFileSync(many).subarray(0, SAMPLE_BYTES).toString('latin1');
    expect(head.split('\n# Query_time').length - 1).toBeGreaterThan(SAMPLE_MAX_CLASSES);
  }, 60_000);
});

describe('shares on worker threads', () => {
  const worker = { path: path.join(dir, 'slowlog-worker.cjs') };
  const failing = path.join(dir, 'failing-worker.cjs');
  beforeAll(async () => {
    await buildSlowLogWorker(worker.path);
    // A helper script whose share 2 fails (the thread throws before digesting).
    writeFileSync(
      failing,
      `const { workerData } = require('node:worker_threads');
if (workerData && workerData.segment && workerData.segment.index === 2) throw new Error('share 2 fails');
require(${JSON.stringify(worker.path)});\n`,
    );
  });

  it('4 threads on a 2-core machine: same result, shares merged, progress to the end', async () => {
    const file = path.join(dir, 'generated.log');
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    let shares: ShareReport[] = [];
    const progress: SlowLogProgress[] = [];
    const result = await digestFilesInThread([file], {
      parallel: { ...worker, threads: 4, segmentBytes: 64 * 1024, onShares: (s) => (shares = s) },
      progressIntervalMs: 0,
      onProgress: (p) => progress.push(p),
    });
    expect(strip(result)).toEqual(expected);
    expect(shares).toHaveLength(4);
    // Every helper's share merges: times such as 1.668162 count as whole millionths (before,
    // 1 + 668162 / 1e6 !== 1.668162 made share 2 inexact and refused).
    expect(shares.map((share) => share.merged)).toEqual([false, true, true, true]);
    expect(progress.at(-1)).toMatchObject({
      bytesRead: result.source.files[0]!.bytes,
      events: result.global.events,
    });
  }, 60_000);

  it('the app path: a worker thread starting its own helpers gives the one-thread result', async () => {
    const file = path.join(dir, 'generated.log');
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    // The worker script notes each share it is started for, so the helpers are seen to run.
    const marks = path.join(dir, 'shares-started.txt');
    const noting = path.join(dir, 'noting-worker.cjs');
    writeFileSync(
      noting,
      `const { workerData } = require('node:worker_threads');
if (workerData && workerData.segment) require('node:fs').appendFileSync(${JSON.stringify(marks)}, workerData.segment.index + ' ');
require(${JSON.stringify(worker.path)});\n`,
    );
    const progress: SlowLogProgress[] = [];
    const result = await digestSlowLogFiles([file], {
      worker: { path: noting },
      parallel: { path: noting, threads: 3, segmentBytes: 64 * 1024 },
      progressIntervalMs: 0,
      onProgress: (p) => progress.push(p),
    });
    expect(strip(result)).toEqual(expected);
    expect(readFileSync(marks, 'utf8').trim().split(' ').sort()).toEqual(['1', '2']);
    expect(progress.at(-1)).toMatchObject({
      bytesRead: result.source.bytesRead,
      events: result.global.events,
    });
  }, 60_000);

  it('a helper thread that fails: its share is read here, the others merged', async () => {
    const file = path.join(dir, 'generated.log');
    const expected = strip(await digestFilesInThread([file], { parallel: false }));
    let shares: ShareReport[] = [];
    const result = await digestFilesInThread([file], {
      parallel: { path: failing, threads: 4, segmentBytes: 64 * 1024, onShares: (s) => (shares = s) },
    });
    expect(strip(result)).toEqual(expected);
    expect(shares.map((share) => share.merged)).toEqual([false, true, false, true]);
  }, 60_000);

  it('small files stay on one thread; the share size decides the thread count', async () => {
    const file = path.join(dir, 'generated.log');
    const bytes = readFileSync(file).length;
    let shares: ShareReport[] | undefined;
    await digestFilesInThread([file], { parallel: { ...worker, threads: 8, onShares: (s) => (shares = s) } });
    expect(shares).toBeUndefined(); // ~1 MiB < 2 × 8 MiB
    await digestFilesInThread([file], {
      parallel: { ...worker, threads: 8, segmentBytes: Math.ceil(bytes / 3), onShares: (s) => (shares = s) },
    });
    expect(shares).toHaveLength(2);
  }, 60_000);

  it('is cancelled mid-way (helpers stopped), and a later run still works', async () => {
    const file = path.join(dir, 'big.log');
    writeFileSync(
      file,
      Buffer.concat(Array.from({ length: 12 }, () => readFileSync(path.join(dir, 'generated.log')))),
    );
    const controller = new AbortController();
    let reports = 0;
    await expect(
      digestFilesInThread([file], {
        parallel: { ...worker, threads: 3, segmentBytes: 1024 * 1024 },
        signal: controller.signal,
        progressIntervalMs: 0,
        onProgress: () => {
          if (++reports === 3) setTimeout(() => controller.abort(), 0);
        },
      }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(reports).toBeGreaterThanOrEqual(3);
    const again = await digestFilesInThread([file], {
      parallel: { ...worker, threads: 3, segmentBytes: 1024 * 1024 },
    });
    expect(strip(again)).toEqual(strip(await digestFilesInThread([file], { parallel: false })));
  }, 60_000);
});
