// Run (read-only) Cancel (issue 18 item 15): query.cancel stops our own running query.run on the server, the run
// fails with CANCELLED at once, and nothing of ours is left in the processlist; a run id of another connection or
// of a finished run cancels nothing.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('query.cancel on $flavor', ({ url }) => {
  it('stops the running query on the server; other connections and finished runs cancel nothing', async () => {
    const { connections, userDataDir, call } = testHandlers('sargable-query-cancel-it');
    try {
      await withScratchDatabase(url, async (db, database) => {
        await db.query('CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))');
        const values = Array.from({ length: 400 }, (_, n) => `(${n + 1}, 'name ${n + 1}')`);
        await db.query(`INSERT INTO t VALUES ${values.join(', ')}`);
        const open = async () => {
          const opened = await call('connection.open', { dsn: `${url.replace(/\/$/, '')}/${database}` });
          if (!opened.ok) throw new Error(opened.error.message);
          return (opened.value as { connectionId: string }).connectionId;
        };
        const [connectionId, other] = [await open(), await open()];
        const marker = `cancel_${database}`;
        const ours = async (): Promise<number> => {
          const [rows] = await db.query<RowDataPacket[]>(
            "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
            [`%${marker}%`],
          );
          return Number(rows[0]?.n);
        };
        const runId = 'run-cancel-test-0001';
        const started = Date.now();
        const running = call('query.run', {
          connectionId,
          sql: `SELECT MAX(CONCAT(a.name, b.name, c.name, d.name)) AS ${marker} FROM t a, t b, t c, t d`,
          timeoutMs: 60_000,
          runId,
        });
        for (let tries = 0; tries < 100 && (await ours()) === 0; tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        // Canary: the query runs on the server until cancelled.
        expect(await ours()).toBe(1);
        const wrong = await call('query.cancel', { connectionId: other, runId });
        expect(wrong).toEqual({ ok: true, value: { cancelled: false } });
        expect(await ours()).toBe(1);

        const cancelled = await call('query.cancel', { connectionId, runId });
        expect(cancelled).toEqual({ ok: true, value: { cancelled: true } });
        const reply = await running;
        expect(reply.ok).toBe(false);
        if (!reply.ok) expect(reply.error.code).toBe('CANCELLED');
        // A third of the 60 s time limit an uncancelled run waits for.
        expect(Date.now() - started).toBeLessThan(20_000);
        let left = await ours();
        for (let tries = 0; tries < 20 && left > 0; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          left = await ours();
        }
        expect(left).toBe(0);
        // The run has ended: its id cancels nothing now.
        expect(await call('query.cancel', { connectionId, runId })).toEqual({
          ok: true,
          value: { cancelled: false },
        });
      });
    } finally {
      await connections.closeAll();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
