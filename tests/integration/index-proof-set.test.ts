// Proof of the Index set as a whole on both servers (issue 22): every candidate built together (INVISIBLE on
// MySQL 8 with use_invisible_indexes in the session, on the sandbox on MariaDB), every statement EXPLAINed
// before and with the whole set, all dropped. Through the indexes.prove job (mode 'set') the Index set runs.
//
// Canaries: (customer_id) is chosen when proven alone (the one-by-one proof of the same candidates), yet with
// (customer_id, status, total) present the optimizer never picks it: the set proof rejects it as made redundant
// by the longer index, so the rejection comes from the set. The tables' SHOW CREATE TABLE are the same after
// the run and after Cancel, and during the cancelled run an index of the set did exist (so Cancel dropped
// something real). Without what-if consent nothing starts.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexProof, ProofCandidate } from '../../src/core/explain/what-if-set.js';
import type { JobStatusReply } from '../../src/shared/api/capture.js';
import type { IndexProofResult } from '../../src/shared/api/indexes.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { alterWaitsForMetadataLock, openAppConnection } from '../support/ddl-waits.js';
import { testHandlers } from '../support/handlers.js';
import { waitFor } from '../support/wait.js';

const DIGITS =
  '(SELECT 0 x UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9)';
const SETUP = [
  `CREATE TABLE orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL, status VARCHAR(10) NOT NULL,
     total DECIMAL(10,2) NOT NULL, created_at DATETIME NOT NULL) ENGINE=InnoDB`,
  // 10,000 orders, 5 per customer, 20% open.
  `INSERT INTO orders (customer_id, status, total, created_at)
     SELECT (a.x * 1000 + b.x * 100 + c.x * 10 + d.x) % 2000, IF(d.x < 8, 'paid', 'open'), d.x * 3.5,
            '2024-01-01' + INTERVAL (a.x * 1000 + b.x * 100 + c.x * 10 + d.x) MINUTE
       FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} d`,
  'CREATE TABLE notes (id INT PRIMARY KEY AUTO_INCREMENT, author INT NOT NULL, body VARCHAR(40) NOT NULL) ENGINE=InnoDB',
  `INSERT INTO notes (author, body) SELECT a.x * 100 + b.x * 10 + c.x, 'n' FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c`,
  'ANALYZE TABLE orders',
  'ANALYZE TABLE notes',
];
const BY_CUSTOMER = "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'open'";
const BY_TIME =
  "SELECT id FROM orders WHERE created_at BETWEEN '2024-01-01 01:00:00' AND '2024-01-01 01:20:00'";

const add = (table: string, name: string, columns: string) =>
  `ALTER TABLE \`${table}\` ADD INDEX \`${name}\` (${columns}), ALGORITHM=INPLACE, LOCK=NONE;`;

const CANDIDATES: ProofCandidate[] = [
  {
    key: 'short',
    table: 'orders',
    name: 'idx_orders_customer',
    ddl: [add('orders', 'idx_orders_customer', '`customer_id`')],
    statements: [{ index: 0, sql: BY_CUSTOMER }],
  },
  {
    key: 'long',
    table: 'orders',
    name: 'idx_orders_customer_status_total',
    ddl: [add('orders', 'idx_orders_customer_status_total', '`customer_id`, `status`, `total`')],
    statements: [{ index: 0, sql: BY_CUSTOMER }],
  },
  {
    key: 'time',
    table: 'orders',
    name: 'idx_orders_created',
    ddl: [add('orders', 'idx_orders_created', '`created_at`')],
    statements: [{ index: 1, sql: BY_TIME }],
  },
];

describe.each(testServers())('index set proven together: $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-index-proof-set');
  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  async function ok<T>(method: string, request: unknown): Promise<T> {
    const reply = await call(method, request);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.value as T;
  }

  async function finished(jobId: string): Promise<JobStatusReply> {
    let status: JobStatusReply | undefined;
    await waitFor(
      'the proof job to end',
      async () => {
        status = await ok<JobStatusReply>('job.status', { jobId });
        return status.state !== 'running';
      },
      60_000,
    );
    return status!;
  }

  async function showCreate(database: string, table: string): Promise<string> {
    const db = await connect(url, database);
    try {
      const [rows] = await db.query<RowDataPacket[]>(`SHOW CREATE TABLE ${table}`);
      return String(rows[0]?.['Create Table']);
    } finally {
      await db.end();
    }
  }

  async function prove(connectionId: string, mode: 'each' | 'set'): Promise<IndexProofResult> {
    const { jobId } = await ok<{ jobId: string }>('indexes.prove', {
      connectionId,
      candidates: CANDIDATES,
      confirmed: true,
      mode,
    });
    const status = await finished(jobId);
    expect(status.state, JSON.stringify(status.error)).toBe('done');
    return status.result as IndexProofResult;
  }

  it('with the whole set present: per statement the index picked and cost/rows before → after; an index never picked is made redundant', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const before = await showCreate(database, 'orders');
      const connectionId = await openAppConnection(call, url, database, true);
      // No what-if consent on the connection: the set proof is refused before anything runs.
      const refused = await openAppConnection(call, url, database, false);
      const denied = await call('indexes.prove', {
        connectionId: refused,
        candidates: CANDIDATES,
        confirmed: true,
        mode: 'set',
      });
      expect(denied.ok ? null : denied.error.code).toBe('CONSENT_REQUIRED');
      expect(await showCreate(database, 'orders')).toBe(before);

      // Canary: alone, (customer_id) is chosen for #1.
      const alone = await prove(connectionId, 'each');
      expect(alone.proofs.map((proof) => proof.status)).toEqual(['chosen', 'chosen', 'chosen']);

      const result = await prove(connectionId, 'set');
      expect(result.mode).toBe('set');
      expect(result.method).toBe(flavor === 'mysql' ? 'invisible-index' : 'sandbox');
      const [short, long, time] = result.proofs as [IndexProof, IndexProof, IndexProof];
      expect(long.status, long.reason).toBe('chosen');
      expect(long.chosenBy).toEqual([0]);
      expect(time.status, time.reason).toBe('chosen');
      expect(time.chosenBy).toEqual([1]);
      expect(short.status, short.reason).toBe('rejected');
      expect(short.redundantBy).toEqual(['orders.idx_orders_customer_status_total']);
      expect(short.reason).toMatch(/made redundant by orders\.idx_orders_customer_status_total/);
      expect(short.statements[0]?.after.key).toBe('idx_orders_customer_status_total');

      const [first, second] = result.statements!;
      expect(first).toMatchObject({ statement: 0, uses: ['long'] });
      expect(first!.after.keys).toContain('idx_orders_customer_status_total');
      expect(first!.before.keys).not.toContain('idx_orders_customer_status_total');
      expect(second).toMatchObject({ statement: 1, uses: ['time'] });
      for (const entry of [first!, second!])
        if (flavor === 'mysql') expect(entry.after.cost!).toBeLessThan(entry.before.cost! / 5);
        else expect(entry.after.rows!).toBeLessThan(entry.before.rows! / 5);
      // Built and dropped again: the table is as it was.
      expect(await showCreate(database, 'orders')).toBe(before);
    });
  }, 180_000);

  it('Cancel while a later build waits for the metadata lock: cancelled, and what was built is dropped', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const beforeOrders = await showCreate(database, 'orders');
      const beforeNotes = await showCreate(database, 'notes');
      const connectionId = await openAppConnection(call, url, database, true);
      const holder = await connect(url, database);
      const observer = await connect(url, database);
      try {
        await holder.query('START TRANSACTION');
        await holder.query('SELECT COUNT(*) FROM orders');
        const { jobId } = await ok<{ jobId: string }>('indexes.prove', {
          connectionId,
          confirmed: true,
          mode: 'set',
          lockWaitTimeoutSeconds: 60,
          candidates: [
            {
              key: 'n',
              table: 'notes',
              name: 'idx_notes_author',
              ddl: [add('notes', 'idx_notes_author', '`author`')],
              statements: [{ index: 0, sql: 'SELECT id FROM notes WHERE author = 7' }],
            },
            CANDIDATES[0],
          ],
        });
        await alterWaitsForMetadataLock(observer, database, 30_000).catch(async (error: unknown) => {
          throw new Error(`${String(error)}; job: ${JSON.stringify(await call('job.status', { jobId }))}`);
        });
        // The first index of the set is built by now.
        const [built] = await observer.query<RowDataPacket[]>(
          "SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'notes' AND INDEX_NAME = 'idx_notes_author'",
          [database],
        );
        expect(built).toHaveLength(1);
        const started = performance.now();
        await ok('job.cancel', { jobId });
        const status = await finished(jobId);
        // A quarter of the 60 s lock wait a cancel that does not stop the build sits through.
        expect(performance.now() - started).toBeLessThan(15_000);
        expect(status.state).toBe('cancelled');
        expect(status.error?.code).toBe('CANCELLED');
        await holder.query('COMMIT');
        expect(await showCreate(database, 'notes')).toBe(beforeNotes);
        expect(await showCreate(database, 'orders')).toBe(beforeOrders);
      } finally {
        await holder.end();
        await observer.end();
      }
    });
  }, 120_000);
});
