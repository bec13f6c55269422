// The schema loader against the server's truth, on both servers: create a realistic schema (every
// table feature: partitioning, charsets, CHECK, FULLTEXT/SPATIAL, invisible columns and indexes,
// generated columns, FKs, LIKE, odd names, views; MariaDB: system versioning, sequences) and a
// sakila-like one, dump it with the real client tools in every form, load each form, and compare
// tables, columns and indexes with what information_schema says.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import type { SchemaModel, TableInfo } from '../../src/core/model/schema.js';
import { loadSchemaText, type SchemaSource } from '../../src/core/schema/ddl-load.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';
import { schemaDifferences } from '../support/schema-compare.js';

const SOURCES = path.resolve(__dirname, '../fixtures/schemas/source');

function which(command: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The server's own model: base tables (the app's live loader), views, sequences, invisible columns. */
async function serverModel(connection: Connection, database: string): Promise<SchemaModel> {
  const server = await detectServerInfo(connection);
  const live = await loadSchema(connection, { ...server, database }, database);
  const [rows] = await connection.query<RowDataPacket[]>(
    `SELECT t.TABLE_NAME AS table_name, t.TABLE_TYPE AS type, t.ENGINE AS engine, c.COLUMN_NAME AS column_name,
            c.EXTRA AS extra, c.DATA_TYPE AS data_type, c.COLUMN_TYPE AS column_type, c.IS_NULLABLE AS nullable,
            c.COLUMN_DEFAULT AS column_default
       FROM information_schema.TABLES t JOIN information_schema.COLUMNS c
         ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
      WHERE t.TABLE_SCHEMA = ? ORDER BY t.TABLE_NAME, c.ORDINAL_POSITION`,
    [database],
  );
  const views = new Map<string, TableInfo>();
  for (const row of rows) {
    const name = String(row.table_name);
    if (String(row.type) === 'SEQUENCE') {
      // MariaDB: the one-row table SELECT reads (no index, no textual column, so no collation).
      let sequence = views.get(name);
      if (!sequence) {
        sequence = {
          schema: database,
          name,
          columns: [],
          indexes: [],
          engine: String(row.engine),
          collation: null,
          rowsEstimate: null,
          kind: 'sequence',
        };
        views.set(name, sequence);
      }
      sequence.columns.push({
        name: String(row.column_name),
        dataType: String(row.data_type),
        columnType: String(row.column_type),
        nullable: String(row.nullable) === 'YES',
        charset: null,
        collation: null,
        generated: null,
        autoIncrement: false,
        hasDefault: row.column_default !== null,
      });
    } else if (String(row.type) === 'VIEW') {
      let view = views.get(name);
      if (!view) {
        view = {
          schema: database,
          name,
          columns: [],
          indexes: [],
          engine: null,
          collation: null,
          rowsEstimate: null,
          kind: 'view',
        };
        views.set(name, view);
      }
      view.columns.push({
        name: String(row.column_name),
        dataType: 'unknown',
        columnType: 'unknown',
        nullable: true,
        charset: null,
        collation: null,
        generated: null,
        autoIncrement: false,
        hasDefault: false,
      });
    } else if (/INVISIBLE/i.test(String(row.extra ?? ''))) {
      const column = live.tables
        .find((table) => table.name === name)
        ?.columns.find((c) => c.name === row.column_name);
      if (column) column.invisible = true;
    }
  }
  // The live loader reads views and sequences too; the truth for those is built here, independently.
  return { source: 'live', tables: [...live.tables.filter((table) => !table.kind), ...views.values()] };
}

/** Runs a script as the mysql client would (DELIMITER blocks included), statement by statement. */
async function runScript(connection: Connection, script: string): Promise<void> {
  for (const slice of splitStatements(script)) await connection.query(slice.sql);
}

function urlParts(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port || '3306',
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}

describe.each(testServers())('schema loader against information_schema on $flavor', ({ flavor, url }) => {
  const dumper = which('mariadb-dump') ?? which('mysqldump');
  const client = which('mariadb') ?? which('mysql');
  const loadFlavor = flavor === 'mariadb' ? 'mariadb' : 'mysql';

  for (const name of ['shop', 'sakila']) {
    it(`${name}: the source, SHOW CREATE output and every dump form load to what the server holds`, async () => {
      const sourceFile = path.join(SOURCES, name === 'shop' ? `shop-${loadFlavor}.sql` : 'sakila-like.sql');
      const sourceText = readFileSync(sourceFile, 'utf8');
      await withScratchDatabase(url, async (connection, database) => {
        await runScript(connection, sourceText);
        const truth = await serverModel(connection, database);
        expect(truth.tables.length).toBeGreaterThan(10);
        const compare = (label: string, input: string | SchemaSource[], exact: boolean) => {
          const { schema, summary } = loadSchemaText(input, { flavor: loadFlavor });
          expect({ label, skipped: summary.skipped, partial: summary.partial }).toEqual({
            label,
            skipped: [],
            partial: [],
          });
          expect({ label, differences: schemaDifferences(truth, schema, { exact }) }).toEqual({
            label,
            differences: [],
          });
        };
        // 1. The hand-written source (comments before every table, DELIMITER blocks, LIKE, views).
        compare('source', sourceText, false);
        // 2. SHOW CREATE TABLE / VIEW text as the server prints it.
        const [tables] = await connection.query<RowDataPacket[]>(
          `SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_TYPE = 'VIEW', TABLE_NAME`,
          [database],
        );
        const shown: string[] = [];
        for (const table of tables) {
          const [rows] = await connection.query<RowDataPacket[]>(
            `SHOW CREATE TABLE \`${String(table.name).replace(/`/g, '``')}\``,
          );
          const row = (rows[0] ?? {}) as Record<string, unknown>;
          shown.push(`${String(row['Create Table'] ?? row['Create View'])};`);
        }
        compare('SHOW CREATE TABLE', shown.join('\n'), true);
        // 3. Real client tools (mariadb-client is a CI package: missing tools fail the test).
        expect(dumper, 'mariadb-dump (or mysqldump) must be installed').not.toBeNull();
        expect(client, 'the mariadb (or mysql) client must be installed').not.toBeNull();
        const { host, port, user, password } = urlParts(url);
        const env = { ...process.env, MYSQL_PWD: password };
        const common = ['--protocol=TCP', '-h', host, '-P', port, '-u', user];
        const run = (binary: string, args: string[]) =>
          execFileSync(binary, [...common, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        const noData = run(dumper!, [
          '--no-data',
          '--routines',
          '--triggers',
          '--events',
          '--databases',
          database,
        ]);
        compare('dump --no-data', noData, true);
        const withData = run(dumper!, ['--routines', '--triggers', '--events', database]);
        compare('dump with data', withData, true);
        const tabDir = mkdtempSync(path.join(tmpdir(), 'sargable-tab-'));
        try {
          run(dumper!, ['--no-data', `--tab=${tabDir}`, database]);
          const files = readdirSync(tabDir)
            .filter((file) => file.endsWith('.sql'))
            .sort()
            .map((file) => ({ name: file, text: readFileSync(path.join(tabDir, file), 'utf8') }));
          // --tab writes sequences to standard output, not to files: compare tables and views only.
          const { schema } = loadSchemaText(files, { flavor: loadFlavor });
          const tablesAndViews = {
            ...truth,
            tables: truth.tables.filter((table) => table.kind !== 'sequence'),
          };
          expect(schemaDifferences(tablesAndViews, schema, { exact: true })).toEqual([]);
        } finally {
          rmSync(tabDir, { recursive: true, force: true });
        }
        const quoted = tables
          .map((table) => `SHOW CREATE TABLE \`${String(table.name).replace(/`/g, '``')}\`\\G`)
          .join(' ');
        compare('client \\G output', run(client!, [database, '-e', quoted]), true);
        compare(
          'client table output',
          run(client!, ['-t', database, '-e', quoted.replace(/\\G/g, ';')]),
          true,
        );
      });
    });
  }
});
