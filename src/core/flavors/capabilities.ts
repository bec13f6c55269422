// The one capability table: every server difference the product gates on lives here.
// MariaDB = MySQL + overrides, as the flavors really differ (see shared SERVERS.md / server-facts.md).

import { parseVersion, satisfies, type Version } from './version.js';

export type Flavor = 'mysql' | 'mariadb' | 'percona';

/** Features that differ by flavor and version. Keys are stable: the CLI JSON and UI read them. */
export interface Capabilities {
  /** `ADD INDEX ((expr))` — MySQL >= 8.0.13; MariaDB has no syntax (ERROR 1064). */
  functionalIndexes: boolean;
  /** Virtual generated columns that can be indexed — MySQL >= 5.7.8, MariaDB >= 10.2 */
  indexedVirtualColumns: boolean;
  /** The optimizer replaces `expr` by an indexed generated column with the same expression. MariaDB never does. */
  generatedColumnSubstitution: boolean;
  /** performance_schema.data_locks / data_lock_waits (MySQL >= 8.0.1). */
  dataLocks: boolean;
  /** information_schema.INNODB_LOCKS / INNODB_LOCK_WAITS (removed in MySQL 8.0). */
  innodbLockWaitsTables: boolean;
  /** EXPLAIN FORMAT=JSON */
  explainJson: boolean;
  /** EXPLAIN FORMAT=TREE (MySQL >= 8.0.16) */
  explainTree: boolean;
  /** EXPLAIN ANALYZE (MySQL >= 8.0.18); MariaDB's ANALYZE FORMAT=JSON is `analyzeFormatJson`. */
  explainAnalyze: boolean;
  /** MariaDB `ANALYZE FORMAT=JSON <stmt>` */
  analyzeFormatJson: boolean;
  /** `FOR UPDATE NOWAIT` (MySQL >= 8.0.1, MariaDB >= 10.3) */
  nowait: boolean;
  /** `FOR UPDATE SKIP LOCKED` (MySQL >= 8.0.1, MariaDB >= 10.6) */
  skipLocked: boolean;
  /** MariaDB `FOR UPDATE WAIT n` (>= 10.3) */
  waitN: boolean;
  /** Error a NOWAIT lock conflict raises: 3572 ER_LOCK_NOWAIT on MySQL, 1205 on MariaDB. */
  nowaitErrorCode: number | null;
  /** `FOR SHARE` syntax (MySQL >= 8.0.1) */
  forShare: boolean;
  /** `ALTER TABLE … ADD INDEX … INVISIBLE` (MySQL >= 8.0; MariaDB 10.6+ has IGNORED indexes instead) */
  invisibleIndexes: boolean;
  /** MariaDB `IGNORED` indexes (>= 10.6) */
  ignoredIndexes: boolean;
  /** `ADD INDEX IF NOT EXISTS` (MariaDB) */
  addIndexIfNotExists: boolean;
  /** The `->` / `->>` JSON operators (MySQL >= 5.7.9 / 5.7.13; MariaDB has neither). */
  jsonArrowOperators: boolean;
  /** MAX_EXECUTION_TIME optimizer hint (MySQL >= 5.7.8); MariaDB uses max_statement_time. */
  maxExecutionTimeHint: boolean;
  /** `SET STATEMENT max_statement_time=N FOR …` (MariaDB >= 10.1) */
  maxStatementTime: boolean;
  /** Adding a VIRTUAL column can be ALGORITHM=INSTANT (MySQL >= 8.0.12? we claim 8.0.29+ only where verified) */
  instantAddVirtualColumn: boolean;
  /** log_slow_extra (MySQL >= 8.0.14) */
  logSlowExtra: boolean;
  /** QUANTILE_95/99/999 in events_statements_summary_by_digest (MySQL >= 8.0.1, WL#5384 histograms; MariaDB has none). */
  digestQuantiles: boolean;
  /** QUERY_SAMPLE_TEXT in events_statements_summary_by_digest (MySQL >= 8.0.3; MariaDB has none). */
  digestQuerySample: boolean;
  /** A plain secondary index builds with `ALGORITHM=INPLACE, LOCK=NONE` (writes continue): MySQL >= 5.6, MariaDB >= 10.0. */
  onlineAddIndex: boolean;
  /** `ADD COLUMN IF NOT EXISTS`, `DROP INDEX IF EXISTS`, `DROP COLUMN IF EXISTS` (MariaDB >= 10.0; MySQL has none). */
  alterIfExists: boolean;
  /**
   * The optimizer itself turns `YEAR(col)` / `DATE(col)` compared with a constant by `=`, `<`, `<=`,
   * `>`, `>=` into a range on `col` (MariaDB >= 11.1, MDEV-8320; not for BETWEEN). Observed on 11.4.5.
   */
  sargableDateFunctions: boolean;
  /**
   * The optimizer turns `UPPER(col) = const` / `UCASE(col) = const` on a case-insensitive column into
   * `col = const` (MariaDB >= 11.3, MDEV-31496, optimizer_switch sargable_casefold; LOWER() is not). Observed on 11.4.5.
   */
  sargableCaseFold: boolean;
  /**
   * ONLY_FULL_GROUP_BY accepts columns functionally dependent on the GROUP BY columns (grouped PRIMARY/NOT
   * NULL UNIQUE key, `WHERE col = constant`, equalities): MySQL >= 5.7.5. MariaDB has none (verified 10.11).
   */
  functionalDependence: boolean;
  /** `GROUP BY a DESC` (ASC/DESC on GROUP BY items): removed in MySQL 8.0.13 (ERROR 1064); MariaDB accepts it. */
  groupByOrder: boolean;
}

/** One row of the table: a capability value that holds from a version gate on. */
interface Gate<K extends keyof Capabilities> {
  readonly key: K;
  readonly mysql: string | Capabilities[K];
  readonly mariadb?: string | Capabilities[K];
}

// A string value is a version gate (true when satisfied); anything else is the literal value.
// MariaDB inherits the MySQL row unless it overrides it.
const TABLE: readonly Gate<keyof Capabilities>[] = [
  { key: 'functionalIndexes', mysql: '>=8.0.13', mariadb: false },
  { key: 'indexedVirtualColumns', mysql: '>=5.7.8', mariadb: '>=10.2' },
  { key: 'generatedColumnSubstitution', mysql: '>=5.7.8', mariadb: false },
  { key: 'dataLocks', mysql: '>=8.0.1', mariadb: false },
  { key: 'innodbLockWaitsTables', mysql: '<8.0.1', mariadb: true },
  { key: 'explainJson', mysql: '>=5.6.5', mariadb: '>=10.1' },
  { key: 'explainTree', mysql: '>=8.0.16', mariadb: false },
  { key: 'explainAnalyze', mysql: '>=8.0.18', mariadb: false },
  { key: 'analyzeFormatJson', mysql: false, mariadb: '>=10.1' },
  { key: 'nowait', mysql: '>=8.0.1', mariadb: '>=10.3' },
  { key: 'skipLocked', mysql: '>=8.0.1', mariadb: '>=10.6' },
  { key: 'waitN', mysql: false, mariadb: '>=10.3' },
  { key: 'forShare', mysql: '>=8.0.1', mariadb: false },
  { key: 'invisibleIndexes', mysql: '>=8.0.0', mariadb: false },
  { key: 'ignoredIndexes', mysql: false, mariadb: '>=10.6' },
  { key: 'addIndexIfNotExists', mysql: false, mariadb: '>=10.0' },
  { key: 'jsonArrowOperators', mysql: '>=5.7.13', mariadb: false },
  { key: 'maxExecutionTimeHint', mysql: '>=5.7.8', mariadb: false },
  { key: 'maxStatementTime', mysql: false, mariadb: '>=10.1' },
  { key: 'instantAddVirtualColumn', mysql: '>=8.0.29', mariadb: '>=10.3' },
  { key: 'logSlowExtra', mysql: '>=8.0.14', mariadb: false },
  { key: 'digestQuantiles', mysql: '>=8.0.1', mariadb: false },
  { key: 'digestQuerySample', mysql: '>=8.0.3', mariadb: false },
  { key: 'onlineAddIndex', mysql: '>=5.6', mariadb: '>=10.0' },
  { key: 'alterIfExists', mysql: false, mariadb: '>=10.0' },
  { key: 'sargableDateFunctions', mysql: false, mariadb: '>=11.1' },
  { key: 'sargableCaseFold', mysql: false, mariadb: '>=11.3' },
  { key: 'functionalDependence', mysql: '>=5.7.5', mariadb: false },
  { key: 'groupByOrder', mysql: '<8.0.13', mariadb: true },
];

const NOWAIT_ERROR: Record<'mysql' | 'mariadb', number> = { mysql: 3572, mariadb: 1205 };

/** Derive every capability from flavor and version. Percona Server behaves as MySQL here. */
export function capabilitiesFor(flavor: Flavor, version: Version | string): Capabilities {
  const parsed = typeof version === 'string' ? parseVersion(version) : version;
  if (!parsed) throw new Error(`Unrecognised server version: ${String(version)}`);
  const family = flavor === 'mariadb' ? 'mariadb' : 'mysql';
  const result: Record<string, unknown> = {};
  for (const gate of TABLE) {
    const value = family === 'mariadb' && gate.mariadb !== undefined ? gate.mariadb : gate.mysql;
    result[gate.key] = typeof value === 'string' ? satisfies(parsed, value) : value;
  }
  result.nowaitErrorCode = result.nowait ? NOWAIT_ERROR[family] : null;
  return result as unknown as Capabilities;
}

/** Default target when nothing is known: the newest MySQL we test against. */
export const DEFAULT_TARGET = { flavor: 'mysql' as Flavor, version: '8.0.33' };
