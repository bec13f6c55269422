// Attack: DDL that is not the advisor's through Apply DDL and what-if (issue #20 item 5).
//
// Canary: a table whose shape (SHOW CREATE TABLE) and a second table's existence must not change.
// Every attempt goes through the API as the renderer sends it (ddl.apply with consent, explain.whatIf
// on a connection marked as allowing what-if), under the sql_mode each attack needs.
import fs from 'node:fs';
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/shared/api.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';
import { startServer, type TestServer } from '../support/servers.js';

const ATTACKS = [
  'ALTER TABLE canary ADD INDEX i (a) PARTITION BY HASH (id) PARTITIONS 2',
  'ALTER TABLE canary ADD COLUMN h INT AS (a) VIRTUAL PARTITION BY KEY() PARTITIONS 2',
  'ALTER TABLE canary ADD INDEX i (a), REMOVE PARTITIONING',
  'ALTER TABLE canary PARTITION BY HASH (id) PARTITIONS 2',
  "ALTER TABLE canary ADD INDEX i (a) COMMENT 'x\\', DROP COLUMN s #'",
  "ALTER TABLE canary ADD INDEX i (a) COMMENT 'x\\', DROP COLUMN s, ADD INDEX j (id) COMMENT '",
  'ALTER TABLE canary ADD INDEX i (a) /*!50000 , DROP COLUMN s */',
  'ALTER TABLE canary ADD INDEX i (a) /*M! , DROP COLUMN s */',
  'ALTER TABLE canary ADD INDEX i (a) --\u0001x\n, DROP COLUMN s',
  'ALTER TABLE canary DROP COLUMN s',
  'ALTER TABLE canary MODIFY s VARCHAR(5)',
  'ALTER TABLE canary ADD INDEX i (a), ENGINE=MyISAM',
  'DROP TABLE bystander',
  'ALTER TABLE bystander RENAME TO gone',
];

/** The attacks ddl.apply accepted (each must be refused). */
async function applied(
  call: (method: string, request: unknown) => Promise<Reply<unknown>>,
  connectionId: string,
): Promise<string[]> {
  const accepted: string[] = [];
  for (const sql of ATTACKS) {
    const reply = await call('ddl.apply', { connectionId, statements: [sql], consent: true });
    if (reply.ok) accepted.push(sql);
  }
  return accepted;
}

async function setup(db: mysql.Connection): Promise<void> {
  await db.query(
    'CREATE TABLE canary (id INT PRIMARY KEY, a INT, s VARCHAR(20), g INT AS (a + 1) VIRTUAL, KEY ka (a))',
  );
  await db.query('CREATE TABLE bystander (id INT PRIMARY KEY)');
  await db.query("INSERT INTO canary (id, a, s) VALUES (1, 1, 'x'), (2, 2, 'y')");
}

async function shape(db: mysql.Connection): Promise<string> {
  const [rows] = await db.query<RowDataPacket[]>('SHOW CREATE TABLE canary');
  const [tables] = await db.query<RowDataPacket[]>('SHOW TABLES');
  return `${String(rows[0]!['Create Table'])}\n${tables.map((row) => String(Object.values(row)[0])).join(',')}`;
}

/** Opens an API connection (what-if allowed) to `url`'s server in `database`. */
async function openVia(
  call: (method: string, request: unknown) => Promise<Reply<unknown>>,
  url: string,
  database: string,
): Promise<string> {
  const admin = new URL(url);
  const reply = await call('connection.open', {
    host: admin.hostname,
    port: Number(admin.port),
    user: decodeURIComponent(admin.username),
    password: decodeURIComponent(admin.password),
    database,
    allowWhatIf: true,
  });
  if (!reply.ok) throw new Error(reply.error.message);
  return (reply.value as { connectionId: string }).connectionId;
}

describe.each(testServers())('Apply DDL and what-if allow-list: $flavor', ({ url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-sec-apply');

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('refuses every non-advisor change through ddl.apply', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await setup(db);
      const before = await shape(db);
      const connectionId = await openVia(call, url, database);
      expect(await applied(call, connectionId)).toEqual([]);
      expect(await shape(db)).toBe(before);
    });
  });

  it('the NO_BACKSLASH_ESCAPES comment attack really drops a column when nothing stops it (the canary works)', async () => {
    await withScratchDatabase(url, async (db) => {
      await setup(db);
      await db.query("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'");
      await db
        .query("ALTER TABLE canary ADD INDEX i (a) COMMENT 'x\\', DROP COLUMN s #'")
        .catch(() => undefined);
      const [rows] = await db.query<RowDataPacket[]>("SHOW COLUMNS FROM canary LIKE 's'");
      expect(rows).toHaveLength(0);
    });
  });

  it('applies the advisor own changes, and drops a generated column but never a regular one', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await setup(db);
      const connectionId = await openVia(call, url, database);
      const ok = await call('ddl.apply', {
        connectionId,
        statements: ['ALTER TABLE canary ADD INDEX idx_s (s), DROP COLUMN g, ALGORITHM=INPLACE, LOCK=NONE'],
        consent: true,
      });
      expect(ok.ok, ok.ok ? '' : ok.error.message).toBe(true);
      const regular = await call('ddl.apply', {
        connectionId,
        statements: ['ALTER TABLE canary DROP INDEX idx_s, DROP COLUMN s'],
        consent: true,
      });
      expect(regular).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(regular.ok ? '' : regular.error.message).toMatch(/not a generated column/);
      const [columns] = await db.query<RowDataPacket[]>("SHOW COLUMNS FROM canary LIKE 's'");
      expect(columns).toHaveLength(1);
      const [indexes] = await db.query<RowDataPacket[]>("SHOW INDEX FROM canary WHERE Key_name = 'idx_s'");
      expect(indexes).toHaveLength(1);
    });
  });

  it('what-if builds only index and generated-column additions on the analysed table', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await setup(db);
      const before = await shape(db);
      const connectionId = await openVia(call, url, database);
      const whatIf = (ddl: string[]) =>
        call('explain.whatIf', {
          connectionId,
          sql: 'SELECT * FROM canary WHERE s = "x"',
          table: 'canary',
          ddl,
          confirmed: true,
        });
      for (const ddl of [
        ['DROP TABLE bystander'],
        ['ALTER TABLE canary DROP COLUMN s'],
        ['ALTER TABLE canary DROP INDEX ka'],
        ['ALTER TABLE bystander ADD INDEX i (id)'],
        ['ALTER TABLE canary ADD INDEX i (s)', 'DROP TABLE bystander'],
        ['ALTER TABLE canary PARTITION BY HASH (id) PARTITIONS 2'],
        ["ALTER TABLE canary ADD INDEX i (a) COMMENT 'x\\', DROP COLUMN s #'"],
      ]) {
        const reply = await whatIf(ddl);
        expect(reply, ddl.join('; ')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      }
      expect(await shape(db)).toBe(before);
      const good = await whatIf(['ALTER TABLE canary ADD INDEX idx_whatif (s)']);
      expect(good.ok, good.ok ? '' : good.error.message).toBe(true);
      // Built and cleaned up again.
      expect(await shape(db)).toBe(before);
    });
  });
});

// The same attacks on servers whose sessions default to NO_BACKSLASH_ESCAPES, where the COMMENT
// attack is a real DROP COLUMN (the MariaDB break of issue #20).
describe.each(['mysql', 'mariadb'] as const)(
  'Apply DDL under a NO_BACKSLASH_ESCAPES server: %s',
  (flavor) => {
    let server: TestServer;
    const { connections, userDataDir, call } = testHandlers('sargable-sec-apply-nbe');

    beforeAll(async () => {
      server = await startServer(flavor, { extraArgs: ['--sql-mode=NO_BACKSLASH_ESCAPES'] });
    });

    afterAll(async () => {
      await connections.closeAll();
      fs.rmSync(userDataDir, { recursive: true, force: true });
      await server?.stop();
    });

    it('refuses every attack, and the column the COMMENT attack targets is still there', async () => {
      await withScratchDatabase(server.url, async (db, database) => {
        await setup(db);
        const before = await shape(db);
        const connectionId = await openVia(call, server.url, database);
        expect(await applied(call, connectionId)).toEqual([]);
        expect(await shape(db)).toBe(before);
        // The canary works: run unguarded in a session of this server, the attack drops `s`.
        const raw = await connect(server.url, database);
        try {
          await raw.query("ALTER TABLE canary ADD INDEX i (a) COMMENT 'x\\', DROP COLUMN s #'");
          const [rows] = await raw.query<RowDataPacket[]>("SHOW COLUMNS FROM canary LIKE 's'");
          expect(rows).toHaveLength(0);
        } finally {
          await raw.end();
        }
      });
    });
  },
);
