// The what-if confirmation lists every statement the run sends (core/explain/what-if.ts), and the run sends exactly
// those, on both servers: the lock-wait limit, the build (INVISIBLE on MySQL), ANALYZE TABLE, the optimizer switch,
// and the drop of what the build added. The verdict comes with the numbers that decided it and names the table.
import { readFileSync } from 'node:fs';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { planVerdict } from '../../src/core/explain/index.js';
import { WHAT_IF_LOCK_WAIT_SECONDS, whatIfSteps } from '../../src/core/explain/what-if.js';
import { whatIfDdl } from '../../src/core/indexing/index.js';
import { ConnectionService, resolveTarget } from '../../src/main/services/connection.js';
import { verifyWhatIf } from '../../src/main/services/what-if.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const productsDdl = readFileSync(new URL('../fixtures/seed/products.sql', import.meta.url), 'utf8');
const seedQuery = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10';

describe.each(testServers())('what-if statements on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_whatif');
  const dsn = `${url.replace(/\/$/, '')}/${database}`;
  const connections = new ConnectionService();
  let admin: Connection;

  beforeAll(async () => {
    admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query(productsDdl);
    const values: string[] = [];
    for (let n = 1; n <= 6000; n++)
      values.push(
        `(${n}, 'item ${n}', ${(n % 1000) / 10}, TIMESTAMP('2019-01-01 12:00:00') + INTERVAL ${n % 730} DAY)`,
      );
    await admin.query(
      `INSERT INTO products (id, description, price, create_time) VALUES ${values.join(',')}`,
    );
    await admin.query('ANALYZE TABLE products');
  });
  afterAll(async () => {
    await connections.closeAll();
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('runs exactly the listed statements for every DDL suggestion of the finding, and names the table in the verdict', async () => {
    const opened = await connections.openConnection({ dsn });
    const { connection, server } = connections.get(opened.connectionId);
    const schema = await loadSchema(connection, server, database);
    const report = analyze(seedQuery, { server, source: 'dsn', schema });
    const suggestions = (report.statements[0]?.findings[0]?.suggestions ?? []).filter(
      (suggestion) => suggestion.kind !== 'rewrite' && suggestion.ddl.length > 0,
    );
    expect(suggestions.map((suggestion) => suggestion.kind)).toContain('generated-column');
    const [before] = await admin.query<RowDataPacket[]>('SHOW CREATE TABLE products');
    for (const suggestion of suggestions) {
      const ddl = suggestion.ddl.map(whatIfDdl);
      const afterSql = suggestion.rewrittenSql ?? seedQuery;
      const method = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
      const listed = whatIfSteps({
        table: 'products',
        ddl,
        method,
        flavor,
        lockWaitSeconds: WHAT_IF_LOCK_WAIT_SECONDS,
        beforeSql: seedQuery,
        afterSql,
      });
      const result = await verifyWhatIf(resolveTarget({ dsn }), server, {
        ddl,
        table: 'products',
        database,
        beforeSql: seedQuery,
        afterSql,
        allowWhatIf: true,
        lockWaitTimeoutSeconds: WHAT_IF_LOCK_WAIT_SECONDS,
      });
      // Reads (SHOW CREATE TABLE, EXPLAIN) are listed too; everything else ran exactly as listed, in order.
      const restore = /^ALTER TABLE `products` AUTO_INCREMENT = \d+$/;
      expect(
        result.ran.filter((sql) => !restore.test(sql)),
        suggestion.kind,
      ).toEqual(listed.filter((step) => step.kind !== 'read').map((step) => step.sql));
      const sql = listed.map((step) => step.sql).join('\n');
      expect(sql).toContain('ANALYZE TABLE `products`');
      expect(sql).toMatch(/^ALTER TABLE `products` DROP INDEX `[^`<]+`/m);
      if (flavor === 'mysql') {
        expect(sql).toContain("SET SESSION optimizer_switch = 'use_invisible_indexes=on'");
        expect(listed.filter((step) => step.kind === 'write')[0]?.sql).toMatch(/ INVISIBLE$/);
      } else expect(sql).not.toContain('optimizer_switch');

      expect(result.table).toBe('products');
      expect(result.verdict).toBe('improved');
      expect(planVerdict(result.before, result.after)).toMatchObject({
        verdict: result.verdict,
        reason: result.reason,
      });
      expect(result.reason).toMatch(/rows examined (\d+(\.\d)?× lower|−\d+%)/);
    }
    const [after] = await admin.query<RowDataPacket[]>('SHOW CREATE TABLE products');
    expect(after).toEqual(before);
  }, 120_000);
});
