// Reads slow-log files once more, alongside the digest worker, to build the workload timeline (events per time bucket).
/*
 * Why a second read: the digest (src/core/slowlog, run in a worker thread) keeps per-class
 * statistics, not per-event times. Until it records a timeline itself, this pass streams the same
 * files through the pure line scanner (src/core/capture/slowlog-timeline.ts), which only looks at
 * `# Time:`, `# Query_time:` and `SET timestamp=` lines. Memory stays bounded (one chunk plus at
 * most 240 buckets); the files are usually still in the page cache from the digest's read.
 */
import { createReadStream } from 'node:fs';
import { createSlowLogTimelineScanner, type WorkloadTimeline } from '../../core/capture/index.js';
import { AdvisorError } from '../../shared/errors.js';

/** Options for {@link scanSlowLogTimeline}. */
export interface TimelineScanOptions {
  signal?: AbortSignal;
  /** Read size. Default 1 MiB. */
  chunkSize?: number;
  /** Most buckets. Default 240. */
  maxBuckets?: number;
}

/** The workload timeline of one or more slow-log files (streamed, cancellable). */
export async function scanSlowLogTimeline(
  paths: readonly string[],
  options: TimelineScanOptions = {},
): Promise<WorkloadTimeline> {
  const scanner = createSlowLogTimelineScanner(
    options.maxBuckets === undefined ? {} : { maxBuckets: options.maxBuckets },
  );
  for (const file of paths) {
    const stream = createReadStream(file, { highWaterMark: options.chunkSize ?? 1024 * 1024 });
    try {
      for await (const chunk of stream) {
        if (options.signal?.aborted) throw new AdvisorError('CANCELLED', 'The timeline scan was cancelled.');
        // Latin-1: one char per byte, never throws; the scanner only reads ASCII line starts.
        scanner.push((chunk as Buffer).toString('latin1'));
      }
    } finally {
      stream.destroy();
    }
    // A file ends a line even without a trailing newline.
    scanner.push('\n');
  }
  return scanner.end();
}
