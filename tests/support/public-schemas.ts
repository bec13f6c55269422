// Real public schema files (tests/fixtures/schemas/public/<project>/, each with a SOURCE note) loaded
// into a real server by the real client, and the server's own account of what it created, read
// straight from information_schema (TABLES, COLUMNS, STATISTICS) — not through Sargable's live loader,
// so the truth the DDL loader is compared with owes nothing to our code.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { ColumnInfo, IndexInfo, SchemaModel, TableInfo } from '../../src/core/model/schema.js';

export const PUBLIC_SCHEMAS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/schemas/public',
);

export interface PublicSchemaFile {
  /** `<project>/<file>` */
  name: string;
  text: string;
}

/** Every schema file of every project (SOURCE notes left out), in a stable order. */
export function publicSchemaFiles(): PublicSchemaFile[] {
  const files: PublicSchemaFile[] = [];
  for (const project of readdirSync(PUBLIC_SCHEMAS).sort()) {
    const directory = path.join(PUBLIC_SCHEMAS, project);
    if (!statSync(directory).isDirectory()) continue;
    for (const file of readdirSync(directory).sort()) {
      if (file === 'SOURCE') continue;
      files.push({ name: `${project}/${file}`, text: readFileSync(path.join(directory, file), 'utf8') });
    }
  }
  return files;
}

/**
 * The names of the databases a file creates or switches to (`CREATE DATABASE x`, `USE x`): the
 * harness runs the file in a scratch database, so these names are mapped to it, in those statements
 * (DROP/CREATE DATABASE, USE) and where they qualify a name (`x.t`). The loader reads the file as written.
 */
export function databaseNames(text: string): string[] {
  const names = new Set<string>();
  const pattern =
    /^\s*(?:CREATE\s+(?:DATABASE|SCHEMA)\s+(?:\/\*!\d+\s+)?(?:IF\s+NOT\s+EXISTS\s*)?(?:\*\/\s*)?|USE\s+)(`[^`]+`|\w+)/gim;
  for (const match of text.matchAll(pattern)) names.add(match[1]!.replace(/`/g, ''));
  return [...names];
}

export function mapDatabases(text: string, names: readonly string[], scratch: string): string {
  if (names.length === 0) return text;
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\@%]/g, '\\$&')).join('|');
  const statement = new RegExp(
    `^(\\s*(?:(?:CREATE|DROP)\\s+(?:DATABASE|SCHEMA)\\s+(?:/\\*!\\d+\\s+)?(?:IF\\s+(?:NOT\\s+)?EXISTS\\s*)?(?:\\*/\\s*)?|USE\\s+))\`?(?:${alternatives})\`?`,
    'gim',
  );
  // And names qualified with them (`sakila.film` in a view's query).
  const qualified = new RegExp(`(?<![\\w$\`.])\`?(?:${alternatives})\`?(?=\\.[\\w\`])`, 'gi');
  return text
    .replace(statement, (_match, head: string) => `${head}\`${scratch}\``)
    .replace(qualified, `\`${scratch}\``);
}

export interface ClientError {
  line: number;
  code: number;
  message: string;
}

/**
 * Runs the text through the `mariadb` command-line client with `--force` (it splits statements and
 * handles DELIMITER itself, and goes on after an error), in `database`, and returns the errors it
 * printed. The session sql_mode is the permissive '' so that what is compared is the structure the
 * server builds, not the data checks of a strict mode (zero dates in defaults, …).
 */
export function runClient(url: string, database: string, text: string): ClientError[] {
  const parsed = new URL(url);
  const result = spawnSync(
    'mariadb',
    [
      '--protocol=TCP',
      '-h',
      parsed.hostname,
      '-P',
      parsed.port || '3306',
      '-u',
      decodeURIComponent(parsed.username),
      '--force',
      '--default-character-set=utf8mb4',
      "--init-command=SET SESSION sql_mode='', foreign_key_checks=0",
      database,
    ],
    {
      input: text,
      env: { ...process.env, MYSQL_PWD: decodeURIComponent(parsed.password) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.error) throw result.error;
  const errors: ClientError[] = [];
  for (const line of result.stderr.split('\n')) {
    const match = /^ERROR (\d+)(?: \([^)]*\))? at line (\d+)[^:]*: (.*)$/.exec(line);
    if (match) errors.push({ code: Number(match[1]), line: Number(match[2]), message: match[3]! });
    else if (/^ERROR/.test(line)) errors.push({ code: 0, line: 0, message: line });
    // The rest of a message that spans lines (a 1064's quoted text; the statement --force echoes).
    else if (errors.length > 0 && line.trim()) errors[errors.length - 1]!.message += `\n${line}`;
  }
  return errors;
}

/**
 * What the server is given for a file. A `SHOW CREATE TABLE … \G` transcript pasted from the mysql
 * client (a supported input of the loader) is no SQL: the server gets the `Create Table:` statements
 * it holds, cut by the transcript's own framing (`N row(s) in set`, the next `***` row, the prompt).
 */
export function serverText(text: string): string {
  if (!/^Create Table: /m.test(text)) return text;
  const statements = [
    ...text.matchAll(/^Create Table: ([\s\S]*?)\n(?=\d+ rows? in set|\*{5,}|mysql>|$)/gm),
  ].map((match) => `${match[1]!.trimEnd()};`);
  return statements.join('\n');
}

const kindOf = (type: string): TableInfo['kind'] =>
  type === 'VIEW' || type === 'SYSTEM VIEW' ? 'view' : type === 'SEQUENCE' ? 'sequence' : undefined;

/** The server's model of `database`, from information_schema alone. */
export async function informationSchemaModel(connection: Connection, database: string): Promise<SchemaModel> {
  const [tables] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, TABLE_TYPE AS type, ENGINE AS engine, TABLE_COLLATION AS collation
       FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME`,
    [database],
  );
  const [columns] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS name, DATA_TYPE AS dataType, COLUMN_TYPE AS columnType,
            IS_NULLABLE AS nullable, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation,
            EXTRA AS extra, COLUMN_DEFAULT AS def
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [database],
  );
  const [statColumns] = await connection.query<RowDataPacket[]>(
    `SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'STATISTICS'`,
  );
  const has = (name: string) => statColumns.some((row) => String(row.c).toUpperCase() === name);
  const [statistics] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS col,
            SUB_PART AS subPart, INDEX_TYPE AS type,
            ${has('IS_VISIBLE') ? 'IS_VISIBLE' : has('IGNORED') ? "IF(IGNORED = 'YES', 'NO', 'YES')" : "'YES'"} AS visible,
            ${has('EXPRESSION') ? 'EXPRESSION' : 'NULL'} AS expr
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    [database],
  );
  const model: SchemaModel = { source: 'live', tables: [] };
  const byName = new Map<string, TableInfo>();
  for (const row of tables) {
    const kind = kindOf(String(row.type));
    const table: TableInfo = {
      schema: database,
      name: String(row.name),
      columns: [],
      indexes: [],
      engine: row.engine === null ? null : String(row.engine),
      collation: row.collation === null ? null : String(row.collation),
      rowsEstimate: null,
      ...(kind ? { kind } : {}),
    };
    byName.set(table.name, table);
    model.tables.push(table);
  }
  for (const row of columns) {
    const table = byName.get(String(row.t));
    if (!table) continue;
    const extra = String(row.extra ?? '').toUpperCase();
    const generated = /\b(VIRTUAL|STORED|PERSISTENT) GENERATED\b/.exec(extra);
    const column: ColumnInfo = {
      name: String(row.name),
      dataType: String(row.dataType).toLowerCase(),
      columnType: String(row.columnType).toLowerCase(),
      nullable: row.nullable === 'YES',
      charset: row.charset === null ? null : String(row.charset),
      collation: row.collation === null ? null : String(row.collation),
      generated: generated ? { expression: '', stored: generated[1] !== 'VIRTUAL' } : null,
      autoIncrement: extra.includes('AUTO_INCREMENT'),
      hasDefault: row.def !== null,
      ...(extra.includes('INVISIBLE') ? { invisible: true } : {}),
    };
    table.columns.push(column);
  }
  const indexes = new Map<string, IndexInfo>();
  for (const row of statistics) {
    const table = byName.get(String(row.t));
    if (!table) continue;
    const key = `${table.name}\u0000${String(row.name)}`;
    let index = indexes.get(key);
    if (!index) {
      const type = String(row.type).toUpperCase();
      index = {
        name: String(row.name),
        unique: Number(row.nonUnique) === 0,
        primary: row.name === 'PRIMARY',
        kind:
          type === 'FULLTEXT'
            ? 'fulltext'
            : type === 'SPATIAL'
              ? 'spatial'
              : type === 'HASH'
                ? 'hash'
                : 'btree',
        parts: [],
        visible: String(row.visible).toUpperCase() !== 'NO',
      };
      indexes.set(key, index);
      table.indexes.push(index);
    }
    index.parts.push({
      column: row.col === null ? null : String(row.col),
      expression: row.col === null ? String(row.expr ?? '') : null,
      prefixLength: row.subPart === null ? null : Number(row.subPart),
    });
  }
  return model;
}
