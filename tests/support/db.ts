// Helpers for integration tests: the server matrix, connections and throwaway databases.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { inject } from 'vitest';
import type { Flavor } from './servers.js';

/** One server of the test matrix, as provided by tests/support/global-setup.ts. */
export interface MatrixServer {
  flavor: Flavor;
  /** Admin URL (`sargable`, ALL PRIVILEGES WITH GRANT OPTION). */
  url: string;
  /** Least-privilege URL (`sargable_ro`: SELECT, PROCESS, SHOW VIEW), or null when not available. */
  readOnlyUrl: string | null;
}

/**
 * The servers every shared integration suite runs against, for `describe.each(testServers())`.
 * Only usable inside the integration project (it reads `inject('servers')`).
 */
export function testServers(): MatrixServer[] {
  const servers = inject('servers');
  return [
    { flavor: 'mysql', url: servers.mysql, readOnlyUrl: servers.mysqlReadOnly },
    { flavor: 'mariadb', url: servers.mariadb, readOnlyUrl: servers.mariadbReadOnly },
  ];
}

/** Opens a connection to `url` (optionally with a default database). Callers must `end()` it. */
export async function connect(url: string, database?: string): Promise<mysql.Connection> {
  const connection = await mysql.createConnection({
    uri: url,
    multipleStatements: true,
    connectTimeout: 10_000,
  });
  if (database) await connection.query(`USE \`${database}\``);
  return connection;
}

/** A fresh database name like `sargable_t_1a2b3c4d5e6f`, unique across parallel runs. */
export function scratchDatabaseName(prefix = 'sargable_t'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/**
 * Creates a uniquely named database on the server at `url` (admin URL), runs `fn` with a connection
 * whose default database is that database, then drops it, also when `fn` throws.
 */
export async function withScratchDatabase<T>(
  url: string,
  fn: (connection: mysql.Connection, databaseName: string) => Promise<T>,
): Promise<T> {
  const databaseName = scratchDatabaseName();
  const connection = await connect(url);
  try {
    await connection.query(`CREATE DATABASE \`${databaseName}\``);
    await connection.query(`USE \`${databaseName}\``);
    return await fn(connection, databaseName);
  } finally {
    try {
      await connection.query(`DROP DATABASE IF EXISTS \`${databaseName}\``);
    } finally {
      await connection.end();
    }
  }
}
