// What the server makes of DDL that the public schema files (tests/fixtures/schemas/public, compared
// with information_schema in tests/integration/public-schemas.test.ts) showed the loader got wrong.
// Each case is the small form of a real file's statement; the expected values are what MySQL 8.0.33
// and MariaDB 10.11 put in information_schema (probed on both servers, sql_mode '').
import { describe, expect, it } from 'vitest';
import type { IndexInfo } from '../../../src/core/model/schema.js';
import { loadSchemaText } from '../../../src/core/schema/ddl-load.js';

const MYSQL = { flavor: 'mysql', version: '8.0.33' } as const;
const MARIADB = { flavor: 'mariadb', version: '10.11.6' } as const;

function load(ddl: string, options: typeof MYSQL | typeof MARIADB = MYSQL) {
  return loadSchemaText(ddl, options);
}

const describeIndex = (index: IndexInfo) =>
  `${index.name} ${index.kind} ${index.parts.map((part) => `${part.column}${part.prefixLength === null ? '' : `(${part.prefixLength})`}`).join(',')}`;

function indexes(ddl: string, options: typeof MYSQL | typeof MARIADB = MYSQL, table = 't'): string[] {
  const { schema } = load(ddl, options);
  return (schema.tables.find((entry) => entry.name === table)?.indexes ?? []).map(describeIndex);
}

describe('statements after DELIMITER that the client sends at once (Cacti)', () => {
  it('loads every `;` statement of a block the client sends whole, with its own line', () => {
    const ddl = [
      'DELIMITER //',
      'SET @sqlmode = "";',
      'CREATE TABLE a (id INT PRIMARY KEY);',
      '',
      'CREATE TABLE b (',
      '  id INT PRIMARY KEY,,',
      '  x INT);',
      'CREATE TABLE c (id INT PRIMARY KEY);',
    ].join('\n');
    const { schema, summary } = load(ddl);
    expect(schema.tables.map((table) => table.name)).toEqual(['a', 'c']);
    expect(summary.skipped).toEqual([expect.objectContaining({ table: 'b', line: 6 })]);
  });

  it('keeps a routine whose body holds `;` one statement, as before', () => {
    const ddl = [
      'DELIMITER ;;',
      'CREATE PROCEDURE p() BEGIN SELECT 1; CREATE TABLE inside (id INT); END;;',
      'DELIMITER ;',
      'CREATE TABLE after_it (id INT);',
    ].join('\n');
    expect(load(ddl).schema.tables.map((table) => table.name)).toEqual(['after_it']);
  });
});

describe('column types as information_schema prints them (most hand-written schemas)', () => {
  it('prints display widths, argument lists and sized TEXT/BLOB as each server does', () => {
    const ddl = `CREATE TABLE t (a INT(11), b INT UNSIGNED, c TINYINT(1), d TINYINT(1) UNSIGNED, e BIGINT,
      f ENUM('n', 'y', 'a b'), g DECIMAL(10, 2), h CHAR, i TEXT(512), j BLOB(100000), k YEAR(4), l INT(5) ZEROFILL);`;
    const types = (options: typeof MYSQL | typeof MARIADB) =>
      load(ddl, options).schema.tables[0]!.columns.map((column) => column.columnType);
    expect(types(MYSQL)).toEqual([
      'int',
      'int unsigned',
      'tinyint(1)',
      'tinyint unsigned',
      'bigint',
      "enum('n','y','a b')",
      'decimal(10,2)',
      'char(1)',
      'text',
      'mediumblob',
      'year',
      'int(5) unsigned zerofill',
    ]);
    expect(types(MARIADB)).toEqual([
      'int(11)',
      'int(10) unsigned',
      'tinyint(1)',
      'tinyint(1) unsigned',
      'bigint(20)',
      "enum('n','y','a b')",
      'decimal(10,2)',
      'char(1)',
      'text',
      'mediumblob',
      'year(4)',
      'int(5) unsigned zerofill',
    ]);
  });
});

describe('collations as the server names them (Nacos, osTicket)', () => {
  it('names utf8_* collations utf8mb3_* on MySQL 8.0.30+ and MariaDB 10.6+, and not before', () => {
    const ddl =
      'CREATE TABLE t (a VARCHAR(10) COLLATE utf8_bin, b VARCHAR(10)) DEFAULT CHARSET=utf8 COLLATE=utf8_unicode_ci;';
    for (const options of [MYSQL, MARIADB]) {
      const columns = load(ddl, options).schema.tables[0]!.columns;
      expect(columns.map((column) => column.collation)).toEqual(['utf8mb3_bin', 'utf8mb3_unicode_ci']);
    }
    const old = load(ddl, { flavor: 'mysql', version: '8.0.28' } as unknown as typeof MYSQL).schema
      .tables[0]!;
    expect(old.columns[0]!.collation).toBe('utf8_bin');
  });
});

describe('indexes the server adds and drops for foreign keys (Percona, Quartz)', () => {
  it('adds the foreign key index on any engine, named after the constraint', () => {
    const ddl = `CREATE TABLE t (a INT, b INT, KEY a (a),
      CONSTRAINT t1_ibfk_1 FOREIGN KEY (a, b) REFERENCES p (a, b),
      CONSTRAINT t1_ibfk_2 FOREIGN KEY (b, a) REFERENCES p (b, a)) ENGINE=MyISAM;`;
    expect(indexes(ddl)).toEqual(['a btree a', 't1_ibfk_1 btree a,b', 't1_ibfk_2 btree b,a']);
  });

  it('drops the added index when a later index covers the foreign key, keeps a declared one', () => {
    const ddl = `CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10), j VARCHAR(10), KEY own (j),
        FOREIGN KEY (s, j) REFERENCES p (s, j), FOREIGN KEY (j) REFERENCES q (j));
      CREATE INDEX idx_t_j ON t (s, j, id);`;
    expect(indexes(ddl)).toEqual(['PRIMARY btree id', 'own btree j', 'idx_t_j btree s,j,id']);
    // A prefix key part cannot serve a foreign key: the added index stays.
    const prefix = `CREATE TABLE t (s VARCHAR(10), FOREIGN KEY (s) REFERENCES p (s));
      CREATE INDEX short ON t (s(3));`;
    expect(indexes(prefix)).toEqual(['s btree s', 'short btree s(3)']);
  });
});

describe('key parts and index types (sabre/dav, Cacti, Piwigo)', () => {
  it('drops a prefix as long as the column', () => {
    const ddl = 'CREATE TABLE t (p VARBINARY(900), n VARCHAR(100), UNIQUE KEY pn (p(600), n(100)));';
    expect(indexes(ddl)).toEqual(['pn btree p(600),n']);
  });

  it('gives MEMORY keys HASH unless USING BTREE, and InnoDB keys BTREE whatever USING says', () => {
    const memory =
      'CREATE TABLE t (a INT, b INT, c INT, PRIMARY KEY (a), KEY b (b) USING BTREE, KEY c (c)) ENGINE=MEMORY;';
    expect(indexes(memory)).toEqual(['PRIMARY hash a', 'b btree b', 'c hash c']);
    const innodb =
      'CREATE TABLE t (a INT, b INT, KEY a (a) USING HASH, UNIQUE KEY b (b) USING HASH) ENGINE=InnoDB;';
    expect(indexes(innodb)).toEqual(['a btree a', 'b btree b']);
    // MariaDB builds UNIQUE … USING HASH as a long unique (hash) key.
    expect(indexes(innodb, MARIADB)).toEqual(['a btree a', 'b hash b']);
  });

  it('cuts a long one-part key to the engine limit and refuses what the server refuses', () => {
    const ddl = (body: string, engine = 'MyISAM') =>
      `CREATE TABLE t (${body}) ENGINE=${engine} DEFAULT CHARSET=utf8mb4;`;
    // 300 × 4 bytes > MyISAM's 1,000: cut to 250 characters; InnoDB's 3,072 bytes: 768.
    expect(indexes(ddl('a VARCHAR(300), KEY (a)'))).toEqual(['a btree a(250)']);
    expect(indexes(ddl('a VARCHAR(1000), KEY (a)', 'InnoDB'), MARIADB)).toEqual(['a btree a(768)']);
    // Without a charset the database default (utf8mb4) counts.
    expect(indexes('CREATE TABLE t (a VARCHAR(255), KEY (a)) ENGINE=MyISAM;')).toEqual(['a btree a(250)']);
    // Several parts over the limit, or a primary key: ERROR 1071 on both servers.
    for (const body of ['a VARCHAR(200), b VARCHAR(200), KEY (a, b)', 'a VARCHAR(300) PRIMARY KEY'])
      for (const options of [MYSQL, MARIADB]) {
        const { schema, summary } = load(ddl(body), options);
        expect(schema.tables).toEqual([]);
        expect(summary.skipped[0]?.reason).toMatch(/max key length is 1000 bytes \(ERROR 1071\)/);
      }
    // A long UNIQUE key: MySQL refuses it, MariaDB makes it a hash key.
    expect(load(ddl('a VARCHAR(300), UNIQUE KEY (a)')).summary.skipped[0]?.reason).toMatch(/ERROR 1071/);
    expect(indexes(ddl('a VARCHAR(300), UNIQUE KEY (a)'), MARIADB)).toEqual(['a hash a']);
    // TEXT in a key without a length: MySQL refuses it; MariaDB hashes a UNIQUE one, cuts a plain one.
    expect(load('CREATE TABLE t (a TEXT, UNIQUE (a));').summary.skipped[0]?.reason).toMatch(/ERROR 1170/);
    expect(indexes('CREATE TABLE t (a TEXT, UNIQUE (a));', MARIADB)).toEqual(['a hash a']);
    expect(indexes('CREATE TABLE t (a BLOB, KEY (a));', MARIADB)).toEqual(['a btree a(3072)']);
    // JSON cannot be a key part on MySQL (ERROR 3152), with or without a prefix.
    expect(load('CREATE TABLE t (a JSON, KEY (a(10)));').summary.skipped[0]?.reason).toMatch(/ERROR 3152/);
    // Within the limit nothing changes (2 × 300 × 4 = 2,400 bytes on InnoDB).
    expect(indexes(ddl('a VARCHAR(300), b VARCHAR(300), UNIQUE KEY (a, b)', 'InnoDB'))).toEqual([
      'a btree a,b',
    ]);
  });
});

describe('keys added after CREATE TABLE', () => {
  it('gives CREATE INDEX and ALTER TABLE … ADD INDEX the engine type and length limit, and skips a refused CREATE INDEX', () => {
    const ddl = [
      'CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(300), b VARCHAR(300), c INT) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4;',
      'CREATE INDEX ia ON t (a);',
      'ALTER TABLE t ADD INDEX ib (b);',
      'CREATE INDEX iab ON t (a, b);',
      'CREATE TABLE m (c INT) ENGINE=MEMORY;',
      'CREATE INDEX ic ON m (c);',
    ].join('\n');
    const { schema, summary } = load(ddl);
    expect(indexes(ddl)).toEqual(['PRIMARY btree id', 'ia btree a(250)', 'ib btree b(250)']);
    expect(schema.tables[1]!.indexes.map(describeIndex)).toEqual(['ic hash c']);
    expect(summary.skipped).toEqual([
      expect.objectContaining({ line: 4, reason: expect.stringMatching(/^CREATE INDEX iab: .*ERROR 1071/) }),
    ]);
  });
});

describe('tables the server refuses whole (Percona samples)', () => {
  it('skips them with the server message and the line, and loads the rest', () => {
    const ddl = [
      'CREATE TABLE ok (id INT PRIMARY KEY);',
      'CREATE TABLE typo (a INT) DEFAULT CHARSET=latin;',
      'CREATE TABLE col_typo (a VARCHAR(5) CHARACTER SET utf9);',
      'CREATE TABLE auto_not_key (id INT AUTO_INCREMENT, x FLOAT);',
      'CREATE TABLE null_pk (a INT DEFAULT NULL, PRIMARY KEY (a));',
    ].join('\n');
    const mysql = load(ddl);
    expect(mysql.schema.tables.map((table) => table.name)).toEqual(['ok']);
    expect(mysql.summary.skipped.map((entry) => [entry.table, entry.line, entry.reason])).toEqual([
      ['typo', 2, "Unknown character set: 'latin'"],
      ['col_typo', 3, "Unknown character set: 'utf9'"],
      ['auto_not_key', 4, expect.stringMatching(/only one auto column and it must be defined as a key/)],
      ['null_pk', 5, expect.stringMatching(/All parts of a PRIMARY KEY must be NOT NULL/)],
    ]);
    // MariaDB makes a DEFAULT NULL primary key column NOT NULL.
    const mariadb = load(ddl, MARIADB);
    expect(mariadb.schema.tables.map((table) => table.name)).toEqual(['ok', 'null_pk']);
    expect(mariadb.schema.tables[1]!.columns[0]!.nullable).toBe(false);
  });

  it('reads a bare `Create Table:` field copied from \\G output', () => {
    const text =
      'Create Table: CREATE TABLE `t` (\n `id` int(11) NOT NULL,\n PRIMARY KEY (`id`)\n) ENGINE=InnoDB;';
    const { schema, summary } = load(text);
    expect(summary.skipped).toEqual([]);
    expect(schema.tables.map((table) => table.name)).toEqual(['t']);
  });
});
