// LEFT(s, n) = 'lit' → s LIKE 'lit%': exact only where the collation has no expansions. `=` compares
// collation elements and LIKE characters, so under UCA collations (ß = 'ss', æ = 'ae') the two select
// different rows. Each server judges: the rewrite's `equivalent` flag must match what the rows show.
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const VALUES = ['ss', 'ß', 'ßa', 'ssa', 'SS', 'ss ', 'ae', 'æ', 'Æb', 'aeb', 'a', 'ä', 's', 'sß', 'x', ''];

describe.each(testServers())('prefix rewrite and collations on $flavor', ({ flavor, url }) => {
  const collations = [
    'utf8mb4_general_ci',
    'utf8mb4_bin',
    'utf8mb4_unicode_ci',
    'utf8mb4_german2_ci',
    flavor === 'mysql' ? 'utf8mb4_0900_ai_ci' : 'utf8mb4_uca1400_ai_ci',
  ];
  const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0');

  it('the equivalent flag holds exactly where the rows agree (and UCA collations really differ)', async () => {
    const outcomes: string[] = [];
    await withScratchDatabase(url, async (connection) => {
      for (const collation of collations) {
        const ddl = `CREATE TABLE p (id int NOT NULL AUTO_INCREMENT, s varchar(20) CHARACTER SET utf8mb4 COLLATE ${collation}, PRIMARY KEY (id))`;
        await connection.query(`DROP TABLE IF EXISTS p; ${ddl}`);
        await connection.query(
          `INSERT INTO p (s) VALUES ${VALUES.map((value) => `(${connection.escape(value)})`).join(', ')}, (NULL)`,
        );
        const schema = schemaFromDdl(ddl, flavor).schema;
        for (const literal of ['ss', 'ae', 's', 'a']) {
          const sql = `SELECT id FROM p WHERE LEFT(s, ${[...literal].length}) = '${literal}' ORDER BY id`;
          const finding = analyze(sql, { server, source: 'flags', schema }).statements[0]?.findings.find(
            (candidate) => candidate.rule === 'FUN001',
          );
          const rewrite = finding?.suggestions.find((suggestion) => suggestion.kind === 'rewrite');
          expect(rewrite?.rewrittenSql, `${collation} ${literal}`).toMatch(/LIKE/);
          const [original] = await connection.query<RowDataPacket[]>(sql);
          const [rewritten] = await connection.query<RowDataPacket[]>(rewrite?.rewrittenSql ?? '');
          const same = JSON.stringify(original) === JSON.stringify(rewritten);
          outcomes.push(`${collation} '${literal}': ${same ? 'same' : 'differ'}`);
          // An `equivalent` rewrite must return the same rows; a non-equivalent one is allowed to.
          if (rewrite?.equivalent) expect(same, `${collation} '${literal}' marked equivalent`).toBe(true);
          if (!same) expect(rewrite?.equivalent, `${collation} '${literal}'`).toBe(false);
        }
      }
    });
    // Canary: the caveat is real on this server (ß = 'ss' under unicode_ci), and general_ci/bin stay exact.
    expect(outcomes).toContain("utf8mb4_unicode_ci 'ss': differ");
    expect(outcomes).toContain("utf8mb4_general_ci 'ss': same");
    expect(outcomes).toContain("utf8mb4_bin 'ae': same");
  });
});
