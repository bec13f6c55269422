// Run (read-only): a query the guard proves read-only runs with a row and a time limit; anything
// that writes or has side effects is refused and changes nothing (issue 18 item 15, docs/security.md).
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionService } from '../../src/main/services/connection.js';
import { runReadQuery } from '../../src/main/services/read-query.js';
import { AdvisorError } from '../../src/shared/errors.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

describe.each(testServers())('Run (read-only) on $flavor', ({ url }) => {
  const database = scratchDatabaseName('sargable_runq');
  const dsn = `${url.replace(/\/$/, '')}/${database}`;
  const connections = new ConnectionService();
  const lockName = `${database}_lock`;
  let admin: Connection;

  const open = async () => {
    const opened = await connections.openConnection({ dsn });
    return connections.get(opened.connectionId);
  };
  const canaryCount = async (): Promise<number> => {
    const [rows] = await admin.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM canary');
    return Number(rows[0]?.n);
  };
  /** Statements of ours (by marker) still in the processlist, other than the one asking. */
  const runningWith = async (marker: string): Promise<string[]> => {
    const [rows] = await admin.query<RowDataPacket[]>(
      "SELECT INFO FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
      [`%${marker}%`],
    );
    return rows.map((row) => String(row.INFO));
  };

  beforeAll(async () => {
    admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query('CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), bin VARBINARY(4), doc JSON)');
    const values: string[] = [];
    for (let n = 1; n <= 2500; n++)
      values.push(`(${n}, 'row ${n}', UNHEX('00FF${(n % 256).toString(16).padStart(2, '0')}'), NULL)`);
    await admin.query(`INSERT INTO t VALUES ${values.join(',')}`);
    await admin.query(`UPDATE t SET name = '<b>x</b>', doc = '{"a": 1}' WHERE id = 2`);
    await admin.query('CREATE TABLE canary (id INT)');
    await admin.query('INSERT INTO canary VALUES (1)');
    await admin.query(
      'CREATE FUNCTION write_canary() RETURNS INT MODIFIES SQL DATA DETERMINISTIC BEGIN INSERT INTO canary VALUES (99); RETURN 1; END',
    );
  });
  afterAll(async () => {
    await connections.closeAll();
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('returns the rows of a SELECT, every value as text (binary as hex, markup untouched)', async () => {
    const { target, server } = await open();
    const result = await runReadQuery(
      target,
      server,
      'SELECT id, name, bin, doc FROM t WHERE id IN (1, 2, 3) ORDER BY id',
    );
    expect(result.columns.map((column) => column.name)).toEqual(['id', 'name', 'bin', 'doc']);
    expect(result.truncated).toBe(false);
    expect(result.rows[0]).toEqual(['1', 'row 1', '0x00FF01', null]);
    expect(result.rows[1]?.[1]).toBe('<b>x</b>');
    expect(result.rows[1]?.[2]).toBe('0x00FF02');
    expect(JSON.parse(String(result.rows[1]?.[3]))).toEqual({ a: 1 });
    expect(result.rows).toHaveLength(3);
  });

  it('stops at the row limit (default 1,000) without editing the text, and leaves nothing running', async () => {
    const { target, server } = await open();
    const marker = `rowlimit_${database}`;
    const limited = await runReadQuery(target, server, `SELECT id AS ${marker} FROM t ORDER BY id`, {
      rowLimit: 10,
    });
    expect(limited.rows.map((row) => row[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(limited.truncated).toBe(true);
    const byDefault = await runReadQuery(target, server, `SELECT id AS ${marker} FROM t`);
    expect(byDefault.rows).toHaveLength(1000);
    expect(byDefault.truncated).toBe(true);
    expect(byDefault.rowLimit).toBe(1000);
    const exact = await runReadQuery(target, server, 'SELECT id FROM t WHERE id <= 10', { rowLimit: 10 });
    expect(exact.truncated).toBe(false);
    expect(await runningWith(marker)).toEqual([]);
  });

  it('stops a huge result at the row limit with KILL QUERY, long before the time limit', async () => {
    const { target, server } = await open();
    const marker = `huge_${database}`;
    const started = Date.now();
    // 2500^3 rows: without the kill the client would wait for the 60 s time limit.
    const result = await runReadQuery(
      target,
      server,
      `SELECT a.id AS ${marker}, b.id, c.id FROM t a, t b, t c`,
      {
        rowLimit: 5,
        timeoutMs: 60_000,
      },
    );
    expect(result.rows).toHaveLength(5);
    expect(result.truncated).toBe(true);
    // A third of the 60 s time limit the client would wait without the kill.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await runningWith(marker)).toEqual([]);
  });

  it('stops a slow query at the time limit on the server (canary: nothing of ours left in the processlist)', async () => {
    const { target, server } = await open();
    const marker = `slow_${database}`;
    const started = Date.now();
    const error = await runReadQuery(
      target,
      server,
      `SELECT MAX(CONCAT(a.name, b.name, c.name)) AS ${marker} FROM t a, t b, t c`,
      {
        timeoutMs: 1000,
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorError);
    expect((error as AdvisorError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(15_000);
    let left = await runningWith(marker);
    for (let attempt = 0; attempt < 20 && left.length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await runningWith(marker);
    }
    expect(left).toEqual([]);
  });

  it.each([
    ['INSERT INTO canary VALUES (2)'],
    ['UPDATE canary SET id = 3'],
    ['DELETE FROM canary'],
    [`SELECT * FROM canary INTO OUTFILE '/tmp/sargable_runq_canary.txt'`],
    [`SELECT GET_LOCK('@LOCK@', 0)`],
    ['SELECT write_canary()'],
    ['SELECT id FROM canary WHERE write_canary() = 1'],
    ['SELECT SLEEP(30)'],
    ['SELECT * FROM canary FOR UPDATE'],
    ['SHOW TABLES'],
    ['SET @a = 1'],
    ['SELECT 1; INSERT INTO canary VALUES (4)'],
    ['/*!00000 INSERT INTO canary VALUES (5) */'],
  ])('refuses %s and changes nothing', async (statement) => {
    const { target, server } = await open();
    const sql = statement.replace('@LOCK@', lockName);
    const before = await canaryCount();
    const error = await runReadQuery(target, server, sql).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorError);
    expect((error as AdvisorError).code).toBe('UNSUPPORTED');
    expect((error as AdvisorError).message).toMatch(/Not run: /);
    expect(await canaryCount()).toBe(before);
    const [rows] = await admin.query<RowDataPacket[]>('SELECT IS_FREE_LOCK(?) AS free', [lockName]);
    expect(Number(rows[0]?.free)).toBe(1);
    const [canary] = await admin.query<RowDataPacket[]>('SELECT id FROM canary ORDER BY id');
    expect(canary.map((row) => Number(row.id))).toEqual([1]);
  });
});
