// Server truth for the advice's DDL on tables that hold data with edge values (issue 17): NULLs,
// zeros, negative numbers, UNSIGNED extremes, long strings. The advice runs as a connected session
// does (runLiveAnalysis: live schema and the read-only data checks), every DDL it proposes is applied
// and must be accepted, and the index it creates must serve the advised query. Expressions the
// server would refuse to compute for some stored row (ERROR 1690 out of range, ERROR 1365 division by
// 0) are withdrawn with the reason; the canary applies the offline proposal and sees the server refuse it.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { servedSql, type Finding } from '../../src/core/model/report.js';
import { runLiveAnalysis } from '../../src/main/services/analysis.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';
import { createdIndexes } from '../support/suggestion-indexes.js';

const TABLES = [
  `CREATE TABLE m (
    id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
    u int unsigned DEFAULT NULL,
    big_u int unsigned DEFAULT NULL,
    b bigint DEFAULT NULL,
    q int DEFAULT NULL,
    d int DEFAULT NULL,
    nz int DEFAULT NULL,
    amount decimal(10,2) DEFAULT NULL,
    s varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
    long_s varchar(2000) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
    created datetime DEFAULT NULL
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`,
  `CREATE TABLE country (country_id smallint unsigned NOT NULL AUTO_INCREMENT, country varchar(50) NOT NULL,
    last_update timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (country_id)) ENGINE=InnoDB`,
  `CREATE TABLE city (city_id smallint unsigned NOT NULL AUTO_INCREMENT, city varchar(50) NOT NULL,
    country_id smallint unsigned NOT NULL, last_update timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (city_id), KEY idx_fk_country_id (country_id)) ENGINE=InnoDB`,
  // MyISAM (MySQL indexes no VIRTUAL column there: ERROR 1478), JSON values, a zero divisor.
  `CREATE TABLE h (id int NOT NULL PRIMARY KEY, c datetime, j json, retail decimal(8,2), wholesale decimal(8,2),
    quantity int) ENGINE=MyISAM`,
  `CREATE TABLE doc (id int NOT NULL PRIMARY KEY, j json) ENGINE=InnoDB`,
  `CREATE TABLE sales (year int, country varchar(20), product varchar(32), profit int) ENGINE=InnoDB`,
];
const TABLE_NAMES = ['m', 'country', 'city', 'h', 'doc', 'sales'];

const ROWS = 3000;
// u: 0…; big_u: always >= 100 + d; b: includes -9e18 and 9e18 on two rows; d: 0 on every 50th row;
// nz: never 0 (NULL instead); s: numbers and words; long_s up to 1,500 characters; NULLs every 97th row.
const LOAD = [
  `INSERT INTO m (u, big_u, b, q, d, nz, amount, s, long_s, created)
  WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS})
  SELECT IF(n % 97 = 0, NULL, n % 1000), 100 + n % 40, IF(n % 97 = 0, NULL, n * 3 - 4000), n % 500, IF(n % 50 = 0, 0, n % 7 + 1),
    IF(n % 50 = 0, NULL, n % 9 + 1), IF(n % 97 = 0, NULL, (n - 1500) / 4),
    IF(n % 97 = 0, NULL, IF(n % 10 = 0, CONCAT('w', n), CONCAT('', n))), REPEAT(CHAR(97 + n % 26), n % 1500),
    IF(n % 97 = 0, NULL, TIMESTAMP('2024-01-01 00:00:00') + INTERVAL n HOUR)
  FROM seq`,
  `INSERT INTO m (u, b, q, d) VALUES (4294967295, 9000000000000000000, 2, 1), (0, -9000000000000000000, 2, -3)`,
  `INSERT INTO country (country) WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 109) SELECT CONCAT('country', n) FROM seq`,
  `INSERT INTO h WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 400)
    SELECT n, IF(n % 97 = 0, NULL, TIMESTAMP('2024-01-01') + INTERVAL n HOUR), JSON_OBJECT('a', CONCAT('x', n)),
    n / 4, IF(n % 40 = 0, 0, n / 5), n % 150 FROM seq`,
  `INSERT INTO doc WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 400)
    SELECT n, IF(n % 97 = 0, NULL, JSON_OBJECT('name', CONCAT('Name', n))) FROM seq`,
  `INSERT INTO sales VALUES (2000, 'Finland', 'Computer', 1500), (2000, 'India', 'Calculator', 150), (2001, 'USA', 'TV', 100), (NULL, NULL, NULL, NULL)`,
  `INSERT INTO city (city, country_id) WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 600) SELECT CONCAT('city', n), 1 + n % 109 FROM seq`,
];

/** Statements whose every proposed DDL must be accepted on data, and serve the advised query. */
const CASES = [
  // Functional index / generated column over arithmetic that stays in range on this data.
  'SELECT id FROM m WHERE big_u - d = 120',
  'SELECT id FROM m WHERE q + d = 30',
  'SELECT id FROM m WHERE q % 7 = 3',
  'SELECT id FROM m WHERE q / nz > 400',
  'SELECT id FROM m WHERE q DIV nz = 3',
  // Expressions that fail on stored rows: withdrawn live (the canaries below show the server refusing them).
  'SELECT id FROM m WHERE u - d = 3',
  'SELECT id FROM m WHERE q / d > 30',
  'SELECT id FROM m WHERE MOD(q, d) = 3',
  'SELECT id FROM m WHERE b * q = 10',
  'SELECT id FROM m ORDER BY 1 - id LIMIT 5',
  // Plain, prefix, composite, temporal and string expressions with NULLs and long strings present.
  "SELECT id FROM m WHERE long_s = 'abc'",
  "SELECT id FROM m WHERE s = '17' AND created > '2024-02-01'",
  "SELECT id FROM m WHERE LOWER(s) = 'w10'",
  "SELECT id FROM m WHERE DATE_FORMAT(created, '%Y-%m') = '2024-02'",
  "SELECT id FROM m WHERE CONCAT(s, '-', q) = '17-17'",
  "SELECT id FROM m WHERE s LIKE '%17'",
  "SELECT id FROM m WHERE s = 'w10' OR q = 3",
  // Found on the MySQL manual's and MariaDB KB's examples, with their tables and edge rows: a MyISAM
  // table (STORED column, no functional index on MySQL), a JSON-valued expression, GROUPING(), a
  // division in the index design's key, ->> on MariaDB.
  "SELECT id FROM h WHERE DATE_FORMAT(c, '%Y-%m-%d') = '2024-01-02'",
  "SELECT id FROM h WHERE DATE(c) = '2024-01-02'",
  'SELECT id FROM h WHERE quantity % 40 = 3',
  'SELECT COUNT(*) FROM h GROUP BY JSON_ARRAY(id, quantity)',
  'SELECT id FROM h WHERE retail / wholesale >= 1.3 AND quantity < 5',
  'SELECT year, SUM(profit) AS profit FROM sales GROUP BY year WITH ROLLUP ORDER BY GROUPING(year) DESC',
  "SELECT id FROM doc WHERE JSON_UNQUOTE(JSON_EXTRACT(j, '$.name')) = 'Name7'",
  "SELECT id FROM doc WHERE j->>'$.name' = 'Name7'",
  // JOIN USING / NATURAL JOIN (SOAR over Sakila).
  "SELECT city_id, city, country FROM city LEFT OUTER JOIN country USING (country_id) WHERE city.city_id = 59 AND country.country = 'country7'",
  "SELECT city_id, city, country FROM city LEFT OUTER JOIN country USING (country_id) WHERE country.country = 'country7'",
  "SELECT city_id, city FROM city NATURAL JOIN country WHERE country.country = 'country7'",
];

const SEEK = ['ref', 'range', 'eq_ref', 'const', 'ref_or_null', 'index'];

const alteredTable = (ddl: string): string | undefined => /^\s*ALTER\s+TABLE\s+`?([\w$]+)`?/i.exec(ddl)?.[1];

async function restore(db: Connection, pristine: string, table: string): Promise<void> {
  await db.query(
    `DROP TABLE \`${table}\`; CREATE TABLE \`${table}\` LIKE \`${pristine}\`.\`${table}\`; INSERT INTO \`${table}\` SELECT * FROM \`${pristine}\`.\`${table}\`; ANALYZE TABLE \`${table}\``,
  );
}

describe.each(testServers())('advice DDL on data with edge values: $flavor', ({ flavor, url }) => {
  it('every DDL proposed by the connected advisor is accepted and serves the advised query', async () => {
    await withScratchDatabase(url, async (pristineDb, pristine) => {
      await withScratchDatabase(url, async (db, database) => {
        await db.query(
          flavor === 'mysql'
            ? 'SET SESSION cte_max_recursion_depth = 100000'
            : 'SET SESSION max_recursive_iterations = 100000',
        );
        for (const ddl of TABLES) await db.query(ddl);
        for (const load of LOAD) await db.query(load);
        for (const table of TABLE_NAMES) {
          await db.query(`ANALYZE TABLE ${table}`);
          await pristineDb.query(
            `CREATE TABLE \`${table}\` LIKE \`${database}\`.\`${table}\`; INSERT INTO \`${table}\` SELECT * FROM \`${database}\`.\`${table}\``,
          );
        }
        const server = { ...(await detectServerInfo(db)), database };
        const schema = await loadSchema(db, server, database);
        const counts = { proposed: 0, accepted: 0, rejected: 0, used: 0, notUsed: 0 };
        const rejected: string[] = [];
        const notUsed: string[] = [];
        const withdrawn: string[] = [];
        const kinds = new Set<string>();
        for (const sql of CASES) {
          const report = await runLiveAnalysis(db, sql, server, schema);
          const findings: Finding[] = report.statements.flatMap((statement) => statement.findings);
          withdrawn.push(
            ...findings.flatMap((finding) =>
              (finding.notes ?? []).filter((note) => /fails on the stored rows/.test(note)),
            ),
          );
          for (const finding of findings)
            for (const suggestion of finding.suggestions) {
              if (suggestion.ddl.length === 0) continue;
              counts.proposed++;
              kinds.add(
                `${suggestion.kind}${suggestion.kind === 'rewrite' ? ' + index' : ''}${/\bSTORED\b/.test(suggestion.ddl.join(' ')) ? ' (STORED)' : ''}${/REVERSE\(/i.test(suggestion.ddl.join(' ')) ? ' (REVERSE)' : ''}${/\(\d+\)[,)]/.test(suggestion.ddl.join(' ')) && suggestion.kind === 'index' ? ' (prefix)' : ''}`,
              );
              const advised = servedSql(finding, suggestion) ?? sql;
              const touched = [...new Set(suggestion.ddl.map(alteredTable).filter((t): t is string => !!t))];
              try {
                try {
                  for (const ddl of suggestion.ddl) await db.query(ddl);
                } catch (error) {
                  counts.rejected++;
                  rejected.push(
                    `${finding.rule} ${suggestion.kind}: ${suggestion.ddl.join(' ')}\n  ${(error as Error).message}`,
                  );
                  continue;
                }
                counts.accepted++;
                for (const table of touched) await db.query(`ANALYZE TABLE \`${table}\``);
                const [plan] = await db.query<RowDataPacket[]>(`EXPLAIN ${advised}`);
                const wanted = createdIndexes(suggestion);
                const uses = plan.some(
                  (row) =>
                    wanted.includes(String(row.key ?? '').toLowerCase()) && SEEK.includes(String(row.type)),
                );
                if (uses) counts.used++;
                else {
                  counts.notUsed++;
                  notUsed.push(`${finding.rule} ${suggestion.kind} ${wanted.join(',')}: ${advised}`);
                }
              } finally {
                for (const table of touched) await restore(db, pristine, table);
              }
            }
        }
        console.log(
          `advice DDL on edge data (${flavor}): ${JSON.stringify(counts)}; kinds: ${[...kinds].sort().join(', ')}`,
        );
        expect(rejected, rejected.join('\n')).toEqual([]);
        expect(notUsed, notUsed.join('\n')).toEqual([]);
        expect(counts.accepted).toBeGreaterThan(5);
        // Every suggestion kind was proposed and applied here (a kind that silently disappears fails this).
        expect([...kinds].sort()).toEqual(
          expect.arrayContaining([
            'generated-column',
            'index',
            'index (prefix)',
            'rewrite + index',
            ...(flavor === 'mysql' ? ['functional-index', 'generated-column (STORED)'] : []),
          ]),
        );
        expect(
          [...kinds].some((kind) => /REVERSE/.test(kind)),
          [...kinds].join(', '),
        ).toBe(true);
        // The expressions that fail on this data were withdrawn with the reason (MariaDB refuses u - d
        // and has no functional index for ORDER BY 1 - id's AUTO_INCREMENT column either way).
        expect(withdrawn.join('\n')).toMatch(/q \/ d|MOD\(q, d\)/);
        if (flavor === 'mysql') expect(withdrawn.join('\n')).toMatch(/u - d/);
      });
    });
  }, 240_000);

  it('canary: the offline proposal for an expression that fails on stored rows is refused by the server', async () => {
    await withScratchDatabase(url, async (db, database) => {
      await db.query(
        flavor === 'mysql'
          ? 'SET SESSION cte_max_recursion_depth = 100000'
          : 'SET SESSION max_recursive_iterations = 100000',
      );
      await db.query(TABLES[0]!);
      for (const load of LOAD.slice(0, 2)) await db.query(load);
      const server = { ...(await detectServerInfo(db)), database };
      const schema = await loadSchema(db, server, database);
      const cases: [string, number][] = [
        ['SELECT id FROM m WHERE q / d > 30', 1365],
        ['SELECT id FROM m WHERE b * q = 10', 1690],
        ...(flavor === 'mysql' ? ([['SELECT id FROM m WHERE u - d = 3', 1690]] as [string, number][]) : []),
      ];
      for (const [sql, errno] of cases) {
        // Offline (no data): the DDL is proposed with the risk and the check to run.
        const offline = analyze(sql, { server, source: 'flags', schema });
        const suggestion = offline.statements
          .flatMap((statement) => statement.findings)
          .flatMap((finding) => finding.suggestions)
          .find((candidate) => candidate.ddl.length > 0);
        expect(suggestion, sql).toBeDefined();
        expect(suggestion!.notes.join(' '), sql).toMatch(new RegExp(`Risk: .*ERROR ${errno}`));
        await expect(db.query(suggestion!.ddl.join(' ')), sql).rejects.toMatchObject({ errno });
        // Connected: withdrawn, with the server's reason.
        const live = await runLiveAnalysis(db, sql, server, schema);
        const findings = live.statements.flatMap((statement) => statement.findings);
        expect(
          findings.flatMap((finding) => finding.suggestions).filter((s) => s.ddl.length > 0),
          sql,
        ).toEqual([]);
        expect(findings.flatMap((finding) => finding.notes ?? []).join(' '), sql).toMatch(
          new RegExp(`ERROR ${errno}`),
        );
      }
      // The NULLIF hint holds: the same rows in a SELECT, and its index is accepted with the zeros stored.
      const live = await runLiveAnalysis(db, 'SELECT id FROM m WHERE q / d > 30', server, schema);
      const notes = live.statements.flatMap((statement) => statement.findings.flatMap((f) => f.notes ?? []));
      expect(notes.join(' ')).toMatch(/NULLIF\(`?d`?, 0\)/);
      await db.query(
        'ALTER TABLE m ADD COLUMN q_d_safe DECIMAL(20,4) GENERATED ALWAYS AS (q / NULLIF(d, 0)) VIRTUAL, ADD INDEX idx_q_d_safe (q_d_safe)',
      );
      const [original] = await db.query<RowDataPacket[]>('SELECT id FROM m WHERE q / d > 30 ORDER BY id');
      const [safe] = await db.query<RowDataPacket[]>(
        'SELECT id FROM m WHERE q / NULLIF(d, 0) > 30 ORDER BY id',
      );
      expect(original.length).toBeGreaterThan(0);
      expect(safe).toEqual(original);
    });
  }, 120_000);
});
