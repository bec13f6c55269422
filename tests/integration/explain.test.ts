// EXPLAIN on real servers, and what-if verification of the Advisor's suggestion for the seed scenario.
import { readFileSync } from 'node:fs';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { walkPlan } from '../../src/core/explain/index.js';
import { ConnectionService, resolveTarget } from '../../src/main/services/connection.js';
import { explainStatement } from '../../src/main/services/explain.js';
import { verifyWhatIf } from '../../src/main/services/what-if.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const productsDdl = readFileSync(new URL('../fixtures/seed/products.sql', import.meta.url), 'utf8');
const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10';

/** 24,000 rows over 2019 and 2020, deterministic: row n gets day n % 730 and price n % 1000 / 10. */
async function loadProducts(admin: Connection): Promise<void> {
  await admin.query(productsDdl);
  for (let batch = 0; batch < 24; batch++) {
    const values: string[] = [];
    for (let index = 0; index < 1000; index++) {
      const n = batch * 1000 + index;
      const day = n % 730;
      values.push(
        `('item ${n}', ${(n % 1000) / 10}, TIMESTAMP('2019-01-01 12:00:00') + INTERVAL ${day} DAY)`,
      );
    }
    await admin.query(`INSERT INTO products (description, price, create_time) VALUES ${values.join(',')}`);
  }
  await admin.query('ANALYZE TABLE products');
}

async function showCreate(admin: Connection): Promise<string> {
  const [rows] = await admin.query<RowDataPacket[]>('SHOW CREATE TABLE products');
  return String(rows[0]?.['Create Table']);
}

describe.each(testServers())('EXPLAIN and what-if on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_explain');
  const dsn = `${url.replace(/\/$/, '')}/${database}`;
  const connections = new ConnectionService();
  let admin: Connection;

  beforeAll(async () => {
    admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await loadProducts(admin);
  });
  afterAll(async () => {
    await connections.closeAll();
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('explains the seed query as a full scan, in every format the server has', async () => {
    const opened = await connections.openConnection({ dsn });
    const { connection, server } = connections.get(opened.connectionId);
    const formats = server.capabilities.explainTree
      ? (['json', 'traditional', 'tree'] as const)
      : (['json', 'traditional'] as const);
    const result = await explainStatement(connection, server, seedQuery, { formats });
    const tables = walkPlan(result.plan).filter((node) => node.table === 'products');
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ accessType: 'ALL', key: null });
    expect(tables[0]?.flags).toContain('full-scan');
    expect(Object.keys(result.raw).sort()).toEqual([...formats].sort());
  });

  it('refuses placeholders and non-explainable statements with a clear message', async () => {
    const opened = await connections.openConnection({ dsn });
    const { connection, server } = connections.get(opened.connectionId);
    await expect(
      explainStatement(connection, server, 'SELECT * FROM products WHERE id = ?'),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(explainStatement(connection, server, 'DROP TABLE products')).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    await expect(explainStatement(connection, server, 'SELECT * FROM no_such_table')).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      details: { serverCode: 1146 },
    });
  });

  it('runs ANALYZE only inside a rolled-back read-only transaction', async () => {
    const opened = await connections.openConnection({ dsn });
    const { connection, server } = connections.get(opened.connectionId);
    const result = await explainStatement(connection, server, seedQuery, { analyze: true });
    const scan = walkPlan(result.plan).find((node) => node.table === 'products');
    expect(scan?.rowsActual).not.toBeNull();
    await expect(
      explainStatement(connection, server, 'DELETE FROM products WHERE id = 1', { analyze: true }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    const [[count]] = await admin.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM products');
    expect(Number(count?.n)).toBe(24_000);
  });

  it('verifies the Advisor suggestion and leaves nothing behind', async () => {
    const opened = await connections.openConnection({ dsn });
    const { connection, server } = connections.get(opened.connectionId);
    const schema = await loadSchema(connection, server, database);
    const report = analyze(seedQuery, { server, source: 'dsn', schema });
    const suggestions = report.statements[0]?.findings[0]?.suggestions ?? [];
    const suggestion = suggestions.find(
      (candidate) => candidate.kind === (flavor === 'mysql' ? 'functional-index' : 'generated-column'),
    );
    expect(suggestion).toBeDefined();
    const before = await showCreate(admin);
    const result = await verifyWhatIf(resolveTarget({ dsn }), server, {
      ddl: suggestion?.ddl ?? [],
      table: 'products',
      database,
      beforeSql: seedQuery,
      afterSql: suggestion?.rewrittenSql ?? seedQuery,
      allowWhatIf: true,
    });
    expect(result.method).toBe(flavor === 'mysql' ? 'invisible-index' : 'sandbox');
    expect(result.before).toMatchObject({ accessType: 'ALL', key: null });
    expect(result.after).toMatchObject({ accessType: 'ref', key: suggestion?.indexName });
    expect(result.verdict).toBe('improved');
    expect(result.tableRows).toBeGreaterThan(0);
    expect(await showCreate(admin)).toBe(before);
  });

  it('cleans up when the EXPLAIN after the build fails, and refuses without consent', async () => {
    const opened = await connections.openConnection({ dsn });
    const { server } = connections.get(opened.connectionId);
    const before = await showCreate(admin);
    const ddl = ['ALTER TABLE products ADD INDEX idx_whatif_probe (price)'];
    await expect(
      verifyWhatIf(resolveTarget({ dsn }), server, {
        ddl,
        table: 'products',
        database,
        beforeSql: seedQuery,
        afterSql: 'SELECT * FROM products WHERE no_such_column = 1',
        allowWhatIf: true,
      }),
    ).rejects.toMatchObject({ code: 'SERVER_ERROR', details: { serverCode: 1054 } });
    expect(await showCreate(admin)).toBe(before);
    await expect(
      verifyWhatIf(resolveTarget({ dsn }), server, {
        ddl,
        table: 'products',
        database,
        beforeSql: seedQuery,
        afterSql: seedQuery,
        allowWhatIf: false,
      }),
    ).rejects.toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect(await showCreate(admin)).toBe(before);
  });
});
