// Metadata-lock waits (step 5 of the design note in locks.ts): who waits, who holds, who queues behind.
/*
 * Design note.
 * The waiting sessions always come from the processlist (state `Waiting for … metadata lock`). The
 * locks behind them, in order of trust:
 *   1. performance_schema.metadata_locks (MySQL; MariaDB only with the `wait/lock/metadata/sql/mdl`
 *      instrument on): every granted and pending lock on the tables that have a pending one. Exact.
 *   2. information_schema.METADATA_LOCK_INFO (MariaDB's metadata_lock_info plugin, when loaded): the
 *      granted locks, exact. It lists no pending request, so each waiter's request is inferred: a DDL
 *      requests EXCLUSIVE on the table it already holds SHARED_UPGRADABLE/SHARED_NO_WRITE on (or the
 *      table its text names); any other statement a shared lock on the waiting DDL's table it names.
 *   3. Neither: the holders are inferred from open InnoDB transactions that started before the DDL
 *      began to wait (information_schema.INNODB_TRX), and every such entry is labelled inferred.
 * The groups (waiting DDL → holders → queued) are built by core/locks/metadata-tree.ts with the
 * server's compatibility rules. Statement texts are other sessions' SQL: displayed, never executed.
 */

import type { Connection } from 'mysql2/promise';
import {
  buildMetadataWaitTree,
  ddlTable,
  inferRequestedMode,
  isDdlStatement,
  mentionsTable,
  type MdlLockRow,
  type MdlSession,
  type MetadataWaitGroup,
} from '../../core/locks/metadata-tree.js';
import type { MetadataWait } from '../../core/locks/types.js';
import type { LockProblem } from '../../core/locks/snapshot.js';
import { type LockServer, type Row, num, optional, rows as query, str } from './locks-shared.js';
import { readSessions, sessionOf } from './locks-sessions.js';

/** The metadata-lock part of a poll: the flat list (CLI JSON, kept) and the wait tree. */
export interface MetadataReading {
  waits: MetadataWait[];
  tree: MetadataWaitGroup[];
}

/** Metadata-lock waits as a flat list (see {@link readMetadataLocks} for the tree). */
export async function readMetadataWaits(
  conn: Connection,
  server: LockServer,
  problems: LockProblem[],
): Promise<MetadataWait[]> {
  return (await readMetadataLocks(conn, server, problems)).waits;
}

/** Read who waits for a metadata lock, who holds it and who queues behind (see the design note). */
export async function readMetadataLocks(
  conn: Connection,
  server: LockServer,
  problems: LockProblem[],
): Promise<MetadataReading> {
  const waiting = await optional(
    conn,
    'metadataWaits',
    'Reading the processlist',
    `SELECT ID AS id, USER AS user, HOST AS host, DB AS db, COMMAND AS command, TIME AS time, STATE AS state, INFO AS info
       FROM information_schema.PROCESSLIST
      WHERE STATE LIKE 'Waiting for%metadata lock' LIMIT 50`,
    [],
    problems,
  );
  if (!waiting || waiting.length === 0) return { waits: [], tree: [] };
  const waiters = waiting.map(sessionOf);

  let source: MetadataWaitGroup['source'] = 'metadata_locks';
  let locks = await exactLocks(conn, server, problems);
  if (!locks) {
    const granted = await pluginLocks(conn);
    if (granted) {
      source = 'metadata_lock_info';
      locks = [...granted, ...inferPending(waiters, granted)];
    } else {
      source = 'inferred';
      problems.push({
        area: 'metadataWaits',
        message:
          'Metadata locks are not instrumented on this server: the holders shown are inferred from the open transactions that started before the wait.',
        fix:
          server.flavor === 'mariadb'
            ? "INSTALL SONAME 'metadata_lock_info'; (or start with performance_schema=ON and UPDATE performance_schema.setup_instruments SET ENABLED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';)"
            : "UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';",
      });
      const pending = inferPending(waiters, []);
      locks = [...pending, ...(await inferHolders(conn, waiters, pending, problems))];
    }
  }

  const ids = [
    ...new Set([...waiters.map((session) => session.threadId), ...locks.map((lock) => lock.threadId)]),
  ];
  const sessions = await readSessions(conn, server, ids, 'metadataWaits', problems);
  for (const waiter of waiters) if (!sessions.has(waiter.threadId)) sessions.set(waiter.threadId, waiter);
  const tree = buildMetadataWaitTree(locks, sessions, source);
  return { waits: flatten(waiters, tree, source), tree };
}

/** 1. performance_schema.metadata_locks, or null when it shows no pending table lock (not instrumented). */
async function exactLocks(
  conn: Connection,
  server: LockServer,
  problems: LockProblem[],
): Promise<MdlLockRow[] | null> {
  if (server.capabilities.performanceSchema === false) return null;
  const rows = await optional(
    conn,
    'metadataWaits',
    'Reading performance_schema.metadata_locks',
    `SELECT m.OBJECT_SCHEMA AS db, m.OBJECT_NAME AS tbl, m.LOCK_TYPE AS lock_type, m.LOCK_STATUS AS status, t.PROCESSLIST_ID AS thread_id
       FROM performance_schema.metadata_locks m
       JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
      WHERE m.OBJECT_TYPE = 'TABLE' AND t.PROCESSLIST_ID IS NOT NULL AND (m.OBJECT_SCHEMA, m.OBJECT_NAME) IN
            (SELECT OBJECT_SCHEMA, OBJECT_NAME FROM performance_schema.metadata_locks WHERE LOCK_STATUS = 'PENDING')
      LIMIT 1000`,
    [],
    problems,
  );
  if (!rows || !rows.some((row) => row.status === 'PENDING')) return null;
  return rows.flatMap((row) =>
    row.status === 'GRANTED' || row.status === 'PENDING'
      ? [
          {
            threadId: Number(row.thread_id),
            schema: str(row.db),
            table: str(row.tbl),
            mode: String(row.lock_type),
            status: row.status,
          },
        ]
      : [],
  );
}

/** 2. MariaDB's METADATA_LOCK_INFO (granted table locks), or null when the plugin is not loaded. */
async function pluginLocks(conn: Connection): Promise<MdlLockRow[] | null> {
  let rows: Row[];
  try {
    rows = await query(
      conn,
      `SELECT THREAD_ID AS thread_id, LOCK_MODE AS mode, TABLE_SCHEMA AS db, TABLE_NAME AS tbl
         FROM information_schema.METADATA_LOCK_INFO WHERE LOCK_TYPE = 'Table metadata lock' LIMIT 1000`,
    );
  } catch {
    return null; // ERROR 1109: the plugin is not loaded
  }
  return rows.map((row) => ({
    threadId: Number(row.thread_id),
    schema: str(row.db),
    table: str(row.tbl),
    mode: String(row.mode),
    status: 'GRANTED' as const,
  }));
}

/**
 * The pending requests of the waiters, inferred: a DDL requests EXCLUSIVE on the table it already
 * holds an upgradable lock on (or the table it names); another statement requests a shared lock on
 * the table of a waiting DDL in its database that it names (or the only one there).
 */
function inferPending(waiters: readonly MdlSession[], granted: readonly MdlLockRow[]): MdlLockRow[] {
  const pending: MdlLockRow[] = [];
  for (const waiter of waiters.filter((session) => isDdlStatement(session.statement))) {
    const own = granted.find(
      (lock) => lock.threadId === waiter.threadId && /SHARED_UPGRADABLE|SHARED_NO_WRITE/i.test(lock.mode),
    );
    const named = ddlTable(waiter.statement);
    const schema = own?.schema ?? named?.schema ?? waiter.db;
    const table = own?.table ?? named?.table ?? null;
    if (table === null) continue;
    pending.push({
      threadId: waiter.threadId,
      schema,
      table,
      mode: 'EXCLUSIVE',
      status: 'PENDING',
      inferred: true,
    });
  }
  const ddlObjects = [...pending];
  for (const waiter of waiters.filter((session) => !isDdlStatement(session.statement))) {
    const candidates = ddlObjects.filter((lock) => lock.schema === waiter.db);
    const named = candidates.filter(
      (lock) => lock.table !== null && mentionsTable(waiter.statement, lock.table),
    );
    const target = named[0] ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (!target) continue;
    pending.push({
      threadId: waiter.threadId,
      schema: target.schema,
      table: target.table,
      mode: inferRequestedMode(waiter.statement),
      status: 'PENDING',
      inferred: true,
    });
  }
  return pending;
}

/**
 * 3. Likely holders: sessions with an open InnoDB transaction that started before the DDL began to
 * wait (a transaction keeps the metadata locks of every table it touched until it ends).
 */
async function inferHolders(
  conn: Connection,
  waiters: readonly MdlSession[],
  pending: readonly MdlLockRow[],
  problems: LockProblem[],
): Promise<MdlLockRow[]> {
  const ddl = pending.filter((lock) => lock.mode === 'EXCLUSIVE');
  if (ddl.length === 0) return [];
  const open = await optional(
    conn,
    'metadataWaits',
    'Reading information_schema.INNODB_TRX',
    `SELECT trx_mysql_thread_id AS id, TIMESTAMPDIFF(SECOND, trx_started, NOW()) AS age
       FROM information_schema.INNODB_TRX ORDER BY trx_started LIMIT 50`,
    [],
    problems,
  );
  const waiting = new Set(waiters.map((session) => session.threadId));
  const holders: MdlLockRow[] = [];
  for (const request of ddl) {
    const waited = waiters.find((session) => session.threadId === request.threadId)?.seconds ?? 0;
    for (const row of open ?? []) {
      const id = num(row.id);
      if (id === null || waiting.has(id) || (num(row.age) ?? 0) < waited) continue;
      holders.push({
        threadId: id,
        schema: request.schema,
        table: request.table,
        mode: 'SHARED_READ',
        status: 'GRANTED',
        inferred: true,
      });
    }
  }
  return holders;
}

/** The flat list (one entry per waiting session) from the tree. */
function flatten(
  waiters: readonly MdlSession[],
  tree: readonly MetadataWaitGroup[],
  source: MetadataWaitGroup['source'],
): MetadataWait[] {
  return waiters.map((waiter): MetadataWait => {
    const group = tree.find((candidate) => candidate.waiter.session.threadId === waiter.threadId);
    const behind = tree
      .filter((candidate) => candidate.queued.some((entry) => entry.session.threadId === waiter.threadId))
      .map((candidate) => candidate.waiter.session.threadId);
    const placed = group ?? tree.find((candidate) => behind.includes(candidate.waiter.session.threadId));
    return {
      threadId: waiter.threadId,
      user: waiter.user,
      host: waiter.host,
      statement: waiter.statement,
      waitSeconds: waiter.seconds,
      schema: placed?.schema ?? waiter.db,
      table: placed?.table ?? null,
      lockType: group && !group.waiter.inferred ? group.waiter.mode : null,
      holders: (group?.holders ?? []).map((holder) => ({
        threadId: holder.session.threadId,
        user: holder.session.user,
        host: holder.session.host,
        statement: holder.session.statement,
        lockType: holder.mode,
        trxAgeSeconds: holder.session.trxAgeSeconds,
      })),
      ...(behind.length > 0 ? { queuedBehind: behind } : {}),
      source: source === 'inferred' ? 'processlist' : source,
    };
  });
}
