// A connection that survives server restarts: reconnects with bounded backoff and guards read-only sessions.
/*
 * Design note.
 * - Services keep calling `connection.query(...)` on the object the ConnectionService hands out. That
 *   object is a Proxy over the current mysql2 connection: `query` and `execute` go through the
 *   read-only statement guard (analysis sessions) and then to whichever driver connection is live;
 *   every other property reads through to that connection.
 * - States: `open` → (socket closed, fatal driver error) → `lost` → (next call, backoff elapsed)
 *   → reconnect attempt → `open` again, or `lost` with a longer wait. There are no timers: a
 *   reconnect only happens when a caller asks for the connection, so a closed app does no work and
 *   a polling view (locks, capture) drives the retries at its own pace. Concurrent callers share one
 *   attempt. While waiting, calls fail at once with CONNECTION_LOST (no network round trip) saying
 *   when the next attempt is due, so pollers pause instead of piling up.
 * - A reconnect runs the same `open()` as the first connect: the read-only session setting and the
 *   profile's default schema come back with it. Session variables a service set (USE, time limits)
 *   do not; services set those per call.
 * - A statement that was in flight when the connection died is not retried: it fails with
 *   CONNECTION_LOST and the caller decides.
 */

import type { Connection } from 'mysql2/promise';
import { AdvisorError } from '../../shared/errors.js';
import { mapMysqlError, type ErrorContext } from './mysql-errors.js';
import {
  assertReadOnlyStatement,
  guardOptionsOf,
  sessionLexicalContextOf,
  statementText,
} from './statement-guard.js';

/** Backoff between reconnect attempts: `baseDelayMs · 2^(failures-1)`, at most `maxDelayMs`. */
export interface ReconnectPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = { baseDelayMs: 250, maxDelayMs: 10_000 };

/** What a caller (or the status bar) can show about a managed connection. */
export interface LinkStatus {
  state: 'open' | 'reconnecting' | 'closed';
  /** Failed reconnect attempts since the connection was lost. */
  failedAttempts: number;
  /** Milliseconds until the next attempt may run (0 when it may run now). */
  nextAttemptInMs: number;
  /** How often the connection came back after a loss. */
  reconnects: number;
  /** Why the last reconnect attempt failed (mapped message: host, port, server text; no secrets). */
  lastError?: string;
}

/** Options for {@link ManagedConnection}. */
export interface ManagedConnectionOptions {
  /** Guard every statement with the read-only allow-list. */
  readOnly: boolean;
  /** Names host/port/user in error messages. */
  context: ErrorContext;
  policy?: ReconnectPolicy;
  now?: () => number;
}

const LOST_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'PROTOCOL_SEQUENCE_TIMEOUT',
]);

/** True for errors after which the driver connection is unusable. */
export function isConnectionLostError(error: unknown): boolean {
  if (error instanceof AdvisorError) return error.code === 'CONNECTION_LOST';
  const driver = (error ?? {}) as { fatal?: boolean; code?: string; message?: string };
  if (driver.fatal === true) return true;
  if (driver.code && LOST_CODES.has(driver.code)) return true;
  return typeof driver.message === 'string' && /connection is in closed state/i.test(driver.message);
}

/** Delay before attempt number `failures + 1` (failures ≥ 1). */
export function backoffDelay(failures: number, policy: ReconnectPolicy): number {
  if (failures <= 0) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(30, failures - 1));
}

/** One logical connection over a sequence of driver connections (see the design note). */
export class ManagedConnection {
  /** Hand this to services; it behaves like a mysql2 promise Connection. */
  readonly connection: Connection;
  private current: Connection | undefined;
  private lost = false;
  private closed = false;
  private failures = 0;
  private reconnects = 0;
  private nextAttemptAt = 0;
  private lastError: string | undefined;
  private pending: Promise<Connection> | undefined;
  private readonly policy: ReconnectPolicy;
  private readonly now: () => number;

  constructor(
    private readonly open: () => Promise<Connection>,
    private readonly options: ManagedConnectionOptions,
  ) {
    this.policy = options.policy ?? DEFAULT_RECONNECT_POLICY;
    this.now = options.now ?? Date.now;
    this.connection = this.createProxy();
  }

  /** First connect: errors propagate as they are (wrong password, refused, …). */
  async start(): Promise<void> {
    this.adopt(await this.open());
  }

  status(): LinkStatus {
    return {
      state: this.closed ? 'closed' : this.lost ? 'reconnecting' : 'open',
      failedAttempts: this.failures,
      nextAttemptInMs: this.lost ? Math.max(0, this.nextAttemptAt - this.now()) : 0,
      reconnects: this.reconnects,
      ...(this.lost && this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /**
   * Report the state, then start the reconnect attempt that is due (or one at once with `force`,
   * "Retry now") without waiting for it: the status bar polls this, so an idle window heals without
   * a view polling, shows "reconnecting" while it does, and never waits for a connect timeout.
   */
  heal(force = false): LinkStatus {
    const status = this.status();
    if (!this.closed && this.lost && !this.pending) {
      if (force) this.nextAttemptAt = 0;
      if (this.nextAttemptAt <= this.now()) void this.acquire().catch(() => undefined);
    }
    return status;
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    await current?.end().catch(() => undefined);
  }

  /** The live driver connection, reconnecting first when it was lost and the backoff allows. */
  async acquire(): Promise<Connection> {
    if (this.closed) throw new AdvisorError('NOT_FOUND', 'This connection is closed. Connect again.');
    if (this.current && !this.lost) return this.current;
    if (this.pending) return this.pending;
    const wait = this.nextAttemptAt - this.now();
    if (wait > 0) throw this.lostError(wait);
    this.pending = this.open()
      .then((connection) => {
        if (this.closed) {
          void connection.end().catch(() => undefined);
          throw new AdvisorError('NOT_FOUND', 'This connection is closed. Connect again.');
        }
        this.adopt(connection);
        this.reconnects += 1;
        return connection;
      })
      .catch((error: unknown) => {
        if (error instanceof AdvisorError && error.code === 'NOT_FOUND') throw error;
        this.failures += 1;
        this.lastError = mapMysqlError(error, this.options.context).userMessage;
        this.nextAttemptAt = this.now() + backoffDelay(this.failures, this.policy);
        throw this.lostError(this.nextAttemptAt - this.now(), error);
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  private adopt(connection: Connection): void {
    const previous = this.current;
    this.current = connection;
    this.lost = false;
    this.failures = 0;
    this.nextAttemptAt = 0;
    this.lastError = undefined;
    const onClosed = (): void => this.markLost(connection);
    connection.on('error', onClosed);
    connection.on('end', onClosed);
    if (previous && previous !== connection) void previous.end().catch(() => undefined);
  }

  private markLost(connection: Connection): void {
    if (this.current === connection && !this.lost) {
      this.lost = true;
      // The first attempt may run at once: an idle timeout or a quick restart heals on the next call.
      this.nextAttemptAt = 0;
    }
  }

  private lostError(waitMs: number, cause?: unknown): AdvisorError {
    const { host, port } = this.options.context;
    const where = host ? `${host}:${port ?? 3306}` : 'the server';
    const seconds = Math.max(0.1, Math.round(waitMs / 100) / 10);
    const why = cause ? ` (${mapMysqlError(cause, this.options.context).userMessage})` : '';
    return new AdvisorError(
      'CONNECTION_LOST',
      `The connection to ${where} was lost; reconnecting (attempt ${this.failures + 1} in ${seconds} s)${why}.`,
      {
        hint: 'Sargable reconnects by itself on the next request, with the same read-only settings and default schema; views that poll pause until the server is back.',
      },
      cause === undefined ? undefined : { cause },
    );
  }

  private async run(method: 'query' | 'execute', args: unknown[]): Promise<unknown> {
    const sql = statementText(args[0]);
    if (this.options.readOnly && sql === undefined) {
      throw new AdvisorError('INTERNAL', 'Refused on a read-only analysis session: no SQL text.');
    }
    const connection = await this.acquire();
    if (this.options.readOnly) {
      // Read the statement as this session's server and sql_mode will (flavor, version, quoting).
      const { allowRoutineCalls } = guardOptionsOf(args[0]);
      assertReadOnlyStatement(sql!, {
        context: sessionLexicalContextOf(connection),
        ...(allowRoutineCalls ? { allowRoutineCalls } : {}),
      });
    }
    try {
      const call = connection[method] as (...callArgs: unknown[]) => Promise<unknown>;
      return await call.apply(connection, args);
    } catch (error) {
      if (isConnectionLostError(error)) {
        this.markLost(connection);
        throw this.lostError(0, error);
      }
      throw error;
    }
  }

  private createProxy(): Connection {
    const query = (...args: unknown[]): Promise<unknown> => this.run('query', args);
    const execute = (...args: unknown[]): Promise<unknown> => this.run('execute', args);
    const handler: ProxyHandler<object> = {
      get: (_target, property) => {
        if (property === 'query') return query;
        if (property === 'execute') return execute;
        const current = this.current;
        if (!current) return undefined;
        const value: unknown = Reflect.get(current, property);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current) : value;
      },
    };
    return new Proxy({}, handler) as Connection;
  }
}
