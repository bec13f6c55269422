// Apply DDL on both servers: consent and the allow-list are enforced before any connection, the proposed index is created, errors carry the server code, and each run is in the workspace history.
import fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AnalysisReport } from '../../src/core/model/report.js';
import type { Reply } from '../../src/shared/api.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('apply DDL on $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-apply-ddl-it');
  const admin = new URL(url);
  const value = async <T>(method: string, request: unknown): Promise<T> => {
    const reply = await call(method, request);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.value as T;
  };
  const code = (reply: Reply<unknown>) => (reply.ok ? 'ok' : reply.error.code);

  async function open(
    database: string,
    production: boolean,
  ): Promise<{ connectionId: string; label: string }> {
    const saved = await value<{ profile: { id: string } }>('profiles.save', {
      profile: {
        name: `${production ? 'Prod' : 'Dev'} ${flavor} ${database}`,
        host: admin.hostname,
        port: Number(admin.port),
        user: decodeURIComponent(admin.username),
        database,
        production,
      },
    });
    return value('profiles.connect', { id: saved.profile.id, password: decodeURIComponent(admin.password) });
  }

  async function indexes(database: string): Promise<string[]> {
    const db = await connect(url);
    try {
      const [rows] = await db.query<RowDataPacket[]>(
        'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database, 'products'],
      );
      return rows.map((row) => String(row.name)).sort();
    } finally {
      await db.end();
    }
  }

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('applies the proposed index after consent, refuses anything else, reports server errors and logs each run', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query(
        'CREATE TABLE products (id INT PRIMARY KEY, price DECIMAL(8,2) NOT NULL, create_time DATETIME NOT NULL)',
      );
      await db.query("INSERT INTO products VALUES (1, 10, '2024-10-01'), (2, 20, '2024-11-01')");
      const { connectionId, label } = await open(database, false);
      const report = await value<AnalysisReport>('analyze.run', {
        connectionId,
        sql: 'SELECT id FROM products WHERE MONTH(create_time) = 10',
      });
      const suggestion = report.statements
        .flatMap((statement) => statement.findings)
        .flatMap((finding) => finding.suggestions)
        .find((candidate) => candidate.kind !== 'rewrite' && candidate.ddl.length > 0);
      expect(suggestion?.kind).toBe(flavor === 'mysql' ? 'functional-index' : 'generated-column');
      const ddl = suggestion!.ddl;

      // Refused before anything runs: no consent, a non-DDL statement, a second statement hidden in one entry.
      const refused = {
        noConsent: await call('ddl.apply', { connectionId, statements: ddl }),
        consentFalse: await call('ddl.apply', { connectionId, statements: ddl, consent: false }),
        drop: await call('ddl.apply', { connectionId, statements: ['DROP TABLE products'], consent: true }),
        smuggled: await call('ddl.apply', {
          connectionId,
          statements: ['ALTER TABLE products ADD INDEX ix_price (price); DROP TABLE products'],
          consent: true,
        }),
        update: await call('ddl.apply', {
          connectionId,
          statements: [...ddl, 'UPDATE products SET price = 0'],
          consent: true,
        }),
      };
      expect(Object.fromEntries(Object.entries(refused).map(([key, reply]) => [key, code(reply)]))).toEqual({
        noConsent: 'CONSENT_REQUIRED',
        consentFalse: 'CONSENT_REQUIRED',
        drop: 'INVALID_INPUT',
        smuggled: 'INVALID_INPUT',
        update: 'INVALID_INPUT',
      });
      expect((refused.update as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^Statement ${ddl.length + 1} cannot be applied: UPDATE statements cannot be applied`),
      );
      expect(await indexes(database)).toEqual(['PRIMARY']);

      // With consent: the index exists afterwards (information_schema.STATISTICS).
      const applied = await value<{ applied: { sql: string }[] }>('ddl.apply', {
        connectionId,
        statements: ddl,
        consent: true,
      });
      expect(applied.applied.map((entry) => entry.sql)).toEqual(ddl.map((sql) => sql.replace(/;\s*$/, '')));
      expect(await indexes(database)).toEqual(['PRIMARY', suggestion!.indexName!].sort());

      // Applying it again fails on the server: its code and the statement number come back.
      const again = await call('ddl.apply', { connectionId, statements: ddl, consent: true });
      expect(again.ok).toBe(false);
      const failure = (again as { ok: false; error: { code: string; message: string; serverCode?: number } })
        .error;
      expect({ code: failure.code, serverCode: failure.serverCode }).toEqual({
        code: 'SERVER_ERROR',
        // Duplicate key name (MySQL: the functional index) / duplicate column name (MariaDB: the generated column).
        serverCode: flavor === 'mysql' ? 1061 : 1060,
      });
      expect(failure.message).toMatch(
        new RegExp(`^Statement 1 of ${ddl.length} failed: .*Nothing was changed\\.$`),
      );

      // The analysis session is still read-only; the history has the two runs, not the refused ones.
      const { workspace } = await value<{
        workspace: { writes?: { action: string; sql: string[]; production: boolean; outcome: string }[] };
      }>('workspace.get', { profileId: label });
      expect(
        workspace.writes?.map(({ action, sql, production, outcome }) => ({
          action,
          sql,
          production,
          outcome,
        })),
      ).toEqual([
        {
          action: 'apply-ddl',
          sql: applied.applied.map((entry) => entry.sql),
          production: false,
          outcome: 'done',
        },
        {
          action: 'apply-ddl',
          sql: applied.applied.map((entry) => entry.sql),
          production: false,
          outcome: 'failed',
        },
      ]);
      await value('connection.close', { connectionId });
    });
  });

  it('production: refused without the typed profile name before any connection opens; applied with it', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query('CREATE TABLE products (id INT PRIMARY KEY, price DECIMAL(8,2) NOT NULL)');
      const { connectionId } = await open(database, true);
      const writeConnections = vi.spyOn(connections, 'withWriteConnection');
      const statements = ['CREATE INDEX ix_price ON products (price)'];
      const missing = await call('ddl.apply', { connectionId, statements, consent: true });
      const wrong = await call('ddl.apply', {
        connectionId,
        statements,
        consent: true,
        productionConfirmation: 'prod',
      });
      expect({
        missing: code(missing),
        wrong: code(wrong),
        connections: writeConnections.mock.calls.length,
      }).toEqual({ missing: 'CONSENT_REQUIRED', wrong: 'CONSENT_REQUIRED', connections: 0 });
      expect(await indexes(database)).toEqual(['PRIMARY']);
      await value('ddl.apply', {
        connectionId,
        statements,
        consent: true,
        productionConfirmation: `Prod ${flavor} ${database}`,
      });
      expect({ indexes: await indexes(database), connections: writeConnections.mock.calls.length }).toEqual({
        indexes: ['PRIMARY', 'ix_price'],
        connections: 1,
      });
      writeConnections.mockRestore();
      await value('connection.close', { connectionId });
    });
  });
});
