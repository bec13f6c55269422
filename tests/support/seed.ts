// Generated data the index tests share: a portable integer sequence, and the orders table of the Indexes specs.
//
// Both work on MySQL 8.0 and MariaDB 10.11 alike: the sequence is a cross join of digits, not a recursive CTE
// (whose depth limit MySQL names cte_max_recursion_depth and MariaDB max_recursive_iterations).

const DIGIT =
  '(SELECT 0 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';

/** A derived table with one column `n`: the integers 0 … 10^digits − 1. */
export function sequenceSql(digits: number): string {
  const places = Array.from({ length: digits }, (_, k) => k);
  return `(SELECT ${places.map((k) => `d${k}.x * ${10 ** k}`).join(' + ')} AS n FROM ${places.map((k) => `${DIGIT} d${k}`).join(', ')})`;
}

/** An extra column of the orders table: its definition and its value for order `i`. */
export interface SeedColumn {
  definition: string;
  value: string;
}

/**
 * The orders table of the Indexes specs: 4,000 orders (id = i, 1 … 4000) over 200 customers (i % 200), four
 * statuses in turn (paid, open, void, sent), one per minute from 2024-01-01, total i / 10; enough rows that
 * the optimizer prefers a designed index. `extra` columns and `keys` (index definitions) are added.
 */
export function ordersSeed({
  extra = [],
  keys = [],
}: { extra?: SeedColumn[]; keys?: string[] } = {}): string[] {
  return [
    'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, status VARCHAR(10) NOT NULL, ' +
      `created_at DATETIME NOT NULL, total DECIMAL(10,2) NOT NULL${extra.map((column) => `, ${column.definition}`).join('')}` +
      `${keys.map((key) => `, ${key}`).join('')}) ENGINE=InnoDB`,
    `INSERT INTO orders SELECT i, i % 200, ELT(1 + i % 4, 'paid', 'open', 'void', 'sent'), '2024-01-01' + INTERVAL i MINUTE, ` +
      `i / 10${extra.map((column) => `, ${column.value}`).join('')} FROM (SELECT n + 1 AS i FROM ${sequenceSql(4)} AS seq WHERE n < 4000) AS numbered`,
    'ANALYZE TABLE orders',
  ];
}

/** Statements as one multi-statement script (the e2e scratch database runs its setup in one query). */
export function script(statements: readonly string[]): string {
  return statements.map((statement) => `${statement};`).join('\n');
}
