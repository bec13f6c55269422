// The index design orders equality columns by selectivity when the server's statistics know it (issue 22,
// issue 18 item 8): through indexes.design on both servers, with skewed generated data and histograms.
//
// Canary: the same workload designed without statistics keeps the order the query wrote (a, then b).
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { designWorkloadIndexes, workloadFromText } from '../../src/core/indexing/index.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import type { IndexSetReply } from '../../src/shared/api/indexes.js';
import { testHandlers } from '../support/handlers.js';
import { testServers, withScratchDatabase } from '../support/db.js';
import { openAppConnection } from '../support/ddl-waits.js';
import { sequenceSql } from '../support/seed.js';

const SETUP = [
  'CREATE TABLE s (id INT PRIMARY KEY, a TINYINT NOT NULL, b INT NOT NULL, c INT NOT NULL) ENGINE=InnoDB',
  // a: 2 values (90/10 %), b: 2,000 values.
  `INSERT INTO s SELECT n + 1, IF(n % 10 = 0, 2, 1), (n * 7919) % 2000, n FROM ${sequenceSql(4)} x`,
  'ANALYZE TABLE s',
];
const WORKLOAD = 'SELECT id, c FROM s WHERE a = 1 AND b = 5;';

describe.each(testServers())('selectivity order: $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-selectivity-order');
  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('puts the most selective equality column first when histograms are known', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      await db.query(
        flavor === 'mariadb'
          ? 'ANALYZE TABLE s PERSISTENT FOR COLUMNS (a, b) INDEXES ()'
          : 'ANALYZE TABLE s UPDATE HISTOGRAM ON a, b WITH 1024 BUCKETS',
      );
      // Canary: no statistics, the written order.
      const server = { ...(await detectServerInfo(db)), database };
      const blind = designWorkloadIndexes(
        workloadFromText(WORKLOAD),
        await loadSchema(db, server, database),
        server,
      );
      expect(blind.indexes[0]!.parts.slice(0, 2).map((part) => part.column)).toEqual(['a', 'b']);

      const connectionId = await openAppConnection(call, url, database, false);
      const reply = await call('indexes.design', { sql: WORKLOAD, connectionId });
      if (!reply.ok) throw new Error(reply.error.message);
      const { plan } = reply.value as IndexSetReply;
      expect(plan.indexes[0]!.parts.slice(0, 2).map((part) => part.column)).toEqual(['b', 'a']);
      // The DDL is accepted by the server.
      for (const statement of plan.indexes[0]!.ddl) await db.query(statement);
    });
  });
});
