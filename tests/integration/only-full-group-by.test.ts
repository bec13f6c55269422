// MOD004 judged by the servers: every case of tests/fixtures/rules/MOD004.yml runs under ONLY_FULL_GROUP_BY on
// MySQL 8.0 and MariaDB 10.11, and the rule must report it exactly when that server refuses it (ERROR 1055/1140).
// The fixture's own `server` and sql_mode are ignored here: each server answers for its own flavor.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';
import { FIXTURE_DIR, loadFixture } from '../unit/rules/fixture-runner.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const fixture = loadFixture(path.join(FIXTURE_DIR, 'MOD004.yml'));
const MODE = "SET SESSION sql_mode = 'ONLY_FULL_GROUP_BY'";

/** The case's SELECT alone (a leading SET sql_mode is the fixture's, replaced by ONLY_FULL_GROUP_BY). */
const selectOf = (sql: string): string =>
  sql
    .replace(/^\s*SET\s+SESSION\s+sql_mode\s*=\s*'[^']*'\s*;/i, '')
    .trim()
    .replace(/;$/, '');

describe.each(testServers())(
  'MOD004 fixtures judged by $flavor under ONLY_FULL_GROUP_BY',
  ({ flavor, url }) => {
    it('the rule reports a case exactly when the server refuses it with 1055/1140, and never for another reason', async () => {
      const version = flavor === 'mysql' ? '8.0.33' : '10.11.0';
      const verdicts: string[] = [];
      const mismatches: string[] = [];
      await withScratchDatabase(url, async (connection) => {
        await connection.query(fixture.schema ?? '');
        await connection.query(MODE);
        for (const testCase of fixture.cases) {
          if (testCase.schema) continue; // every MOD004 case uses the file's schema
          const sql = selectOf(testCase.sql);
          const refused = await connection
            .query(sql)
            .then(() => null)
            .catch((error: { errno?: number; message?: string }) => error);
          expect(
            refused === null || refused.errno === 1055 || refused.errno === 1140,
            `${sql}: ${refused?.message}`,
          ).toBe(true);
          const schema = schemaFromDdl(fixture.schema ?? '', flavor).schema;
          const findings = analyze(`${MODE};\n${sql}`, {
            server: offlineServerInfo(flavor, version),
            source: 'flags',
            schema,
          }).statements.flatMap((statement) =>
            statement.findings.filter((finding) => finding.rule === 'MOD004'),
          );
          const reported = findings.some((finding) => finding.severity === 'error');
          verdicts.push(`${testCase.name}: ${refused ? `ERROR ${refused.errno}` : 'ok'}`);
          if (reported !== (refused !== null))
            mismatches.push(
              `${testCase.name}: server ${refused ? `ERROR ${refused.errno}` : 'accepts'}, rule ${reported ? 'reports' : 'silent'} — ${sql}`,
            );
        }
      });
      expect(mismatches).toEqual([]);
      // Canary: the fixtures contain cases each server refuses and cases it accepts, and the servers disagree
      // on functional dependence (MySQL accepts SELECT * … GROUP BY id, MariaDB refuses it).
      expect(verdicts.some((verdict) => verdict.endsWith('ok'))).toBe(true);
      expect(verdicts.some((verdict) => verdict.includes('ERROR 1055'))).toBe(true);
      expect(verdicts).toContain(
        `pass_select_star_group_by_primary_key_mysql: ${flavor === 'mysql' ? 'ok' : 'ERROR 1055'}`,
      );
    });
  },
);
