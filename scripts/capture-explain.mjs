#!/usr/bin/env node
// Regenerates the real-server EXPLAIN fixtures in tests/fixtures/explain/<server>/ from live MySQL/MariaDB servers.
//
// Usage: node scripts/capture-explain.mjs --mysql mysql://user:pass@127.0.0.1:3306 --mariadb mysql://user:pass@127.0.0.1:3307
//        [--out tests/fixtures/explain] [--only shape1,shape2]
//
// For each server it creates a throwaway database (`sargable_explain_capture`), loads a deterministic schema and
// data set (a few thousand rows from a seeded LCG, then ANALYZE TABLE), and for every query shape writes the raw
// server output, untouched:
//   <shape>.traditional.json  rows of plain EXPLAIN as mysql2 returns them
//   <shape>.json.json         EXPLAIN FORMAT=JSON (the JSON document the server printed)
//   <shape>.tree.txt          EXPLAIN FORMAT=TREE (MySQL only)
//   <shape>.analyze.txt       EXPLAIN ANALYZE (MySQL only; SELECT only)
//   <shape>.analyze.json      ANALYZE FORMAT=JSON (MariaDB only; SELECT only)
// ANALYZE executes the statement, so it runs inside START TRANSACTION READ ONLY … ROLLBACK with a time limit.
// The database is dropped at the end. The `.expected.json` trees are not written here: review the parser's
// output by hand, then write them with `UPDATE_EXPLAIN_GOLDEN=1 npx vitest run --project unit tests/unit/explain`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

const DATABASE = 'sargable_explain_capture';

/** Query shapes: name → SQL. `dml` shapes are never run under ANALYZE (it would execute them). */
export const shapes = [
  { name: 'full-scan', sql: 'SELECT * FROM orders WHERE total > 900' },
  { name: 'function-wrapped', sql: 'SELECT AVG(price) FROM products WHERE MONTH(create_time) = 10' },
  { name: 'const-primary', sql: 'SELECT * FROM orders WHERE id = 42' },
  { name: 'impossible-where', sql: 'SELECT * FROM orders WHERE 1 = 0' },
  {
    name: 'join-eq-ref',
    sql: "SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'cancelled'",
  },
  {
    name: 'join-three-tables',
    sql:
      'SELECT c.name, p.price, i.qty FROM customers c JOIN orders o ON o.customer_id = c.id ' +
      "JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE c.country = 'NZ'",
  },
  {
    name: 'join-buffer',
    sql: "SELECT c.id, p.id FROM customers c JOIN products p ON p.stock = c.score WHERE c.country = 'NZ'",
  },
  {
    name: 'range',
    sql: "SELECT * FROM orders WHERE created_at >= '2024-03-01' AND created_at < '2024-03-04'",
  },
  {
    name: 'covering-index',
    sql: 'SELECT customer_id, status FROM orders WHERE customer_id BETWEEN 10 AND 20',
  },
  { name: 'index-merge', sql: "SELECT * FROM orders WHERE customer_id = 5 OR status = 'cancelled'" },
  { name: 'ref-or-null', sql: 'SELECT * FROM customers WHERE referrer_id = 7 OR referrer_id IS NULL' },
  { name: 'order-by-filesort', sql: 'SELECT * FROM customers ORDER BY name LIMIT 20' },
  { name: 'limit-index-order', sql: 'SELECT * FROM orders ORDER BY id DESC LIMIT 10' },
  {
    name: 'group-by-temporary',
    sql:
      'SELECT c.country, SUM(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id ' +
      'GROUP BY c.country ORDER BY revenue DESC',
  },
  { name: 'group-by-index', sql: 'SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id' },
  { name: 'distinct', sql: 'SELECT DISTINCT total FROM orders' },
  {
    name: 'subquery-in',
    sql: 'SELECT * FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE total > 990)',
  },
  {
    name: 'subquery-exists',
    sql: 'SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.total > 990)',
  },
  {
    name: 'subquery-not-in',
    sql: "SELECT * FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE status = 'cancelled')",
  },
  {
    name: 'subquery-dependent',
    sql: "SELECT c.id, (SELECT MAX(o.total) FROM orders o WHERE o.customer_id = c.id) AS top FROM customers c WHERE c.country = 'NZ'",
  },
  {
    name: 'subquery-scalar',
    sql: 'SELECT * FROM orders WHERE total = (SELECT MAX(total) FROM orders)',
  },
  {
    name: 'derived-table',
    sql:
      'SELECT t.customer_id, t.n FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t ' +
      'WHERE t.n > 8',
  },
  {
    name: 'cte',
    sql:
      'WITH big AS (SELECT customer_id, SUM(total) AS s FROM orders GROUP BY customer_id) ' +
      'SELECT c.name, big.s FROM big JOIN customers c ON c.id = big.customer_id ORDER BY big.s DESC LIMIT 5',
  },
  {
    name: 'union',
    sql: "SELECT id FROM customers WHERE country = 'NZ' UNION SELECT customer_id FROM orders WHERE status = 'cancelled'",
  },
  {
    name: 'union-all',
    sql: "SELECT id FROM customers WHERE country = 'NZ' UNION ALL SELECT customer_id FROM orders WHERE status = 'cancelled'",
  },
  {
    name: 'window',
    sql:
      'SELECT id, customer_id, total, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY total DESC) AS rn ' +
      'FROM orders WHERE customer_id < 30',
  },
  { name: 'fulltext', sql: "SELECT id FROM articles WHERE MATCH(body) AGAINST ('index')" },
  { name: 'update', sql: "UPDATE orders SET status = 'paid' WHERE customer_id = 3", dml: true },
  { name: 'delete', sql: "DELETE FROM orders WHERE created_at < '2024-01-02'", dml: true },
];

const schema = [
  `CREATE TABLE customers (
    id INT UNSIGNED NOT NULL PRIMARY KEY,
    name VARCHAR(64) NOT NULL,
    country CHAR(2) NOT NULL,
    score INT NOT NULL,
    referrer_id INT UNSIGNED NULL,
    KEY idx_country (country),
    KEY idx_referrer (referrer_id)
  ) ENGINE=InnoDB`,
  `CREATE TABLE orders (
    id INT UNSIGNED NOT NULL PRIMARY KEY,
    customer_id INT UNSIGNED NOT NULL,
    status VARCHAR(16) NOT NULL,
    total DECIMAL(10,2) NOT NULL,
    created_at DATETIME NOT NULL,
    KEY idx_customer_status (customer_id, status),
    KEY idx_status (status),
    KEY idx_created (created_at)
  ) ENGINE=InnoDB`,
  `CREATE TABLE products (
    id INT UNSIGNED NOT NULL PRIMARY KEY,
    description VARCHAR(100) NOT NULL,
    price DECIMAL(8,2) NOT NULL,
    stock INT NOT NULL,
    create_time TIMESTAMP NULL,
    KEY create_time (create_time)
  ) ENGINE=InnoDB`,
  `CREATE TABLE order_items (
    order_id INT UNSIGNED NOT NULL,
    product_id INT UNSIGNED NOT NULL,
    qty INT NOT NULL,
    PRIMARY KEY (order_id, product_id),
    KEY idx_product (product_id)
  ) ENGINE=InnoDB`,
  `CREATE TABLE articles (
    id INT UNSIGNED NOT NULL PRIMARY KEY,
    body TEXT NOT NULL,
    FULLTEXT KEY ft_body (body)
  ) ENGINE=InnoDB`,
];

/** Deterministic pseudo-random numbers (LCG), so both servers and every run get the same data. */
function makeRandom(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) % n; // the low bits of an LCG have short periods
  };
}

function pad(n) {
  return String(n).padStart(2, '0');
}

function dataset() {
  const random = makeRandom(20240301);
  const countries = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA', 'AU', 'NZ'];
  const customers = [];
  for (let id = 1; id <= 1000; id++) {
    // NZ is rare (~2%) so an index on country is selective for it.
    const country = random(50) === 0 ? 'NZ' : countries[random(9)];
    const referrer = random(4) === 0 ? null : 1 + random(1000);
    customers.push([
      id,
      `customer ${String(random(100000)).padStart(5, '0')}`,
      country,
      random(500),
      referrer,
    ]);
  }
  const statuses = ['paid', 'shipped', 'delivered', 'pending'];
  const orders = [];
  for (let id = 1; id <= 5000; id++) {
    const status = random(100) === 0 ? 'cancelled' : statuses[random(4)];
    const day = 1 + random(28);
    const month = 1 + random(12);
    const created = `2024-${pad(month)}-${pad(day)} ${pad(random(24))}:${pad(random(60))}:00`;
    orders.push([id, 1 + random(1000), status, (random(100000) / 100).toFixed(2), created]);
  }
  const products = [];
  for (let id = 1; id <= 3000; id++) {
    const month = 1 + random(12);
    const created = `2019-${pad(month)}-${pad(1 + random(28))} 12:00:00`;
    products.push([id, `product ${id}`, (random(50000) / 100).toFixed(2), random(2000), created]);
  }
  const items = [];
  for (let orderId = 1; orderId <= 5000; orderId++) {
    const count = 1 + random(3);
    const seen = new Set();
    for (let k = 0; k < count; k++) {
      const productId = 1 + random(3000);
      if (seen.has(productId)) continue;
      seen.add(productId);
      items.push([orderId, productId, 1 + random(5)]);
    }
  }
  const words = ['index', 'query', 'plan', 'scan', 'join', 'table', 'row', 'cost', 'sort', 'buffer'];
  const articles = [];
  for (let id = 1; id <= 500; id++) {
    const body = Array.from({ length: 12 }, () => words[random(words.length)]).join(' ');
    articles.push([id, body]);
  }
  return { customers, orders, products, order_items: items, articles };
}

async function insertAll(connection, table, rows) {
  for (let start = 0; start < rows.length; start += 500) {
    await connection.query(`INSERT INTO ${table} VALUES ?`, [rows.slice(start, start + 500)]);
  }
}

function parseArgs(argv) {
  const args = { out: 'tests/fixtures/explain', only: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--mysql') args.mysql = value;
    else if (flag === '--mariadb') args.mariadb = value;
    else if (flag === '--out') args.out = value;
    else if (flag === '--only') args.only = new Set(String(value).split(','));
    else throw new Error(`Unknown option ${flag}. Use --mysql URL --mariadb URL [--out DIR] [--only a,b].`);
    i++;
  }
  if (!args.mysql && !args.mariadb) throw new Error('Give --mysql URL and/or --mariadb URL.');
  return args;
}

/** The single text cell of an EXPLAIN FORMAT=JSON/TREE/ANALYZE result, whatever the column is called. */
function singleCell(rows) {
  const row = rows[0];
  return row ? String(Object.values(row)[0]) : '';
}

async function capture(url, kind, outRoot, only) {
  const connection = await mysql.createConnection({ uri: url, multipleStatements: false, dateStrings: true });
  try {
    const [[versionRow]] = await connection.query('SELECT VERSION() AS v');
    const version = String(versionRow.v);
    const isMaria = /mariadb/i.test(version);
    if ((kind === 'mariadb') !== isMaria)
      throw new Error(`--${kind} points at a server reporting ${version}.`);
    const dir = join(
      outRoot,
      isMaria ? `mariadb-${version.split('.').slice(0, 2).join('.')}` : `mysql-${version.split('-')[0]}`,
    );
    await mkdir(dir, { recursive: true });

    await connection.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await connection.query(`CREATE DATABASE ${DATABASE}`);
    await connection.query(`USE ${DATABASE}`);
    for (const ddl of schema) await connection.query(ddl);
    const data = dataset();
    for (const [table, rows] of Object.entries(data)) await insertAll(connection, table, rows);
    await connection.query(`ANALYZE TABLE ${Object.keys(data).join(', ')}`);
    if (isMaria) await connection.query('SET SESSION max_statement_time = 10');
    else await connection.query('SET SESSION max_execution_time = 10000');

    const write = (name, content) =>
      writeFile(join(dir, name), content.endsWith('\n') ? content : `${content}\n`);
    let count = 0;
    for (const shape of shapes) {
      if (only && !only.has(shape.name)) continue;
      const [rows] = await connection.query(`EXPLAIN ${shape.sql}`);
      await write(`${shape.name}.traditional.json`, JSON.stringify(rows, null, 2));
      const [jsonRows] = await connection.query(`EXPLAIN FORMAT=JSON ${shape.sql}`);
      await write(`${shape.name}.json.json`, singleCell(jsonRows));
      if (!isMaria) {
        const [treeRows] = await connection.query(`EXPLAIN FORMAT=TREE ${shape.sql}`);
        await write(`${shape.name}.tree.txt`, singleCell(treeRows));
      }
      if (!shape.dml) {
        // ANALYZE runs the statement: read-only transaction, rolled back, with the time limit set above.
        await connection.query('START TRANSACTION READ ONLY');
        try {
          if (isMaria) {
            const [analyzeRows] = await connection.query(`ANALYZE FORMAT=JSON ${shape.sql}`);
            await write(`${shape.name}.analyze.json`, singleCell(analyzeRows));
          } else {
            const [analyzeRows] = await connection.query(`EXPLAIN ANALYZE ${shape.sql}`);
            await write(`${shape.name}.analyze.txt`, singleCell(analyzeRows));
          }
        } finally {
          await connection.query('ROLLBACK');
        }
      }
      count++;
    }
    await connection.query(`DROP DATABASE ${DATABASE}`);
    console.log(`${version}: ${count} shapes written to ${dir}`);
  } finally {
    await connection.end();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.mysql) await capture(args.mysql, 'mysql', args.out, args.only);
  if (args.mariadb) await capture(args.mariadb, 'mariadb', args.out, args.only);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
