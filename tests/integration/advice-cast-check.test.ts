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

// Dates: the server decides. '2024-01-02abc' and '2024-01-02 10:00:00 x' convert to a date with warning
// 1292 (CAST is not NULL), and that warning makes the ALTER fail; MySQL's delimiter deprecation notes
// (' 2024-01-03', '2024/01/04': warnings 4095/4096) do not, so those rows must not withdraw the DDL.
const DATES_DDL = `CREATE TABLE events_text (
  id int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  d varchar(30) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL
) ENGINE=InnoDB`;
/** 200 dates in spellings both servers convert, deprecated delimiters, and NULLs. */
const DATES_LOAD = `INSERT INTO events_text (d)
WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 199)
SELECT CASE n % 5 WHEN 0 THEN DATE_FORMAT('2024-01-01' + INTERVAL n DAY, '%Y-%m-%d')
  WHEN 1 THEN DATE_FORMAT('2024-01-01' + INTERVAL n DAY, '%Y%m%d')
  WHEN 2 THEN DATE_FORMAT('2024-01-01' + INTERVAL n DAY, '%Y-%c-%e')
  WHEN 3 THEN CONCAT(IF(n % 2 = 0, ' ', ''), DATE_FORMAT('2024-01-01' + INTERVAL n DAY, '%Y/%m/%d'))
  ELSE NULL END FROM seq`;

describe.each(testServers())('CAST … AS DATE check on live data ($flavor)', ({ url }) => {
  async function advise(database: string, query: string) {
    const connections = new ConnectionService();
    const opened = await connections.openConnection({ dsn: `${url}${database}` });
    try {
      const { connection: session, server } = connections.get(opened.connectionId);
      const live = await loadSchema(session, server, database, ['events_text']);
      const report = await runLiveAnalysis(session, query, server, live);
      const finding = report.statements[0]?.findings.find((candidate) => candidate.rule === 'FUN001');
      expect(finding, JSON.stringify(report.statements[0]?.findings)).toBeDefined();
      return finding!;
    } finally {
      await connections.closeAll();
    }
  }
  const castDdlOf = (finding: { suggestions: { ddl: string[]; notes: string[] }[] }) =>
    finding.suggestions.filter((s) => s.ddl.some((ddl) => /CAST\(/i.test(ddl)));
  const QUERY = "SELECT id FROM events_text WHERE CAST(d AS DATE) = '2024-02-01'";
  const GENERATED =
    'ALTER TABLE events_text ADD COLUMN d_date date GENERATED ALWAYS AS (CAST(d AS DATE)) VIRTUAL, ADD INDEX ix_d_date (d_date)';

  for (const canary of ['2024-01-02abc', '2024-01-02 10:00:00 x'])
    it(`withdraws the DDL for '${canary}', which CAST converts with a warning (not NULL)`, async () => {
      await withScratchDatabase(url, async (admin, database) => {
        await admin.query(DATES_DDL);
        await admin.query(DATES_LOAD);
        await admin.query('INSERT INTO events_text (d) VALUES (?)', [canary]);
        // The gap this closes: a NULL test alone finds nothing wrong with this data.
        const [nulls] = await admin.query(
          'SELECT COUNT(*) AS n FROM events_text WHERE d IS NOT NULL AND CAST(d AS DATE) IS NULL',
        );
        expect(Number((nulls as { n: number }[])[0]!.n)).toBe(0);
        const finding = await advise(database, QUERY);
        expect(castDdlOf(finding)).toEqual([]);
        const reason = (finding.notes ?? []).find((note) => note.includes('not a valid date/time'));
        expect(reason).toMatch(/1 of all 161 non-NULL d values is not a valid date\/time/);
        expect(reason).toContain(`'${canary}'`);
        // The server agrees: the generated column the clean data gets fails here.
        await expect(admin.query(GENERATED)).rejects.toThrow(/1292|Incorrect|Truncated/);
      });
    });

  it('keeps the DDL when every date converts (deprecated delimiters included), and the server accepts it', async () => {
    await withScratchDatabase(url, async (admin, database) => {
      await admin.query(DATES_DDL);
      await admin.query(DATES_LOAD);
      const finding = await advise(database, QUERY);
      const castDdl = castDdlOf(finding);
      expect(castDdl.length).toBeGreaterThan(0);
      for (const suggestion of castDdl) {
        expect(suggestion.notes).toContain('Live check: all 160 non-NULL d values convert to DATE.');
        for (const ddl of suggestion.ddl) await admin.query(ddl);
      }
      const [rows] = await admin.query('SHOW INDEX FROM events_text');
      expect((rows as unknown[]).length).toBeGreaterThan(1);
    });
  });
});
