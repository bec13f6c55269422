// Server truth for the pt-online-schema-change script: bash accepts it, the real pt-online-schema-change dry-runs every table
// (nothing changes), --execute builds the indexes, and a change the server refuses stops the script in the dry run,
// before any table is altered. Credentials come from an options file or MYSQL_PWD, never from the script.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planExport, renderScript, type ExportItem } from '../../src/core/export/index.js';
import type { Flavor } from '../../src/core/flavors/capabilities.js';
import { itemId, sourceQuery } from '../../src/core/workspace/model.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const PT_OSC = process.env.SARGABLE_PT_OSC ?? 'pt-online-schema-change';
const available = spawnSync(PT_OSC, ['--version'], { encoding: 'utf8' }).status === 0;

const TABLES = `
  CREATE TABLE orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL, created DATETIME NOT NULL);
  CREATE TABLE customers (id INT PRIMARY KEY AUTO_INCREMENT, email VARCHAR(80) NOT NULL, signup DATE NOT NULL);
  INSERT INTO orders (customer_id, created) VALUES (1, '2024-01-02 10:00:00'), (2, '2024-03-04 11:00:00'), (1, '2024-05-06 12:00:00');
  INSERT INTO customers (email, signup) VALUES ('a@example.com', '2020-01-01'), ('B@example.com', '2021-02-02');
`;

function item(table: string, kind: ExportItem['kind'], ddl: string): ExportItem {
  return {
    id: itemId(table, { kind: kind as 'index', ddl: [ddl] }),
    table,
    kind,
    ddl: [ddl],
    notes: [],
    sources: [sourceQuery(`SELECT * FROM ${table}`, 'pasted')],
  };
}

/** The export items: a plain index on orders, an expression change on customers (functional index or generated column). */
function items(flavor: Flavor, customerColumn = 'email'): ExportItem[] {
  return [
    item('orders', 'index', 'ALTER TABLE orders ADD INDEX idx_orders_customer (customer_id, created);'),
    flavor === 'mysql'
      ? item(
          'customers',
          'functional-index',
          `ALTER TABLE customers ADD INDEX idx_customers_email ((LOWER(${customerColumn})));`,
        )
      : item(
          'customers',
          'generated-column',
          `ALTER TABLE customers ADD COLUMN email_lower VARCHAR(80) AS (LOWER(${customerColumn})) VIRTUAL, ADD INDEX idx_customers_email (email_lower);`,
        ),
  ];
}

describe.skipIf(!available).each(testServers())(
  'pt-online-schema-change script: $flavor',
  ({ flavor, url }) => {
    const server = new URL(url);
    const password = decodeURIComponent(server.password);
    const user = decodeURIComponent(server.username);
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'sargable-ptosc-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    function script(database: string, exportItems: ExportItem[]): string {
      const plan = planExport(exportItems, flavor, null);
      const { text } = renderScript(plan, {
        flavor,
        version: flavor === 'mysql' ? '8.0.33' : '10.11.0',
        variant: 'pt-osc',
        database,
        generatedAt: '2025-01-01T00:00:00.000Z',
        sargableVersion: '0.0.0-test',
      });
      const file = path.join(dir, `${database}.sh`);
      writeFileSync(file, text);
      return file;
    }

    function run(file: string, args: string[], env: Record<string, string>) {
      const result = spawnSync('bash', [file, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, PT_OSC, ...env },
        timeout: 120_000,
      });
      return { status: result.status, out: `${result.stdout}${result.stderr}` };
    }

    function optionsFile(): string {
      const file = path.join(dir, 'client.cnf');
      writeFileSync(file, `[client]\nuser=${user}\npassword="${password}"\n`);
      chmodSync(file, 0o600);
      return file;
    }

    async function indexes(connection: Connection, database: string): Promise<string[]> {
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT DISTINCT CONCAT(TABLE_NAME, ".", INDEX_NAME) AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY name',
        [database],
      );
      return rows.map((row) => String(row.name)).sort();
    }

    async function createTables(connection: Connection): Promise<string> {
      await connection.query(TABLES);
      const [rows] = await connection.query<RowDataPacket[]>('SHOW CREATE TABLE customers');
      return String(rows[0]?.['Create Table']);
    }

    it('is valid bash, holds no password, dry-runs every table without changing them, then --execute builds the indexes', async () => {
      await withScratchDatabase(url, async (connection, database) => {
        await createTables(connection);
        const before = await indexes(connection, database);
        const file = script(database, items(flavor));
        expect(spawnSync('bash', ['-n', file]).status).toBe(0);
        const text = readFileSync(file, 'utf8');
        expect(text).not.toContain(password);
        expect(text).toMatch(/^set -euo pipefail$/m);

        // Dry run with an options file (the user and the password come from it).
        const dry = run(file, [], {
          MYSQL_HOST: server.hostname,
          MYSQL_PORT: server.port,
          MYSQL_DEFAULTS_FILE: optionsFile(),
        });
        expect(dry.out).toMatch(/Dry run complete\.\s+`[^`]+`\.`orders` was not altered/);
        expect(dry.out).toMatch(/Dry run complete\.\s+`[^`]+`\.`customers` was not altered/);
        expect(dry.status, dry.out).toBe(0);
        expect(await indexes(connection, database)).toEqual(before);

        // The real run, with the password from MYSQL_PWD (copied into a private options file by the script).
        const real = run(file, ['--execute'], {
          MYSQL_HOST: server.hostname,
          MYSQL_PORT: server.port,
          MYSQL_USER: user,
          MYSQL_PWD: password,
        });
        expect(real.status, real.out).toBe(0);
        expect(real.out).toMatch(/Successfully altered `[^`]+`\.`orders`/);
        expect(real.out).toMatch(/Successfully altered `[^`]+`\.`customers`/);
        expect(await indexes(connection, database)).toEqual(
          [...before, 'customers.idx_customers_email', 'orders.idx_orders_customer'].sort(),
        );
        const [rows] = await connection.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM customers');
        expect(Number(rows[0]?.n)).toBe(2);
      });
    }, 240_000);

    it('a change the server refuses fails the dry run, and --execute then alters no table at all', async () => {
      await withScratchDatabase(url, async (connection, database) => {
        await createTables(connection);
        const before = await indexes(connection, database);
        // orders is valid and comes first; customers names a column that does not exist.
        const file = script(database, items(flavor, 'no_such_column'));
        const result = run(file, ['--execute'], {
          MYSQL_HOST: server.hostname,
          MYSQL_PORT: server.port,
          MYSQL_DEFAULTS_FILE: optionsFile(),
        });
        expect(result.status).not.toBe(0);
        expect(result.out).toMatch(/no_such_column/);
        expect(result.out).not.toMatch(/Successfully altered/);
        expect(await indexes(connection, database)).toEqual(before);
      });
    }, 240_000);

    it('an unknown option stops before connecting', () => {
      const file = script('any_db', items(flavor));
      const result = run(file, ['--exectue'], {});
      expect(result.status).toBe(2);
      expect(result.out).toContain('Unknown option: --exectue');
    });
  },
);
