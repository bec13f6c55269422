// Index use on live data (issue 17): a connected analysis withdraws an index proposal the server would
// not read on the data it holds (a range over most rows, an ORDER BY-only index without LIMIT, on MariaDB
// an equality over most rows) and keeps the ones it would read — a narrow range, a covering read and an
// ORDER BY … LIMIT over the same wide range, a composite whose equality narrows it. Proven on both
// servers: every proposal of the analysis without the sample is applied (SELECT, DELETE, UPDATE), and EXPLAIN of the query it
// serves must name it exactly when the live analysis kept it (joins included).
//
// Canary: the wide range's index, applied anyway, is not chosen by the server (the withdrawal is right),
// and the covering read over the same share is (so a share alone must not withdraw).
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { servedSql, type AnalysisReport } from '../../src/core/model/report.js';
import { liveStatementAnalysis, runLiveAnalysis } from '../../src/main/services/analysis.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { sampleSelectivity } from '../../src/main/services/selectivity.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const ROWS = 3_000;
const SETUP = [
  'CREATE TABLE digits (n TINYINT PRIMARY KEY)',
  'INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)',
  `CREATE TABLE items (id INT PRIMARY KEY, c INT NOT NULL, d INT NOT NULL, flag TINYINT NOT NULL,
     made DATETIME NOT NULL, pad VARCHAR(200) NOT NULL) ENGINE=InnoDB`,
  // c: 0..999 spread evenly; d: 50 values; flag: 1 on 95 % of the rows; made: one day per row.
  `INSERT INTO items
   SELECT n + 1, (n * 7919) % 1000, n % 50, IF(n % 100 < 95, 1, 0),
     TIMESTAMP('2020-01-01') + INTERVAL n DAY, REPEAT('x', 100)
   FROM (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n AS n FROM digits a, digits b, digits c, digits d) s
   WHERE n < ${ROWS}`,
  'CREATE TABLE kinds (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL) ENGINE=InnoDB',
  "INSERT INTO kinds SELECT a.n + 10 * b.n, CONCAT('kind ', a.n + 10 * b.n) FROM digits a, digits b WHERE a.n + 10 * b.n < 50",
  'ANALYZE TABLE items, kinds',
];

/** Per statement: [withdrawn?, expected] — withdrawn: the live analysis must withdraw its index. */
const CASES: { sql: string; withdrawn: { mysql: boolean; mariadb: boolean } }[] = [
  // 60 % of the rows: both servers scan.
  { sql: 'SELECT * FROM items WHERE c >= 400', withdrawn: { mysql: true, mariadb: true } },
  // 5 %: both read the range.
  { sql: 'SELECT * FROM items WHERE c >= 950', withdrawn: { mysql: false, mariadb: false } },
  // The same 60 %, covered by the index (c plus the primary key): read instead of the table.
  { sql: 'SELECT id, c FROM items WHERE c >= 400', withdrawn: { mysql: false, mariadb: false } },
  // The same 60 % with ORDER BY … LIMIT: the index delivers the order and stops after 10 rows.
  {
    sql: 'SELECT * FROM items WHERE c >= 400 ORDER BY c LIMIT 10',
    withdrawn: { mysql: false, mariadb: false },
  },
  // A composite: the equality on d narrows the 60 % to about 1 %.
  { sql: 'SELECT * FROM items WHERE d = 7 AND c >= 400', withdrawn: { mysql: false, mariadb: false } },
  // An index that would only serve ORDER BY, without LIMIT: a scan and a sort.
  { sql: 'SELECT * FROM items ORDER BY DATE(made)', withdrawn: { mysql: true, mariadb: true } },
  // With LIMIT the same index is read in order.
  { sql: 'SELECT * FROM items ORDER BY DATE(made) LIMIT 5', withdrawn: { mysql: false, mariadb: false } },
  // A join: the same 60 % on items is scanned (kinds is read through its primary key), 5 % is read by range.
  {
    sql: 'SELECT * FROM items i JOIN kinds k ON k.id = i.d WHERE i.c >= 400',
    withdrawn: { mysql: true, mariadb: true },
  },
  {
    sql: 'SELECT * FROM items i JOIN kinds k ON k.id = i.d WHERE i.c >= 950',
    withdrawn: { mysql: false, mariadb: false },
  },
  // DELETE and UPDATE (EXPLAIN only): the same break-even as a SELECT.
  { sql: 'DELETE FROM items WHERE c >= 400', withdrawn: { mysql: true, mariadb: true } },
  { sql: 'DELETE FROM items WHERE c >= 950', withdrawn: { mysql: false, mariadb: false } },
  { sql: "UPDATE items SET pad = 'y' WHERE c >= 400", withdrawn: { mysql: true, mariadb: true } },
  { sql: "UPDATE items SET pad = 'y' WHERE c >= 950", withdrawn: { mysql: false, mariadb: false } },
  // An equality over 95 % of the rows: MySQL 8 reads it through ref anyway, MariaDB scans.
  { sql: 'SELECT * FROM items WHERE flag = 1', withdrawn: { mysql: false, mariadb: true } },
];

const WITHDRAWN = /^Index (\S+) not proposed \(live data\)/;

async function explainUses(db: Connection, ddl: string[], index: string, sql: string): Promise<boolean> {
  for (const statement of ddl) await db.query(statement);
  try {
    await db.query('ANALYZE TABLE items');
    const [plan] = await db.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
    return plan.some((row) =>
      String(row.key ?? '')
        .toLowerCase()
        .split(',')
        .includes(index.toLowerCase()),
    );
  } finally {
    await db.query('DROP TABLE items_work');
  }
}

describe.each(testServers())('index use on live data: $flavor', ({ flavor, url }) => {
  it('withdraws exactly the proposals the server would not read, and says why', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      for (const { sql, withdrawn } of CASES) {
        const live = await runLiveAnalysis(db, sql, server, schema);
        const offline = await runLiveAnalysis(db, sql, server, schema, { sample: false });
        const proposals = offline.statements.flatMap((statement) =>
          statement.findings.flatMap((finding) =>
            finding.suggestions
              .filter((suggestion) => suggestion.ddl.length > 0 && suggestion.indexName)
              .map((suggestion) => ({ finding, suggestion, statement })),
          ),
        );
        expect(proposals.length, `a proposal for ${sql}`).toBeGreaterThan(0);
        const notes = live.statements.flatMap((statement) =>
          statement.findings.flatMap((finding) => finding.notes ?? []),
        );
        const withdrawnNames = notes.flatMap((note) => WITHDRAWN.exec(note)?.[1] ?? []);
        const keptNames = liveIndexNames(live);
        for (const { finding, suggestion, statement } of proposals) {
          const name = suggestion.indexName!;
          const isWithdrawn = withdrawnNames.includes(name);
          expect(isWithdrawn, `${name} withdrawn for ${sql}`).toBe(withdrawn[flavor]);
          expect(keptNames.includes(name), `${name} kept for ${sql}`).toBe(!withdrawn[flavor]);
          // The server decides: apply the DDL on a copy of the table and EXPLAIN the advised query.
          await db.query('CREATE TABLE items_work LIKE items');
          await db.query('INSERT INTO items_work SELECT * FROM items');
          const onCopy = (text: string) => text.replace(/\bitems\b/g, 'items_work');
          const advised = onCopy(servedSql(finding, suggestion) ?? statement.sql);
          const used = await explainUses(db, suggestion.ddl.map(onCopy), name, advised).catch((error) => {
            throw new Error(`${name} for ${sql}: ${(error as Error).message}`);
          });
          expect(used, `EXPLAIN uses ${name} for ${advised}`).toBe(!isWithdrawn);
        }
        if (withdrawn[flavor]) {
          const note = notes.find((text) => WITHDRAWN.test(text))!;
          // The reason with its numbers: share (or "every row"), rows counted, and that the server scans.
          expect(note).toMatch(/all 3,000 rows/);
          expect(note).toMatch(/the server will scan, and the index would not be used/);
        }
      }
    });
  }, 120_000);

  it('a predicate the server refuses costs only the index-use check, not the table numbers', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      const skips: string[] = [];
      const [sample] = await sampleSelectivity(
        db,
        server,
        database,
        [
          {
            table: 'items',
            columns: ['d'],
            expressions: [],
            reads: ['d', 'c'],
            predicates: [
              { key: 'predicate:c>=400', sql: '(c >= 400)' },
              // Not among the sampled columns: the server answers "Unknown column".
              { key: 'predicate:flag=1', sql: '(flag = 1)' },
            ],
          },
        ],
        { onSkip: (skip) => skips.push(`${skip.expression}: ${skip.reason}`) },
      );
      expect(sample?.distinct['column:d']).toBe(50);
      expect(sample?.matching).toBeUndefined();
      expect(skips).toEqual(['(c >= 400), (flag = 1): the server refused it']);
      // Canary: the same request without the bad predicate counts the rows it matches.
      const [good] = await sampleSelectivity(db, server, database, [
        {
          table: 'items',
          columns: ['d'],
          expressions: [],
          reads: ['d', 'c'],
          predicates: [{ key: 'predicate:c>=400', sql: '(c >= 400)' }],
        },
      ]);
      expect(good?.matching).toEqual({ 'predicate:c>=400': 1_800 });
    });
  }, 60_000);

  it('the streamed live analysis withdraws the same way', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      const script = 'SELECT * FROM items WHERE c >= 950; SELECT * FROM items WHERE c >= 400;';
      const live = liveStatementAnalysis(db, server, schema);
      const outcomes = splitStatements(script).map((slice, index) => live.analyzeSlice(slice, index));
      const statements = await live.finish(
        outcomes.flatMap((outcome) =>
          'statement' in outcome && outcome.statement ? [outcome.statement] : [],
        ),
      );
      expect(statements).toHaveLength(2);
      const [narrow, wide] = statements;
      expect(liveIndexNames({ statements: [narrow!] } as AnalysisReport)).toContain('idx_items_c');
      expect(liveIndexNames({ statements: [wide!] } as AnalysisReport)).toEqual([]);
      expect(wide!.findings.flatMap((finding) => finding.notes ?? [])).toContainEqual(
        expect.stringMatching(/^Index idx_items_c not proposed \(live data\): \(c >= 400\) matches ~60%/),
      );
    });
  }, 60_000);
});

function liveIndexNames(report: Pick<AnalysisReport, 'statements'>): string[] {
  return report.statements.flatMap((statement) =>
    statement.findings.flatMap((finding) =>
      finding.suggestions.flatMap((suggestion) =>
        suggestion.ddl.length > 0 && suggestion.indexName ? [suggestion.indexName] : [],
      ),
    ),
  );
}
