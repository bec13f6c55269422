// Bench child: digests one file with Sargable's service code and prints a one-line JSON summary.
import { digestFilesInThread, type ShareReport } from '../../src/main/services/slowlog-file.js';

const [file, worker, attributes, threads] = process.argv.slice(2);
if (!file) throw new Error('usage: digest-child.ts FILE [WORKER_SCRIPT] [reported|all] [THREADS]');
const started = performance.now();
let shares: ShareReport[] | undefined;
// With the bundled worker script, a big file is split across threads (as in the app): the
// machine's cores by default, or THREADS.
const result = await digestFilesInThread([file], {
  parallel: worker
    ? {
        path: worker,
        ...(threads ? { threads: Number(threads) } : {}),
        onShares: (reported) => (shares = reported),
      }
    : false,
  attributes: attributes === 'all' ? 'all' : 'reported',
});
const ms = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({
    ms,
    events: result.global.events,
    queryCount: result.global.queryCount,
    classes: result.classes.filter((c) => c.ranked).map((c) => [c.checksum, c.queryCount]),
    queryTimeSum: result.global.queryTime?.sum.toFixed(6),
    threads: shares?.length ?? 1,
    shares: shares?.map((share) => ({ merged: share.merged, finishedMs: share.finishedMs })),
  })}\n`,
);
