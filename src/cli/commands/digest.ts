// `sargable digest`: group slow-log queries by fingerprint like pt-query-digest, ranked by total time.
import path from 'node:path';
import v8 from 'node:v8';
import { Readable } from 'node:stream';
import {
  digestSlowLogFiles,
  digestStreams,
  type SlowLogFileResult,
  type SlowLogProgress,
} from '../../main/services/slowlog-file.js';
import type { JobProgressReply } from '../../shared/api/capture.js';
import { parseCommonArgs } from '../args.js';
import { runAsJob } from '../job.js';
import { formatDigestText, writeDigestJson } from '../format.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';
import { captureFromDigest } from '../../core/history/index.js';

export const usage = `Usage: sargable digest [options] FILE... | -
       sargable digest --dsn URL [--window SECONDS] [--format text|json] [--limit N]

Group the queries of MySQL, Percona Server or MariaDB slow logs into classes by fingerprint,
exactly as pt-query-digest does (same fingerprints and checksums), ranked by total Query_time.

Options:
  --format text|json       output format (default text)
  --limit N                show the top N classes (default 20 for text, all for json)
  --order-by ATTR:FUNC     ranking, FUNC one of sum|min|max|avg|cnt (default Query_time:sum)
  --all-attributes         aggregate every attribute of the log into metrics/flags, as
                           pt-query-digest does (default: the reported ones; slower)
  --progress               progress lines on standard error even when it is not a terminal
  --record                 store the digest as a window in the capture history (every class;
                           see 'sargable history'). Off by default
  --pt-compatible          read the log exactly as pt-query-digest 3.2.1 does, also where it
                           is wrong (literals and comments holding ';\\n#', your own SET
                           timestamp, MariaDB's mariadbd banner and # Warnings, Windows banners,
                           MySQL's throttle summary, CRLF logs, mixed time formats; see
                           docs/slowlog.md)
  -h, --help               show this help

Reads standard input with -; a gzip file (.gz) is decompressed on the fly. Progress goes to standard error when it is a terminal (or with --progress).
With --dsn it digests what ran on a live server instead: performance_schema statement digests over
--window seconds (the same as 'sargable capture'; see 'sargable capture --help' for more sources).
Exit codes: 0 ran, 2 usage or input error.`;

const ORDER_BY = /^[A-Za-z_]+:(?:sum|min|max|avg|cnt)$/;

/**
 * How far V8 lets the heap grow past its live size before the next full GC, in percent. Its default
 * (a factor of 1.1-4 chosen by GC speed) let the heap of a 110,000-class digest reach two to three
 * times its ~45-70 MiB live size, which put the peak RSS at 303-430 MiB; at 20 % the peak is
 * 274-278 MiB for text and JSON, no slower on few classes (docs/slowlog.md, "The column store"). The flag is read at
 * each GC, so setting it when the command starts is enough; it applies to this process only.
 */
const HEAP_GROWING_PERCENT = 20;

/** `digest --dsn` never reaches this: cli/main.ts routes it to `capture`. */
export const run: CliCommand = async (argv, io) => {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const args = parseCommonArgs(
    argv,
    {
      limit: { type: 'string' },
      'order-by': { type: 'string', default: 'Query_time:sum' },
      'all-attributes': { type: 'boolean' },
      'pt-compatible': { type: 'boolean' },
      progress: { type: 'boolean' },
      record: { type: 'boolean' },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, positionals, format } = args;
  const orderBy = values['order-by'];
  if (!ORDER_BY.test(orderBy)) {
    throw new UsageError(
      `--order-by must look like Query_time:sum (FUNC sum|min|max|avg|cnt), not '${orderBy}'`,
    );
  }
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1) {
      throw new UsageError(`--limit must be a positive integer, not '${values.limit}'`);
    }
    limit = Number(values.limit);
  } else if (format === 'text') limit = 20;
  if (positionals.length === 0)
    throw new UsageError('Give one or more slow-log FILEs, or - for standard input.');
  if (positionals.includes('-') && positionals.length > 1) {
    throw new UsageError('Standard input (-) cannot be combined with files.');
  }

  const printer = process.stderr.isTTY
    ? progressPrinter(io, '\r\x1b[K', '')
    : values.progress
      ? progressPrinter(io, '', '\n')
      : undefined;
  const record = values.record === true;
  const options = {
    orderBy,
    ...(values['all-attributes'] ? { attributes: 'all' as const } : {}),
    ...(values['pt-compatible'] ? { ptCompatible: true } : {}),
    // Recording keeps every class, so the limit applies to the output only.
    ...(limit === undefined || record ? {} : { limit }),
    // JSON writes every class: one at a time (see writeDigestJson), not all held at once.
    ...(format === 'json' && !record ? { lazy: true } : {}),
  };
  const digest = async (onProgress: (progress: SlowLogProgress) => void): Promise<SlowLogFileResult> => {
    if (positionals[0] === '-') {
      // Standard input streams through like a file: its raw bytes (exact fingerprints, as from a
      // file), chunk by chunk (no size limit, memory as for a file). Its size is known at the end.
      const digested = await digestStreams(
        [{ name: '-', bytes: 0, open: () => Readable.from(stdinBytes(io)) }],
        { ...options, onProgress },
      );
      digested.source.files = [{ path: '-', bytes: digested.source.bytesRead }];
      return digested;
    }
    const files = positionals.map((file) => path.resolve(io.cwd, file));
    const digested = await digestSlowLogFiles(files, { ...options, worker: false, onProgress });
    digested.source.files = digested.source.files.map((file, i) => ({
      ...file,
      path: positionals[i] ?? file.path,
    }));
    return digested;
  };
  // The digest runs as a job; its progress lines come from the job's events (the job.events channel
  // the UI listens to), not from a callback of our own.
  let shown: number | undefined;
  const digested = await runAsJob(
    'digest',
    (_signal, progress) =>
      digest((p) =>
        progress({
          bytesRead: p.bytesRead,
          totalBytes: p.totalBytes,
          events: p.events,
          eventsPerSecond: p.eventsPerSecond,
        }),
      ),
    (status) => {
      const read = status.progress.bytesRead;
      // One line per new position (the job's once-a-second heartbeat repeats the last one).
      if (!printer || read === undefined || read === shown) return;
      shown = read;
      printer(status.progress);
    },
  );
  if (printer && process.stderr.isTTY) io.stderr('\r\x1b[K');
  let result = digested;
  if (record) {
    const label =
      positionals[0] === '-' ? 'standard input' : positionals.map((file) => path.basename(file)).join(', ');
    const { recordWindow } = await import('../connections.js');
    await recordWindow(io, captureFromDigest(digested, 'file', label, new Date()), {
      profile: null,
      server: null,
      production: false,
    });
    if (limit !== undefined) result = { ...digested, classes: digested.classes.slice(0, limit) };
  }
  if (format === 'json') {
    await writeDigestJson(
      result,
      { metrics: values['all-attributes'] === true },
      io.stdout,
      io.stdoutDrained ?? (() => Promise.resolve()),
    );
  } else io.stdout(formatDigestText(result));
  return 0;
};

/**
 * Standard input as raw chunks; without a streaming io (tests), readStdin's text as UTF-8 bytes.
 * (Not input.ts's stdinChunks: that module loads the schema loader and SQL parser.)
 */
function stdinBytes(io: CliIo): AsyncIterable<Uint8Array> {
  if (io.stdinChunks) return io.stdinChunks();
  return (async function* () {
    yield Buffer.from(await io.readStdin());
  })();
}

function progressPrinter(io: CliIo, before: string, after: string): (progress: JobProgressReply) => void {
  return (p) => {
    const read = p.bytesRead ?? 0;
    const total = p.totalBytes ?? 0;
    // Standard input has no size until its end: bytes read only.
    const size =
      total > 0
        ? `${((read / total) * 100).toFixed(1)}%  ${(read / 1048576).toFixed(1)}/${(total / 1048576).toFixed(1)} MiB`
        : `${(read / 1048576).toFixed(1)} MiB`;
    io.stderr(`${before}${size}  ${p.events ?? 0} events  ${p.eventsPerSecond ?? 0} events/s${after}`);
  };
}
