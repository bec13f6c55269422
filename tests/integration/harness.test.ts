// Proves the test harness: both servers answer, have the expected versions and the expected users.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { connect, testServers, withScratchDatabase } from '../support/db.js';

const expectedVersion = { mysql: /^8\.0\.33/, mariadb: /^10\.11\./ } as const;

describe.each(testServers())('harness: $flavor', ({ flavor, url, readOnlyUrl }) => {
  it('answers with the expected version', async () => {
    const connection = await connect(url);
    try {
      const [rows] = await connection.query<RowDataPacket[]>('SELECT VERSION() AS version');
      expect(String(rows[0]?.version)).toMatch(expectedVersion[flavor]);
    } finally {
      await connection.end();
    }
  });

  it('gives a scratch database that is dropped afterwards', async () => {
    const name = await withScratchDatabase(url, async (connection, databaseName) => {
      await connection.query('CREATE TABLE t (id INT PRIMARY KEY)');
      await connection.query('INSERT INTO t VALUES (1), (2)');
      const [rows] = await connection.query<RowDataPacket[]>('SELECT DATABASE() AS db, COUNT(*) AS n FROM t');
      expect(rows[0]).toMatchObject({ db: databaseName, n: 2 });
      return databaseName;
    });
    const connection = await connect(url);
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
        [name],
      );
      expect(rows).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it.skipIf(readOnlyUrl === null)('the read-only user cannot CREATE DATABASE', async () => {
    const connection = await connect(readOnlyUrl ?? '');
    try {
      const [grants] = await connection.query<RowDataPacket[]>('SHOW GRANTS');
      expect(JSON.stringify(grants)).toMatch(/GRANT SELECT, PROCESS, SHOW VIEW ON \*\.\*/);
      await expect(connection.query('CREATE DATABASE sargable_ro_must_fail')).rejects.toMatchObject({
        code: 'ER_DBACCESS_DENIED_ERROR',
      });
    } finally {
      await connection.end();
    }
  });
});
