import { describe, expect, it } from 'vitest';
import { offendingEntries, type LogEntry } from '../../support/audit.js';

const query = (text: string): LogEntry => ({ command: 'Query', text });

describe('the audit judge (tests/support/audit.ts)', () => {
  it("passes an analysis session's own reads and session SETs", () => {
    const session: LogEntry[] = [
      { command: 'Connect', text: 'auditor@localhost on shop using TCP/IP' },
      query('SET SESSION TRANSACTION READ ONLY'),
      query("SET SESSION sql_mode = 'STRICT_TRANS_TABLES'"),
      query('SET NAMES utf8mb4'),
      query('SELECT VERSION()'),
      query('SELECT /*+ MAX_EXECUTION_TIME(2000) */ COUNT(DISTINCT a) FROM t'),
      query('EXPLAIN FORMAT=JSON SELECT 1'),
      query('SHOW ENGINE INNODB STATUS'),
      query('/* sargable */ SELECT 1'),
      query('SET STATEMENT max_statement_time=2.000 FOR SELECT COUNT(*) FROM t'),
      { command: 'Init DB', text: 'shop' },
      { command: 'Quit', text: '' },
    ];
    expect(offendingEntries(session)).toEqual([]);
  });

  it('flags writes, state changes, hidden writes and unknown commands', () => {
    const bad: LogEntry[] = [
      query('INSERT INTO t VALUES (1)'),
      query('  update t set a = 1'),
      query('ALTER TABLE t ADD INDEX (a)'),
      query('SET GLOBAL slow_query_log = 1'),
      query('SET @@GLOBAL.long_query_time = 0'),
      query('SET PERSIST max_connections = 10'),
      query('KILL 42'),
      query('ANALYZE TABLE t'),
      query('SET SESSION TRANSACTION READ WRITE'),
      query('START TRANSACTION'),
      query('/*!50000 DROP TABLE t */'),
      query('CALL p()'),
      query('SET STATEMENT max_statement_time=2 FOR DELETE FROM t'),
      query("SET STATEMENT sql_mode='' FOR INSERT INTO t VALUES (1)"),
      { command: 'Binlog Dump', text: '' },
    ];
    expect(offendingEntries(bad)).toEqual(bad);
  });
});
