// The Top queries panel's runs: digest a slow-log file, read mysql.slow_log, the consented slow-log window, cancel.
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply, SlowLogTableReply } from '../../shared/api/capture.js';
import type { HistoryRecordReply } from '../../shared/api/history.js';
import { topClassesFromDigest } from '../../core/capture/index.js';
import { toShownError, type ShownError } from '../components/error-box.js';
import { productionField } from '../components/production-confirm.js';
import { jobError, listFromJob, parseWindow, type TopQueriesAction } from './top-queries.js';

/** What the runs work with: the API, the panel's dispatch, and a follower of job events. */
export interface TopRunContext {
  api: AdvisorApi;
  dispatch(action: TopQueriesAction): void;
  follow(jobId: string, onStatus: (status: JobStatusReply) => void): Promise<JobStatusReply | null>;
  /** Jobs the user stopped (their list is labelled as ended early). */
  stopped: Set<string>;
  /** The live connection, if any: a digested file is stored in the history under its profile. */
  connectionId?: string | null;
}

/** What the history stored of a reply or a job's result (null: it was not offered). */
function recordedOf(result: unknown): HistoryRecordReply | null {
  return (result as { recorded?: HistoryRecordReply } | null | undefined)?.recorded ?? null;
}

const endedEarly = 'slow-log window (ended early)';

/** Show a finished job: its error, or its classes. */
function showFinished(ctx: TopRunContext, status: JobStatusReply, label: string): void {
  const error = jobError(status);
  if (error) ctx.dispatch({ type: 'run/failed', error });
  const list = listFromJob(status, ctx.stopped.has(status.jobId) ? endedEarly : label);
  if (list) {
    ctx.dispatch({ type: 'list/shown', list });
    ctx.dispatch({ type: 'history/recorded', recorded: recordedOf(status.result) });
  }
}

/** Follow a job's events to its end: every status goes to the progress line, the last one to the table. */
export async function followToList(ctx: TopRunContext, jobId: string, label: string): Promise<void> {
  try {
    const last = await ctx.follow(jobId, (status) => ctx.dispatch({ type: 'job/updated', status }));
    if (last && last.state !== 'running') showFinished(ctx, last, label);
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
  }
}

/**
 * Digest a slow-log file on this machine in the background (view: 'top'). `ref` is the opaque
 * reference of a file picked with "Choose file…" (then `path` is just its name, for the label).
 */
export async function digestFile(ctx: TopRunContext, path: string, ref?: string): Promise<void> {
  const trimmed = path.trim();
  if (!trimmed) {
    ctx.dispatch({
      type: 'run/failed',
      error: { code: 'INVALID_INPUT', message: 'Enter the path of a slow log file on this machine.' },
    });
    return;
  }
  ctx.dispatch({ type: 'run/reset' });
  let jobId: string;
  try {
    ({ jobId } = await ctx.api['digest.start']({
      paths: [ref ?? trimmed],
      view: 'top',
      record: true,
      ...(ctx.connectionId ? { connectionId: ctx.connectionId } : {}),
    }));
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
    return;
  }
  await followToList(ctx, jobId, trimmed);
}

/** Read mysql.slow_log (from the start, or on from `cursor`). */
export async function readTable(
  ctx: TopRunContext,
  connectionId: string,
  cursor?: SlowLogTableReply['cursor'],
): Promise<void> {
  if (!cursor) ctx.dispatch({ type: 'run/reset' });
  ctx.dispatch({ type: 'table/busy', busy: true });
  try {
    // The first read is a window of the history; "Read more rows" goes on with the same one.
    const reply = await ctx.api['capture.slowLogTable']({
      connectionId,
      ...(cursor ? { cursor } : { record: true }),
    });
    ctx.dispatch({
      type: 'list/shown',
      list: {
        source: { kind: 'slow_log', label: 'mysql.slow_log' },
        events: reply.global.events,
        classes: topClassesFromDigest(reply),
        timeline: reply.timeline,
      },
    });
    if (!cursor) ctx.dispatch({ type: 'history/recorded', recorded: recordedOf(reply) });
    ctx.dispatch({ type: 'table/more', cursor: reply.complete ? null : reply.cursor });
    const why = reply.logging ? emptySlowLogNote(reply.logging) : null;
    if (why) ctx.dispatch({ type: 'run/failed', error: why });
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
  } finally {
    ctx.dispatch({ type: 'table/busy', busy: false });
  }
}

/**
 * Why mysql.slow_log has no rows, and how to change that: the server writes its slow log to a file
 * (log_output without TABLE), or does not write it at all (slow_query_log=OFF).
 */
export function emptySlowLogNote(logging: NonNullable<SlowLogTableReply['logging']>): ShownError {
  const toTable = logging.logOutput.split(',').includes('TABLE');
  const reasons: string[] = [];
  if (!toTable)
    reasons.push(
      `writes its slow log to ${logging.logOutput === 'NONE' ? 'nowhere' : 'a file'} (log_output=${logging.logOutput}), not to the table`,
    );
  if (!logging.slowQueryLog) reasons.push('has the slow log off (slow_query_log=OFF)');
  const message =
    reasons.length > 0
      ? `mysql.slow_log is empty because this server ${reasons.join(' and ')}.`
      : `mysql.slow_log is empty: the slow log goes to the table, but no statement took longer than long_query_time (${logging.longQueryTime} s) since the table was last emptied.`;
  const switchSql = [
    ...(toTable ? [] : ["SET GLOBAL log_output = 'FILE,TABLE';"]),
    ...(logging.slowQueryLog ? [] : ['SET GLOBAL slow_query_log = ON;']),
  ];
  const file =
    !toTable && logging.file && logging.logOutput !== 'NONE'
      ? `Read its file (${logging.file}) with the Slow log file source, or switch`
      : 'Switch';
  const hint =
    reasons.length > 0
      ? `${file}: ${switchSql.join(' ')} (needs SYSTEM_VARIABLES_ADMIN or SUPER; new connections log from then on), or use "Turn slow log on for the window…", which does this for a while and restores the settings.`
      : 'Lower long_query_time (SET GLOBAL long_query_time = 0.5;) or use "Turn slow log on for the window…" (long_query_time = 0 for the window).';
  return { code: 'NOTE', message, hint };
}

/** Ask the server what the slow-log window would change, and show it for consent. */
export async function planWindow(
  ctx: TopRunContext,
  connectionId: string,
  windowText: string,
): Promise<void> {
  const seconds = parseWindow(windowText);
  if (typeof seconds !== 'number') {
    ctx.dispatch({ type: 'run/failed', error: seconds });
    return;
  }
  ctx.dispatch({ type: 'run/failed', error: null });
  try {
    const plan = await ctx.api['capture.slowLogWindowPlan']({ connectionId, longQueryTime: 0 });
    ctx.dispatch({ type: 'consent/asked', plan, seconds });
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
  }
}

/** With consent (and the profile name on production): run the window as a job and follow it. */
export async function startWindow(
  ctx: TopRunContext,
  connectionId: string,
  seconds: number,
  production: string | null,
  confirmation: string | undefined,
): Promise<void> {
  ctx.dispatch({ type: 'consent/closed' });
  ctx.dispatch({ type: 'run/reset' });
  let jobId: string;
  try {
    ({ jobId } = await ctx.api['capture.slowLogWindow']({
      connectionId,
      seconds,
      longQueryTime: 0,
      consent: true,
      ...productionField(production, confirmation ?? ''),
    }));
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
    return;
  }
  await followToList(ctx, jobId, `slow-log window of ${seconds} s`);
}

/** Stop a running job: a slow-log window ends early, restores the settings and is still digested. */
export async function cancelJob(ctx: TopRunContext, jobId: string): Promise<void> {
  ctx.stopped.add(jobId);
  try {
    const status = await ctx.api['job.cancel']({ jobId });
    ctx.dispatch({ type: 'job/updated', status });
    showFinished(ctx, status, endedEarly);
  } catch (caught) {
    ctx.dispatch({ type: 'run/failed', error: toShownError(caught) });
  }
}
