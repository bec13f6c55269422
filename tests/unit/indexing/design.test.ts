// Per-query index design (core/indexing): column order by access path, existing indexes, server limits.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { designQueryIndexes, whatIfDdl, type TableIndexPlan } from '../../../src/core/indexing/index.js';
import { keyPartBytes } from '../../../src/core/indexing/key-length.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement } from '../../../src/core/sql/parse.js';

const DDL = `
CREATE TABLE orders (
  id int NOT NULL AUTO_INCREMENT, customer_id int NOT NULL, status varchar(20) NOT NULL,
  created_at datetime NOT NULL, total decimal(10,2), note text, payload json,
  PRIMARY KEY (id), KEY idx_cust (customer_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE customers (
  id int NOT NULL, country char(2) NOT NULL, name varchar(100), email varchar(200) NOT NULL,
  PRIMARY KEY (id), UNIQUE KEY uk_email (email)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE items (id int NOT NULL, order_id int NOT NULL, sku varchar(40), qty int, PRIMARY KEY (id)) ENGINE=InnoDB;
CREATE TABLE wide (id int NOT NULL PRIMARY KEY, a varchar(500) NOT NULL, b varchar(500) NOT NULL, c int) DEFAULT CHARSET=utf8mb4;
CREATE TABLE served (id int NOT NULL PRIMARY KEY, a int, b int, c int, d int, KEY idx_ab (a, b), KEY idx_bc (b, c)) ENGINE=InnoDB;
`;
const schema = schemaFromDdl(DDL, 'mysql').schema;

function design(
  sql: string,
  flavor: 'mysql' | 'mariadb' = 'mysql',
  version = flavor === 'mysql' ? '8.0.33' : '10.11.6',
) {
  const parsed = parseStatement(sql, flavor);
  if (!parsed.ok) throw new Error(parsed.message);
  const plan = designQueryIndexes(parsed.ast, sql, schema, offlineServerInfo(flavor, version));
  if (!plan) throw new Error('no plan');
  return plan;
}
const keyOf = (plan: TableIndexPlan) =>
  plan.parts.map(
    (part) =>
      `${part.column ?? `(${part.expression})`}${part.prefixLength ? `(${part.prefixLength})` : ''}${part.desc ? ' DESC' : ''}`,
  );
const only = (sql: string, flavor?: 'mysql' | 'mariadb', version?: string) =>
  design(sql, flavor, version).tables[0]!;

describe('per-query design', () => {
  it('designs ONE index for the issue query: equalities, the ORDER BY column, then the narrow select list', () => {
    const plan = only(
      "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10",
    );
    expect(keyOf(plan)).toEqual(['customer_id', 'status', 'created_at', 'total']);
    expect(plan.sortFromIndex).toBe(true);
    expect(plan.covering).toBe(true);
    // idx_cust (customer_id) is a left prefix: extended in place, never a second index next to it.
    expect(plan.verdict).toBe('extend');
    expect(plan.ddl).toEqual([
      'ALTER TABLE orders DROP INDEX idx_cust, ADD INDEX idx_cust (customer_id, `status`, created_at, total), ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
  });

  it('analyze() reports one IDX001 finding with the designed index instead of one per predicate', () => {
    const report = analyze(
      "SELECT id, total FROM orders WHERE status = 'paid' AND created_at > '2020-01-01' AND total > 5",
      {
        server: offlineServerInfo('mysql', '8.0.33'),
        source: 'flags',
        schema,
      },
    );
    const idx = report.statements[0]!.findings.filter((finding) => finding.rule === 'IDX001');
    expect(idx).toHaveLength(1);
    expect(idx[0]!.suggestions[0]!.ddl).toEqual([
      'ALTER TABLE orders ADD INDEX idx_orders_status_created_at_total (`status`, created_at, total);',
    ]);
    expect(report.statements[0]!.indexPlan?.tables[0]?.verdict).toBe('create');
  });

  it('puts the primary key nowhere: ORDER BY id after an equality is already in index order', () => {
    const plan = only('SELECT * FROM orders WHERE customer_id = 4 ORDER BY id DESC LIMIT 5');
    expect(plan.verdict).toBe('served');
    expect(plan.existingIndex).toBe('idx_cust');
    expect(plan.sortFromIndex).toBe(true);
  });

  it('prefers the range without a LIMIT and the sort with one', () => {
    expect(
      keyOf(only("SELECT * FROM orders WHERE status = 'x' AND total > 100 ORDER BY created_at")),
    ).toEqual(['status', 'total']);
    const limited = only(
      "SELECT * FROM orders WHERE status = 'x' AND total > 100 ORDER BY created_at LIMIT 10",
    );
    expect(keyOf(limited)).toEqual(['status', 'created_at', 'total']);
    expect(limited.sortFromIndex).toBe(true);
  });

  it('one part serves a range that is also the ORDER BY column', () => {
    const plan = only(
      "SELECT * FROM orders WHERE status = 'x' AND created_at >= '2020-01-01' ORDER BY created_at",
    );
    expect(keyOf(plan)).toEqual(['status', 'created_at']);
    expect(plan.sortFromIndex).toBe(true);
  });

  it('an IN list seeks like an equality but the sort after it stays', () => {
    const plan = only(
      "SELECT * FROM orders WHERE status IN ('a', 'b') AND customer_id = 3 ORDER BY created_at LIMIT 5",
    );
    expect(keyOf(plan)).toEqual(['customer_id', 'status']);
    expect(plan.sortFromIndex).toBe(false);
  });

  it('counts IS NULL as an equality and a prefix LIKE as a range; a leading wildcard as nothing', () => {
    expect(keyOf(only("SELECT * FROM orders WHERE total IS NULL AND status LIKE 'pa%'"))).toEqual([
      'total',
      'status',
    ]);
    expect(only("SELECT * FROM orders WHERE status LIKE '%x'").verdict).toBe('none');
  });

  it('mixes ASC and DESC with descending key parts where the server has them', () => {
    const sql = 'SELECT * FROM orders WHERE customer_id = 1 ORDER BY status ASC, created_at DESC LIMIT 5';
    expect(keyOf(only(sql))).toEqual(['customer_id', 'status', 'created_at DESC']);
    expect(keyOf(only(sql, 'mariadb', '10.11.6'))).toEqual(['customer_id', 'status', 'created_at DESC']);
    const old = only(sql, 'mysql', '5.7.44');
    expect(old.sortFromIndex).toBe(false);
    expect(old.verdict).toBe('served');
  });

  it('GROUP BY columns follow the equalities (no temporary table)', () => {
    const plan = only('SELECT status, COUNT(*) FROM orders WHERE customer_id = 7 GROUP BY status');
    expect(keyOf(plan)).toEqual(['customer_id', 'status']);
    expect(plan.sortFromIndex).toBe(true);
  });

  it('does not cover SELECT * nor TEXT columns, and covers a narrow select list', () => {
    expect(only("SELECT * FROM orders WHERE status = 'x'").covering).toBe(false);
    expect(keyOf(only("SELECT note FROM orders WHERE status = 'x'"))).toEqual(['status']);
    expect(keyOf(only("SELECT total FROM orders WHERE status = 'x'"))).toEqual(['status', 'total']);
  });

  it('says when an existing index serves the query (any order of its equality columns)', () => {
    const plan = only('SELECT * FROM served WHERE b = 1 AND a = 2');
    expect(plan.verdict).toBe('served');
    expect(plan.existingIndex).toBe('idx_ab');
    expect(plan.ddl).toEqual([]);
    expect(only('SELECT * FROM served WHERE b = 1 AND c > 2').existingIndex).toBe('idx_bc');
    expect(only('SELECT * FROM customers WHERE email = ?').existingIndex).toBe('uk_email');
  });

  it('never proposes a duplicate or a left prefix of an existing index', () => {
    for (const sql of [
      'SELECT * FROM served WHERE a = 1',
      'SELECT * FROM served WHERE a = 1 AND b > 3',
      'SELECT * FROM served WHERE b = 1 ORDER BY c LIMIT 3',
    ])
      expect(only(sql).verdict, sql).toBe('served');
  });

  it('joins: the filtered table drives; the inner table gets its join column (plus its filters)', () => {
    const plan = design(
      'SELECT o.id, i.sku FROM orders o JOIN items i ON i.order_id = o.id WHERE o.customer_id = 5 AND i.qty = 2',
    );
    expect(plan.drivingTable).toBe('orders');
    const items = plan.tables.find((table) => table.table === 'items')!;
    expect(items.role).toBe('inner');
    expect(keyOf(items)).toEqual(['order_id', 'qty', 'sku']);
    expect(plan.notes.join(' ')).toMatch(/orders drives the join/);
    // Joined by its primary key: eq_ref, nothing to add.
    const reverse = design(
      "SELECT c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'x'",
    );
    expect(reverse.tables.find((table) => table.table === 'customers')!.verdict).toBe('served');
  });

  it('the optional side of a LEFT JOIN never drives', () => {
    const plan = design(
      "SELECT * FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.status = 'x' WHERE c.country = 'DE'",
    );
    expect(plan.drivingTable).toBe('customers');
    expect(keyOf(plan.tables.find((table) => table.table === 'orders')!)).toEqual(['customer_id', 'status']);
  });

  it('function-wrapped predicates: a functional key part on MySQL 8.0.13+, a generated column on MariaDB', () => {
    const mysql = only('SELECT * FROM orders WHERE customer_id = 3 AND YEAR(created_at) = 2020');
    expect(keyOf(mysql)).toEqual(['customer_id', '(YEAR(created_at))']);
    expect(mysql.ddl[0]).toContain('(YEAR(created_at))');
    const maria = only('SELECT * FROM orders WHERE customer_id = 3 AND YEAR(created_at) = 2020', 'mariadb');
    expect(keyOf(maria)).toEqual(['customer_id', 'created_at_year']);
    expect(maria.notes.join(' ')).toMatch(/no functional key parts/i);
    // Generated columns in depth: tests/unit/indexing/generated-columns.test.ts.
  });

  it('TEXT gets a prefix, JSON is never a key part, and the key stays within 3072 bytes', () => {
    expect(keyOf(only("SELECT id FROM orders WHERE note = 'x'"))).toEqual(['note(64)']);
    expect(only("SELECT id FROM orders WHERE payload = 'x'").verdict).toBe('none');
    const wide = only("SELECT c FROM wide WHERE a = 'x' AND b = 'y'");
    expect(wide.keyBytes).toBeLessThanOrEqual(3072);
    expect(wide.parts.some((part) => part.prefixLength)).toBe(true);
  });

  it('counts key bytes the way InnoDB does', () => {
    const table = schema.tables.find((t) => t.name === 'orders')!;
    const col = (name: string) => table.columns.find((c) => c.name === name)!;
    expect(keyPartBytes(col('status'), table)).toBe(80);
    expect(keyPartBytes(col('created_at'), table)).toBe(5);
    expect(keyPartBytes(col('total'), table)).toBe(5);
    expect(keyPartBytes(col('note'), table)).toBeUndefined();
    expect(keyPartBytes(col('note'), table, 10)).toBe(40);
  });

  it('ORDER BY alone without a LIMIT proposes nothing (a scan and a sort are cheaper)', () => {
    expect(only('SELECT * FROM orders ORDER BY created_at').verdict).toBe('none');
    expect(keyOf(only('SELECT * FROM orders ORDER BY created_at LIMIT 10'))).toEqual(['created_at']);
  });

  it('what-if tries an extension next to the old index and drops nothing', () => {
    expect(
      whatIfDdl(
        'ALTER TABLE orders DROP INDEX idx_cust, ADD INDEX idx_cust (customer_id, `status`), ALGORITHM=INPLACE, LOCK=NONE;',
      ),
    ).toBe('ALTER TABLE orders ADD INDEX idx_cust_whatif (customer_id, `status`);');
    const create = 'ALTER TABLE orders ADD INDEX idx_x (a);';
    expect(whatIfDdl(create)).toBe(create);
  });
});
