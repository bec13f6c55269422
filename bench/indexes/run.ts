// Benchmark: design one index set for a 200-statement workload against a 200-table schema, offline
// (goal <= 2 s). Statements mix equalities, ranges, IN lists, ORDER BY … LIMIT, GROUP BY, two- and
// three-table joins, UPDATE/DELETE/INSERT traffic; their columns overlap so candidates merge by prefix.
// Prints the time per run (after one warm-up), the median, and the size of the chosen set.
// Run: npx tsx bench/indexes/run.ts [statements] [tables]
import { designWorkloadIndexes, type WorkloadStatement } from '../../src/core/indexing/index.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';

const STATEMENTS = Number(process.argv[2] ?? 200);
const TABLES = Number(process.argv[3] ?? 200);

const ddl = Array.from(
  { length: TABLES },
  (_, t) => `CREATE TABLE t${t} (
  id int unsigned NOT NULL AUTO_INCREMENT,
  parent_id int NOT NULL,
  account_id int NOT NULL,
  status tinyint NOT NULL,
  kind varchar(20) NOT NULL,
  qty int NOT NULL,
  price decimal(10,2) NOT NULL,
  name varchar(100) NOT NULL,
  note text,
  created_at datetime NOT NULL,
  PRIMARY KEY (id),
  KEY parent (parent_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`,
).join('\n');

function statement(i: number): WorkloadStatement {
  const t = i % Math.min(TABLES, 50); // 50 hot tables, so statements share tables and merge
  const u = (t + 1) % TABLES;
  const v = (t + 2) % TABLES;
  const shapes = [
    `SELECT id, price FROM t${t} WHERE account_id = ${i} AND status = 1 ORDER BY created_at DESC LIMIT 20`,
    `SELECT * FROM t${t} WHERE account_id = ${i}`,
    `SELECT * FROM t${t} WHERE account_id = ${i} AND status = 2 AND kind = 'k${i % 7}'`,
    `SELECT kind, COUNT(*) FROM t${t} WHERE status = ${i % 3} GROUP BY kind`,
    `SELECT id FROM t${t} WHERE created_at BETWEEN '2024-01-01' AND '2024-01-0${1 + (i % 8)}'`,
    `SELECT * FROM t${t} WHERE kind IN ('a', 'b', 'c') AND qty > ${i}`,
    `SELECT a.id, b.name FROM t${t} a JOIN t${u} b ON b.parent_id = a.id WHERE a.account_id = ${i} AND b.status = 1`,
    `SELECT a.id, c.qty FROM t${t} a JOIN t${u} b ON b.parent_id = a.id JOIN t${v} c ON c.account_id = b.id WHERE a.kind = 'x' ORDER BY a.created_at LIMIT 10`,
    `UPDATE t${t} SET qty = qty + 1 WHERE account_id = ${i} AND kind = 'z'`,
    `DELETE FROM t${t} WHERE status = 9 AND created_at < '2020-01-01'`,
    `INSERT INTO t${t} (parent_id, account_id, status, kind, qty, price, name, created_at) VALUES (1, ${i}, 1, 'a', 1, 1.00, 'n', NOW())`,
    `SELECT name FROM t${t} WHERE name LIKE 'abc%' AND status = 1`,
  ];
  return { sql: shapes[i % shapes.length]!, weight: 1 + (i % 13) };
}

const schema = schemaFromDdl(ddl, 'mysql').schema;
const server = offlineServerInfo('mysql', '8.0.33');
const workload = Array.from({ length: STATEMENTS }, (_, i) => statement(i));

designWorkloadIndexes(workload, schema, server); // warm-up
const times: number[] = [];
let plan = designWorkloadIndexes(workload, schema, server);
for (let run = 0; run < 5; run++) {
  const start = performance.now();
  plan = designWorkloadIndexes(workload, schema, server);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const designed = plan.queries.filter((query) => !query.error).length;
console.log(
  `indexes: ${STATEMENTS} statements, ${TABLES} tables -> ${plan.indexes.length} indexes (${designed} statements designed, ${plan.queries.filter((q) => q.error).length} not)`,
);
console.log(
  `runs (ms): ${times.map((time) => time.toFixed(0)).join(' ')}; median ${times[2]!.toFixed(0)} ms; goal <= 2000 ms`,
);
