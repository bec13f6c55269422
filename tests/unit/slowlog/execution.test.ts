// Per-class execution summary (tmp tables, sorts, scans) from MySQL, Percona and MariaDB fields, and which attributes a digest aggregates.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDigest, createSlowLogParser, type DigestOptions } from '../../../src/core/slowlog/index.js';
import { runCliCaptured } from '../../support/cli.js';

function digest(text: string, options: DigestOptions = {}) {
  const d = createDigest(options);
  const parser = createSlowLogParser({ onEvent: d.add, onSkip: d.addSkip });
  parser.push(text);
  parser.end();
  return d;
}

const mysqlExtra = (fields: string, sql: string): string =>
  `# Time: 2026-11-22T05:19:33.699518Z\n# User@Host: app[app] @  [127.0.0.1]  Id:    13\n` +
  `# Query_time: 0.000026  Lock_time: 0.000000 Rows_sent: 0  Rows_examined: 0 Thread_id: 13 Errno: 0 ` +
  `Killed: 0 Bytes_received: 11 Bytes_sent: 16 ${fields} Start: 2026-11-22T05:19:33.699492Z End: 2026-11-22T05:19:33.699518Z\n` +
  `SET timestamp=1795324773;\n${sql};\n`;

const extra = (tmp: number, disk: number, scanSorts: number, rangeSorts: number, rndNext: number): string =>
  `Read_first: 0 Read_last: 0 Read_key: 0 Read_next: 0 Read_prev: 0 Read_rnd: 0 Read_rnd_next: ${rndNext} ` +
  `Sort_merge_passes: 0 Sort_range_count: ${rangeSorts} Sort_rows: 0 Sort_scan_count: ${scanSorts} ` +
  `Created_tmp_disk_tables: ${disk} Created_tmp_tables: ${tmp}`;

describe('execution summary', () => {
  it('MySQL log_slow_extra: tables and sorts are summed, scans count statements with Read_rnd_next > 0', () => {
    const log =
      mysqlExtra(extra(1, 0, 1, 0, 40), 'SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY 2') +
      mysqlExtra(extra(2, 1, 0, 2, 0), 'SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY 2') +
      mysqlExtra(extra(0, 0, 0, 0, 7), 'SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY 2') +
      mysqlExtra(extra(0, 0, 0, 0, 0), 'SELECT b FROM u WHERE id = 1');
    const [grouped, point] = digest(log).result().classes;
    expect(grouped?.fingerprint).toContain('group by');
    expect(grouped?.execution).toEqual({
      tmpTables: 3,
      tmpDiskTables: 1,
      filesorts: 3,
      fullScans: 2,
      fullJoins: null,
    });
    expect(point?.execution).toEqual({
      tmpTables: 0,
      tmpDiskTables: 0,
      filesorts: 0,
      fullScans: 0,
      fullJoins: null,
    });
  });

  it('Percona Server: numeric Tmp_tables / Tmp_disk_tables, Yes/No Filesort, Full_scan, Full_join', () => {
    const event = (tmp: number, disk: number, sort: string, scan: string, join: string): string =>
      `# Time: 071218 11:48:27\n# User@Host: [SQL_SLAVE] @  []\n# Thread_id: 10  Schema: db1\n` +
      `# Query_time: 0.000012  Lock_time: 0.000000  Rows_sent: 0  Rows_examined: 0  Rows_affected: 0  Rows_read: 1\n` +
      `# QC_Hit: No  Full_scan: ${scan}  Full_join: ${join}  Tmp_table: ${tmp > 0 ? 'Yes' : 'No'}  Tmp_table_on_disk: ${disk > 0 ? 'Yes' : 'No'}\n` +
      `# Filesort: ${sort}  Filesort_on_disk: No  Merge_passes: 0\n` +
      `# Tmp_tables: ${tmp}  Tmp_disk_tables: ${disk}  Tmp_table_sizes: 0\n` +
      `SELECT * FROM a JOIN b WHERE a.x > 1 ORDER BY a.y;\n`;
    const log =
      event(2, 1, 'Yes', 'Yes', 'Yes') + event(1, 0, 'No', 'Yes', 'No') + event(0, 0, 'Yes', 'No', 'No');
    const [only] = digest(log).result().classes;
    // Numeric fields win over the Yes/No ones: tables created, not statements.
    expect(only?.execution).toEqual({
      tmpTables: 3,
      tmpDiskTables: 1,
      filesorts: 2,
      fullScans: 2,
      fullJoins: 1,
    });
  });

  it('MariaDB log_slow_verbosity=query_plan: Yes/No fields count statements', () => {
    const event = (scan: string, tmp: string, sort: string): string =>
      `# Time: 241122  5:19:33\n# User@Host: app[app] @ localhost []\n# Thread_id: 8  Schema: shop  QC_hit: No\n` +
      `# Query_time: 0.000200  Lock_time: 0.000010  Rows_sent: 3  Rows_examined: 9\n# Rows_affected: 0  Bytes_sent: 120\n` +
      `# Full_scan: ${scan}  Full_join: No  Tmp_table: ${tmp}  Tmp_table_on_disk: No\n` +
      `# Filesort: ${sort}  Filesort_on_disk: No  Merge_passes: 0  Priority_queue: No\n` +
      `SET timestamp=1732253973;\nSELECT customer, COUNT(*) FROM orders GROUP BY customer;\n`;
    const [only] = digest(event('Yes', 'Yes', 'Yes') + event('Yes', 'No', 'No')).result().classes;
    expect(only?.execution).toEqual({
      tmpTables: 1,
      tmpDiskTables: 0,
      filesorts: 1,
      fullScans: 2,
      fullJoins: 0,
    });
  });

  it('a log without such fields says so (null), not zero', () => {
    const log =
      '# Time: 071218 11:48:27\n# Query_time: 1  Lock_time: 0  Rows_sent: 1  Rows_examined: 1\nSELECT 1;\n';
    expect(digest(log).result().classes[0]?.execution).toEqual({
      tmpTables: null,
      tmpDiskTables: null,
      filesorts: null,
      fullScans: null,
      fullJoins: null,
    });
  });
});

describe('aggregated attributes', () => {
  const log =
    mysqlExtra(extra(0, 0, 0, 0, 0), 'SELECT b FROM u WHERE id = 1') +
    mysqlExtra(extra(0, 0, 0, 0, 0), 'SELECT c FROM v WHERE id = 1').replace(
      'Bytes_sent: 16',
      'Bytes_sent: 900',
    );

  it('by default only the reported ones; all of them on request', () => {
    const reported = digest(log).result().classes[0]!;
    expect(Object.keys(reported.metrics).sort()).toEqual([
      'Created_tmp_disk_tables',
      'Created_tmp_tables',
      'Lock_time',
      'Query_time',
      'Read_rnd_next',
      'Rows_examined',
      'Rows_sent',
      'Sort_range_count',
      'Sort_scan_count',
    ]);
    const all = digest(log, { attributes: 'all' }).result().classes[0]!;
    // 27 pairs: Thread_id is ignored (as in pt), Killed is Yes/No, Start and End are text.
    expect(Object.keys(all.metrics)).toHaveLength(20);
    expect(all.metrics.Bytes_sent?.sum).toBeGreaterThan(0);
  });

  it('the ranking attribute is aggregated when the digest is told about it', () => {
    const ranked = digest(log, { orderBy: 'Bytes_sent:sum' }).result({ orderBy: 'Bytes_sent:sum' });
    expect(ranked.classes.map((c) => [c.fingerprint, c.metrics.Bytes_sent?.sum])).toEqual([
      ['select c from v where id = ?', 900],
      ['select b from u where id = ?', 16],
    ]);
    expect(() => digest(log).result({ orderBy: 'Bytes_sent:sum' })).toThrow(/aggregates it/);
    expect(digest(log).result({ orderBy: 'query_count:sum' }).classes).toHaveLength(2);
  });

  it('a segment aggregated differently is refused (the caller then reads that part itself)', () => {
    const first = digest(log);
    const second = digest(log, { segment: true, orderBy: 'Bytes_sent:sum' });
    const before = JSON.stringify(first.result());
    expect(first.absorb(second.segment(), { offset: log.length, line: 9 })).toBe(false);
    expect(JSON.stringify(first.result())).toBe(before);
    const same = digest(log, { segment: true });
    expect(first.absorb(same.segment(), { offset: log.length, line: 9 })).toBe(true);
    expect(first.result().global.events).toBe(4);
  });
});

describe('sargable digest', () => {
  const cli = (argv: string[]) =>
    runCliCaptured(argv, { cwd: fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url)) });

  it('JSON has each class’s execution summary; metrics of every attribute with --all-attributes', async () => {
    const plain = await cli(['digest', '--format', 'json', 'generated/mysql-workload.log']);
    expect(plain.code).toBe(0);
    const classes = JSON.parse(plain.stdout).classes as { execution: unknown; metrics?: unknown }[];
    expect(classes[0]?.execution).toEqual({
      tmpTables: 0,
      tmpDiskTables: 0,
      filesorts: 0,
      fullScans: 0,
      fullJoins: null,
    });
    expect(classes[0]?.metrics).toBeUndefined();
    const all = await cli(['digest', '--format', 'json', '--all-attributes', 'generated/mysql-workload.log']);
    const first = JSON.parse(all.stdout).classes[0] as { metrics: Record<string, { sum: number }> };
    expect(Object.keys(first.metrics)).toContain('Bytes_sent');
  });

  it('ranks by an attribute outside the reported ones (--order-by Bytes_sent:max)', async () => {
    const result = await cli([
      'digest',
      '--format',
      'json',
      '--order-by',
      'Bytes_sent:max',
      'generated/mysql-workload.log',
    ]);
    expect(result.code).toBe(0);
    const ranked = JSON.parse(result.stdout).classes as { ranked: boolean }[];
    expect(ranked.length).toBeGreaterThan(1);
    expect(ranked.every((c) => c.ranked)).toBe(true);
  });
});
