// Audit: a full read-only session through the API, with the general query log on; the server saw no write.
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/dispatch.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';
import { isStatement, judgedStatement, offendingEntries, statementKinds } from '../support/audit.js';

const productsDdl = fs.readFileSync(new URL('../fixtures/seed/products.sql', import.meta.url), 'utf8');

describe.each(['mysql', 'mariadb'] as Flavor[])('audit on %s: a full session sends no write', (flavor) => {
  let server: TestServer;
  let admin: mysql.Connection;
  const { handlers, connections, userDataDir } = testHandlers('sargable-audit');
  const calls: string[] = [];
  const call = async <T>(method: string, request: unknown): Promise<T> => {
    calls.push(method);
    const reply = await dispatch(handlers, method, request);
    if (!reply.ok) throw Object.assign(new Error(`${method}: ${reply.error.message}`), reply.error);
    return reply.value as T;
  };

  beforeAll(async () => {
    server = await startServer(flavor, { performanceSchema: true });
    admin = await mysql.createConnection({ uri: server.url, multipleStatements: true });
    await admin.query(`CREATE DATABASE shop; USE shop; ${productsDdl}`);
    await admin.query(
      "CREATE USER 'auditor'@'%' IDENTIFIED BY 'audit-pw'; GRANT ALL PRIVILEGES ON *.* TO 'auditor'@'%'",
    );
    await admin.query(
      "SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1",
    );
  });
  afterAll(async () => {
    await connections.closeAll();
    await admin?.end().catch(() => undefined);
    await server?.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('connect, test, analyze, EXPLAIN, modes, locks, capture, workspace and export send only reads', async () => {
    const sql = 'SELECT AVG(price) FROM products WHERE MONTH(create_time) = 10';
    const { profile } = await call<{ profile: { id: string } }>('profiles.save', {
      profile: { name: 'audit', host: server.host, port: server.port, user: 'auditor', database: 'shop' },
    });
    await call('profiles.test', { id: profile.id, password: 'audit-pw' });
    const { connectionId } = await call<{ connectionId: string }>('profiles.connect', {
      id: profile.id,
      password: 'audit-pw',
    });
    const report = await call('analyze.run', { connectionId, sql });
    await call('explain.run', { connectionId, sql });
    await call('ui.tableSize', { connectionId, table: 'products' });
    await call('sqlmode.view', { connectionId });
    await call('sqlmode.upgrade', {
      connectionId,
      sql,
      target: { flavor, version: flavor === 'mysql' ? '8.4.0' : '11.4.0' },
    });
    await call('locks.poll', { connectionId, lockCounts: true, explain: true });
    const snapshot = await call<{ snapshotId: string }>('capture.snapshot', { connectionId });
    await call('capture.delta', { connectionId, fromSnapshotId: snapshot.snapshotId });
    await call('capture.slowLogTable', { connectionId });
    await call('capture.slowLogWindowPlan', { connectionId });
    await call('workspace.addFromAnalysis', { profileId: profile.id, report });
    await call('workspace.get', { profileId: profile.id });
    await call('export.preview', {
      profileId: profile.id,
      flavor,
      version: flavor === 'mysql' ? '8.0.33' : '10.11.6',
      connectionId,
      rollback: true,
    });
    // A write through the guarded session is refused before it reaches the server.
    await expect(connections.get(connectionId).connection.query('DROP TABLE products')).rejects.toMatchObject(
      {
        code: 'UNSUPPORTED',
      },
    );
    await call('connection.close', { connectionId });

    await admin.query('SET GLOBAL general_log = 0');
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      "SELECT thread_id, command_type, CONVERT(argument USING utf8mb4) AS argument FROM mysql.general_log WHERE user_host LIKE 'auditor[%' ORDER BY event_time",
    );
    const statements = rows.map((row) => ({ command: String(row.command_type), text: String(row.argument) }));
    const queries = statements.filter(isStatement);
    const offending = offendingEntries(statements);
    const threads = new Set(rows.map((row) => Number(row.thread_id)));
    console.info(
      `audit ${flavor}: ${calls.length} API calls, ${threads.size} sessions, ${queries.length} statements, first kinds: ${statementKinds(
        queries,
      ).join(' | ')}`,
    );
    // The log really captured the session (else the test could not fail)…
    expect(queries.some((entry) => /^EXPLAIN/i.test(judgedStatement(entry.text)))).toBe(true);
    expect(queries.some((entry) => /SET SESSION TRANSACTION READ ONLY/i.test(entry.text))).toBe(true);
    expect(queries.length).toBeGreaterThan(15);
    // …and none of it writes or changes server state.
    expect(offending).toEqual([]);
    expect(statements.some((entry) => /^DROP/i.test(entry.text))).toBe(false);
  });
});
