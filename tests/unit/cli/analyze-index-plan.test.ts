// `sargable analyze --schema FILE` offline, no statistics (issue 22): the query gets ONE composite
// index — equality columns in written order, then the ORDER BY column, then the narrow select list — from
// IDX001 and statements[].indexPlan alike, on both flavors, and `sargable indexes` designs the same one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sargable-index-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  path.join(dir, 'schema.sql'),
  `CREATE TABLE orders (
     id int NOT NULL AUTO_INCREMENT, customer_id int NOT NULL, status varchar(16) NOT NULL,
     created_at datetime NOT NULL, total decimal(10,2) NULL, PRIMARY KEY (id)
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`,
);
const QUERY =
  "SELECT id, total FROM orders WHERE customer_id = 42 AND status = 'paid' ORDER BY created_at DESC LIMIT 10";
const DDL =
  'ALTER TABLE orders ADD INDEX idx_orders_customer_id_status_created_at_total (customer_id, `status`, created_at, total);';
const cli = (argv: string[]) => runCliCaptured(argv, { cwd: dir, stdin: `${QUERY};\n` });

describe('sargable analyze: the per-query index design offline', () => {
  it.each(['mysql', 'mariadb'])(
    '%s: one IDX001 finding with the composite index, not one index per predicate',
    async (flavor) => {
      const result = await cli([
        'analyze',
        '--schema',
        'schema.sql',
        '--flavor',
        flavor,
        '--format',
        'json',
        '-',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const statement = JSON.parse(result.stdout).statements[0];
      const idx = statement.findings.filter((finding: { rule: string }) => finding.rule === 'IDX001');
      expect(idx).toHaveLength(1);
      expect(idx[0].suggestions.map((suggestion: { ddl: string[] }) => suggestion.ddl)).toEqual([[DDL]]);
      expect(statement.indexPlan.tables).toHaveLength(1);
      expect(statement.indexPlan.tables[0]).toMatchObject({
        verdict: 'create',
        parts: [
          { column: 'customer_id', role: 'equality' },
          { column: 'status', role: 'equality' },
          { column: 'created_at', role: 'sort' },
          { column: 'total', role: 'cover' },
        ],
        covering: true,
        sortFromIndex: true,
        ddl: [DDL],
      });
    },
  );

  it('the text report shows the same DDL, and `sargable indexes` designs the same index', async () => {
    const text = await cli(['analyze', '--schema', 'schema.sql', '-']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(DDL);
    expect(text.stdout).not.toMatch(/ADD INDEX \w+ \(customer_id\);|ADD INDEX \w+ \(`status`\);/);
    const set = await cli(['indexes', '--schema', 'schema.sql', '--format', 'json', '-']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).indexes.map((index: { ddl: string[] }) => index.ddl)).toEqual([[DDL]]);
  });
});
