// The digest's public types: the result of grouping slow-log events into pt-query-digest classes,
// its options, and the incremental aggregator's interface (implemented by createDigest in digest.ts).
import type { Metric, MetricSummary } from './metrics.js';
import type { SlowLogEvent, SlowLogSkip } from './parser.js';

/** Count of events with `Yes` for a Yes/No attribute (Filesort, Full_scan, Tmp_table, QC_hit…). */
export interface FlagSummary {
  yes: number;
  count: number;
}

/** One query class. Text fields are decoded for display (UTF-8, falling back to Latin-1). */
export interface DigestClass {
  /** pt-query-digest's class checksum (32 upper-case hex digits). */
  checksum: string;
  fingerprint: string;
  /** Events in the class, including those without Query_time (pt's `query_count`). */
  queryCount: number;
  queryTime: MetricSummary | undefined;
  lockTime: MetricSummary | undefined;
  rowsSent: MetricSummary | undefined;
  rowsExamined: MetricSummary | undefined;
  rowsAffected: MetricSummary | undefined;
  /**
   * Query_time distribution on pt-query-digest's report scale, one count per
   * {@link QUERY_TIME_BUCKETS} label (`1us` = below 10 µs, `10us` = 10-100 µs, …, `10s+`), summed
   * from the class's 1000 logarithmic buckets (so it merges exactly across segments and costs
   * nothing per event). Unlike pt's chart, values below 1 µs are counted in `1us`, so the counts
   * add up to `queryTime.count`. Undefined when the class has no Query_time.
   */
  queryTimeHistogram: number[] | undefined;
  /**
   * Numeric attributes by their log name (Created_tmp_tables, Tmp_disk_tables…): the
   * {@link REPORTED_ATTRIBUTES} and the ranking attribute, or every one with `attributes: 'all'`.
   */
  metrics: Record<string, MetricSummary>;
  /** Yes/No attributes by their log name, chosen like `metrics`. */
  flags: Record<string, FlagSummary>;
  /** Temporary tables, sorts and scans, from whichever fields the log has. */
  execution: ExecutionSummary;
  /** Timestamps as pt-query-digest prints them (`2007-12-18 11:48:27`, ISO kept to 19 chars). */
  firstSeen: string | undefined;
  lastSeen: string | undefined;
  schemas: string[];
  users: string[];
  hosts: string[];
  /** False when the class has no value for the ranking attribute (pt-query-digest omits it). */
  ranked: boolean;
  example: {
    sql: string;
    /** Query_time as written in the log (leading number only). */
    queryTime: string | undefined;
    ts: string | undefined;
    schema: string | undefined;
    line: number;
  };
}

/**
 * How a class's statements executed, read from the fields the log has (null when it has none):
 * MySQL 8.0 `log_slow_extra` (`Created_tmp_tables`, `Created_tmp_disk_tables`,
 * `Sort_scan_count` + `Sort_range_count`, `Read_rnd_next`), Percona Server (`Tmp_tables`,
 * `Tmp_disk_tables`, `Filesort`, `Full_scan`, `Full_join`) and MariaDB with
 * `log_slow_verbosity=query_plan` (`Tmp_table`, `Tmp_table_on_disk`, `Filesort`, `Full_scan`,
 * `Full_join`). Numeric fields are summed (tables created, sorts done); Yes/No fields count the
 * statements that said Yes.
 */
export interface ExecutionSummary {
  /** Internal temporary tables created (numeric fields) or statements that used one (Yes/No). */
  tmpTables: number | null;
  /** The same, on disk. */
  tmpDiskTables: number | null;
  /** Sorts done (MySQL: Sort_scan_count + Sort_range_count) or statements with a filesort. */
  filesorts: number | null;
  /**
   * Statements with a full table scan: `Full_scan: Yes`, or for MySQL (which has no such field)
   * statements that read rows by scanning (`Read_rnd_next` > 0, which scans of internal
   * temporary tables also count).
   */
  fullScans: number | null;
  /** Statements with a join that used no index (`Full_join: Yes`; MySQL logs have no such field). */
  fullJoins: number | null;
}

/** Totals over every aggregated event. */
export interface DigestGlobal {
  /** Events that carry Query_time (pt's `global.query_count`). */
  queryCount: number;
  /** All aggregated events, with or without Query_time. */
  events: number;
  /** Number of classes (pt's `unique_query_count`). */
  uniqueQueryCount: number;
  queryTime: MetricSummary | undefined;
  lockTime: MetricSummary | undefined;
  rowsSent: MetricSummary | undefined;
  rowsExamined: MetricSummary | undefined;
  firstSeen: string | undefined;
  lastSeen: string | undefined;
}

/** The digest of one or more logs. */
export interface DigestResult {
  global: DigestGlobal;
  classes: DigestClass[];
  skipped: SlowLogSkip[];
  /** Skips beyond `maxSkipped` are counted here but not listed. */
  skippedTotal: number;
  /**
   * With `lazy`: the ranked classes one at a time (`classes` is then empty), so that a caller
   * writing every class of a big digest never holds them all. Not structured-clonable.
   */
  eachClass?: () => Iterable<DigestClass>;
}

/** Options for {@link createDigest}. */
export interface DigestOptions {
  /** Distinct schemas/users/hosts kept per class. Default 100. */
  maxDistinctValues?: number;
  /** Skip records listed in the result. Default 1000. */
  maxSkipped?: number;
  /**
   * This digest reads a later part of a log whose earlier part another digest reads: events
   * before the first `db`/`ts` of the part inherit them from the earlier part, which is only
   * known when the parts are merged ({@link Digest.absorb}), so they are kept as pending.
   */
  segment?: boolean;
  /**
   * Which attributes to aggregate: `reported` (default) the {@link REPORTED_ATTRIBUTES} plus the
   * attribute of `orderBy`; `all` every attribute of the log, as pt-query-digest does.
   */
  attributes?: 'reported' | 'all';
  /** The ranking `result()` will be asked for (`attribute:function`); its attribute is aggregated. */
  orderBy?: string;
  /**
   * Compare times as pt-query-digest does (as strings; see docs/slowlog.md, "Where
   * pt-query-digest is wrong"). Default false: as times.
   */
  ptCompatible?: boolean;
}

/**
 * A digest's state, structured-clonable, to be merged into the digest of the part of the log
 * before it ({@link Digest.absorb}). Produced by {@link Digest.segment}.
 */
export interface DigestSegment {
  /** Which attributes the digest aggregated (`all`, or the names it kept, comma-separated). */
  aggregated: string;
  attributes: { name: string; type: AttributeType | undefined }[];
  /** Classes in the order they were first seen. */
  classes: ClassState[];
  /** By attribute index. */
  globals: (Metric | undefined)[];
  events: number;
  skipped: SlowLogSkip[];
  skippedTotal: number;
  /** The last `db`/`ts` the part set itself (undefined when it set none). */
  lastDb: string | undefined;
  lastTs: string | undefined;
  tsMin: string | undefined;
  tsMax: string | undefined;
  /** Some event had no `ts` of its own before the part's first one. */
  pendingTs: boolean;
}

/** Options for {@link Digest.result}. */
export interface DigestReportOptions {
  /** `attribute:function`, function one of sum|min|max|avg|cnt. Default `Query_time:sum`. */
  orderBy?: string;
  /** Keep the first N classes after ranking. */
  limit?: number;
  /** Leave `classes` empty and give `eachClass()` instead (see {@link DigestResult.eachClass}). */
  lazy?: boolean;
}

/** An incremental aggregator. */
export interface Digest {
  add(event: SlowLogEvent): void;
  addSkip(skip: SlowLogSkip): void;
  result(options?: DigestReportOptions): DigestResult;
  /** The state so far, for {@link Digest.absorb} (use a `segment: true` digest). */
  segment(): DigestSegment;
  /**
   * Merges the digest of the part of the log that directly follows what this digest has read
   * (starting at byte `at.offset`, line `at.line`), with the same result as if this digest had
   * read that part itself. Returns false, changing nothing, when that cannot be guaranteed (an
   * attribute typed differently by its first value in each part, or sums of values that are
   * not whole millionths on both sides); the caller then digests that part itself.
   */
  absorb(segment: DigestSegment, at: { offset: number; line: number }): boolean;
  readonly events: number;
  /** Distinct classes so far. */
  readonly classCount: number;
}

/** @internal */
export type AttributeType = 'num' | 'bool' | 'string';

/** @internal */
export interface ClassState {
  fingerprint: string;
  count: number;
  /** By attribute id. */
  metrics: (Metric | undefined)[];
  flags: (FlagSummary | undefined)[];
  /** Distinct values, see {@link Distinct}. */
  dbs: Distinct;
  users: Distinct;
  hosts: Distinct;
  tsMin: string | undefined;
  tsMax: string | undefined;
  maxOffset: number;
  sample: SampleEvent;
  /** Segment digests: some event of the class inherits `db` / `ts` from the earlier part. */
  pendingDb: boolean;
  pendingTs: boolean;
}

/** Distinct values of a class: an array while short, a Set once it holds SMALL_DISTINCT. */
type Distinct = string[] | Set<string>;

/** @internal A class's example: the last event with its largest Query_time. */
export interface SampleEvent {
  query: string;
  queryTime: string | undefined;
  ts: string | undefined;
  db: string | undefined;
  line: number;
  /** Segment digests: `db` / `ts` are inherited from the earlier part. */
  dbPending: boolean;
  tsPending: boolean;
}
