// An OR across columns (core/indexing/or-branches.ts): one index per branch and the UNION ALL rewrite.
// The rewrite's row equality and the plans it gets are proven on both servers in
// tests/integration/index-or-branches.test.ts; here the shapes and the equivalence verdicts.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { designQueryIndexes, type TableIndexPlan } from '../../../src/core/indexing/index.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement } from '../../../src/core/sql/parse.js';

const DDL = `
CREATE TABLE orders (
  id int NOT NULL AUTO_INCREMENT, customer_id int NOT NULL, status varchar(20) NOT NULL,
  created_at datetime NOT NULL, total decimal(10,2), region char(2), channel tinyint NOT NULL,
  PRIMARY KEY (id), KEY idx_cust (customer_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE customers (id int NOT NULL PRIMARY KEY, country char(2) NOT NULL, name varchar(60)) ENGINE=InnoDB;
`;
const schema = schemaFromDdl(DDL, 'mysql').schema;

function design(sql: string, flavor: 'mysql' | 'mariadb' = 'mysql') {
  const parsed = parseStatement(sql, flavor);
  if (!parsed.ok) throw new Error(parsed.message);
  const plan = designQueryIndexes(
    parsed.ast,
    sql,
    schema,
    offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.6'),
  );
  if (!plan) throw new Error('no plan');
  return plan;
}
const keyOf = (plan: TableIndexPlan) => plan.parts.map((part) => part.column ?? `(${part.expression})`);

describe('OR across columns', () => {
  it('designs one index per branch and a guarded UNION ALL, equivalent for a plain SELECT', () => {
    const plan = design("SELECT id, total FROM orders WHERE status = 'refunded' OR total IS NULL");
    expect(plan.tables.map((table) => [table.scope, keyOf(table)])).toEqual([
      ["OR branch 1 of 2: status = 'refunded'", ['status', 'total']],
      // Designed without the rewrite's guard: total alone covers id, total.
      ['OR branch 2 of 2: total IS NULL', ['total']],
    ]);
    expect(plan.orRewrite).toEqual({
      table: 'orders',
      branches: ["status = 'refunded'", 'total IS NULL'],
      splits: [{ table: 'orders', branches: ["status = 'refunded'", 'total IS NULL'] }],
      sql: "SELECT id, total FROM orders WHERE (status = 'refunded')\nUNION ALL\nSELECT id, total FROM orders WHERE (total IS NULL) AND (status = 'refunded') IS NOT TRUE",
      equivalent: true,
      why: expect.stringMatching(/exactly once/),
    });
    expect(plan.notes.join(' ')).toMatch(/index_merge/);
  });

  it('three branches: each later branch excludes every earlier one', () => {
    const plan = design('SELECT id FROM orders WHERE customer_id = 1 OR region = ? OR channel = 3');
    expect(plan.tables).toHaveLength(3);
    // customer_id: idx_cust already serves that branch.
    expect(plan.tables.map((table) => table.verdict)).toEqual(['served', 'create', 'create']);
    expect(plan.orRewrite?.sql?.split('\nUNION ALL\n')[2]).toBe(
      'SELECT id FROM orders WHERE (channel = 3) AND (customer_id = 1) IS NOT TRUE AND (region = ?) IS NOT TRUE',
    );
  });

  it('keeps the other conjuncts in every branch and an ORDER BY … LIMIT in each branch and outside', () => {
    const plan = design(
      "SELECT id, created_at FROM orders WHERE channel <> 9 AND (region = 'AP' OR status = 'x') ORDER BY created_at DESC LIMIT 10",
    );
    expect(plan.tables.map(keyOf)).toEqual([
      ['region', 'created_at', 'channel'],
      ['status', 'created_at', 'channel'],
    ]);
    expect(plan.orRewrite?.sql).toBe(
      "(SELECT id, created_at FROM orders WHERE channel <> 9 AND (region = 'AP') ORDER BY created_at DESC LIMIT 10)\n" +
        "UNION ALL\n(SELECT id, created_at FROM orders WHERE channel <> 9 AND (status = 'x') AND (region = 'AP') IS NOT TRUE ORDER BY created_at DESC LIMIT 10)\n" +
        'ORDER BY created_at DESC LIMIT 10',
    );
    // Ties on created_at at the LIMIT: not called equivalent.
    expect(plan.orRewrite?.equivalent).toBe(false);
    // Ending the ORDER BY on the primary key makes it a total order.
    expect(
      design(
        "SELECT id, created_at FROM orders WHERE region = 'AP' OR status = 'x' ORDER BY created_at DESC, id DESC LIMIT 10",
      ).orRewrite?.equivalent,
    ).toBe(true);
  });

  it('DISTINCT becomes UNION; aggregates, DML, RAND() and an ORDER BY outside the select list are not rewritten as equivalent', () => {
    expect(
      design("SELECT DISTINCT status FROM orders WHERE region = 'AP' OR channel = 2").orRewrite,
    ).toMatchObject({
      sql: expect.stringContaining('\nUNION\n'),
      equivalent: true,
    });
    const counted = design("SELECT COUNT(*) FROM orders WHERE region = 'AP' OR channel = 2");
    expect(counted.orRewrite).toMatchObject({
      sql: null,
      equivalent: false,
      why: expect.stringMatching(/aggregat/),
    });
    expect(counted.tables).toHaveLength(2); // index_merge still uses both indexes
    expect(design("DELETE FROM orders WHERE region = 'AP' OR channel = 2").orRewrite?.sql).toBeNull();
    expect(
      design("SELECT id FROM orders WHERE region = 'AP' OR channel = FLOOR(RAND() * 4)").orRewrite,
    ).toMatchObject({ equivalent: false, why: expect.stringMatching(/nondeterministic/) });
    expect(
      design("SELECT id FROM orders WHERE region = 'AP' OR channel = 2 ORDER BY total").orRewrite?.sql,
    ).toBeNull();
  });

  it('leaves the OR alone when something else seeks the table, a branch cannot seek, or it spans two tables', () => {
    const seeking = design("SELECT * FROM orders WHERE customer_id = 3 AND (region = 'AP' OR channel = 2)");
    expect(seeking.tables.map(keyOf)).toEqual([['customer_id']]);
    expect(seeking.orRewrite).toBeUndefined();
    const wildcard = design("SELECT * FROM orders WHERE region = 'AP' OR status LIKE '%x'");
    expect(wildcard.tables.map((table) => table.scope)).toEqual([undefined]);
    expect(wildcard.notes.join(' ')).toMatch(/no index can seek \(status LIKE '%x'\)/);
    const twoTables = design(
      "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.region = 'AP' OR c.country = 'DE'",
    );
    expect(twoTables.orRewrite).toBeUndefined();
  });

  it('reads AND before OR as the server does (the grammar associates a mixed chain left to right)', () => {
    // Parsed as (a OR b) AND c, a condition that c = 12 narrows: here c = 12 belongs to one branch only.
    const plan = design(
      "SELECT id FROM orders WHERE region = 'AP' OR channel = 2 AND created_at < '2024-01-03'",
    );
    expect(plan.orRewrite?.branches).toEqual(["region = 'AP'", "channel = 2 AND created_at < '2024-01-03'"]);
    expect(plan.tables.map(keyOf)).toEqual([['region'], ['channel', 'created_at']]);
  });

  it('an OR on one column is one index (several ranges), not a UNION', () => {
    const plan = design("SELECT * FROM orders WHERE status = 'a' OR status = 'b'");
    expect(plan.tables.map(keyOf)).toEqual([['status']]);
    expect(plan.orRewrite).toBeUndefined();
  });

  it('proposes nothing when existing indexes serve every branch (index_merge)', () => {
    const plan = design('SELECT * FROM orders WHERE customer_id = 5000 OR id = 10');
    expect(plan.tables.flatMap((table) => table.ddl)).toEqual([]);
    expect(plan.tables.map((table) => table.existingIndex)).toEqual(['idx_cust', 'PRIMARY']);
  });

  it('IDX001 proposes every branch index in one finding, with the rewrite as a second suggestion', () => {
    const report = analyze("SELECT id, total FROM orders WHERE status = 'refunded' OR region = 'AP'", {
      server: offlineServerInfo('mysql', '8.0.33'),
      source: 'flags',
      schema,
    });
    const findings = report.statements[0]!.findings.filter((finding) => finding.rule === 'IDX001');
    expect(findings).toHaveLength(1);
    const [index, rewrite] = findings[0]!.suggestions;
    expect(index?.ddl).toEqual([
      'ALTER TABLE orders ADD INDEX idx_orders_status_total (`status`, total);',
      'ALTER TABLE orders ADD INDEX idx_orders_region_total (region, total);',
    ]);
    expect(rewrite).toMatchObject({ kind: 'rewrite', equivalent: true });
    expect(rewrite?.rewrittenSql).toContain('UNION ALL');
    expect(report.statements[0]!.indexPlan?.orRewrite?.sql).toBe(rewrite?.rewrittenSql);
  });

  it('splits an OR of each table: one SELECT per combination of branches, each OR guarding its own earlier branches', () => {
    const plan = design(
      "SELECT o.id, c.name FROM orders o, customers c WHERE (o.region = 'AP' OR o.channel = 2) AND c.name <> 'zz' AND (c.country = 'DE' OR c.name = 'x')",
    );
    expect(plan.tables.map((table) => [table.table, table.scope])).toEqual([
      ['orders', "OR branch 1 of 2: o.region = 'AP'"],
      ['orders', 'OR branch 2 of 2: o.channel = 2'],
      ['customers', "OR branch 1 of 2: c.country = 'DE'"],
      ['customers', "OR branch 2 of 2: c.name = 'x'"],
    ]);
    expect(plan.orRewrite?.splits).toEqual([
      { table: 'orders', branches: ["o.region = 'AP'", 'o.channel = 2'] },
      { table: 'customers', branches: ["c.country = 'DE'", "c.name = 'x'"] },
    ]);
    const head = 'SELECT o.id, c.name FROM orders o, customers c WHERE';
    expect(plan.orRewrite?.sql?.split('\nUNION ALL\n')).toEqual([
      `${head} (o.region = 'AP') AND c.name <> 'zz' AND (c.country = 'DE')`,
      `${head} (o.region = 'AP') AND c.name <> 'zz' AND (c.name = 'x') AND (c.country = 'DE') IS NOT TRUE`,
      `${head} (o.channel = 2) AND (o.region = 'AP') IS NOT TRUE AND c.name <> 'zz' AND (c.country = 'DE')`,
      `${head} (o.channel = 2) AND (o.region = 'AP') IS NOT TRUE AND c.name <> 'zz' AND (c.name = 'x') AND (c.country = 'DE') IS NOT TRUE`,
    ]);
    expect(plan.orRewrite?.equivalent).toBe(true);
    expect(plan.notes.join(' ')).toMatch(/2 ORs across columns \(of orders, customers\).*4 SELECTs/);
    // A LIMIT without a total order: split, but not equivalent (which rows fill it may differ).
    const limited = design(
      "SELECT o.id, c.name FROM orders o, customers c WHERE (o.region = 'AP' OR o.channel = 2) AND (c.country = 'DE' OR c.name = 'x') LIMIT 5",
    );
    expect(limited.orRewrite?.sql?.split('\nUNION ALL\n')).toHaveLength(4);
    expect(limited.orRewrite?.equivalent).toBe(false);
  });

  it('a second OR of the same table stays whole, a filter in each branch of the first', () => {
    const plan = design(
      "SELECT id FROM orders WHERE (region = 'AP' OR channel = 2) AND (status = 'x' OR total IS NULL)",
    );
    expect(plan.tables.map((table) => table.scope)).toEqual([
      "OR branch 1 of 2: region = 'AP'",
      'OR branch 2 of 2: channel = 2',
    ]);
    expect(plan.orRewrite?.splits).toHaveLength(1);
    expect(plan.orRewrite?.sql?.split('\nUNION ALL\n')[1]).toBe(
      "SELECT id FROM orders WHERE (channel = 2) AND (region = 'AP') IS NOT TRUE AND (status = 'x' OR total IS NULL)",
    );
    expect(plan.notes.join(' ')).toMatch(/\(status = 'x'\) OR \(total IS NULL\) is kept whole/);
    // A range OR on one column (status) does not take the table's split: the OR across columns does.
    const ranged = design(
      "SELECT id FROM orders WHERE (status = 'a' OR status = 'b') AND (region = 'AP' OR channel = 2)",
    );
    expect(ranged.tables.map(keyOf)).toEqual([
      ['region', 'status'],
      ['channel', 'status'],
    ]);
    expect(ranged.orRewrite?.branches).toEqual(["region = 'AP'", 'channel = 2']);
  });

  it('the cross product is bounded: an OR that would make more than 32 SELECTs stays whole and index_merge is named', () => {
    const six = (prefix: string, column: string) =>
      Array.from({ length: 6 }, (_, k) => `${prefix}.${column} = ${k}`).join(' OR ');
    // 6 branches over two columns of each table: 6 × 6 = 36 SELECTs.
    const orders = `o.channel = 1 OR o.region = 'AP' OR o.channel = 3 OR o.region = 'EU' OR o.channel = 5 OR o.region = 'US'`;
    const sql = `SELECT o.id, c.name FROM orders o, customers c WHERE (${orders}) AND (${six('c', 'country')
      .replace(/= (\d)/g, "= 'c$1'")
      .replace(/c\.country = 'c1'/, "c.name = 'n'")})`;
    const plan = design(sql);
    expect(plan.orRewrite?.splits.map((entry) => entry.table)).toEqual(['orders']);
    expect(plan.orRewrite?.sql?.split('\nUNION ALL\n')).toHaveLength(6);
    expect(plan.orRewrite?.equivalent).toBe(true);
    expect(plan.notes.join(' ')).toMatch(
      /on customers is kept whole: splitting it as well would make 36 SELECTs \(more than 32\).*index_merge/,
    );
    expect(plan.tables.filter((table) => table.table === 'customers').map((table) => table.scope)).toEqual([
      undefined,
    ]);
  });
});
