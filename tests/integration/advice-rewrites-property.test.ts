// Property test of every rewrite the advisor marks equivalent, judged by the real servers: a table with
// every column type the rewrites touch (signed / UNSIGNED / ZEROFILL integers, BIGINT UNSIGNED,
// DECIMAL, DOUBLE, DATE, DATETIME(0/6), TIMESTAMP(6), _ci / _bin / accent-insensitive / latin1 / CHAR
// strings, ENUM) holds rows at the edges (NULL, type limits, year 0, leap days, .999999, 9999-12-31,
// zero-in-date values where the sql_mode allows them, case / accent / trailing-space / ß variants,
// LIKE wildcards, numeric strings). Predicates of every shape the advisor rewrites are generated with
// constants at and around those edges; for each, the analysis runs offline (schema from the DDL) and
// live (schema and server read from the connection), and every suggestion marked equivalent must
// return the original's rows as a multiset — and fail where the original fails — in two sql_modes and
// three session time zones. A rewrite marked not equivalent must say what differs.
//
// Canary: the same comparison flags the naive rewrites this audit fixed (CAST of a ZEROFILL column,
// IFNULL(int, '05'), an interval shift over a year-0 date on MariaDB, '-0'), so the data exposes them.
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';
import { mulberry32 } from '../../bench/slowlog/random.mjs';

type Flavor = 'mysql' | 'mariadb';

function tableDdl(flavor: Flavor): string {
  const accentInsensitive = flavor === 'mysql' ? 'utf8mb4_0900_ai_ci' : 'utf8mb4_unicode_ci';
  return `CREATE TABLE p (
  id int NOT NULL,
  i int DEFAULT NULL,
  ti tinyint DEFAULT NULL,
  iu int unsigned DEFAULT NULL,
  bu bigint unsigned DEFAULT NULL,
  bi bigint DEFAULT NULL,
  z int(6) unsigned zerofill DEFAULT NULL,
  amt decimal(8,2) DEFAULT NULL,
  du decimal(5,1) unsigned DEFAULT NULL,
  f double DEFAULT NULL,
  d date DEFAULT NULL,
  dt datetime DEFAULT NULL,
  dt6 datetime(6) DEFAULT NULL,
  ts timestamp(6) NULL DEFAULT NULL,
  s_ci varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  s_bin varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL,
  s_ai varchar(20) CHARACTER SET utf8mb4 COLLATE ${accentInsensitive} DEFAULT NULL,
  s_l1 varchar(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  c_ci char(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  e enum('abc','ABd','x y','12') CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci`;
}

/** Column values (SQL literals). `zero` values are stored only in the sql_mode that allows them. */
interface Values {
  always: string[];
  zero?: string[];
}
const q = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const STRINGS = [
  '',
  'abc',
  'ABC',
  'àbc',
  'Abc ',
  'abc  ',
  'ab',
  'abcd',
  'a%c',
  'a_c',
  'a\\c',
  'ß',
  'ss',
  'ssa',
  'ßa',
  's',
  'a b',
  ' 12',
  '12abc',
  '1e3',
  '012',
  '12',
].map(q);
const COLUMN_VALUES: Record<string, Values> = {
  i: {
    always: ['-2147483648', '-129', '-128', '-11', '-5', '-1', '0', '1', '2', '3', '4', '5', '9', '10', '11'],
  },
  ti: { always: ['-128', '-127', '-1', '0', '1', '5', '126', '127'] },
  iu: { always: ['0', '1', '5', '11', '12', '255', '4294967294', '4294967295'] },
  bu: {
    always: ['0', '1', '5', '9223372036854775807', '9223372036854775808', '18446744073709551615'],
  },
  bi: { always: ['-9223372036854775808', '-9223372036854775807', '-1', '0', '5', '9223372036854775807'] },
  z: { always: ['0', '5', '12', '14716', '999999', '1234567'] },
  amt: {
    always: ['-999999.99', '-0.01', '0', '0.01', '2.5', '5', '9.99', '83.33', '83.34', '99.99', '999999.99'],
  },
  du: { always: ['0', '0.1', '2.5', '5', '9999.9'] },
  f: { always: ['0', '0.1', '2.5', '5', '-1e300', '1e300'] },
  d: {
    always: [
      '0000-01-01',
      '0000-12-31',
      '0001-01-01',
      '0001-01-02',
      '1000-01-01',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-12-31',
      '2025-01-01',
      '9999-12-24',
      '9999-12-30',
      '9999-12-31',
    ].map(q),
    zero: ['0000-00-00', '2024-05-00', '2024-00-01', '2024-00-00'].map(q),
  },
  dt: {
    always: [
      '0000-01-01 10:00:00',
      '0001-01-01 00:00:00',
      '1000-01-01 00:00:00',
      '2024-02-29 23:59:59',
      '2024-03-01 00:00:00',
      '2024-05-01 00:00:00',
      '2024-05-31 23:59:59',
      '2024-12-31 23:59:59',
      '9999-12-01 00:00:00',
      '9999-12-31 00:00:00',
      '9999-12-31 23:59:59',
    ].map(q),
    zero: ['0000-00-00 00:00:00', '2024-05-00 10:00:00', '2024-00-00 00:00:00'].map(q),
  },
  dt6: {
    always: [
      '0000-01-01 00:00:00.000001',
      '1000-01-01 00:00:00.000000',
      '2024-02-29 23:59:59.999999',
      '2024-03-01 00:00:00.000000',
      '2024-03-01 00:00:00.000001',
      '2024-05-31 23:59:59.999999',
      '9999-12-31 23:59:59.999998',
      '9999-12-31 23:59:59.999999',
    ].map(q),
    zero: ['2024-05-00 00:00:00.5'].map(q),
  },
  // Written in +00:00.
  ts: {
    always: [
      '1970-01-01 00:00:01.000000',
      '1970-01-02 00:00:00',
      '2024-02-29 23:59:59.999999',
      '2024-03-01 00:00:00',
      '2024-03-01 05:29:59.999999',
      '2024-03-01 05:30:00',
      '2024-12-31 23:59:59.999999',
      '2038-01-19 03:14:07.999999',
    ].map(q),
  },
  s_ci: { always: STRINGS },
  s_bin: { always: STRINGS },
  s_ai: { always: STRINGS },
  s_l1: { always: STRINGS },
  c_ci: { always: STRINGS },
  e: { always: ["'abc'", "'ABd'", "'x y'", "'12'"] },
};
const COLUMNS = Object.keys(COLUMN_VALUES);

function insertStatements(allowZero: boolean): string[] {
  const lists = COLUMNS.map((column) => {
    const values = COLUMN_VALUES[column]!;
    return ['NULL', ...values.always, ...(allowZero ? (values.zero ?? []) : [])];
  });
  const rows = Math.max(...lists.map((list) => list.length));
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++)
    tuples.push(`(${r + 1}, ${lists.map((list) => list[r % list.length]).join(', ')})`);
  return [`INSERT INTO p (id, ${COLUMNS.join(', ')}) VALUES ${tuples.join(',\n')}`];
}

// ---- predicate generation (deterministic: every combination, or a seeded sample of it) ----

const NUMERIC = ['i', 'ti', 'iu', 'bu', 'bi', 'z', 'amt', 'du', 'f'];
const TEMPORAL = ['d', 'dt', 'dt6', 'ts'];
const TEXT = ['s_ci', 's_bin', 's_ai', 's_l1', 'c_ci', 'e'];
const NUMBERS = [
  '0',
  '1',
  '-1',
  '2',
  '5',
  '10',
  '11',
  '12',
  '2.5',
  '0.01',
  '-0.02',
  '9.99',
  '83.33',
  '100',
  '127',
  '128',
  '-128',
  '255',
  '1990',
  '2147483647',
  '2147483648',
  '-2147483648',
  '4294967295',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '-9223372036854775808',
  '999999.99',
];
const ARITHMETIC = [
  (c: string) => `${c} * 2`,
  (c: string) => `${c} * 3`,
  (c: string) => `${c} * -3`,
  (c: string) => `${c} * 1.2`,
  (c: string) => `${c} + 0`,
  (c: string) => `${c} + 1`,
  (c: string) => `${c} - 1`,
  (c: string) => `1 - ${c}`,
  (c: string) => `${c} - 0.01`,
  (c: string) => `-${c}`,
  (c: string) => `${c} / 4`,
  (c: string) => `${c} / 8`,
  (c: string) => `${c} DIV 2`,
  (c: string) => `(${c} + 1) * 2`,
  (c: string) => `10 - ${c}`,
  (c: string) => `${c} * 2147483648`,
  (c: string) => `${c} + 9223372036854775807`,
];
const DATES = [
  "'2024-02-29'",
  "'2024-03-01'",
  "'2023-02-29'",
  "'1000-01-01'",
  "'0001-01-01'",
  "'9999-12-31'",
  "'2024-05-01 '",
  "' 2024-05-01'",
  "'2024-5-1'",
  "'2024-03-01 00:00:00.000001'",
  "'0000-00-00'",
  "'2024-05-31'",
  '20240301',
];
const INTERVALS = [
  '1 DAY',
  '30 DAY',
  '1 WEEK',
  '2 HOUR',
  '1 SECOND',
  '1 MICROSECOND',
  '500 MICROSECOND',
  '1 MONTH',
  '0 DAY',
  '-1 DAY',
];
const MOMENTS = [
  "'2024-03-01'",
  "'2024-03-01 00:00:00.000001'",
  "'9999-12-31'",
  "'9999-12-31 23:59:59.999999'",
  "'0001-01-01'",
  "'0001-01-02'",
  "'1000-01-01'",
  "'2024-02-29 23:59:59'",
  'NOW()',
];
const TEXTS = [
  "'abc'",
  "'ABC'",
  "'àbc'",
  "'abc '",
  "'ab'",
  "'a'",
  "'ß'",
  "'ss'",
  "'s'",
  "'a%'",
  "'a_'",
  "'a\\\\'",
  "'a b'",
  "'12'",
  "' 12'",
  "''",
];

function comparisons(values: readonly string[], random: () => number): string[] {
  const pick = (): string => values[Math.floor(random() * values.length)]!;
  const ops = ['=', '<', '<=', '>', '>=', '<>', '<=>'].map((op) => `${op} ${pick()}`);
  ops.push(`BETWEEN ${pick()} AND ${pick()}`, `NOT BETWEEN ${pick()} AND ${pick()}`);
  ops.push(`IN (${pick()}, ${pick()}, ${pick()})`, `NOT IN (${pick()}, ${pick()})`);
  return ops;
}

function predicates(random: () => number): string[] {
  const out: string[] = [];
  for (const column of NUMERIC) {
    for (const shape of ARITHMETIC)
      for (const comparison of comparisons(NUMBERS, random)) out.push(`${shape(column)} ${comparison}`);
    for (const text of ["'0'", "'-0'", "'5'", "'05'", "' 5'", "'5 '", "'12'", "'14716'", "'-1'", "'127'"])
      for (const cast of ['CAST(c AS CHAR)', 'CONVERT(c, CHAR)', 'CAST(c AS CHAR(30))'])
        out.push(`${cast.replace('c', column)} = ${text}`);
    for (const fn of ['IFNULL', 'COALESCE', 'ISNULL'])
      for (const [fallback, value] of [
        ['0', '0'],
        ['5', '5'],
        ['-1', '-1'],
        ['0', '5'],
        ["'05'", "'05'"],
        ["'5'", "'5'"],
        ["'x'", "'x'"],
      ] as const)
        out.push(`${fn}(${column}, ${fallback}) = ${value}`);
  }
  for (const column of TEMPORAL) {
    for (const year of ['0', '999', '1000', '1970', '2024', '2038', '9998', '9999'])
      for (const op of ['=', '<', '<=', '>', '>=']) out.push(`YEAR(${column}) ${op} ${year}`);
    out.push(`YEAR(${column}) BETWEEN 2024 AND 2025`, `YEAR(${column}) IN (2024, 2025)`);
    for (const date of DATES)
      for (const op of ['=', '<', '<=', '>', '>=']) out.push(`DATE(${column}) ${op} ${date}`);
    out.push(`DATE(${column}) BETWEEN '2024-02-29' AND '2024-03-01'`);
    for (const [format, values] of [
      ['%Y', ["'2024'", "'0000'", "'9999'", "'1000'"]],
      ['%Y-%m', ["'2024-02'", "'2024-05'", "'9999-12'", "'2024-00'", "'0000-01'"]],
      ['%Y%m', ["'202402'", "'999912'"]],
      ['%Y-%m-%d', ["'2024-02-29'", "'9999-12-31'", "'0001-01-01'", "'2024-05-00'"]],
      ['%Y%m%d', ["'20240229'", "'20240301'"]],
    ] as const)
      for (const value of values) out.push(`DATE_FORMAT(${column}, '${format}') = ${value}`);
    for (const interval of INTERVALS)
      for (const moment of MOMENTS)
        for (const op of ['=', '<', '<=', '>', '>='].filter(() => random() < 0.45)) {
          const pick = random();
          const expression =
            pick < 0.3
              ? `${column} + INTERVAL ${interval}`
              : pick < 0.5
                ? `${column} - INTERVAL ${interval}`
                : pick < 0.65
                  ? `INTERVAL ${interval} + ${column}`
                  : pick < 0.85
                    ? `DATE_ADD(${column}, INTERVAL ${interval})`
                    : `DATE_SUB(${column}, INTERVAL ${interval})`;
          out.push(`${expression} ${op} ${moment}`);
        }
    out.push(`${column} + INTERVAL 1 DAY BETWEEN '2024-03-01' AND '2025-01-01'`);
    for (const fn of ['MONTH', 'TO_DAYS', 'UNIX_TIMESTAMP'])
      out.push(`${fn}(${column}) = ${fn === 'MONTH' ? '3' : fn === 'TO_DAYS' ? '739311' : '1709251200'}`);
    out.push(`IFNULL(${column}, '2024-03-01') = '2024-03-01'`, `IFNULL(${column}, 2024) = 2024`);
  }
  for (const column of TEXT) {
    for (const fn of ['LOWER', 'UPPER', 'LCASE', 'UCASE'])
      for (const comparison of [
        ...comparisons(TEXTS, random),
        ...comparisons(TEXTS, random),
        `LIKE 'a%'`,
        `LIKE 'ß%'`,
      ])
        out.push(`${fn}(${column}) ${comparison}`);
    for (const text of TEXTS) {
      const length = [...text.slice(1, -1).replace(/\\\\/g, '\\')].length;
      for (const n of [length, length + 1])
        out.push(
          `LEFT(${column}, ${n}) = ${text}`,
          `${['SUBSTRING', 'SUBSTR', 'MID'][Math.floor(random() * 3)]}(${column}, 1, ${n}) = ${text}`,
        );
      out.push(`IFNULL(${column}, ${text}) = ${text}`, `COALESCE(${column}, 'zz') = ${text}`);
    }
    out.push(`CONCAT(${column}, 'x') = 'abcx'`, `IFNULL(${column}, 0) = 0`, `IFNULL(${column}, 12) = 12`);
  }
  return out;
}

/** Whole statements for the rewrites that are not one predicate: HAVING → WHERE, OR → UNION, suffix LIKE. */
function statementsOf(random: () => number): string[] {
  const out: string[] = [];
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  for (const column of [...TEXT, 'i', 'amt', 'd', 'dt6']) {
    const values = TEXT.includes(column) ? TEXTS : column === 'd' || column === 'dt6' ? DATES : NUMBERS;
    for (const comparison of comparisons(values, random))
      out.push(`SELECT ${column}, COUNT(*) AS n FROM p GROUP BY ${column} HAVING ${column} ${comparison}`);
    out.push(
      `SELECT ${column}, COUNT(*) AS n FROM p GROUP BY ${column} HAVING ${column} IS NULL`,
      `SELECT ${column}, COUNT(*) AS n FROM p GROUP BY ${column} HAVING ${column} LIKE 'a%' AND COUNT(*) > 0`,
      `SELECT ${column} AS k, MAX(id) AS m FROM p GROUP BY ${column} HAVING k ${comparisons(values, random)[0]!}`,
    );
  }
  const simple = (): string => {
    const column = pick([...NUMERIC.slice(0, 3), ...TEXT, 'd']);
    const values = TEXT.includes(column) ? TEXTS : column === 'd' ? DATES : NUMBERS;
    return `${column} ${pick(['=', '<', '>=', '<>'])} ${pick(values)}`;
  };
  for (let k = 0; k < 40; k++) {
    const where = `${simple()} OR ${simple()}${random() < 0.3 ? ` OR ${simple()}` : ''}`;
    out.push(
      pick([
        `SELECT id FROM p WHERE ${where}`,
        `SELECT DISTINCT s_ci FROM p WHERE ${where}`,
        `SELECT id, i FROM p WHERE (${where}) AND ti <> 0`,
        `SELECT id FROM p WHERE ${where} ORDER BY id LIMIT 3`,
      ]),
    );
  }
  for (const column of ['s_ci', 's_bin', 's_ai', 's_l1', 'c_ci'])
    for (const suffix of ['bc', 'BC', 'c', 'a', 's', 'ß', 'ss', ' ', '12'])
      out.push(`SELECT id FROM p WHERE ${column} LIKE '%${suffix}'`);
  return out;
}

// ---- running and comparing ----

type Outcome = { ids: string } | { errno: number };

/** `SELECT id FROM p WHERE …` as one row holding the ids in order. */
function idsQuery(sql: string): string {
  if (!/^SELECT id FROM p WHERE /.test(sql)) throw new Error(`unexpected statement: ${sql}`);
  return sql.replace(/^SELECT id FROM p /, 'SELECT GROUP_CONCAT(id ORDER BY id) AS ids FROM p ');
}

async function outcome(connection: Connection, sql: string, asRows = false): Promise<Outcome> {
  try {
    if (asRows || !/^SELECT id FROM p WHERE /.test(sql)) {
      // Any other statement: its rows as a sorted multiset.
      const [rows] = await connection.query<RowDataPacket[]>({ sql, rowsAsArray: true });
      return {
        ids: rows
          .map((row) => JSON.stringify(row))
          .sort()
          .join('|'),
      };
    }
    const [rows] = await connection.query<RowDataPacket[]>(idsQuery(sql));
    return { ids: String(rows[0]?.ids ?? '') };
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    if (errno === undefined) throw error;
    return { errno };
  }
}

/** Outcomes of many statements: 100 per round trip; a batch with an error is run one by one. */
async function outcomes(connection: Connection, statements: readonly string[]): Promise<Outcome[]> {
  const result: Outcome[] = [];
  for (let start = 0; start < statements.length; start += 100) {
    const batch = statements.slice(start, start + 100);
    try {
      if (batch.some((sql) => !/^SELECT id FROM p WHERE /.test(sql))) throw new Error('one by one');
      const [sets] = await connection.query<RowDataPacket[][]>(batch.map(idsQuery).join(';\n'));
      const list = batch.length === 1 ? [sets as unknown as RowDataPacket[]] : sets;
      for (const rows of list) result.push({ ids: String(rows[0]?.ids ?? '') });
    } catch {
      for (const sql of batch) result.push(await outcome(connection, sql));
    }
  }
  return result;
}

interface RewriteCase {
  sql: string;
  rewrittenSql: string;
  notes: string[];
  ddl: string[];
}

/** Rewrites offered for `sql` (no DDL needed): the equivalent ones and the others. */
function rewritesOf(
  sql: string,
  server: ServerInfo,
  schema: ReturnType<typeof schemaFromDdl>['schema'],
  source: 'flags' | 'dsn',
): { equivalent: RewriteCase[]; other: RewriteCase[]; generated: RewriteCase[] } {
  const report = analyze(sql, { server, source, schema });
  const result = {
    equivalent: [] as RewriteCase[],
    other: [] as RewriteCase[],
    generated: [] as RewriteCase[],
  };
  for (const finding of report.statements.flatMap((statement) => statement.findings))
    for (const suggestion of finding.suggestions) {
      if (!suggestion.rewrittenSql) continue;
      const entry = {
        sql,
        rewrittenSql: suggestion.rewrittenSql,
        notes: suggestion.notes,
        ddl: suggestion.ddl,
      };
      // A rewrite's rows do not depend on the indexes it proposes; a generated column must exist first.
      // (Index suggestions that carry a rewrite's text are the index design's, audited elsewhere.)
      if (suggestion.kind !== 'rewrite' && suggestion.ddl.length > 0) {
        if (suggestion.equivalent && /REVERSE\(/.test(suggestion.ddl.join(' '))) result.generated.push(entry);
      } else if (suggestion.kind === 'rewrite')
        (suggestion.equivalent ? result.equivalent : result.other).push(entry);
    }
  return result;
}

const MYSQL_LAX_MODE =
  'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';
const TIME_ZONES = ['+00:00', '+05:30', '-10:00'];

describe.each(testServers())(
  'every equivalent rewrite returns the same rows on $flavor',
  ({ flavor, url }) => {
    let connection: Connection;
    let database: string;
    let defaultMode: string;
    const random = mulberry32(17);
    const statements = [
      ...predicates(random).map((predicate) => `SELECT id FROM p WHERE ${predicate}`),
      ...statementsOf(random),
    ];

    beforeAll(async () => {
      connection = await connect(url);
      database = scratchDatabaseName('sargable_rwp');
      await connection.query(`CREATE DATABASE \`${database}\``);
      await connection.query(`USE \`${database}\``);
      const [rows] = await connection.query<RowDataPacket[]>('SELECT @@SESSION.sql_mode AS m');
      defaultMode = String(rows[0]?.m);
    });

    afterAll(async () => {
      await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection?.end();
    });

    /** Load the table in `mode` (zero-in-date rows only when the mode stores them); the servers as analysed. */
    async function load(mode: string) {
      const ddl = tableDdl(flavor);
      await connection.query(`SET SESSION sql_mode = '${mode}', time_zone = '+00:00'`);
      await connection.query('DROP TABLE IF EXISTS p');
      await connection.query(ddl);
      for (const statement of insertStatements(!/NO_ZERO_IN_DATE/.test(mode)))
        await connection.query(statement);
      const live: ServerInfo = { ...(await detectServerInfo(connection)), database };
      const offline: ServerInfo = {
        ...offlineServerInfo(flavor, live.version.replace(/-.*/, '')),
        sqlMode: { session: mode, global: mode },
      };
      return {
        live,
        liveSchema: await loadSchema(connection, live, database),
        offline,
        offlineSchema: schemaFromDdl(ddl, flavor).schema,
      };
    }

    /** Compare every rewrite offered as equivalent, in `mode` and three time zones. */
    async function audit(mode: string): Promise<{ checked: number; other: number; mismatches: string[] }> {
      const { live, liveSchema, offline, offlineSchema } = await load(mode);
      const seen = new Set<string>();
      const equivalent: RewriteCase[] = [];
      const generated = new Map<string, RewriteCase>();
      let other = 0;
      const mismatches: string[] = [];
      for (const sql of statements)
        for (const [server, schema, source] of [
          [offline, offlineSchema, 'flags'],
          [live, liveSchema, 'dsn'],
        ] as const) {
          const found = rewritesOf(sql, server, schema, source);
          for (const entry of found.equivalent) {
            if (seen.has(`${entry.sql}\n${entry.rewrittenSql}`)) continue;
            seen.add(`${entry.sql}\n${entry.rewrittenSql}`);
            equivalent.push(entry);
          }
          for (const entry of found.generated)
            generated.set(`${entry.ddl.join('\n')}\n${entry.rewrittenSql}`, entry);
          for (const entry of found.other) {
            other++;
            // A rewrite offered as not equivalent says where the rows differ.
            if (!/not equivalent|differ|ERROR \d{4}|unknown|assumes/i.test(entry.notes.join(' ')))
              mismatches.push(`[${source}] not equivalent without a reason: ${sql}`);
          }
        }
      for (const zone of TIME_ZONES) {
        await connection.query(`SET SESSION time_zone = '${zone}'`);
        const results = await outcomes(
          connection,
          equivalent.flatMap((entry) => [entry.sql, entry.rewrittenSql]),
        );
        for (const [k, entry] of equivalent.entries()) {
          const original = results[2 * k];
          const rewritten = results[2 * k + 1];
          if (JSON.stringify(original) !== JSON.stringify(rewritten))
            mismatches.push(
              `${zone} ${/NO_ZERO_IN_DATE/.test(mode) ? 'no-zero' : 'zero'} | ${entry.sql} | ${entry.rewrittenSql} | original ${JSON.stringify(original)} | rewrite ${JSON.stringify(rewritten)}`,
            );
        }
      }
      // Generated columns and indexes on expressions (the suffix search on REVERSE(), ARI001 …): add them,
      // compare, drop them again; every distinct DDL once, up to 80 (a deterministic stride over the rest).
      await connection.query(`SET SESSION time_zone = '+00:00'`);
      const byDdl = new Map<string, RewriteCase>();
      for (const entry of generated.values())
        if (!byDdl.has(entry.ddl.join('\n'))) byDdl.set(entry.ddl.join('\n'), entry);
      const all = [...generated.values()];
      const stride = Math.max(1, Math.ceil(all.length / Math.max(1, 80 - byDdl.size)));
      const sample = new Set([...byDdl.values(), ...all.filter((_, k) => k % stride === 0)]);
      for (const entry of sample) {
        const text = entry.ddl.join(' ');
        const indexes = [...text.matchAll(/(?:ADD|CREATE) (?:UNIQUE )?INDEX `?(\w+)`?/g)].map(
          (match) => match[1],
        );
        const columns = [...text.matchAll(/ADD COLUMN `?(\w+)`?/g)].map((match) => match[1]);
        try {
          for (const statement of entry.ddl) await connection.query(statement);
          const original = await outcome(connection, entry.sql, true);
          const rewritten = await outcome(connection, entry.rewrittenSql, true);
          if (JSON.stringify(original) !== JSON.stringify(rewritten))
            mismatches.push(
              `generated | ${entry.sql} | ${text} ${entry.rewrittenSql} | original ${JSON.stringify(original)} | rewrite ${JSON.stringify(rewritten)}`,
            );
        } catch (error) {
          mismatches.push(`generated DDL failed | ${text} | ${(error as Error).message}`);
        } finally {
          for (const index of indexes)
            await connection.query(`ALTER TABLE p DROP INDEX \`${index}\``).catch(() => undefined);
          for (const column of columns)
            await connection.query(`ALTER TABLE p DROP COLUMN \`${column}\``).catch(() => undefined);
        }
      }
      return {
        checked: equivalent.length * TIME_ZONES.length + sample.size,
        other,
        mismatches,
      };
    }

    it('canary: the data exposes the naive rewrites, and none of them is offered as equivalent', async () => {
      const { live, liveSchema } = await load(defaultMode);
      const naive: [string, string][] = [
        ["CAST(z AS CHAR) = '5'", 'z = 5'], // ZEROFILL: CAST gives '000005'
        ["CAST(i AS CHAR) = '-0'", 'i = 0'],
        ["IFNULL(i, '05') = '05'", "i = '05' OR i IS NULL"], // string comparison vs numeric
        ['ISNULL(i, 0) = 0', 'i = 0 OR i IS NULL'], // ERROR 1582
        // MySQL compares this list in DOUBLE (MariaDB happens to agree on these rows).
        ...(flavor === 'mysql'
          ? [
              ['bu + 0 IN (9223372036854775808, -1, 9.99)', 'bu IN (9223372036854775808, -1)'] as [
                string,
                string,
              ],
            ]
          : []),
        ["INTERVAL 1 DAY + d > '2024-03-01'", "d > '2024-02-29'"], // INTERVAL 1 DAY + (d > …)
        [
          "d - INTERVAL 1 DAY < '9999-12-31 23:59:59.999999'",
          "d < '9999-12-31 23:59:59.999999' + INTERVAL 1 DAY",
        ],
      ];
      for (const [original, rewritten] of naive) {
        const sql = `SELECT id FROM p WHERE ${original}`;
        const [left, right] = await outcomes(connection, [sql, `SELECT id FROM p WHERE ${rewritten}`]);
        expect(left, original).not.toEqual(right);
        const offered = rewritesOf(sql, live, liveSchema, 'dsn');
        for (const entry of offered.equivalent)
          expect(await outcomes(connection, [entry.rewrittenSql]), entry.rewrittenSql).toEqual([left]);
      }
    }, 60_000);

    it('in the server default sql_mode', async () => {
      const result = await audit(defaultMode);
      console.log(
        `${flavor} ${defaultMode}: ${statements.length} predicates, ${result.checked} equivalent rewrite checks, ${result.other} not-equivalent offers`,
      );
      expect(result.mismatches).toEqual([]);
      expect(result.checked).toBeGreaterThan(1000);
    }, 240_000);

    it('in the other zero-in-date sql_mode', async () => {
      // MySQL's default forbids zero-in-date values, MariaDB's stores them: audit the other one too.
      const mode = /NO_ZERO_IN_DATE/.test(defaultMode)
        ? MYSQL_LAX_MODE
        : `${defaultMode},NO_ZERO_IN_DATE,NO_ZERO_DATE`;
      const result = await audit(mode);
      console.log(
        `${flavor} ${mode}: ${statements.length} predicates, ${result.checked} equivalent rewrite checks, ${result.other} not-equivalent offers`,
      );
      expect(result.mismatches).toEqual([]);
      expect(result.checked).toBeGreaterThan(1000);
    }, 240_000);
  },
);
