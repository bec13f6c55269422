// `sargable history`: the stored capture history (windows recorded by the app or by --record) as text, JSON or CSV.

import fs from 'node:fs';
import {
  historyRowsToCsv,
  historySources,
  type HistorySource,
  type HistoryWindow,
} from '../../core/history/index.js';
import { parseCommandArgs } from '../args.js';
import { cliHistory } from '../connections.js';
import { UsageError, type CliCommand } from '../io.js';

export const usage = `Usage: sargable history [options]

The capture history: the windows the app recorded (live performance_schema windows, mysql.slow_log
reads and windows, imported slow logs) and those 'sargable capture/digest --record' stored, one
row per class per window. Read from history.sqlite in the config directory.

Options:
  --format text|json|csv   text: windows and the top classes' counts per window with
                           markers; json/csv: every class of every window (default text)
  --profile NAME           windows of this profile name, or of this host:port
  --source SOURCE          performance_schema, slow_log or file
  --since WHEN             windows that ended since WHEN: an ISO date/time, or 30m, 24h, 7d
  --before WHEN            windows that ended before WHEN (same forms: --before 30d is older
                           than 30 days)
  --class ID               one class: its id (checksum, or schema/DIGEST), checksum or digest
  --limit N                text: the top N classes of the newest window (default 20)
  --clear                  delete the windows the filters above select (--profile, --source,
                           --since, --before), and their classes; no prompt: the filters are
                           the confirmation. Without a filter it needs --all
  --all                    with --clear: delete every window
  -h, --help               show this help

Exit codes: 0 ran, 2 usage error or an unreadable history file.`;

const RELATIVE = /^(\d+)\s*([mhd])$/;

/** `--since` / `--before`: an ISO date/time, or a duration back from `now`. */
export function parseSince(value: string, now: Date, flag = '--since'): string {
  const relative = RELATIVE.exec(value.trim());
  if (relative) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 'm' | 'h' | 'd'];
    return new Date(now.getTime() - Number(relative[1]) * unit).toISOString();
  }
  const parsed = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(parsed)) {
    throw new UsageError(
      `${flag} takes an ISO date (2026-01-31, 2026-01-31T08:00:00Z) or 30m, 24h, 7d, not '${value}'`,
    );
  }
  return new Date(parsed).toISOString();
}

function windowLine(window: HistoryWindow): string {
  const owner = window.profile ?? window.server ?? '(no profile)';
  return `#${window.id}  ${window.end}  ${window.source}  ${owner}  ${window.label}: ${window.events} statements, ${window.classes} classes`;
}

export const run: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(argv, {
    format: { type: 'string', default: 'text' },
    profile: { type: 'string' },
    source: { type: 'string' },
    since: { type: 'string' },
    class: { type: 'string' },
    limit: { type: 'string' },
    before: { type: 'string' },
    clear: { type: 'boolean' },
    all: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  const format = values.format;
  if (format !== 'text' && format !== 'json' && format !== 'csv') {
    throw new UsageError(`--format must be text, json or csv, not '${format}'`);
  }
  if (values.source !== undefined && !(historySources as readonly string[]).includes(values.source)) {
    throw new UsageError(`--source must be one of ${historySources.join(', ')}, not '${values.source}'`);
  }
  if (values.limit !== undefined && (!/^\d+$/.test(values.limit) || Number(values.limit) < 1)) {
    throw new UsageError(`--limit must be a positive integer, not '${values.limit}'`);
  }
  const scope = {
    ...(values.profile === undefined ? {} : { profile: values.profile }),
    ...(values.source === undefined ? {} : { source: values.source as HistorySource }),
    ...(values.since === undefined ? {} : { since: parseSince(values.since, new Date()) }),
    ...(values.before === undefined ? {} : { before: parseSince(values.before, new Date(), '--before') }),
  };
  if (values.all && !values.clear) throw new UsageError('--all goes with --clear');
  const history = cliHistory(io.env);
  if (values.clear) {
    if (values.class !== undefined) {
      throw new UsageError(
        '--clear deletes whole windows; --class cannot scope it (use --profile, --source, --since, --before)',
      );
    }
    if (Object.keys(scope).length === 0 && !values.all) {
      throw new UsageError(
        '--clear needs a filter (--profile, --source, --since, --before) or --all to delete every window',
      );
    }
    // No history file yet: nothing to delete, and none is created.
    const windowsDeleted = fs.existsSync(history.file) ? (await history.clear(scope)).windowsDeleted : 0;
    if (format === 'json') {
      io.stdout(`${JSON.stringify({ file: history.file, windowsDeleted })}\n`);
    } else {
      io.stdout(`Deleted ${windowsDeleted} window${windowsDeleted === 1 ? '' : 's'} from ${history.file}.\n`);
    }
    return 0;
  }
  if (format === 'csv' || format === 'json') {
    const rows = await history.exportRows({
      ...scope,
      ...(values.class === undefined ? {} : { classId: values.class }),
    });
    if (format === 'csv') {
      io.stdout(historyRowsToCsv(rows));
      return 0;
    }
    const ids = new Set(rows.map((row) => row.windowId));
    const windows = (await history.windows(scope, 1_000_000)).filter(
      (window) => values.class === undefined || ids.has(window.id),
    );
    io.stdout(
      `${JSON.stringify({ format: 'sargable-history/1', file: history.file, windows: windows.reverse(), rows }, null, 2)}\n`,
    );
    return 0;
  }
  const windows = await history.windows(scope, 20);
  if (windows.length === 0) {
    io.stdout(
      `No capture windows stored${Object.keys(scope).length > 0 ? ' for this filter' : ''} (${history.file}).\n`,
    );
    return 0;
  }
  const lines = [`# ${history.file}`, '# Windows (newest first):', ...windows.map(windowLine), ''];
  // Trends are per scope: the newest window's profile and source unless given.
  const newest = windows[0]!;
  const trends = await history.trends({
    ...scope,
    windowId: newest.id,
    ...(values.class === undefined ? {} : { classIds: [values.class] }),
    limit: values.limit === undefined ? 20 : Number(values.limit),
  });
  lines.push(
    `# Top classes of #${newest.id}, count per window (${trends.windows.map((w) => `#${w.id}`).join(' ')}):`,
  );
  for (const trend of trends.classes) {
    const marks = [
      ...(trend.markers.new ? ['new'] : []),
      ...(trend.markers.regressed
        ? [`regressed x${trend.markers.regressed.factor} (${trend.markers.regressed.metric})`]
        : []),
    ];
    const series = trend.points.map((point) => (point ? String(point.count) : '-')).join(' ');
    const text = trend.fingerprint.replace(/\s+/g, ' ');
    lines.push(
      `${trend.classId}  [${series}]${marks.length > 0 ? `  ${marks.join(', ')}` : ''}  ${text.length > 100 ? `${text.slice(0, 97)}...` : text}`,
    );
  }
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
};
