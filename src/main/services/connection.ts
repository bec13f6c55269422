// Connections to user servers: open from a DSN or form, detect the server, keep them by id.
// Analysis sessions are read-only (SET SESSION TRANSACTION READ ONLY); passwords are never logged or returned.

import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import mysql, {
  type Connection,
  type ConnectionOptions,
  type RowDataPacket,
  type SslOptions,
} from 'mysql2/promise';
import type { ServerInfo } from '../../core/model/server-info.js';
import { connectionParamsSchema, type ConnectionParams, type OpenResult } from '../../shared/api.js';
import { AdvisorError } from '../../shared/errors.js';
import { mapMysqlError } from './mysql-errors.js';
import { CAPTURE_MARKER } from './own-statements.js';
import { detectServerInfo } from './server-info.js';
import { ManagedConnection, type LinkStatus, type ReconnectPolicy } from './reconnect.js';
import { setSessionLexicalContext } from './statement-guard.js';
import { restoreStatements, restoreUnfinishedWindows, unfinishedWindows } from './slowlog-journal.js';
import { sessionLexicalContext } from '../../core/sql/lexer.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Normalised connection target (no secrets in `label`). */
export interface ConnectionTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string | undefined;
  tls: 'off' | 'required' | 'verify';
  connectTimeoutMs: number;
  label: string;
  /** The user allowed what-if DDL on this connection (a sandbox). */
  allowWhatIf: boolean;
  /** Full mysql2 TLS options (CA/cert/key read from a profile's files); overrides `tls`. */
  ssl?: SslOptions;
  /** From a profile marked as production: every explicit write needs its name typed (production-guard.ts). */
  production?: { name: string };
  /** The saved profile's name (connections made from a profile); the history files windows under it. */
  profile?: string;
  /** Carries the MySQL protocol over another stream (an SSH tunnel channel) instead of TCP to host:port. */
  tunnel?: StreamOpener;
  /**
   * Told the thread id of each read-write connection opened to this target, so a running write can be
   * cancelled with KILL QUERY (write-runs.ts). Never set on stored targets.
   */
  onWriteSession?: (threadId: number) => void;
}

/** Opens a fresh duplex stream to the server for each connection (e.g. an SSH `direct-tcpip` channel). */
export interface StreamOpener {
  openStream(): Promise<Duplex>;
  close(): Promise<void>;
}

/** Parse `mysql://user:pass@host:port/db?ssl-mode=REQUIRED` or form fields into a target. */
export function resolveTarget(params: ConnectionParams): ConnectionTarget {
  const parsed = connectionParamsSchema.safeParse(params);
  if (!parsed.success) {
    throw new AdvisorError(
      'INVALID_INPUT',
      `Invalid connection settings: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ')}`,
    );
  }
  const value = parsed.data;
  if ('dsn' in value) {
    let url: URL;
    try {
      url = new URL(value.dsn);
    } catch {
      throw new AdvisorError(
        'INVALID_INPUT',
        `Not a valid DSN: expected mysql://user:password@host:3306/database`,
      );
    }
    if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') {
      throw new AdvisorError(
        'INVALID_INPUT',
        `Unsupported DSN scheme '${url.protocol}': use mysql://user:password@host:3306/database`,
      );
    }
    const sslMode = (url.searchParams.get('ssl-mode') ?? url.searchParams.get('sslmode') ?? '').toUpperCase();
    const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    const port = url.port ? Number(url.port) : 3306;
    const user = decodeURIComponent(url.username || 'root');
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
    return {
      host,
      port,
      user,
      password: decodeURIComponent(url.password),
      database,
      tls: sslMode === 'REQUIRED' ? 'required' : sslMode.startsWith('VERIFY') ? 'verify' : 'off',
      connectTimeoutMs: value.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      label: `${user}@${host}:${port}${database ? `/${database}` : ''}`,
      allowWhatIf: value.allowWhatIf ?? false,
    };
  }
  return {
    host: value.host,
    port: value.port,
    user: value.user,
    password: value.password,
    database: value.database || undefined,
    tls: value.tls,
    connectTimeoutMs: value.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    label: `${value.user}@${value.host}:${value.port}${value.database ? `/${value.database}` : ''}`,
    allowWhatIf: value.allowWhatIf ?? false,
  };
}

/** Open a mysql2 connection to a target; errors are mapped to AdvisorError naming host and port. */
export async function connect(
  target: ConnectionTarget,
  options: { readOnly?: boolean } = {},
): Promise<Connection> {
  let stream: Duplex | undefined;
  if (target.tunnel) stream = await target.tunnel.openStream();
  const config: ConnectionOptions = {
    ...(stream ? { stream } : {}),
    host: target.host,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    connectTimeout: target.connectTimeoutMs,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: false,
    ...(target.ssl
      ? { ssl: target.ssl }
      : target.tls === 'off'
        ? {}
        : { ssl: { rejectUnauthorized: target.tls === 'verify' } }),
  };
  let connection: Connection;
  try {
    connection = await mysql.createConnection(config);
  } catch (error) {
    stream?.destroy();
    throw mapMysqlError(error, { host: target.host, port: target.port, user: target.user });
  }
  // An idle connection the server closed must not crash the process.
  connection.on('error', () => undefined);
  // Every watchdog stops a statement of this connection with KILL QUERY from a second one.
  attachQueryKiller(connection, queryKiller(target));
  if (options.readOnly === false) target.onWriteSession?.(connection.threadId);
  if (options.readOnly !== false) {
    try {
      await connection.query(`${CAPTURE_MARKER} SET SESSION TRANSACTION READ ONLY`);
      // The statement guard reads each statement as this server and sql_mode will.
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT ${CAPTURE_MARKER} VERSION() AS version, @@SESSION.sql_mode AS sql_mode`,
      );
      const version = String(rows[0]?.version ?? '');
      const lexical = sessionLexicalContext(version, String(rows[0]?.sql_mode ?? ''));
      setSessionLexicalContext(connection, version ? lexical : {});
    } catch (error) {
      await connection.end().catch(() => undefined);
      throw mapMysqlError(error, {
        host: target.host,
        port: target.port,
        user: target.user,
        action: 'Setting the session read-only',
      });
    }
  }
  return connection;
}

/** Stops one statement of ours on the server, given the connection's thread id. */
export type QueryKiller = (threadId: number) => Promise<void>;

/**
 * The killer of the target a connection was opened for, kept on the connection object under a
 * symbol (read through the reconnecting proxy too), so a watchdog can always KILL QUERY our own
 * thread: closing the socket does not stop a statement on the server (issue #20).
 */
const QUERY_KILLER: unique symbol = Symbol('sargable.queryKiller');

function attachQueryKiller(connection: Connection, killer: QueryKiller): void {
  Object.defineProperty(connection, QUERY_KILLER, { value: killer, enumerable: false });
}

/** The {@link QueryKiller} of a connection opened by {@link connect}, or undefined. */
export function queryKillerOf(connection: object): QueryKiller | undefined {
  const killer = (connection as { [QUERY_KILLER]?: unknown })[QUERY_KILLER];
  return typeof killer === 'function' ? (killer as QueryKiller) : undefined;
}

/**
 * A {@link QueryKiller} for a target: opens a short read-only connection and runs KILL QUERY on
 * our own thread (any user may kill its own statements, no PROCESS or SUPER needed).
 */
export function queryKiller(target: ConnectionTarget): QueryKiller {
  return async (threadId) => {
    const connection = await connect(target, { readOnly: true });
    try {
      await connection.query(`${CAPTURE_MARKER} KILL QUERY ${Math.trunc(threadId)}`);
    } finally {
      await connection.end().catch(() => undefined);
    }
  };
}

interface OpenConnection {
  id: string;
  target: ConnectionTarget;
  /** Guarded, self-reconnecting connection (see reconnect.ts); only read-only statements pass. */
  connection: Connection;
  server: ServerInfo;
}

interface Entry {
  id: string;
  target: ConnectionTarget;
  managed: ManagedConnection;
  server: ServerInfo;
}

/** Options for {@link ConnectionService}. */
export interface ConnectionServiceOptions {
  /** Backoff between reconnect attempts after a dropped connection. */
  reconnect?: ReconnectPolicy;
  /**
   * The slow-log window journal (slowlog-journal.ts): on connect, windows a crash left open on that
   * server are restored and the user is told. The app and the CLI pass the config dir's journal.
   */
  slowLogJournal?: string;
}

/** Keeps open connections by id. One per open profile; the renderer only ever sees the id. */
export class ConnectionService {
  private readonly open = new Map<string, Entry>();

  constructor(private readonly options: ConnectionServiceOptions = {}) {}

  async openConnection(params: ConnectionParams): Promise<OpenResult> {
    return this.openTarget(resolveTarget(params));
  }

  /** Open a resolved target (from a DSN, the form, or a saved profile) as a read-only analysis session. */
  async openTarget(target: ConnectionTarget): Promise<OpenResult> {
    const managed = new ManagedConnection(() => connect(target, { readOnly: true }), {
      readOnly: true,
      context: { host: target.host, port: target.port, user: target.user },
      ...(this.options.reconnect ? { policy: this.options.reconnect } : {}),
    });
    try {
      await managed.start();
    } catch (error) {
      await target.tunnel?.close().catch(() => undefined);
      throw error;
    }
    let server: ServerInfo;
    try {
      server = await detectServerInfo(managed.connection);
    } catch (error) {
      await managed.close();
      await target.tunnel?.close().catch(() => undefined);
      throw mapMysqlError(error, {
        host: target.host,
        port: target.port,
        user: target.user,
        action: 'Reading the server version',
      });
    }
    const id = randomUUID();
    this.open.set(id, { id, target, managed, server });
    const notices = await this.restoreSlowLogWindows(target);
    return { connectionId: id, server, label: target.label, ...(notices.length > 0 ? { notices } : {}) };
  }

  /** The journal this service repairs on connect, if any. */
  get slowLogJournal(): string | undefined {
    return this.options.slowLogJournal;
  }

  /** Restore slow-log windows a crashed Sargable left open on this server; notices for the user. */
  private async restoreSlowLogWindows(target: ConnectionTarget): Promise<string[]> {
    const journal = this.options.slowLogJournal;
    if (!journal || unfinishedWindows(journal).length === 0) return [];
    let writer: Connection | undefined;
    try {
      writer = await connect(target, { readOnly: false });
      return await restoreUnfinishedWindows(journal, target, writer);
    } catch (error) {
      const entries = unfinishedWindows(journal).filter(
        (entry) => entry.host === target.host && entry.port === target.port,
      );
      return entries.map(
        (entry) =>
          `A slow-log window a crash left open on ${entry.host}:${entry.port} could not be restored (${mapMysqlError(error).userMessage}); run: ${restoreStatements(entry).join('; ')}.`,
      );
    } finally {
      await writer?.end().catch(() => undefined);
    }
  }

  /** The live connection and its server info; a clear error when the id is unknown. */
  get(connectionId: string): OpenConnection {
    const entry = this.open.get(connectionId);
    if (!entry) throw new AdvisorError('NOT_FOUND', 'This connection is closed. Connect again.');
    return { id: entry.id, target: entry.target, connection: entry.managed.connection, server: entry.server };
  }

  /** Open, reconnecting or closed, and when the next reconnect attempt is due. */
  status(connectionId: string): LinkStatus {
    const entry = this.open.get(connectionId);
    if (!entry) return { state: 'closed', failedAttempts: 0, nextAttemptInMs: 0, reconnects: 0 };
    return entry.managed.status();
  }

  /** {@link status}, then the reconnect attempt that is due (or one now with `retryNow`) starts in the background. */
  heal(connectionId: string, options: { retryNow?: boolean } = {}): LinkStatus {
    const entry = this.open.get(connectionId);
    if (!entry) return this.status(connectionId);
    return entry.managed.heal(options.retryNow === true);
  }

  /**
   * Run an explicit, confirmed write (kill, apply) on its own short-lived read-write connection to
   * the same target, so the analysis session stays read-only and guarded.
   */
  async withWriteConnection<T>(
    connectionId: string,
    action: (connection: Connection) => Promise<T>,
  ): Promise<T> {
    const { target } = this.get(connectionId);
    const connection = await connect(target, { readOnly: false });
    try {
      return await action(connection);
    } finally {
      await connection.end().catch(() => undefined);
    }
  }

  async close(connectionId: string): Promise<void> {
    const entry = this.open.get(connectionId);
    this.open.delete(connectionId);
    await entry?.managed.close();
    await entry?.target.tunnel?.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }
}
