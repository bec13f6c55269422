// The generated column the advice declares for arithmetic, judged by the servers: the ALTER succeeds on
// edge rows (no "Out of range value" for `bu * 1.2` at BIGINT UNSIGNED's maximum) and the original
// query returns the same rows once the column and its index exist (MySQL reads an indexed generated
// column in place of a matching expression: a column narrower than the expression's type, BIGINT for
// `i - 0.01`, would round 4.99 to 5 and return the row of i = 5 for `i - 0.01 = 5`).
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { generatedColumnType } from '../../src/core/advice/generated-type.js';
import { findTable } from '../../src/core/model/schema.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import type { AstNode } from '../../src/core/sql/ast.js';
import { parseStatement } from '../../src/core/sql/parse.js';
import { classifyWrapping } from '../../src/core/sql/wrapping.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const CREATE =
  'CREATE TABLE t (id INT PRIMARY KEY, i INT, u INT UNSIGNED, bu BIGINT UNSIGNED, x DECIMAL(8,2))';
const ROWS = [
  [1, 5, 5, 5, '5.00'],
  [2, -5, 0, 0, '-0.01'],
  [3, 2147483647, 4294967295, '18446744073709551615', '999999.99'],
  [4, -2147483648, 1, 1, '-999999.99'],
  [5, 0, 3, 3, '0.00'],
  [6, null, null, null, null],
];
// Each expression with constants it is compared with (rows where the rounding would differ among them).
const CASES: [string, string, string[]][] = [
  ['i - 0.01', 'i', ['5', '4.99', '-5.01', '-0.01']],
  ['i + 0.5', 'i', ['5.5', '6', '0.5']],
  ['u * 1.2', 'u', ['6', '3.6', '0']],
  ['bu * 1.2', 'bu', ['6', '3.6', '22136092888451461938']],
  ['i * 0.125', 'i', ['0.625', '1', '0']],
  ['x * 1.5', 'x', ['7.5', '7.50', '-0.015']],
  ['i - 5', 'i', ['0', '-10']],
];

const schema = schemaFromDdl(CREATE, 'mysql').schema;
const table = findTable(schema, 't', null)!;

function declaredType(expression: string, column: string): string {
  const parsed = parseStatement(`SELECT ${expression} FROM t`, 'mysql');
  if (!parsed.ok) throw new Error(expression);
  const wrapped = classifyWrapping((parsed.ast.columns as { expr: AstNode }[])[0]!.expr);
  const type = generatedColumnType(
    wrapped!,
    table.columns.find((entry) => entry.name === column)!,
    table,
  );
  if (!type.ok) throw new Error(`${expression}: ${type.reason}`);
  return type.sql;
}

async function ids(db: Connection, sql: string): Promise<number[]> {
  const [rows] = await db.query<RowDataPacket[]>(sql);
  return rows.map((row) => Number(row.id));
}

describe.each(testServers())('generated column types on $flavor', ({ url }) => {
  it('the ALTER succeeds on edge rows and the original query keeps its rows with the column indexed', async () => {
    await withScratchDatabase(url, async (db) => {
      for (const [n, [expression, column, constants]] of CASES.entries()) {
        await db.query('DROP TABLE IF EXISTS t');
        await db.query(CREATE);
        await db.query('INSERT INTO t VALUES ?', [ROWS]);
        const queries = constants.map((c) => `SELECT id FROM t WHERE ${expression} = ${c} ORDER BY id`);
        const before = await Promise.all(queries.map((sql) => ids(db, sql)));
        const type = declaredType(expression, column);
        await db.query(
          `ALTER TABLE t ADD COLUMN g${n} ${type} AS (${expression}) VIRTUAL, ADD INDEX ix${n} (g${n})`,
        );
        const after = await Promise.all(queries.map((sql) => ids(db, sql)));
        expect({ expression, type, after }).toEqual({ expression, type, after: before });
      }
    });
  });
});
