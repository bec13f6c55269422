// Index hygiene into the export, on both servers: redundant indexes found as pt-duplicate-key-checker finds
// them, accepted into the workspace, exported as the safe step (INVISIBLE on MySQL 8, IGNORED on MariaDB
// 10.11) with its rollback, then as the drop step with its rollback; every exported statement runs.
//
// Canaries: the server itself accepts hiding the only index of a FOREIGN KEY (so the export's refusal is
// ours, not the server's) and refuses its DROP (ERROR 1553); the PRIMARY KEY is never exported. The real
// pt-duplicate-key-checker (Percona Toolkit) reads the same scratch schema and must name the same indexes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportPlan, RenderedScript } from '../../src/core/export/index.js';
import type { AnalysisReport } from '../../src/core/model/report.js';
import type { IndexSetReply } from '../../src/shared/api/indexes.js';
import { testHandlers } from '../support/handlers.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const SETUP = [
  'CREATE TABLE parent (id INT PRIMARY KEY, code INT NOT NULL, KEY code_i (code)) ENGINE=InnoDB',
  `CREATE TABLE t (
     id INT PRIMARY KEY, pid INT NOT NULL, a INT, b INT, c VARCHAR(40), u INT,
     KEY pid_i (pid), KEY pid_dup (pid), KEY a_i (a), KEY ab_i (a, b), KEY ab_dup (a, b),
     KEY b_i (b), KEY b_id (b, id), KEY c_full (c), KEY c_i (c(10)), UNIQUE KEY u_u (u), KEY u_i (u),
     CONSTRAINT fk_parent FOREIGN KEY (pid) REFERENCES parent (id)) ENGINE=InnoDB`,
  'INSERT INTO parent VALUES (1, 10), (2, 20)',
  'INSERT INTO t VALUES (1, 1, 1, 1, "x", 1), (2, 2, 2, 2, "y", 2), (3, 1, 3, 3, "z", 3)',
];
const WORKLOAD = 'SELECT id FROM t WHERE a = 1 AND b = 2;\nSELECT id FROM t WHERE pid = 1;';

/** pt-duplicate-key-checker's DROP suggestions for `database`: `table.index` names. */
function ptDuplicateKeys(url: string, database: string): string[] {
  const admin = new URL(url);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-ptdkc-'));
  const defaults = path.join(dir, 'my.cnf');
  try {
    // The password goes through a private options file, never the command line.
    fs.writeFileSync(defaults, `[client]\npassword=${decodeURIComponent(admin.password)}\n`, { mode: 0o600 });
    const out = execFileSync(
      'pt-duplicate-key-checker',
      [
        `--defaults-file=${defaults}`,
        `--host=${admin.hostname}`,
        `--port=${admin.port}`,
        `--user=${decodeURIComponent(admin.username)}`,
        `--databases=${database}`,
        '--no-summary',
      ],
      { encoding: 'utf8' },
    );
    return [...out.matchAll(/^ALTER TABLE `[^`]+`\.`([^`]+)` DROP INDEX `([^`]+)`;$/gm)]
      .map((match) => `${match[1]}.${match[2]}`)
      .sort();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A workspace report carrying one index drop (what the Index set view's Accept sends). */
function dropReport(flavor: 'mysql' | 'mariadb', table: string, index: string): AnalysisReport {
  return {
    server: { flavor, version: '0', source: 'dsn' },
    errors: [],
    statements: [
      {
        index: 0,
        sql: `-- index hygiene: ${table}.${index}`,
        line: 1,
        column: 1,
        findings: [
          {
            rule: 'IDX-HYGIENE',
            category: 'plan',
            severity: 'info',
            message: `drop ${table}.${index}`,
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 1,
            table,
            columns: [],
            expression: `DROP INDEX ${index}`,
            suggestions: [
              {
                kind: 'drop-index',
                equivalent: true,
                ddl: [`ALTER TABLE \`${table}\` DROP INDEX \`${index}\`;`],
                indexName: index,
                notes: [],
              },
            ],
          },
        ],
      },
    ],
  };
}

async function indexLines(db: Connection, table: string): Promise<string[]> {
  const [rows] = await db.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${table}\``);
  return String(rows[0]?.['Create Table'])
    .split('\n')
    .map((line) => line.trim().replace(/,$/, ''))
    .filter((line) => /^(PRIMARY |UNIQUE )?KEY /.test(line))
    .sort();
}

describe.each(testServers())('index hygiene into the export: $flavor', ({ flavor, url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-hygiene-export');
  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  async function ok<T>(method: string, request: unknown): Promise<T> {
    const reply = await call(method, request);
    if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
    return reply.value as T;
  }

  it('finds what pt-duplicate-key-checker finds; exports hide, drop and both rollbacks that run; never the PK or a foreign key’s last index', async () => {
    await withScratchDatabase(url, async (db, database) => {
      for (const statement of SETUP) await db.query(statement);
      const admin = new URL(url);
      const { connectionId } = await ok<{ connectionId: string }>('connection.open', {
        host: admin.hostname,
        port: Number(admin.port),
        user: decodeURIComponent(admin.username),
        password: decodeURIComponent(admin.password),
        database,
      });
      const profileId = `hygiene-${flavor}-${database}`;
      const preview = (options: { rollback?: boolean; dropStep?: boolean }) =>
        ok<{ plan: ExportPlan; script: RenderedScript }>('export.preview', {
          profileId,
          connectionId,
          flavor,
          version: flavor === 'mysql' ? '8.0.33' : '10.11.6',
          ...options,
        });
      try {
        const { plan } = await ok<IndexSetReply>('indexes.design', { sql: WORKLOAD, connectionId });
        const found = plan.redundant.map((entry) => `${entry.table}.${entry.index}`).sort();
        // The same set as the real tool, on the same schema, but one: pt-duplicate-key-checker calls the
        // full-column c_full (c) a left prefix of c_i (c(10)) — it compares the columns, not the prefix
        // lengths — while a 10-character prefix cannot sort, cover or compare the whole value, so the
        // hygiene keeps c_full. (pt also proposes shortening b_id to (b); with b_i dropped that is the same
        // end state, and its statement is a DROP + ADD, not a DROP.)
        const pt = ptDuplicateKeys(url, database);
        expect(pt).toContain('t.c_full');
        expect(found).toEqual(pt.filter((entry) => entry !== 't.c_full'));
        expect(found).toEqual(['t.a_i', 't.ab_i', 't.b_i', 't.pid_i', 't.u_i']);

        // Accept every redundant index, then pid_dup (the foreign key's last index once pid_i goes) and the PK.
        for (const name of [...found.map((entry) => entry.slice(2)), 'pid_dup', 'PRIMARY'])
          await ok('workspace.addFromAnalysis', {
            profileId,
            report: dropReport(flavor, 't', name),
            pick: 'drop-index',
          });
        const original = await indexLines(db, 't');
        const hide = await preview({});
        const rollbackHide = await preview({ rollback: true });
        expect(hide.plan.tables[0]?.drops.map((drop) => drop.name).sort()).toEqual(
          found.map((entry) => entry.slice(2)).sort(),
        );
        const reasons = hide.plan.skipped.map((entry) => entry.reason);
        expect(reasons).toEqual([
          expect.stringMatching(
            /t\.pid_dup is the only index on its columns \(pid\) of FOREIGN KEY fk_parent/,
          ),
          expect.stringMatching(/t\.PRIMARY is the PRIMARY KEY: never dropped/),
        ]);
        const word = flavor === 'mysql' ? 'INVISIBLE' : 'IGNORED';
        expect(hide.script.statements.map((s) => s.sql).join('\n')).not.toMatch(/DROP INDEX/);
        for (const statement of hide.script.statements) await db.query(statement.sql);
        const hidden = await indexLines(db, 't');
        for (const entry of found)
          expect(hidden.find((line) => line.includes(`\`${entry.slice(2)}\``))).toMatch(
            new RegExp(word === 'INVISIBLE' ? '/\\*!80000 INVISIBLE \\*/' : 'IGNORED'),
          );
        for (const statement of rollbackHide.script.statements) await db.query(statement.sql);
        expect(await indexLines(db, 't')).toEqual(original);

        // Step 1 again, then the drop step, exported against the hidden indexes.
        for (const statement of hide.script.statements) await db.query(statement.sql);
        const drop = await preview({ dropStep: true });
        const rollbackDrop = await preview({ dropStep: true, rollback: true });
        expect(drop.script.statements.map((s) => s.sql).join('\n')).toMatch(/DROP INDEX `ab_i`/);
        for (const statement of drop.script.statements) await db.query(statement.sql);
        expect((await indexLines(db, 't')).join('\n')).not.toMatch(/`(ab_i|a_i|b_i|pid_i|u_i)`/);
        // The foreign key still has its index, the PK is there.
        expect(await indexLines(db, 't')).toEqual(
          expect.arrayContaining(['PRIMARY KEY (`id`)', 'KEY `pid_dup` (`pid`)']),
        );
        for (const statement of rollbackDrop.script.statements) await db.query(statement.sql);
        expect(await indexLines(db, 't')).toEqual(hidden);

        // Canary: the server hides the foreign key's last index without complaint, and refuses its DROP.
        await db.query('ALTER TABLE t DROP INDEX pid_i');
        await db.query(`ALTER TABLE t ALTER INDEX pid_dup ${word}`);
        await expect(db.query('ALTER TABLE t DROP INDEX pid_dup')).rejects.toMatchObject({ errno: 1553 });
      } finally {
        await call('connection.close', { connectionId });
      }
    });
  });
});
