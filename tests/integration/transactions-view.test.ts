// The Transactions view (issue 18, item 14) on real servers: a transaction idle after an UPDATE (rows
// modified, row locks), a second one waiting for its row, a sleeping session without a transaction. The
// view must show ages, states, rows locked/modified, the blocking relation both ways, the history list
// length and the processlist; the last statement where the server records it (MySQL's default; MariaDB's
// consumers are off, and the view says how to turn them on). Kill of the blocker, after confirmation,
// lets the waiter finish.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import type { TransactionsSnapshot } from '../../src/core/locks/transactions.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('Transactions view on $flavor', ({ flavor, url }) => {
  it('open transactions with age, state, rows, last statement, blocking relations; processlist; Kill unblocks', async () => {
    const { connections, userDataDir, call } = testHandlers('sargable-trx-view-it');
    try {
      await withScratchDatabase(url, async (db, database) => {
        await db.query('CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL) ENGINE=InnoDB');
        await db.query('INSERT INTO accounts VALUES (1, 100), (2, 200), (3, 300)');
        const opened = await call('connection.open', { dsn: `${url.replace(/\/$/, '')}/${database}` });
        if (!opened.ok) throw new Error(opened.error.message);
        const { connectionId } = opened.value as { connectionId: string };
        const [blocker, waiter, sleeper] = await Promise.all([
          connect(url, database),
          connect(url, database),
          connect(url, database),
        ]);
        try {
          await blocker.query('START TRANSACTION');
          await blocker.query('UPDATE accounts SET balance = balance - 10 WHERE id = 1');
          await waiter.query('SET SESSION innodb_lock_wait_timeout = 30');
          await waiter.query('START TRANSACTION');
          const waiting = waiter.query('UPDATE accounts SET balance = balance + 10 WHERE id = 1').then(
            () => null,
            (error: unknown) => error,
          );
          let snapshot: TransactionsSnapshot | undefined;
          for (let tries = 0; tries < 100; tries++) {
            const reply = await call('locks.transactions', { connectionId });
            if (!reply.ok) throw new Error(reply.error.message);
            snapshot = reply.value as TransactionsSnapshot;
            const w = snapshot.transactions.find((trx) => trx.threadId === waiter.threadId);
            if (w?.state === 'LOCK WAIT' && w.blockedBy.length > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          if (!snapshot) throw new Error('no snapshot');
          const b = snapshot.transactions.find((trx) => trx.threadId === blocker.threadId);
          const w = snapshot.transactions.find((trx) => trx.threadId === waiter.threadId);
          expect({
            blocker: {
              state: b?.state,
              rowsModified: b?.rowsModified,
              locked: (b?.rowsLocked ?? 0) >= 1,
              command: b?.command,
              statement: b?.statement,
              blocking: b?.blocking,
            },
            waiter: {
              state: w?.state,
              statement: w?.statement,
              blockedBy: w?.blockedBy,
              waits: (w?.waitSeconds ?? -1) >= 0,
            },
          }).toEqual({
            blocker: {
              state: 'RUNNING',
              rowsModified: 1,
              locked: true,
              command: 'Sleep',
              statement: null,
              blocking: [{ threadId: waiter.threadId, kind: 'row' }],
            },
            waiter: {
              state: 'LOCK WAIT',
              statement: 'UPDATE accounts SET balance = balance + 10 WHERE id = 1',
              blockedBy: [{ threadId: blocker.threadId, kind: 'row' }],
              waits: true,
            },
          });
          expect(b?.ageSeconds).toBeGreaterThanOrEqual(0);
          expect(b?.isolation).toBe('REPEATABLE READ');
          expect(snapshot.historyListLength).toBeGreaterThanOrEqual(0);
          // The processlist: the sleeping session without a transaction, and the blocker with its trx id.
          const sleeping = snapshot.processlist.find((row) => row.id === sleeper.threadId);
          expect([sleeping?.command, sleeping?.trxId, sleeping?.db]).toEqual(['Sleep', null, database]);
          expect(snapshot.processlist.find((row) => row.id === blocker.threadId)?.trxId).toBe(b?.trxId);
          if (flavor === 'mysql') {
            // events_statements_history: the idle blocker's statements, the UPDATE last.
            expect(b?.lastStatements.at(-1)).toBe('UPDATE accounts SET balance = balance - 10 WHERE id = 1');
            expect(b?.lastStatements).toContain('START TRANSACTION');
          } else {
            expect(b?.lastStatements).toEqual([]);
            expect(snapshot.problems.map((problem) => problem.fix).join(' ')).toContain(
              'events_statements_history',
            );
          }

          // Kill of the blocker's connection (confirmed): its transaction rolls back, the waiter proceeds.
          const killed = await call('locks.kill', {
            connectionId,
            threadId: blocker.threadId,
            scope: 'connection',
            confirmed: true,
          });
          expect(killed.ok).toBe(true);
          expect(await waiting).toBeNull();
          await waiter.query('COMMIT');
          const [rows] = await db.query<RowDataPacket[]>('SELECT balance FROM accounts WHERE id = 1');
          expect(Number(rows[0]?.balance)).toBe(110);
        } finally {
          await Promise.all([blocker, waiter, sleeper].map((c) => c.end().catch(() => undefined)));
        }
      });
    } finally {
      await connections.closeAll();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a killed session's transaction is not listed though INNODB_TRX's 100 ms cache still has it", async (context) => {
    const { connections, userDataDir, call } = testHandlers('sargable-trx-view-it');
    try {
      await withScratchDatabase(url, async (db, database) => {
        await db.query('CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL) ENGINE=InnoDB');
        await db.query('INSERT INTO accounts VALUES (1, 100)');
        const opened = await call('connection.open', { dsn: `${url.replace(/\/$/, '')}/${database}` });
        if (!opened.ok) throw new Error(opened.error.message);
        const { connectionId } = opened.value as { connectionId: string };
        // The cached row lives at most 100 ms after the read that filled the cache: on a loaded machine
        // the kill and the next read can take longer, and the cache no longer has it. Try a few times
        // for the state the test is about; say so (skipped) when this machine never shows it.
        for (let attempt = 0; attempt < 10; attempt++) {
          const blocker = await connect(url, database);
          blocker.on('error', () => undefined);
          try {
            await blocker.query('START TRANSACTION');
            await blocker.query('UPDATE accounts SET balance = balance - 10 WHERE id = 1');
            // Any session's read fills the cache (a monitoring tool, or the check a user just ran).
            await db.query('SELECT COUNT(*) FROM information_schema.INNODB_TRX');
            await db.query(`KILL CONNECTION ${blocker.threadId}`);
            // KILL only flags the session: wait (briefly, inside the cache's 100 ms) until it has left.
            const killed = Date.now();
            while (Date.now() - killed < 60) {
              const [gone] = await db.query<RowDataPacket[]>(
                'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID = ?',
                [blocker.threadId],
              );
              if (Number(gone[0]?.n) === 0) break;
            }
            const [rows] = await db.query<RowDataPacket[]>(
              'SELECT (SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?) AS trx, ' +
                '(SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?) AS process',
              [blocker.threadId, blocker.threadId],
            );
            // Canary: right after the kill, INNODB_TRX (cached) lists it while the processlist has no session.
            const cached = Number(rows[0]?.trx) === 1 && Number(rows[0]?.process) === 0;
            const reply = await call('locks.transactions', { connectionId });
            if (!reply.ok) throw new Error(reply.error.message);
            const snapshot = reply.value as TransactionsSnapshot;
            expect(snapshot.transactions.map((trx) => trx.threadId)).not.toContain(blocker.threadId);
            expect(snapshot.processlist.map((row) => row.id)).not.toContain(blocker.threadId);
            if (cached) return;
          } finally {
            await blocker.end().catch(() => undefined);
          }
          await db.query('UPDATE accounts SET balance = 100 WHERE id = 1');
        }
        context.skip('INNODB_TRX never still listed the killed transaction right after KILL on this machine');
      });
    } finally {
      await connections.closeAll();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
