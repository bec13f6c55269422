// Production profiles refuse writes without the typed confirmation (server-side), and connection.status follows a dropped session.
import fs from 'node:fs';
import type { Connection } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../src/shared/api/connection-status.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function threadAlive(admin: Connection, threadId: number): Promise<boolean> {
  const [rows] = (await admin.query('SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?', [
    threadId,
  ])) as unknown as [{ ID: number }[]];
  return rows.length > 0;
}

describe.each(testServers())('production profile on $flavor', ({ flavor, url }) => {
  const {
    connections,
    userDataDir: dir,
    call,
  } = testHandlers('sargable-production-it', { reconnect: { baseDelayMs: 100, maxDelayMs: 400 } });
  const value = async <T>(method: string, request: unknown): Promise<T> => {
    const reply = await call(method, request);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.value as T;
  };
  const admin = new URL(url);
  const name = `Prod ${flavor}`;
  let label = '';

  async function openProduction(database: string): Promise<string> {
    const saved = await value<{ profile: { id: string } }>('profiles.save', {
      profile: {
        name,
        color: 'red',
        host: admin.hostname,
        port: Number(admin.port),
        user: decodeURIComponent(admin.username),
        database,
        allowWhatIf: true,
        production: true,
      },
    });
    const opened = await value<{ connectionId: string; production: boolean; name: string; label: string }>(
      'profiles.connect',
      { id: saved.profile.id, password: decodeURIComponent(admin.password) },
    );
    expect({ production: opened.production, name: opened.name }).toEqual({ production: true, name });
    label = opened.label;
    return opened.connectionId;
  }

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses kill, what-if and the slow-log window without the typed name; runs them with it', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query('CREATE TABLE t (id INT PRIMARY KEY, c INT)');
      await db.query('INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)');
      const connectionId = await openProduction(database);
      const victim = await connect(url);
      const [[{ id: threadId }]] = (await victim.query('SELECT CONNECTION_ID() AS id')) as unknown as [
        [{ id: number }],
      ];
      const [[before]] = (await db.query('SELECT @@GLOBAL.slow_query_log AS slow')) as unknown as [
        [{ slow: number }],
      ];
      const whatIf = {
        connectionId,
        sql: 'SELECT id FROM t WHERE c = 2',
        table: 't',
        ddl: ['ALTER TABLE t ADD INDEX ix_c (c)'],
        confirmed: true,
      };
      const kill = { connectionId, threadId, scope: 'connection', confirmed: true };
      const window = { connectionId, seconds: 1, consent: true };
      const refused = {
        killMissing: await call('locks.kill', kill),
        killWrong: await call('locks.kill', { ...kill, productionConfirmation: 'prod' }),
        whatIfMissing: await call('explain.whatIf', whatIf),
        windowMissing: await call('capture.slowLogWindow', window),
      };
      expect(
        Object.fromEntries(
          Object.entries(refused).map(([key, reply]) => [key, reply.ok ? 'ok' : reply.error.code]),
        ),
      ).toEqual({
        killMissing: 'CONSENT_REQUIRED',
        killWrong: 'CONSENT_REQUIRED',
        whatIfMissing: 'CONSENT_REQUIRED',
        windowMissing: 'CONSENT_REQUIRED',
      });
      expect((refused.killMissing as { error: { message: string } }).error.message).toContain(`“${name}”`);
      // Nothing reached the server: the thread lives, the slow log setting is unchanged.
      const [[after]] = (await db.query('SELECT @@GLOBAL.slow_query_log AS slow')) as unknown as [
        [{ slow: number }],
      ];
      expect({ alive: await threadAlive(db, threadId), slow: Number(after.slow) }).toEqual({
        alive: true,
        slow: Number(before.slow),
      });

      const verified = await value<{ verdict: string }>('explain.whatIf', {
        ...whatIf,
        productionConfirmation: ` ${name} `,
      });
      expect(['improved', 'unchanged', 'worse']).toContain(verified.verdict);
      await value('locks.kill', { ...kill, productionConfirmation: name });
      expect(
        await waitFor('the killed thread to go', async () =>
          !(await threadAlive(db, threadId)) ? true : undefined,
        ),
      ).toBe(true);
      await victim.end().catch(() => undefined);
      // Each executed write is in the profile's workspace history; the refused ones never ran.
      const { workspace } = await value<{
        workspace: { writes?: { action: string; sql: string[]; production: boolean; outcome: string }[] };
      }>('workspace.get', { profileId: label });
      expect(
        workspace.writes?.map(({ action, sql, production, outcome }) => ({
          action,
          sql,
          production,
          outcome,
        })),
      ).toEqual([
        { action: 'what-if-index', sql: whatIf.ddl, production: true, outcome: 'done' },
        { action: 'kill', sql: [`KILL CONNECTION ${threadId}`], production: true, outcome: 'done' },
      ]);
      await value('connection.close', { connectionId });
    });
  });

  it('connection.status goes reconnecting → open after the session is killed from another connection', async () => {
    await withScratchDatabase(url, async (db, database) => {
      const connectionId = await openProduction(database);
      const status = (request: object = {}) =>
        value<ConnectionStatus>('connection.status', { connectionId, ...request });
      expect(await status()).toEqual({ state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 0 });
      const [[{ id }]] = (await connections
        .get(connectionId)
        .connection.query('SELECT CONNECTION_ID() AS id')) as unknown as [[{ id: number }]];
      await db.query(`KILL CONNECTION ${Number(id)}`);
      // The driver reports the closed socket; the status says so before any view polls.
      const lost = await waitFor('the loss to be noticed', async () => {
        const current = connections.status(connectionId);
        return current.state === 'reconnecting' ? current : undefined;
      });
      expect(lost.state).toBe('reconnecting');
      // The status call reports the loss and starts the attempt that is due: no view has to poll.
      expect(await status()).toEqual({
        state: 'reconnecting',
        failedAttempts: 0,
        nextAttemptInMs: 0,
        reconnects: 0,
      });
      expect(
        await waitFor('the status to say open again', async () => {
          const current = await status();
          return current.state === 'open' ? current : undefined;
        }),
      ).toEqual({ state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 1 });
      const [[row]] = (await connections
        .get(connectionId)
        .connection.query(
          `SELECT @@${flavor === 'mariadb' ? 'tx_read_only' : 'transaction_read_only'} AS ro, DATABASE() AS db`,
        )) as unknown as [[{ ro: number; db: string }]];
      expect({ ro: Number(row.ro), db: row.db }).toEqual({ ro: 1, db: database });
      await value('connection.close', { connectionId });
      expect(await status()).toEqual({
        state: 'closed',
        failedAttempts: 0,
        nextAttemptInMs: 0,
        reconnects: 0,
      });
    });
  });
});
