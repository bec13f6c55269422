// Row-lock waits (steps 1-4 of the design note in locks.ts): wait pairs from data_lock_waits or
// INNODB_LOCK_WAITS, the transactions involved, idle blockers' last statements, per-index lock counts,
// and lock_data decoded with the index's column types.

import type { Connection } from 'mysql2/promise';
import { decodeLockData, type IndexColumn } from '../../core/locks/lock-data.js';
import { makeLockInfo, type ModeSource } from '../../core/locks/lock-mode.js';
import type { LockCount, LockInfo, TxnInfo } from '../../core/locks/types.js';
import { AdvisorError } from '../../shared/errors.js';
import type { LockProblem } from '../../core/locks/snapshot.js';
import {
  DEFAULT_LIMIT,
  type LockServer,
  type Row,
  num,
  optional,
  rows,
  splitTableName,
  str,
} from './locks-shared.js';

interface RawWait {
  waitingTrx: string;
  blockingTrx: string;
  lock: LockInfo;
  blockingLock: LockInfo | null;
}

export async function readWaits(
  conn: Connection,
  server: LockServer,
  limit: number,
  blockingLocks: boolean,
): Promise<{ source: 'data_locks' | 'innodb_locks'; waits: RawWait[] }> {
  const caps = server.capabilities;
  const lockFrom = (
    row: Row,
    prefix: string,
    source: ModeSource,
    table: [string | null, string | null],
  ): LockInfo =>
    makeLockInfo(
      {
        lockType: String(row[`${prefix}type`] ?? ''),
        mode: String(row[`${prefix}mode`] ?? ''),
        schema: table[0],
        table: table[1],
        index: str(row[`${prefix}index`]),
        lockData: str(row[`${prefix}data`]),
      },
      source,
    );
  if (caps.dataLocks) {
    // Joining data_lock_waits to data_locks makes the server walk every lock for each probe (≈ 0.6–0.9 s
    // with 10,000 locks held); reading the waiters' own WAITING locks through the ENGINE_TRANSACTION_ID
    // index costs ≈ 1 ms. The blocker's lock would need a walk of all its locks, so it is only read on request.
    const pairs = await rows(
      conn,
      `SELECT CAST(REQUESTING_ENGINE_TRANSACTION_ID AS CHAR) AS waiting_trx, CAST(BLOCKING_ENGINE_TRANSACTION_ID AS CHAR) AS blocking_trx,
              REQUESTING_ENGINE_LOCK_ID AS requested_lock, BLOCKING_ENGINE_LOCK_ID AS blocking_lock
         FROM performance_schema.data_lock_waits LIMIT ?`,
      [limit],
    );
    const lockRows = async (trxIds: string[], extra: string): Promise<Map<string, Row>> => {
      const ids = [...new Set(trxIds)].filter((id) => /^\d+$/.test(id));
      if (ids.length === 0) return new Map();
      const result = await rows(
        conn,
        `SELECT ENGINE_LOCK_ID AS lock_id, LOCK_TYPE AS x_type, LOCK_MODE AS x_mode, OBJECT_SCHEMA AS x_schema, OBJECT_NAME AS x_table,
                INDEX_NAME AS x_index, LOCK_DATA AS x_data
           FROM performance_schema.data_locks
          WHERE ENGINE = 'INNODB' AND ENGINE_TRANSACTION_ID IN (${ids.join(',')}) ${extra}`,
      );
      return new Map(result.map((row) => [String(row.lock_id), row]));
    };
    const requested = await lockRows(
      pairs.map((row) => String(row.waiting_trx)),
      "AND LOCK_STATUS = 'WAITING'",
    );
    const blocking = blockingLocks
      ? await lockRows(
          pairs.map((row) => String(row.blocking_trx)),
          "AND LOCK_STATUS = 'GRANTED'",
        )
      : new Map<string, Row>();
    const waits: RawWait[] = [];
    for (const pair of pairs) {
      const request = requested.get(String(pair.requested_lock));
      if (!request) continue; // granted between the two reads
      const held = blocking.get(String(pair.blocking_lock));
      waits.push({
        waitingTrx: String(pair.waiting_trx),
        blockingTrx: String(pair.blocking_trx),
        lock: lockFrom(request, 'x_', 'data_locks', [str(request.x_schema), str(request.x_table)]),
        blockingLock: held
          ? lockFrom(held, 'x_', 'data_locks', [str(held.x_schema), str(held.x_table)])
          : null,
      });
    }
    return { source: 'data_locks', waits };
  }
  const result = await rows(
    conn,
    `SELECT CAST(w.requesting_trx_id AS CHAR) AS waiting_trx, CAST(w.blocking_trx_id AS CHAR) AS blocking_trx,
            r.lock_type AS r_type, r.lock_mode AS r_mode, r.lock_table AS r_table, r.lock_index AS r_index, r.lock_data AS r_data,
            b.lock_type AS b_type, b.lock_mode AS b_mode, b.lock_table AS b_table, b.lock_index AS b_index, b.lock_data AS b_data
       FROM information_schema.INNODB_LOCK_WAITS w
       JOIN information_schema.INNODB_LOCKS r ON r.lock_id = w.requested_lock_id
       LEFT JOIN information_schema.INNODB_LOCKS b ON b.lock_id = w.blocking_lock_id
      LIMIT ?`,
    [limit],
  );
  return {
    source: 'innodb_locks',
    waits: result.map((row) => ({
      waitingTrx: String(row.waiting_trx),
      blockingTrx: String(row.blocking_trx),
      lock: lockFrom(row, 'r_', 'innodb_locks', splitTableName(str(row.r_table))),
      blockingLock:
        row.b_type === null ? null : lockFrom(row, 'b_', 'innodb_locks', splitTableName(str(row.b_table))),
    })),
  };
}

export interface TxnRow {
  txn: TxnInfo;
  waitSeconds: number | null;
  database: string | null;
}

/**
 * INNODB_TRX rows for the given trx ids. The server refreshes INNODB_TRX from a cache at most every
 * 0.1 s (InnoDB's trx_i_s cache), so a transaction that started waiting just now may be missing: read
 * once more after 120 ms in that case.
 */
export async function readTransactions(
  conn: Connection,
  trxIds: readonly string[],
  problems: LockProblem[],
): Promise<Map<string, TxnRow>> {
  const found = await readTransactionsOnce(conn, trxIds, problems);
  if (found.size > 0 && trxIds.some((id) => !found.has(id))) {
    await new Promise((resolve) => setTimeout(resolve, 120));
    for (const [id, row] of await readTransactionsOnce(conn, trxIds, []))
      if (!found.has(id)) found.set(id, row);
  }
  return found;
}

async function readTransactionsOnce(
  conn: Connection,
  trxIds: readonly string[],
  problems: LockProblem[],
): Promise<Map<string, TxnRow>> {
  const found = new Map<string, TxnRow>();
  if (trxIds.length === 0) return found;
  const result = await optional(
    conn,
    'transactions',
    'Reading information_schema.INNODB_TRX',
    `SELECT CAST(t.trx_id AS CHAR) AS trx_id, t.trx_state, t.trx_mysql_thread_id AS thread_id, t.trx_query,
            TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age, TIMESTAMPDIFF(SECOND, t.trx_wait_started, NOW()) AS wait_age,
            t.trx_rows_locked, t.trx_rows_modified, p.USER AS user, p.HOST AS host, p.DB AS db
       FROM information_schema.INNODB_TRX t
       LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
      WHERE CAST(t.trx_id AS CHAR) IN (?)`,
    [trxIds],
    problems,
  );
  for (const row of result ?? []) {
    const trxId = String(row.trx_id);
    const statement = str(row.trx_query);
    found.set(trxId, {
      txn: {
        trxId,
        threadId: num(row.thread_id),
        user: str(row.user),
        host: str(row.host),
        statement,
        statementSource: statement ? 'current' : null,
        trxAgeSeconds: num(row.age),
        rowsLocked: num(row.trx_rows_locked),
        rowsModified: num(row.trx_rows_modified),
        state: str(row.trx_state),
      },
      waitSeconds: num(row.wait_age),
      database: str(row.db),
    });
  }
  return found;
}

/** Fill the last statement of idle transactions from performance_schema (MySQL 8, or MariaDB with the consumer on). */
export async function fillLastStatements(
  conn: Connection,
  server: LockServer,
  txns: Map<string, TxnRow>,
  problems: LockProblem[],
): Promise<void> {
  const idle = [...txns.values()].filter((row) => row.txn.statement === null && row.txn.threadId !== null);
  if (idle.length === 0) return;
  if (server.capabilities.performanceSchema === false) {
    problems.push({
      area: 'statements',
      message: "An idle blocker's last statement is unknown: performance_schema is OFF.",
      fix: 'Start the server with performance_schema=ON (MariaDB: --performance-schema=ON) and enable the events_statements_current consumer.',
    });
    return;
  }
  const result = await optional(
    conn,
    'statements',
    'Reading performance_schema.events_statements_current',
    `SELECT t.PROCESSLIST_ID AS thread_id, e.SQL_TEXT AS sql_text
       FROM performance_schema.threads t
       JOIN performance_schema.events_statements_current e ON e.THREAD_ID = t.THREAD_ID
      WHERE t.PROCESSLIST_ID IN (?)`,
    [idle.map((row) => row.txn.threadId)],
    problems,
  );
  if (result === null) return;
  const byThread = new Map(result.map((row) => [num(row.thread_id), str(row.sql_text)]));
  let missing = 0;
  for (const row of idle) {
    const text = byThread.get(row.txn.threadId);
    if (text) {
      row.txn.statement = text;
      row.txn.statementSource = 'last';
    } else missing += 1;
  }
  if (missing > 0) {
    problems.push({
      area: 'statements',
      message: `The last statement of ${missing} idle blocker(s) is unknown (no events_statements_current rows).`,
      fix: "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME IN ('events_statements_current', 'events_statements_history');",
    });
  }
}

export async function readLockCounts(
  conn: Connection,
  trxIds: readonly string[],
  limit: number,
  problems: LockProblem[],
): Promise<LockCount[]> {
  if (trxIds.length === 0) return [];
  const result = await optional(
    conn,
    'lockCounts',
    'Counting locks in performance_schema.data_locks',
    `SELECT CAST(ENGINE_TRANSACTION_ID AS CHAR) AS trx_id, OBJECT_SCHEMA AS db, OBJECT_NAME AS tbl, INDEX_NAME AS idx, LOCK_TYPE AS lock_type, COUNT(*) AS n
       FROM performance_schema.data_locks
      WHERE ENGINE_TRANSACTION_ID IN (?) AND LOCK_TYPE = 'RECORD' AND LOCK_DATA <> 'supremum pseudo-record'
      GROUP BY ENGINE_TRANSACTION_ID, OBJECT_SCHEMA, OBJECT_NAME, INDEX_NAME, LOCK_TYPE
      LIMIT ?`,
    [trxIds, limit],
    problems,
  );
  return (result ?? []).map((row) => ({
    trxId: String(row.trx_id),
    schema: str(row.db),
    table: str(row.tbl),
    index: str(row.idx),
    lockType: String(row.lock_type),
    count: Number(row.n),
  }));
}

/** Record locks per transaction and index, for any transaction ids (MySQL >= 8.0.1; the seed's grouped query). */
export async function countRecordLocks(conn: Connection, trxIds: readonly string[]): Promise<LockCount[]> {
  const problems: LockProblem[] = [];
  const counts = await readLockCounts(conn, trxIds, DEFAULT_LIMIT, problems);
  if (problems[0])
    throw new AdvisorError('PRIVILEGE_MISSING', problems[0].message, { hint: problems[0].fix });
  return counts;
}

/** Index columns (then the primary key columns a secondary index carries) with their types, per index of one table. */
async function indexColumnsOf(
  conn: Connection,
  schema: string,
  table: string,
): Promise<Map<string, IndexColumn[]>> {
  // SHOW INDEX / SHOW COLUMNS: information_schema.STATISTICS ⋈ COLUMNS costs ≈ 200 ms on MariaDB 10.11.
  const quoted = `\`${schema.replace(/`/g, '``')}\`.\`${table.replace(/`/g, '``')}\``;
  const indexRows = await rows(conn, `SHOW INDEX FROM ${quoted}`);
  const columnRows = await rows(conn, `SHOW COLUMNS FROM ${quoted}`);
  const types = new Map(columnRows.map((row) => [String(row.Field), String(row.Type)]));
  const result = [...indexRows]
    .sort(
      (a, b) =>
        String(a.Key_name).localeCompare(String(b.Key_name)) ||
        Number(a.Seq_in_index) - Number(b.Seq_in_index),
    )
    .map((row) => ({
      idx: row.Key_name,
      col: row.Column_name,
      type: types.get(String(row.Column_name)) ?? '',
    }));
  const byIndex = new Map<string, IndexColumn[]>();
  for (const row of result) {
    const list = byIndex.get(String(row.idx)) ?? [];
    list.push({ name: String(row.col), type: String(row.type) });
    byIndex.set(String(row.idx), list);
  }
  const primary = byIndex.get('PRIMARY') ?? [];
  for (const [name, list] of byIndex) {
    if (name === 'PRIMARY') continue;
    for (const column of primary)
      if (!list.some((existing) => existing.name === column.name)) list.push(column);
  }
  return byIndex;
}

/** Decode lock_data of every lock in place, reading index column types once per table. */
export async function decodeLocks(
  conn: Connection,
  locks: readonly LockInfo[],
  problems: LockProblem[],
): Promise<void> {
  const tables = new Map<string, Map<string, IndexColumn[]> | null>();
  for (const lock of locks) {
    if (!lock.lockData || !lock.schema || !lock.table || !lock.index) continue;
    const key = `${lock.schema}.${lock.table}`;
    if (!tables.has(key)) {
      try {
        tables.set(key, await indexColumnsOf(conn, lock.schema, lock.table));
      } catch (error) {
        tables.set(key, null);
        problems.push({
          area: 'waits',
          message: `Index columns of ${key} are unknown (${(error as Error).message}); lock data stays raw.`,
          fix: `GRANT SELECT ON ${lock.schema}.* TO <user>;`,
        });
      }
    }
    const decoded = decodeLockData(lock.lockData, tables.get(key)?.get(lock.index) ?? []);
    lock.values = decoded.kind === 'record' ? decoded.values : null;
  }
}

export async function primaryKeyOf(conn: Connection, schema: string, table: string): Promise<string[]> {
  const result = await rows(
    conn,
    `SELECT COLUMN_NAME AS col FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX`,
    [schema, table],
  );
  return result.map((row) => String(row.col));
}
