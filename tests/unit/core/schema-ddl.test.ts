import { describe, expect, it } from 'vitest';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

describe('schemaFromDdl', () => {
  it('reads columns, collations, generated columns and index parts', () => {
    const { schema, problems } = schemaFromDdl(`
      CREATE TABLE t (
        id int unsigned NOT NULL AUTO_INCREMENT,
        email varchar(100) COLLATE utf8mb4_bin NOT NULL,
        name varchar(50),
        ts timestamp NULL DEFAULT NULL,
        m tinyint GENERATED ALWAYS AS (month(ts)) VIRTUAL,
        PRIMARY KEY (id), UNIQUE KEY ue (email(10)), KEY fi ((MONTH(ts))), KEY c2 (name, ts)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
      INSERT INTO t VALUES (1);`);
    expect(problems).toEqual([]);
    const table = schema.tables[0];
    expect(
      table?.columns.map((column) => [
        column.name,
        column.columnType,
        column.nullable,
        column.collation,
        column.generated?.expression ?? null,
      ]),
    ).toEqual([
      ['id', 'int unsigned', false, null, null],
      ['email', 'varchar(100)', false, 'utf8mb4_bin', null],
      ['name', 'varchar(50)', true, 'utf8mb4_general_ci', null],
      ['ts', 'timestamp', true, null, null],
      ['m', 'tinyint', true, null, 'month(`ts`)'],
    ]);
    expect(table?.indexes.map((index) => [index.name, index.unique, index.parts])).toEqual([
      ['PRIMARY', true, [{ column: 'id', expression: null, prefixLength: null }]],
      ['ue', true, [{ column: 'email', expression: null, prefixLength: 10 }]],
      ['fi', false, [{ column: null, expression: 'MONTH(`ts`)', prefixLength: null }]],
      [
        'c2',
        false,
        [
          { column: 'name', expression: null, prefixLength: null },
          { column: 'ts', expression: null, prefixLength: null },
        ],
      ],
    ]);
  });

  it('reports DDL it cannot parse, with a position, and keeps the rest', () => {
    const { schema, problems } = schemaFromDdl('CREATE TABLE a (id int);\nCREATE TABLE b (id int,,);');
    expect(schema.tables.map((table) => table.name)).toEqual(['a']);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(2);
  });
});
