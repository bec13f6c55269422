// Attack: a statement that never ends, on a DBA's production server (issue #20 item 3, 4).
//
// Every statement Sargable runs with a time limit (EXPLAIN, the locks view's EXPLAIN of a waiting
// statement, the selectivity sample) has a watchdog. Closing our socket does not stop a statement on
// the server: it keeps waiting (or running) there, holding what it holds. So the watchdog must KILL
// QUERY our own thread from a second connection. The canary is the server's processlist: after the
// watchdog fired, the thread that ran our statement runs nothing any more.
//
// The never-ending statement passes the statement guard: it waits for a metadata lock that another
// session holds (LOCK TABLES … WRITE), as a statement does behind a long ALTER on production. MySQL
// keeps such a wait going after the client closed its socket (the processlist canary fails when the
// watchdog only closes it); MariaDB ends the wait on a disconnect, so there the canary is that the
// session was not closed at all (same thread id afterwards: killed, not reconnected).
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { explainLockFootprint } from '../../src/main/services/locks.js';
import { sampleSelectivity, type SampleSkip } from '../../src/main/services/selectivity.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('watchdogs stop our statement on the server: $flavor', ({ url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-sec-watchdog');

  afterAll(async () => {
    await connections.closeAll();
    const fs = await import('node:fs');
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  /** What thread `id` is running now, per the server (null: nothing, or the thread is gone). */
  async function running(observer: mysql.Connection, id: number): Promise<string | null> {
    const [rows] = await observer.query<RowDataPacket[]>(
      "SELECT COMMAND AS command, STATE AS state, INFO AS info FROM information_schema.PROCESSLIST WHERE ID = ? AND COMMAND = 'Query' AND INFO IS NOT NULL",
      [id],
    );
    return rows[0] ? `${String(rows[0].state)}: ${String(rows[0].info)}` : null;
  }

  /** Waits until thread `id` shows `pattern` in the processlist (the statement really runs). */
  async function seen(observer: mysql.Connection, id: number, pattern: RegExp): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      if (pattern.test((await running(observer, id)) ?? '')) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`thread ${id} never showed ${pattern}: ${await running(observer, id)}`);
  }

  /** After the watchdog: within 2 s the thread runs nothing (KILL QUERY takes effect at once). */
  async function idleSoon(observer: mysql.Connection, id: number): Promise<string | null> {
    const deadline = Date.now() + 2_000;
    let now = await running(observer, id);
    while (now !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await running(observer, id);
    }
    return now;
  }

  async function open(database: string): Promise<string> {
    const admin = new URL(url);
    const reply = await call('connection.open', {
      host: admin.hostname,
      port: Number(admin.port),
      user: decodeURIComponent(admin.username),
      password: decodeURIComponent(admin.password),
      database,
    });
    if (!reply.ok) throw new Error(reply.error.message);
    return (reply.value as { connectionId: string }).connectionId;
  }

  /** Runs `fn` while another session holds the table's metadata lock (LOCK TABLES t WRITE). */
  async function withTableLocked<T>(database: string, fn: () => Promise<T>): Promise<T> {
    const holder = await connect(url, database);
    try {
      await holder.query('LOCK TABLES t WRITE');
      return await fn();
    } finally {
      await holder.query('UNLOCK TABLES').catch(() => undefined);
      await holder.end().catch(() => undefined);
    }
  }

  it('the locks view’s EXPLAIN of a waiting statement: KILL QUERY, not a closed socket', async () => {
    await withScratchDatabase(url, async (observer, database) => {
      await observer.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a))');
      await observer.query('INSERT INTO t VALUES (1, 1), (2, 2)');
      const id = await open(database);
      const { connection, server } = connections.get(id);
      const thread = connection.threadId;
      await withTableLocked(database, async () => {
        // (Without FOR UPDATE: MariaDB refuses to EXPLAIN a locking read in a read-only transaction.)
        const explained = explainLockFootprint(
          connection,
          server,
          'SELECT * FROM t WHERE a = 1',
          database,
        ).then(
          () => null,
          (error: unknown) => error,
        );
        await seen(observer, thread, /EXPLAIN/);
        expect(await explained).toMatchObject({ code: 'TIMEOUT' });
        expect(await idleSoon(observer, thread)).toBeNull();
      });
      // Killed, not closed: the same session (same thread) still answers.
      const [rows] = await connection.query<RowDataPacket[]>('SELECT 1 AS one');
      expect(Number(rows[0]!.one)).toBe(1);
      expect(connection.threadId).toBe(thread);
      await connections.close(id);
    });
  }, 30_000);

  it('the selectivity sample: KILL QUERY, not a closed socket', async () => {
    await withScratchDatabase(url, async (observer, database) => {
      await observer.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a))');
      await observer.query('INSERT INTO t VALUES (1, 1), (2, 2)');
      const id = await open(database);
      const { connection, server } = connections.get(id);
      const thread = connection.threadId;
      const skipped: SampleSkip[] = [];
      // A server without a statement time limit (MySQL 5.6, MariaDB 10.0): the watchdog alone stops it.
      const unlimited = {
        ...server,
        capabilities: { ...server.capabilities, maxExecutionTimeHint: false, maxStatementTime: false },
      };
      await withTableLocked(database, async () => {
        const sampled = sampleSelectivity(
          connection,
          unlimited,
          database,
          [{ table: 't', columns: ['a'], expressions: [], reads: ['a'] }],
          { timeoutMs: 500, onSkip: (skip) => skipped.push(skip) },
        );
        await seen(observer, thread, /sargable_sample/);
        expect(await sampled).toEqual([]);
        expect(await idleSoon(observer, thread)).toBeNull();
      });
      expect(skipped).toEqual([
        { table: 't', expression: null, reason: expect.stringMatching(/longer than 0\.5 s/) as string },
      ]);
      const [rows] = await connection.query<RowDataPacket[]>('SELECT 1 AS one');
      expect(Number(rows[0]!.one)).toBe(1);
      expect(connection.threadId).toBe(thread);
      await connections.close(id);
    });
  }, 30_000);

  it('explain.run: KILL QUERY of our own thread when the time limit passes', async () => {
    await withScratchDatabase(url, async (observer, database) => {
      await observer.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a))');
      const id = await open(database);
      const { connection } = connections.get(id);
      const thread = connection.threadId;
      await withTableLocked(database, async () => {
        const reply = call('explain.run', {
          connectionId: id,
          sql: 'SELECT * FROM t WHERE a = 1',
          timeoutMs: 1_000,
        });
        await seen(observer, thread, /EXPLAIN/);
        expect(await reply).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
        expect(await idleSoon(observer, thread)).toBeNull();
      });
      await connection.query('SELECT 1');
      expect(connection.threadId).toBe(thread);
      await connections.close(id);
    });
  }, 30_000);
});
