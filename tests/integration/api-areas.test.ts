// The API areas through the same dispatch the web bridge and IPC use, on both servers.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/dispatch.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import type { AdvisorApi } from '../../src/shared/api.js';
import { servedSql, type Finding, type Suggestion } from '../../src/core/model/report.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const DIGITS =
  'SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9';
const productsDdl = readFileSync(new URL('../fixtures/seed/products.sql', import.meta.url), 'utf8');

describe.each(testServers())('API areas on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_api');
  const connections = new ConnectionService();
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'sargable-api-'));
  const handlers: AdvisorApi = createHandlers({
    connections,
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    userDataDir,
  });
  const call = async (method: string, request: unknown) => {
    const reply = await dispatch(handlers, method, request);
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
    return reply.value as never;
  };
  let connectionId = '';

  beforeAll(async () => {
    const admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query(productsDdl);
    await admin.end();
    ({ connectionId } = await call('connection.open', { dsn: `${url.replace(/\/$/, '')}/${database}` }));
  });
  afterAll(async () => {
    await connections.closeAll();
    const admin = await connect(url);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('sqlmode.view explains the live modes', async () => {
    const view: { flavor: string; global: { modes: { name: string }[] } } = await call('sqlmode.view', {
      connectionId,
    });
    expect(view.flavor).toBe(flavor);
    expect(view.global.modes.map((mode) => mode.name)).toContain('STRICT_TRANS_TABLES');
  });

  it('sqlmode.upgrade predicts what breaks, and rejects unknown modes with the valid list', async () => {
    const report: { failing: number } = await call('sqlmode.upgrade', {
      sql: 'INSERT INTO products (id) VALUES (1)',
      target: { flavor, version: flavor === 'mysql' ? '8.0.33' : '10.11.6' },
      schemaSql: 'CREATE TABLE products (id int, price decimal(8,2) NOT NULL)',
    });
    expect(report.failing).toBe(1);
    await expect(
      call('sqlmode.upgrade', { sql: 'SELECT 1', target: { flavor, version: '8.0.33' }, sqlMode: 'NOPE' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('workspace: add from a live analysis, export preview with rollback, saved to disk', async () => {
    const report = await call('analyze.run', {
      sql: 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10',
      connectionId,
    });
    const added: { added: number; path: string } = await call('workspace.addFromAnalysis', {
      profileId: `p-${flavor}`,
      report,
    });
    expect(added.added).toBe(1);
    expect(JSON.parse(readFileSync(added.path, 'utf8')).items).toHaveLength(1);
    const version = flavor === 'mysql' ? '8.0.33' : '10.11.6';
    const preview: { script: { text: string } } = await call('export.preview', {
      profileId: `p-${flavor}`,
      flavor,
      version,
      connectionId,
    });
    expect(preview.script.text).toMatch(
      flavor === 'mysql'
        ? /ADD INDEX .*\(\(MONTH\(create_time\)\)\)/
        : /GENERATED ALWAYS AS \(MONTH\(create_time\)\) VIRTUAL/,
    );
    // Live environment: table sizes from information_schema feed the large-table warning.
    const admin = await connect(url, database);
    await admin.query(
      "INSERT INTO products (price, create_time) VALUES (1, '2019-10-01'), (2, '2019-10-02'), (3, '2019-11-01')",
    );
    await admin.query('ANALYZE TABLE products');
    await admin.end();
    const warned: { script: { warnings: string[] } } = await call('export.preview', {
      profileId: `p-${flavor}`,
      flavor,
      version,
      connectionId,
      largeTableRows: 1,
    });
    expect(warned.script.warnings.some((warning) => /Table products is large/.test(warning))).toBe(true);
    expect(warned.script.warnings.some((warning) => /Group Replication|Galera/.test(warning))).toBe(false);
    const rollback: { script: { text: string } } = await call('export.preview', {
      profileId: `p-${flavor}`,
      flavor,
      version,
      rollback: true,
    });
    expect(rollback.script.text).toMatch(/DROP INDEX/);
  });

  it('what-if verification is kept in the workspace and printed in the export script', async () => {
    const admin = await connect(url, database);
    // 2,000 rows over two years, so the index is worth using after the build.
    await admin.query(
      `INSERT INTO products (price, create_time)
       SELECT a.d + 10 * b.d, TIMESTAMP('2018-01-01') + INTERVAL (a.d + 10 * b.d + 100 * c.d + 1000 * e.d) * 9 HOUR
       FROM (${DIGITS}) a, (${DIGITS}) b, (${DIGITS}) c, (SELECT 0 AS d UNION ALL SELECT 1) e`,
    );
    await admin.query('ANALYZE TABLE products');
    await admin.end();
    const sandbox: { connectionId: string } = await call('connection.open', {
      dsn: `${url.replace(/\/$/, '')}/${database}`,
      allowWhatIf: true,
    });
    const sql = "SELECT id FROM products WHERE DATE(create_time) = '2018-03-01'";
    const report: {
      statements: {
        findings: { table: string; suggestions: { kind: string; ddl: string[]; rewrittenSql?: string }[] }[];
      }[];
    } = await call('analyze.run', { sql, connectionId: sandbox.connectionId });
    const finding = report.statements[0]?.findings[0];
    const suggestion = finding?.suggestions.find(
      (candidate) => candidate.kind !== 'rewrite' && candidate.ddl.length > 0,
    );
    expect(suggestion).toBeDefined();
    const reply: { verdict: string; record: { usesIndex: boolean; before: unknown[]; after: unknown[] } } =
      await call('explain.whatIf', {
        connectionId: sandbox.connectionId,
        sql,
        table: 'products',
        ddl: suggestion?.ddl,
        confirmed: true,
        rewrittenSql: servedSql(finding as Finding, suggestion as Suggestion),
      });
    expect(reply.record).toMatchObject({
      usesIndex: true,
      verdict: 'improved',
      before: [{ table: 'products', type: 'ALL', key: null }],
    });
    const profileId = `verify-${flavor}`;
    const kept: { item: { status: string; verification?: unknown } } = await call(
      'workspace.recordVerification',
      {
        profileId,
        table: 'products',
        sql,
        suggestion,
        record: reply.record,
      },
    );
    expect(kept.item).toMatchObject({ status: 'pending', verification: reply.record });
    // Accepting the same suggestion later promotes the pending item and keeps its record.
    const accepted: { workspace: { items: { status: string; verification?: unknown }[] }; path: string } =
      await call('workspace.addFromAnalysis', { profileId, report, pick: suggestion?.kind });
    expect(accepted.workspace.items).toEqual([
      expect.objectContaining({ status: 'accepted', verification: reply.record }),
    ]);
    expect(JSON.parse(readFileSync(accepted.path, 'utf8')).items[0].verification).toEqual(reply.record);
    const preview: { script: { text: string } } = await call('export.preview', {
      profileId,
      flavor,
      version: flavor === 'mysql' ? '8.0.33' : '10.11.6',
    });
    expect(preview.script.text).toMatch(/-- +EXPLAIN before: products type=ALL key=NULL/);
    expect(preview.script.text).toMatch(/-- +Result: improved, .*uses the new index/);
    await call('connection.close', { connectionId: sandbox.connectionId });
  });

  it('locks.poll returns an empty view when nothing waits; kill needs confirmation', async () => {
    const snapshot: { waits: unknown[]; roots: unknown[] } = await call('locks.poll', { connectionId });
    expect(snapshot.waits).toEqual([]);
    expect(snapshot.roots).toEqual([]);
    await expect(call('locks.kill', { connectionId, threadId: 1, scope: 'query' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
