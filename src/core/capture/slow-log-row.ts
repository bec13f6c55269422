// Turns rows of the mysql.slow_log table into slow-log events the file digest understands.
/*
 * Design note
 * -----------
 * With `log_output=TABLE` the server writes each slow statement as a row of `mysql.slow_log`
 * (a CSV table without indexes: rows come back in the order they were written). A row becomes
 * the `SlowLogEvent` the file parser would have produced for the same statement, so the table
 * and files share `createDigest()` and its pt-query-digest classes:
 *
 *  - `start_time` → `ts` as `YYYY-MM-DDTHH:MM:SS` (UTC, the 19 characters the parser keeps of a
 *    MySQL 8 `# Time:` line; we read it as UNIX_TIMESTAMP so the session time zone is irrelevant);
 *  - `user_host` (`app[app] @ localhost [127.0.0.1]`, the `# User@Host:` text) → `user`, `host`, `ip`;
 *  - `query_time` / `lock_time` (TIME(6)) → seconds with 6 decimals, as a log prints them;
 *  - `rows_sent`, `rows_examined`, `rows_affected` (MariaDB) → `Rows_*`; `db` → `db`;
 *  - `sql_text` (read as bytes) → `query`, one char per byte, so checksums equal the file's;
 *    a bare command name (`Quit`) becomes `administrator command: Quit`, as in a file.
 * The table has no `log_slow_extra` fields, so tmp tables, sort passes… are not available.
 */
import type { SlowLogEvent } from '../slowlog/parser.js';

/** The columns of one mysql.slow_log row, as the reader passes them (strings as read). */
export interface SlowLogTableRow {
  /** UNIX_TIMESTAMP(start_time), seconds with microseconds. */
  startTime: string;
  userHost: string;
  /** TIME(6) text, e.g. `00:00:01.500000` or `838:59:59.000000`. */
  queryTime: string;
  lockTime: string;
  rowsSent: string;
  rowsExamined: string;
  /** MariaDB only. */
  rowsAffected?: string | undefined;
  db: string;
  threadId: string;
  /** sql_text bytes as a binary string (one char per byte). */
  sqlText: string;
}

// COM_* commands the server writes to the table by name (`Quit`), and to a file as
// `# administrator command: Quit;`.
const ADMIN_COMMAND =
  /^(?:Quit|Ping|Init DB|Field List|Refresh|Shutdown|Statistics|Processlist|Connect|Kill|Debug|Time|Change user|Binlog Dump|Table Dump|Connect Out|Register Slave|Prepare|Execute|Long Data|Close stmt|Reset stmt|Set option|Fetch|Daemon|Reset connection|Clone)$/;
const USER_HOST = /^([^[]*?)\s*\[([^\]]*)\]\s*@\s*(\S*)\s*\[([^\]]*)\]/;
const TIME = /^(-)?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/;

/** `HH:MM:SS.ffffff` (hours may exceed 24) → `S.ffffff` as a slow log prints Query_time. */
export function timeToSeconds(time: string): string {
  const m = TIME.exec(time.trim());
  if (!m) return time;
  const micros =
    (BigInt(m[2]!) * 3600n + BigInt(m[3]!) * 60n + BigInt(m[4]!)) * 1_000_000n +
    BigInt((m[5] ?? '').padEnd(6, '0'));
  const text = `${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`;
  return m[1] ? `-${text}` : text;
}

/** Epoch seconds (text) → `YYYY-MM-DDTHH:MM:SS` in UTC. */
export function epochToLogTimestamp(epoch: string): string | undefined {
  const seconds = Number(epoch);
  if (!Number.isFinite(seconds)) return undefined;
  return new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19);
}

/**
 * One table row → the event a slow-log file would give. `line` is the row's 1-based position in
 * the table (for skip reports), `offset` the same position (the digest's tiebreaker).
 */
export function slowLogRowToEvent(row: SlowLogTableRow, position: number): SlowLogEvent {
  const properties: Record<string, string> = {};
  const ts = epochToLogTimestamp(row.startTime);
  if (ts !== undefined) properties.ts = ts;
  const who = USER_HOST.exec(row.userHost);
  if (who) {
    // As the file parser's `# User@Host:` rule: the name before `[`, then host and ip after `@`.
    properties.user = who[1] || who[2] || '';
    if (who[3]) properties.host = who[3];
    if (who[4]) properties.ip = who[4];
  }
  properties.Thread_id = row.threadId;
  if (row.db !== '') properties.db = row.db;
  properties.Query_time = timeToSeconds(row.queryTime);
  properties.Lock_time = timeToSeconds(row.lockTime);
  properties.Rows_sent = row.rowsSent;
  properties.Rows_examined = row.rowsExamined;
  if (row.rowsAffected !== undefined) properties.Rows_affected = row.rowsAffected;
  const admin = ADMIN_COMMAND.test(row.sqlText);
  return {
    offset: position,
    line: position,
    query: admin ? `administrator command: ${row.sqlText}` : row.sqlText,
    admin,
    properties,
  };
}
