// Apply DDL and what-if never stall production (issue 18, item 1): an MDL pile-up on both servers.
// Session A holds an open transaction that read the table; Apply (or what-if) runs the ALTER, which
// waits for the metadata lock; session C then reads the table and queues behind the waiting ALTER.
// The ALTER must give up within its lock_wait_timeout (+2 s), name A as the holder and the online
// alternatives, and C must never wait longer than that timeout.
import fs from 'node:fs';
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/shared/api.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { alterWaitsForMetadataLock, openAppConnection } from '../support/ddl-waits.js';
import { testHandlers } from '../support/handlers.js';

/**
 * How long past its lock wait an ALTER may take to give up, and the reader behind it to get through:
 * the server's round trips and our reply on a loaded machine (measured: under 100 ms on a quiet one).
 */
const SLACK_MS = 5_000;

interface PileUp {
  reply: Reply<unknown>;
  applyMs: number;
  readerMs: number;
  holderId: number;
  indexes: string[];
}

describe.each(testServers())('DDL lock wait on $flavor', ({ url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-ddl-lock-wait-it');

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  const open = (database: string, allowWhatIf: boolean) =>
    openAppConnection(call, url, database, allowWhatIf);

  /** A holds an open transaction on orders; `run` starts the ALTER; C reads orders once the ALTER waits. */
  async function pileUp(
    db: mysql.Connection,
    database: string,
    timeoutSeconds: number,
    run: () => Promise<Reply<unknown>>,
  ): Promise<PileUp> {
    await db.query(
      'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, created DATETIME NOT NULL)',
    );
    await db.query(
      "INSERT INTO orders VALUES (1, 7, '2024-01-01'), (2, 8, '2024-02-01'), (3, 7, '2024-03-01')",
    );
    const holder = await connect(url, database);
    const reader = await connect(url, database);
    const observer = await connect(url, database);
    try {
      const [idRows] = await holder.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
      const holderId = Number(idRows[0]?.id);
      await holder.query('START TRANSACTION');
      await holder.query('SELECT COUNT(*) FROM orders');

      const started = performance.now();
      let applyMs = Number.POSITIVE_INFINITY;
      const applying = run().then((reply) => {
        applyMs = performance.now() - started;
        return reply;
      });
      await alterWaitsForMetadataLock(observer, database, 30_000);
      const readerStarted = performance.now();
      const reading = reader
        .query('SELECT COUNT(*) FROM orders WHERE customer_id = 7')
        .then(() => performance.now() - readerStarted);

      // Canary: without a limit the ALTER (and the reader behind it) wait for as long as A stays open:
      // here SLACK_MS + 15 s past the limit, well beyond the bounds below.
      const limit = timeoutSeconds * 1000 + SLACK_MS + 15_000;
      const reply = await Promise.race([
        applying,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), limit)),
      ]);
      if (reply === null) await holder.query('ROLLBACK'); // let the stuck ALTER finish so the test ends
      const readerMs = await reading;
      await applying;
      await holder.query('ROLLBACK');
      const [indexRows] = await observer.query<RowDataPacket[]>(
        'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database, 'orders'],
      );
      return {
        reply: reply ?? { ok: true, value: 'still waiting after the limit' },
        applyMs,
        readerMs,
        holderId,
        indexes: indexRows.map((row) => String(row.name)).sort(),
      };
    } finally {
      await Promise.all([holder.end(), reader.end(), observer.end()]);
    }
  }

  function expectGaveUp(result: PileUp, timeoutSeconds: number, action: string): void {
    expect(result.reply.ok).toBe(false);
    if (result.reply.ok) return;
    expect(result.reply.error.code).toBe('TIMEOUT');
    expect(result.reply.error.serverCode).toBe(1205);
    expect(result.reply.error.message).toContain(action);
    expect(result.reply.error.message).toContain(`${timeoutSeconds} s`);
    // A is named as the holder, with its transaction.
    expect(result.reply.error.message).toMatch(new RegExp(`session ${result.holderId}\\b`));
    expect(result.reply.error.hint).toMatch(/pt-online-schema-change/);
    expect(result.reply.error.hint).toMatch(/gh-ost/);
    expect(result.applyMs).toBeGreaterThanOrEqual(timeoutSeconds * 1000 - 500);
    expect(result.applyMs).toBeLessThan(timeoutSeconds * 1000 + SLACK_MS);
    // C queued behind the waiting ALTER at most until the ALTER gave up.
    expect(result.readerMs).toBeLessThan(timeoutSeconds * 1000 + SLACK_MS);
    expect(result.indexes).toEqual(['PRIMARY']);
  }

  it('Apply DDL gives up after the default 5 s, names the holder, and the reader behind it waits no longer', async () => {
    await withScratchDatabase(url, async (db, database) => {
      const connectionId = await open(database, false);
      const result = await pileUp(db, database, 5, () =>
        call('ddl.apply', {
          connectionId: connectionId,
          statements: ['ALTER TABLE orders ADD INDEX ix_customer (customer_id)'],
          consent: true,
        }),
      );
      expectGaveUp(result, 5, 'Applying DDL');
      expect(result.reply.ok ? '' : result.reply.error.message).toContain('Nothing was changed');
    });
  }, 90_000);

  it('what-if with a 2 s limit gives up the same way and leaves the table as it was', async () => {
    await withScratchDatabase(url, async (db, database) => {
      const connectionId = await open(database, true);
      const result = await pileUp(db, database, 2, () =>
        call('explain.whatIf', {
          connectionId: connectionId,
          sql: 'SELECT id FROM orders WHERE customer_id = 7',
          table: 'orders',
          ddl: ['ALTER TABLE orders ADD INDEX ix_customer (customer_id)'],
          confirmed: true,
          lockWaitTimeoutSeconds: 2,
        }),
      );
      expectGaveUp(result, 2, 'What-if verification');
    });
  }, 90_000);
});
