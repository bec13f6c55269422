// Proof of the Index set on both servers (issue 22): each proposed index is built (INVISIBLE on MySQL 8, on
// the sandbox on MariaDB), its statements EXPLAINed before and after, and dropped; the optimizer's choice
// decides. Through the indexes.prove job the Index set view runs.
//
// Canaries: an index on a two-valued column read for every row is rejected (the optimizer keeps the full
// scan), while the designed index for a selective query is chosen with a lower cost (MySQL) or fewer rows
// (MariaDB, whose EXPLAIN has no cost); the table's SHOW CREATE TABLE is the same afterwards. Cancel while the
// build waits behind another session's metadata lock ends the job as cancelled and leaves the table as it
// was. Without what-if consent nothing starts.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexProof } from '../../src/core/explain/what-if-set.js';
import type { JobStatusReply } from '../../src/shared/api/capture.js';
import type { IndexProofResult, IndexSetReply } from '../../src/shared/api/indexes.js';
import { proofCandidates } from '../../src/renderer/state/index-proof.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { alterWaitsForMetadataLock, openAppConnection } from '../support/ddl-waits.js';
import { testHandlers } from '../support/handlers.js';
import { waitFor } from '../support/wait.js';

const DIGITS =
  '(SELECT 0 x UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9)';
const SETUP = [
  `CREATE TABLE orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL, status VARCHAR(10) NOT NULL,
     flag TINYINT NOT NULL, total DECIMAL(10,2) NOT NULL, created_at DATETIME NOT NULL) ENGINE=InnoDB`,
  `INSERT INTO orders (customer_id, status, flag, total, created_at)
     SELECT (a.x * 1000 + b.x * 100 + c.x * 10 + d.x) % 2000, IF(a.x < 8, 'paid', 'open'), (a.x + b.x + c.x + d.x) % 2,
            d.x * 3.5, '2024-01-01' + INTERVAL (a.x * 1000 + b.x * 100 + c.x * 10 + d.x) MINUTE
       FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} d`,
  'ANALYZE TABLE orders',
];
const WORKLOAD =
  "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10;";
// Every row has flag 0 or 1: no index on flag can beat the scan.
const UNSELECTIVE = 'SELECT id, total FROM orders WHERE flag IN (0, 1)';

describe.each(testServers())('index set proof: $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-index-proof');
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

  async function showCreate(database: string): Promise<string> {
    const db = await connect(url, database);
    try {
      const [rows] = await db.query<RowDataPacket[]>('SHOW CREATE TABLE orders');
      return String(rows[0]?.['Create Table']);
    } finally {
      await db.end();
    }
  }

  it('chooses the designed index with its cost/rows before and after, rejects one the optimizer does not pick, cleans up', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const before = await showCreate(database);
      const refused = await openAppConnection(call, url, database, false);
      const connectionId = await openAppConnection(call, url, database, true);
      const { plan } = await ok<IndexSetReply>('indexes.design', { sql: WORKLOAD, connectionId });
      const designed = plan.indexes[0]!;
      // (then `total`, covering the narrow select list)
      expect(designed.parts.slice(0, 3).map((part) => part.column)).toEqual([
        'customer_id',
        'status',
        'created_at',
      ]);
      const candidates = [
        {
          key: 'designed',
          table: designed.table,
          name: designed.name,
          ddl: designed.ddl,
          statements: designed.serves.map((n) => ({ index: n, sql: plan.queries[n]!.sql })),
        },
        {
          key: 'flag',
          table: 'orders',
          name: 'idx_orders_flag',
          ddl: ['ALTER TABLE `orders` ADD INDEX `idx_orders_flag` (`flag`), ALGORITHM=INPLACE, LOCK=NONE;'],
          statements: [{ index: 1, sql: UNSELECTIVE }],
        },
      ];
      // No consent on the connection: refused before anything runs.
      const denied = await call('indexes.prove', { connectionId: refused, candidates, confirmed: true });
      expect(denied.ok ? null : denied.error.code).toBe('CONSENT_REQUIRED');

      const { jobId } = await ok<{ jobId: string }>('indexes.prove', {
        connectionId,
        candidates,
        confirmed: true,
      });
      const status = await finished(jobId);
      expect(status.state).toBe('done');
      expect(status.progress).toMatchObject({ done: 2, total: 2 });
      const result = status.result as IndexProofResult;
      expect(result.method).toBe(flavor === 'mysql' ? 'invisible-index' : 'sandbox');
      const [chosen, rejected] = result.proofs as [IndexProof, IndexProof];
      expect(chosen.status).toBe('chosen');
      expect(chosen.chosenBy).toEqual([0]);
      const statement = chosen.statements[0]!;
      expect(statement.after.key).toBe(designed.name);
      expect(statement.before.key).not.toBe(designed.name);
      if (flavor === 'mysql') {
        expect(statement.before.cost).toBeGreaterThan(0);
        expect(statement.after.cost!).toBeLessThan(statement.before.cost! / 10);
        expect(chosen.reason).toMatch(/chose it for #1: #1 cost [\d,]+ → [\d,.]+/);
      } else {
        expect(statement.after.rows!).toBeLessThan(statement.before.rows! / 10);
        expect(chosen.reason).toMatch(/chose it for #1: #1 rows [\d,]+ → \d+/);
      }
      expect(rejected.status).toBe('rejected');
      expect(rejected.chosenBy).toEqual([]);
      expect(rejected.statements[0]?.after.key).toBeNull();
      expect(rejected.reason).toMatch(/did not choose it .*#2 keeps no index \(ALL\)/);
      // Built and dropped again: the table is as it was.
      expect(await showCreate(database)).toBe(before);
    });
  }, 120_000);

  it('a function-wrapped predicate: MariaDB builds the generated column and EXPLAINs the rewritten statement after it, MySQL its functional key part; both chosen, the table as it was', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const before = await showCreate(database);
      const connectionId = await openAppConnection(call, url, database, true);
      const { plan } = await ok<IndexSetReply>('indexes.design', {
        sql: "SELECT id, total FROM orders WHERE DATE(created_at) = '2024-01-03' AND flag = 1;",
        connectionId,
      });
      const [candidate] = proofCandidates(plan);
      expect(candidate, JSON.stringify(plan)).toBeDefined();
      if (flavor === 'mariadb') {
        expect(candidate!.ddl[0]).toMatch(/ADD COLUMN created_at_date DATE GENERATED ALWAYS AS/);
        expect(candidate!.statements[0]?.afterSql).toContain('created_at_date = ');
      } else expect(candidate!.statements[0]?.afterSql).toBeUndefined();
      const { jobId } = await ok<{ jobId: string }>('indexes.prove', {
        connectionId,
        candidates: [candidate],
        confirmed: true,
      });
      const status = await finished(jobId);
      expect(status.state, JSON.stringify(status)).toBe('done');
      const [proof] = (status.result as IndexProofResult).proofs as [IndexProof];
      expect(proof.status, proof.reason).toBe('chosen');
      expect(proof.statements[0]!.after.key).toBe(candidate!.name);
      // Built and dropped again (the generated column too): the table is as it was.
      expect(await showCreate(database)).toBe(before);
    });
  }, 120_000);

  it('Cancel while a build waits for the metadata lock: cancelled, the table unchanged', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const before = await showCreate(database);
      const connectionId = await openAppConnection(call, url, database, true);
      const holder = await connect(url, database);
      const observer = await connect(url, database);
      try {
        await holder.query('START TRANSACTION');
        await holder.query('SELECT COUNT(*) FROM orders');
        const { jobId } = await ok<{ jobId: string }>('indexes.prove', {
          connectionId,
          confirmed: true,
          lockWaitTimeoutSeconds: 60,
          candidates: [
            {
              key: 'c',
              table: 'orders',
              name: 'idx_c',
              ddl: ['ALTER TABLE `orders` ADD INDEX `idx_c` (`customer_id`), ALGORITHM=INPLACE, LOCK=NONE;'],
              statements: [{ index: 0, sql: 'SELECT id FROM orders WHERE customer_id = 42' }],
            },
          ],
        });
        await alterWaitsForMetadataLock(observer, database, 30_000).catch(async (error: unknown) => {
          throw new Error(`${String(error)}; job: ${JSON.stringify(await call('job.status', { jobId }))}`);
        });
        const started = performance.now();
        await ok('job.cancel', { jobId });
        const status = await finished(jobId);
        // A quarter of the 60 s lock wait a cancel that does not stop the build sits through.
        expect(performance.now() - started).toBeLessThan(15_000);
        expect(status.state).toBe('cancelled');
        expect(status.error?.code).toBe('CANCELLED');
        await holder.query('COMMIT');
        expect(await showCreate(database)).toBe(before);
      } finally {
        await holder.end();
        await observer.end();
      }
    });
  }, 120_000);
});
