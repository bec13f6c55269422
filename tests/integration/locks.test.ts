// Lock view and locking-read rewrites proven on MySQL 8.0.33 and MariaDB 10.11 (issue "Live lock waits", Server truth).
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rewriteLockingRead } from '../../src/core/locks/rewrite.js';
import { flattenForest } from '../../src/core/locks/tree.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import {
  cachedStatementRewrites,
  clearRewriteCache,
  explainLockFootprint,
  killSession,
  pollLocks,
  statementRewrites,
  type LockSnapshot,
} from '../../src/main/services/locks.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { dispatch } from '../../src/main/dispatch.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const seedTable = `CREATE TABLE product (
  p_id int NOT NULL AUTO_INCREMENT,
  p_name varchar(255) DEFAULT NULL,
  p_cost decimal(19,4) NOT NULL,
  p_availability enum('YES','NO') DEFAULT 'NO',
  PRIMARY KEY (p_id), KEY p_cost (p_cost), KEY p_name (p_name)
) ENGINE=InnoDB`;
const seedRows =
  "INSERT INTO product VALUES (1,'Item1',10,'YES'),(2,'Item2',20,'YES'),(3,'Item3',30,'YES'),(5,'Item5',50,'YES')";
const sessionA = 'SELECT * FROM product WHERE p_cost >= 20 AND p_cost <= 30 FOR UPDATE';

/** The server truth for NOWAIT, per flavor (not read from the capability table on purpose). */
const nowaitErrno = { mysql: 3572, mariadb: 1205 } as const;

async function threadId(connection: Connection): Promise<number> {
  const [rows] = await connection.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
  return Number(rows[0]?.id);
}

async function trxId(connection: Connection): Promise<string> {
  // INNODB_TRX is a cache refreshed at most every 0.1 s: a transaction that just started may not be
  // in it yet (the id came back "undefined" and the lock count 0 about once in three runs).
  for (let attempt = 0; attempt < 40; attempt++) {
    const [rows] = await connection.query<RowDataPacket[]>(
      'SELECT CAST(trx_id AS CHAR) AS id FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = CONNECTION_ID()',
    );
    if (rows[0]?.id !== undefined) return String(rows[0].id);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the transaction never appeared in information_schema.INNODB_TRX');
}

/** Record locks a session holds (performance_schema.data_locks by its thread). */
async function recordLocksOfSession(connection: Connection): Promise<number> {
  const [[row]] = await connection.query<RowDataPacket[]>(
    `SELECT COUNT(*) AS n FROM performance_schema.data_locks l
       JOIN performance_schema.threads t ON t.THREAD_ID = l.THREAD_ID
      WHERE t.PROCESSLIST_ID = CONNECTION_ID() AND l.LOCK_TYPE = 'RECORD'`,
  );
  return Number(row?.n ?? 0);
}

/** Poll until `ready` holds (the waiter has reached the lock queue), at most 10 s. */
async function pollUntil(
  monitor: Connection,
  server: ServerInfo,
  ready: (snapshot: LockSnapshot) => boolean,
): Promise<LockSnapshot> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const snapshot = await pollLocks(monitor, server, { lockCounts: true });
    if (ready(snapshot) || Date.now() > deadline) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Run a statement that is expected to block; the promise settles to its error (or null). */
function background(connection: Connection, sql: string): Promise<{ errno?: number } | null> {
  return connection.query(sql).then(
    () => null,
    (error: { errno?: number }) => error,
  );
}

describe.each(testServers())('locks on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_locks');
  let admin: Connection;
  let monitor: Connection;
  let server: ServerInfo;
  const sessions: Connection[] = [];

  async function session(): Promise<Connection> {
    const connection = await connect(url, database);
    await connection.query('SET SESSION innodb_lock_wait_timeout = 20');
    sessions.push(connection);
    return connection;
  }

  beforeAll(async () => {
    admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    monitor = await connect(url);
    server = await detectServerInfo(monitor);
  });

  afterEach(async () => {
    // Ending a session rolls its transaction back and releases its locks.
    await Promise.all(sessions.splice(0).map((connection) => connection.end().catch(() => undefined)));
    await admin.query(`DROP TABLE IF EXISTS product`);
  });

  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await Promise.all([admin?.end(), monitor?.end()]);
  });

  async function seed(): Promise<void> {
    await admin.query(seedTable);
    await admin.query(seedRows);
  }

  it('shows B waiting on A with table, index, modes and records, and A as the root', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    const [aThread, bThread] = [await threadId(a), await threadId(b)];
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    const pending = background(b, 'SELECT * FROM product WHERE p_id = 3 FOR UPDATE');
    const snapshot = await pollUntil(monitor, server, (s) => s.waits.length > 0);
    const wait = snapshot.waits[0];
    const aTrx = await trxId(a);
    expect({
      waiting: [wait?.waiting.threadId, wait?.waiting.statement],
      blocking: [wait?.blocking.threadId, wait?.blocking.statement, wait?.blocking.statementSource],
      lock: [
        wait?.lock.schema,
        wait?.lock.table,
        wait?.lock.index,
        wait?.lock.lockType,
        wait?.lock.mode,
        wait?.lock.granularity,
        wait?.lock.values,
      ],
      roots: snapshot.roots.map((root) => [
        root.txn.threadId,
        root.depth,
        root.children.map((child) => child.txn.threadId),
      ]),
      rewriteKinds: wait?.rewrites.map((rewrite) => rewrite.kind),
      counts: snapshot.lockCounts
        .filter((count) => count.trxId === aTrx)
        .map((count) => [count.index, count.count]),
    }).toEqual({
      waiting: [bThread, 'SELECT * FROM product WHERE p_id = 3 FOR UPDATE'],
      // MySQL 8 finds an idle blocker's last statement in performance_schema; MariaDB has
      // performance_schema (or at least its statement consumers) off by default.
      blocking: flavor === 'mysql' ? [aThread, sessionA, 'last'] : [aThread, null, null],
      lock:
        flavor === 'mysql'
          ? [
              database,
              'product',
              'PRIMARY',
              'RECORD',
              'X,REC_NOT_GAP',
              'record',
              [{ column: 'p_id', value: '3', raw: '3', decoded: true }],
            ]
          : [
              database,
              'product',
              'PRIMARY',
              'RECORD',
              'X',
              'record-or-next-key',
              [{ column: 'p_id', value: '3', raw: '3', decoded: true }],
            ],
      roots: [[aThread, 0, [bThread]]],
      rewriteKinds: flavor === 'mysql' ? ['nowait', 'skip-locked'] : ['nowait', 'skip-locked', 'wait'],
      // The seed's grouped data_locks query: p_cost 3 (20, 30 and the next key 50), PRIMARY 2.
      counts:
        flavor === 'mysql'
          ? [
              ['p_cost', 3],
              ['PRIMARY', 2],
            ]
          : [],
    });
    if (flavor === 'mariadb')
      expect(snapshot.problems.map((problem) => problem.area)).toContain('statements');
    await a.query('ROLLBACK');
    expect(await pending).toBeNull();
  });

  it('shows a three-session chain at depth 2', async () => {
    await seed();
    const [a, b, c] = [await session(), await session(), await session()];
    const threads = [await threadId(a), await threadId(b), await threadId(c)];
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    await b.query('START TRANSACTION');
    await b.query('SELECT * FROM product WHERE p_id = 1 FOR UPDATE');
    const bWaits = background(b, 'SELECT * FROM product WHERE p_id = 3 FOR UPDATE');
    await pollUntil(monitor, server, (s) => s.waits.length >= 1);
    const cWaits = background(c, 'SELECT * FROM product WHERE p_id = 1 FOR UPDATE');
    // INNODB_TRX lags up to 0.1 s behind (InnoDB's trx_i_s cache): wait until both waiters are described.
    const snapshot = await pollUntil(
      monitor,
      server,
      (s) => s.waits.length >= 2 && s.waits.every((wait) => wait.waiting.threadId !== null),
    );
    const forest = { roots: snapshot.roots, cycles: snapshot.cycles, maxDepth: 0 };
    expect(flattenForest(forest).map((node) => [node.txn.threadId, node.depth])).toEqual([
      [threads[0], 0],
      [threads[1], 1],
      [threads[2], 2],
    ]);
    await a.query('ROLLBACK');
    await bWaits;
    await b.query('ROLLBACK');
    await cWaits;
  });

  it('the NOWAIT rewrite fails at once with the flavor error; SKIP LOCKED returns only unlocked rows', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    const rewrite = (sql: string, kind: string): string => {
      const found = rewriteLockingRead(sql, server).rewrites.find((candidate) => candidate.kind === kind);
      if (!found) throw new Error(`no ${kind} rewrite for ${sql}`);
      return found.sql;
    };
    const nowait = rewrite('SELECT * FROM product WHERE p_id = 3 FOR UPDATE', 'nowait');
    const started = Date.now();
    const error = await background(b, nowait);
    const elapsed = Date.now() - started;
    const [inList] = await b.query<RowDataPacket[]>(
      rewrite('SELECT * FROM product WHERE p_id IN (1,2,3,4,5) FOR UPDATE', 'skip-locked'),
    );
    const [cost30] = await b.query<RowDataPacket[]>(
      rewrite('SELECT * FROM product WHERE p_cost = 30 FOR UPDATE', 'skip-locked'),
    );
    expect({
      errno: error?.errno,
      // Half the 20 s innodb_lock_wait_timeout a plain FOR UPDATE waits (MariaDB's NOWAIT error is 1205 too).
      immediate: elapsed < 10_000,
      inList: inList.map((row) => row.p_id),
      cost30: cost30.length,
    }).toEqual({
      errno: nowaitErrno[flavor],
      immediate: true,
      inList: [1, 5],
      cost30: 0,
    });
  });

  it('shared and OF locking reads: the NOWAIT rewrite fails at once, SKIP LOCKED returns rows 1 and 5 (per server grammar)', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    // What each server accepts as written: MySQL >= 8.0.1 FOR SHARE [OF t]; MariaDB LOCK IN SHARE MODE only.
    const shapes =
      flavor === 'mysql'
        ? [
            'SELECT * FROM product WHERE {where} FOR SHARE',
            'SELECT * FROM product p WHERE {where} FOR SHARE OF p',
            'SELECT * FROM product p WHERE {where} FOR UPDATE OF p',
            'SELECT * FROM product WHERE {where} LOCK IN SHARE MODE',
          ]
        : [
            'SELECT * FROM product WHERE {where} LOCK IN SHARE MODE',
            'SELECT * FROM product WHERE {where} FOR SHARE',
          ];
    const results: Record<string, unknown> = {};
    for (const shape of shapes) {
      const one = rewriteLockingRead(shape.replace('{where}', 'p_id = 3'), server);
      const many = rewriteLockingRead(shape.replace('{where}', 'p_id IN (1,2,3,4,5)'), server);
      const nowait = one.rewrites.find((rewrite) => rewrite.kind === 'nowait');
      const skip = many.rewrites.find((rewrite) => rewrite.kind === 'skip-locked');
      const started = Date.now();
      const error = nowait ? await background(b, nowait.sql) : null;
      const immediate = Date.now() - started < 10_000;
      const rows = skip ? (await b.query<RowDataPacket[]>(skip.sql))[0].map((row) => row.p_id) : null;
      results[shape] = { nowait: [nowait?.sql, error?.errno, immediate], skipLocked: [skip?.sql, rows] };
    }
    const expected = (nowaitSql: string, skipSql: string) => ({
      nowait: [nowaitSql, nowaitErrno[flavor], true],
      skipLocked: [skipSql, [1, 5]],
    });
    expect(results).toEqual(
      flavor === 'mysql'
        ? {
            [shapes[0] as string]: expected(
              'SELECT * FROM `product` WHERE `p_id` = 3 FOR SHARE NOWAIT',
              'SELECT * FROM `product` WHERE `p_id` IN (1, 2, 3, 4, 5) FOR SHARE SKIP LOCKED',
            ),
            [shapes[1] as string]: expected(
              'SELECT * FROM `product` AS `p` WHERE `p_id` = 3 FOR SHARE OF p NOWAIT',
              'SELECT * FROM `product` AS `p` WHERE `p_id` IN (1, 2, 3, 4, 5) FOR SHARE OF p SKIP LOCKED',
            ),
            [shapes[2] as string]: expected(
              'SELECT * FROM `product` AS `p` WHERE `p_id` = 3 FOR UPDATE OF p NOWAIT',
              'SELECT * FROM `product` AS `p` WHERE `p_id` IN (1, 2, 3, 4, 5) FOR UPDATE OF p SKIP LOCKED',
            ),
            [shapes[3] as string]: expected(
              'SELECT * FROM `product` WHERE `p_id` = 3 FOR SHARE NOWAIT',
              'SELECT * FROM `product` WHERE `p_id` IN (1, 2, 3, 4, 5) FOR SHARE SKIP LOCKED',
            ),
          }
        : {
            [shapes[0] as string]: expected(
              'SELECT * FROM `product` WHERE `p_id` = 3 LOCK IN SHARE MODE NOWAIT',
              'SELECT * FROM `product` WHERE `p_id` IN (1, 2, 3, 4, 5) LOCK IN SHARE MODE SKIP LOCKED',
            ),
            [shapes[1] as string]: expected(
              'SELECT * FROM `product` WHERE `p_id` = 3 LOCK IN SHARE MODE NOWAIT',
              'SELECT * FROM `product` WHERE `p_id` IN (1, 2, 3, 4, 5) LOCK IN SHARE MODE SKIP LOCKED',
            ),
          },
    );
  });

  it('the live poll returns at once with rewrites pending, computes them after it returns, and attaches them next time', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    const shared =
      flavor === 'mysql'
        ? `SELECT * FROM product WHERE p_id = 3 /* ${database} */ FOR SHARE`
        : `SELECT * FROM product WHERE p_id = 3 /* ${database} */ LOCK IN SHARE MODE`;
    const pending = background(b, shared);
    await pollUntil(monitor, server, (s) => s.waits.some((wait) => wait.waiting.statement === shared));
    clearRewriteCache();
    const first = await pollLocks(monitor, server, { rewrites: 'lazy' });
    const firstWait = first.waits.find((wait) => wait.waiting.statement === shared);
    // The background work runs one statement per event-loop turn after the poll returned.
    for (let turn = 0; turn < 100 && !cachedStatementRewrites(server, shared); turn += 1)
      await new Promise((resolve) => setImmediate(resolve));
    const second = await pollLocks(monitor, server, { rewrites: 'lazy' });
    const secondWait = second.waits.find((wait) => wait.waiting.statement === shared);
    expect({
      first: [firstWait?.rewritesPending, firstWait?.rewrites.length],
      second: [secondWait?.rewritesPending, secondWait?.rewrites.map((rewrite) => rewrite.kind)],
      onRequest: statementRewrites(server, shared).rewrites.find((rewrite) => rewrite.kind === 'nowait')?.sql,
    }).toEqual({
      first: [true, 0],
      second: [undefined, flavor === 'mysql' ? ['nowait', 'skip-locked'] : ['nowait', 'skip-locked', 'wait']],
      onRequest:
        flavor === 'mysql'
          ? 'SELECT * FROM `product` WHERE `p_id` = 3 FOR SHARE NOWAIT'
          : 'SELECT * FROM `product` WHERE `p_id` = 3 LOCK IN SHARE MODE NOWAIT',
    });
    await a.query('ROLLBACK');
    expect(await pending).toBeNull();
  });

  it('flags the unindexed p_availability locking read; after the index it takes fewer record locks (counted in data_locks on MySQL 8)', async () => {
    await seed();
    // 200 'NO' rows, so an index on p_availability has something to skip (the seed rows are all 'YES').
    const extra = Array.from({ length: 200 }, (_, index) => `(${100 + index}, 'x${index}', 1, 'NO')`).join(
      ',',
    );
    await admin.query(`INSERT INTO product VALUES ${extra}`);
    await admin.query('ANALYZE TABLE product');
    const sql = "SELECT * FROM product WHERE p_availability = 'YES' FOR UPDATE";
    const explainer = await connect(url);
    sessions.push(explainer);
    const before = await explainLockFootprint(explainer, server, sql, database);

    const held = async (): Promise<number | null> => {
      const a = await session();
      await a.query('START TRANSACTION');
      await a.query(sql);
      // Counted by the session's thread, not its trx id: INNODB_TRX sometimes did not list this
      // transaction for seconds (CI), while data_locks always has its record locks.
      const count = server.capabilities.dataLocks ? await recordLocksOfSession(a) : null;
      await a.query('ROLLBACK');
      return count;
    };
    const locksBefore = await held();
    await admin.query('ALTER TABLE product ADD INDEX (p_availability)');
    await admin.query('ANALYZE TABLE product');
    const after = await explainLockFootprint(explainer, server, sql, database);
    const locksAfter = await held();
    expect({
      flagged: [before?.reason, before?.columns],
      flaggedAfter: after,
      drop:
        locksBefore === null || locksAfter === null
          ? 'not counted'
          : locksBefore >= 204 && locksAfter <= 12
            ? true
            : { locksBefore, locksAfter },
    }).toEqual({
      flagged: ['full-scan', ['p_availability']],
      flaggedAfter: null,
      drop: server.capabilities.dataLocks ? true : 'not counted',
    });
  });

  /** Two sessions deadlock on rows 1 and 2; resolves to both statements' errors (one 1213) or 'timeout'. */
  async function causeDeadlock(
    a: Connection,
    b: Connection,
  ): Promise<({ errno?: number } | null)[] | 'timeout'> {
    await a.query('START TRANSACTION');
    await b.query('START TRANSACTION');
    await a.query('SELECT * FROM product WHERE p_id = 1 FOR UPDATE');
    await b.query('SELECT * FROM product WHERE p_id = 2 FOR UPDATE');
    const first = background(a, "UPDATE product SET p_name = 'a' WHERE p_id = 2");
    await pollUntil(monitor, server, (s) => s.waits.length > 0);
    const second = background(b, "UPDATE product SET p_name = 'b' WHERE p_id = 1");
    return Promise.race([
      Promise.all([first, second]),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000)),
    ]);
  }

  it('parses a real deadlock between two sessions from InnoDB status', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    const threads = [await threadId(a), await threadId(b)];
    const errors = await causeDeadlock(a, b);
    const snapshot = await pollLocks(monitor, server);
    const deadlock = snapshot.deadlocks[0];
    const byThread = new Map(deadlock?.transactions.map((txn) => [txn.threadId, txn]));
    expect({
      oneVictim: Array.isArray(errors) ? errors.filter((error) => error?.errno === 1213).length : 'timeout',
      statements: threads.map((thread) => byThread.get(thread)?.statement),
      waitsFor: threads.map((thread) => [
        byThread.get(thread)?.waitsFor?.index,
        byThread.get(thread)?.waitsFor?.mode,
      ]),
      victimIsOne: threads.includes(
        deadlock?.transactions.find((txn) => txn.number === deadlock.victim)?.threadId ?? -1,
      ),
    }).toEqual({
      oneVictim: 1,
      statements: [
        "UPDATE product SET p_name = 'a' WHERE p_id = 2",
        "UPDATE product SET p_name = 'b' WHERE p_id = 1",
      ],
      waitsFor: [
        ['PRIMARY', 'X,REC_NOT_GAP'],
        ['PRIMARY', 'X,REC_NOT_GAP'],
      ],
      victimIsOne: true,
    });
  });

  it('keeps each distinct deadlock in the workspace: recorded by the live poll, still there after a restart, not counted twice', async () => {
    await seed();
    const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'sargable-locks-'));
    const start = () => {
      const connections = new ConnectionService();
      const handlers = createHandlers({
        connections,
        app: { name: 'Sargable', version: 'test', mode: 'web' },
        userDataDir,
      });
      const call = async <T>(method: string, request: unknown): Promise<T> => {
        const reply = await dispatch(handlers, method, request);
        if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
        return reply.value as T;
      };
      return { connections, call };
    };
    const [a, b] = [await session(), await session()];
    expect(await causeDeadlock(a, b)).not.toBe('timeout');
    const history = async (app: ReturnType<typeof start>) => {
      const { connectionId } = await app.call<{ connectionId: string }>('connection.open', { dsn: url });
      const snapshot = await app.call<LockSnapshot>('locks.poll', { connectionId, profileId: 'locks-test' });
      const again = await app.call<LockSnapshot>('locks.poll', { connectionId, profileId: 'locks-test' });
      await app.connections.closeAll();
      return [snapshot, again].map((one) =>
        (one.deadlockHistory ?? []).map((entry) => [
          entry.fingerprint,
          entry.occurrences,
          entry.latest.transactions.map((txn) => txn.statement).sort(),
        ]),
      );
    };
    const first = await history(start());
    const afterRestart = await history(start());
    const file = JSON.parse(
      readFileSync(path.join(userDataDir, 'workspaces', 'locks-test.sargable.json'), 'utf8'),
    ) as { deadlocks?: unknown[] };
    const latest = (await pollLocks(monitor, server, { rewrites: false })).deadlocks[0];
    const expected = [
      [
        latest?.fingerprint,
        1,
        ["UPDATE product SET p_name = 'a' WHERE p_id = 2", "UPDATE product SET p_name = 'b' WHERE p_id = 1"],
      ],
    ];
    // Earlier deadlocks of this server (other tests) may be the latest one; this test's is the latest now.
    expect({ first, afterRestart, inFile: file.deadlocks?.length }).toEqual({
      first: [expected, expected],
      afterRestart: [expected, expected],
      inFile: 1,
    });
  });

  it('shows a metadata lock wait (ALTER TABLE behind an open transaction) with its holder', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    const [aThread, bThread] = [await threadId(a), await threadId(b)];
    await a.query('START TRANSACTION');
    await a.query('SELECT * FROM product WHERE p_id = 1');
    await b.query('SET SESSION lock_wait_timeout = 20');
    const alter = background(b, 'ALTER TABLE product ADD COLUMN note INT');
    const snapshot = await pollUntil(monitor, server, (s) =>
      Boolean(s.metadataWaits[0]?.holders.some((holder) => holder.threadId === aThread)),
    );
    const wait = snapshot.metadataWaits[0];
    expect({
      waiter: [wait?.threadId, wait?.statement],
      holders: wait?.holders.map((holder) => holder.threadId).includes(aThread),
    }).toEqual({ waiter: [bThread, 'ALTER TABLE product ADD COLUMN note INT'], holders: true });
    await a.query('ROLLBACK');
    expect(await alter).toBeNull();
  });

  it('KILL QUERY on a waiter (after the confirmation the UI/CLI shows) ends its wait', async () => {
    await seed();
    const [a, b] = [await session(), await session()];
    const bThread = await threadId(b);
    await a.query('START TRANSACTION');
    await a.query(sessionA);
    const pending = background(b, 'SELECT * FROM product WHERE p_id = 3 FOR UPDATE');
    await pollUntil(monitor, server, (s) => s.waits.length > 0);
    await killSession(monitor, bThread, 'query');
    expect((await pending)?.errno).toBe(1317);
  });

  it('names the GRANT that is missing instead of showing an empty view', async () => {
    const user = `sargable_nolock_${database.slice(-6)}`;
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'Pw-12345-pw'`);
    try {
      const limited = await connect(url.replace(/\/\/[^@]+@/, `//${user}:Pw-12345-pw@`));
      try {
        const error = await pollLocks(limited, server).then(
          () => null,
          (caught: { code?: string; details?: { hint?: string } }) => caught,
        );
        expect([error?.code, error?.details?.hint]).toEqual([
          'PRIVILEGE_MISSING',
          flavor === 'mysql'
            ? 'GRANT SELECT ON performance_schema.* TO <user>;'
            : 'GRANT PROCESS ON *.* TO <user>;',
        ]);
      } finally {
        await limited.end();
      }
    } finally {
      await admin.query(`DROP USER '${user}'@'%'`);
    }
  });
});
