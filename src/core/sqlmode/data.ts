// The sql_mode knowledge base as data: default modes per flavor/version, mode meanings, combination modes,
// removed modes, predicted server errors and the variable defaults that differ between servers.
/*
 * Design note.
 * - Every entry carries `source`: the manual section it comes from, or `verified:` naming the test
 *   server whose compiled default (or error) confirmed it (tests/integration/sqlmode.test.ts re-checks
 *   those on every run). Entries not checkable here (MySQL 5.6/5.7/8.4/9.x, MariaDB 10.1–10.2, 11.x)
 *   cite the manual only.
 * - Version ranges are half-open: `from` inclusive, `to` exclusive; a missing bound is open.
 * - Mode lists are written in the server's bit order, the order `SELECT @@sql_mode` prints them.
 * - Code that reads this file lives in modes.ts; nothing here branches on versions.
 */

/** The two families whose sql_mode differs (Percona Server behaves as MySQL). */
export type ModeFamily = 'mysql' | 'mariadb';

/** A half-open version range: `from` inclusive, `to` exclusive. */
export interface VersionRange {
  from?: string;
  to?: string;
}

/** The compiled default sql_mode of one flavor over one version range. */
export interface DefaultSqlMode {
  family: ModeFamily;
  /** Short label for reports, e.g. `MySQL 5.7.8+`. */
  label: string;
  range: VersionRange;
  modes: readonly string[];
  source: string;
}

const MYSQL_56 = 'MySQL 5.6 manual, 5.1.10 Server SQL Modes (dev.mysql.com/doc/refman/5.6/en/sql-mode.html)';
const MYSQL_57 = 'MySQL 5.7 manual, 5.1.10 Server SQL Modes (dev.mysql.com/doc/refman/5.7/en/sql-mode.html)';
const MYSQL_80 = 'MySQL 8.0 manual, 7.1.11 Server SQL Modes (dev.mysql.com/doc/refman/8.0/en/sql-mode.html)';
const MYSQL_84 = 'MySQL 8.4 manual, 7.1.11 Server SQL Modes (dev.mysql.com/doc/refman/8.4/en/sql-mode.html)';
const MYSQL_9 = 'MySQL 9.x manual, 7.1.11 Server SQL Modes (dev.mysql.com/doc/refman/9.1/en/sql-mode.html)';
const MARIADB_KB = 'MariaDB KB, SQL_MODE (mariadb.com/kb/en/sql-mode/), "Defaults" table';
const MARIADB_VARS = 'MariaDB KB, Server System Variables (mariadb.com/kb/en/server-system-variables/)';
const MYSQL_VARS_57 = 'MySQL 5.7 manual, 5.1.7 Server System Variables';
const MYSQL_VARS_80 = 'MySQL 8.0 manual, 7.1.8 Server System Variables';
const SEED_DEFAULTS =
  'Percona blog "MySQL 5.7 vs MariaDB 10.2 default configuration differences" (project seeds §2.4)';
const VERIFIED_MYSQL =
  'verified: MySQL 8.0.33 compiled default (performance_schema.variables_info source COMPILED)';
const VERIFIED_MARIADB =
  'verified: MariaDB 10.11 compiled default (information_schema.SYSTEM_VARIABLES.DEFAULT_VALUE)';

const MYSQL_57_DEFAULT = [
  'ONLY_FULL_GROUP_BY',
  'STRICT_TRANS_TABLES',
  'NO_ZERO_IN_DATE',
  'NO_ZERO_DATE',
  'ERROR_FOR_DIVISION_BY_ZERO',
  'NO_AUTO_CREATE_USER',
  'NO_ENGINE_SUBSTITUTION',
] as const;
const MYSQL_80_DEFAULT = MYSQL_57_DEFAULT.filter((mode) => mode !== 'NO_AUTO_CREATE_USER');
const MARIADB_1024_DEFAULT = [
  'STRICT_TRANS_TABLES',
  'ERROR_FOR_DIVISION_BY_ZERO',
  'NO_AUTO_CREATE_USER',
  'NO_ENGINE_SUBSTITUTION',
] as const;

/** Compiled default sql_mode by flavor and version (first matching row wins). */
export const DEFAULT_SQL_MODES: readonly DefaultSqlMode[] = [
  {
    family: 'mysql',
    label: 'MySQL 5.6',
    range: { to: '5.7.0' },
    modes: ['NO_ENGINE_SUBSTITUTION'],
    source: MYSQL_56,
  },
  {
    family: 'mysql',
    label: 'MySQL 5.7.0–5.7.4',
    range: { from: '5.7.0', to: '5.7.5' },
    modes: ['NO_ENGINE_SUBSTITUTION'],
    source: `${MYSQL_57}, history notes (development milestones; before 5.7.5 the 5.6 default applied)`,
  },
  {
    family: 'mysql',
    label: 'MySQL 5.7.5–5.7.6',
    range: { from: '5.7.5', to: '5.7.7' },
    modes: ['ONLY_FULL_GROUP_BY', 'STRICT_TRANS_TABLES', 'NO_ENGINE_SUBSTITUTION'],
    source: `${MYSQL_57}: ONLY_FULL_GROUP_BY and STRICT_TRANS_TABLES became default in 5.7.5`,
  },
  {
    family: 'mysql',
    label: 'MySQL 5.7.7',
    range: { from: '5.7.7', to: '5.7.8' },
    modes: ['ONLY_FULL_GROUP_BY', 'STRICT_TRANS_TABLES', 'NO_AUTO_CREATE_USER', 'NO_ENGINE_SUBSTITUTION'],
    source: `${MYSQL_57}: NO_AUTO_CREATE_USER became default in 5.7.7`,
  },
  {
    family: 'mysql',
    label: 'MySQL 5.7.8+',
    range: { from: '5.7.8', to: '8.0.0' },
    modes: MYSQL_57_DEFAULT,
    source: `${MYSQL_57}: NO_ZERO_IN_DATE, NO_ZERO_DATE, ERROR_FOR_DIVISION_BY_ZERO default again from 5.7.8`,
  },
  {
    family: 'mysql',
    label: 'MySQL 8.0',
    range: { from: '8.0.0', to: '8.1.0' },
    modes: MYSQL_80_DEFAULT,
    source: `${MYSQL_80}; ${VERIFIED_MYSQL}`,
  },
  {
    family: 'mysql',
    label: 'MySQL 8.1–8.4',
    range: { from: '8.1.0', to: '9.0.0' },
    modes: MYSQL_80_DEFAULT,
    source: MYSQL_84,
  },
  { family: 'mysql', label: 'MySQL 9.x', range: { from: '9.0.0' }, modes: MYSQL_80_DEFAULT, source: MYSQL_9 },
  { family: 'mariadb', label: 'MariaDB < 10.1.7', range: { to: '10.1.7' }, modes: [], source: MARIADB_KB },
  {
    family: 'mariadb',
    label: 'MariaDB 10.1.7–10.2.3',
    range: { from: '10.1.7', to: '10.2.4' },
    modes: ['NO_AUTO_CREATE_USER', 'NO_ENGINE_SUBSTITUTION'],
    source: MARIADB_KB,
  },
  {
    family: 'mariadb',
    label: 'MariaDB 10.2.4–10.2.x',
    range: { from: '10.2.4', to: '10.3.0' },
    modes: MARIADB_1024_DEFAULT,
    source: MARIADB_KB,
  },
  {
    family: 'mariadb',
    label: 'MariaDB 10.3–10.11',
    range: { from: '10.3.0', to: '11.0.0' },
    modes: MARIADB_1024_DEFAULT,
    source: `${MARIADB_KB}; ${VERIFIED_MARIADB}`,
  },
  {
    family: 'mariadb',
    label: 'MariaDB 11.x',
    range: { from: '11.0.0' },
    modes: MARIADB_1024_DEFAULT,
    source: MARIADB_KB,
  },
];

/** What a mode is about, for grouping in the server view. */
export type ModeEffect = 'strictness' | 'dates' | 'syntax' | 'grouping' | 'ddl' | 'compat' | 'other';

/** One sql_mode flag (or combination mode). */
export interface ModeInfo {
  name: string;
  /** Bit position (MariaDB numbering; MySQL shares 0–31). Used to print modes in server order. */
  bit: number;
  meaning: string;
  effect: ModeEffect;
  /** Where the mode exists, as version ranges per family; absent family = never existed there. */
  availability: Partial<Record<ModeFamily, VersionRange>>;
  /** For combination modes: the modes it sets, per family (the name itself is also kept). */
  expands?: Partial<Record<ModeFamily, readonly string[]>>;
  /** Turning this mode OFF makes the server lax (silent data changes). */
  laxWhenOff?: boolean;
  /** Turning this mode ON makes the server lax (accepts invalid data). */
  laxWhenOn?: boolean;
  /** Why a removed mode disappeared, and what replaces it. */
  removal?: string;
  source: string;
}

const ALWAYS = {} as const;
const MYSQL_REMOVED_IN_8 = { to: '8.0.0' } as const;
const BOTH = { mysql: ALWAYS, mariadb: ALWAYS } as const;
const COMPAT_MODE_REMOVAL =
  'Removed in MySQL 8.0 (deprecated in 5.7): setting it fails with ERROR 1231. Drop it from sql_mode.';

/** Every sql_mode flag, in bit order. */
export const MODES: readonly ModeInfo[] = [
  {
    name: 'REAL_AS_FLOAT',
    bit: 0,
    effect: 'other',
    availability: BOTH,
    meaning: 'REAL is a synonym for FLOAT instead of DOUBLE.',
    source: MYSQL_80,
  },
  {
    name: 'PIPES_AS_CONCAT',
    bit: 1,
    effect: 'syntax',
    availability: BOTH,
    meaning:
      "|| concatenates strings (like CONCAT) instead of meaning OR: 'a' || 'b' returns 'ab' instead of 0.",
    source: MYSQL_80,
  },
  {
    name: 'ANSI_QUOTES',
    bit: 2,
    effect: 'syntax',
    availability: BOTH,
    meaning:
      '"text" is an identifier (like `text`), not a string literal; string literals must use single quotes.',
    source: MYSQL_80,
  },
  {
    name: 'IGNORE_SPACE',
    bit: 3,
    effect: 'syntax',
    availability: BOTH,
    meaning:
      'Spaces are allowed between a function name and "("; built-in function names become reserved words.',
    source: MYSQL_80,
  },
  {
    name: 'IGNORE_BAD_TABLE_OPTIONS',
    bit: 4,
    effect: 'ddl',
    availability: { mariadb: ALWAYS },
    meaning: 'Unknown table/column/index options in CREATE TABLE give a warning instead of an error.',
    source: MARIADB_KB,
  },
  {
    name: 'ONLY_FULL_GROUP_BY',
    bit: 5,
    effect: 'grouping',
    availability: BOTH,
    meaning:
      'A grouped query may only select, order by or use in HAVING columns that are grouped, aggregated or (MySQL 5.7.5+) functionally dependent on the GROUP BY columns; otherwise ERROR 1055.',
    source: MYSQL_80,
  },
  {
    name: 'NO_UNSIGNED_SUBTRACTION',
    bit: 6,
    effect: 'other',
    availability: BOTH,
    meaning:
      'Subtracting integers where one is UNSIGNED gives a signed result instead of an out-of-range error.',
    source: MYSQL_80,
  },
  {
    name: 'NO_DIR_IN_CREATE',
    bit: 7,
    effect: 'ddl',
    availability: BOTH,
    meaning: 'DATA DIRECTORY and INDEX DIRECTORY table options are ignored (useful on replicas).',
    source: MYSQL_80,
  },
  {
    name: 'POSTGRESQL',
    bit: 8,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: {
      mysql: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
      mariadb: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
    },
    meaning: 'Combination mode for PostgreSQL compatibility.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'ORACLE',
    bit: 9,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: {
      mysql: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
        'NO_AUTO_CREATE_USER',
      ],
      mariadb: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
        'NO_AUTO_CREATE_USER',
        'SIMULTANEOUS_ASSIGNMENT',
      ],
    },
    meaning:
      'Combination mode for Oracle compatibility (MariaDB 10.3+ also switches the SQL parser to PL/SQL syntax).',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}; verified: MariaDB 10.11`,
  },
  {
    name: 'MSSQL',
    bit: 10,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: {
      mysql: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
      mariadb: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
    },
    meaning: 'Combination mode for SQL Server compatibility.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'DB2',
    bit: 11,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: {
      mysql: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
      mariadb: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
      ],
    },
    meaning: 'Combination mode for DB2 compatibility.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'MAXDB',
    bit: 12,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: {
      mysql: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
        'NO_AUTO_CREATE_USER',
      ],
      mariadb: [
        'PIPES_AS_CONCAT',
        'ANSI_QUOTES',
        'IGNORE_SPACE',
        'NO_KEY_OPTIONS',
        'NO_TABLE_OPTIONS',
        'NO_FIELD_OPTIONS',
        'NO_AUTO_CREATE_USER',
      ],
    },
    meaning: 'Combination mode for MaxDB compatibility (TIMESTAMP is treated as DATETIME).',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'NO_KEY_OPTIONS',
    bit: 13,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    meaning: 'SHOW CREATE TABLE omits MySQL-specific index options.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'NO_TABLE_OPTIONS',
    bit: 14,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    meaning: 'SHOW CREATE TABLE omits table options such as ENGINE.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'NO_FIELD_OPTIONS',
    bit: 15,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    meaning: 'SHOW CREATE TABLE omits MySQL-specific column options.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'MYSQL323',
    bit: 16,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: { mysql: ['HIGH_NOT_PRECEDENCE'], mariadb: ['HIGH_NOT_PRECEDENCE'] },
    meaning: 'Combination mode imitating MySQL 3.23.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'MYSQL40',
    bit: 17,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    expands: { mysql: ['HIGH_NOT_PRECEDENCE'], mariadb: ['HIGH_NOT_PRECEDENCE'] },
    meaning: 'Combination mode imitating MySQL 4.0.',
    removal: COMPAT_MODE_REMOVAL,
    source: `${MYSQL_57}; ${MARIADB_KB}`,
  },
  {
    name: 'ANSI',
    bit: 18,
    effect: 'compat',
    availability: BOTH,
    expands: {
      mysql: ['REAL_AS_FLOAT', 'PIPES_AS_CONCAT', 'ANSI_QUOTES', 'IGNORE_SPACE', 'ONLY_FULL_GROUP_BY'],
      mariadb: ['REAL_AS_FLOAT', 'PIPES_AS_CONCAT', 'ANSI_QUOTES', 'IGNORE_SPACE'],
    },
    meaning:
      'Combination mode for standard SQL behaviour (MySQL also sets ONLY_FULL_GROUP_BY; MariaDB does not).',
    source: `${MYSQL_80}; ${MARIADB_KB}; verified: MySQL 8.0.33 and MariaDB 10.11`,
  },
  {
    name: 'NO_AUTO_VALUE_ON_ZERO',
    bit: 19,
    effect: 'other',
    availability: BOTH,
    meaning: 'Inserting 0 into an AUTO_INCREMENT column stores 0 instead of generating the next value.',
    source: MYSQL_80,
  },
  {
    name: 'NO_BACKSLASH_ESCAPES',
    bit: 20,
    effect: 'syntax',
    availability: BOTH,
    meaning:
      "Backslash is an ordinary character in string literals: 'a\\nb' is four characters, not a, newline, b.",
    source: MYSQL_80,
  },
  {
    name: 'STRICT_TRANS_TABLES',
    bit: 21,
    effect: 'strictness',
    availability: BOTH,
    laxWhenOff: true,
    meaning:
      'Strict mode for transactional tables: invalid or missing values in INSERT/UPDATE are errors (1364, 1406, 1264, 1292 …) instead of warnings with silently adjusted data; also for non-transactional tables when the bad value is in the first row.',
    source: MYSQL_80,
  },
  {
    name: 'STRICT_ALL_TABLES',
    bit: 22,
    effect: 'strictness',
    availability: BOTH,
    meaning:
      'Strict mode for all tables; on non-transactional tables a bad row in a multi-row statement stops it half-done.',
    source: MYSQL_80,
  },
  {
    name: 'NO_ZERO_IN_DATE',
    bit: 23,
    effect: 'dates',
    availability: BOTH,
    laxWhenOff: true,
    meaning:
      "Dates with a zero month or day ('2017-00-16') are errors under strict mode (warnings and '0000-00-00' otherwise), also as DEFAULT values (ERROR 1067).",
    source: MYSQL_80,
  },
  {
    name: 'NO_ZERO_DATE',
    bit: 24,
    effect: 'dates',
    availability: BOTH,
    laxWhenOff: true,
    meaning:
      "'0000-00-00' is an error under strict mode (a warning otherwise), also as DEFAULT value (ERROR 1067).",
    source: MYSQL_80,
  },
  {
    name: 'ALLOW_INVALID_DATES',
    bit: 25,
    effect: 'dates',
    availability: BOTH,
    laxWhenOn: true,
    meaning: "Only month 1–12 and day 1–31 are checked, so '2017-02-30' is stored as is.",
    source: MYSQL_80,
  },
  {
    name: 'ERROR_FOR_DIVISION_BY_ZERO',
    bit: 26,
    effect: 'strictness',
    availability: BOTH,
    laxWhenOff: true,
    meaning:
      'Division (or MOD) by zero in INSERT/UPDATE is ERROR 1365 under strict mode; without the mode it silently yields NULL.',
    source: MYSQL_80,
  },
  {
    name: 'TRADITIONAL',
    bit: 27,
    effect: 'strictness',
    availability: BOTH,
    expands: {
      mysql: [
        'STRICT_TRANS_TABLES',
        'STRICT_ALL_TABLES',
        'NO_ZERO_IN_DATE',
        'NO_ZERO_DATE',
        'ERROR_FOR_DIVISION_BY_ZERO',
        'NO_ENGINE_SUBSTITUTION',
      ],
      mariadb: [
        'STRICT_TRANS_TABLES',
        'STRICT_ALL_TABLES',
        'NO_ZERO_IN_DATE',
        'NO_ZERO_DATE',
        'ERROR_FOR_DIVISION_BY_ZERO',
        'NO_AUTO_CREATE_USER',
        'NO_ENGINE_SUBSTITUTION',
      ],
    },
    meaning: 'Combination mode: behave like a traditional database, error instead of warning on bad data.',
    source: `${MYSQL_80}; ${MARIADB_KB}; verified: MySQL 8.0.33 and MariaDB 10.11`,
  },
  {
    name: 'NO_AUTO_CREATE_USER',
    bit: 28,
    effect: 'compat',
    availability: { mysql: MYSQL_REMOVED_IN_8, mariadb: ALWAYS },
    meaning: 'GRANT does not create a user that does not exist (unless credentials are given).',
    removal:
      'Removed in MySQL 8.0 (GRANT no longer creates users at all): SET sql_mode with it fails with ERROR 1231. Remove it from my.cnf and from application SET statements before upgrading.',
    source: `${MYSQL_80} ("NO_AUTO_CREATE_USER … removed"); verified: MySQL 8.0.33 ERROR 1231`,
  },
  {
    name: 'HIGH_NOT_PRECEDENCE',
    bit: 29,
    effect: 'syntax',
    availability: BOTH,
    meaning: 'NOT a BETWEEN b AND c parses as NOT (a BETWEEN …) with old MySQL precedence.',
    source: MYSQL_80,
  },
  {
    name: 'NO_ENGINE_SUBSTITUTION',
    bit: 30,
    effect: 'ddl',
    availability: BOTH,
    laxWhenOff: true,
    meaning:
      'CREATE/ALTER TABLE with an unavailable ENGINE fails with ERROR 1286 instead of silently using the default engine (warning 1266).',
    source: MYSQL_80,
  },
  {
    name: 'PAD_CHAR_TO_FULL_LENGTH',
    bit: 31,
    effect: 'other',
    availability: BOTH,
    meaning: 'CHAR values keep their trailing pad spaces when read (deprecated in MySQL 8.0).',
    source: MYSQL_80,
  },
  {
    name: 'TIME_TRUNCATE_FRACTIONAL',
    bit: 32,
    effect: 'other',
    availability: { mysql: { from: '8.0.0' } },
    meaning: 'Excess fractional seconds are truncated instead of rounded (MySQL 8.0).',
    source: MYSQL_80,
  },
  {
    name: 'EMPTY_STRING_IS_NULL',
    bit: 33,
    effect: 'compat',
    availability: { mariadb: { from: '10.3.3' } },
    meaning: "'' is converted to NULL (Oracle compatibility).",
    source: MARIADB_KB,
  },
  {
    name: 'SIMULTANEOUS_ASSIGNMENT',
    bit: 34,
    effect: 'other',
    availability: { mariadb: { from: '10.3.5' } },
    meaning: 'UPDATE … SET a=b, b=a evaluates every right side before assigning.',
    source: MARIADB_KB,
  },
  {
    name: 'TIME_ROUND_FRACTIONAL',
    bit: 35,
    effect: 'other',
    availability: { mariadb: { from: '10.4.0' } },
    meaning: 'Excess fractional seconds are rounded instead of truncated (MariaDB 10.4+).',
    source: MARIADB_KB,
  },
];

/** A server error the sql-mode rules predict, with the server's message template per family. */
export interface ErrorInfo {
  code: number;
  sqlState: string;
  name: string;
  /** `{{placeholders}}` are filled by the rule; MariaDB wording differs where listed. */
  message: Partial<Record<ModeFamily, string>> & { mysql: string };
  source: string;
}

/** Errors predicted by the MOD rules (messages as the servers print them; all verified on both test servers). */
export const ERRORS = {
  1064: {
    code: 1064,
    sqlState: '42000',
    name: 'ER_PARSE_ERROR',
    message: {
      mysql:
        "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{{near}}' at line {{line}}",
      mariadb:
        "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '{{near}}' at line {{line}}",
    },
    source:
      'verified: MySQL 8.0.33 (GROUP BY a DESC); `near` is the rest of the statement, at most 80 characters',
  },
  1055: {
    code: 1055,
    sqlState: '42000',
    name: 'ER_WRONG_FIELD_WITH_GROUP',
    message: {
      mysql:
        "Expression #{{position}} of {{clause}} is not in GROUP BY clause and contains nonaggregated column '{{column}}' which is not functionally dependent on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by",
      mariadb: "'{{column}}' isn't in GROUP BY",
    },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1067: {
    code: 1067,
    sqlState: '42000',
    name: 'ER_INVALID_DEFAULT',
    message: { mysql: "Invalid default value for '{{column}}'" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1140: {
    code: 1140,
    sqlState: '42000',
    name: 'ER_MIX_OF_GROUP_FUNC_AND_FIELDS',
    message: {
      mysql:
        "In aggregated query without GROUP BY, expression #{{position}} of SELECT list contains nonaggregated column '{{column}}'; this is incompatible with sql_mode=only_full_group_by",
      mariadb:
        'Mixing of GROUP columns (MIN(),MAX(),COUNT(),...) with no GROUP columns is illegal if there is no GROUP BY clause',
    },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1231: {
    code: 1231,
    sqlState: '42000',
    name: 'ER_WRONG_VALUE_FOR_VAR',
    message: { mysql: "Variable 'sql_mode' can't be set to the value of '{{value}}'" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1264: {
    code: 1264,
    sqlState: '22003',
    name: 'ER_WARN_DATA_OUT_OF_RANGE',
    message: { mysql: "Out of range value for column '{{column}}' at row {{row}}" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1265: {
    code: 1265,
    sqlState: '01000',
    name: 'WARN_DATA_TRUNCATED',
    message: { mysql: "Data truncated for column '{{column}}' at row {{row}}" },
    source: 'verified: MariaDB 10.11 (non-strict UPDATE)',
  },
  1286: {
    code: 1286,
    sqlState: '42000',
    name: 'ER_UNKNOWN_STORAGE_ENGINE',
    message: { mysql: "Unknown storage engine '{{engine}}'" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1266: {
    code: 1266,
    sqlState: 'HY000',
    name: 'ER_WARN_USING_OTHER_HANDLER',
    message: { mysql: "Using storage engine {{engine}} for table '{{table}}'" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1292: {
    code: 1292,
    sqlState: '22007',
    name: 'ER_TRUNCATED_WRONG_VALUE',
    message: {
      mysql: "Incorrect {{type}} value: '{{value}}' for column '{{column}}' at row {{row}}",
      mariadb: "Incorrect {{type}} value: '{{value}}' for column {{qualifiedColumn}} at row {{row}}",
    },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1364: {
    code: 1364,
    sqlState: 'HY000',
    name: 'ER_NO_DEFAULT_FOR_FIELD',
    message: { mysql: "Field '{{column}}' doesn't have a default value" },
    source: 'seed 000 L418–487; verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1365: {
    code: 1365,
    sqlState: '22012',
    name: 'ER_DIVISION_BY_ZERO',
    message: { mysql: 'Division by 0' },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1406: {
    code: 1406,
    sqlState: '22001',
    name: 'ER_DATA_TOO_LONG',
    message: { mysql: "Data too long for column '{{column}}' at row {{row}}" },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
  1054: {
    code: 1054,
    sqlState: '42S22',
    name: 'ER_BAD_FIELD_ERROR',
    message: {
      mysql: "Unknown column '{{column}}' in '{{clause}}'",
      mariadb: "Unknown column '{{column}}' in '{{clause}}'",
    },
    source: 'verified: MySQL 8.0.33 and MariaDB 10.11',
  },
} as const satisfies Record<number, ErrorInfo>;

/** A server variable whose default differs by flavor or version. */
export interface VariableDefault {
  name: string;
  /** Default values by family and version range (first match wins). */
  values: readonly { family: ModeFamily; range: VersionRange; value: string; source: string }[];
  /** Why the difference matters. */
  impact: string;
  /** Changing it needs a server restart (not dynamic). */
  restartRequired?: boolean;
  /** For optimizer_switch: compare only these flags. */
  switches?: readonly string[];
}

/** Variable defaults that differ between MySQL and MariaDB (seeds §2.4) or across versions. */
export const VARIABLE_DEFAULTS: readonly VariableDefault[] = [
  {
    name: 'lock_wait_timeout',
    impact:
      'How long DDL and LOCK TABLES wait for a metadata lock; a year on MySQL lets DDL queue behind a long transaction and block every later query on the table.',
    values: [
      { family: 'mysql', range: {}, value: '31536000', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      {
        family: 'mariadb',
        range: { from: '10.2.0' },
        value: '86400',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.0' }, value: '31536000', source: MARIADB_VARS },
    ],
  },
  {
    name: 'innodb_lock_wait_timeout',
    impact: 'Seconds a row-lock wait lasts before ERROR 1205.',
    values: [
      { family: 'mysql', range: {}, value: '50', source: `Percona seed 003 L205–213; ${VERIFIED_MYSQL}` },
      { family: 'mariadb', range: {}, value: '50', source: VERIFIED_MARIADB },
    ],
  },
  {
    name: 'performance_schema',
    restartRequired: true,
    impact:
      'Statement digests, lock views and wait instrumentation; off means the advisor falls back to the slow log.',
    values: [
      {
        family: 'mysql',
        range: { from: '5.6.6' },
        value: 'ON',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}`,
      },
      { family: 'mysql', range: { to: '5.6.6' }, value: 'OFF', source: MYSQL_VARS_57 },
      { family: 'mariadb', range: {}, value: 'OFF', source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}` },
    ],
  },
  {
    name: 'log_slow_admin_statements',
    impact: 'Whether slow ALTER/OPTIMIZE/ANALYZE TABLE statements reach the slow log.',
    values: [
      { family: 'mysql', range: {}, value: 'OFF', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      {
        family: 'mariadb',
        range: { from: '10.2.4' },
        value: 'ON',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.4' }, value: 'OFF', source: MARIADB_VARS },
    ],
  },
  {
    name: 'log_slow_slave_statements',
    impact: 'Whether slow replicated statements reach the replica slow log.',
    values: [
      { family: 'mysql', range: {}, value: 'OFF', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      {
        family: 'mariadb',
        range: { from: '10.2.4' },
        value: 'ON',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.4' }, value: 'OFF', source: MARIADB_VARS },
    ],
  },
  {
    name: 'max_allowed_packet',
    impact:
      'Largest statement or row the server accepts; bigger imports fail with ERROR 1153 on the smaller default.',
    values: [
      {
        family: 'mysql',
        range: { from: '8.0.3' },
        value: '67108864',
        source: `${MYSQL_VARS_80}; ${VERIFIED_MYSQL}`,
      },
      {
        family: 'mysql',
        range: { to: '8.0.3' },
        value: '4194304',
        source: `${SEED_DEFAULTS}; ${MYSQL_VARS_57}`,
      },
      {
        family: 'mariadb',
        range: { from: '10.2.4' },
        value: '16777216',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.4' }, value: '4194304', source: MARIADB_VARS },
    ],
  },
  {
    name: 'group_concat_max_len',
    impact: 'GROUP_CONCAT results longer than this are cut silently (warning 1260 only).',
    values: [
      { family: 'mysql', range: {}, value: '1024', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      {
        family: 'mariadb',
        range: { from: '10.2.4' },
        value: '1048576',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.4' }, value: '1024', source: MARIADB_VARS },
    ],
  },
  {
    name: 'sort_buffer_size',
    impact: 'Per-sort memory; filesorts that fit on MariaDB may spill to disk on MySQL.',
    values: [
      { family: 'mysql', range: {}, value: '262144', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      { family: 'mariadb', range: {}, value: '2097152', source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}` },
    ],
  },
  {
    name: 'sync_binlog',
    impact: 'Binary log durability: 1 syncs every commit (safe, slower); 0 leaves it to the OS.',
    values: [
      {
        family: 'mysql',
        range: { from: '5.7.7' },
        value: '1',
        source: `Percona seed 000 L663 / 001; ${VERIFIED_MYSQL}`,
      },
      { family: 'mysql', range: { to: '5.7.7' }, value: '0', source: 'Percona seed 000 L663 / 001' },
      { family: 'mariadb', range: {}, value: '0', source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}` },
    ],
  },
  {
    name: 'binlog_format',
    impact: 'Statement-based logging makes UPDATE/DELETE … LIMIT without ORDER BY unsafe.',
    values: [
      {
        family: 'mysql',
        range: { from: '5.7.7' },
        value: 'ROW',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}`,
      },
      { family: 'mysql', range: { to: '5.7.7' }, value: 'STATEMENT', source: MYSQL_VARS_57 },
      {
        family: 'mariadb',
        range: { from: '10.2.4' },
        value: 'MIXED',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
      { family: 'mariadb', range: { to: '10.2.4' }, value: 'STATEMENT', source: MARIADB_VARS },
    ],
  },
  {
    name: 'optimizer_switch',
    switches: ['mrr', 'mrr_cost_based'],
    impact: 'Multi-Range Read is on in MySQL and off in MariaDB, so the same query can get a different plan.',
    values: [
      {
        family: 'mysql',
        range: {},
        value: 'mrr=on,mrr_cost_based=on',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}`,
      },
      {
        family: 'mariadb',
        range: {},
        value: 'mrr=off,mrr_cost_based=off',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
    ],
  },
  {
    name: 'key_buffer_size',
    impact: 'MyISAM index cache (MariaDB also uses MyISAM/Aria for internal tables).',
    values: [
      { family: 'mysql', range: {}, value: '8388608', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      { family: 'mariadb', range: {}, value: '134217728', source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}` },
    ],
  },
  {
    name: 'innodb_max_undo_log_size',
    impact: 'Undo tablespace size that triggers truncation (only with innodb_undo_log_truncate=ON).',
    values: [
      { family: 'mysql', range: {}, value: '1073741824', source: `${SEED_DEFAULTS}; ${VERIFIED_MYSQL}` },
      {
        family: 'mariadb',
        range: { from: '10.2.6' },
        value: '10485760',
        source: `${SEED_DEFAULTS}; ${VERIFIED_MARIADB}`,
      },
    ],
  },
  {
    name: 'log_bin',
    restartRequired: true,
    impact: 'Binary logging costs write throughput (seeds: 5.7 + binlog 37–45% slower than 5.6 defaults).',
    values: [
      {
        family: 'mysql',
        range: { from: '8.0.0' },
        value: 'ON',
        source: `Percona seed 003 L567; ${VERIFIED_MYSQL}`,
      },
      { family: 'mysql', range: { to: '8.0.0' }, value: 'OFF', source: MYSQL_VARS_57 },
      { family: 'mariadb', range: {}, value: 'OFF', source: 'verified: MariaDB 10.11 @@log_bin' },
    ],
  },
];

/** sql_mode behaviour that differs between the families (verified on MySQL 8.0.33 and MariaDB 10.11). */
export const FAMILY_BEHAVIOUR: Readonly<
  Record<
    ModeFamily,
    {
      /** A zero/zero-part DEFAULT is ERROR 1067 with NO_ZERO_DATE/NO_ZERO_IN_DATE even without strict mode. */
      zeroDefaultErrorWithoutStrict: boolean;
      /** Warning code for a bad date stored in non-strict mode, by problem. */
      dateWarning: Readonly<Record<'zero-date' | 'zero-in-date' | 'invalid-date', 1264 | 1265>>;
    }
  >
> = {
  mysql: {
    zeroDefaultErrorWithoutStrict: false,
    dateWarning: { 'zero-date': 1264, 'zero-in-date': 1264, 'invalid-date': 1264 },
  },
  mariadb: {
    zeroDefaultErrorWithoutStrict: true,
    dateWarning: { 'zero-date': 1264, 'zero-in-date': 1265, 'invalid-date': 1265 },
  },
};
