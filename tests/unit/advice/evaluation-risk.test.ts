// Which index expressions can fail on stored rows (ERROR 1690 / 1365): the cases measured on MySQL
// 8.0.33 and MariaDB 10.11 (tests/integration/advice-ddl-data.test.ts applies them on data).
import { describe, expect, it } from 'vitest';
import { evaluationRisk } from '../../../src/core/advice/evaluation-risk.js';
import { findTable } from '../../../src/core/model/schema.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { parseStatement, printSql } from '../../../src/core/sql/parse.js';
import type { AstNode } from '../../../src/core/sql/ast.js';

const schema = schemaFromDdl(
  'CREATE TABLE t (id int unsigned NOT NULL, u int unsigned, b bigint, q int, d int, x decimal(8,2))',
  'mysql',
).schema;
const info = findTable(schema, 't', null)!;
const STRICT = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO';

function risk(expression: string, sqlMode = STRICT) {
  const parsed = parseStatement(`SELECT ${expression} FROM t`, 'mysql');
  if (!parsed.ok) throw new Error(expression);
  const node = (parsed.ast.columns as { expr: AstNode }[])[0]!.expr;
  return evaluationRisk(node, info.columns, sqlMode, (part) => printSql(part, 'mysql'));
}

describe('evaluationRisk', () => {
  it.each([
    ['1 - id', ['id']],
    ['u - 5', ['u']],
    ['u + -5', ['u']],
    ['u * -1', ['u']],
    ['u - d', ['u']],
    ['u + d', ['u']],
    ['b * 2', ['b']],
    ['b + q', ['b']],
  ])('%s can leave its integer range (ERROR 1690)', (expression, columns) => {
    expect(risk(expression)?.overflow).toEqual(columns);
  });

  it.each(['u + 5', 'u * 3', 'q + d', 'q * d', '-u', 'q - 5', 'b + 1', 'x - 5', 'q % 7'])(
    '%s cannot fail on stored rows',
    (expression) => {
      expect(risk(expression)).toBeUndefined();
    },
  );

  it.each(['q / d', 'q DIV d', 'q % d', 'MOD(q, d)', 'q MOD d'])(
    '%s fails on a zero divisor (ERROR 1365)',
    (expression) => {
      expect(risk(expression)?.divisors).toEqual(['`d`']);
      // Without strict mode and ERROR_FOR_DIVISION_BY_ZERO a zero divisor gives NULL: the DDL runs.
      expect(risk(expression, 'STRICT_TRANS_TABLES')).toBeUndefined();
    },
  );
});
