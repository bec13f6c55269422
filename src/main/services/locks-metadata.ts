// Metadata-lock waits (step 5 of the design note in locks.ts): processlist states first, holders from
// performance_schema.metadata_locks when the MDL instrument is on.

import type { Connection } from 'mysql2/promise';
import type { MetadataHolder, MetadataWait } from '../../core/locks/types.js';
import type { LockProblem } from '../../core/locks/snapshot.js';
import { type LockServer, num, optional, str } from './locks-shared.js';

/** Metadata-lock waits: processlist state first (always available), holders from metadata_locks when instrumented. */
export async function readMetadataWaits(
  conn: Connection,
  server: LockServer,
  problems: LockProblem[],
): Promise<MetadataWait[]> {
  const waiting = await optional(
    conn,
    'metadataWaits',
    'Reading the processlist',
    `SELECT ID AS id, USER AS user, HOST AS host, DB AS db, TIME AS time, STATE AS state, INFO AS info
       FROM information_schema.PROCESSLIST
      WHERE STATE LIKE 'Waiting for%metadata lock' LIMIT 50`,
    [],
    problems,
  );
  if (!waiting || waiting.length === 0) return [];
  const waits: MetadataWait[] = waiting.map((row) => ({
    threadId: Number(row.id),
    user: str(row.user),
    host: str(row.host),
    statement: str(row.info),
    waitSeconds: num(row.time),
    schema: str(row.db),
    table: null,
    lockType: null,
    holders: [],
    source: 'processlist',
  }));

  let exact = false;
  if (server.capabilities.performanceSchema !== false) {
    const mdl = await optional(
      conn,
      'metadataWaits',
      'Reading performance_schema.metadata_locks',
      `SELECT m.OBJECT_SCHEMA AS db, m.OBJECT_NAME AS tbl, m.LOCK_TYPE AS lock_type, m.LOCK_STATUS AS status, t.PROCESSLIST_ID AS thread_id
         FROM performance_schema.metadata_locks m
         JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
        WHERE m.OBJECT_TYPE = 'TABLE' AND (m.OBJECT_SCHEMA, m.OBJECT_NAME) IN
              (SELECT OBJECT_SCHEMA, OBJECT_NAME FROM performance_schema.metadata_locks WHERE LOCK_STATUS = 'PENDING')
        LIMIT 200`,
      [],
      problems,
    );
    if (mdl && mdl.some((row) => row.status === 'PENDING')) {
      exact = true;
      const processlist = await optional(
        conn,
        'metadataWaits',
        'Reading holders from the processlist',
        `SELECT p.ID AS id, p.USER AS user, p.HOST AS host, p.INFO AS info, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
           FROM information_schema.PROCESSLIST p LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID
          WHERE p.ID IN (?)`,
        [[...new Set(mdl.map((row) => num(row.thread_id)).filter((id) => id !== null))]],
        problems,
      );
      const sessions = new Map((processlist ?? []).map((row) => [num(row.id), row]));
      for (const wait of waits) {
        const pending = mdl.find((row) => num(row.thread_id) === wait.threadId && row.status === 'PENDING');
        if (!pending) continue;
        wait.source = 'metadata_locks';
        wait.schema = str(pending.db);
        wait.table = str(pending.tbl);
        wait.lockType = str(pending.lock_type);
        wait.holders = mdl
          .filter(
            (row) =>
              row.status === 'GRANTED' &&
              row.db === pending.db &&
              row.tbl === pending.tbl &&
              num(row.thread_id) !== wait.threadId,
          )
          .map((row): MetadataHolder => {
            const session = sessions.get(num(row.thread_id));
            return {
              threadId: num(row.thread_id),
              user: str(session?.user),
              host: str(session?.host),
              statement: str(session?.info),
              lockType: str(row.lock_type),
              trxAgeSeconds: num(session?.age),
            };
          });
      }
    }
  }
  if (!exact) {
    problems.push({
      area: 'metadataWaits',
      message: 'Metadata-lock holders are not instrumented; showing open transactions as likely holders.',
      fix:
        server.capabilities.performanceSchema === false
          ? "Start the server with performance_schema=ON, then: UPDATE performance_schema.setup_instruments SET ENABLED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';"
          : "UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl';",
    });
    // Without instrumentation, every open transaction older than the wait may hold the lock.
    const open = await optional(
      conn,
      'metadataWaits',
      'Reading open transactions',
      `SELECT t.trx_mysql_thread_id AS id, p.USER AS user, p.HOST AS host, p.INFO AS info, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age
         FROM information_schema.INNODB_TRX t LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
        ORDER BY t.trx_started LIMIT 20`,
      [],
      problems,
    );
    for (const wait of waits) {
      wait.holders = (open ?? [])
        .filter((row) => num(row.id) !== wait.threadId && (num(row.age) ?? 0) >= (wait.waitSeconds ?? 0))
        .map((row) => ({
          threadId: num(row.id),
          user: str(row.user),
          host: str(row.host),
          statement: str(row.info),
          lockType: null,
          trxAgeSeconds: num(row.age),
        }));
    }
  }
  return waits;
}
