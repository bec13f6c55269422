// Workload index design: merge by prefix, greedy by benefit per byte, budgets, write cost, no redundancy.
import { describe, expect, it } from 'vitest';
import {
  designWorkloadIndexes,
  redundantIndexes,
  workloadFromText,
  type WorkloadPlan,
} from '../../../src/core/indexing/index.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const schema = schemaFromDdl(
  `CREATE TABLE orders (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id int NOT NULL, status varchar(20) NOT NULL,
     created_at datetime NOT NULL, total decimal(10,2), KEY idx_cust (customer_id)) DEFAULT CHARSET=utf8mb4;
   CREATE TABLE items (id int PRIMARY KEY, order_id int NOT NULL, sku varchar(40), qty int);
   CREATE TABLE customers (id int NOT NULL PRIMARY KEY, country char(2), segment int);`,
  'mysql',
).schema;
const server = offlineServerInfo('mysql', '8.0.33');
const keys = (plan: WorkloadPlan) =>
  plan.indexes.map((index) => `${index.table}(${index.parts.map((part) => part.column).join(',')})`);

describe('workload design', () => {
  it('a view or a sequence in the schema gets no index: the design says where the index goes instead', () => {
    const withObjects = schemaFromDdl(
      `CREATE TABLE customers (id int NOT NULL PRIMARY KEY, country char(2), segment int);
       CREATE VIEW eu_customers AS SELECT id, country, segment FROM customers WHERE country IN ('DE', 'FR');
       CREATE SEQUENCE order_ids;`,
      'mariadb',
    ).schema;
    const mariadb = offlineServerInfo('mariadb', '10.11.6');
    const plan = designWorkloadIndexes(
      workloadFromText(`SELECT * FROM eu_customers WHERE segment = 3;
        SELECT * FROM eu_customers WHERE segment = 4 AND country = 'DE';
        SELECT NEXTVAL(order_ids);
        SELECT * FROM customers WHERE segment = 3;`),
      withObjects,
      mariadb,
    );
    expect(keys(plan)).toEqual(['customers(segment)']);
    const viewTable = plan.queries[0]!.tables.find((table) => table.table === 'eu_customers');
    expect(viewTable?.uses ?? null).toBeNull();
  });

  it('one index serves the statements that need its left parts', () => {
    const plan = designWorkloadIndexes(
      workloadFromText(`SELECT * FROM customers WHERE country = 'DE';
        SELECT * FROM customers WHERE country = 'DE' AND segment = 3;`),
      schema,
      server,
    );
    expect(keys(plan)).toEqual(['customers(country,segment)']);
    expect(plan.indexes[0]!.serves).toEqual([0, 1]);
    expect(plan.queries.map((query) => query.tables[0]!.uses)).toEqual([
      plan.indexes[0]!.name,
      plan.indexes[0]!.name,
    ]);
  });

  it('merges by putting the smaller need first, never keeps a left-prefix-redundant index', () => {
    const plan = designWorkloadIndexes(
      workloadFromText(`SELECT * FROM customers WHERE segment = 3 AND country = 'DE';
        SELECT * FROM customers WHERE country = 'FR';
        SELECT * FROM customers WHERE segment = 1 AND country = 'DE' ORDER BY id LIMIT 3;`),
      schema,
      server,
    );
    expect(keys(plan)).toEqual(['customers(country,segment)']);
    for (const a of plan.indexes)
      for (const b of plan.indexes)
        if (a !== b && a.table === b.table)
          expect(a.parts.every((part, i) => part.column === b.parts[i]?.column)).toBe(false);
  });

  it('weighs benefit by frequency × cost and stops at the index budget', () => {
    const text = `-- weight: 50
      SELECT * FROM customers WHERE segment = 2;
      -- weight: 1
      SELECT * FROM items WHERE sku = 'x';`;
    const all = designWorkloadIndexes(workloadFromText(text), schema, server);
    expect(keys(all)).toEqual(['customers(segment)', 'items(sku)']);
    const budget = designWorkloadIndexes(workloadFromText(text), schema, server, { maxIndexes: 1 });
    expect(keys(budget)).toEqual(['customers(segment)']);
    expect(budget.queries[1]!.tables[0]).toMatchObject({ uses: null, reason: 'over the index-count budget' });
  });

  it('weighs write traffic on the same table and flags write-heavy tables', () => {
    const text = `SELECT * FROM items WHERE sku = 'x';
      -- weight: 100
      INSERT INTO items VALUES (1, 2, 'x', 3);`;
    const plan = designWorkloadIndexes(workloadFromText(text), schema, server);
    expect(plan.indexes).toEqual([]);
    expect(plan.tables.find((table) => table.table === 'items')).toMatchObject({
      writeWeight: 100,
      writeHeavy: true,
    });
    expect(plan.notes.join(' ')).toMatch(/items is write-heavy/);
    // Canary: the same read with light writes gets its index.
    const light = designWorkloadIndexes(
      workloadFromText(text.replace('weight: 100', 'weight: 2')),
      schema,
      server,
    );
    expect(keys(light)).toEqual(['items(sku)']);
  });

  it('an UPDATE costs only the indexes holding a column it sets', () => {
    const reads = `-- weight: 3
      SELECT * FROM customers WHERE segment = 2;
      -- weight: 3
      SELECT * FROM customers WHERE country = 'DE';`;
    const plan = designWorkloadIndexes(
      workloadFromText(`${reads}
        -- weight: 100
        UPDATE customers SET segment = segment + 1 WHERE id = 7;`),
      schema,
      server,
    );
    expect(keys(plan)).toEqual(['customers(country)']);
    expect(plan.queries[0]!.tables[0]).toMatchObject({
      uses: null,
      reason: expect.stringMatching(/write cost/),
    });
  });

  it('extends an existing index that is a left prefix, and reports statements an existing index serves', () => {
    const plan = designWorkloadIndexes(
      workloadFromText(`SELECT id FROM orders WHERE customer_id = 3 AND status = 'x' ORDER BY created_at LIMIT 5;
        SELECT * FROM orders WHERE customer_id = 9;`),
      schema,
      server,
    );
    expect(plan.indexes).toHaveLength(1);
    expect(plan.indexes[0]).toMatchObject({ verdict: 'extend', name: 'idx_cust', existingIndex: 'idx_cust' });
    expect(plan.indexes[0]!.ddl[0]).toMatch(
      /^ALTER TABLE orders DROP INDEX idx_cust, ADD INDEX idx_cust \(customer_id, `status`, created_at\)/,
    );
    expect(plan.queries[1]!.tables[0]).toMatchObject({ uses: 'idx_cust', via: 'existing' });
  });

  it('keeps going past bad statements', () => {
    const plan = designWorkloadIndexes(
      [{ sql: 'SELEC nope' }, { sql: "SELECT * FROM customers WHERE country = 'x'" }],
      schema,
      server,
    );
    expect(plan.queries[0]!.error).toBeTruthy();
    expect(plan.indexes).toHaveLength(1);
  });
});

describe('index hygiene', () => {
  const messy = schemaFromDdl(
    `CREATE TABLE t (id int NOT NULL PRIMARY KEY, a int, b int, c int,
       KEY ia (a), KEY iab (a, b), KEY iab2 (a, b), KEY ic_id (c, id), KEY ic (c), UNIQUE KEY ub (b), KEY ib (b));`,
    'mysql',
  ).schema;
  it('finds duplicates, left prefixes and primary-key suffixes, never a unique index, invisible first on MySQL 8', () => {
    const found = redundantIndexes(messy, server);
    expect(found.map((entry) => [entry.index, entry.kind, entry.coveredBy])).toEqual([
      ['ia', 'left-prefix', 'iab'],
      ['iab2', 'duplicate', 'iab'],
      ['ic_id', 'primary-key-suffix', 'ic'],
      ['ib', 'duplicate', 'ub'],
    ]);
    expect(found[0]!.ddl).toEqual([
      'ALTER TABLE t ALTER INDEX ia INVISIBLE;',
      'ALTER TABLE t DROP INDEX ia;',
    ]);
    const maria = redundantIndexes(messy, offlineServerInfo('mariadb', '10.11.6'));
    expect(maria[0]!.ddl[0]).toBe('ALTER TABLE t ALTER INDEX ia IGNORED;');
    expect(redundantIndexes(messy, offlineServerInfo('mysql', '5.7.44'))[0]!.ddl).toEqual([
      'ALTER TABLE t DROP INDEX ia;',
    ]);
  });
});
