// schema.outline on real servers: the completion outline through the guarded read-only session, bounded.
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/dispatch.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import type { SchemaOutline } from '../../src/core/sql/completion.js';
import { testServers, withScratchDatabase } from '../support/db.js';

describe.each(testServers())('schema.outline on $flavor', ({ url }) => {
  const connections = new ConnectionService();
  const handlers = createHandlers({ connections, app: { name: 'Sargable', version: 'test', mode: 'web' } });
  afterAll(async () => {
    await connections.closeAll();
  });

  it('lists the default database first with its tables, views and typed columns, then the others', async () => {
    await withScratchDatabase(url, async (admin, database) => {
      await admin.query(`CREATE TABLE products (id INT UNSIGNED NOT NULL PRIMARY KEY, price DECIMAL(8,2),
          create_time TIMESTAMP NULL);
        CREATE TABLE \`order items\` (id BIGINT, \`order\` INT);
        CREATE VIEW cheap AS SELECT id, price FROM products WHERE price < 10;`);
      const opened = await dispatch(handlers, 'connection.open', {
        dsn: `${url.replace(/\/$/, '')}/${database}`,
      });
      if (!opened.ok) throw new Error(opened.error.message);
      const { connectionId } = opened.value as { connectionId: string };
      const reply = await dispatch(handlers, 'schema.outline', { connectionId });
      if (!reply.ok) throw new Error(reply.error.message);
      const outline = reply.value as SchemaOutline;
      expect(outline.defaultDatabase).toBe(database);
      expect(outline.truncated).toBe(false);
      expect(outline.databases[0]).toEqual({
        name: database,
        tables: [
          {
            name: 'cheap',
            kind: 'view',
            columns: [
              { name: 'id', type: 'int unsigned' },
              { name: 'price', type: 'decimal(8,2)' },
            ],
          },
          {
            name: 'order items',
            kind: 'table',
            columns: [
              { name: 'id', type: 'bigint' },
              { name: 'order', type: 'int' },
            ],
          },
          {
            name: 'products',
            kind: 'table',
            columns: [
              { name: 'id', type: 'int unsigned' },
              { name: 'price', type: 'decimal(8,2)' },
              { name: 'create_time', type: 'timestamp' },
            ],
          },
        ],
      });
      // System schemas are left out.
      expect(outline.databases.map((entry) => entry.name)).not.toContain('mysql');
      expect(outline.databases.map((entry) => entry.name)).not.toContain('information_schema');
      await dispatch(handlers, 'connection.close', { connectionId });
    });
  });

  it('builds the offline outline from CREATE TABLE text', async () => {
    const reply = await dispatch(handlers, 'schema.outline', {
      schemaSql: 'CREATE TABLE t (a INT, b VARCHAR(10));',
      flavor: 'mariadb',
    });
    expect(reply).toEqual({
      ok: true,
      value: {
        defaultDatabase: '',
        truncated: false,
        databases: [
          {
            name: '',
            tables: [
              {
                name: 't',
                kind: 'table',
                columns: [
                  { name: 'a', type: 'int' },
                  { name: 'b', type: 'varchar(10)' },
                ],
              },
            ],
          },
        ],
      },
    });
  });
});
