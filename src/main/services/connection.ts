// Connections to user servers: open from a DSN or form, detect the server, keep them by id.
// Analysis sessions are read-only (SET SESSION TRANSACTION READ ONLY); passwords are never logged or returned.

import { randomUUID } from 'node:crypto';
import mysql, { type Connection, type ConnectionOptions } from 'mysql2/promise';
import type { ServerInfo } from '../../core/model/server-info.js';
import { connectionParamsSchema, type ConnectionParams, type OpenResult } from '../../shared/api.js';
import { AdvisorError } from '../../shared/errors.js';
import { mapMysqlError } from './mysql-errors.js';
import { detectServerInfo } from './server-info.js';

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
  const config: ConnectionOptions = {
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
    ...(target.tls === 'off' ? {} : { ssl: { rejectUnauthorized: target.tls === 'verify' } }),
  };
  let connection: Connection;
  try {
    connection = await mysql.createConnection(config);
  } catch (error) {
    throw mapMysqlError(error, { host: target.host, port: target.port, user: target.user });
  }
  // An idle connection the server closed must not crash the process.
  connection.on('error', () => undefined);
  if (options.readOnly !== false) {
    try {
      await connection.query('SET SESSION TRANSACTION READ ONLY');
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

interface OpenConnection {
  id: string;
  target: ConnectionTarget;
  connection: Connection;
  server: ServerInfo;
}

/** Keeps open connections by id. One per open profile; the renderer only ever sees the id. */
export class ConnectionService {
  private readonly open = new Map<string, OpenConnection>();

  async openConnection(params: ConnectionParams): Promise<OpenResult> {
    const target = resolveTarget(params);
    const connection = await connect(target);
    let server: ServerInfo;
    try {
      server = await detectServerInfo(connection);
    } catch (error) {
      await connection.end().catch(() => undefined);
      throw mapMysqlError(error, {
        host: target.host,
        port: target.port,
        user: target.user,
        action: 'Reading the server version',
      });
    }
    const id = randomUUID();
    this.open.set(id, { id, target, connection, server });
    return { connectionId: id, server, label: target.label };
  }

  /** The live connection and its server info; a clear error when the id is unknown. */
  get(connectionId: string): OpenConnection {
    const entry = this.open.get(connectionId);
    if (!entry) throw new AdvisorError('NOT_FOUND', 'This connection is closed. Connect again.');
    return entry;
  }

  async close(connectionId: string): Promise<void> {
    const entry = this.open.get(connectionId);
    this.open.delete(connectionId);
    await entry?.connection.end().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }
}
