// Server truth for the sql-mode rules and knowledge base: predictions are executed on MySQL 8.0 and MariaDB 10.11.
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { parseVersion } from '../../src/core/flavors/version.js';
import type { PredictedError } from '../../src/core/model/report.js';
import { rules } from '../../src/core/rules/index.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { MODES, VARIABLE_DEFAULTS } from '../../src/core/sqlmode/data.js';
import {
  defaultSqlMode,
  expandSqlMode,
  inRange,
  modeFamily,
  modeStatus,
  offlineServerInfo,
  validModes,
} from '../../src/core/sqlmode/modes.js';
import { readSqlModeView } from '../../src/main/services/sqlmode.js';
import { connect, testServers, withScratchDatabase } from '../support/db.js';
import { loadAllFixtures } from '../unit/rules/fixture-runner.js';

interface Outcome {
  error: { code: number; sqlState: string; message: string } | null;
  warnings: number[];
}

async function execute(connection: mysql.Connection, sql: string): Promise<Outcome> {
  try {
    await connection.query(sql);
  } catch (error) {
    const e = error as { errno?: number; sqlState?: string; sqlMessage?: string };
    return {
      error: { code: e.errno ?? -1, sqlState: e.sqlState ?? '', message: e.sqlMessage ?? '' },
      warnings: [],
    };
  }
  const [rows] = await connection.query<RowDataPacket[]>('SHOW WARNINGS');
  return { error: null, warnings: rows.map((row) => Number(row.Code)) };
}

async function serverVersion(url: string): Promise<string> {
  const connection = await connect(url);
  try {
    const [rows] = await connection.query<RowDataPacket[]>('SELECT VERSION() AS v');
    return String(rows[0]?.v ?? '');
  } finally {
    await connection.end();
  }
}

const EVENTS_T = `CREATE TABLE \`events_t\` (
  \`id\` int(11) NOT NULL AUTO_INCREMENT,
  \`event_date\` datetime NOT NULL,
  \`profile_id\` int(11) DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`event_date\` (\`event_date\`),
  KEY \`profile_id\` (\`profile_id\`)
)`;
const SEED_SEQUENCE = [
  'insert into events_t (profile_id) values (1)',
  "alter table events_t change event_date event_date datetime NOT NULL default '0000-00-00 00:00:00'",
  "alter table events_t change event_date event_date datetime NOT NULL default '2000-00-00 00:00:00'",
  "alter table events_t change event_date event_date datetime NOT NULL default '2000-01-01 00:00:00'",
  'insert into events_t (profile_id) values (1)',
];

/** Each later statement's outcome depends on an earlier ALTER TABLE (see tests/unit/core/analyze.test.ts). */
const ALTER_SCRIPT = [
  'CREATE TABLE t (id int NOT NULL, a int, b varchar(3), PRIMARY KEY (id))',
  'ALTER TABLE t ADD COLUMN c int NOT NULL AFTER id, MODIFY b varchar(10)',
  "INSERT INTO t (id, a, b) VALUES (1, 1, 'abcdefgh')",
  'ALTER TABLE t ALTER COLUMN c SET DEFAULT 0',
  "INSERT INTO t (id, a, b) VALUES (2, 1, 'abcdefghijk')",
  "INSERT INTO t (id, a, b) VALUES (2, 1, 'abcdefghij')",
  'ALTER TABLE t ALTER c DROP DEFAULT, CHANGE a a2 tinyint, DROP COLUMN b',
  'INSERT INTO t VALUES (3, 0, 300)',
  'INSERT INTO t (id, a2) VALUES (4, 1)',
  'ALTER TABLE t RENAME COLUMN a2 TO a3, RENAME TO t_new',
  'INSERT INTO t_new (id, c, a3) VALUES (5, 1, 1000)',
  'INSERT INTO t_new (id, c, a3) VALUES (5, 1, 100)',
];

describe.each(testServers())('sql_mode on $flavor', ({ flavor, url }) => {
  it('the compiled default sql_mode and variable defaults match the knowledge base', async () => {
    const version = parseVersion(await serverVersion(url));
    if (!version) throw new Error('no version');
    const connection = await connect(url);
    try {
      const names = ['sql_mode', ...VARIABLE_DEFAULTS.map((v) => v.name)];
      const placeholders = names.map(() => '?').join(',');
      // Compiled defaults, independent of how the server was started.
      // Compiled defaults, independent of how the server was started. On MySQL a variable someone
      // changed with SET GLOBAL (source DYNAMIC) no longer shows its compiled default, so it is skipped.
      const [rows] =
        flavor === 'mysql'
          ? await connection.query<RowDataPacket[]>(
              `SELECT i.VARIABLE_NAME AS name, i.VARIABLE_SOURCE AS source, g.VARIABLE_VALUE AS value
               FROM performance_schema.variables_info i
               JOIN performance_schema.global_variables g USING (VARIABLE_NAME)
               WHERE i.VARIABLE_NAME IN (${placeholders})`,
              names,
            )
          : await connection.query<RowDataPacket[]>(
              `SELECT LOWER(VARIABLE_NAME) AS name, 'COMPILED' AS source, DEFAULT_VALUE AS value
               FROM information_schema.SYSTEM_VARIABLES WHERE VARIABLE_NAME IN (${placeholders})`,
              names.map((name) => name.toUpperCase()),
            );
      const actual = new Map(
        rows
          .filter((row) => row.source === 'COMPILED')
          .map((row) => [String(row.name).toLowerCase(), String(row.value ?? '')]),
      );
      const sqlModeSource = rows.find((row) => String(row.name).toLowerCase() === 'sql_mode')?.source;
      if (sqlModeSource === 'COMPILED') expect(actual.get('sql_mode')).toBe(defaultSqlMode(flavor, version));
      else
        console.warn(
          `sql_mode on ${flavor} was changed at run time (${String(sqlModeSource)}): default not checked`,
        );
      const compared: Record<string, [string, string]> = {};
      for (const variable of VARIABLE_DEFAULTS) {
        const row = variable.values.find((v) => v.family === modeFamily(flavor) && inRange(version, v.range));
        let value = actual.get(variable.name);
        if (!row || value === undefined || value === 'NULL' || value === '') continue;
        if (variable.switches)
          value = value
            .split(',')
            .filter((pair) => variable.switches?.includes(pair.split('=')[0] ?? ''))
            .join(',');
        compared[variable.name] = [value.toUpperCase(), row.value.toUpperCase()];
      }
      expect(Object.keys(compared).length).toBeGreaterThanOrEqual(8);
      for (const [name, [got, want]] of Object.entries(compared)) expect(got, name).toBe(want);
    } finally {
      await connection.end();
    }
  });

  it('every mode the knowledge base calls valid is accepted; removed ones fail with ERROR 1231', async () => {
    const version = await serverVersion(url);
    const connection = await connect(url);
    try {
      const accepted: string[] = [];
      const rejected: string[] = [];
      for (const mode of MODES) {
        const status = modeStatus(mode.name, flavor, version);
        if (status === 'unknown' && !mode.availability[modeFamily(flavor)]) continue;
        const outcome = await execute(connection, `SET SESSION sql_mode = '${mode.name}'`);
        if (outcome.error) {
          expect(outcome.error.code, mode.name).toBe(1231);
          rejected.push(mode.name);
        } else {
          accepted.push(mode.name);
          if (mode.expands) {
            const [rows] = await connection.query<RowDataPacket[]>('SELECT @@SESSION.sql_mode AS m');
            expect(String(rows[0]?.m), mode.name).toBe(expandSqlMode(mode.name, flavor).join(','));
          }
        }
      }
      expect(accepted).toEqual(validModes(flavor, version));
      expect(rejected.every((name) => modeStatus(name, flavor, version) === 'removed')).toBe(true);
      if (flavor === 'mysql') expect(rejected).toContain('NO_AUTO_CREATE_USER');
    } finally {
      await connection.end();
    }
  });

  it("the seeds' events_t sequence under strict mode: 1364, 1067, 1067, then success (the ALTER is followed)", async () => {
    const version = await serverVersion(url);
    await withScratchDatabase(url, async (connection) => {
      // The MySQL 5.7.8+/8.0 default (strict + zero-date modes), set on both servers.
      await connection.query(`SET SESSION sql_mode = '${defaultSqlMode('mysql', '8.0.33')}'`);
      await connection.query(EVENTS_T);
      const server = {
        ...offlineServerInfo(flavor, version),
        sqlMode: { session: defaultSqlMode('mysql', '8.0.33'), global: '' },
      };
      const report = analyze(SEED_SEQUENCE.join(';\n'), {
        server,
        source: 'flags',
        schema: schemaFromDdl(EVENTS_T, flavor).schema,
      });
      const predicted = report.statements.map(
        (statement) => statement.findings.find((finding) => finding.predictedError)?.predictedError ?? null,
      );
      expect(predicted.map((p) => p && { code: p.code, sqlState: p.sqlState, message: p.message })).toEqual([
        { code: 1364, sqlState: 'HY000', message: "Field 'event_date' doesn't have a default value" },
        { code: 1067, sqlState: '42000', message: "Invalid default value for 'event_date'" },
        { code: 1067, sqlState: '42000', message: "Invalid default value for 'event_date'" },
        null,
        // the successful ALTER gave event_date a default, so the same INSERT now succeeds
        null,
      ]);
      const outcomes: Outcome[] = [];
      for (const sql of SEED_SEQUENCE) outcomes.push(await execute(connection, sql));
      expect(outcomes.map((o) => o.error)).toEqual([
        predicted[0] && { code: 1364, sqlState: 'HY000', message: predicted[0].message },
        { code: 1067, sqlState: '42000', message: predicted[1]?.message },
        { code: 1067, sqlState: '42000', message: predicted[2]?.message },
        null,
        null,
      ]);
      const [rows] = await connection.query<RowDataPacket[]>(
        "SELECT DATE_FORMAT(event_date, '%Y-%m-%d %H:%i:%s') AS d, profile_id FROM events_t",
      );
      expect(rows.map((row) => ({ ...row }))).toEqual([{ d: '2000-01-01 00:00:00', profile_id: 1 }]);
    });
  });

  it('the events_t insert without strict mode: predicted and actual warning 1364, zero date stored', async () => {
    const version = await serverVersion(url);
    await withScratchDatabase(url, async (connection) => {
      await connection.query(EVENTS_T);
      const script = `SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION';\n${SEED_SEQUENCE[0]}`;
      const report = analyze(script, {
        server: offlineServerInfo(flavor, version),
        source: 'flags',
        schema: schemaFromDdl(EVENTS_T, flavor).schema,
      });
      const finding = report.statements[1]?.findings.find((f) => f.rule === 'MOD001');
      expect(finding?.predictedError).toEqual({
        code: 1364,
        sqlState: 'HY000',
        message: "Field 'event_date' doesn't have a default value",
        warningOnly: true,
      });
      await connection.query("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'");
      const outcome = await execute(connection, SEED_SEQUENCE[0] ?? '');
      expect(outcome).toEqual({ error: null, warnings: [1364] });
      const [rows] = await connection.query<RowDataPacket[]>(
        "SELECT DATE_FORMAT(event_date, '%Y-%m-%d %H:%i:%s') AS d FROM events_t",
      );
      expect(rows[0]?.d).toBe('0000-00-00 00:00:00');
    });
  });

  it('a script whose ALTER TABLEs change what later statements do: every prediction is the server outcome', async () => {
    const version = await serverVersion(url);
    await withScratchDatabase(url, async (connection, database) => {
      const server = { ...offlineServerInfo(flavor, version), database };
      await connection.query(`SET SESSION sql_mode = '${server.sqlMode.session}'`);
      const report = analyze(ALTER_SCRIPT.join(';\n'), { server, source: 'flags' });
      expect(report.errors).toEqual([]);
      const predicted: (number | null)[] = [];
      const actual: (number | null)[] = [];
      for (const statement of report.statements) {
        const error = statement.findings.find((f) => f.predictedError && !f.predictedError.warningOnly);
        predicted.push(error?.predictedError?.code ?? null);
        actual.push((await execute(connection, statement.sql)).error?.code ?? null);
      }
      expect(actual).toEqual(predicted);
      // The script exercises each kind of change: some statements fail only because of an earlier ALTER.
      expect(predicted.filter((code) => code !== null).length).toBeGreaterThanOrEqual(4);
    });
  });

  it('the live server view reads both modes and the variables', async () => {
    const connection = await connect(url);
    try {
      const view = await readSqlModeView(connection);
      expect(view.flavor).toBe(flavor);
      expect(view.global.differsFromDefault).toEqual({ added: [], removed: [] });
      expect(view.variables.filter((v) => v.differsFromDefault)).toEqual([]);
      expect(view.variables.length).toBeGreaterThanOrEqual(8);
    } finally {
      await connection.end();
    }
  });

  // Every MOD fixture case, executed: the server's error must be the predicted one, warnings where predicted.
  const cases = loadAllFixtures()
    .filter((fixture) => fixture.rule.startsWith('MOD'))
    .flatMap((fixture) =>
      fixture.cases
        .filter((entry) => !entry.name.includes('unknown_table'))
        .filter((entry) => !entry.server || entry.server.flavor === flavor)
        .map((entry) => [`${fixture.rule} › ${entry.name}`, fixture, entry] as const),
    );

  it.each(cases)('%s', async (_name, fixture, entry) => {
    const version = await serverVersion(url);
    await withScratchDatabase(url, async (connection, database) => {
      const server = { ...offlineServerInfo(flavor, version), database };
      await connection.query(`SET SESSION sql_mode = '${server.sqlMode.session}'`);
      for (const slice of splitStatements(fixture.schema ?? '')) await connection.query(slice.sql);
      const rule = rules[fixture.rule];
      if (!rule) throw new Error(`no rule ${fixture.rule}`);
      const report = analyze(entry.sql, {
        server,
        source: 'flags',
        schema: fixture.schema ? schemaFromDdl(fixture.schema, flavor).schema : undefined,
        rules: [rule],
      });
      expect(report.errors).toEqual([]);
      const observed: unknown[] = [];
      const expected: unknown[] = [];
      for (const statement of report.statements) {
        const predictions = statement.findings
          .map((finding) => finding.predictedError)
          .filter((p): p is PredictedError => Boolean(p));
        const error = predictions.find((p) => !p.warningOnly);
        const warnings = predictions.filter((p) => p.warningOnly).map((p) => p.code);
        const outcome = await execute(connection, statement.sql);
        observed.push({
          error: outcome.error?.code ?? null,
          warnings: [...new Set(outcome.warnings.filter((code) => warnings.includes(code)))].sort(),
        });
        expected.push({ error: error?.code ?? null, warnings: error ? [] : [...new Set(warnings)].sort() });
        if (outcome.error) break;
      }
      expect(observed).toEqual(expected.slice(0, observed.length));
      if (entry.name.startsWith('pass_'))
        expect(observed.every((o) => (o as Outcome).error === null)).toBe(true);
    });
  });
});
