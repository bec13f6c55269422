// Fault test: the server is SIGKILLed and restarted under an open session; calls fail cleanly, then heal.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/shared/api.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(['mariadb', 'mysql'] as Flavor[])('server killed and restarted on %s', (flavor) => {
  let server: TestServer;
  let argv: string[] = [];
  let restartedPid: number | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  const killRestarted = (): void => {
    if (restartedPid !== undefined && isAlive(restartedPid)) process.kill(restartedPid, 'SIGKILL');
  };
  const { connections, userDataDir, call } = testHandlers('sargable-faults', {
    reconnect: { baseDelayMs: 100, maxDelayMs: 800 },
  });
  let connectionId = '';

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    process.on('exit', killRestarted);
    server = await startServer(flavor, { performanceSchema: true });
    argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const admin = await mysql.createConnection({ uri: server.url, multipleStatements: true });
    await admin.query(
      'CREATE DATABASE shop; CREATE TABLE shop.orders (id INT PRIMARY KEY, created DATETIME, KEY (created)); INSERT INTO shop.orders VALUES (1, NOW()), (2, NOW())',
    );
    await admin.end();
    const saved = await call('profiles.save', {
      profile: { name: 'fault', host: server.host, port: server.port, user: server.user, database: 'shop' },
    });
    if (!saved.ok) throw new Error(saved.error.message);
    const id = (saved.value as { profile: { id: string } }).profile.id;
    const opened = await call('profiles.connect', { id, password: server.password });
    if (!opened.ok) throw new Error(opened.error.message);
    connectionId = (opened.value as { connectionId: string }).connectionId;
  });

  afterAll(async () => {
    await connections.closeAll();
    if (restartedPid !== undefined && isAlive(restartedPid)) {
      process.kill(restartedPid, 'SIGTERM');
      await waitFor('the restarted server to stop', () => !isAlive(restartedPid!), 30_000).catch(
        killRestarted,
      );
    }
    await server?.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    process.off('unhandledRejection', onUnhandled);
    process.off('exit', killRestarted);
  });

  const sql = "SELECT id FROM orders WHERE DATE(created) = '2024-01-01'";
  const polls = async () => ({
    locks: await call('locks.poll', { connectionId }),
    analyze: await call('analyze.run', { connectionId, sql }),
    explain: await call('explain.run', { connectionId, sql }),
    snapshot: await call('capture.snapshot', { connectionId }),
  });
  const codes = (replies: Record<string, Reply<unknown>>) =>
    Object.fromEntries(
      Object.entries(replies).map(([key, reply]) => [key, reply.ok ? 'ok' : reply.error.code]),
    );

  it('fails with CONNECTION_LOST while the server is down and heals after a restart, on the same connection id', async () => {
    expect(codes(await polls())).toEqual({ locks: 'ok', analyze: 'ok', explain: 'ok', snapshot: 'ok' });

    process.kill(server.pid, 'SIGKILL');
    await waitFor('the server to die', () => !isAlive(server.pid), 10_000);
    const down = await polls();
    expect(codes(down)).toEqual({
      locks: 'CONNECTION_LOST',
      analyze: 'CONNECTION_LOST',
      explain: 'CONNECTION_LOST',
      snapshot: 'CONNECTION_LOST',
    });
    const lost = down.locks as { ok: false; error: { message: string; hint?: string } };
    expect(lost.error.message).toMatch(
      new RegExp(`^The connection to 127\\.0\\.0\\.1:${server.port} was lost; reconnecting`),
    );
    // Repeated polls while down stay clean errors (backoff, no pile-up).
    for (let index = 0; index < 5; index += 1) {
      expect(codes({ locks: await call('locks.poll', { connectionId }) })).toEqual({
        locks: 'CONNECTION_LOST',
      });
    }
    expect(connections.status(connectionId).state).toBe('reconnecting');

    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: 'ignore' });
    child.unref();
    restartedPid = child.pid;
    await waitFor(
      'the restarted server to accept connections',
      async () => {
        const probe = await mysql.createConnection({ uri: server.url }).catch(() => undefined);
        await probe?.end();
        return probe !== undefined;
      },
      60_000,
    );
    const healedAfterMs = await waitFor(
      'locks.poll to work again',
      async () => (await call('locks.poll', { connectionId })).ok,
      10_000,
    );
    expect(healedAfterMs).toBeLessThan(2_000);
    expect(codes(await polls())).toEqual({ locks: 'ok', analyze: 'ok', explain: 'ok', snapshot: 'ok' });
    // Read-only and the default schema came back with the new session.
    const [rows] = (await connections.get(connectionId).connection.query(
      // MariaDB 10.11 still calls it tx_read_only (transaction_read_only arrived in 11.1).
      `SELECT @@${flavor === 'mariadb' ? 'tx_read_only' : 'transaction_read_only'} AS ro, DATABASE() AS db`,
    )) as unknown as [{ ro: number; db: string }[]];
    expect({ ro: Number(rows[0]!.ro), db: rows[0]!.db, status: connections.status(connectionId) }).toEqual({
      ro: 1,
      db: 'shop',
      status: { state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 1 },
    });
    expect(unhandled).toEqual([]);
  });
});
