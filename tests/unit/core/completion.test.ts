import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  completeSql,
  outlineFromSchema,
  quoteIdentifier,
  type SchemaOutline,
  type SqlCompletion,
} from '../../../src/core/sql/completion.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const outline = JSON.parse(
  fs.readFileSync(new URL('../../fixtures/completion/outline.json', import.meta.url), 'utf8'),
) as SchemaOutline;

/** Complete at the `|` of `marked`. */
function at(marked: string, source: SchemaOutline | null = outline, limit?: number): SqlCompletion {
  const offset = marked.indexOf('|');
  return completeSql(marked.replace('|', ''), offset, source, limit ? { limit } : {});
}

/** The context and the first `count` items as `label kind → insertText`. */
function summary(marked: string, count = 6): { context: string; from: number; items: string[] } {
  const result = at(marked);
  return {
    context: result.context,
    from: result.from,
    items: result.items.slice(0, count).map((item) => `${item.label} ${item.kind} → ${item.insertText}`),
  };
}

describe('completeSql', () => {
  it('chooses items by context (golden cases)', () => {
    const cases = {
      afterFrom: 'SELECT * FROM |',
      afterFromPrefix: 'SELECT * FROM pro|',
      afterJoinLowercase: 'select * from products p join pr|',
      fromListComma: 'SELECT * FROM products, |',
      otherDatabaseTable: 'SELECT * FROM ev|',
      aliasMember: 'SELECT p.| FROM products p',
      aliasMemberPrefix: 'SELECT pr.p_| FROM products p JOIN product AS pr ON pr.p_cost = p.price',
      tableMember: 'SELECT * FROM product WHERE product.|',
      databaseMember: 'SELECT * FROM analytics.|',
      databaseTableMember: 'SELECT analytics.events_t.| FROM analytics.events_t',
      quotedNames: 'SELECT * FROM `ord|',
      afterTableReference: 'SELECT * FROM products |',
      whereInScope: 'SELECT * FROM products WHERE cr|',
      selectListBeforeFrom: 'SELECT | FROM product',
      nothingNamedYet: 'SELECT p_n|',
      secondStatement: 'SELECT * FROM products;\nSELECT * FROM product WHERE p|',
      updateSet: 'UPDATE product SET p_c|',
      functionPrefix: 'SELECT date_f|',
    };
    const expected = {
      afterFrom: {
        context: 'tables',
        from: 14,
        items: [
          'products table → products',
          'product table → product',
          'order items table → `order items`',
          'price_list view → price_list',
          'events_t table → analytics.events_t',
          'analytics database → analytics',
        ],
      },
      afterFromPrefix: {
        context: 'tables',
        from: 14,
        items: ['products table → products', 'product table → product'],
      },
      afterJoinLowercase: {
        context: 'tables',
        from: 30,
        items: ['products table → products', 'product table → product', 'price_list view → price_list'],
      },
      fromListComma: {
        context: 'tables',
        from: 24,
        items: [
          'products table → products',
          'product table → product',
          'order items table → `order items`',
          'price_list view → price_list',
          'events_t table → analytics.events_t',
          'analytics database → analytics',
        ],
      },
      otherDatabaseTable: { context: 'tables', from: 14, items: ['events_t table → analytics.events_t'] },
      aliasMember: {
        context: 'member-columns',
        from: 9,
        items: [
          'id column → id',
          'description column → description',
          'price column → price',
          'create_time column → create_time',
        ],
      },
      aliasMemberPrefix: {
        context: 'member-columns',
        from: 10,
        items: ['p_id column → p_id', 'p_name column → p_name', 'p_cost column → p_cost'],
      },
      tableMember: {
        context: 'member-columns',
        from: 36,
        items: ['p_id column → p_id', 'p_name column → p_name', 'p_cost column → p_cost'],
      },
      databaseMember: { context: 'member-tables', from: 24, items: ['events_t table → events_t'] },
      databaseTableMember: {
        context: 'member-columns',
        from: 26,
        items: ['id column → id', 'ts column → ts'],
      },
      quotedNames: { context: 'tables', from: 14, items: ['order items table → `order items`'] },
      afterTableReference: {
        context: 'after-table',
        from: 23,
        items: [
          'SELECT keyword → SELECT',
          'FROM keyword → FROM',
          'WHERE keyword → WHERE',
          'AND keyword → AND',
          'OR keyword → OR',
          'NOT keyword → NOT',
        ],
      },
      whereInScope: {
        context: 'expression',
        from: 29,
        items: [
          'create_time column → create_time',
          'cross join keyword → cross join',
          'create table keyword → create table',
          'create index keyword → create index',
        ],
      },
      selectListBeforeFrom: {
        context: 'expression',
        from: 7,
        items: [
          'p_id column → p_id',
          'p_name column → p_name',
          'p_cost column → p_cost',
          'product alias → product',
          'COUNT function → COUNT($0)',
          'SUM function → SUM($0)',
        ],
      },
      nothingNamedYet: { context: 'expression', from: 7, items: ['p_name column → p_name'] },
      secondStatement: {
        context: 'expression',
        from: 52,
        items: [
          'p_id column → p_id',
          'p_name column → p_name',
          'p_cost column → p_cost',
          'product alias → product',
          'partition by keyword → partition by',
          'primary key keyword → primary key',
        ],
      },
      updateSet: { context: 'expression', from: 19, items: ['p_cost column → p_cost'] },
      functionPrefix: {
        context: 'expression',
        from: 7,
        items: ['date_format function → date_format($0)'],
      },
    };
    const actual = Object.fromEntries(Object.entries(cases).map(([name, sql]) => [name, summary(sql)]));
    expect(actual).toEqual(expected);
  });

  it('offers nothing inside strings and comments', () => {
    expect(
      [
        "SELECT * FROM products WHERE description = 'pro|'",
        'SELECT 1 -- FROM pro|',
        'SELECT /* pro| */ 1',
        "SELECT 'unterminated |",
      ].map((sql) => at(sql).items.length),
    ).toEqual([0, 0, 0, 0]);
    // …but after a closed comment or string it completes again.
    expect(at('SELECT /* c */ * FROM pro|').context).toBe('tables');
    expect(at("SELECT 'a', p_n| FROM product").items[0]?.label).toBe('p_name');
  });

  it('marks a column that exists in several tables in scope, and gives columns their type and table', () => {
    const item = at('SELECT i| FROM products JOIN `order items` o ON o.id = products.id').items[0];
    expect(item).toEqual({
      label: 'id',
      kind: 'column',
      detail: 'int unsigned · products …',
      insertText: 'id',
      sortText: '000000',
    });
  });

  it('quotes reserved and unusual names, always inside an opened backquote', () => {
    expect(at('SELECT o.| FROM `order items` o').items.map((item) => item.insertText)).toEqual([
      'id',
      '`order`',
    ]);
    expect(at('SELECT `p| FROM products').items.map((item) => item.insertText)).toContain('`price`');
    expect([
      quoteIdentifier('ok_1'),
      quoteIdentifier('select'),
      quoteIdentifier('a`b'),
      quoteIdentifier('9x'),
    ]).toEqual(['ok_1', '`select`', '`a``b`', '`9x`']);
  });

  it('without an outline completes keywords and functions only', () => {
    const result = at('SELECT * FROM products WHERE |', null);
    expect(new Set(result.items.map((item) => item.kind))).toEqual(new Set(['function', 'keyword']));
    expect(at('SELECT * FROM x.|', null).items).toEqual([]);
  });

  it('caps the list and says it is incomplete (a huge schema)', () => {
    const huge: SchemaOutline = {
      defaultDatabase: 'big',
      truncated: false,
      databases: [
        {
          name: 'big',
          tables: Array.from({ length: 5000 }, (_, index) => ({
            name: `t${index}`,
            kind: 'table' as const,
            columns: [{ name: `c${index}`, type: 'int' }],
          })),
        },
      ],
    };
    const started = performance.now();
    const result = completeSql('SELECT * FROM t1', 'SELECT * FROM t1'.length, huge, { limit: 50 });
    const elapsed = performance.now() - started;
    expect(result.items).toHaveLength(50);
    expect(result.incomplete).toBe(true);
    expect(result.items.every((item) => item.label.startsWith('t1'))).toBe(true);
    // A generous bound (the build machine is shared): it catches a quadratic scan, not a few ms.
    expect(elapsed).toBeLessThan(1000);
    expect(completeSql('SELECT 1', 8, { ...outline, truncated: true }).incomplete).toBe(true);
  });

  it('builds the offline outline from pasted CREATE TABLE statements', () => {
    const { schema } = schemaFromDdl(
      'CREATE TABLE products (id INT UNSIGNED PRIMARY KEY, price DECIMAL(8,2)); CREATE TABLE product (p_id INT);',
    );
    const offline = outlineFromSchema(schema);
    expect(offline).toEqual({
      defaultDatabase: '',
      truncated: false,
      databases: [
        {
          name: '',
          tables: [
            {
              name: 'products',
              kind: 'table',
              columns: [
                { name: 'id', type: 'int unsigned' },
                { name: 'price', type: 'decimal(8,2)' },
              ],
            },
            { name: 'product', kind: 'table', columns: [{ name: 'p_id', type: 'int' }] },
          ],
        },
      ],
    });
    expect(completeSql('SELECT * FROM p', 15, offline).items.map((item) => item.insertText)).toEqual([
      'products',
      'product',
    ]);
    expect(
      completeSql('SELECT  FROM products', 7, offline)
        .items.slice(0, 2)
        .map((item) => item.label),
    ).toEqual(['id', 'price']);
  });
});
