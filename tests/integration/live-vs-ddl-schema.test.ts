// The live schema loader (information_schema) and the DDL loader (a dump of the same database) build
// the same model, field by field, on both servers (issue 19): the shop schema has every table feature
// (partitioning of every kind, charsets, CHECK, FULLTEXT/SPATIAL, invisible columns and indexes,
// generated columns, functional key parts, foreign keys, odd names, views; MariaDB: system versioning
// and sequences). INVISIBLE columns are the canary: the live loader used to read them as visible, so
// `SELECT *` advice and INSERT-without-a-column-list rules treated them wrong in connected mode.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import type { ColumnInfo, IndexInfo, SchemaModel, TableInfo } from '../../src/core/model/schema.js';
import { loadSchemaText } from '../../src/core/schema/ddl-load.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { loadSchema } from '../../src/main/services/schema.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';
import { testServers, withScratchDatabase } from '../support/db.js';
import { schemaDifferences } from '../support/schema-compare.js';

const SOURCES = path.resolve(__dirname, '../fixtures/schemas/source');

function urlParts(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port || '3306',
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}

/** Every field of a column the advisor reads (a view's column types are the server's alone). */
function columnFields(table: TableInfo, column: ColumnInfo): Record<string, unknown> {
  if (table.kind === 'view') return { name: column.name };
  return {
    name: column.name,
    dataType: column.dataType,
    columnType: column.columnType,
    nullable: column.nullable,
    charset: column.charset,
    collation: column.collation,
    generated: column.generated ? (column.generated.stored ? 'stored' : 'virtual') : null,
    autoIncrement: column.autoIncrement,
    invisible: column.invisible === true,
  };
}

/** A key part's expression as both sources print it, without quoting, spacing and charset introducers. */
const expression = (text: string | null) =>
  text === null
    ? null
    : text
        .toLowerCase()
        .replace(/_utf8mb4\\?'/g, "'")
        .replace(/\\'/g, "'")
        .replace(/[`\s()]/g, '');

function indexFields(index: IndexInfo): Record<string, unknown> {
  return {
    name: index.name,
    unique: index.unique,
    primary: index.primary,
    kind: index.kind,
    visible: index.visible,
    parts: index.parts.map((part) => ({
      column: part.column,
      prefixLength: part.prefixLength,
      expression: expression(part.expression),
    })),
  };
}

/** Field-by-field model of every table, view and sequence, by name. */
function fields(model: SchemaModel) {
  return Object.fromEntries(
    [...model.tables]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((table) => [
        table.name,
        {
          kind: table.kind ?? 'table',
          columns: table.columns.map((column) => columnFields(table, column)),
          indexes: [...table.indexes].sort((a, b) => a.name.localeCompare(b.name)).map(indexFields),
        },
      ]),
  );
}

describe.each(testServers())('live loader vs DDL loader on $flavor', ({ flavor, url }) => {
  it('a mysqldump / mariadb-dump and SHOW CREATE TABLE of the shop schema load to the live model', async () => {
    const loadFlavor = flavor === 'mariadb' ? 'mariadb' : 'mysql';
    const source = readFileSync(path.join(SOURCES, `shop-${loadFlavor}.sql`), 'utf8');
    await withScratchDatabase(url, async (connection, database) => {
      for (const slice of splitStatements(source)) await connection.query(slice.sql);
      const server = { ...(await detectServerInfo(connection)), database };
      const live = await loadSchema(connection, server, database);

      // The canary: the server's own word on which columns are INVISIBLE, and the live loader agrees.
      const [invisibleRows] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = ? AND EXTRA LIKE '%INVISIBLE%' ORDER BY TABLE_NAME, COLUMN_NAME`,
        [database],
      );
      const serverInvisible = invisibleRows.map((row) => `${String(row.t)}.${String(row.c)}`);
      // customers.secret_note and its LIKE copy; MariaDB adds the system-versioned row start and end.
      expect(serverInvisible.length).toBeGreaterThanOrEqual(flavor === 'mariadb' ? 4 : 2);
      const liveInvisible = live.tables
        .flatMap((table) => table.columns.filter((c) => c.invisible).map((c) => `${table.name}.${c.name}`))
        .sort();
      expect(liveInvisible).toEqual([...serverInvisible].sort());

      // The same database as a real dump tool writes it (the MariaDB client tools work on both servers).
      const { host, port, user, password } = urlParts(url);
      const dump = execFileSync(
        'mariadb-dump',
        [
          '--protocol=TCP',
          '-h',
          host,
          '-P',
          port,
          '-u',
          user,
          '--no-data',
          '--routines',
          '--triggers',
          '--events',
          database,
        ],
        { env: { ...process.env, MYSQL_PWD: password }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      const fromDump = loadSchemaText(dump, { flavor: loadFlavor, version: server.version });
      expect(fromDump.summary.skipped).toEqual([]);
      expect(fromDump.schema.tables.length).toBe(live.tables.length);
      expect(schemaDifferences(live, fromDump.schema, { exact: true })).toEqual([]);
      expect(fields(fromDump.schema)).toEqual(fields(live));

      // And SHOW CREATE TABLE / VIEW / SEQUENCE text, as the server prints it.
      const shown: string[] = [];
      for (const table of live.tables) {
        const [rows] = await connection.query<RowDataPacket[]>(
          `SHOW CREATE TABLE \`${table.name.replace(/`/g, '``')}\``,
        );
        const row = (rows[0] ?? {}) as Record<string, unknown>;
        shown.push(`${String(row['Create Table'] ?? row['Create View'])};`);
      }
      const fromShow = loadSchemaText(shown.join('\n'), { flavor: loadFlavor, version: server.version });
      expect(fromShow.summary.skipped).toEqual([]);
      expect(fields(fromShow.schema)).toEqual(fields(live));
    });
  });
});
