// Function-wrapped predicates on servers without functional key parts (MariaDB, MySQL < 8.0.13): a
// VIRTUAL generated column per expression, keyed by the access-path rules, shared across a workload.
// The servers' side (DDL accepted, index used, rows read) is proven in tests/integration/index-design.test.ts.
import { describe, expect, it } from 'vitest';
import { designQueryIndexes, designWorkloadIndexes, whatIfDdl } from '../../../src/core/indexing/index.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement } from '../../../src/core/sql/parse.js';

const DDL = `
CREATE TABLE orders (
  id int NOT NULL AUTO_INCREMENT, customer_id int NOT NULL, status varchar(20) NOT NULL,
  created_at datetime NOT NULL, total decimal(10,2), email varchar(100) NOT NULL,
  PRIMARY KEY (id), KEY idx_cust (customer_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE events (
  id int NOT NULL PRIMARY KEY, ts datetime NOT NULL, kind tinyint NOT NULL, len int unsigned NOT NULL,
  ts_day date GENERATED ALWAYS AS (cast(ts as date)) VIRTUAL, KEY idx_day (ts_day)
) ENGINE=InnoDB;
`;
const MARIADB = offlineServerInfo('mariadb', '10.11.6');
const MYSQL57 = offlineServerInfo('mysql', '5.7.44');
const MYSQL8 = offlineServerInfo('mysql', '8.0.33');

function design(sql: string, server = MARIADB) {
  const schema = schemaFromDdl(DDL, server.flavor).schema;
  const parsed = parseStatement(sql, server.flavor);
  if (!parsed.ok) throw new Error(parsed.message);
  const plan = designQueryIndexes(parsed.ast, sql, schema, server);
  if (!plan) throw new Error('no plan');
  return plan;
}
const keyOf = (parts: { column?: string; expression?: string }[]) =>
  parts.map((part) => part.column ?? `(${part.expression})`);

describe('generated columns in the composite design', () => {
  it('MariaDB: the expression becomes a VIRTUAL column in the key, added in the same ALTER, and the query must change', () => {
    const plan = design("SELECT id FROM orders WHERE YEAR(created_at) = 2021 AND status = 'paid'");
    const table = plan.tables[0]!;
    expect(keyOf(table.parts)).toEqual(['created_at_year', 'status']);
    expect(table.parts[0]!.generated).toEqual({
      expression: 'YEAR(created_at)',
      definition: 'SMALLINT GENERATED ALWAYS AS (YEAR(created_at)) VIRTUAL',
    });
    expect(table.ddl).toEqual([
      'ALTER TABLE orders ADD COLUMN created_at_year SMALLINT GENERATED ALWAYS AS (YEAR(created_at)) VIRTUAL, ADD INDEX idx_orders_created_at_year_status (created_at_year, `status`);',
    ]);
    expect(plan.queryMustChange).toBe(true);
    expect(plan.rewrittenSql).toBe("SELECT id FROM orders WHERE created_at_year = 2021 AND status = 'paid'");
    expect(table.notes.join(' ')).toMatch(/does not substitute YEAR\(created_at\).*must change/);
    expect(table.notes.join(' ')).toMatch(/LOCK=NONE/);
    // Covering is judged on the rewritten statement (it no longer reads created_at).
    expect(table.covering).toBe(true);
  });

  it('keeps the access-path order: equality, then the generated range column, then the ORDER BY … LIMIT rules', () => {
    const range = design(
      "SELECT o.id FROM orders o WHERE o.status = 'x' AND DATE(o.created_at) BETWEEN '2021-01-01' AND '2021-02-01'",
    );
    expect(keyOf(range.tables[0]!.parts)).toEqual(['status', 'created_at_date']);
    expect(range.tables[0]!.parts[1]!.role).toBe('range');
    // The qualifier the query uses is kept in the rewrite.
    expect(range.rewrittenSql).toContain("o.created_at_date BETWEEN '2021-01-01' AND '2021-02-01'");
    const sorted = design('SELECT id FROM orders WHERE MONTH(created_at) = 2 ORDER BY total LIMIT 5');
    expect(keyOf(sorted.tables[0]!.parts)).toEqual(['created_at_month', 'total']);
    expect(sorted.tables[0]!.sortFromIndex).toBe(true);
  });

  it('extends an existing left-prefix index in one ALTER with LOCK=SHARED (LOCK=NONE is refused with a new virtual column)', () => {
    const table = design('SELECT id FROM orders WHERE customer_id = 3 AND YEAR(created_at) = 2020')
      .tables[0]!;
    expect(table.verdict).toBe('extend');
    expect(table.ddl).toEqual([
      'ALTER TABLE orders ADD COLUMN created_at_year SMALLINT GENERATED ALWAYS AS (YEAR(created_at)) VIRTUAL, DROP INDEX idx_cust, ADD INDEX idx_cust (customer_id, created_at_year), ALGORITHM=INPLACE, LOCK=SHARED;',
    ]);
    // What-if never drops: the extension is tried as a new index next to the old one, the column added.
    expect(whatIfDdl(table.ddl[0]!)).toBe(
      'ALTER TABLE orders ADD COLUMN created_at_year SMALLINT GENERATED ALWAYS AS (YEAR(created_at)) VIRTUAL, ADD INDEX idx_cust_whatif (customer_id, created_at_year);',
    );
  });

  it("MariaDB's declared types: DATE_FORMAT as VARCHAR in its 3-argument form, string functions with the column's collation", () => {
    const format = design("SELECT id FROM orders WHERE DATE_FORMAT(created_at, '%Y-%m') = '2021-03'");
    expect(format.generatedColumns?.[0]?.definition).toBe(
      "VARCHAR(7) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin GENERATED ALWAYS AS (DATE_FORMAT(created_at, '%Y-%m', 'en_US')) VIRTUAL",
    );
    const lower = design("SELECT id FROM orders WHERE LOWER(email) = 'a@b.c'");
    expect(lower.generatedColumns?.[0]?.definition).toBe(
      'VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci GENERATED ALWAYS AS (LOWER(email)) VIRTUAL',
    );
  });

  it('an expression the advisor cannot type, or whose column would compare differently, stays out of the key with the reason', () => {
    const untyped = design("SELECT id FROM orders WHERE SOUNDEX(email) = 'A000' AND status = 'x'");
    expect(keyOf(untyped.tables[0]!.parts)).toEqual(['status', 'email']); // email: covering
    expect(untyped.generatedColumns).toBeUndefined();
    expect(untyped.rewrittenSql).toBeUndefined();
    expect(untyped.notes.join(' ')).toMatch(/No generated column for SOUNDEX\(email\)/);
    // A CAST of a string column: its DDL depends on the stored values (and MariaDB refuses some: 1901).
    const cast = design("SELECT id FROM orders WHERE CAST(status AS DATE) = '2021-01-01'");
    expect(cast.generatedColumns).toBeUndefined();
    expect(cast.notes.join(' ')).toMatch(/CAST of the string column status/);
    // A CAST of a DATETIME is typed, but the parser keeps no position for a CAST: no rewrite, said so.
    const unplaced = design("SELECT id FROM orders WHERE CAST(created_at AS DATE) = '2021-01-01'");
    expect(unplaced.generatedColumns).toBeUndefined();
    expect(unplaced.notes.join(' ')).toMatch(/no position/);
    // An AUTO_INCREMENT column: neither server indexes an expression over it.
    const auto = design('SELECT id FROM orders WHERE id * 2 = 10');
    expect(auto.generatedColumns).toBeUndefined();
    expect(auto.notes.join(' ')).toMatch(/AUTO_INCREMENT/);
    // MariaDB: a subtraction with an UNSIGNED column (ERROR 1901); the addition is accepted.
    const minus = design('SELECT id FROM events WHERE len - 1 = 10');
    expect(minus.generatedColumns).toBeUndefined();
    expect(minus.notes.join(' ')).toMatch(/ERROR 1901/);
    expect(design('SELECT id FROM events WHERE len + 1 = 10').generatedColumns).toHaveLength(1);
    // A DATE_FORMAT range with a letter constant: the utf8mb4_bin column would not return the same rows.
    const caveat = design("SELECT id FROM orders WHERE DATE_FORMAT(created_at, '%Y') > 'abc'");
    expect(caveat.generatedColumns).toBeUndefined();
    expect(caveat.notes.join(' ')).toMatch(/Not equivalent for every constant/);
  });

  it('reuses a generated column the table already has (stored expression matched) and its index: no DDL, the query names it', () => {
    const plan = design("SELECT id FROM events WHERE DATE(ts) = '2021-05-01'");
    const table = plan.tables[0]!;
    expect(table.verdict).toBe('served');
    expect(table.existingIndex).toBe('idx_day');
    expect(table.ddl).toEqual([]);
    expect(plan.generatedColumns).toEqual([
      { table: 'events', name: 'ts_day', expression: 'DATE(ts)', existing: true },
    ]);
    expect(plan.rewrittenSql).toBe("SELECT id FROM events WHERE ts_day = '2021-05-01'");
    // An existing column keyed with a new equality: the new index keys on it, nothing is added.
    const keyed = design("SELECT id FROM events WHERE kind = 2 AND DATE(ts) = '2021-05-01'").tables[0]!;
    expect(keyOf(keyed.parts)).toEqual(['ts_day', 'kind']);
    expect(keyed.ddl.join(' ')).not.toMatch(/ADD COLUMN/);
  });

  it('MySQL 5.7 (no functional key parts, substitutes generated columns): same DDL, the query may stay, not covering as written', () => {
    const plan = design('SELECT id FROM orders WHERE YEAR(created_at) = 2021 AND status = "paid"', MYSQL57);
    expect(keyOf(plan.tables[0]!.parts)).toEqual(['created_at_year', 'status']);
    expect(plan.queryMustChange).toBe(false);
    expect(plan.tables[0]!.covering).toBe(false);
    expect(plan.tables[0]!.notes.join(' ')).toMatch(/substitutes YEAR\(created_at\).*can stay as written/);
    // An existing generated column is substituted by MySQL: keyed directly, no rewrite (design-table.ts).
    const existing = design("SELECT id FROM events WHERE DATE(ts) = '2021-05-01'", MYSQL57);
    expect(existing.tables[0]!.existingIndex).toBe('idx_day');
    expect(existing.rewrittenSql).toBeUndefined();
  });

  it('MySQL 8.0.33 keeps functional key parts (regression guard)', () => {
    const plan = design("SELECT id FROM orders WHERE YEAR(created_at) = 2021 AND status = 'paid'", MYSQL8);
    expect(keyOf(plan.tables[0]!.parts).slice(0, 2)).toEqual(['(YEAR(created_at))', 'status']);
    expect(plan.generatedColumns).toBeUndefined();
    expect(plan.tables[0]!.ddl.join(' ')).not.toMatch(/ADD COLUMN/);
  });

  it('a workload: one column per expression, added once by the first index of the set, shared by several statements', () => {
    const schema = schemaFromDdl(DDL, 'mariadb').schema;
    const plan = designWorkloadIndexes(
      [
        { sql: "SELECT id FROM orders WHERE YEAR(created_at) = 2021 AND status = 'x'", weight: 10 },
        { sql: 'SELECT COUNT(*) FROM orders WHERE YEAR(created_at) = 2022', weight: 5 },
        { sql: 'SELECT id, total FROM orders WHERE total > 5 AND YEAR(created_at) = 2023', weight: 8 },
        // Another expression with the same wrapper on another column gets its own name.
        { sql: "SELECT id FROM orders WHERE LOWER(email) = 'a' AND LOWER(status) = 'b'", weight: 3 },
      ],
      schema,
      MARIADB,
    );
    const ddl = plan.indexes.flatMap((index) => index.ddl).join('\n');
    expect(ddl.split('ADD COLUMN created_at_year ').length - 1).toBe(1);
    const users = plan.indexes.filter((index) =>
      index.parts.some((part) => part.column === 'created_at_year'),
    );
    expect(users.flatMap((index) => index.serves).sort()).toEqual([0, 1, 2]);
    // The column is added by the first index (in the set's order) that keys on it.
    expect(users[0]!.ddl[0]).toMatch(/ADD COLUMN created_at_year /);
    expect(plan.queries.slice(0, 3).map((query) => query.rewrittenSql)).toEqual([
      "SELECT id FROM orders WHERE created_at_year = 2021 AND status = 'x'",
      'SELECT COUNT(*) FROM orders WHERE created_at_year = 2022',
      'SELECT id, total FROM orders WHERE total > 5 AND created_at_year = 2023',
    ]);
    expect(plan.queries[0]!.queryMustChange).toBe(true);
    expect(plan.queries[3]!.rewrittenSql).toBe(
      "SELECT id FROM orders WHERE email_lower = 'a' AND status_lower = 'b'",
    );
  });
});
