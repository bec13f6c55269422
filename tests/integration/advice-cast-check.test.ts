// Issue 17: a CAST of a VARCHAR column in proposed DDL is checked on a live sample of the stored values.
// One value that does not convert makes the server reject the DDL, so the advice withdraws it (with the
// count and the value); with clean data the DDL stays, says the sample size, and the server accepts it.
import { describe, expect, it } from 'vitest';
import { ConnectionService } from '../../src/main/services/connection.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { runLiveAnalysis } from '../../src/main/services/analysis.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const DDL = `CREATE TABLE orders_text (
  id int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  ref varchar(30) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL
) ENGINE=InnoDB`;
/** 300 numeric strings in the spellings an integer CAST accepts (spaces, sign), and NULLs. */
const LOAD = `INSERT INTO orders_text (ref)
WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 299)
SELECT CASE n % 5 WHEN 0 THEN CAST(n AS CHAR) WHEN 1 THEN CONCAT(' ', n) WHEN 2 THEN CONCAT('-', n)
  WHEN 3 THEN CONCAT('+', n) ELSE NULL END FROM seq`;
const CANARY = 'n/a (legacy import row 17)';
const QUERY = 'SELECT id FROM orders_text WHERE CAST(ref AS SIGNED) = 42';

describe.each(testServers())('CAST check on live data ($flavor)', ({ url }) => {
  async function advise(database: string) {
    const connections = new ConnectionService();
    // The app's read-only, guarded analysis session: the check must pass the statement guard.
    const opened = await connections.openConnection({ dsn: `${url}${database}` });
    try {
      const { connection: session, server } = connections.get(opened.connectionId);
      const live = await loadSchema(session, server, database, ['orders_text']);
      const report = await runLiveAnalysis(session, QUERY, server, live);
      const finding = report.statements[0]?.findings.find((candidate) => candidate.rule === 'FUN001');
      expect(finding, JSON.stringify(report.statements[0]?.findings)).toBeDefined();
      return finding!;
    } finally {
      await connections.closeAll();
    }
  }

  it('withdraws the CAST DDL when one stored value does not convert, with the count and the value', async () => {
    await withScratchDatabase(url, async (admin, database) => {
      await admin.query(DDL);
      await admin.query(LOAD);
      await admin.query('INSERT INTO orders_text (ref) VALUES (?)', [CANARY]);
      const finding = await advise(database);
      const castDdl = finding.suggestions.filter((s) => s.ddl.some((ddl) => /CAST\(/i.test(ddl)));
      expect(castDdl).toEqual([]);
      const reason = (finding.notes ?? []).find((note) => note.includes('not a valid number'));
      expect(reason).toMatch(/1 of all 241 non-NULL ref values is not a valid number/);
      expect(reason).toContain(`'${CANARY}'`);
      // The server agrees: the DDL the clean case proposes fails on this data.
      await expect(
        admin.query(
          'ALTER TABLE orders_text ADD COLUMN ref_cast bigint GENERATED ALWAYS AS (CAST(ref AS SIGNED)) VIRTUAL, ADD INDEX ix_ref_cast (ref_cast)',
        ),
      ).rejects.toThrow();
    });
  });

  it('keeps the CAST DDL when every stored value converts, states the sample, and the server accepts it', async () => {
    await withScratchDatabase(url, async (admin, database) => {
      await admin.query(DDL);
      await admin.query(LOAD);
      const finding = await advise(database);
      const castDdl = finding.suggestions.filter((s) => s.ddl.some((ddl) => /CAST\(/i.test(ddl)));
      expect(castDdl.length).toBeGreaterThan(0);
      for (const suggestion of castDdl) {
        expect(suggestion.notes).toContain('Live check: all 240 non-NULL ref values convert to SIGNED.');
        for (const ddl of suggestion.ddl) await admin.query(ddl);
        const [rows] = await admin.query('SHOW INDEX FROM orders_text');
        expect((rows as unknown[]).length).toBeGreaterThan(1);
      }
    });
  });
});
