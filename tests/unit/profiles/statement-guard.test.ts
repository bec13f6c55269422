// The read-only statement guard: which statements may run on an analysis session.
import { describe, expect, it } from 'vitest';
import {
  assertReadOnlyStatement,
  checkReadOnlyStatement,
} from '../../../src/main/services/statement-guard.js';

const allowed = [
  'SELECT 1',
  'select * from t where a = 1;',
  '  /* leading comment */ SELECT 1',
  '-- note\nSELECT 1',
  '# note\nSELECT 1',
  '(SELECT a FROM t) UNION (SELECT a FROM u)',
  'WITH c AS (SELECT 1 AS x) SELECT * FROM c',
  'WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
  'TABLE t',
  'VALUES ROW(1, 2)',
  "SELECT 'DROP TABLE t; KILL 1' AS text",
  "SELECT * FROM t WHERE name = 'it''s FOR UPDATE'",
  'SELECT `for`, `update` FROM t',
  'SELECT * FROM t /*+ MAX_EXECUTION_TIME(1000) */',
  'SHOW GRANTS',
  "SHOW SESSION STATUS LIKE 'Ssl_cipher'",
  'SHOW ENGINE INNODB STATUS',
  'DESCRIBE t',
  'DESC t',
  'EXPLAIN SELECT * FROM t',
  'EXPLAIN FORMAT=JSON SELECT * FROM t',
  'EXPLAIN FORMAT=TREE SELECT * FROM t',
  'EXPLAIN UPDATE t SET a = 1',
  'EXPLAIN DELETE FROM t',
  'EXPLAIN EXTENDED SELECT 1',
  'EXPLAIN FOR CONNECTION 12',
  'EXPLAIN ANALYZE SELECT * FROM t',
  'EXPLAIN ANALYZE FORMAT=TREE SELECT * FROM t',
  'ANALYZE FORMAT=JSON SELECT * FROM t',
  'ANALYZE SELECT * FROM t',
  'SET SESSION TRANSACTION READ ONLY',
  'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
  'SET SESSION max_execution_time = 1000',
  'SET SESSION max_execution_time = DEFAULT',
  'SET max_statement_time = 1',
  'SET NAMES utf8mb4',
  'SET CHARACTER SET utf8mb4',
  '/* sargable:capture */ SET @@SESSION.long_query_time = 0',
  'SET @@long_query_time = 0',
  'SET @x = 1, @y = (SELECT 2)',
  "SET SESSION optimizer_switch = 'use_invisible_indexes=on'",
  'SET SESSION transaction_read_only = ON',
  'SET STATEMENT max_statement_time = 1 FOR SELECT 1',
  'USE `shop`',
  'START TRANSACTION READ ONLY',
  'START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY',
  'ROLLBACK',
  '',
];

const refused = [
  'INSERT INTO t VALUES (1)',
  'UPDATE t SET a = 1',
  'DELETE FROM t',
  'REPLACE INTO t VALUES (1)',
  'CREATE TABLE x (a INT)',
  'ALTER TABLE t ADD INDEX (a)',
  'DROP TABLE t',
  'TRUNCATE t',
  'RENAME TABLE a TO b',
  'KILL 12',
  'KILL QUERY 12',
  'GRANT SELECT ON *.* TO x',
  'REVOKE SELECT ON *.* FROM x',
  'FLUSH TABLES',
  'LOCK TABLES t READ',
  'CALL p()',
  'DO GET_LOCK("a", 1)',
  'HANDLER t OPEN',
  'LOAD DATA INFILE "x" INTO TABLE t',
  'COMMIT',
  'BEGIN',
  'START TRANSACTION',
  'START TRANSACTION READ WRITE',
  'START TRANSACTION READ ONLY, READ WRITE',
  'SET GLOBAL slow_query_log = 1',
  'SET @@GLOBAL.slow_query_log = 1',
  'SET @@global.long_query_time = 0',
  'SET PERSIST max_connections = 10',
  'SET PERSIST_ONLY max_connections = 10',
  "SET GLOBAL log_output = 'TABLE'",
  'SET @x = 1, GLOBAL slow_query_log = 1',
  'SET SESSION TRANSACTION READ WRITE',
  'SET TRANSACTION READ WRITE',
  'SET GLOBAL TRANSACTION READ WRITE',
  'SET SESSION transaction_read_only = OFF',
  'SET transaction_read_only = 0',
  'SET @@tx_read_only = 0',
  "SET PASSWORD = 'x'",
  'SET ROLE ALL',
  'SET DEFAULT ROLE ALL TO x',
  'SET STATEMENT max_statement_time = 1 FOR DELETE FROM t',
  'ANALYZE TABLE t',
  'ANALYZE NO_WRITE_TO_BINLOG TABLE t',
  'ANALYZE FORMAT=JSON UPDATE t SET a = 1',
  'ANALYZE DELETE FROM t',
  'EXPLAIN ANALYZE UPDATE t, u SET t.a = 1 WHERE t.id = u.id',
  'WITH c AS (SELECT 1) DELETE FROM t',
  'WITH c AS (SELECT 1) UPDATE t SET a = 1',
  'SELECT * FROM t FOR UPDATE',
  'SELECT * FROM t FOR SHARE NOWAIT',
  'SELECT * FROM t LOCK IN SHARE MODE',
  "SELECT * FROM t INTO OUTFILE '/tmp/x'",
  "SELECT 1 INTO DUMPFILE '/tmp/x'",
  "SELECT GET_LOCK('a', 1)",
  "SELECT release_lock('a')",
  'SELECT NEXTVAL(s)',
  'SELECT NEXT VALUE FOR s',
  'SELECT 1; DROP TABLE t',
  'SELECT 1; SELECT 2',
  '/*!50000 DROP TABLE t */',
  '/*M!100500 KILL 5 */',
  '/*!80000 SET GLOBAL x = 1 */',
  "SELECT 'unterminated",
  '/* unterminated comment SELECT 1',
  'XA START 1',
  'INSTALL PLUGIN x SONAME "y"',
  'SHUTDOWN',
  'PURGE BINARY LOGS BEFORE NOW()',
  'OPTIMIZE TABLE t',
  // Functions and assignments that do more than read (issue #20).
  'SELECT @x := 1',
  'SELECT SLEEP(0)',
  'SELECT BENCHMARK(10, 1)',
  "SELECT LOAD_FILE('/etc/passwd')",
  'SELECT * FROM t WHERE id = shop.f(1)',
  'SELECT my_udf(1)',
  'SELECT `CONCAT`(1)',
  'SELECT count (*) FROM t',
  'SELECT 1 INTO @x',
  'SET @x = SLEEP(1)',
  "SHOW TABLES WHERE GET_LOCK('a', 0)",
  "SET SESSION sql_mode = 'ANSI_QUOTES'",
  "SET @@sql_mode = ''",
  'SET NAMES gbk',
  'SET character_set_client = sjis',
  'EXPLAIN SELECT * FROM t WHERE id = (SELECT SLEEP(120))',
  'EXPLAIN SELECT * FROM t WHERE id = f()',
  'EXPLAIN ANALYZE SELECT f() FROM t',
  'EXPLAIN FORMAT=JSON INTO @x SELECT 1',
  'USE a b',
];

describe('statement guard', () => {
  it('allows exactly the read-only statements and refuses the rest', () => {
    const verdicts = Object.fromEntries(
      [...allowed, ...refused].map((sql) => [sql, checkReadOnlyStatement(sql).allowed]),
    );
    const expected = Object.fromEntries([
      ...allowed.map((sql) => [sql, true] as const),
      ...refused.map((sql) => [sql, false] as const),
    ]);
    expect(verdicts).toEqual(expected);
  });

  it('refuses with an AdvisorError that says why and what to do', () => {
    expect(() => assertReadOnlyStatement('KILL 12')).toThrowError(
      expect.objectContaining({
        code: 'UNSUPPORTED',
        userMessage: 'Refused on a read-only analysis session: KILL is not a read-only statement.',
      }),
    );
    expect(() => assertReadOnlyStatement('SELECT 1')).not.toThrow();
  });
});

describe('statement guard: lexical context', () => {
  const mysql80 = { flavor: 'mysql', version: 80033 } as const;
  const maria1011 = { flavor: 'mariadb', version: 101119 } as const;

  it('reads versioned executable comments with the server version and refuses them when it is unknown', () => {
    expect(checkReadOnlyStatement('/*!40101 SET NAMES utf8mb4 */', { context: mysql80 }).allowed).toBe(true);
    expect(checkReadOnlyStatement('/*!40101 SET NAMES utf8mb4 */').allowed).toBe(false);
    // MySQL skips /*M! … */ but MariaDB runs it: refused unless the flavor is known to be MySQL.
    expect(checkReadOnlyStatement('SELECT 1 /*M! INTO @x */', { context: mysql80 }).allowed).toBe(true);
    expect(checkReadOnlyStatement('SELECT 1 /*M! INTO @x */', { context: maria1011 }).allowed).toBe(false);
    expect(checkReadOnlyStatement('SELECT 1 /*M! INTO @x */').allowed).toBe(false);
    // A version above the server's is a comment; MariaDB skips MySQL 5.7+ versions.
    expect(checkReadOnlyStatement('SELECT 1 /*!80034 INTO @x */', { context: mysql80 }).allowed).toBe(true);
    expect(checkReadOnlyStatement('SELECT 1 /*!80033 INTO @x */', { context: mysql80 }).allowed).toBe(false);
    expect(checkReadOnlyStatement('SELECT 1 /*!80033 INTO @x */', { context: maria1011 }).allowed).toBe(true);
    expect(checkReadOnlyStatement('SELECT 1 /*!101100 INTO @x */', { context: maria1011 }).allowed).toBe(
      false,
    );
  });

  it('allows plain EXPLAIN of a possible stored function only when the caller says so', () => {
    const sql = 'EXPLAIN SELECT * FROM t WHERE id = f()';
    expect(checkReadOnlyStatement(sql, { allowRoutineCalls: true }).allowed).toBe(true);
    expect(checkReadOnlyStatement('EXPLAIN SELECT SLEEP(1)', { allowRoutineCalls: true }).allowed).toBe(
      false,
    );
    expect(checkReadOnlyStatement('EXPLAIN ANALYZE SELECT f()', { allowRoutineCalls: true }).allowed).toBe(
      false,
    );
  });

  it.each([
    ["SELECT 1 --\u0001' \n INTO OUTFILE '/tmp/x' -- '", 'a control character after --'],
    ["SELECT 1 --\u007f' \n INTO OUTFILE '/tmp/x' -- '", 'DEL after --'],
    ['SELECT 1 INTO/**/OUTFILE "/tmp/x"', 'a comment between INTO and OUTFILE'],
    ["SELECT `GET_LOCK`('a', 0)", 'a backticked GET_LOCK'],
    ['SELECT "GET_LOCK"(\'a\', 0)', 'a double-quoted GET_LOCK under ANSI_QUOTES'],
    ["SELECT 'a\\' INTO OUTFILE '/tmp/x' -- '", 'a backslash quote under NO_BACKSLASH_ESCAPES'],
    ['SELECT "a\\" INTO OUTFILE \'/tmp/x\' -- "', 'a backslash in a double-quoted string'],
    ["SELECT 1 /*!99999 ' */ INTO OUTFILE '/tmp/x' /*!99999 ' */", 'a quote in a skipped executable comment'],
    ['SELECT 1 /*! INTO @x */', 'an unversioned executable comment'],
  ])('refuses %j (%s) in every reading', (sql) => {
    expect(checkReadOnlyStatement(sql).allowed).toBe(false);
    expect(checkReadOnlyStatement(sql, { context: mysql80 }).allowed).toBe(false);
  });
});
