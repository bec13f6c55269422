// The "Try it" demo: the seeds' schemas (products, product, events_t), example queries and a pasted EXPLAIN.

/** CREATE TABLE statements of the seeds' three tables (offline schema). */
export const demoSchemaSql = `CREATE TABLE products (
  id int unsigned NOT NULL AUTO_INCREMENT,
  description longtext,
  price decimal(8,2) DEFAULT NULL,
  create_time timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE product (
  p_id int NOT NULL AUTO_INCREMENT,
  p_name varchar(255) DEFAULT NULL,
  p_cost decimal(19,4) NOT NULL,
  p_availability enum('YES','NO') DEFAULT 'NO',
  PRIMARY KEY (p_id),
  KEY p_cost (p_cost),
  KEY p_name (p_name)
) ENGINE=InnoDB;

CREATE TABLE events_t (
  id int(11) NOT NULL AUTO_INCREMENT,
  event_date datetime NOT NULL,
  profile_id int(11) DEFAULT NULL,
  PRIMARY KEY (id),
  KEY event_date (event_date),
  KEY profile_id (profile_id)
);
`;

/** Editor tabs the demo opens: title and text. */
export const demoTabs: { title: string; text: string }[] = [
  {
    title: 'Demo: slow query',
    text: `-- Demo (offline, MySQL 8.0.33, the seeds' schema). Findings are underlined; press F8 to step through them.
-- The Plan tab shows the seed's pasted EXPLAIN for it: a full scan of products (red), linked to FUN001.
SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;

-- An equivalent rewrite exists for this one: put the cursor on YEAR(…) and press Ctrl+. for the quick fix.
SELECT id, price FROM products WHERE YEAR(create_time) = 2019 AND price > 100;
`,
  },
  {
    title: 'Demo: locks',
    text: `-- Hot rows: a locking read that waits for other sessions (see the Locks panel when connected).
SELECT * FROM product WHERE p_cost >= 20 AND p_cost <= 30 FOR UPDATE;
SELECT * FROM product WHERE p_availability = 'YES' FOR UPDATE;
`,
  },
  {
    title: 'Demo: strict mode',
    text: `-- Strict mode: MySQL 5.7+ refuses these (ERROR 1364, then 1067).
INSERT INTO events_t (profile_id) VALUES (1);
ALTER TABLE events_t CHANGE event_date event_date datetime NOT NULL DEFAULT '0000-00-00 00:00:00';
`,
  },
];

/** The seed's EXPLAIN of the MONTH() query (\\G rows), as pasted from the mysql client. */
export const demoExplainText = `mysql> EXPLAIN SELECT AVG(price) FROM products WHERE MONTH(create_time)=10\\G
*************************** 1. row ***************************
           id: 1
  select_type: SIMPLE
        table: products
   partitions: NULL
         type: ALL
possible_keys: NULL
          key: NULL
      key_len: NULL
          ref: NULL
         rows: 99015
     filtered: 100.00
        Extra: Using where
1 row in set, 1 warning (0.00 sec)
`;

/** The statement the demo's plan belongs to (links the plan's bad node to its finding). */
export const demoExplainSql = 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10';
