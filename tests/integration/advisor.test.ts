// Server truth for the advisor: proposed DDL is accepted and used, equivalent rewrites return the same rows.
import { createHash } from 'node:crypto';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import type { Finding, Suggestion } from '../../src/core/model/report.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { runLiveAnalysis } from '../../src/main/services/analysis.js';
import { MARIADB_114_ENV, mariadb114Available, startServer, type TestServer } from '../support/servers.js';

/**
 * The matrix: MySQL 8.0.33 and MariaDB 10.11 always; MariaDB 11.4 as an optional third server when
 * its binaries are at hand (docs/testing.md) or SARGABLE_TEST_MARIADB114_URL names one.
 */
interface AdvisorServer {
  label: string;
  flavor: 'mysql' | 'mariadb';
  /** Admin URL, or null to start MariaDB 11.4 in beforeAll. */
  url: string | null;
}
const advisorServers: AdvisorServer[] = [
  ...testServers().map(({ flavor, url }) => ({ label: flavor, flavor, url })),
  ...(process.env[MARIADB_114_ENV] || mariadb114Available()
    ? [{ label: 'mariadb 11.4', flavor: 'mariadb' as const, url: process.env[MARIADB_114_ENV] || null }]
    : []),
];

const TABLE_DDL = `CREATE TABLE products (
  id int unsigned NOT NULL AUTO_INCREMENT,
  description longtext,
  price decimal(8,2) DEFAULT NULL,
  create_time timestamp NULL DEFAULT NULL,
  created date NOT NULL,
  updated datetime NOT NULL,
  qty int NOT NULL,
  status tinyint NOT NULL,
  discount int DEFAULT NULL,
  category int NOT NULL,
  name varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  code varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  sku varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  phone varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  doc json,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`;

/** The other side of the join shapes: one row per day of 2018, with a label per day. */
const DAYS_DDL = `CREATE TABLE days (
  day date NOT NULL,
  n int NOT NULL,
  label varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  PRIMARY KEY (day)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`;
const DAYS_LOAD = `INSERT INTO days (day, n, label)
WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 29)
SELECT DATE('2018-03-01') + INTERVAL n DAY, 100 * n + 7, CONCAT(IF(n % 2 = 0, 'alpha', 'ALPHA'), '_', 10 * n) FROM seq`;

const ROWS = 20_000;
// Deterministic data: October appears in two years, ~3% of skus start with 'a_c', phones repeat with a leading zero.
const LOAD = `INSERT INTO products (description, price, create_time, created, updated, qty, status, discount, category, name, code, sku, phone, doc)
WITH RECURSIVE seq (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS - 1})
SELECT CONCAT('item ', n), (n % 1000) / 10 + 1,
  TIMESTAMP('2018-01-01 00:00:00') + INTERVAL (n * 3607) SECOND,
  DATE('2018-01-01') + INTERVAL (n % 1000) DAY,
  TIMESTAMP('2018-01-01 00:00:00') + INTERVAL (n * 1800) SECOND,
  n, n % 3, IF(n % 53 = 0, NULL, n % 40), n % 50,
  CONCAT(ELT(1 + n % 5, 'Alpha', 'beta', 'GAMMA', 'delta', 'Epsilon'), '_', n),
  CONCAT(IF(n % 2 = 1, 'AB', 'ab'), LPAD(n, 6, '0')),
  CONCAT(IF(n % 30 = 0, 'a_c', 'abc'), n),
  IF(n % 2 = 0, CONCAT('0', 4155550000 + (n DIV 2)), CONCAT('', 4155550000 + (n DIV 2))),
  JSON_OBJECT('color', CONCAT('c', n % 200))
FROM seq`;

/** One predicate shape: the query, the rule that must flag it, and the kind of DDL advice expected per flavor. */
interface Shape {
  name: string;
  sql: string | { mysql: string; mariadb: string };
  rule: string;
  /** Kind of the first suggestion with DDL, per flavor. */
  ddlKind: { mysql: Suggestion['kind']; mariadb: Suggestion['kind'] };
  /** A rewrite suggestion is expected, with this equivalence. */
  rewrite?: 'equivalent' | 'not-equivalent';
  /** Access types accepted after the DDL (default: seeks only). */
  accessTypes?: string[];
}

const SEEK = ['ref', 'range', 'eq_ref', 'const', 'ref_or_null'];

/** Join-condition shapes: the wrapped column is on `products p`, the other side a column of `days d`. */
const joinShapes: { name: string; sql: string; rule: string }[] = [
  {
    // LEFT JOIN: products is the inner table, looked up through DATE(p.updated). (In an inner join days would
    // drive it through its primary key on day: not reported, see advice-join-side.test.ts.)
    name: 'LEFT JOIN … ON DATE(p.updated) = d.day',
    sql: 'SELECT d.day, p.id FROM days d LEFT JOIN products p ON DATE(p.updated) = d.day',
    rule: 'FUN001',
  },
  {
    name: 'ON LOWER(p.name) = d.label',
    sql: 'SELECT d.label, p.id FROM days d JOIN products p ON LOWER(p.name) = d.label',
    rule: 'FUN001',
  },
  {
    name: 'ON p.qty + 0 = d.n',
    sql: 'SELECT d.n, p.id FROM days d JOIN products p ON p.qty + 0 = d.n',
    rule: 'ARI001',
  },
  {
    name: "LEFT JOIN … ON p.qty - 1 = d.n AND d.day > '…'",
    sql: "SELECT d.day, p.id FROM days d LEFT JOIN products p ON p.qty - 1 = d.n AND d.day > '2018-03-10'",
    rule: 'ARI001',
  },
];

const shapes: Shape[] = [
  {
    name: 'seed: MONTH(create_time)=10',
    sql: 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10',
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
    accessTypes: ['ref'],
  },
  {
    name: 'YEAR(timestamp) = N',
    sql: 'SELECT id FROM products WHERE YEAR(create_time) = 2019',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'YEAR(datetime) > N',
    sql: 'SELECT id FROM products WHERE YEAR(updated) > 2018',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'YEAR(alias.col) BETWEEN',
    sql: 'SELECT p.id FROM products p WHERE YEAR(p.updated) BETWEEN 2019 AND 2020',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'DATE(timestamp) = d',
    sql: "SELECT id FROM products WHERE DATE(create_time) = '2019-03-15'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'DATE(datetime) BETWEEN',
    sql: "SELECT id FROM products WHERE DATE(updated) BETWEEN '2018-05-01' AND '2018-05-03'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'DATE(timestamp) <= d',
    sql: "SELECT id FROM products WHERE DATE(create_time) <= '2018-01-20'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'DATE(date column)',
    sql: "SELECT id FROM products WHERE DATE(created) = '2018-06-01'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'col + k = v',
    sql: 'SELECT id FROM products WHERE qty + 1 = 5001',
    rule: 'ARI001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'col - k BETWEEN',
    sql: 'SELECT id FROM products WHERE qty - 10 BETWEEN 100 AND 200',
    rule: 'ARI001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'k + col IN (…)',
    sql: 'SELECT id FROM products WHERE 10 + qty IN (15, 25, 35)',
    rule: 'ARI001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'v < col - k (wrapped on the right)',
    sql: 'SELECT id FROM products WHERE 19990 < qty - 5',
    rule: 'ARI001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'col * k = v',
    sql: 'SELECT id FROM products WHERE qty * 2 = 1000',
    rule: 'ARI001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'col * k = v without an integer solution: index the expression',
    sql: 'SELECT id FROM products WHERE qty * 2 = 1001',
    rule: 'ARI001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'LOWER(ci column)',
    sql: "SELECT id FROM products WHERE LOWER(name) = 'alpha_10'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'UPPER(_bin column)',
    sql: "SELECT id FROM products WHERE UPPER(code) = 'AB000010'",
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'LEFT(col, n) with _ in the literal',
    sql: "SELECT id FROM products WHERE LEFT(sku, 3) = 'a_c'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'SUBSTRING(col, 1, n)',
    sql: "SELECT id FROM products WHERE SUBSTRING(sku, 1, 5) = 'a_c30'",
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'COALESCE(x, 0) = 0',
    sql: 'SELECT id FROM products WHERE COALESCE(discount, 0) = 0',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'IFNULL(x, 0) = 7',
    sql: 'SELECT id FROM products WHERE IFNULL(discount, 0) = 7',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'JSON_UNQUOTE(JSON_EXTRACT())',
    sql: "SELECT id FROM products WHERE JSON_UNQUOTE(JSON_EXTRACT(doc, '$.color')) = 'c17'",
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'JSON ->> (MySQL) / JSON_VALUE (MariaDB)',
    sql: {
      mysql: "SELECT id FROM products WHERE doc->>'$.color' = 'c18'",
      mariadb: "SELECT id FROM products WHERE JSON_VALUE(doc, '$.color') = 'c18'",
    },
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'low selectivity + equality column → composite',
    sql: 'SELECT id FROM products WHERE DAYOFWEEK(created) = 1 AND category = 7',
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'HOUR(datetime)',
    sql: 'SELECT id FROM products WHERE HOUR(updated) = 3',
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'TRIM(ci column)',
    sql: "SELECT id FROM products WHERE TRIM(name) = 'beta_11'",
    rule: 'FUN001',
    ddlKind: { mysql: 'functional-index', mariadb: 'generated-column' },
  },
  {
    name: 'UPDATE with YEAR()',
    sql: 'UPDATE products SET price = price WHERE YEAR(create_time) = 2020',
    rule: 'FUN001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'equivalent',
  },
  {
    name: 'string column = number (CNV001)',
    sql: 'SELECT id FROM products WHERE phone = 4155550123',
    rule: 'CNV001',
    ddlKind: { mysql: 'index', mariadb: 'index' },
    rewrite: 'not-equivalent',
  },
];

/** Statements that must not be flagged (and are not slow because of a wrapped column). */
const negatives = [
  'SELECT id FROM products WHERE create_time >= NOW() - INTERVAL 1 DAY',
  "SELECT id FROM products WHERE create_time = DATE('2020-01-01')",
  'SELECT MONTH(create_time), YEAR(updated) FROM products WHERE id = 5',
  'SELECT category, COUNT(*) FROM products GROUP BY category HAVING COUNT(*) > 5',
  'SELECT id FROM products WHERE qty = 5 + 1',
  "SELECT id FROM products WHERE name = 'Alpha_10'",
  'SELECT id FROM products WHERE qty = 5000',
];

function sqlFor(shape: Shape, flavor: 'mysql' | 'mariadb'): string {
  return typeof shape.sql === 'string' ? shape.sql : shape.sql[flavor];
}

async function explainRow(connection: Connection, sql: string): Promise<RowDataPacket> {
  const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
  const row = rows.find((candidate) => !String(candidate.table ?? '').startsWith('<'));
  if (!row) throw new Error(`EXPLAIN gave no table row for ${sql}`);
  return row;
}

/** EXPLAIN rows by table alias (`p`, `d`). */
async function explainRows(connection: Connection, sql: string): Promise<Record<string, RowDataPacket>> {
  const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ${sql}`);
  return Object.fromEntries(rows.map((row) => [String(row.table), row]));
}

async function checksum(connection: Connection, sql: string): Promise<{ rows: number; hash: string }> {
  const [rows] = await connection.query<RowDataPacket[]>({ sql, rowsAsArray: true });
  const lines = rows.map((row) => JSON.stringify(row)).sort();
  return { rows: lines.length, hash: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

describe.each(advisorServers)('advisor on $label', ({ flavor, url: givenUrl }) => {
  let connection: Connection;
  let started: TestServer | undefined;
  let database: string;
  let version: string;
  const schema = schemaFromDdl(`${TABLE_DDL};\n${DAYS_DDL}`, flavor).schema;

  let url = givenUrl ?? '';
  beforeAll(async () => {
    url = givenUrl ?? '';
    if (!givenUrl) {
      started = await startServer('mariadb', { mariadbRelease: '11.4' });
      url = started.url;
    }
    connection = await connect(url);
    database = scratchDatabaseName('sargable_adv');
    await connection.query(`CREATE DATABASE \`${database}\``);
    await connection.query(`USE \`${database}\``);
    await connection.query("SET time_zone = '+00:00'");
    await connection.query(
      flavor === 'mysql'
        ? 'SET SESSION cte_max_recursion_depth = 100000'
        : 'SET SESSION max_recursive_iterations = 100000',
    );
    const [versionRows] = await connection.query<RowDataPacket[]>('SELECT VERSION() AS v');
    version = String(versionRows[0]?.v).replace(/-.*/, '');
    await connection.query(TABLE_DDL);
    await connection.query(LOAD);
    await connection.query(DAYS_DDL);
    await connection.query(DAYS_LOAD);
    await connection.query('ANALYZE TABLE products, days');
  });

  afterAll(async () => {
    await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection?.end();
    await started?.stop();
  });

  function advise(sql: string, withSchema = schema): Finding[] {
    const report = analyze(sql, {
      server: offlineServerInfo(flavor, version),
      source: 'flags',
      schema: withSchema,
    });
    expect(report.errors).toEqual([]);
    return report.statements.flatMap((statement) => statement.findings);
  }

  it('has the expected data', async () => {
    const [rows] = await connection.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM products');
    expect(Number(rows[0]?.n)).toBe(ROWS);
  });

  it.each(shapes.map((shape) => [shape.name, shape] as const))('%s', async (_name, shape) => {
    const sql = sqlFor(shape, flavor);
    const finding = advise(sql).find((candidate) => candidate.rule === shape.rule);
    expect(finding, `${shape.rule} must flag ${sql}`).toBeDefined();
    const suggestions = finding?.suggestions ?? [];
    const withDdl = suggestions.find((suggestion) => suggestion.ddl.length > 0);
    expect(withDdl?.kind, JSON.stringify(suggestions, null, 2)).toBe(shape.ddlKind[flavor]);
    const rewrite = suggestions.find((suggestion) => suggestion.kind === 'rewrite');
    if (shape.rewrite) {
      expect(rewrite?.equivalent).toBe(shape.rewrite === 'equivalent');
    } else {
      expect(rewrite).toBeUndefined();
    }

    // Before: the wrapped predicate scans.
    // (an UPDATE walks the clustered index: type `index` on PRIMARY, still every row).
    const before = await explainRow(connection, sql);
    expect(['ALL', 'index']).toContain(before.type);
    expect([null, 'PRIMARY']).toContain(before.key);

    // Rewrites: same rows when marked equivalent; different here when not (the data holds leading zeros).
    const select = sql.startsWith('UPDATE') ? undefined : sql;
    if (rewrite?.rewrittenSql && select) {
      const [original, rewritten] = [
        await checksum(connection, select),
        await checksum(connection, rewrite.rewrittenSql),
      ];
      expect(original.rows).toBeGreaterThan(0);
      if (rewrite.equivalent) expect(rewritten).toEqual(original);
      else expect(rewritten).not.toEqual(original);
    }

    // After the DDL: the query the advice says to run uses the proposed index.
    const added = { indexes: [] as string[], columns: [] as string[] };
    try {
      for (const statement of withDdl?.ddl ?? []) await connection.query(statement);
      if (withDdl?.indexName) added.indexes.push(withDdl.indexName);
      const column = /ADD COLUMN (\w+)/.exec(withDdl?.ddl[0] ?? '')?.[1];
      if (column) added.columns.push(column);
      await connection.query('ANALYZE TABLE products');
      const target =
        withDdl?.rewrittenSql ?? (withDdl?.kind === 'index' ? rewrite?.rewrittenSql : undefined) ?? sql;
      const after = await explainRow(connection, target);
      expect({ key: after.key, type: (shape.accessTypes ?? SEEK).includes(String(after.type)) }).toEqual({
        key: withDdl?.indexName,
        type: true,
      });
      if (withDdl?.kind === 'generated-column' && withDdl.rewrittenSql && !sql.startsWith('UPDATE')) {
        // A generated column named in the query returns the same rows as the expression.
        expect(await checksum(connection, withDdl.rewrittenSql)).toEqual(await checksum(connection, sql));
      }
    } finally {
      for (const index of added.indexes)
        await connection.query(`ALTER TABLE products DROP INDEX \`${index}\``).catch(() => undefined);
      for (const column of added.columns)
        await connection.query(`ALTER TABLE products DROP COLUMN \`${column}\``).catch(() => undefined);
    }
  });

  it.each(joinShapes.map((shape) => [shape.name, shape] as const))(
    'join condition: %s',
    async (_name, shape) => {
      const finding = advise(shape.sql).find(
        (candidate) => candidate.rule === shape.rule && candidate.table === 'products',
      );
      expect(finding, `${shape.rule} must flag ${shape.sql}`).toBeDefined();
      const suggestions = finding?.suggestions ?? [];
      // A functional index is never used for a join condition (server-facts): only a named generated column.
      expect(suggestions.map((suggestion) => suggestion.kind)).not.toContain('functional-index');
      const withDdl = suggestions.find((suggestion) => suggestion.ddl.length > 0);
      expect(withDdl?.kind).toBe('generated-column');
      expect(withDdl?.rewrittenSql).toBeDefined();

      // Before: products is scanned for the join (no usable index).
      const before = await explainRows(connection, shape.sql);
      expect(before.p?.key ?? null).toBeNull();
      for (const rewrite of suggestions.filter((suggestion) => suggestion.kind === 'rewrite'))
        if (rewrite.equivalent && rewrite.rewrittenSql)
          expect(await checksum(connection, rewrite.rewrittenSql)).toEqual(
            await checksum(connection, shape.sql),
          );

      const column = /ADD COLUMN (\w+)/.exec(withDdl?.ddl[0] ?? '')?.[1];
      try {
        for (const statement of withDdl?.ddl ?? []) await connection.query(statement);
        await connection.query('ANALYZE TABLE products');
        const after = await explainRows(connection, withDdl?.rewrittenSql ?? '');
        expect({ key: after.p?.key, seeks: SEEK.includes(String(after.p?.type)) }).toEqual({
          key: withDdl?.indexName,
          seeks: true,
        });
        // The query naming the generated column returns the same rows as the original.
        const original = await checksum(connection, shape.sql);
        expect(original.rows).toBeGreaterThan(0);
        expect(await checksum(connection, withDdl?.rewrittenSql ?? '')).toEqual(original);
      } finally {
        if (withDdl?.indexName)
          await connection
            .query(`ALTER TABLE products DROP INDEX \`${withDdl.indexName}\``)
            .catch(() => undefined);
        if (column)
          await connection.query(`ALTER TABLE products DROP COLUMN \`${column}\``).catch(() => undefined);
      }
    },
  );

  it('flags YEAR()/DATE()/UPPER() on an indexed column exactly where the server scans (MariaDB >= 11.1 rewrites some)', async () => {
    const withIndexes = schemaFromDdl(
      `${TABLE_DDL.replace('PRIMARY KEY (id)', 'PRIMARY KEY (id), KEY ix_updated (updated), KEY ix_name (name), KEY ix_code (code)')};\n${DAYS_DDL}`,
      flavor,
    ).schema;
    const statements = [
      'SELECT id FROM products WHERE YEAR(updated) = 2019',
      "SELECT id FROM products WHERE DATE(updated) <= '2018-01-20'",
      'SELECT id FROM products WHERE YEAR(updated) BETWEEN 2019 AND 2020',
      'SELECT id FROM products WHERE MONTH(updated) = 10',
      "SELECT id FROM products WHERE UPPER(name) = 'ALPHA_10'",
      "SELECT id FROM products WHERE LOWER(name) = 'alpha_10'",
      "SELECT id FROM products WHERE UPPER(code) = 'AB000010'",
    ];
    await connection.query(
      'ALTER TABLE products ADD INDEX ix_updated (updated), ADD INDEX ix_name (name), ADD INDEX ix_code (code)',
    );
    try {
      await connection.query('ANALYZE TABLE products');
      const observed: { sql: string; flagged: boolean }[] = [];
      const expected: { sql: string; flagged: boolean }[] = [];
      for (const sql of statements) {
        const row = await explainRow(connection, sql);
        expected.push({ sql, flagged: !SEEK.includes(String(row.type)) });
        observed.push({
          sql,
          flagged: advise(sql, withIndexes).some((finding) => finding.rule === 'FUN001'),
        });
      }
      expect(observed).toEqual(expected);
    } finally {
      await connection.query(
        'ALTER TABLE products DROP INDEX ix_updated, DROP INDEX ix_name, DROP INDEX ix_code',
      );
    }
  });

  it('weighs selectivity from live statistics: an unselective key gets the note, a selective one does not', async () => {
    // Through the app's own read-only, guarded analysis session: the samples must pass the statement guard.
    const connections = new ConnectionService();
    const opened = await connections.openConnection({ dsn: `${url}${database}` });
    try {
      const { connection: session, server } = connections.get(opened.connectionId);
      const live = await loadSchema(session, server, database, ['products']);
      const cases = [
        { sql: 'SELECT id FROM products WHERE status = 1', rule: 'IDX001' },
        { sql: 'SELECT id FROM products WHERE qty = 5000', rule: 'IDX001' },
        { sql: 'SELECT id FROM products WHERE MONTH(create_time) = 10', rule: 'FUN001' },
        { sql: "SELECT id FROM products WHERE TRIM(name) = 'beta_11'", rule: 'FUN001' },
      ];
      const observed: Record<string, boolean[]> = {};
      for (const { sql, rule } of cases) {
        const report = await runLiveAnalysis(session, sql, server, live);
        const finding = report.statements[0]?.findings.find((candidate) => candidate.rule === rule);
        const withDdl = finding?.suggestions.filter((suggestion) => suggestion.ddl.length > 0) ?? [];
        expect(withDdl.length, sql).toBeGreaterThan(0);
        observed[sql] = withDdl.map((suggestion) =>
          suggestion.notes.some((note) => note.startsWith('Low selectivity (live statistics)')),
        );
      }
      // status: 3 values, MONTH(): 12 values → noted on every index suggestion; qty and TRIM(name): thousands → none.
      const functionalKinds = flavor === 'mysql' ? [true, true] : [true];
      expect(observed).toEqual({
        [cases[0]!.sql]: [true],
        [cases[1]!.sql]: [false],
        [cases[2]!.sql]: functionalKinds,
        [cases[3]!.sql]: functionalKinds.map(() => false),
      });
      // The offline analysis of the same query carries no live note.
      const offline = advise(cases[0]!.sql).find((finding) => finding.rule === 'IDX001');
      expect(offline?.suggestions[0]?.notes.join(' ')).not.toMatch(/live statistics/);
    } finally {
      await connections.closeAll();
    }
  });

  it('has at least 20 shapes', () => {
    expect(shapes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(negatives)('does not flag: %s', (sql) => {
    // No non-sargable finding; IDX001 (category plan, info) may still say a bare column has no index,
    // and COR005 (info) that MySQL 8.0 returns GROUP BY groups unsorted.
    expect(advise(sql).filter((finding) => finding.category !== 'plan' && finding.rule !== 'COR005')).toEqual(
      [],
    );
  });

  it('does not flag a predicate an existing index on the expression serves (MySQL), and names the column (MariaDB)', async () => {
    const ddl =
      flavor === 'mysql'
        ? 'ALTER TABLE products ADD INDEX fi ((MONTH(create_time)))'
        : 'ALTER TABLE products ADD COLUMN ct_month TINYINT AS (MONTH(create_time)) VIRTUAL, ADD INDEX gi (ct_month)';
    const withIndex = schemaFromDdl(
      TABLE_DDL.replace(
        'PRIMARY KEY (id)',
        flavor === 'mysql'
          ? 'PRIMARY KEY (id), KEY fi ((MONTH(create_time)))'
          : 'PRIMARY KEY (id), KEY gi (ct_month)',
      ).replace(
        'doc json,',
        flavor === 'mysql' ? 'doc json,' : 'doc json, ct_month tinyint AS (MONTH(create_time)) VIRTUAL,',
      ),
      flavor,
    ).schema;
    const sql = 'SELECT id FROM products WHERE MONTH(create_time) = 10';
    try {
      await connection.query(ddl);
      await connection.query('ANALYZE TABLE products');
      const findings = advise(sql, withIndex);
      if (flavor === 'mysql') {
        expect(findings).toEqual([]);
        expect(await explainRow(connection, sql)).toMatchObject({ key: 'fi', type: 'ref' });
      } else {
        // MariaDB never substitutes: the unchanged query scans, the rewrite naming the column seeks.
        const rewrite = findings[0]?.suggestions[0];
        expect(rewrite).toMatchObject({ kind: 'rewrite', equivalent: true, ddl: [] });
        expect(await explainRow(connection, sql)).toMatchObject({ type: 'ALL' });
        expect(await explainRow(connection, rewrite?.rewrittenSql ?? '')).toMatchObject({
          key: 'gi',
          type: 'ref',
        });
        expect(await checksum(connection, rewrite?.rewrittenSql ?? '')).toEqual(
          await checksum(connection, sql),
        );
      }
    } finally {
      if (flavor === 'mysql') await connection.query('ALTER TABLE products DROP INDEX fi');
      else await connection.query('ALTER TABLE products DROP INDEX gi, DROP COLUMN ct_month');
    }
  });

  it('refuses a non-deterministic expression in an index, and the server agrees', async () => {
    const finding = advise('SELECT id FROM products WHERE DATEDIFF(NOW(), updated) < 30')[0];
    expect(finding?.suggestions.filter((suggestion) => suggestion.ddl.length > 0)).toEqual([]);
    expect(finding?.notes?.join(' ')).toMatch(/not deterministic/);
    const ddl =
      flavor === 'mysql'
        ? 'ALTER TABLE products ADD INDEX bad ((DATEDIFF(NOW(), updated)))'
        : 'ALTER TABLE products ADD COLUMN bad INT AS (DATEDIFF(NOW(), updated)) VIRTUAL, ADD INDEX bad (bad)';
    await expect(connection.query(ddl)).rejects.toMatchObject({ errno: flavor === 'mysql' ? 3758 : 1901 });
  });
});
