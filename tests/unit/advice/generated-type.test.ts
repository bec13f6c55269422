// The declared type of a generated column for arithmetic: the servers' result type, never narrower
// (a BIGINT column for `i - 0.01` rounds 4.99 to 5, and MySQL, reading the column in place of the
// expression, then returns the row of i = 5 for `i - 0.01 = 5`; `u * 1.2` overflows BIGINT UNSIGNED).
import { describe, expect, it } from 'vitest';
import { generatedColumnType } from '../../../src/core/advice/generated-type.js';
import { findTable } from '../../../src/core/model/schema.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement } from '../../../src/core/sql/parse.js';
import type { AstNode } from '../../../src/core/sql/ast.js';
import { classifyWrapping } from '../../../src/core/sql/wrapping.js';

const schema = schemaFromDdl(
  'CREATE TABLE t (i int, u int unsigned, bu bigint unsigned, x decimal(8,2))',
  'mysql',
).schema;
const table = findTable(schema, 't', null)!;

function typeOf(expression: string, column: string): string {
  const parsed = parseStatement(`SELECT ${expression} FROM t`, 'mysql');
  if (!parsed.ok) throw new Error(expression);
  const node = (parsed.ast.columns as { expr: AstNode }[])[0]!.expr;
  const wrapped = classifyWrapping(node);
  if (!wrapped) throw new Error(`${expression} is not a wrapped operand`);
  const info = table.columns.find((entry) => entry.name === column)!;
  const type = generatedColumnType(wrapped, info, table);
  return type.ok ? type.sql : `refused: ${type.reason}`;
}

describe('generatedColumnType for arithmetic', () => {
  it.each([
    ['i + 1', 'i', 'BIGINT'],
    ['i - 5', 'i', 'BIGINT'],
    ['u * 3', 'u', 'BIGINT UNSIGNED'],
    ['i - 0.01', 'i', 'DECIMAL(65,2)'],
    ['u * 1.2', 'u', 'DECIMAL(65,1)'],
    ['bu * 1.2', 'bu', 'DECIMAL(65,1)'],
    ['i * 0.125', 'i', 'DECIMAL(65,3)'],
    ['x * 2', 'x', 'DECIMAL(65,2)'],
    ['x * 1.5', 'x', 'DECIMAL(65,3)'],
  ])('%s on %s is %s', (expression, column, expected) => {
    expect(typeOf(expression, column)).toBe(expected);
  });
});
