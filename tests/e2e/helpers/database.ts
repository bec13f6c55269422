// A throwaway database on a test server (MySQL unless told) for the tests of one spec file or describe block.
import { randomBytes } from 'node:crypto';
import { test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { mysqlTestUrl } from './env.js';

/**
 * Registers hooks that create `<prefix>_<random>` before the tests of the current scope (running
 * `setupSql` inside it, several statements allowed) and drop it after them. Returns the name.
 */
export function useScratchDatabase(
  prefix: string,
  setupSql = '',
  serverUrl: () => URL = mysqlTestUrl,
): string {
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  test.beforeAll(async () => {
    const admin = await mysql.createConnection({ uri: serverUrl().href, multipleStatements: true });
    try {
      await admin.query(`CREATE DATABASE \`${database}\``);
      await admin.query(`USE \`${database}\``);
      if (setupSql.trim()) await admin.query(setupSql);
    } finally {
      await admin.end();
    }
  });
  test.afterAll(async () => {
    const admin = await mysql.createConnection(serverUrl().href);
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    } finally {
      await admin.end();
    }
  });
  return database;
}
