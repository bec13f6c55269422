// The metadata-lock wait tree on real servers (issue 18, item 11): a real MDL pile-up — a holder with an
// open transaction, an ALTER waiting for it, two readers queued behind the ALTER, and an unrelated open
// transaction on another table — read through the API as the Locks panel does. The tree must name the
// ALTER as the waiter, the holder (only the holder where the server has the locks), the two readers as
// queued (never "held by" the holder), and Kill of the holder after confirmation must unblock them all.
import fs from 'node:fs';
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { MetadataWaitGroup } from '../../src/core/locks/metadata-tree.js';
import type { LockSnapshot } from '../../src/core/locks/snapshot.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type TestServer } from '../support/servers.js';

interface PileUp {
  holder: mysql.Connection;
  alter: Promise<unknown>;
  readers: Promise<unknown>[];
  ids: { holder: number; alter: number; readers: number[]; unrelated: number };
  close(): Promise<void>;
}

async function waitingThreads(observer: mysql.Connection, database: string): Promise<number[]> {
  const [rows] = await observer.query<RowDataPacket[]>(
    "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE LIKE 'Waiting for%metadata lock'",
    [database],
  );
  return rows.map((row) => Number(row.id));
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Holder reads `orders` in an open transaction; ALTER waits; two readers queue behind the ALTER. */
async function pileUp(url: string, db: mysql.Connection, database: string): Promise<PileUp> {
  await db.query('CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL)');
  await db.query('CREATE TABLE other (id INT PRIMARY KEY)');
  await db.query('INSERT INTO orders VALUES (1, 7), (2, 8)');
  const [holder, alterer, readerA, readerB, unrelated, observer] = await Promise.all(
    Array.from({ length: 6 }, () => connect(url, database)),
  );
  const all = [holder, alterer, readerA, readerB, unrelated, observer] as mysql.Connection[];
  // Another open transaction, on another table: it holds no lock the ALTER needs.
  await unrelated!.query('START TRANSACTION');
  await unrelated!.query('SELECT COUNT(*) FROM other');
  await new Promise((resolve) => setTimeout(resolve, 1100)); // older than the wait, like a real bystander
  await holder!.query('START TRANSACTION');
  await holder!.query('SELECT COUNT(*) FROM orders WHERE customer_id = 7');
  await alterer!.query('SET SESSION lock_wait_timeout = 60');
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );
  const alter = settle(alterer!.query('ALTER TABLE orders ADD COLUMN note INT'));
  await until('the ALTER waits', async () => (await waitingThreads(observer!, database)).length === 1);
  await new Promise((resolve) => setTimeout(resolve, 1100)); // readers queue a second later
  const readers = [
    settle(readerA!.query('SELECT COUNT(*) FROM orders')),
    settle(readerB!.query('SELECT id FROM `orders` WHERE id = 2')),
  ];
  await until('both readers wait', async () => (await waitingThreads(observer!, database)).length === 3);
  return {
    holder: holder!,
    alter,
    readers,
    ids: {
      holder: holder!.threadId,
      alter: alterer!.threadId,
      readers: [readerA!.threadId, readerB!.threadId].sort((a, b) => a - b),
      unrelated: unrelated!.threadId,
    },
    close: async () => {
      await Promise.all(all.map((connection) => connection.end().catch(() => undefined)));
    },
  };
}

function groupOf(snapshot: LockSnapshot, alterId: number): MetadataWaitGroup | undefined {
  return snapshot.metadataTree.find((group) => group.waiter.session.threadId === alterId);
}

/** Run the pile-up through the API; `expectHolders` checks the holders the server's source allows. */
async function treeAndKill(
  url: string,
  expectSource: MetadataWaitGroup['source'],
  expectHolders: (holders: number[], ids: PileUp['ids'], group: MetadataWaitGroup) => void,
): Promise<void> {
  const { connections, userDataDir, call } = testHandlers('sargable-mdl-tree-it');
  try {
    await withScratchDatabase(url, async (db, database) => {
      const opened = await call('connection.open', { dsn: `${url.replace(/\/$/, '')}/${database}` });
      if (!opened.ok) throw new Error(opened.error.message);
      const { connectionId } = opened.value as { connectionId: string };
      const pile = await pileUp(url, db, database);
      try {
        const polled = await call('locks.poll', { connectionId });
        if (!polled.ok) throw new Error(polled.error.message);
        const snapshot = polled.value as LockSnapshot;
        const group = groupOf(snapshot, pile.ids.alter);
        expect(group, JSON.stringify(snapshot.metadataTree)).toBeDefined();
        if (!group) return;
        expect({
          source: group.source,
          object: [group.schema, group.table],
          waiter: group.waiter.session.statement,
          queued: group.queued.map((entry) => entry.session.threadId).sort((a, b) => a - b),
        }).toEqual({
          source: expectSource,
          object: [database, 'orders'],
          waiter: 'ALTER TABLE orders ADD COLUMN note INT',
          queued: pile.ids.readers,
        });
        const holders = group.holders.map((holder) => holder.session.threadId);
        expectHolders(holders, pile.ids, group);
        const holder = group.holders.find((entry) => entry.session.threadId === pile.ids.holder);
        expect(holder?.session.trxAgeSeconds).toBeGreaterThanOrEqual(0);
        // The flat list no longer says a queued reader is "held by" the holder: it is queued behind the ALTER.
        for (const reader of pile.ids.readers) {
          const wait = snapshot.metadataWaits.find((entry) => entry.threadId === reader);
          expect({ holders: wait?.holders, behind: wait?.queuedBehind }).toEqual({
            holders: [],
            behind: [pile.ids.alter],
          });
        }

        // Kill is refused without the confirmation, and nothing is sent: the holder is still there.
        const unconfirmed = await call('locks.kill', {
          connectionId,
          threadId: pile.ids.holder,
          scope: 'connection',
        });
        expect(unconfirmed.ok).toBe(false);
        const [alive] = await db.query<RowDataPacket[]>(
          'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID = ?',
          [pile.ids.holder],
        );
        expect(Number(alive[0]?.n)).toBe(1);

        // Kill of the holder (connection) after confirmation: the ALTER and both readers finish.
        const started = performance.now();
        const killed = await call('locks.kill', {
          connectionId,
          threadId: pile.ids.holder,
          scope: 'connection',
          confirmed: true,
        });
        expect(killed.ok).toBe(true);
        expect(await pile.alter).toBeNull();
        expect(await Promise.all(pile.readers)).toEqual([null, null]);
        // A quarter of the ALTER's 60 s lock wait, which the readers would sit through without the kill.
        expect(performance.now() - started).toBeLessThan(15_000);
        const after = await call('locks.poll', { connectionId });
        expect(after.ok && groupOf(after.value as LockSnapshot, pile.ids.alter)).toBeFalsy();
        const [columns] = await db.query<RowDataPacket[]>(
          "SELECT COUNT(*) AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'",
          [database],
        );
        expect(Number(columns[0]?.n)).toBe(1);
      } finally {
        await pile.close();
      }
    });
  } finally {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

describe.each(testServers())('metadata-lock wait tree on $flavor', ({ flavor, url }) => {
  it('waiting ALTER → holder → queued readers, and Kill of the holder unblocks them', async () => {
    if (flavor === 'mysql') {
      // performance_schema.metadata_locks: exactly the holder, not the bystander on another table.
      await treeAndKill(url, 'metadata_locks', (holders, ids, group) => {
        expect(holders).toEqual([ids.holder]);
        expect(group.holders[0]?.mode).toBe('SHARED_READ');
        expect(group.waiter.mode).toBe('EXCLUSIVE');
        // Idle in its transaction: the last statement from events_statements_current.
        expect(group.holders[0]?.session.statement).toBe('SELECT COUNT(*) FROM orders WHERE customer_id = 7');
        expect(group.holders[0]?.session.statementSource).toBe('last');
      });
    } else {
      // No MDL instrument and no plugin on the shared MariaDB: every open transaction older than the
      // wait is a likely holder, labelled inferred (the bystander included: the server cannot tell).
      await treeAndKill(url, 'inferred', (holders, ids, group) => {
        expect(holders).toContain(ids.holder);
        expect(holders).toContain(ids.unrelated);
        expect(holders).not.toContain(ids.alter);
        expect(group.holders.every((holder) => holder.inferred)).toBe(true);
      });
    }
  }, 60_000);
});

describe('metadata-lock wait tree on MariaDB with the metadata_lock_info plugin', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('exact holders from METADATA_LOCK_INFO (the bystander is not one), requests inferred', async () => {
    // Its own server: INSTALL SONAME changes the server for good.
    server = await startServer('mariadb');
    const admin = await connect(server.url);
    await admin.query("INSTALL SONAME 'metadata_lock_info'");
    await admin.end();
    await treeAndKill(server.url, 'metadata_lock_info', (holders, ids, group) => {
      expect(holders).toEqual([ids.holder]);
      expect(group.holders[0]?.mode).toBe('MDL_SHARED_READ');
      expect(group.holders[0]?.inferred).toBe(false);
      expect(group.waiter.inferred).toBe(true);
    });
  }, 120_000);
});
