// Unused indexes from the server's own counters (services/index-usage.ts, core/indexing/unused.ts), on both
// servers, through the indexes.design handler the Index set view calls.
//
// Canary: before the workload reads through ka, ka is reported unused too; after, only kb (and the foreign
// key's index) are. So the verdict follows the server's counters, not the schema. The DROP steps run on
// the server; the foreign key's index refuses DROP (ERROR 1553), as its note says.
import fs from 'node:fs';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexSetReply } from '../../src/shared/api/indexes.js';
import { testHandlers } from '../support/handlers.js';
import { testServers, withScratchDatabase } from '../support/db.js';
import { openAppConnection } from '../support/ddl-waits.js';
import { sequenceSql } from '../support/seed.js';

const SETUP = [
  'CREATE TABLE parent (id INT PRIMARY KEY) ENGINE=InnoDB',
  `CREATE TABLE t (id INT PRIMARY KEY, a INT NOT NULL, b INT NOT NULL, c INT NOT NULL, d INT NOT NULL,
     parent_id INT NOT NULL, KEY ka (a), KEY kb (b), UNIQUE KEY uc (c), KEY kd (d), KEY kp (parent_id),
     CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES parent (id)) ENGINE=InnoDB`,
  'INSERT INTO parent VALUES (1), (2)',
  `INSERT INTO t SELECT n, n % 10, n % 7, n, n % 5, 1 + n % 2 FROM ${sequenceSql(2)} s`,
];
// kd serves the workload as it is: never proposed for dropping, even without reads.
const WORKLOAD = 'SELECT id FROM t WHERE c = 5;\nSELECT id FROM t WHERE d = 2;';

async function globalValue(db: Connection, name: string): Promise<string> {
  const [rows] = await db.query<RowDataPacket[]>('SHOW GLOBAL VARIABLES LIKE ?', [name]);
  return String(rows[0]?.Value ?? '');
}

describe.each(testServers())('unused indexes: $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-index-usage');
  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  async function design(database: string): Promise<IndexSetReply> {
    const connectionId = await openAppConnection(call, url, database, false);
    try {
      const reply = await call('indexes.design', { sql: WORKLOAD, connectionId });
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.value as IndexSetReply;
    } finally {
      await call('connection.close', { connectionId });
    }
  }

  it('reports indexes without reads with the window and the safe DROP order, or says it cannot tell', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const performanceSchema = /^(1|on)$/i.test(await globalValue(db, 'performance_schema'));
      const userstatBefore = flavor === 'mariadb' ? await globalValue(db, 'userstat') : '';
      if (flavor === 'mariadb' && !performanceSchema) {
        if (/^(1|on)$/i.test(userstatBefore)) await db.query('SET GLOBAL userstat = OFF');
        try {
          // Without counters MariaDB cannot tell: no index is called unused.
          const blind = await design(database);
          expect(blind.unused?.status).toBe('unknown');
          expect(blind.unused?.reason).toMatch(/userstat=ON/);
          expect(blind.unused?.indexes).toEqual([]);
        } finally {
          // Switched on for this test only (it only counts), and back as it was in the finally below.
          await db.query('SET GLOBAL userstat = ON');
        }
      }
      try {
        // Open the table so performance_schema has rows for it; nothing reads through ka yet.
        await db.query('SELECT COUNT(*) FROM t IGNORE INDEX (ka, kb, uc, kd, kp)');
        const before = await design(database);
        expect(before.unused?.status).toBe('measured');
        expect(before.unused?.source).toBe(performanceSchema ? 'performance_schema' : 'index_statistics');
        expect(before.unused?.indexes.map((entry) => entry.index).sort()).toEqual(['ka', 'kb', 'kp']);
        expect(before.unused?.caveats.join(' ')).toContain('t.kd has no reads in the window either');

        // The workload reads through ka: only kb and the foreign key's kp stay unused.
        await db.query('SELECT id FROM t FORCE INDEX (ka) WHERE a = 3');
        const after = await design(database);
        const unused = after.unused!;
        expect(unused.indexes.map((entry) => entry.index).sort()).toEqual(['kb', 'kp']);
        expect(unused.uptimeSeconds).toBeGreaterThan(0);
        expect(unused.caveats.join(' ')).toMatch(performanceSchema ? /since the server started/ : /userstat/);
        const kb = unused.indexes.find((entry) => entry.index === 'kb')!;
        const kp = unused.indexes.find((entry) => entry.index === 'kp')!;
        expect(kp.foreignKey).toBe('fk_parent');
        expect(kb.ddl[0]).toMatch(
          flavor === 'mariadb' ? /ALTER INDEX `?kb`? IGNORED;$/ : /ALTER INDEX `?kb`? INVISIBLE;$/,
        );
        expect(kb.ddl.at(-1)).toMatch(/^ALTER TABLE `?t`? DROP INDEX `?kb`?;$/);
        // The steps are accepted by the server, in order.
        for (const statement of kb.ddl) await db.query(statement);
        // The foreign key's index: DROP is refused, as its note says.
        await expect(db.query(kp.ddl.at(-1)!)).rejects.toMatchObject({ errno: 1553 });
      } finally {
        if (flavor === 'mariadb' && !performanceSchema)
          await db.query(`SET GLOBAL userstat = ${/^(1|on)$/i.test(userstatBefore) ? 'ON' : 'OFF'}`);
      }
    });
  });
});
