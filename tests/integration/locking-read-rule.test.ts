// LCK001 on real servers: the editor's NOWAIT rewrite fails at once on a held row, SKIP LOCKED returns the free rows.
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const productDdl = `CREATE TABLE product (
  p_id int NOT NULL, p_name varchar(60) NOT NULL, p_cost decimal(19,4) NOT NULL,
  p_availability enum('YES','NO') DEFAULT 'NO', PRIMARY KEY (p_id)) ENGINE=InnoDB`;

describe.each(testServers())('LCK001 rewrites on $flavor', ({ flavor, url }) => {
  const database = scratchDatabaseName('sargable_lck');
  let version = '';

  beforeAll(async () => {
    const admin = await connect(url);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    await admin.query(productDdl);
    await admin.query(
      "INSERT INTO product VALUES (1,'a',10,'YES'),(2,'b',20,'YES'),(3,'c',30,'NO'),(5,'e',50,'NO')",
    );
    const [[row]] = await admin.query<RowDataPacket[]>('SELECT VERSION() AS v');
    version = String(row?.v).replace(/-.*/, '');
    await admin.end();
  });
  afterAll(async () => {
    const admin = await connect(url);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  /** The LCK001 rewrite of `sql` whose text contains `option`, for this server. */
  function rewriteOf(sql: string, option: string): string {
    const report = analyze(sql, {
      server: offlineServerInfo(flavor, version),
      source: 'flags',
      schema: schemaFromDdl(productDdl).schema,
    });
    const finding = report.statements[0]?.findings.find((candidate) => candidate.rule === 'LCK001');
    const rewritten = finding?.suggestions.find((suggestion) => suggestion.rewrittenSql?.includes(option));
    if (!rewritten?.rewrittenSql) throw new Error(`no ${option} rewrite of ${sql}`);
    return rewritten.rewrittenSql;
  }

  it('NOWAIT fails at once and SKIP LOCKED skips the row another transaction holds', async () => {
    const holder = await connect(url, database);
    const other = await connect(url, database);
    try {
      await holder.query('START TRANSACTION');
      await holder.query('SELECT * FROM product WHERE p_id = 3 FOR UPDATE');
      await other.query('SET SESSION innodb_lock_wait_timeout = 20');

      const nowait = rewriteOf('SELECT * FROM product WHERE p_id = 3 FOR UPDATE', 'NOWAIT');
      const started = Date.now();
      await expect(other.query(nowait)).rejects.toMatchObject({ errno: flavor === 'mysql' ? 3572 : 1205 });
      // Half the 20 s lock wait a plain FOR UPDATE sits through (MariaDB's NOWAIT error is 1205 too).
      expect(Date.now() - started).toBeLessThan(10_000);

      const skip = rewriteOf('SELECT p_id FROM product WHERE p_id IN (1, 2, 3, 5) FOR UPDATE', 'SKIP LOCKED');
      await other.query('START TRANSACTION');
      const [rows] = await other.query<RowDataPacket[]>(skip);
      expect(rows.map((row) => row.p_id)).toEqual([1, 2, 5]);
      await other.query('ROLLBACK');

      // The shared-lock spelling of this server (FOR SHARE on MySQL, LOCK IN SHARE MODE on MariaDB).
      const shared = rewriteOf(
        flavor === 'mysql'
          ? 'SELECT p_id FROM product WHERE p_id = 3 FOR SHARE'
          : 'SELECT p_id FROM product WHERE p_id = 3 LOCK IN SHARE MODE',
        'NOWAIT',
      );
      await expect(other.query(shared)).rejects.toMatchObject({ errno: flavor === 'mysql' ? 3572 : 1205 });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await other.end();
    }
  });
});
