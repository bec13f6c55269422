// Selectivity from live statistics: what is sampled for a report, and which suggestions get the note.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { applySelectivity, isLowSelectivity, selectivityRequests } from '../../../src/core/advice/index.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const DDL = `CREATE TABLE products (id int NOT NULL, status tinyint NOT NULL, qty int NOT NULL,
  create_time datetime NOT NULL, PRIMARY KEY (id))`;
const server = offlineServerInfo('mysql', '8.0.33');
const schema = schemaFromDdl(DDL, 'mysql').schema;
// One predicate per statement: two equalities in one query get one composite index (core/indexing).
const SQL =
  'SELECT p.id FROM products p WHERE p.status = 1; SELECT p.id FROM products p WHERE p.qty = 5; SELECT id FROM products p WHERE MONTH(p.create_time) = 10';

describe('selectivity', () => {
  const report = analyze(SQL, { server, source: 'flags', schema });

  it('asks for bare columns of plain indexes and unqualified expressions, once per table', () => {
    expect(selectivityRequests(report, 'mysql')).toEqual([
      {
        table: 'products',
        columns: ['status', 'qty'],
        expressions: [{ key: 'month(create_time)', sql: 'MONTH(create_time)' }],
        reads: ['status', 'qty', 'create_time'],
        // The access predicate of each proposed index (index-use.ts), counted on the same sample.
        predicates: [
          { key: 'predicate:(status=1)', sql: '(`status` = 1)' },
          { key: 'predicate:(qty=5)', sql: '(qty = 5)' },
          { key: 'predicate:(month(create_time)=10)', sql: '(MONTH(create_time) = 10)' },
        ],
      },
    ]);
  });

  it('notes only unselective keys, with the measured numbers', () => {
    const sample = {
      table: 'products',
      sampledRows: 10_000,
      limit: 10_000,
      distinct: { 'column:status': 3, 'column:qty': 9_000, 'expression:month(create_time)': 12 },
    };
    const weighed = applySelectivity(report, [sample], 'mysql');
    const lowNotes = weighed.statements.flatMap((statement) =>
      statement.findings.map((finding) => [
        finding.columns.join(','),
        finding.suggestions.map((suggestion) =>
          suggestion.notes.filter((note) => note.startsWith('Low selectivity')),
        ),
      ]),
    );
    expect(lowNotes).toEqual([
      [
        'status',
        [
          [
            'Low selectivity (live statistics): status has 3 distinct values in a sample of 10,000 rows of products, so each value matches about 33% of the rows. An index on it alone may not help (the optimizer can still prefer a scan); lead with an equality column of the query, or narrow the predicate.',
          ],
        ],
      ],
      ['qty', [[]]],
      [
        'create_time',
        [
          [expect.stringContaining('MONTH(create_time) has 12 distinct values')],
          [expect.stringContaining('MONTH(create_time) has 12 distinct values')],
        ],
      ],
    ]);
    // Without samples the report is unchanged.
    expect(applySelectivity(report, [], 'mysql')).toBe(report);
  });

  it('says nothing about tiny tables', () => {
    expect([isLowSelectivity(3, 50), isLowSelectivity(3, 500), isLowSelectivity(21, 10_000)]).toEqual([
      false,
      true,
      false,
    ]);
  });
});
