// Plans a slow-log window: the SET GLOBAL statements that turn logging on and the ones that restore it.
/*
 * Design note
 * -----------
 * The window helper changes global server settings, so the plan is computed up front and shown
 * to the user (the exact SQL) before anything runs. From the current values of the variables it
 * builds two lists:
 *   apply:   `SET GLOBAL slow_query_log = ON`, `long_query_time = N`, `log_output = '…,TABLE'`
 *            (TABLE is added to what is there, so a FILE log keeps being written), and
 *            `log_slow_extra = ON` where the server has it (capability `logSlowExtra`);
 *   restore: the previous value of every variable that `apply` changes, in reverse order.
 * Variables already at the wanted value are left alone and not restored. `long_query_time` only
 * applies to connections opened after the change (server-facts: SERVERS.md), so the workload
 * must come from new connections.
 */
import type { Capabilities } from '../flavors/capabilities.js';

/** Current values of the variables the window touches (as SHOW GLOBAL VARIABLES prints them). */
export interface SlowLogSettings {
  slow_query_log: string;
  long_query_time: string;
  log_output: string;
  /** Absent where the server has no such variable. */
  log_slow_extra?: string | undefined;
}

/** What the user asks for. */
export interface SlowLogWindowOptions {
  /** Seconds; 0 logs every statement. Default 0. */
  longQueryTime?: number;
  /** Also write the file log (`FILE,TABLE`) even when it was not on. Default false. */
  keepFile?: boolean;
}

/** The SQL to run before and after the window. */
export interface SlowLogWindowPlan {
  apply: string[];
  restore: string[];
  /** The settings during the window. */
  during: SlowLogSettings;
}

/** The variable names the window reads. */
export const slowLogWindowVariables = [
  'slow_query_log',
  'long_query_time',
  'log_output',
  'log_slow_extra',
] as const;

function isOn(value: string | undefined): boolean {
  return value !== undefined && ['ON', '1', 'YES', 'TRUE'].includes(value.toUpperCase());
}

function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** `log_output` with TABLE added (NONE is dropped, as it would silence everything). */
export function withTableOutput(logOutput: string, keepFile = false): string {
  const parts = new Set(
    logOutput
      .toUpperCase()
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && part !== 'NONE'),
  );
  parts.add('TABLE');
  if (keepFile) parts.add('FILE');
  return ['FILE', 'TABLE'].filter((part) => parts.has(part)).join(',');
}

/** Builds the apply/restore statements for a slow-log window. */
export function planSlowLogWindow(
  current: SlowLogSettings,
  capabilities: Pick<Capabilities, 'logSlowExtra'>,
  options: SlowLogWindowOptions = {},
): SlowLogWindowPlan {
  const longQueryTime = options.longQueryTime ?? 0;
  if (!Number.isFinite(longQueryTime) || longQueryTime < 0) {
    throw new RangeError(`long_query_time must be a number of seconds >= 0, not ${longQueryTime}`);
  }
  const apply: string[] = [];
  const restore: string[] = [];
  const during: SlowLogSettings = { ...current };

  const output = withTableOutput(current.log_output, options.keepFile);
  if (output !== current.log_output.toUpperCase()) {
    apply.push(`SET GLOBAL log_output = ${sqlString(output)}`);
    restore.unshift(`SET GLOBAL log_output = ${sqlString(current.log_output)}`);
    during.log_output = output;
  }
  if (Number(current.long_query_time) !== longQueryTime) {
    apply.push(`SET GLOBAL long_query_time = ${longQueryTime}`);
    restore.unshift(`SET GLOBAL long_query_time = ${Number(current.long_query_time)}`);
    during.long_query_time = longQueryTime.toFixed(6);
  }
  if (capabilities.logSlowExtra && current.log_slow_extra !== undefined && !isOn(current.log_slow_extra)) {
    apply.push('SET GLOBAL log_slow_extra = ON');
    restore.unshift('SET GLOBAL log_slow_extra = OFF');
    during.log_slow_extra = 'ON';
  }
  // Logging starts last and stops first, so no statement is logged with half the settings.
  if (!isOn(current.slow_query_log)) {
    apply.push('SET GLOBAL slow_query_log = ON');
    restore.unshift('SET GLOBAL slow_query_log = OFF');
    during.slow_query_log = 'ON';
  }
  return { apply, restore, during };
}
