// Benchmark: analyze() of a ~5 KB query against a 200-table schema; prints p50/p95/max after warm-up (target p95 <= 30 ms).
// The same query padded to 5 KB three ways:
// - in-lists: long literal IN lists (what ORMs generate; the parser blanks and rebuilds them);
// - predicates: ranges, ORs and LIKE prefixes (plain comparisons: read by the condition-run reader);
// - expressions: arithmetic and function calls in every padding predicate, so every byte of the
//   padding goes through node-sql-parser's grammar (the worst case; printed, not part of the target).
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';

const TABLES = 200;
const ddl = Array.from(
  { length: TABLES },
  (_, t) => `CREATE TABLE t${t} (
  id int unsigned NOT NULL AUTO_INCREMENT,
  parent_id int NOT NULL,
  status tinyint NOT NULL,
  qty int NOT NULL,
  price decimal(10,2) NOT NULL,
  name varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci NOT NULL,
  code varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  created_at datetime NOT NULL,
  updated_at timestamp NULL,
  PRIMARY KEY (id),
  KEY parent (parent_id),
  KEY status_created (status, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`,
).join('\n');

// Joins over several tables, a CTE, a derived table, a subquery, and a mix of sargable and wrapped predicates.
type Padding = 'in-lists' | 'predicates' | 'expressions';

function buildQuery(padding: Padding): string {
  const parts: string[] = [];
  const joins: string[] = [];
  for (let i = 1; i < 12; i++)
    joins.push(`JOIN t${i} a${i} ON a${i}.parent_id = a${i - 1}.id AND a${i}.status = ${i % 3}`);
  const predicates: string[] = [];
  for (let i = 0; i < 12; i++) {
    predicates.push(
      [
        `MONTH(a${i}.created_at) = ${1 + (i % 12)}`,
        `YEAR(a${i}.created_at) = 20${10 + i}`,
        `a${i}.qty + ${i} = ${100 + i}`,
        `LOWER(a${i}.name) = 'name_${i}'`,
        `DATE(a${i}.updated_at) = '2020-01-${String(10 + i).padStart(2, '0')}'`,
        `a${i}.price BETWEEN ${i} AND ${i * 10 + 5}`,
      ][i % 6] ?? '1 = 1',
    );
  }
  parts.push(`WITH recent AS (SELECT id, parent_id FROM t50 WHERE YEAR(created_at) = 2020 AND status = 1)`);
  parts.push(
    `SELECT a0.id, a1.name, a2.price, COUNT(*) AS n, SUM(a3.qty) AS total, MAX(a4.updated_at) AS last_seen FROM t0 a0 ${joins.join(' ')}`,
  );
  parts.push(`JOIN recent r ON r.parent_id = a0.id`);
  parts.push(
    `JOIN (SELECT parent_id, COUNT(*) AS c FROM t60 WHERE LEFT(code, 3) = 'abc' GROUP BY parent_id) d ON d.parent_id = a0.id`,
  );
  parts.push(`WHERE ${predicates.join(' AND ')}`);
  parts.push(
    `AND a0.id IN (SELECT parent_id FROM t70 WHERE COALESCE(qty, 0) = 0 AND name LIKE '%x' AND code = 12345 AND created_at >= NOW() - INTERVAL 7 DAY)`,
  );
  parts.push(`AND (a5.status = 1 OR UPPER(a6.code) = 'ABC')`);
  parts.push(
    `GROUP BY a0.id, a1.name, a2.price HAVING COUNT(*) > 1 ORDER BY MONTH(a0.created_at), a0.id LIMIT 100`,
  );
  let sql = parts.join('\n');
  // Pad to about 5 KB with more sargable predicates: long IN lists, or ranges, ORs and LIKE prefixes.
  let k = 0;
  while (sql.length < 5000) {
    const a = `a${k % 12}`;
    const more =
      padding === 'in-lists'
        ? `AND ${a}.qty IN (${Array.from({ length: 20 }, (_, j) => j + k).join(', ')})`
        : padding === 'predicates'
          ? `AND (${a}.price > ${k} OR ${a}.status = ${k % 3}) AND ${a}.created_at >= '2020-01-${String(1 + (k % 28)).padStart(2, '0')}' AND ${a}.name LIKE 'n${k}%'`
          : `AND (${a}.price * 2 > ${k} + 1 OR ${a}.status = ${k % 3}) AND ${a}.created_at >= NOW() - INTERVAL ${k} DAY AND ${a}.name LIKE CONCAT('n', ${k}, '%')`;
    sql = sql.replace('\nGROUP BY a0.id', `\n${more}\nGROUP BY a0.id`);
    k++;
  }
  return sql;
}

const { schema, problems } = schemaFromDdl(ddl);
if (problems.length > 0 || schema.tables.length !== TABLES)
  throw new Error(`schema: ${JSON.stringify(problems.slice(0, 3))}`);
const server = offlineServerInfo('mysql', '8.0.33');
const WARMUP = 30;
const ITERATIONS = 200;

/** p50/p95/max of `fn` over ITERATIONS runs after WARMUP runs, in ms. */
function measure(fn: () => unknown): { p50: number; p95: number; max: number } {
  for (let i = 0; i < WARMUP; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number): number =>
    Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN).toFixed(2));
  return { p50: at(0.5), p95: at(0.95), max: at(1) };
}

const TARGETED: Padding[] = ['in-lists', 'predicates'];
const results = (['in-lists', 'predicates', 'expressions'] as const).map((padding) => {
  const sql = buildQuery(padding);
  const run = () => analyze(sql, { server, source: 'flags', schema });
  const first = run();
  if (first.errors.length > 0) throw new Error(`query does not parse: ${first.errors[0]?.message}`);
  const findings = first.statements.flatMap((statement) => statement.findings);
  const full = measure(run);
  // The same analysis with no rules: splitting and parsing only (node-sql-parser), for comparison.
  const parseOnly = measure(() => analyze(sql, { server, source: 'flags', schema, rules: [] }));
  return {
    padding,
    queryBytes: sql.length,
    findings: findings.length,
    suggestions: findings.reduce((sum, finding) => sum + finding.suggestions.length, 0),
    analyzeMs: full,
    parseOnlyMs: parseOnly,
    pass: full.p95 <= 30,
    targeted: TARGETED.includes(padding),
  };
});
const pass = results.every((result) => result.pass || !result.targeted);
console.log(
  JSON.stringify(
    { tables: TABLES, warmup: WARMUP, iterations: ITERATIONS, targetP95ms: 30, results, pass },
    null,
    2,
  ),
);
process.exitCode = pass ? 0 : 1;
