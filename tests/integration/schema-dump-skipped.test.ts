// The skipped-statement report on real dumps (issue 19): `mariadb-dump --routines --triggers --events`
// of the shop schema on both servers (triggers in `DELIMITER ;;` blocks after their table's data,
// routines and events at the end), with two definitions broken in the dump's text: one after a trigger
// block and one after the routines. The report names exactly those two, with the dump's line and
// column and a reason; everything else loads, and the CLI prints them as FILE:LINE:COL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaText } from '../../src/core/schema/ddl-load.js';
import { splitStatements } from '../../src/core/sql/split.js';
import { runCliCaptured } from '../support/cli.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const SOURCES = path.resolve(__dirname, '../fixtures/schemas/source');

describe.each(testServers())('skipped statements of a real dump on $flavor', ({ flavor, url }) => {
  it('a dump with DELIMITER blocks: each broken definition is reported with its line, column and reason', async () => {
    const loadFlavor = flavor === 'mariadb' ? 'mariadb' : 'mysql';
    const source = readFileSync(path.join(SOURCES, `shop-${loadFlavor}.sql`), 'utf8');
    await withScratchDatabase(url, async (connection, database) => {
      for (const slice of splitStatements(source)) await connection.query(slice.sql);
      const parsed = new URL(url);
      const dump = execFileSync(
        'mariadb-dump',
        [
          '--protocol=TCP',
          '-h',
          parsed.hostname,
          '-P',
          parsed.port,
          '-u',
          decodeURIComponent(parsed.username),
          '--routines',
          '--triggers',
          '--events',
          database,
        ],
        {
          env: { ...process.env, MYSQL_PWD: decodeURIComponent(parsed.password) },
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      // The real dump has the blocks this is about, and loads whole.
      expect(dump).toMatch(/^DELIMITER ;;$/m);
      expect(dump).toMatch(/CREATE\*\/ \/\*!50017 DEFINER=.*\*\/ \/\*!50003 TRIGGER/);
      expect(dump).toMatch(/CREATE DEFINER=\S+ PROCEDURE `close_old_orders`/);
      const clean = loadSchemaText(dump, { flavor: loadFlavor });
      expect(clean.summary.skipped).toEqual([]);

      // Break the first table defined after a trigger block, and add a broken one after the routines.
      const trigger = dump.search(/^DELIMITER ;;$/m);
      const after = dump.indexOf('CREATE TABLE `', trigger);
      expect(after).toBeGreaterThan(trigger);
      const tableName = /^CREATE TABLE `([^`]+)`/.exec(dump.slice(after))![1]!;
      const broken = dump.indexOf(' (\n', after) + 3; // the first column definition's line
      const text = `${dump.slice(0, broken)}  ,${dump.slice(broken)}\nCREATE TABLE tail_broken (id INT,, x INT);\n`;
      const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
      const { summary, schema } = loadSchemaText(text, { flavor: loadFlavor });
      // The broken CREATE, the dump's ALTER TABLE … DISABLE/ENABLE KEYS of that table (now undefined,
      // each with its own line), and the broken table after the routines.
      const alters = [
        ...text.matchAll(new RegExp(`^/\\*!40000 ALTER TABLE \`${tableName}\` (DIS|EN)ABLE KEYS`, 'gm')),
      ];
      expect(summary.skipped).toEqual([
        expect.objectContaining({
          table: tableName,
          line: lineOf(broken),
          column: 3,
          statement: `CREATE TABLE \`${tableName}\``,
          reason: 'an empty element in the column list',
        }),
        ...alters.map((match) =>
          expect.objectContaining({
            table: tableName,
            line: lineOf(match.index),
            reason: `ALTER TABLE ${tableName}: the table is not defined before this statement`,
          }),
        ),
        expect.objectContaining({
          table: 'tail_broken',
          line: lineOf(text.indexOf('CREATE TABLE tail_broken')),
          statement: 'CREATE TABLE tail_broken',
          reason: 'an empty element in the column list',
        }),
      ]);
      // Nothing else lost: every other table and view of the clean dump is there.
      expect(schema.tables.map((table) => table.name).sort()).toEqual(
        clean.schema.tables
          .map((table) => table.name)
          .filter((name) => name !== tableName)
          .sort(),
      );

      // The CLI says the same, as FILE:LINE:COL, and counts them.
      const dir = mkdtempSync(path.join(tmpdir(), 'sargable-dump-skipped-'));
      try {
        writeFileSync(path.join(dir, 'dump.sql'), text);
        const result = await runCliCaptured(
          ['analyze', '--flavor', loadFlavor, '--schema', 'dump.sql', '-'],
          {
            cwd: dir,
            stdin: `SELECT * FROM \`${tableName}\` WHERE 1 = 1;`,
          },
        );
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(
          `dump.sql:${lineOf(broken)}:3: skipped CREATE TABLE \`${tableName}\`: an empty element in the column list`,
        );
        expect(result.stdout).toMatch(
          new RegExp(
            `dump\\.sql:${lineOf(text.indexOf('CREATE TABLE tail_broken'))}:\\d+: skipped CREATE TABLE tail_broken`,
          ),
        );
        expect(result.stdout).toMatch(new RegExp(`skipped ${2 + alters.length}\\b`));
        expect(result.stdout).toMatch(
          new RegExp(`its definition in dump\\.sql at line ${lineOf(broken)} was skipped`),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
