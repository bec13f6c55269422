// Sessions as the lock and transaction views show them: processlist, open InnoDB transaction, last statement.
// Shared by the metadata-lock tree (locks-metadata.ts) and the Transactions view (locks-transactions.ts).
// Statement texts are other sessions' SQL: only ever displayed, never executed.

import type { Connection } from 'mysql2/promise';
import type { MdlSession } from '../../core/locks/metadata-tree.js';
import type { LockProblem } from '../../core/locks/snapshot.js';
import { type LockServer, type Row, num, optional, str } from './locks-shared.js';

/** Processlist + INNODB_TRX of the given processlist ids (unknown ids are left out). */
export async function readSessions(
  conn: Connection,
  server: LockServer,
  threadIds: readonly number[],
  area: LockProblem['area'],
  problems: LockProblem[],
): Promise<Map<number, MdlSession>> {
  const sessions = new Map<number, MdlSession>();
  if (threadIds.length === 0) return sessions;
  const rows = await optional(
    conn,
    area,
    'Reading the processlist',
    `SELECT p.ID AS id, p.USER AS user, p.HOST AS host, p.DB AS db, p.COMMAND AS command, p.TIME AS time,
            p.STATE AS state, p.INFO AS info, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
       FROM information_schema.PROCESSLIST p
       LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID
      WHERE p.ID IN (?)`,
    [[...new Set(threadIds)]],
    problems,
  );
  for (const row of rows ?? []) sessions.set(Number(row.id), sessionOf(row));
  await fillLastStatement(conn, server, [...sessions.values()], area, problems);
  return sessions;
}

/** A processlist row (with `age` from INNODB_TRX) as a session. */
export function sessionOf(row: Row): MdlSession {
  const statement = str(row.info);
  return {
    threadId: Number(row.id),
    user: str(row.user),
    host: str(row.host),
    db: str(row.db),
    command: str(row.command),
    state: str(row.state),
    seconds: num(row.time),
    statement,
    statementSource: statement ? 'current' : null,
    trxAgeSeconds: num(row.age),
  };
}

/**
 * The last statement of idle sessions from performance_schema.events_statements_current (the row
 * stays after the statement ended). Needs performance_schema and the consumer (MySQL: on by default;
 * MariaDB: both off by default); a gap becomes a problem naming the setting.
 */
export async function fillLastStatement(
  conn: Connection,
  server: LockServer,
  sessions: readonly MdlSession[],
  area: LockProblem['area'],
  problems: LockProblem[],
): Promise<void> {
  const idle = sessions.filter((session) => session.statement === null);
  if (idle.length === 0) return;
  if (server.capabilities.performanceSchema === false) {
    problems.push({
      area,
      message: "An idle session's last statement is unknown: performance_schema is OFF.",
      fix: 'Start the server with performance_schema=ON (MariaDB: --performance-schema=ON) and enable the events_statements_current consumer.',
    });
    return;
  }
  const rows = await optional(
    conn,
    area,
    'Reading performance_schema.events_statements_current',
    `SELECT t.PROCESSLIST_ID AS thread_id, e.SQL_TEXT AS sql_text
       FROM performance_schema.threads t
       JOIN performance_schema.events_statements_current e ON e.THREAD_ID = t.THREAD_ID
      WHERE t.PROCESSLIST_ID IN (?)`,
    [idle.map((session) => session.threadId)],
    problems,
  );
  if (rows === null) return;
  const byThread = new Map(rows.map((row) => [num(row.thread_id), str(row.sql_text)]));
  let missing = 0;
  for (const session of idle) {
    const text = byThread.get(session.threadId);
    if (text) {
      session.statement = text;
      session.statementSource = 'last';
    } else if (session.trxAgeSeconds !== null) missing += 1;
  }
  if (missing > 0)
    problems.push({
      area,
      message: `The last statement of ${missing} idle session(s) in a transaction is unknown (no events_statements_current rows).`,
      fix: "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME IN ('events_statements_current', 'events_statements_history');",
    });
}
