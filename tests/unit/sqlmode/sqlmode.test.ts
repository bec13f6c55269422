// Unit tests for the sql_mode knowledge base, the server view (AT-7) and the upgrade view.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import type { CliIo } from '../../../src/cli/io.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { DEFAULT_SQL_MODES, MODES } from '../../../src/core/sqlmode/data.js';
import { defaultSqlMode, expandSqlMode, validateSqlMode } from '../../../src/core/sqlmode/modes.js';
import { buildSqlModeView, whatBreaks, whatBreaksForClasses } from '../../../src/core/sqlmode/views.js';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/sqlmode');

describe('default sql_mode by flavor and version', () => {
  it.each([
    ['mysql', '5.6.51', 'NO_ENGINE_SUBSTITUTION'],
    ['mysql', '5.7.6', 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'],
    ['mysql', '5.7.7', 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION'],
    [
      'mysql',
      '5.7.44',
      'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
    ],
    [
      'mysql',
      '8.4.3',
      'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
    ],
    ['mariadb', '10.1.7', 'NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION'],
    [
      'mariadb',
      '10.2.4',
      'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
    ],
    [
      'mariadb',
      '11.4.5',
      'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
    ],
  ] as const)('%s %s', (flavor, version, expected) => {
    expect(defaultSqlMode(flavor, version)).toBe(expected);
  });

  it('every default is written in bit order and every entry cites a source', () => {
    for (const entry of DEFAULT_SQL_MODES) {
      expect(entry.modes).toEqual(expandSqlMode(entry.modes, entry.family));
      expect(entry.source.length).toBeGreaterThan(10);
    }
    for (const mode of MODES) expect(mode.source.length, mode.name).toBeGreaterThan(10);
  });

  it('validates names per server: NO_AUTO_CREATE_USER removed on MySQL 8, valid on MariaDB', () => {
    expect(validateSqlMode('strict_trans_tables,NO_AUTO_CREATE_USER,BOGUS', 'mysql', '8.0.33')).toEqual({
      normalized: 'STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER,BOGUS',
      unknown: ['BOGUS'],
      removed: ['NO_AUTO_CREATE_USER'],
    });
    expect(validateSqlMode('NO_AUTO_CREATE_USER', 'mariadb', '10.11.6').removed).toEqual([]);
    expect(validateSqlMode('TRADITIONAL', 'mysql', '8.0.33').normalized).toBe(
      'STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION',
    );
  });
});

describe('server view (AT-7: MariaDB 10.2 vs MySQL 5.7 defaults)', () => {
  const mariadb102 = {
    sync_binlog: '0',
    binlog_format: 'MIXED',
    performance_schema: 'OFF',
    lock_wait_timeout: '86400',
    log_slow_admin_statements: 'ON',
    log_slow_slave_statements: 'ON',
    max_allowed_packet: '16777216',
    group_concat_max_len: '1048576',
    sort_buffer_size: '2097152',
    optimizer_switch: 'index_merge=on,mrr=off,mrr_cost_based=off,mrr_sort_keys=off',
  };

  it('lists the MySQL default of every differing variable, restart notes and sql_mode differences', () => {
    const view = buildSqlModeView({
      flavor: 'mariadb',
      version: '10.2.12',
      globalSqlMode:
        'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
      sessionSqlMode: 'NO_ENGINE_SUBSTITUTION',
      variables: mariadb102,
    });
    expect(
      Object.fromEntries(
        view.variables
          .filter((v) => v.value !== null)
          .map((v) => [v.name, [v.value, v.otherFamilyDefault, v.differsFromDefault, v.restartRequired]]),
      ),
    ).toEqual({
      lock_wait_timeout: ['86400', '31536000', false, false],
      performance_schema: ['OFF', 'ON', false, true],
      log_slow_admin_statements: ['ON', 'OFF', false, false],
      log_slow_slave_statements: ['ON', 'OFF', false, false],
      max_allowed_packet: ['16777216', '67108864', false, false],
      group_concat_max_len: ['1048576', '1024', false, false],
      sort_buffer_size: ['2097152', '262144', false, false],
      sync_binlog: ['0', '1', false, false],
      binlog_format: ['MIXED', 'ROW', false, false],
      optimizer_switch: ['MRR=OFF,MRR_COST_BASED=OFF', 'mrr=on,mrr_cost_based=on', false, false],
    });
    expect(view.global.differsFromDefault).toEqual({ added: [], removed: [] });
    expect(view.session.differsFromDefault).toEqual({
      added: [],
      removed: ['STRICT_TRANS_TABLES', 'ERROR_FOR_DIVISION_BY_ZERO', 'NO_AUTO_CREATE_USER'],
    });
    expect(view.session.strict).toBe(false);
    expect(view.session.risks[0]).toMatch(/^Strict mode is off/);
  });
});

describe('upgrade view', () => {
  const sql = fs.readFileSync(path.join(DIR, 'workload.sql'), 'utf8');
  const schema = schemaFromDdl(fs.readFileSync(path.join(DIR, 'schema.sql'), 'utf8'), 'mysql').schema;

  it('MariaDB 10.11 defaults → MySQL 8.0 defaults: counts what fails', () => {
    const report = whatBreaks(sql, { flavor: 'mysql', version: '8.0.33' }, schema);
    expect({ statements: report.statements, failing: report.failing, byCode: report.byCode }).toEqual({
      statements: 5,
      failing: 4,
      byCode: { 1055: 1, 1067: 1, 1231: 1, 1364: 1 },
    });
  });

  it('the same workload on MariaDB 10.11 defaults: only the missing value fails', () => {
    const report = whatBreaks(sql, { flavor: 'mariadb', version: '10.11.6' }, schema);
    expect(report.items.filter((i) => i.outcome === 'error').map((i) => i.predictedError?.code)).toEqual([
      1364,
    ]);
  });
});

describe('upgrade view over captured classes', () => {
  const schema = schemaFromDdl(fs.readFileSync(path.join(DIR, 'schema.sql'), 'utf8'), 'mysql').schema;
  // As a slow-log digest or performance_schema capture delivers them: example, fingerprint, count.
  const classes = [
    {
      sql: 'insert into events_t (profile_id) values (7)',
      fingerprint: 'insert into events_t (profile_id) values(?+)',
      count: 1200,
    },
    {
      sql: 'SELECT profile_id, event_date FROM events_t GROUP BY profile_id',
      fingerprint: 'select profile_id, event_date from events_t group by profile_id',
      count: 40,
    },
    {
      sql: 'SELECT profile_id, COUNT(*) FROM events_t GROUP BY profile_id DESC;',
      fingerprint: 'select profile_id, count(*) from events_t group by profile_id desc',
      count: 3,
    },
    {
      sql: 'UPDATE IGNORE events_t SET profile_id = 1 WHERE id = 2',
      fingerprint: 'update ignore events_t set profile_id = ? where id = ?',
      count: 9,
    },
    {
      sql: 'SELECT id FROM events_t WHERE id = 5',
      fingerprint: 'select id from events_t where id = ?',
      count: 100000,
    },
    {
      sql: 'SELECT * FROM events_t WHERE id IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14...',
      fingerprint: 'select * from events_t where id in(?+)',
      count: 5,
    },
  ];

  it('MySQL 8.0 defaults: counts in classes and executions, failing classes first, most executed first', () => {
    const report = whatBreaksForClasses(classes, { flavor: 'mysql', version: '8.0.33' }, schema);
    expect({
      total: report.total,
      failing: report.failing,
      changing: report.changing,
      parseErrors: report.parseErrors,
      byCode: report.byCode,
      items: report.items.map((item) => [
        item.classIndex,
        item.count,
        item.outcome,
        item.rule,
        item.predictedError?.code ?? null,
      ]),
    }).toEqual({
      total: { classes: 6, events: 101257 },
      failing: { classes: 3, events: 1243 },
      changing: { classes: 0, events: 0 },
      parseErrors: { classes: 1, events: 5 },
      byCode: {
        1055: { classes: 1, events: 40 },
        1064: { classes: 1, events: 3 },
        1364: { classes: 1, events: 1200 },
      },
      items: [
        [0, 1200, 'error', 'MOD001', 1364],
        [1, 40, 'error', 'MOD004', 1055],
        [2, 3, 'error', 'MOD011', 1064],
      ],
    });
  });

  it('MariaDB 10.11 defaults: GROUP BY … DESC and the non-grouped column pass, the missing value still fails', () => {
    const report = whatBreaksForClasses(classes, { flavor: 'mariadb', version: '10.11.6' }, schema);
    expect(report.byCode).toEqual({ 1364: { classes: 1, events: 1200 } });
  });
});

describe('sargable sqlmode (upgrade view CLI)', () => {
  function io(): CliIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      stdout: (t) => void out.push(t),
      stderr: (t) => void err.push(t),
      readStdin: async () => '',
      env: {},
      cwd: DIR,
    };
  }

  it('prints JSON and exits 1 when a statement would fail', async () => {
    const cli = io();
    const code = await runCli(['sqlmode', '--schema', 'schema.sql', '--format', 'json', 'workload.sql'], cli);
    expect(code).toBe(1);
    expect(JSON.parse(cli.out.join('')).failing).toBe(4);
  });

  it('rejects unknown mode names, listing the valid ones', async () => {
    const cli = io();
    const code = await runCli(
      ['sqlmode', '--sql-mode', 'STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER', 'workload.sql'],
      cli,
    );
    expect(code).toBe(2);
    expect(cli.err.join('')).toMatch(
      /NO_AUTO_CREATE_USER is not valid on mysql 8\.0\.33 \(removed: NO_AUTO_CREATE_USER\)\. Valid modes: REAL_AS_FLOAT, /,
    );
  });
});
