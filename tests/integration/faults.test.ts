// Fault test: the server is SIGKILLed and restarted under an open session; calls fail cleanly, then heal, and capture/locks/workspace survive.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/shared/api.js';
import { testHandlers } from '../support/handlers.js';
import { isAlive, startServer, type Flavor, type TestServer } from '../support/servers.js';
import { waitFor } from '../support/wait.js';

// MariaDB ships with performance_schema OFF (capture then uses the slow log instead); these servers
// start with it ON so the digest window is exercised on both flavors.
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

  /** SIGKILL the running server (the first or a restarted one) and wait until it is gone. */
  const killServer = async (): Promise<void> => {
    const pid = restartedPid ?? server.pid;
    process.kill(pid, 'SIGKILL');
    await waitFor('the server to die', () => !isAlive(pid), 10_000);
  };
  /** Start the server again with its own argv: same port, same datadir. */
  const restartServer = async (): Promise<void> => {
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
      90_000,
    );
  };

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

    await killServer();
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

    await restartServer();
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
  it('keeps a digest window across a dropped session, re-baselines after a restart, keeps lock polling and the workspace', async () => {
    const value = <T>(reply: Reply<unknown>): T => {
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
      return reply.value as T;
    };
    const waitOk = (method: string, request: unknown) =>
      waitFor(`${method} to work again`, async () => (await call(method, request)).ok, 30_000);
    const run = async (statement: string, times: number): Promise<void> => {
      const admin = await mysql.createConnection({ uri: server.url });
      for (let index = 0; index < times; index += 1) await admin.query(statement);
      await admin.end();
    };
    type Snapshot = { snapshotId: string };
    type Delta = {
      serverRestarted: boolean;
      notes: { code: string }[];
      classes: { digestText: string | null; count: number; totalMs: number; rowsExamined: number }[];
    };
    // MariaDB's digest text upper-cases unquoted identifiers (`SELECT ID FROM `shop` . `orders` WHERE ID = ?`).
    const probe = 'SELECT id FROM shop.orders WHERE id = 2';
    const probeCount = (delta: Delta) =>
      delta.classes
        .filter((entry) => /FROM `?shop`? ?\. ?`?orders`? WHERE `?id`? = \?/i.test(entry.digestText ?? ''))
        .reduce((sum, entry) => sum + entry.count, 0);
    const negatives = (delta: Delta) =>
      delta.classes.filter((entry) => entry.count < 0 || entry.totalMs < 0 || entry.rowsExamined < 0);

    // Something saved in the workspace before any fault (the live workspace id is the profile name).
    const report = value<unknown>(
      await call('analyze.run', { connectionId, sql: 'SELECT id FROM orders WHERE MONTH(created) = 10' }),
    );
    value(await call('workspace.addFromAnalysis', { profileId: 'fault', report }));
    const saved = value<{ workspace: { items: { id: string }[] } }>(
      await call('workspace.get', { profileId: 'fault' }),
    );
    expect(saved.workspace.items.length).toBeGreaterThan(0);

    // 1. The session drops (KILL from another session), the server stays up: the baseline survives.
    const baseline = value<Snapshot>(await call('capture.snapshot', { connectionId }));
    const reconnectsBefore = connections.status(connectionId).reconnects;
    await run(probe, 3);
    const [ids] = (await connections
      .get(connectionId)
      .connection.query('SELECT CONNECTION_ID() AS id')) as unknown as [{ id: number }[]];
    const admin = await mysql.createConnection({ uri: server.url });
    await admin.query(`KILL CONNECTION ${Number(ids[0]!.id)}`);
    await admin.end();
    await run(probe, 2);
    await waitOk('capture.snapshot', { connectionId });
    const kept = value<Delta>(
      await call('capture.delta', { connectionId, fromSnapshotId: baseline.snapshotId }),
    );
    expect({
      serverRestarted: kept.serverRestarted,
      probe: probeCount(kept),
      negatives: negatives(kept),
      reconnects: connections.status(connectionId).reconnects - reconnectsBefore,
    }).toEqual({ serverRestarted: false, probe: 5, negatives: [], reconnects: 1 });

    // 2. The server restarts during a window: calls fail cleanly while it is down, then the delta
    //    from the old baseline says the server restarted and counts only what ran since.
    await run(probe, 4);
    // A restart shows as a later server start (now − Uptime, whole seconds, 2 s tolerance): a server
    // restarted within seconds of its own start would look unchanged (MariaDB starts in ~1 s).
    await waitFor(
      'an uptime of 4 s',
      async () => {
        const admin = await mysql.createConnection({ uri: server.url });
        try {
          const [rows] = await admin.query("SHOW GLOBAL STATUS LIKE 'Uptime'");
          return Number((rows as { Value: string }[])[0]?.Value) >= 4;
        } finally {
          await admin.end();
        }
      },
      30_000,
    );
    const before = value<Snapshot>(await call('capture.snapshot', { connectionId }));
    await killServer();
    expect(codes({ snapshot: await call('capture.snapshot', { connectionId }) })).toEqual({
      snapshot: 'CONNECTION_LOST',
    });
    expect(codes({ locks: await call('locks.poll', { connectionId }) })).toEqual({
      locks: 'CONNECTION_LOST',
    });
    await restartServer();
    await waitOk('locks.poll', { connectionId });
    await run(probe, 1);
    const across = value<Delta>(
      await call('capture.delta', { connectionId, fromSnapshotId: before.snapshotId }),
    );
    expect({
      serverRestarted: across.serverRestarted,
      restartNote: across.notes.some((note) => note.code === 'server-restarted'),
      probe: probeCount(across),
      negatives: negatives(across),
    }).toEqual({ serverRestarted: true, restartNote: true, probe: 1, negatives: [] });
    // Lock polling works on the healed connection, and the workspace kept its items.
    expect(codes({ locks: await call('locks.poll', { connectionId }) })).toEqual({ locks: 'ok' });
    const after = value<{ workspace: { items: { id: string }[] } }>(
      await call('workspace.get', { profileId: 'fault' }),
    );
    expect(after.workspace.items.map((item) => item.id)).toEqual(
      saved.workspace.items.map((item) => item.id),
    );
    expect(unhandled).toEqual([]);
  });
});
