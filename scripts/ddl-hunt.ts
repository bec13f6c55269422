// Applies every DDL the advice proposes for the corpus groups' statements on those groups' own tables
// holding edge rows, and lists what the server rejects (issue 17; docs/testing.md, "Every proposed DDL on
// data with edge values"). Run: npx tsx scripts/ddl-hunt.ts mysql|mariadb [live|offline], with
// SARGABLE_TEST_MYSQL_URL / SARGABLE_TEST_MARIADB_URL set to an admin URL (it creates and drops one
// scratch database, sargable_ddl_hunt_<flavor>).
//
// Groups: tests/fixtures/corpus/{peer-tests,mysql-manual,mariadb-kb}.json, without the parser test suites
// (sqlfluff, grammars-v4, pingcap), keeping those with a CREATE TABLE and a SELECT/UPDATE/DELETE. Each table
// gets five rows of edge values (NULL, 0, -1, UNSIGNED/BIGINT extremes, long strings, boundary dates),
// inserted with INSERT IGNORE under an empty sql_mode so the server clamps them to each column's type;
// the DDL then runs under the server's default sql_mode. `live` analyses as a connected session does
// (runLiveAnalysis: the data checks withdraw DDL that would fail); `offline` as with a schema file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { analyze } from '../src/core/analyze.js';
import type { AnalysisReport } from '../src/core/model/report.js';
import { runLiveAnalysis } from '../src/main/services/analysis.js';
import { loadSchema } from '../src/main/services/schema.js';
import { detectServerInfo } from '../src/main/services/server-info.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flavor = process.argv[2] === 'mariadb' ? 'mariadb' : 'mysql';
const mode = process.argv[3] === 'offline' ? 'offline' : 'live';
const url = flavor === 'mysql' ? process.env.SARGABLE_TEST_MYSQL_URL : process.env.SARGABLE_TEST_MARIADB_URL;
if (!url) {
  console.error(`Set SARGABLE_TEST_${flavor.toUpperCase()}_URL to an admin URL of a ${flavor} server.`);
  process.exit(2);
}

interface Group {
  source: string;
  statements: string[];
}
const groups: Group[] = [];
for (const file of ['peer-tests.json', 'mysql-manual.json', 'mariadb-kb.json']) {
  const corpus = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/corpus', file), 'utf8')) as {
    groups: Group[];
  };
  groups.push(...corpus.groups.filter((group) => !/sqlfluff|grammars-v4|pingcap/.test(group.source)));
}

/** The k-th edge value (0…4) for a column, as SQL. */
function edgeValue(column: RowDataPacket, k: number): string {
  const type = String(column.DATA_TYPE).toLowerCase();
  if (column.IS_NULLABLE === 'YES' && k === 0) return 'NULL';
  if (/int|decimal|numeric|float|double|bit|year/.test(type))
    return ['0', '-1', '4294967295', '1', '-9000000000000000000'][k]!;
  if (/char|text|blob|binary/.test(type)) {
    const length = Math.min(Number(column.CHARACTER_MAXIMUM_LENGTH ?? 10), 3000);
    return [`''`, `'abc'`, `REPEAT('z', ${length})`, `'12'`, `'x1y'`][k]!;
  }
  if (/datetime|timestamp/.test(type))
    return [
      `'1970-01-02 00:00:01'`,
      `'2024-02-29 12:00:00'`,
      `'2037-12-31 23:59:59'`,
      `'2000-01-01'`,
      `'1999-12-31'`,
    ][k]!;
  if (type === 'date')
    return [`'1000-01-01'`, `'2024-02-29'`, `'9999-12-31'`, `'2000-01-01'`, `'1999-12-31'`][k]!;
  if (type === 'time') return [`'-838:59:59'`, `'00:00:00'`, `'838:59:59'`, `'12:00:00'`, `'01:02:03'`][k]!;
  if (type === 'json') return [`'{}'`, `'{"a":1}'`, `'[1,2]'`, `'null'`, `'"s"'`][k]!;
  const member = /'([^']*)'/.exec(String(column.COLUMN_TYPE));
  return (type === 'enum' || type === 'set') && member ? `'${member[1]}'` : 'DEFAULT';
}

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;
const database = `sargable_ddl_hunt_${flavor}`;
const connection = await mysql.createConnection({ uri: url });
const counts = { groups: 0, tables: 0, statements: 0, proposed: 0, accepted: 0, rejected: 0, riskNoted: 0 };
const rejected: string[] = [];
try {
  for (const group of groups) {
    const creates = group.statements.filter((sql) => /^\s*CREATE\s+TABLE/i.test(sql));
    const queries = group.statements.filter((sql) => /^\s*(SELECT|UPDATE|DELETE|WITH)\b/i.test(sql));
    if (creates.length === 0 || queries.length === 0) continue;
    await connection.query(`DROP DATABASE IF EXISTS ${database}`);
    await connection.query(`CREATE DATABASE ${database}`);
    await connection.query(`USE ${database}`);
    for (const ddl of creates) await connection.query(ddl).catch(() => undefined);
    const [tables] = await connection.query<RowDataPacket[]>(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
    );
    if (tables.length === 0) continue;
    counts.groups++;
    counts.tables += tables.length;
    await connection.query("SET SESSION sql_mode = '', FOREIGN_KEY_CHECKS = 0");
    for (const { name } of tables) {
      const [columns] = await connection.query<RowDataPacket[]>(
        'SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [name],
      );
      const writable = columns.filter((column) => !/GENERATED|auto_increment/i.test(String(column.EXTRA)));
      for (let k = 0; k < 5; k++)
        await connection
          .query(
            `INSERT IGNORE INTO ${quote(String(name))} (${writable.map((column) => quote(String(column.COLUMN_NAME))).join(', ')}) VALUES (${writable.map((column) => edgeValue(column, k)).join(', ')})`,
          )
          .catch(() => undefined);
    }
    await connection.query('SET SESSION sql_mode = DEFAULT, FOREIGN_KEY_CHECKS = 1');
    const server = { ...(await detectServerInfo(connection)), database };
    const schema = await loadSchema(connection, server, database);
    for (const sql of queries) {
      counts.statements++;
      let report: AnalysisReport;
      try {
        report =
          mode === 'live'
            ? await runLiveAnalysis(connection, sql, server, schema)
            : analyze(sql, { server, source: 'flags', schema });
      } catch {
        continue;
      }
      for (const statement of report.statements)
        for (const finding of statement.findings)
          for (const suggestion of finding.suggestions) {
            if (suggestion.ddl.length === 0) continue;
            counts.proposed++;
            const applied: string[] = [];
            let failure: string | null = null;
            for (const ddl of suggestion.ddl) {
              try {
                await connection.query(ddl);
                applied.push(ddl);
              } catch (error) {
                failure = `${ddl}\n    ${(error as Error).message}`;
                break;
              }
            }
            if (failure) {
              counts.rejected++;
              const risk = suggestion.notes.some((note) => note.startsWith('Risk:'));
              if (risk) counts.riskNoted++;
              rejected.push(
                `[${group.source}] ${finding.rule} ${suggestion.kind}${risk ? ' (risk noted)' : ''}: ${sql.slice(0, 200)}\n    ${failure}`,
              );
            } else counts.accepted++;
            // Undo what was added: indexes, then generated columns.
            for (const ddl of applied) {
              const table = /ALTER TABLE\s+`?([\w$]+)`?/i.exec(ddl)?.[1];
              if (!table) continue;
              for (const match of ddl.matchAll(/ADD (?:UNIQUE )?INDEX\s+`?([\w$]+)`?/gi))
                await connection.query(`ALTER TABLE ${quote(table)} DROP INDEX ${quote(match[1]!)}`);
              for (const match of ddl.matchAll(/ADD COLUMN\s+`?([\w$]+)`?/gi))
                await connection.query(`ALTER TABLE ${quote(table)} DROP COLUMN ${quote(match[1]!)}`);
            }
          }
    }
  }
} finally {
  await connection.query(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
  await connection.end();
}
console.log(`${flavor} ${mode}: ${JSON.stringify(counts)}`);
for (const line of rejected) console.log(line);
