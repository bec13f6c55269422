// The Transactions view's read (innotop's T mode): open transactions, blocking relations, history list
// length and the processlist; see core/locks/transactions.ts for the design note. Bounded (500 transactions,
// 1,000 processlist rows; our own polling session is left out); optional parts that fail become problems
// naming the fix.

import type { Connection } from 'mysql2/promise';
import type { LockProblem } from '../../core/locks/snapshot.js';
import {
  relate,
  withoutGoneSessions,
  type ProcessView,
  type TransactionView,
  type TransactionsSnapshot,
} from '../../core/locks/transactions.js';
import { readMetadataLocks } from './locks-metadata.js';
import { type LockServer, num, optional, rows, str } from './locks-shared.js';

/** Processlist rows read at most. */
const PROCESSLIST_LIMIT = 1000;

/** Statements kept per session from events_statements_history (the server keeps 10 by default). */
const HISTORY_PER_SESSION = 5;

/** One read of the Transactions view. Read-only. */
export async function readTransactionsView(
  conn: Connection,
  server: LockServer,
): Promise<TransactionsSnapshot> {
  const started = performance.now();
  const problems: LockProblem[] = [];
  const trxRows =
    (await optional(
      conn,
      'transactions',
      'Reading information_schema.INNODB_TRX',
      `SELECT CAST(t.trx_id AS CHAR) AS trx_id, t.trx_state AS state, t.trx_mysql_thread_id AS thread_id,
              TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age, TIMESTAMPDIFF(SECOND, t.trx_wait_started, NOW()) AS wait_age,
              t.trx_rows_locked AS rows_locked, t.trx_rows_modified AS rows_modified, t.trx_tables_in_use AS tables_in_use,
              t.trx_tables_locked AS tables_locked, t.trx_lock_structs AS lock_structs, t.trx_isolation_level AS isolation,
              t.trx_is_read_only AS read_only, t.trx_query AS query
         FROM information_schema.INNODB_TRX t ORDER BY t.trx_started LIMIT 500`,
      [],
      problems,
    )) ?? [];
  const processRead = await optional(
    conn,
    'transactions',
    'Reading the processlist',
    `SELECT ID AS id, USER AS user, HOST AS host, DB AS db, COMMAND AS command, TIME AS time, STATE AS state, INFO AS info
         FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() ORDER BY TIME DESC LIMIT ${PROCESSLIST_LIMIT}`,
    [],
    problems,
  );
  const processRows = processRead ?? [];
  const trxOfThread = new Map(trxRows.map((row) => [num(row.thread_id), String(row.trx_id)]));
  const processlist: ProcessView[] = processRows.map((row) => ({
    id: Number(row.id),
    user: str(row.user),
    host: str(row.host),
    db: str(row.db),
    command: str(row.command),
    time: num(row.time),
    state: str(row.state),
    info: str(row.info),
    trxId: trxOfThread.get(Number(row.id)) ?? null,
  }));
  const sessions = new Map(processlist.map((row) => [row.id, row]));

  // Blocking relations: row-lock waits by trx id, metadata-lock waits from the wait tree.
  const threadOfTrx = new Map(trxRows.map((row) => [String(row.trx_id), num(row.thread_id)]));
  const pairs: { waiting: number; blocking: number; kind: 'row' | 'metadata' }[] = [];
  const rowWaits = await optional(
    conn,
    'waits',
    server.capabilities.dataLocks
      ? 'Reading performance_schema.data_lock_waits'
      : 'Reading information_schema.INNODB_LOCK_WAITS',
    server.capabilities.dataLocks
      ? `SELECT CAST(REQUESTING_ENGINE_TRANSACTION_ID AS CHAR) AS waiting, CAST(BLOCKING_ENGINE_TRANSACTION_ID AS CHAR) AS blocking
           FROM performance_schema.data_lock_waits LIMIT 500`
      : `SELECT CAST(requesting_trx_id AS CHAR) AS waiting, CAST(blocking_trx_id AS CHAR) AS blocking
           FROM information_schema.INNODB_LOCK_WAITS LIMIT 500`,
    [],
    problems,
  );
  for (const row of rowWaits ?? []) {
    const waiting = threadOfTrx.get(String(row.waiting));
    const blocking = threadOfTrx.get(String(row.blocking));
    if (waiting != null && blocking != null) pairs.push({ waiting, blocking, kind: 'row' });
  }
  const metadata = await readMetadataLocks(conn, server, problems);
  for (const group of metadata.tree) {
    const waiter = group.waiter.session.threadId;
    for (const holder of group.holders)
      pairs.push({ waiting: waiter, blocking: holder.session.threadId, kind: 'metadata' });
    for (const queued of group.queued)
      pairs.push({ waiting: queued.session.threadId, blocking: waiter, kind: 'metadata' });
  }
  const relations = relate(pairs);

  const history = await lastStatements(
    conn,
    server,
    trxRows.map((row) => num(row.thread_id)).filter((id): id is number => id !== null),
    problems,
  );
  const listed: TransactionView[] = trxRows.map((row) => {
    const threadId = num(row.thread_id);
    const session = threadId !== null ? sessions.get(threadId) : undefined;
    const related = threadId !== null ? relations.get(threadId) : undefined;
    return {
      trxId: String(row.trx_id),
      threadId,
      user: session?.user ?? null,
      host: session?.host ?? null,
      db: session?.db ?? null,
      state: str(row.state),
      ageSeconds: num(row.age),
      waitSeconds: num(row.wait_age),
      rowsLocked: num(row.rows_locked),
      rowsModified: num(row.rows_modified),
      tablesInUse: num(row.tables_in_use),
      tablesLocked: num(row.tables_locked),
      lockStructs: num(row.lock_structs),
      isolation: str(row.isolation),
      readOnly: row.read_only === null || row.read_only === undefined ? null : Number(row.read_only) === 1,
      command: session?.command ?? null,
      processState: session?.state ?? null,
      statement: str(row.query) ?? session?.info ?? null,
      lastStatements: threadId !== null ? (history.get(threadId) ?? []) : [],
      blockedBy: related?.blockedBy ?? [],
      blocking: related?.blocking ?? [],
    };
  });

  // A killed session that has gone can still be in INNODB_TRX's cache: its row is not shown.
  const transactions = withoutGoneSessions(
    listed,
    new Set(processlist.map((row) => row.id)),
    processRead !== null && processRead.length < PROCESSLIST_LIMIT,
  );

  return {
    takenAt: new Date().toISOString(),
    historyListLength: await historyListLength(conn),
    transactions,
    processlist,
    problems,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/**
 * The recent statements of the given sessions, oldest first: events_statements_history (MySQL: on by
 * default), else the last one from events_statements_current. MariaDB has both consumers off by default.
 */
async function lastStatements(
  conn: Connection,
  server: LockServer,
  threadIds: readonly number[],
  problems: LockProblem[],
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (threadIds.length === 0) return result;
  const fix =
    "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME IN ('events_statements_current', 'events_statements_history');";
  if (server.capabilities.performanceSchema === false) {
    problems.push({
      area: 'statements',
      message: 'The last statements of idle transactions are unknown: performance_schema is OFF.',
      fix: `Start the server with performance_schema=ON (MariaDB: --performance-schema=ON), then ${fix}`,
    });
    return result;
  }
  const found = await optional(
    conn,
    'statements',
    'Reading performance_schema.events_statements_history',
    `SELECT t.PROCESSLIST_ID AS thread_id, h.EVENT_ID AS event_id, h.SQL_TEXT AS sql_text
       FROM performance_schema.threads t
       JOIN performance_schema.events_statements_history h ON h.THREAD_ID = t.THREAD_ID
      WHERE t.PROCESSLIST_ID IN (?) AND h.SQL_TEXT IS NOT NULL
     UNION
     SELECT t.PROCESSLIST_ID, c.EVENT_ID, c.SQL_TEXT
       FROM performance_schema.threads t
       JOIN performance_schema.events_statements_current c ON c.THREAD_ID = t.THREAD_ID
      WHERE t.PROCESSLIST_ID IN (?) AND c.SQL_TEXT IS NOT NULL
      ORDER BY thread_id, event_id`,
    [threadIds, threadIds],
    problems,
  );
  for (const row of found ?? []) {
    const id = Number(row.thread_id);
    const list = result.get(id) ?? [];
    const text = String(row.sql_text);
    if (list[list.length - 1] !== text) list.push(text);
    result.set(id, list.slice(-HISTORY_PER_SESSION));
  }
  if (found && found.length === 0)
    problems.push({
      area: 'statements',
      message:
        'No statement history for the open transactions: the performance_schema statement consumers are off (the MariaDB default).',
      fix,
    });
  return result;
}

/** Undo history not yet purged: INNODB_METRICS trx_rseg_history_len, else SHOW ENGINE INNODB STATUS. */
async function historyListLength(conn: Connection): Promise<number | null> {
  try {
    const metric = await rows(
      conn,
      "SELECT COUNT AS n FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'",
    );
    const value = num(metric[0]?.n);
    if (value !== null) return value;
  } catch {
    // fall back to the status text
  }
  try {
    const status = await rows(conn, 'SHOW ENGINE INNODB STATUS');
    const match = /History list length (\d+)/.exec(String(status[0]?.Status ?? ''));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
