// The audit's judge: which general-log entries of an analysis session are allowed, independent of the statement guard.

/** Statements that change data, schema, privileges or other sessions — independent of the guard's code. */
export const WRITES =
  /^\s*(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|TRUNCATE|RENAME|GRANT|REVOKE|KILL|FLUSH|LOCK|UNLOCK|CALL|DO|LOAD|HANDLER|INSTALL|UNINSTALL|OPTIMIZE|REPAIR|CHECKSUM|PURGE|RESET|SHUTDOWN|XA|BEGIN|COMMIT|ANALYZE\s+TABLE|SET\s+(?:GLOBAL|PERSIST|PERSIST_ONLY|PASSWORD|ROLE|DEFAULT\s+ROLE)\b|SET\s+@@(?:GLOBAL|PERSIST)|SET\s+(?:SESSION\s+)?TRANSACTION\s+READ\s+WRITE|START\s+TRANSACTION(?!.*READ\s+ONLY))/is;

/** What an analysis session may send (after comments are stripped). */
export const ALLOWED =
  /^\s*(?:SELECT|WITH|SHOW|EXPLAIN|DESCRIBE|DESC|USE|ROLLBACK|SET\s+(?:SESSION\s+|@@SESSION\.|NAMES\b|@)|SET\s+SESSION\s+TRANSACTION\s+READ\s+ONLY|START\s+TRANSACTION\s+READ\s+ONLY|ANALYZE\s+(?:FORMAT\s*=\s*JSON\s+)?SELECT)/is;

/** Protocol commands of a driver session (handshake, default schema, quit). */
export const COMMANDS = new Set([
  'Connect',
  'Quit',
  'Query',
  'Init DB',
  'Ping',
  'Prepare',
  'Execute',
  'Close stmt',
  'Reset stmt',
]);

/** Drop comments; keep the body of executable comments (`/*! … *\/`), which the server runs. */
export function stripComments(sql: string): string {
  return sql.replace(/\/\*(?![!+]).*?\*\//gs, ' ').replace(/\/\*!\d*\s*(.*?)\*\//gs, '$1');
}

/** One general-log entry. */
export interface LogEntry {
  command: string;
  text: string;
}

/** True for entries that carry SQL text. */
export function isStatement(entry: LogEntry): boolean {
  return entry.command === 'Query' || entry.command === 'Execute' || entry.command === 'Prepare';
}

/**
 * The statement a server runs, for judging: comments stripped, and MariaDB's statement-scoped
 * `SET STATEMENT var = value [, …] FOR <statement>` (session variables for that one statement, e.g. a
 * time limit on a sampling read) reduced to the statement after FOR, which is what must be a read.
 * https://mariadb.com/kb/en/set-statement/
 */
export function judgedStatement(sql: string): string {
  return stripComments(sql).replace(/^\s*SET\s+STATEMENT\s+.*?\s+FOR\s+/is, '');
}

/** Entries an analysis session must never produce: unknown commands, writes, or SQL outside the allow-list. */
export function offendingEntries(entries: readonly LogEntry[]): LogEntry[] {
  return entries.filter((entry) => {
    if (!COMMANDS.has(entry.command)) return true;
    if (!isStatement(entry)) return false;
    const sql = judgedStatement(entry.text);
    return WRITES.test(sql) || !ALLOWED.test(sql);
  });
}

/** The first two words of each distinct statement kind, for a one-line summary. */
export function statementKinds(entries: readonly LogEntry[]): string[] {
  return [
    ...new Set(
      entries
        .filter(isStatement)
        .map((entry) => stripComments(entry.text).trim().split(/\s+/).slice(0, 2).join(' ').toUpperCase()),
    ),
  ];
}
