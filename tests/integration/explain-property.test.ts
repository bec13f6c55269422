// Property: every EXPLAIN FORMAT=JSON the test servers produce for the Advisor's rule fixtures parses without losing a table node.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countJsonTables, parsePlan, tableNodes } from '../../src/core/explain/index.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const rulesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/rules');
interface FixtureFile {
  schema?: string;
  [name: string]: unknown;
}
const fixtures = readdirSync(rulesDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => ({ name, data: parseYaml(readFileSync(path.join(rulesDir, name), 'utf8')) as FixtureFile }));

const EXPLAINABLE = /^\s*(?:--[^\n]*\n\s*)*(select|update|delete|insert|replace|with)\b/i;

describe.each(testServers())('EXPLAIN JSON of the rule fixtures on $flavor', ({ flavor, url }) => {
  let admin: Connection;
  const databases: string[] = [];

  beforeAll(async () => {
    admin = await connect(url);
  });
  afterAll(async () => {
    for (const database of databases) await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
  });

  it('parses every plan with the same number of table nodes as the raw JSON', async () => {
    let explained = 0;
    const mismatches: string[] = [];
    for (const { name, data } of fixtures) {
      if (typeof data.schema !== 'string') continue;
      const database = scratchDatabaseName('sargable_prop');
      databases.push(database);
      await admin.query(`CREATE DATABASE \`${database}\``);
      await admin.query(`USE \`${database}\``);
      // Each CREATE separately: a table this flavor rejects (e.g. a functional index on MariaDB) is skipped.
      for (const slice of splitStatements(data.schema)) await admin.query(slice.sql).catch(() => undefined);
      for (const [caseName, value] of Object.entries(data)) {
        const sql = (value as { sql?: unknown } | null)?.sql;
        if (typeof sql !== 'string' || !EXPLAINABLE.test(sql)) continue;
        let raw: unknown;
        try {
          const [rows] = await admin.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`);
          raw = JSON.parse(String(Object.values(rows[0] ?? {})[0]));
        } catch {
          continue; // the server rejects this case on this flavor (syntax or schema): nothing to compare
        }
        explained++;
        const parsed = parsePlan(raw as object, { flavor });
        if (!parsed.ok) {
          mismatches.push(`${name} › ${caseName}: ${parsed.error.message}`);
          continue;
        }
        const expected = countJsonTables(raw);
        const actual = tableNodes(parsed.report.root).length;
        if (expected !== actual)
          mismatches.push(`${name} › ${caseName}: raw ${expected} tables, plan ${actual}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(explained).toBeGreaterThanOrEqual(30);
  });
});
