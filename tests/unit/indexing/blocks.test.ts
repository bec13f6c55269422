// Every query block gets its own design (core/indexing/blocks.ts): UNION branches, derived tables, CTEs,
// IN / EXISTS / scalar subqueries. Server proof: the subquery and UNION cases of
// tests/integration/index-design.test.ts.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { designQueryIndexes, type TableIndexPlan } from '../../../src/core/indexing/index.js';
import { designWorkloadIndexes } from '../../../src/core/indexing/index.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement } from '../../../src/core/sql/parse.js';

const DDL = `
CREATE TABLE orders (
  id int NOT NULL, customer_id int NOT NULL, status varchar(20) NOT NULL, created_at datetime NOT NULL,
  total decimal(10,2), PRIMARY KEY (id), KEY idx_cust (customer_id)
) ENGINE=InnoDB;
CREATE TABLE items (id int NOT NULL PRIMARY KEY, order_id int NOT NULL, product_id int NOT NULL, qty int NOT NULL) ENGINE=InnoDB;
CREATE TABLE customers (id int NOT NULL PRIMARY KEY, country char(2) NOT NULL, segment tinyint NOT NULL) ENGINE=InnoDB;
`;
const schema = schemaFromDdl(DDL, 'mysql').schema;
const server = offlineServerInfo('mysql', '8.0.33');

function design(sql: string) {
  const parsed = parseStatement(sql, 'mysql');
  if (!parsed.ok) throw new Error(parsed.message);
  const plan = designQueryIndexes(parsed.ast, sql, schema, server);
  if (!plan) throw new Error('no plan');
  return plan;
}
const summary = (plan: { tables: TableIndexPlan[] }) =>
  plan.tables.map((table) => [
    table.scope ?? 'main',
    table.table,
    table.verdict,
    table.parts.map((part) => part.column ?? `(${part.expression})`).join(', '),
  ]);

describe('nested query blocks', () => {
  it('a correlated EXISTS: the correlated column of the inner table is an equality, then its own filters', () => {
    expect(
      summary(
        design(
          "SELECT c.id FROM customers c WHERE c.country = 'JP' AND EXISTS (SELECT 1 FROM items i WHERE i.order_id = c.id AND i.qty > 5)",
        ),
      ),
    ).toEqual([
      ['main', 'customers', 'create', 'country'],
      ['EXISTS subquery', 'items', 'create', 'order_id, qty'],
    ]);
  });

  it('an IN subquery: its own equalities, then the selected column the outer row is looked up by', () => {
    expect(
      summary(design('SELECT id FROM orders WHERE id IN (SELECT order_id FROM items WHERE product_id = 5)')),
    ).toEqual([
      ['main', 'orders', 'none', ''],
      ['IN subquery', 'items', 'create', 'product_id, order_id'],
    ]);
    expect(
      summary(design('SELECT id FROM orders WHERE id NOT IN (SELECT order_id FROM items)')).at(-1),
    ).toEqual(['NOT IN subquery', 'items', 'create', 'order_id']);
  });

  it('UNION branches each get a design; the trailing ORDER BY … LIMIT belongs to the union', () => {
    expect(
      summary(
        design(
          "SELECT id FROM orders WHERE status = 'x' UNION SELECT id FROM customers WHERE country = 'JP' ORDER BY id LIMIT 3",
        ),
      ),
    ).toEqual([
      ['UNION branch 1', 'orders', 'create', 'status'],
      ['UNION branch 2', 'customers', 'create', 'country'],
    ]);
  });

  it('derived tables, CTEs and scalar subqueries', () => {
    expect(
      summary(
        design(
          "WITH paid AS (SELECT customer_id FROM orders WHERE status = 'paid' AND created_at > '2024-01-01') SELECT d.n, (SELECT COUNT(*) FROM items i WHERE i.product_id = 3) AS p FROM (SELECT country, COUNT(*) AS n FROM customers WHERE segment = 2 GROUP BY country) AS d",
        ),
      ),
    ).toEqual([
      ['WITH paid', 'orders', 'create', 'status, created_at, customer_id'],
      ['derived table d', 'customers', 'create', 'segment, country'],
      ['subquery', 'items', 'create', 'product_id'],
    ]);
  });

  it('one DDL per index when two blocks design the same one, and one extension per existing index', () => {
    const same = design(
      "SELECT id FROM orders WHERE status = 'x' UNION ALL SELECT id FROM orders WHERE status = 'y'",
    );
    expect(same.tables.map((table) => table.ddl.length)).toEqual([1, 0]);
    expect(same.tables[1]!.notes.at(-1)).toMatch(/same index is proposed for UNION branch 1/);
    const extended = design(
      "SELECT id FROM orders WHERE customer_id = 1 AND status = 'x' UNION ALL SELECT id FROM orders WHERE customer_id = 2 AND total > 5",
    );
    expect(extended.tables.map((table) => table.verdict)).toEqual(['extend', 'create']);
    expect(extended.tables.flatMap((table) => table.ddl)).toEqual([
      'ALTER TABLE orders DROP INDEX idx_cust, ADD INDEX idx_cust (customer_id, `status`), ALGORITHM=INPLACE, LOCK=NONE;',
      'ALTER TABLE orders ADD INDEX idx_orders_customer_id_total (customer_id, total);',
    ]);
  });

  it('analyze: a UNION gets an index plan and IDX001 proposes the index of the block the predicate is in', () => {
    const report = analyze(
      "SELECT id FROM orders WHERE status = 'x' UNION SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = c.id AND i.qty = 2)",
      { server, source: 'flags', schema },
    );
    const statement = report.statements[0]!;
    expect(statement.indexPlan?.tables.map((table) => table.scope)).toEqual([
      'UNION branch 1',
      'UNION branch 2',
      'EXISTS subquery',
    ]);
    const ddl = statement.findings
      .filter((finding) => finding.rule === 'IDX001')
      .flatMap((finding) => finding.suggestions.flatMap((suggestion) => suggestion.ddl));
    expect(ddl.sort()).toEqual(
      [
        'ALTER TABLE items ADD INDEX idx_items_order_id_qty (order_id, qty);',
        'ALTER TABLE orders ADD INDEX idx_orders_status (`status`);',
      ].sort(),
    );
  });

  it('a workload counts the indexes of subqueries as needs of their statement', () => {
    const plan = designWorkloadIndexes(
      [
        {
          sql: 'SELECT id FROM orders WHERE id IN (SELECT order_id FROM items WHERE product_id = 5)',
          weight: 5,
        },
      ],
      schema,
      server,
    );
    expect(plan.indexes.map((index) => [index.table, index.parts.map((part) => part.column)])).toEqual([
      ['items', ['product_id', 'order_id']],
    ]);
  });
});
