// Foundation path on both real servers: connect, detect ServerInfo, analyze the seed query with the live schema.
import { readFileSync } from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { AdvisorError } from '../../src/shared/errors.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const productsDdl = readFileSync(new URL('../fixtures/seed/products.sql', import.meta.url), 'utf8');
const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10';

describe.each(testServers())('foundation on $flavor', ({ flavor, url, readOnlyUrl }) => {
  const database = scratchDatabaseName('sargable_found');
  const connections = new ConnectionService();
  const handlers = createHandlers({ connections, app: { name: 'Sargable', version: 'test', mode: 'web' } });
  const dsn = (base: string) => `${base.replace(/\/$/, '')}/${database}`;

  beforeAll(async () => {
    const admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query(productsDdl);
    await admin.end();
  });
  afterAll(async () => {
    await connections.closeAll();
    const admin = await connect(url);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('detects ServerInfo with the flavor capabilities', async () => {
    const opened = await handlers['connection.open']({ dsn: dsn(url) });
    const { server } = opened;
    expect(opened.label).not.toMatch(/:[^@/]*@/); // no password in the label
    expect(server.database).toBe(database);
    expect(server.sqlMode.session).toContain('STRICT_TRANS_TABLES');
    if (flavor === 'mysql') {
      expect(server.flavor).toBe('mysql');
      expect(server.version).toMatch(/^8\.0\.33/);
      expect(server.capabilities).toMatchObject({
        functionalIndexes: true,
        generatedColumnSubstitution: true,
        dataLocks: true,
        explainTree: true,
        explainAnalyze: true,
        nowait: true,
        skipLocked: true,
        nowaitErrorCode: 3572,
        invisibleIndexes: true,
        performanceSchema: true,
      });
    } else {
      expect(server.flavor).toBe('mariadb');
      expect(server.version).toMatch(/^10\.11\./);
      expect(server.versionString).toMatch(/MariaDB/);
      expect(server.capabilities).toMatchObject({
        functionalIndexes: false,
        generatedColumnSubstitution: false,
        dataLocks: false,
        explainTree: false,
        explainAnalyze: false,
        analyzeFormatJson: true,
        nowait: true,
        skipLocked: true,
        nowaitErrorCode: 1205,
        performanceSchema: false,
      });
    }
    await handlers['connection.close']({ connectionId: opened.connectionId });
  });

  it('analyzes the seed query with the live schema', async () => {
    const opened = await handlers['connection.open']({ dsn: dsn(url) });
    const report = await handlers['analyze.run']({ sql: seedQuery, connectionId: opened.connectionId });
    expect(report.server).toEqual({ flavor, version: opened.server.version, source: 'dsn' });
    const [finding] = report.statements[0]?.findings ?? [];
    expect(finding).toMatchObject({
      rule: 'FUN001',
      category: 'function-wrapped-predicate',
      line: 1,
      column: 39,
      endLine: 1,
      endColumn: 57,
      table: 'products',
      columns: ['create_time'],
      expression: 'MONTH(create_time)',
    });
    await handlers['connection.close']({ connectionId: opened.connectionId });
  });

  it('opens analysis sessions read-only: the server session and the statement guard both refuse writes', async () => {
    const opened = await connections.openConnection({ dsn: dsn(url) });
    const { connection } = connections.get(opened.connectionId);
    const variable = flavor === 'mysql' ? '@@SESSION.transaction_read_only' : '@@SESSION.tx_read_only';
    const [rows] = await connection.query<RowDataPacket[]>(`SELECT ${variable} AS ro`);
    expect(Number(rows[0]?.ro)).toBe(1);
    await expect(connection.query('INSERT INTO products (price) VALUES (1)')).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    await connections.close(opened.connectionId);
  });

  it('names what failed: wrong password, unknown database, closed port', async () => {
    const wrong = new URL(url);
    wrong.password = 'definitely-wrong';
    await expect(connections.openConnection({ dsn: wrong.toString() })).rejects.toMatchObject({
      code: 'AUTH_FAILED',
      details: { serverCode: 1045 },
    });
    await expect(
      connections.openConnection({ dsn: dsn(url).replace(database, 'no_such_db_x') }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const closed = new URL(url);
    closed.port = '1';
    const started = Date.now();
    const error = await connections
      .openConnection({ dsn: closed.toString() })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorError);
    expect((error as AdvisorError).code).toBe('CONNECTION_FAILED');
    expect((error as AdvisorError).userMessage).toContain('127.0.0.1:1');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.skipIf(!readOnlyUrl)('a least-privilege user can still analyze', async () => {
    const opened = await handlers['connection.open']({ dsn: dsn(readOnlyUrl ?? '') });
    const report = await handlers['analyze.run']({ sql: seedQuery, connectionId: opened.connectionId });
    expect(report.statements[0]?.findings[0]?.table).toBe('products');
    await handlers['connection.close']({ connectionId: opened.connectionId });
  });
});

describe('connect timeout', () => {
  it('gives up on an unroutable peer within the timeout and says so', async () => {
    // A listening socket that never answers the MySQL handshake.
    const net = await import('node:net');
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const connections = new ConnectionService();
    const started = Date.now();
    await expect(
      connections.openConnection({
        host: '127.0.0.1',
        port,
        user: 'x',
        password: 'y',
        connectTimeoutMs: 1500,
      }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    // mysql2's own connect timeout (what an ignored connectTimeoutMs leaves) is 10 s.
    expect(Date.now() - started).toBeLessThan(8000);
    silent.close();
  });
});
