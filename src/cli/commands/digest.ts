// `sargable digest`: group slow-log queries by fingerprint like pt-query-digest, ranked by total time.
import path from 'node:path';
import { Readable } from 'node:stream';
import { utf8ToBinaryString, type MetricSummary } from '../../core/slowlog/index.js';
import {
  digestSlowLogFiles,
  digestStreams,
  type SlowLogFileResult,
  type SlowLogProgress,
} from '../../main/services/slowlog-file.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';

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
  --pt-compatible          read the log exactly as pt-query-digest 3.2.1 does, also where it
                           is wrong (literals holding ';\n#', your own SET timestamp, MariaDB's
                           mariadbd banner, CRLF logs, mixed time formats; see docs/slowlog.md)
  -h, --help               show this help

Reads standard input with -. Progress goes to standard error when it is a terminal.
With --dsn it digests what ran on a live server instead: performance_schema statement digests over
--window seconds (the same as 'sargable capture'; see 'sargable capture --help' for more sources).
Exit codes: 0 ran, 2 usage or input error.`;

const ORDER_BY = /^[A-Za-z_]+:(?:sum|min|max|avg|cnt)$/;

export const run: CliCommand = async (argv, io) => {
  if (argv.some((arg) => arg === '--dsn' || arg.startsWith('--dsn='))) {
    const { run: capture } = await import('./capture.js');
    return capture(argv, io);
  }
  const { values, positionals } = parseCommandArgs(argv, {
    format: { type: 'string', default: 'text' },
    limit: { type: 'string' },
    'order-by': { type: 'string', default: 'Query_time:sum' },
    'all-attributes': { type: 'boolean' },
    'pt-compatible': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  const format = values.format;
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format must be text or json, not '${format}'`);
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

  const onProgress = process.stderr.isTTY ? progressPrinter(io) : undefined;
  const options = {
    orderBy,
    ...(values['all-attributes'] ? { attributes: 'all' as const } : {}),
    ...(values['pt-compatible'] ? { ptCompatible: true } : {}),
    ...(limit === undefined ? {} : { limit }),
    ...(onProgress ? { onProgress } : {}),
  };
  let result: SlowLogFileResult;
  if (positionals[0] === '-') {
    // Standard input arrives decoded; re-encode to the bytes' binary view for exact fingerprints.
    const text = utf8ToBinaryString(await io.readStdin());
    result = await digestStreams(
      [{ name: '-', bytes: text.length, open: () => Readable.from([Buffer.from(text, 'latin1')]) }],
      options,
    );
  } else {
    const files = positionals.map((file) => path.resolve(io.cwd, file));
    result = await digestSlowLogFiles(files, { ...options, worker: false });
    result.source.files = result.source.files.map((file, i) => ({
      ...file,
      path: positionals[i] ?? file.path,
    }));
  }
  if (onProgress) io.stderr('\r\x1b[K');
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(toJson(result, { metrics: values['all-attributes'] === true }), null, 2)}\n`
      : formatDigestText(result),
  );
  return 0;
};

function progressPrinter(io: CliIo): (progress: SlowLogProgress) => void {
  return (p) => {
    const pct = p.totalBytes > 0 ? ((p.bytesRead / p.totalBytes) * 100).toFixed(1) : '100.0';
    io.stderr(
      `\r\x1b[K${pct}%  ${(p.bytesRead / 1048576).toFixed(1)}/${(p.totalBytes / 1048576).toFixed(1)} MiB  ${p.events} events  ${p.eventsPerSecond} events/s`,
    );
  };
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

function metricJson(metric: MetricSummary | undefined, seconds: boolean) {
  if (!metric) return null;
  const r = (n: number): number => (seconds ? round(n, 6) : round(n, 2));
  return {
    sum: r(metric.sum),
    min: r(metric.min),
    max: r(metric.max),
    avg: r(metric.avg),
    median: r(metric.median),
    p95: r(metric.p95),
  };
}

/**
 * The stable JSON contract of `sargable digest --format json` (issue: Slow query capture, CLI):
 * `{ source, events, classes: [{ checksum, fingerprint, count, queryTime, lockTime, rowsSent,
 * rowsExamined, firstSeen, lastSeen, schemas, example }], skipped: [{ line, reason }] }`.
 * Metrics are `{ sum, min, max, avg, p95, median }` (null when the log has no such field);
 * `example` is the full text of the slowest query of the class. Fields beyond the contract
 * (`users`, `hosts`, `exampleQueryTime`, `queryTimeHistogram`, `execution`, `global`, `flags`,
 * `metrics` with --all-attributes, `file` and
 * `offset` of a skip…)
 * are extras that may grow.
 */
export function toJson(result: SlowLogFileResult, extras: { metrics?: boolean } = {}) {
  const g = result.global;
  return {
    source: result.source,
    events: g.events,
    classes: result.classes.map((c) => ({
      checksum: c.checksum,
      fingerprint: c.fingerprint,
      count: c.queryCount,
      queryTime: metricJson(c.queryTime, true),
      lockTime: metricJson(c.lockTime, true),
      rowsSent: metricJson(c.rowsSent, false),
      rowsExamined: metricJson(c.rowsExamined, false),
      rowsAffected: metricJson(c.rowsAffected, false),
      queryTimeHistogram: c.queryTimeHistogram ?? null,
      firstSeen: c.firstSeen ?? null,
      lastSeen: c.lastSeen ?? null,
      schemas: c.schemas,
      example: c.example.sql,
      exampleQueryTime: c.example.queryTime ?? null,
      exampleSeen: c.example.ts ?? null,
      exampleSchema: c.example.schema ?? null,
      exampleLine: c.example.line,
      users: c.users,
      hosts: c.hosts,
      execution: c.execution,
      flags: c.flags,
      ...(extras.metrics ? { metrics: c.metrics } : {}),
      ranked: c.ranked,
    })),
    skipped: result.skipped.map((s) => ({
      line: s.line,
      reason: s.reason,
      ...(s.file === undefined ? {} : { file: s.file }),
      offset: s.offset,
    })),
    skippedTotal: result.skippedTotal,
    global: {
      queryCount: g.queryCount,
      uniqueQueryCount: g.uniqueQueryCount,
      queryTime: metricJson(g.queryTime, true),
      lockTime: metricJson(g.lockTime, true),
      rowsSent: metricJson(g.rowsSent, false),
      rowsExamined: metricJson(g.rowsExamined, false),
      firstSeen: g.firstSeen ?? null,
      lastSeen: g.lastSeen ?? null,
    },
  };
}

/** A pt-query-digest-like profile table. */
export function formatDigestText(result: SlowLogFileResult): string {
  const g = result.global;
  const total = g.queryTime?.sum ?? 0;
  const lines: string[] = [];
  const files = result.source.files.map((f) => f.path).join(', ');
  lines.push(
    `# ${files}: ${result.source.bytesRead} bytes, ${g.events} events, ${g.uniqueQueryCount} classes, Query_time total ${total.toFixed(6)} s`,
  );
  if (g.firstSeen) lines.push(`# From ${g.firstSeen} to ${g.lastSeen}`);
  lines.push('');
  lines.push(
    `${'Rank'.padStart(4)}  ${'Time (s)'.padStart(12)}  ${'%'.padStart(5)}  ${'Calls'.padStart(7)}  ${'Avg (s)'.padStart(9)}  ${'p95 (s)'.padStart(9)}  ${'Checksum'.padEnd(34)}  Fingerprint`,
  );
  result.classes.forEach((c, i) => {
    const sum = c.queryTime?.sum ?? 0;
    const fp = c.fingerprint.length > 100 ? `${c.fingerprint.slice(0, 97)}...` : c.fingerprint;
    lines.push(
      `${String(i + 1).padStart(4)}  ${sum.toFixed(6).padStart(12)}  ${(total > 0 ? (sum / total) * 100 : 0).toFixed(1).padStart(5)}  ${String(c.queryCount).padStart(7)}  ${(c.queryTime?.avg ?? 0).toFixed(6).padStart(9)}  ${(c.queryTime?.p95 ?? 0).toFixed(6).padStart(9)}  0x${c.checksum}  ${fp}`,
    );
  });
  if (result.skippedTotal > 0) {
    lines.push('');
    lines.push(`# ${result.skippedTotal} record(s) skipped:`);
    for (const s of result.skipped.slice(0, 10)) lines.push(`#   ${s.file ?? ''}:${s.line}: ${s.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
