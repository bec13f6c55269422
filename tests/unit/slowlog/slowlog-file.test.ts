// The file service: worker thread, progress, cancellation and bad input.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSlowLogWorker } from '../../support/slowlog-worker.js';
import {
  digestFilesInThread,
  digestSlowLogFiles,
  type SlowLogProgress,
} from '../../../src/main/services/slowlog-file.js';

const sample = fileURLToPath(new URL('../../fixtures/slowlogs/percona/slow002.txt', import.meta.url));
// Build the worker the way scripts/build.mjs does (esbuild, CJS), so the test runs real threads.
const workerDir = mkdtempSync(path.join(os.tmpdir(), 'sargable-worker-'));
const worker = { path: path.join(workerDir, 'slowlog-worker.cjs') };
beforeAll(async () => {
  await buildSlowLogWorker(worker.path);
});

describe('slow-log file service', () => {
  it('gives the same digest in a worker thread as in-thread, with progress', async () => {
    const progress: SlowLogProgress[] = [];
    const inThread = await digestFilesInThread([sample]);
    const viaWorker = await digestSlowLogFiles([sample], {
      worker,
      progressIntervalMs: 0,
      onProgress: (p) => progress.push(p),
    });
    const strip = (r: typeof inThread) => ({ ...r, source: { ...r.source, elapsedMs: 0 } });
    expect(strip(viaWorker)).toEqual(strip(inThread));
    expect(progress.at(-1)).toMatchObject({ bytesRead: 3841, totalBytes: 3841, events: 8 });
  }, 30_000);

  it('rejects with CANCELLED when aborted', async () => {
    const controller = new AbortController();
    const pending = digestSlowLogFiles([sample], { worker, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('lets an abort through while it reads a file on the calling thread', async () => {
    // ~11 MiB: read synchronously in 128 KiB chunks, it takes far longer than one event-loop turn
    // (YIELD_MS); the timer's abort only runs because the read loop yields.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-slowlog-'));
    const big = path.join(dir, 'big.log');
    writeFileSync(big, Buffer.concat(Array.from({ length: 3000 }, () => readFileSync(sample))));
    const controller = new AbortController();
    const progress: SlowLogProgress[] = [];
    await expect(
      digestFilesInThread([big], {
        parallel: false,
        signal: controller.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          // Once reading has begun, abort from a timer: it runs only when the loop yields.
          if (progress.push(p) === 1) setTimeout(() => controller.abort(), 0);
        },
      }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.bytesRead).toBeLessThan(progress.at(-1)!.totalBytes);
    // Not aborted, the same file is read to its end.
    const whole = await digestFilesInThread([big], { parallel: false });
    expect(whole.source.bytesRead).toBe(3000 * 3841);
    expect(whole.global.queryCount).toBe(3000 * 8);
  }, 30_000);

  it('reports a missing file with what to do', async () => {
    await expect(digestFilesInThread(['/nonexistent/slow.log'])).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('never throws on binary junk and reports the partial last event', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-slowlog-'));
    const file = path.join(dir, 'junk.log');
    // Every byte value except ';' (so the junk cannot end a record by itself).
    const junk = Buffer.from(
      Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256).filter((b) => b !== 59),
    );
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('# Time: 2026-11-21T22:41:47.169077Z\n# Query_time: 1.5  Lock_time: 0\nSELECT 1;\n'),
        Buffer.from('# Query_time: 2.5  Lock_time: 0\nSELECT '),
        junk,
        Buffer.from(';\n# Time: 2026-11-21T22:41:48Z\n# Query_time: 0.5  Lock_time: 0\n'),
      ]),
    );
    const result = await digestFilesInThread([file]);
    expect({
      queryCount: result.global.queryCount,
      select: result.classes.find((c) => c.fingerprint === 'select ?')?.queryCount,
      skipped: result.skipped.map((s) => ({ line: s.line, reason: s.reason })),
    }).toEqual({
      queryCount: 2,
      select: 1,
      skipped: [
        { line: expect.any(Number) as number, reason: 'header lines without a query (partial event)' },
      ],
    });
  });
});
