// `sargable capture`: what ran on a live server over a window, from performance_schema digests or the slow_log table.

import { cliConnections, printNotices, recordWindow, slowLogJournalPath } from '../connections.js';
import { captureFromDelta, captureFromDigest } from '../../core/history/index.js';
import { windowOwner } from '../../main/services/history.js';
import type { DigestDelta } from '../../core/capture/index.js';
import { captureDigestWindow } from '../../main/services/capture.js';
import type { SlowLogFileResult } from '../../main/services/slowlog-file.js';
import {
  readSlowLogTable,
  slowLogTableEnd,
  type SlowLogTableResult,
} from '../../main/services/slowlog-table.js';
import { captureSlowLogWindow, previewSlowLogWindow } from '../../main/services/slowlog-window.js';
import { AdvisorError } from '../../shared/errors.js';
import { queryKiller } from '../../main/services/connection.js';
import { parseCommonArgs } from '../args.js';
import { runAsJob } from '../job.js';
import { digestToJson, formatDigestText } from '../format.js';
import { dsnWithPassword } from '../input.js';
import { UsageError, type CliCommand } from '../io.js';

export const usage = `Usage: sargable capture --dsn URL [options]

What ran on a live server during a window, ranked by total latency.

Sources:
  (default)                  performance_schema statement digests: snapshot, wait --window
                             seconds, snapshot, show the difference (never truncates anything)
  --source slow-log-table    read mysql.slow_log (log_output=TABLE): everything, or with
                             --window only rows written during the window
  --enable-slow-log          turn the slow log on for --window seconds (log_output gets TABLE,
                             long_query_time, log_slow_extra where supported), restore the
                             previous settings afterwards, digest the window. Changes global
                             settings: needs --allow-write (the SQL is printed first)

Options:
  --dsn URL                  mysql://user@host:3306/ (password: see "sargable --help")
  --window SECONDS           capture window (default 60 for digests and --enable-slow-log)
  --format text|json         output format (default text)
  --limit N                  show the top N classes (default 20 for text, all for json)
  --long-query-time SECONDS  with --enable-slow-log (default 0: every statement)
  --max-rows N               row limit of each bounded query (default 10000 digests, 100000 slow_log rows)
  --allow-write              consent to the SET GLOBAL statements of --enable-slow-log
  --record                   store the window in the capture history (every class, not only
                             the ones shown; see 'sargable history'). Off by default
  --progress                 with --enable-slow-log: a progress line per step on standard error
                             (on a terminal the line is shown in place anyway)
  -h, --help                 show this help

Exit codes: 0 ran, 2 usage or server error (performance_schema off, missing privilege…).`;

function positiveNumber(
  value: string | undefined,
  flag: string,
  fallback: number | undefined,
): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} takes a number >= 0, not '${value}'`);
  return n;
}

export const run: CliCommand = async (argv, io) => {
  const args = parseCommonArgs(
    argv,
    {
      dsn: { type: 'string' },
      window: { type: 'string' },
      limit: { type: 'string' },
      source: { type: 'string', default: 'digests' },
      'enable-slow-log': { type: 'boolean' },
      'allow-write': { type: 'boolean' },
      progress: { type: 'boolean' },
      'long-query-time': { type: 'string' },
      'max-rows': { type: 'string' },
      record: { type: 'boolean' },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, format } = args;
  if (!values.dsn) throw new UsageError('--dsn is required: sargable capture --dsn mysql://user@host:3306/');
  if (values.source !== 'digests' && values.source !== 'slow-log-table') {
    throw new UsageError(`--source must be digests or slow-log-table, not '${values.source}'`);
  }
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1)
      throw new UsageError(`--limit must be a positive integer, not '${values.limit}'`);
    limit = Number(values.limit);
  } else if (format === 'text') limit = 20;
  const enable = Boolean(values['enable-slow-log']);
  const windowSeconds = positiveNumber(
    values.window,
    '--window',
    values.source === 'slow-log-table' && !enable ? undefined : 60,
  );
  const longQueryTime = positiveNumber(values['long-query-time'], '--long-query-time', 0) ?? 0;
  const maxRowsValue = positiveNumber(values['max-rows'], '--max-rows', undefined);
  const maxRows = maxRowsValue === undefined ? {} : { maxRows: Math.max(1, Math.trunc(maxRowsValue)) };
  const record = values.record === true;
  // Recording keeps every class: the capture then runs without the limit, which only the output applies.
  const limitOption = limit === undefined || record ? {} : { limit };
  const shown = <T extends { classes: unknown[] }>(result: T): T =>
    record && limit !== undefined ? { ...result, classes: result.classes.slice(0, limit) } : result;

  const connections = cliConnections();
  const dsn = dsnWithPassword(values.dsn, io);
  const opened = await connections.openConnection({ dsn });
  printNotices(opened, io.stderr);
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const { connection, server, target } = connections.get(opened.connectionId);
    if (enable) {
      const plan = await previewSlowLogWindow(connection, server, { longQueryTime });
      io.stderr(
        `Slow-log window of ${windowSeconds}s on ${opened.label}:\n  apply:   ${plan.apply.join(';\n           ') || '(nothing to change)'}\n  restore: ${plan.restore.join(';\n           ') || '(nothing)'}\n`,
      );
      if (!values['allow-write']) {
        throw new AdvisorError('CONSENT_REQUIRED', '--enable-slow-log changes global server settings.', {
          hint: 'Add --allow-write to run the statements above (they are restored afterwards, also on error or Ctrl+C).',
        });
      }
      // The window runs as a job: progress lines come from its events (as in the app), and Ctrl+C
      // cancels it like job.cancel (the window ends early and is digested; during the read of
      // mysql.slow_log the read is killed on the server).
      const tty = process.stderr.isTTY === true;
      const lines = tty || values.progress === true;
      let shownSeconds = -1;
      const result = await runAsJob(
        'capture.slowLogWindow',
        (signal, progress) =>
          captureSlowLogWindow(target, server, connection, {
            consent: true,
            journalPath: slowLogJournalPath(),
            longQueryTime,
            seconds: windowSeconds ?? 60,
            signal,
            killQuery: queryKiller(target),
            onProgress: (p) => progress({ totalMs: p.totalMs }),
            ...limitOption,
            ...maxRows,
          }),
        (status) => {
          const seconds = Math.floor(status.progress.elapsedMs / 1000);
          if (!lines || status.state !== 'running' || !status.progress.totalMs || seconds === shownSeconds)
            return;
          shownSeconds = seconds;
          const total = Math.round(status.progress.totalMs / 1000);
          io.stderr(
            `${tty ? '\r\x1b[K' : ''}slow-log window: ${Math.min(seconds, total)} s of ${total} s${tty ? '' : '\n'}`,
          );
        },
        controller.signal,
      );
      if (tty) io.stderr('\r\x1b[K');
      io.stderr(`Restored: ${result.restored.join('; ') || '(nothing to restore)'}\n`);
      if (record) {
        const window = captureFromDigest(
          result,
          'slow_log',
          `${windowSeconds ?? 60} s slow-log window`,
          new Date(),
        );
        await recordWindow(io, window, windowOwner(target));
      }
      printSlowLog(shown(result), opened.label, format, io.stdout);
      return 0;
    }
    if (values.source === 'slow-log-table') {
      const cursor = windowSeconds === undefined ? undefined : await slowLogTableEnd(connection);
      if (windowSeconds !== undefined) {
        const { sleep } = await import('../../main/services/capture.js');
        await sleep(windowSeconds * 1000, controller.signal).catch(() => undefined);
      }
      const result = await readSlowLogTable(connection, {
        ...(cursor ? { cursor } : {}),
        ...limitOption,
        ...maxRows,
      });
      if (record) {
        const window = captureFromDigest(result, 'slow_log', 'mysql.slow_log read', new Date());
        await recordWindow(io, window, windowOwner(target));
      }
      printSlowLog(shown(result), opened.label, format, io.stdout);
      return 0;
    }
    const delta = await captureDigestWindow(connection, server, windowSeconds ?? 60, {
      signal: controller.signal,
      // A server restart mid-window: connect again (for up to 60 s) and go on polling; the
      // result then says the server restarted.
      reconnect: async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            const again = await connections.openConnection({ dsn });
            return connections.get(again.connectionId).connection;
          } catch (error) {
            if (attempt >= 60 || controller.signal.aborted) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
      },
      ...limitOption,
      ...maxRows,
    });
    if (record) await recordWindow(io, captureFromDelta(delta), windowOwner(target));
    const output = shown(delta);
    io.stdout(
      format === 'json'
        ? `${JSON.stringify({ source: { kind: 'performance_schema', server: opened.label }, ...output }, null, 2)}\n`
        : formatDeltaText(output, opened.label),
    );
    return 0;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await connections.closeAll();
  }
};

function printSlowLog(
  result: SlowLogTableResult,
  label: string,
  format: string,
  out: (text: string) => void,
): void {
  const asFile: SlowLogFileResult = {
    ...result,
    source: {
      files: [{ path: `${label} mysql.slow_log`, bytes: 0 }],
      bytesRead: 0,
      events: result.global.events,
      elapsedMs: 0,
    },
  };
  if (format === 'json') {
    out(
      `${JSON.stringify(
        {
          ...digestToJson(asFile),
          source: { kind: 'slow_log', server: label, ...result.source },
          cursor: result.cursor,
          reset: result.reset,
          complete: result.complete,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    let text = formatDigestText(asFile);
    if (result.reset)
      text = `# mysql.slow_log was truncated or rotated since the cursor: read from the start.\n${text}`;
    if (!result.complete) text += '# More rows remain: raise --max-rows.\n';
    out(text);
  }
}

/** The text report of a digest delta. */
export function formatDeltaText(delta: DigestDelta, label: string): string {
  const lines: string[] = [];
  lines.push(
    `# ${label}: performance_schema digests, ${delta.windowSeconds}s window from ${delta.from.takenAt}: ${delta.totals.count} statements, ${delta.totals.classes} digests, ${delta.totals.totalMs.toFixed(3)} ms total`,
  );
  for (const note of delta.notes) lines.push(`# note: ${note.message}`);
  lines.push('');
  lines.push(
    `${'Rank'.padStart(4)}  ${'Total ms'.padStart(12)}  ${'Calls'.padStart(7)}  ${'Avg ms'.padStart(9)}  ${'Exam/sent'.padStart(9)}  ${'NoIdx'.padStart(5)}  ${'TmpDisk'.padStart(7)}  ${'Schema'.padEnd(16)}  Query`,
  );
  delta.classes.forEach((c, i) => {
    const text = (c.fingerprint?.fingerprint ?? c.digestText ?? '').replace(/\s+/g, ' ');
    const query = text.length > 100 ? `${text.slice(0, 97)}...` : text;
    lines.push(
      `${String(i + 1).padStart(4)}  ${c.totalMs.toFixed(3).padStart(12)}  ${String(c.count).padStart(7)}  ${c.avgMs.toFixed(3).padStart(9)}  ${(c.examinedPerSent === null ? '-' : c.examinedPerSent.toFixed(1)).padStart(9)}  ${String(c.noIndexUsed).padStart(5)}  ${String(c.tmpDiskTables).padStart(7)}  ${(c.schema ?? '-').padEnd(16)}  ${query}`,
    );
  });
  if (delta.overflow) {
    lines.push(`# ${delta.overflow.count} statement(s) had no digest row (table full).`);
  }
  return `${lines.join('\n')}\n`;
}
