// Attacks: EXPLAIN that runs code, and files written through the analysis session (issue #20 items 2, 3).
//
// Each flavor gets its own server: secure_file_priv points at a temp dir (the OUTFILE canary) and a
// low-privileged user owns a SQL SECURITY INVOKER function that changes a global variable (the
// global canary) — it only succeeds when someone with more privileges runs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type mysql from 'mysql2/promise';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { explainStatement } from '../../src/main/services/explain.js';
import { explainLockFootprint } from '../../src/main/services/locks.js';
import { connect } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type TestServer } from '../support/servers.js';

const CANARY_VALUE = 4242;

describe.each(['mysql', 'mariadb'] as const)('EXPLAIN never runs hostile code: %s', (flavor) => {
  let server: TestServer;
  let fileDir: string;
  let root: mysql.Connection;
  let original: number;
  const { connections, userDataDir, call } = testHandlers('sargable-sec-explain');
  let connectionId: string;
  let analysis: { connection: Connection; server: ServerInfo };

  beforeAll(async () => {
    fileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-outfile-'));
    fs.chmodSync(fileDir, 0o777);
    server = await startServer(flavor, {
      extraArgs: [`--secure-file-priv=${fileDir}`, '--log-bin-trust-function-creators=1'],
    });
    root = await connect(server.url);
    await root.query('CREATE DATABASE appdb');
    await root.query('CREATE TABLE appdb.t (id INT PRIMARY KEY, v INT)');
    await root.query('INSERT INTO appdb.t VALUES (1, 1), (2, 2), (3, 3)');
    await root.query('CREATE DATABASE lowdb');
    await root.query("CREATE USER 'lowpriv'@'%' IDENTIFIED BY 'lowpriv-pass'");
    await root.query("GRANT ALL ON lowdb.* TO 'lowpriv'@'%'");
    await root.query("GRANT SELECT ON appdb.* TO 'lowpriv'@'%'");
    const low = await connect(server.url.replace(/\/\/[^@]+@/, '//lowpriv:lowpriv-pass@'), 'lowdb');
    try {
      // The attacker's functions: harmless when they run them, a global change when the DBA does.
      await low.query(
        `CREATE FUNCTION evil() RETURNS INT DETERMINISTIC SQL SECURITY INVOKER BEGIN SET GLOBAL max_connect_errors = ${CANARY_VALUE}; RETURN 1; END`,
      );
      await low.query('CREATE FUNCTION slow() RETURNS INT DETERMINISTIC BEGIN DO SLEEP(120); RETURN 1; END');
      await low.query('CREATE SQL SECURITY INVOKER VIEW v AS SELECT evil() AS x');
      await low.query('CREATE SQL SECURITY INVOKER VIEW v2 AS SELECT x FROM v');
    } finally {
      await low.end();
    }
    const [rows] = await root.query<RowDataPacket[]>('SELECT @@GLOBAL.max_connect_errors AS v');
    original = Number(rows[0]!.v);
    const reply = await call('connection.open', {
      host: '127.0.0.1',
      port: server.port,
      user: server.user,
      password: server.password,
      database: 'appdb',
    });
    if (!reply.ok) throw new Error(reply.error.message);
    connectionId = (reply.value as { connectionId: string }).connectionId;
    analysis = connections.get(connectionId);
  });

  afterAll(async () => {
    await connections.closeAll();
    await root?.end().catch(() => undefined);
    await server?.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(fileDir, { recursive: true, force: true });
  });

  async function globalCanary(): Promise<number> {
    const [rows] = await root.query<RowDataPacket[]>('SELECT @@GLOBAL.max_connect_errors AS v');
    return Number(rows[0]!.v);
  }

  async function runningStatements(): Promise<string[]> {
    const [rows] = await root.query<RowDataPacket[]>(
      "SELECT INFO AS info FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND ID <> CONNECTION_ID() AND INFO IS NOT NULL",
    );
    return rows.map((row) => String(row.info));
  }

  const evilSql = 'SELECT * FROM appdb.t WHERE id = (SELECT lowdb.evil())';

  it('the INVOKER canary works: EXPLAIN of it on a plain DBA session changes the global', async () => {
    await root.query(`EXPLAIN ${evilSql}`);
    expect(await globalCanary()).toBe(CANARY_VALUE);
    await root.query(`SET GLOBAL max_connect_errors = ${original}`);
  });

  it('explain.run refuses to plan a statement that calls another user’s function, and says why', async () => {
    const reply = await call('explain.run', { connectionId, sql: evilSql });
    expect(reply).toMatchObject({ ok: false, error: { code: 'CONSENT_REQUIRED' } });
    expect(reply.ok ? '' : reply.error.message).toMatch(/stored function/);
    expect(await globalCanary()).toBe(original);
  });

  it('captured SQL (locks --explain) is never EXPLAINed when it calls a routine', async () => {
    await expect(
      explainLockFootprint(analysis.connection, analysis.server, `${evilSql} FOR UPDATE`, 'appdb'),
    ).rejects.toMatchObject({ code: 'CONSENT_REQUIRED' });
    // Through the analysis session itself, whatever the caller: the guard refuses too.
    await expect(analysis.connection.query(`EXPLAIN ${evilSql}`)).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    await expect(analysis.connection.query(`SELECT lowdb.evil()`)).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    expect(await globalCanary()).toBe(original);
  });

  it('a view whose definition calls the function is not explained either (nested views too)', async () => {
    for (const view of ['lowdb.v', 'lowdb.v2']) {
      const sql = `SELECT * FROM appdb.t WHERE id = (SELECT x FROM ${view})`;
      const reply = await call('explain.run', { connectionId, sql });
      expect(reply, view).toMatchObject({ ok: false, error: { code: 'CONSENT_REQUIRED' } });
      expect(reply.ok ? '' : reply.error.message).toMatch(/view lowdb\.v/);
      await expect(
        explainLockFootprint(analysis.connection, analysis.server, sql, 'appdb'),
      ).rejects.toMatchObject({
        code: 'CONSENT_REQUIRED',
      });
    }
    expect(await globalCanary()).toBe(original);
    // The canary works: on a plain DBA session the same EXPLAIN runs evil() through the view.
    await root.query('EXPLAIN SELECT * FROM appdb.t WHERE id = (SELECT x FROM lowdb.v2)');
    expect(await globalCanary()).toBe(CANARY_VALUE);
    await root.query(`SET GLOBAL max_connect_errors = ${original}`);
  });

  it('EXPLAIN … WHERE id = (SELECT SLEEP(120)) returns within the bound', async () => {
    const started = Date.now();
    const reply = await call('explain.run', {
      connectionId,
      sql: 'SELECT * FROM appdb.t WHERE id = (SELECT SLEEP(120))',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reply.ok).toBe(false);
    expect((await runningStatements()).filter((info) => /SLEEP/i.test(info))).toEqual([]);
  });

  it('the watchdog kills our own EXPLAIN after the time limit, even when the user allowed routine calls', async () => {
    const started = Date.now();
    const reply = await call('explain.run', {
      connectionId,
      sql: 'SELECT * FROM appdb.t WHERE id = lowdb.slow()',
      allowRoutineCalls: true,
      timeoutMs: 1_500,
    });
    const elapsed = Date.now() - started;
    expect(reply).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    // slow() sleeps 120 s: what a watchdog that does not kill leaves (a loaded machine needs seconds).
    expect(elapsed).toBeLessThan(10_000);
    // KILL QUERY reached the server: the statement is not running any more.
    const deadline = Date.now() + 3_000;
    while ((await runningStatements()).some((info) => /slow\(\)/.test(info)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await runningStatements()).filter((info) => /slow\(\)/.test(info))).toEqual([]);
    // The session still works afterwards.
    const again = await call('explain.run', { connectionId, sql: 'SELECT * FROM appdb.t WHERE id = 1' });
    expect(again.ok).toBe(true);
  });

  it('an EXPLAIN can be cancelled: it returns at once and is stopped on the server', async () => {
    const controller = new AbortController();
    const { target } = connections.get(connectionId);
    const { queryKiller } = await import('../../src/main/services/connection.js');
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await expect(
      explainStatement(
        analysis.connection,
        analysis.server,
        'SELECT * FROM appdb.t WHERE id = lowdb.slow()',
        {
          allowRoutineCalls: true,
          timeoutMs: 60_000,
          signal: controller.signal,
          killQuery: queryKiller(target),
        },
      ),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    // The 60 s time limit or slow()'s 120 s is what a cancel that does not stop it waits.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  const outfileTricks = [
    "SELECT 1 INTO/**/OUTFILE '{F}'",
    "SELECT 1 INTO OUTFILE '{F}'",
    "SELECT 1 --\u0001' \n INTO OUTFILE '{F}' -- '",
    "SELECT 1 --\u001f' \n INTO DUMPFILE '{F}' -- '",
    "SELECT 1 /*!INTO OUTFILE '{F}' */",
    "SELECT 1 /*M!100000 INTO OUTFILE '{F}' */",
    "SELECT 1 /*!99999 ' */ INTO OUTFILE '{F}' /*!99999 ' */",
  ];

  it('no statement through the analysis session writes a file on the server host (OUTFILE canary)', async () => {
    const wrappers =
      flavor === 'mariadb'
        ? ['{S}', 'ANALYZE {S}', 'ANALYZE FORMAT=JSON {S}']
        : ['{S}', 'EXPLAIN ANALYZE {S}'];
    let written = 0;
    for (const [index, trick] of outfileTricks.entries()) {
      for (const [w, wrapper] of wrappers.entries()) {
        const file = path.join(fileDir, `guarded-${index}-${w}.txt`);
        const sql = wrapper.replace('{S}', trick.replace('{F}', file));
        const refused = await analysis.connection.query(sql).then(
          () => false,
          (error: { code?: string }) => error.code === 'UNSUPPORTED',
        );
        expect(fs.existsSync(file), sql).toBe(false);
        // The canary works: the same statement on a plain session writes the file, and the guard
        // refused every statement the server would have written with.
        const rawFile = path.join(fileDir, `raw-${index}-${w}.txt`);
        await root.query(wrapper.replace('{S}', trick.replace('{F}', rawFile))).catch(() => undefined);
        if (fs.existsSync(rawFile)) {
          written += 1;
          expect(refused, sql).toBe(true);
        }
      }
    }
    expect(written).toBeGreaterThanOrEqual(outfileTricks.length - 2);
  });
});
