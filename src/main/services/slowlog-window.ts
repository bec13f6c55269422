// The slow-log window helper: with consent, turn the slow log on for a while and restore the settings afterwards, also on error or cancel.
/*
 * Design note
 * -----------
 * Writes need their own connection (`connect(target, { readOnly: false })`); analysis
 * connections stay read-only. The sequence is: read the current values (SHOW GLOBAL
 * VARIABLES), plan (core `planSlowLogWindow`), remember where mysql.slow_log ends, run the
 * `apply` statements one by one, run the caller's function, then in `finally` run the `restore`
 * statements of the ones that were applied (a failed apply restores what it changed). A restore
 * statement that fails does not stop the others; failures are reported in the result and in
 * the thrown error. Without `consent: true` nothing runs and the error shows the exact SQL.
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  planSlowLogWindow,
  slowLogWindowVariables,
  type SlowLogSettings,
  type SlowLogWindowOptions,
  type SlowLogWindowPlan,
} from '../../core/capture/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { AdvisorError } from '../../shared/errors.js';
import { CAPTURE_MARKER, sleep } from './capture.js';
import { connect, type ConnectionTarget, type QueryKiller } from './connection.js';
import { mapMysqlError } from './mysql-errors.js';
import { clearWindow, recordWindow, serverIdentity } from './slowlog-journal.js';
import {
  readSlowLogTable,
  slowLogTableEnd,
  type SlowLogTableCursor,
  type SlowLogTableResult,
} from './slowlog-table.js';

/** Options for {@link withSlowLogWindow}. */
export interface SlowLogWindowRunOptions extends SlowLogWindowOptions {
  /** The user saw the plan and agreed. Without it nothing runs. */
  consent: boolean;
  /**
   * The journal file (slowlog-journal.ts): the previous values are recorded there before any global
   * changes, so a crash is repaired on the next start or connect. The app and the CLI always pass it.
   */
  journalPath?: string;
}

/** What happened to the settings. */
export interface SlowLogWindowOutcome<T> {
  value: T;
  plan: SlowLogWindowPlan;
  /** mysql.slow_log position before the window: read from here for the window's statements. */
  cursor: SlowLogTableCursor;
  /** Restore statements that ran successfully. */
  restored: string[];
}

/** Reads the current values of the variables the window touches. */
export async function readSlowLogSettings(connection: Connection): Promise<SlowLogSettings> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN (${slowLogWindowVariables.map(() => '?').join(', ')})`,
    [...slowLogWindowVariables],
  );
  const values = new Map(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
  return {
    slow_query_log: values.get('slow_query_log') ?? 'OFF',
    long_query_time: values.get('long_query_time') ?? '10',
    log_output: values.get('log_output') ?? 'FILE',
    log_slow_extra: values.get('log_slow_extra'),
  };
}

/** The plan for a server, without changing anything (to show the exact SQL before consent). */
export async function previewSlowLogWindow(
  connection: Connection,
  server: ServerInfo,
  options: SlowLogWindowOptions = {},
): Promise<SlowLogWindowPlan> {
  const settings = await readSlowLogSettings(connection).catch((error: unknown) => {
    throw mapMysqlError(error, { action: 'Reading the slow-log settings' });
  });
  return planSlowLogWindow(settings, server.capabilities, options);
}

function consentError(plan: SlowLogWindowPlan): AdvisorError {
  return new AdvisorError(
    'CONSENT_REQUIRED',
    `Turning the slow log on changes global server settings: ${plan.apply.join('; ') || '(nothing to change)'}; they are restored afterwards (${plan.restore.join('; ') || 'nothing'}).`,
    { hint: 'Confirm to run these statements (CLI: --allow-write).' },
  );
}

function setError(error: unknown, server: ServerInfo, statement: string): AdvisorError {
  const mapped = mapMysqlError(error, { action: statement });
  if (mapped.code !== 'PRIVILEGE_MISSING') return mapped;
  const grant =
    server.flavor === 'mariadb'
      ? 'GRANT SUPER ON *.* TO <user>; (MariaDB)'
      : 'GRANT SYSTEM_VARIABLES_ADMIN ON *.* TO <user>; (MySQL 8; SUPER on 5.7)';
  return new AdvisorError(
    'PRIVILEGE_MISSING',
    `${statement} failed: ${mapped.userMessage}`,
    { ...mapped.details, hint: grant },
    { cause: error },
  );
}

/**
 * Turns the slow log on (log_output gets TABLE), runs `fn`, and restores the previous settings,
 * also when `fn` throws. `long_query_time` applies to connections opened after the change: run
 * the workload on new connections.
 */
export async function withSlowLogWindow<T>(
  target: ConnectionTarget,
  server: ServerInfo,
  options: SlowLogWindowRunOptions,
  fn: (context: { plan: SlowLogWindowPlan; connection: Connection }) => Promise<T>,
): Promise<SlowLogWindowOutcome<T>> {
  const connection = await connect(target, { readOnly: false });
  try {
    const settings = await readSlowLogSettings(connection).catch((error: unknown) => {
      throw mapMysqlError(error, { action: 'Reading the slow-log settings' });
    });
    const plan = planSlowLogWindow(settings, server.capabilities, options);
    if (options.consent !== true) throw consentError(plan);
    const cursor = await slowLogTableEnd(connection);
    // Journal first: from here on a crash leaves a record that the next start or connect repairs.
    const journalId =
      options.journalPath && plan.apply.length > 0
        ? recordWindow(options.journalPath, {
            host: target.host,
            port: target.port,
            serverIdentity: await serverIdentity(connection),
            previous: settings,
            during: plan.during,
          })
        : undefined;
    let applied = 0;
    const restored: string[] = [];
    let value: T;
    try {
      for (const statement of plan.apply) {
        try {
          await connection.query(`${CAPTURE_MARKER} ${statement}`);
        } catch (error) {
          throw setError(error, server, statement);
        }
        applied++;
      }
      value = await fn({ plan, connection });
    } finally {
      const failures: string[] = [];
      // restore[i] undoes apply[n-1-i]: keep the ones for applied statements only.
      for (const statement of plan.restore.slice(plan.restore.length - applied)) {
        try {
          await connection.query(`${CAPTURE_MARKER} ${statement}`);
          restored.push(statement);
        } catch (error) {
          failures.push(`${statement}: ${mapMysqlError(error).userMessage}`);
        }
      }
      if (failures.length === 0 && journalId && options.journalPath)
        clearWindow(options.journalPath, journalId);
      if (failures.length > 0) {
        // eslint-disable-next-line no-unsafe-finally
        throw new AdvisorError(
          'SERVER_ERROR',
          `Could not restore the slow-log settings: ${failures.join('; ')}.`,
          { hint: `Run these statements by hand: ${plan.restore.join('; ')}` },
        );
      }
    }
    return { value, plan, cursor, restored };
  } finally {
    await connection.end().catch(() => undefined);
  }
}

/** Options for {@link captureSlowLogWindow}. */
export interface SlowLogWindowCaptureOptions extends SlowLogWindowRunOptions {
  seconds: number;
  /**
   * Stop: during the window it ends the window early (the window is still digested); once the
   * window is over it stops the read of mysql.slow_log, killing the batch SELECT in flight with
   * `killQuery` (KILL QUERY of our own connection).
   */
  signal?: AbortSignal;
  killQuery?: QueryKiller;
  orderBy?: string;
  limit?: number;
  maxRows?: number;
  onProgress?(progress: { elapsedMs: number; totalMs: number }): void;
}

/**
 * Turns the slow log on for `seconds` (or until `signal` aborts: the window then ends early and is
 * still digested), restores the settings, then digests the window's rows of mysql.slow_log
 * through the read-only `reader` connection.
 */
export async function captureSlowLogWindow(
  target: ConnectionTarget,
  server: ServerInfo,
  reader: Connection,
  options: SlowLogWindowCaptureOptions,
): Promise<SlowLogTableResult & { plan: SlowLogWindowPlan; restored: string[] }> {
  const totalMs = Math.round(options.seconds * 1000);
  const outcome = await withSlowLogWindow(target, server, options, async () => {
    const started = Date.now();
    while (Date.now() - started < totalMs && !options.signal?.aborted) {
      await sleep(Math.min(250, totalMs - (Date.now() - started)), options.signal).catch(() => undefined);
      options.onProgress?.({ elapsedMs: Math.min(totalMs, Date.now() - started), totalMs });
    }
  });
  // The server writes a row after answering its client: let the window's last rows land.
  await sleep(200);
  // A stop that ended the window still gets its digest; a stop from now on stops the read.
  const read = new AbortController();
  const stopRead = () => read.abort();
  if (!options.signal?.aborted) options.signal?.addEventListener('abort', stopRead, { once: true });
  const result = await readSlowLogTable(reader, {
    cursor: outcome.cursor,
    signal: read.signal,
    ...(options.killQuery ? { killQuery: options.killQuery } : {}),
    ...(options.orderBy === undefined ? {} : { orderBy: options.orderBy }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.maxRows === undefined ? {} : { maxRows: options.maxRows }),
  });
  options.signal?.removeEventListener('abort', stopRead);
  return { ...result, plan: outcome.plan, restored: outcome.restored };
}
