// ManagedConnection: guard before the network, reconnect on the next call, bounded backoff, shared attempts.
import { EventEmitter } from 'node:events';
import type { Connection } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { backoffDelay, ManagedConnection } from '../../../src/main/services/reconnect.js';

class FakeConnection extends EventEmitter {
  readonly statements: string[] = [];
  constructor(readonly serial: number) {
    super();
  }
  async query(sql: string): Promise<unknown> {
    this.statements.push(sql);
    return [[{ serial: this.serial }], []];
  }
  async end(): Promise<void> {}
}

function harness() {
  let now = 1_000;
  let serverUp = true;
  let opens = 0;
  const connections: FakeConnection[] = [];
  const managed = new ManagedConnection(
    async () => {
      opens += 1;
      if (!serverUp) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      const connection = new FakeConnection(connections.length + 1);
      connections.push(connection);
      return connection as unknown as Connection;
    },
    {
      readOnly: true,
      context: { host: '127.0.0.1', port: 3306 },
      policy: { baseDelayMs: 100, maxDelayMs: 400 },
      now: () => now,
    },
  );
  return {
    managed,
    connections,
    opens: () => opens,
    advance: (ms: number) => (now += ms),
    setServerUp: (up: boolean) => (serverUp = up),
    serial: async () =>
      ((await managed.connection.query('SELECT 1')) as unknown as [{ serial: number }[]])[0][0]!.serial,
  };
}

describe('ManagedConnection', () => {
  it('refuses writes before they reach the server', async () => {
    const h = harness();
    await h.managed.start();
    await expect(h.managed.connection.query('KILL 5')).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    await expect(h.managed.connection.execute('DELETE FROM t')).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    expect(h.connections[0]!.statements).toEqual([]);
  });

  it('reconnects on the next call, backs off while the server is down, and resumes', async () => {
    const h = harness();
    await h.managed.start();
    expect(await h.serial()).toBe(1);
    h.setServerUp(false);
    h.connections[0]!.emit('error', Object.assign(new Error('lost'), { fatal: true }));
    expect(h.managed.status()).toMatchObject({ state: 'reconnecting', nextAttemptInMs: 0 });
    const attempts: string[] = [];
    for (const step of [0, 0, 100, 150, 200, 400, 400, 400]) {
      h.advance(step);
      const error = await h.managed.connection.query('SELECT 1').catch((caught: { code: string }) => caught);
      attempts.push(`${(error as { code: string }).code}:${h.opens()}:${h.managed.status().nextAttemptInMs}`);
    }
    // Attempts only when the wait is over; waits 100, 200, 400, 400 (bounded).
    expect(attempts).toEqual([
      'CONNECTION_LOST:2:100',
      'CONNECTION_LOST:2:100',
      'CONNECTION_LOST:3:200',
      'CONNECTION_LOST:3:50',
      'CONNECTION_LOST:4:400',
      'CONNECTION_LOST:5:400',
      'CONNECTION_LOST:6:400',
      'CONNECTION_LOST:7:400',
    ]);
    h.setServerUp(true);
    h.advance(400);
    const [a, b] = await Promise.all([h.serial(), h.serial()]);
    expect([a, b, h.opens(), h.managed.status()]).toEqual([
      2,
      2,
      8,
      { state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 1 },
    ]);
  });

  it('a statement in flight when the connection dies fails with CONNECTION_LOST, the next one reconnects', async () => {
    const h = harness();
    await h.managed.start();
    h.connections[0]!.query = async () => {
      throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
        fatal: true,
      });
    };
    await expect(h.managed.connection.query('SELECT 1')).rejects.toMatchObject({
      code: 'CONNECTION_LOST',
      userMessage: expect.stringContaining('reconnecting'),
    });
    expect(await h.serial()).toBe(2);
  });

  it('bounds the backoff', () => {
    const policy = { baseDelayMs: 250, maxDelayMs: 10_000 };
    expect([0, 1, 2, 3, 6, 7, 100].map((failures) => backoffDelay(failures, policy))).toEqual([
      0, 250, 500, 1000, 8000, 10_000, 10_000,
    ]);
  });

  it('heal(): reports the loss, attempts in the background, keeps the backoff, and Retry now skips the wait', async () => {
    const h = harness();
    await h.managed.start();
    h.setServerUp(false);
    h.connections[0]!.emit('end');
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    const seen: unknown[] = [];
    seen.push(h.managed.heal()); // the loss, attempt 1 starts
    await settle();
    seen.push(h.managed.heal()); // attempt 1 failed: waiting 100 ms, no new attempt
    await settle();
    h.advance(100);
    seen.push(h.managed.heal()); // due: attempt 2 starts
    await settle();
    h.setServerUp(true);
    seen.push(h.managed.heal(true)); // Retry now: attempt 3 at once, succeeds
    await settle();
    seen.push(h.managed.heal());
    const lost = 'Cannot connect to 127.0.0.1:3306';
    expect(
      seen.map((status) => {
        const { lastError, ...rest } = status as { lastError?: string };
        return { ...rest, ...(lastError ? { lastError: lastError.slice(0, lost.length) } : {}) };
      }),
    ).toEqual([
      { state: 'reconnecting', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 0 },
      { state: 'reconnecting', failedAttempts: 1, nextAttemptInMs: 100, reconnects: 0, lastError: lost },
      { state: 'reconnecting', failedAttempts: 1, nextAttemptInMs: 0, reconnects: 0, lastError: lost },
      { state: 'reconnecting', failedAttempts: 2, nextAttemptInMs: 200, reconnects: 0, lastError: lost },
      { state: 'open', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 1 },
    ]);
    expect(h.opens()).toBe(4);
  });
});
