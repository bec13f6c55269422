// The API areas through the same dispatch the web bridge and IPC use, on both servers.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/dispatch.js';
import { createHandlers } from '../../src/main/handlers.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import type { AdvisorApi } from '../../src/shared/api.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

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

  it('locks.poll returns an empty view when nothing waits; kill needs confirmation', async () => {
    const snapshot: { waits: unknown[]; roots: unknown[] } = await call('locks.poll', { connectionId });
    expect(snapshot.waits).toEqual([]);
    expect(snapshot.roots).toEqual([]);
    await expect(call('locks.kill', { connectionId, threadId: 1, scope: 'query' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
