// Hand-checked plan facts, cross-format and no-loss properties over real captures, bad input, summary and verdicts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  comparePlans,
  countJsonTables,
  parsePlan,
  summarizePlan,
  tableNodes,
  walkPlan,
  type PlanNode,
  type PlanReport,
} from '../../../src/core/explain/index.js';

const root = join(import.meta.dirname, '../../fixtures/explain');
const servers = ['mysql-8.0.33', 'mariadb-10.11'];

function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

function parsed(input: string | object): PlanReport {
  const result = parsePlan(input);
  if (!result.ok) throw new Error(`unexpected parse error: ${result.error.message}`);
  return result.report;
}

function capture(path: string): PlanReport {
  return parsed(path.endsWith('.traditional.json') ? (JSON.parse(read(path)) as object) : read(path));
}

/** The fields of a node a reviewer checks, without ids/extra noise. */
function brief(node: PlanNode): object {
  return {
    operation: node.operation,
    table: node.table,
    accessType: node.accessType,
    key: node.key,
    ref: node.ref,
    rowsEstimated: node.rowsEstimated,
    rowsActual: node.rowsActual,
    loops: node.loops,
    timeMs: node.timeMs,
    cost: node.cost,
    flags: node.flags,
    children: node.children.map(brief),
  };
}

/** Base tables (not internal `<…>` ones, not materialized results) as table:accessType:key, sorted. */
function tableSignature(report: PlanReport): string[] {
  return tableNodes(report.root)
    .filter((node) => !node.table!.startsWith('<') && !node.flags.includes('materialized'))
    .map((node) => `${node.table}:${node.accessType}:${node.key}`)
    .sort();
}

describe('seed EXPLAIN blocks (AT-8)', () => {
  // (type, key, key_len, ref, rows, Extra) exactly as seed-facts.md AT-8 lists them.
  const expected: Record<
    string,
    [string, string | null, number | null, string | null, number, string | null]
  > = {
    '1-no-index': ['ALL', null, null, null, 99015, 'Using where'],
    '2-plain-index-unused': ['ALL', null, null, null, 99015, 'Using where'],
    '3-between-rewrite': ['range', 'create_time', 5, null, 182, 'Using index condition'],
    '4-functional-index': ['ref', 'functional_index', 5, 'const', 182, null],
    '5-generated-column': ['ref', 'create_month', 2, 'const', 182, null],
  };
  for (const [name, tuple] of Object.entries(expected)) {
    it(name, () => {
      const [table] = tableNodes(parsed(read(`seed/${name}.txt`)).root);
      expect(table).toBeDefined();
      expect([
        table!.accessType,
        table!.key,
        table!.keyLength,
        table!.ref,
        table!.rowsEstimated,
        table!.extra.Extra ?? null,
      ]).toEqual(tuple);
    });
  }

  it('flags the full scan and the index condition', () => {
    const flags = Object.keys(expected).map(
      (name) => tableNodes(parsed(read(`seed/${name}.txt`)).root)[0]!.flags,
    );
    expect(flags).toEqual([
      ['full-scan', 'using-where'],
      ['full-scan', 'using-where'],
      ['index-condition'],
      [],
      [],
    ]);
  });

  it('reads the same plan from \\G, boxed and tab-separated text', () => {
    const vertical = parsed(read('seed/3-between-rewrite.txt'));
    expect(parsed(read('seed/boxed.txt'))).toEqual(vertical);
    expect(parsed(read('seed/tab-separated.txt'))).toEqual(vertical);
  });
});

describe('hand-reviewed real captures', () => {
  it('MySQL EXPLAIN ANALYZE: dependent subquery with estimates, actuals and loops', () => {
    const report = capture('mysql-8.0.33/subquery-dependent.analyze.txt');
    expect(report.format).toBe('analyze');
    const base = {
      rowsActual: null,
      loops: null,
      timeMs: null,
      ref: null,
      key: null,
      table: null,
      accessType: null,
    };
    expect(brief(report.root)).toEqual({
      ...base,
      operation: 'Filter',
      rowsEstimated: 20,
      rowsActual: 20,
      loops: 1,
      timeMs: 0.037,
      cost: 2.26,
      flags: ['using-where'],
      children: [
        {
          operation: 'Index lookup',
          table: 'c',
          accessType: 'ref',
          key: 'idx_country',
          ref: "'NZ'",
          rowsEstimated: 20,
          rowsActual: 20,
          loops: 1,
          timeMs: 0.028,
          cost: 2.26,
          flags: ['covering-index'],
          children: [],
        },
        {
          ...base,
          operation: 'Subquery #2',
          rowsEstimated: null,
          cost: null,
          flags: ['dependent-subquery'],
          children: [
            {
              ...base,
              operation: 'Aggregate',
              rowsEstimated: 1,
              rowsActual: 1,
              loops: 20,
              timeMs: 0.414, // 0.0207 ms per loop × 20 loops
              cost: 2.27,
              flags: [],
              children: [
                {
                  operation: 'Index lookup',
                  table: 'o',
                  accessType: 'ref',
                  key: 'idx_customer_status',
                  ref: 'c.id',
                  rowsEstimated: 5.05,
                  rowsActual: 5.15,
                  loops: 20,
                  timeMs: 0.376,
                  cost: 1.77,
                  flags: [],
                  children: [],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('MariaDB ANALYZE FORMAT=JSON: block nested loop join with r_rows, r_loops and times', () => {
    const report = capture('mariadb-10.11/join-buffer.analyze.json');
    expect(report.format).toBe('analyze-json');
    expect(report.flavor).toBe('mariadb');
    expect(report.root.timeMs).toBe(13.409);
    const [c, p] = tableNodes(report.root);
    expect(brief(c!)).toMatchObject({
      table: 'c',
      accessType: 'ref',
      key: 'idx_country',
      ref: 'const',
      rowsEstimated: 20,
    });
    expect(brief(p!)).toEqual({
      operation: 'Table access',
      table: 'p',
      accessType: 'ALL',
      key: null,
      ref: null,
      rowsEstimated: 3000,
      rowsActual: 3000,
      loops: 1,
      timeMs: 0.985, // r_table_time_ms 0.8368 + r_other_time_ms 0.1485
      cost: null,
      flags: ['full-scan', 'join-buffer', 'using-where'],
      children: [],
    });
    expect(p!.condition).toBe('p.stock = c.score');
    expect(p!.extra['block-nl-join']).toMatchObject({ buffer_type: 'flat', join_type: 'BNL', r_loops: 20 });
    expect(p!.extra.r_filtered).toBe(100);
  });

  it('MySQL index merge: both keys, the first key length, the list kept', () => {
    const [orders] = tableNodes(capture('mysql-8.0.33/index-merge.traditional.json').root);
    expect([
      orders!.accessType,
      orders!.key,
      orders!.keyLength,
      orders!.extra.key_len,
      orders!.flags,
    ]).toEqual(['index_merge', 'idx_customer_status,idx_status', 4, '4,66', ['index-merge', 'using-where']]);
  });

  it('MySQL FORMAT=JSON: union result over two selects, costs from cost_info', () => {
    const report = capture('mysql-8.0.33/union.json.json');
    const union = report.root.children[0]!;
    expect([union.operation, union.table, union.flags]).toEqual(['Union', '<union1,2>', ['temporary']]);
    expect(
      union.children.map((select) => [select.operation, select.cost, select.children[0]!.table]),
    ).toEqual([
      ['Select #1', 2.26, 'customers'],
      ['Select #2', 15.75, 'orders'],
    ]);
    // read_cost 11.25 + eval_cost 4.50; prefix_cost stays in extra.cost_info
    expect(union.children[1]!.children[0]!.cost).toBe(15.75);
    expect(union.children[1]!.children[0]!.extra.cost_info).toEqual({
      prefix_cost: '15.75',
      data_read_per_join: '3K',
    });
  });

  it('MariaDB FORMAT=JSON: IN subquery materialized under <subquery2>', () => {
    const report = capture('mariadb-10.11/subquery-in.json.json');
    const join = report.root.children[0]!;
    expect(join.operation).toBe('Nested loop join');
    const materialized = join.children[1]!;
    expect([materialized.table, materialized.accessType, materialized.key, materialized.flags]).toEqual([
      '<subquery2>',
      'eq_ref',
      'distinct_key',
      ['materialized'],
    ]);
    expect(materialized.children[0]!.children[0]!.condition).toBe('orders.total > 990');
  });

  it('MySQL FORMAT=TREE of UPDATE is refused with a clear error, not a crash', () => {
    const result = parsePlan(read('mysql-8.0.33/update.tree.txt'));
    expect(result).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED', line: 1 } });
  });
});

describe('properties over every real capture', () => {
  for (const server of servers) {
    const files = readdirSync(join(root, server));
    it(`${server}: every JSON table object becomes exactly one table node`, () => {
      const jsonFiles = files.filter(
        (name) => /\.(json|analyze)\.json$/.test(name) && !name.includes('expected'),
      );
      expect(jsonFiles.length).toBeGreaterThanOrEqual(29);
      const counts = jsonFiles.map((name) => {
        const raw = JSON.parse(read(`${server}/${name}`)) as unknown;
        return [name, countJsonTables(raw), tableNodes(capture(`${server}/${name}`).root).length];
      });
      expect(counts.filter(([, rawCount, nodeCount]) => rawCount !== nodeCount)).toEqual([]);
      expect(counts.every(([, rawCount]) => typeof rawCount === 'number')).toBe(true);
    });

    it(`${server}: traditional rows and FORMAT=JSON agree on every base table access`, () => {
      const shapes = files
        .filter((name) => name.endsWith('.traditional.json'))
        .map((name) => name.split('.')[0]!);
      expect(shapes.length).toBeGreaterThanOrEqual(15);
      const mismatches = shapes.filter(
        (shape) =>
          JSON.stringify(tableSignature(capture(`${server}/${shape}.traditional.json`))) !==
          JSON.stringify(tableSignature(capture(`${server}/${shape}.json.json`))),
      );
      expect(mismatches).toEqual([]);
    });

    it(`${server}: node ids are unique and positional`, () => {
      for (const name of files.filter((file) => !file.includes('expected') && !file.endsWith('.md'))) {
        const result = parsePlan(
          name.endsWith('.traditional.json')
            ? JSON.parse(read(`${server}/${name}`))
            : read(`${server}/${name}`),
        );
        if (!result.ok) continue;
        const ids = walkPlan(result.report.root).map((node) => node.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids[0]).toBe('1');
      }
    });
  }

  it('mysql: FORMAT=TREE agrees with traditional rows except const tables and index merges', () => {
    const shapes = readdirSync(join(root, 'mysql-8.0.33'))
      .filter((name) => name.endsWith('.tree.txt'))
      .map((name) => name.split('.')[0]!)
      .filter((shape) => !['update', 'delete'].includes(shape));
    const mismatches = shapes.filter(
      (shape) =>
        JSON.stringify(tableSignature(capture(`mysql-8.0.33/${shape}.traditional.json`))) !==
        JSON.stringify(tableSignature(capture(`mysql-8.0.33/${shape}.tree.txt`))),
    );
    // const tables are read before execution (no iterator); an index merge prints one range scan per index.
    expect(mismatches.sort()).toEqual(['const-primary', 'index-merge']);
  });
});

describe('input forms and bad input', () => {
  it('unwraps the single EXPLAIN cell mysql2 returns, and a \\G-pasted FORMAT=JSON', () => {
    const json = read('mysql-8.0.33/cte.json.json');
    const direct = parsed(json);
    expect(parsed([{ EXPLAIN: json }])).toEqual(direct);
    expect(parsed(JSON.parse(json) as object)).toEqual(direct);
    const pasted = `mysql> EXPLAIN FORMAT=JSON SELECT …\\G\n*************************** 1. row ***************************\nEXPLAIN: ${json}\n1 row in set, 1 warning (0.01 sec)\n`;
    expect(parsed(pasted)).toEqual(direct);
    const tree = read('mysql-8.0.33/cte.tree.txt');
    expect(parsed([{ EXPLAIN: tree }])).toEqual(parsed(tree));
  });

  it('malformed JSON gives an error object with the line and column', () => {
    const result = parsePlan('{\n  "query_block": {\n    "select_id": 1,\n  }\n}');
    expect(result).toMatchObject({ ok: false, error: { code: 'PARSE_FAILED', line: 4, column: 3 } });
  });

  it('text that is no EXPLAIN output, empty text and odd values give errors, not exceptions', () => {
    expect(parsePlan('hello world').ok).toBe(false);
    expect(parsePlan('   ').ok).toBe(false);
    expect(parsePlan([]).ok).toBe(false);
    expect(parsePlan({ foo: 1 }).ok).toBe(false);
    expect(parsePlan([1, 2]).ok).toBe(false);
    expect(parsePlan('{"query_block": 5}').ok).toBe(false);
  });

  it('a misaligned boxed table names the line', () => {
    const broken = read('seed/boxed.txt').replace('|  1 | SIMPLE      |', '| 1 | SIMPLE |');
    expect(parsePlan(broken)).toMatchObject({ ok: false, error: { line: 5 } });
  });

  it('keeps unknown fields and unknown wrappers that hold tables', () => {
    const doc = {
      query_block: {
        select_id: 1,
        future_field: { a: 1 },
        future_wrapper: {
          some_setting: true,
          table: { table_name: 't', access_type: 'ALL', rows_examined_per_scan: 10, new_metric: 7 },
        },
      },
    };
    const report = parsed(doc);
    expect(report.root.extra).toEqual({ future_field: { a: 1 } });
    const wrapper = report.root.children[0]!;
    expect([wrapper.operation, wrapper.extra, wrapper.children[0]!.table]).toEqual([
      'future_wrapper',
      { some_setting: true },
      't',
    ]);
    expect(wrapper.children[0]!.extra).toEqual({ new_metric: 7 });
    expect(report.warnings).toEqual(['Unknown plan element "future_wrapper" shown as a generic node.']);
  });

  it('an unknown TREE line becomes a plain node', () => {
    const report = parsed(
      '-> Frobnicate widgets  (cost=1.5 rows=2)\n    -> Table scan on t  (cost=1 rows=2)\n',
    );
    expect(brief(report.root)).toMatchObject({
      operation: 'Frobnicate widgets',
      cost: 1.5,
      rowsEstimated: 2,
      children: [{ operation: 'Table scan', table: 't', accessType: 'ALL', flags: ['full-scan'] }],
    });
  });

  it('does not mutate its input', () => {
    const doc = JSON.parse(read('mariadb-10.11/join-buffer.analyze.json')) as object;
    const copy = structuredClone(doc);
    parsePlan(doc);
    expect(doc).toEqual(copy);
  });
});

describe('summarizePlan and comparePlans', () => {
  const seed = (name: string): PlanNode => parsed(read(`seed/${name}.txt`)).root;

  it('summarizes the worst table access', () => {
    expect(summarizePlan(seed('1-no-index'))).toEqual({
      accessType: 'ALL',
      key: null,
      rowsEstimated: 99015,
      cost: null,
      fullScans: 1,
      flags: ['full-scan', 'using-where'],
      rowsExamined: 99015,
    });
    const join = summarizePlan(capture('mysql-8.0.33/group-by-temporary.json.json').root);
    expect(join).toMatchObject({
      accessType: 'index',
      key: 'idx_country',
      rowsEstimated: 1000,
      cost: 1867.14,
      fullScans: 0,
    });
    expect(join.flags).toEqual(expect.arrayContaining(['filesort', 'temporary', 'covering-index']));
  });

  it('the seed index advice is improved; no change is unchanged; the reverse is worse', () => {
    expect(comparePlans(seed('1-no-index'), seed('4-functional-index'))).toMatchObject({
      verdict: 'improved',
      rowsReduction: 0.9982,
    });
    expect(comparePlans(seed('1-no-index'), seed('2-plain-index-unused'))).toMatchObject({
      verdict: 'unchanged',
      rowsReduction: 0,
    });
    expect(comparePlans(seed('5-generated-column'), seed('1-no-index')).verdict).toBe('worse');
    expect(comparePlans(seed('1-no-index'), seed('4-functional-index'), { threshold: 0.999 }).verdict).toBe(
      'unchanged',
    );
  });

  it('worse when the access type degrades at equal rows; improved on access alone when rows are unknown', () => {
    const node = (accessType: string, rowsEstimated: number | null): PlanNode =>
      parsed([{ id: 1, select_type: 'SIMPLE', table: 't', type: accessType, rows: rowsEstimated }]).root;
    expect(comparePlans(node('ref', 100), node('ALL', 100)).verdict).toBe('worse');
    expect(comparePlans(node('ALL', null), node('ref', null)).verdict).toBe('improved');
    expect(comparePlans(node('ref', 100), node('ref', 120)).verdict).toBe('worse');
  });

  it('every capture summarizes without throwing', () => {
    for (const server of servers) {
      for (const name of readdirSync(join(root, server)).filter((file) => !file.includes('expected'))) {
        const path = `${server}/${name}`;
        if (!existsSync(join(root, path))) continue;
        const result = parsePlan(name.endsWith('.traditional.json') ? JSON.parse(read(path)) : read(path));
        if (result.ok) expect(summarizePlan(result.report.root).fullScans).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
