// Bench child: digests one file with Sargable's service code and prints a one-line JSON summary.
import { digestFilesInThread } from '../../src/main/services/slowlog-file.js';

const [file, worker, attributes] = process.argv.slice(2);
if (!file) throw new Error('usage: digest-child.ts FILE [WORKER_SCRIPT] [reported|all]');
const started = performance.now();
// With the bundled worker script, a big file is split across two threads (as in the app).
const result = await digestFilesInThread([file], {
  parallel: worker ? { path: worker } : false,
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
  })}\n`,
);
