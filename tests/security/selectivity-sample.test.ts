// Attack: the selectivity sample evaluates a stored function over thousands of rows (issue #20 item 4).
//
// Canary: the function takes a user-level lock (GET_LOCK), which a read-only transaction does not
// stop; another connection sees it with IS_USED_LOCK. A view whose definition calls the function is
// the second route.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleSelectivity, type SampleSkip } from '../../src/main/services/selectivity.js';
import { scratchDatabaseName, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('selectivity samples never run functions: $flavor', ({ url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-sec-sample');
  const lock = `sargable_sample_${scratchDatabaseName().slice(-10)}`;

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('skips expressions with stored functions and views, says so, and the canary lock is never taken', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a))');
      await db.query(
        'INSERT INTO t SELECT n, n % 7 FROM (SELECT a.x * 10 + b.x + 1 AS n FROM (SELECT 0 x UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) a, (SELECT 0 x UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) b) s',
      );
      await db.query(
        `CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC READS SQL DATA BEGIN DO GET_LOCK('${lock}', 0); RETURN x; END`,
      );
      await db.query('CREATE VIEW v AS SELECT id, f(a) AS a FROM t');
      // The canary works: evaluated on a plain session, f() takes the lock.
      await db.query('SELECT COUNT(DISTINCT f(a)) FROM t');
      const [held] = await db.query<RowDataPacket[]>('SELECT IS_USED_LOCK(?) AS holder', [lock]);
      expect(held[0]!.holder).not.toBeNull();
      await db.query('SELECT RELEASE_ALL_LOCKS()');

      const admin = new URL(url);
      const opened = await call('connection.open', {
        host: admin.hostname,
        port: Number(admin.port),
        user: decodeURIComponent(admin.username),
        password: decodeURIComponent(admin.password),
        database,
      });
      if (!opened.ok) throw new Error(opened.error.message);
      const { connection, server } = connections.get((opened.value as { connectionId: string }).connectionId);
      const skipped: SampleSkip[] = [];
      const samples = await sampleSelectivity(
        connection,
        server,
        database,
        [
          {
            table: 't',
            columns: ['a'],
            expressions: [
              { key: 'f', sql: 'f(`a`)' },
              { key: 'q', sql: `\`${database}\`.f(a)` },
              { key: 's', sql: 'a + SLEEP(1)' },
              { key: 'm', sql: 'MOD(`a`, 3)' },
            ],
            reads: ['a'],
          },
          { table: 'v', columns: ['a'], expressions: [], reads: ['a'] },
        ],
        { onSkip: (skip) => skipped.push(skip) },
      );
      const [after] = await db.query<RowDataPacket[]>('SELECT IS_USED_LOCK(?) AS holder', [lock]);
      expect(after[0]!.holder).toBeNull();
      // Built-in, side-effect-free measures are still sampled.
      expect(samples).toEqual([
        expect.objectContaining({
          table: 't',
          sampledRows: 100,
          distinct: { 'column:a': 7, 'expression:m': 3 },
        }),
      ]);
      expect(skipped.map((skip) => `${skip.table} ${skip.expression ?? '*'}`)).toEqual([
        't f(`a`)',
        `t \`${database}\`.f(a)`,
        't a + SLEEP(1)',
        'v *',
      ]);
      expect(skipped[0]!.reason).toMatch(/stored or loadable function/);
      expect(skipped[3]!.reason).toMatch(/view/);
    });
  });

  it('a sample is stopped at its time limit and reported as skipped', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query('CREATE TABLE big (id INT PRIMARY KEY, a VARCHAR(64))');
      await db.query(
        'INSERT INTO big WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) SELECT n, SHA2(n, 256) FROM s',
      );
      const admin = new URL(url);
      const opened = await call('connection.open', {
        host: admin.hostname,
        port: Number(admin.port),
        user: decodeURIComponent(admin.username),
        password: decodeURIComponent(admin.password),
        database,
      });
      if (!opened.ok) throw new Error(opened.error.message);
      const { connection, server } = connections.get((opened.value as { connectionId: string }).connectionId);
      const skipped: SampleSkip[] = [];
      const started = Date.now();
      // A heavy but side-effect-free expression with a 1 ms budget: the server or the watchdog stops it.
      await sampleSelectivity(
        connection,
        server,
        database,
        [
          {
            table: 'big',
            columns: [],
            expressions: [{ key: 'h', sql: "REGEXP_REPLACE(REPEAT(`a`, 2000), '(a|b|c|d|e|f)+x', '')" }],
            reads: ['a'],
          },
        ],
        { timeoutMs: 1, onSkip: (skip) => skipped.push(skip) },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(skipped).toEqual([expect.objectContaining({ table: 'big', expression: null })]);
      expect(skipped[0]!.reason).toMatch(/took longer than/);
    });
  });
});
