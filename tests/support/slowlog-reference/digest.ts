// Frozen reference copy (test only) of the pre-optimisation src/core: Groups slow-log events into pt-query-digest classes (by fingerprint) with its statistics.
/*
 * Design note
 * -----------
 * This is pt-query-digest 3.2.1's pipeline after parsing, for the default options
 * (`--group-by fingerprint --order-by Query_time:sum --inherit-attributes db,ts
 * --attribute-aliases db|Schema`):
 *
 *  1. fingerprint(query); events whose query is Perl-false were already dropped by the parser.
 *  2. `db` comes from `use db;`, else from `Schema:`; `db` and `ts` are inherited from the
 *     previous aggregated event when missing.
 *  3. Queries starting with `administrator` get Rows_sent/examined/read/affected = 0.
 *  4. EventAggregator: an attribute's type is fixed by its first value ever seen (number →
 *     num, `Yes`/`No` → bool, else string). Num attributes keep count/sum/min/max per class and
 *     globally, and a sparse copy of pt's 1000-bucket logarithmic histogram (ratio 1.05, from
 *     1 µs) for the median and 95th percentile, computed with its `_calc_metrics` algorithm so the
 *     printed values match. Bool attributes count `Yes`. Only the leading number of Query_time
 *     is used. The example is the *last* event with the class's largest Query_time.
 *
 * Bounded memory: per class we keep one example, sparse buckets for a fixed set of attributes
 * and at most `maxDistinctValues` schemas/users/hosts. Ranking is by `attribute:function`
 * (default Query_time:sum), descending; ties go to the class whose largest offset is larger as
 * a string (pt-query-digest 3.2.1's tiebreaker). Classes without the ranking attribute, which
 * pt-query-digest leaves out of its report, come last instead of disappearing.
 */
import { checksum, fingerprint, fingerprintKey } from './fingerprint.js';
import type { SlowLogEvent, SlowLogSkip } from './parser.js';
import { ATTRIBUTE_LINE_OP, ParsedSlowLogEvent, perlTruthy } from './parser.js';
import { binaryToDisplay, detach } from './text.js';

/** Statistics of one numeric attribute (seconds for *_time / *_wait, else counts). */
export interface MetricSummary {
  /** Number of events that carried the attribute. */
  count: number;
  sum: number;
  min: number;
  max: number;
  avg: number;
  /** pt-query-digest's bucketed median and 95th percentile (approximate by design). */
  median: number;
  p95: number;
}

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
  /** Every numeric attribute by its log name (Tmp_tables, Bytes_sent, InnoDB_IO_r_ops…). */
  metrics: Record<string, MetricSummary>;
  /** Every Yes/No attribute by its log name. */
  flags: Record<string, FlagSummary>;
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
}

/**
 * A digest's state, structured-clonable, to be merged into the digest of the part of the log
 * before it ({@link Digest.absorb}). Produced by {@link Digest.segment}.
 */
export interface DigestSegment {
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
}

/** @internal */
export type AttributeType = 'num' | 'bool' | 'string';

/** How the digest treats a property name. */
const enum Kind {
  Ignored = 0,
  Ts = 1,
  Db = 2,
  Schema = 3,
  User = 4,
  Host = 5,
  Attribute = 6,
}

interface Attribute {
  name: string;
  kind: Kind;
  bucketed: boolean;
  adminZeroed: boolean;
  /** Fixed by the first value ever seen (pt's EventAggregator), or forced. */
  type: AttributeType | undefined;
  /** `name:`, to confirm a predicted name in place. */
  nameColon: string;
  /** The attribute that followed this one last time on an attribute line, or -1. */
  next: number;
}

/**
 * count/sum/min/max of one attribute, plus pt's histogram for bucketed ones: a few
 * (index, count) pairs while the class is small, then a dense 1000-slot array.
 */
/** @internal */
export interface Metric {
  cnt: number;
  /**
   * The sum, kept so that it does not depend on the order values are added in (segments of a
   * file digested in parallel are merged by adding these): integer parts, millionths, and a
   * float for values that are not a whole number of millionths (`inexact` then).
   */
  sumInt: number;
  sumMicro: number;
  sumOther: number;
  inexact: boolean;
  min: number;
  max: number;
  bucketed: boolean;
  keys: number[] | undefined;
  counts: number[] | undefined;
  dense: Uint32Array | undefined;
}

/** @internal */
export interface ClassState {
  fingerprint: string;
  count: number;
  /** By attribute id. */
  metrics: (Metric | undefined)[];
  flags: (FlagSummary | undefined)[];
  dbs: Set<string>;
  users: Set<string>;
  hosts: Set<string>;
  tsMin: string | undefined;
  tsMax: string | undefined;
  maxOffset: number;
  sample: SampleEvent;
  /** Segment digests: some event of the class inherits `db` / `ts` from the earlier part. */
  pendingDb: boolean;
  pendingTs: boolean;
}

/** A class seen for the first time: no events counted yet, `sample` as its example. */
function newClass(fingerprint: string, maxOffset: number, sample: SampleEvent): ClassState {
  return {
    fingerprint,
    count: 0,
    metrics: [],
    flags: [],
    dbs: new Set(),
    users: new Set(),
    hosts: new Set(),
    tsMin: undefined,
    tsMax: undefined,
    maxOffset,
    sample,
    pendingDb: false,
    pendingTs: false,
  };
}

interface SampleEvent {
  query: string;
  queryTime: string | undefined;
  ts: string | undefined;
  db: string | undefined;
  line: number;
  /** Segment digests: `db` / `ts` are inherited from the earlier part. */
  dbPending: boolean;
  tsPending: boolean;
}

// pt-query-digest's --ignore-attributes default, plus the ones we report separately.
const IGNORED = new Set([
  'arg',
  'cmd',
  'insert_id',
  'ip',
  'port',
  'Thread_id',
  'timestamp',
  'exptime',
  'flags',
  'key',
  'res',
  'val',
  'server_id',
  'offset',
  'end_log_pos',
  'Xid',
  'bytes',
]);
const SPECIAL: Record<string, Kind> = {
  ts: Kind.Ts,
  db: Kind.Db,
  Schema: Kind.Schema,
  user: Kind.User,
  host: Kind.Host,
};
const FORCED_TYPE: Record<string, AttributeType> = { Killed: 'bool' };
const BUCKETED = new Set([
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Rows_affected',
  'Bytes_sent',
]);
const ADMIN_ZEROED = new Set(['Rows_sent', 'Rows_examined', 'Rows_read', 'Rows_affected']);
const NUMBER_VALUE = /^(?:\d+|[+-]?(?:(?=\d|[.])\d+(?:[.])\d{0,})(?:E[+-]?\d+)?)$/i;
const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;
const QUERY_TIME_PREFIX = /^(\d+(?:\.\d+)?)/;
const PERL_NUMBER = /^[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))/;
const MYSQL_TS = /^(\d\d)(\d\d)(\d\d) +(\d+):(\d+):(\d+)(\.\d+)?$/;
// Exact powers of ten: m / POW10[k] is the correctly rounded value of the decimal m·10^-k.
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

// pt-query-digest EventAggregator constants.
const BUCK_SIZE = 1.05;
const BASE_LOG = Math.log(BUCK_SIZE);
const BASE_OFFSET = Math.abs(1 - Math.log(0.000001) / BASE_LOG);
const NUM_BUCK = 1000;
const MIN_BUCK = 0.000001;
const BUCKET_VALUES: number[] = Array.from({ length: NUM_BUCK }, (_, i) =>
  i === 0 ? 0 : BUCK_SIZE ** (i - 1) * MIN_BUCK,
);
/** Distinct buckets a metric keeps as pairs before switching to the dense array. */
const SPARSE_BUCKETS = 24;

/** pt-query-digest's bucket index for a value. */
export function bucketIndex(value: number): number {
  if (value < MIN_BUCK) return 0;
  const idx = Math.trunc(BASE_OFFSET + Math.log(value) / BASE_LOG);
  return idx > NUM_BUCK - 1 ? NUM_BUCK - 1 : idx;
}

/** pt-query-digest's `_calc_metrics`: bucketed median and 95th percentile. */
export function bucketStatistics(
  buckets: ReadonlyMap<number, number>,
  count: number,
  min: number,
  max: number,
): { median: number; p95: number } {
  const indexes = [...buckets.keys()].sort((a, b) => b - a);
  return statisticsOf(
    indexes,
    indexes.map((i) => buckets.get(i) ?? 0),
    count,
    min,
    max,
  );
}

/** `_calc_metrics` over non-empty buckets given in descending index order. */
function statisticsOf(
  indexes: readonly number[],
  counts: readonly number[],
  count: number,
  min: number,
  max: number,
): { median: number; p95: number } {
  if (count === 0 || indexes.length === 0) return { median: 0, p95: 0 };
  if (count === 1 || max === min) return { median: max, p95: max };
  if (count === 2) return { median: (min + max) / 2, p95: max };
  const cutoff = count >= 10 ? Math.trunc(count * 0.95) : count;
  let totalLeft = count;
  const topValues = count - cutoff;
  let sumExcluded = 0;
  const mid = Math.trunc(count / 2);
  let median = 0;
  let prev = NUM_BUCK - 1;
  let bucket95 = 0;
  for (let k = 0; k < indexes.length; k++) {
    const bucket = indexes[k]!;
    const n = counts[k]!;
    if (!n) continue;
    totalLeft -= n;
    sumExcluded += n;
    if (!bucket95 && sumExcluded > topValues) bucket95 = bucket;
    if (!median && totalLeft <= mid) {
      median =
        cutoff % 2 || n > 1 ? BUCKET_VALUES[bucket]! : (BUCKET_VALUES[bucket]! + BUCKET_VALUES[prev]!) / 2;
    }
    prev = bucket;
  }
  return { median, p95: BUCKET_VALUES[bucket95]! };
}

/** pt-query-digest's `parse_timestamp`: `yymmdd h:mm:ss` → `20yy-mm-dd hh:mm:ss`; others unchanged. */
export function normalizeTimestamp(ts: string): string {
  const m = MYSQL_TS.exec(ts);
  if (!m) return ts;
  const two = (s: string | undefined): string => String(Number(s)).padStart(2, '0');
  const seconds = m[7] === undefined ? two(m[6]) : (Number(m[6]) + Number(m[7])).toFixed(6).padStart(9, '0');
  return `${Number(m[1]) + 2000}-${two(m[2])}-${two(m[3])} ${two(m[4])}:${two(m[5])}:${seconds}`;
}

function newMetric(bucketed: boolean, dense: boolean): Metric {
  return {
    cnt: 0,
    sumInt: 0,
    sumMicro: 0,
    sumOther: 0,
    inexact: false,
    min: Infinity,
    max: -Infinity,
    bucketed,
    keys: bucketed && !dense ? [] : undefined,
    counts: bucketed && !dense ? [] : undefined,
    dense: bucketed && dense ? new Uint32Array(NUM_BUCK) : undefined,
  };
}

function addValue(metric: Metric, value: number, bucket: number): void {
  metric.cnt++;
  const whole = Math.floor(value);
  if (whole === value) metric.sumInt += whole;
  else {
    // Updated with src (issue 21): every decimal of at most six fractional digits is counted
    // exactly, not only those below 1 (sum-exact.test.ts checks the sums against BigInt ones).
    const units = Math.round(value * 1e6);
    if (units / 1e6 === value && Math.abs(value) < 2 ** 33) {
      metric.sumInt += whole;
      metric.sumMicro += units - whole * 1e6;
    } else {
      metric.sumOther += value;
      metric.inexact = true;
    }
  }
  if (value < metric.min) metric.min = value;
  if (value > metric.max) metric.max = value;
  if (!metric.bucketed) return;
  const dense = metric.dense;
  if (dense !== undefined) {
    dense[bucket]!++;
    return;
  }
  const keys = metric.keys!;
  const counts = metric.counts!;
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] === bucket) {
      counts[k]!++;
      return;
    }
  }
  if (keys.length < SPARSE_BUCKETS) {
    keys.push(bucket);
    counts.push(1);
    return;
  }
  const array = new Uint32Array(NUM_BUCK);
  for (let k = 0; k < keys.length; k++) array[keys[k]!] = counts[k]!;
  array[bucket]!++;
  metric.dense = array;
  metric.keys = undefined;
  metric.counts = undefined;
}

/** The sum of a metric's values (the same whatever order they were added in, unless `inexact`). */
function sumOf(metric: Metric): number {
  const units = metric.sumInt * 1e6 + metric.sumMicro;
  const exact = Number.isSafeInteger(units) ? units / 1e6 : metric.sumInt + metric.sumMicro / 1e6;
  return exact + metric.sumOther;
}

/** Adds `n` values that fell in `bucket` to a bucketed metric's histogram. */
function addBucket(metric: Metric, bucket: number, n: number): void {
  const dense = metric.dense;
  if (dense !== undefined) {
    dense[bucket]! += n;
    return;
  }
  const keys = metric.keys!;
  const counts = metric.counts!;
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] === bucket) {
      counts[k]! += n;
      return;
    }
  }
  if (keys.length < SPARSE_BUCKETS) {
    keys.push(bucket);
    counts.push(n);
    return;
  }
  const array = new Uint32Array(NUM_BUCK);
  for (let k = 0; k < keys.length; k++) array[keys[k]!] = counts[k]!;
  array[bucket]! += n;
  metric.dense = array;
  metric.keys = undefined;
  metric.counts = undefined;
}

/** Whether two metrics can be merged without depending on the order of their values. */
function mergeable(into: Metric | undefined, from: Metric | undefined): boolean {
  return !(into?.inexact && from?.inexact);
}

/** Adds `from`'s values to `into` (a new metric when undefined); returns the result. */
function mergeMetric(into: Metric | undefined, from: Metric, dense: boolean): Metric {
  const target = into ?? newMetric(from.bucketed, dense);
  target.cnt += from.cnt;
  target.sumInt += from.sumInt;
  target.sumMicro += from.sumMicro;
  target.sumOther += from.sumOther;
  target.inexact ||= from.inexact;
  if (from.min < target.min) target.min = from.min;
  if (from.max > target.max) target.max = from.max;
  if (target.bucketed) {
    if (from.dense) {
      for (let i = 0; i < NUM_BUCK; i++) if (from.dense[i]) addBucket(target, i, from.dense[i]!);
    } else {
      for (let k = 0; k < from.keys!.length; k++) addBucket(target, from.keys![k]!, from.counts![k]!);
    }
  }
  return target;
}

function summarize(metric: Metric | undefined): MetricSummary | undefined {
  if (!metric || metric.cnt === 0) return undefined;
  let stats = { median: Number.NaN, p95: Number.NaN };
  if (metric.bucketed) {
    const indexes: number[] = [];
    const counts: number[] = [];
    if (metric.dense) {
      for (let i = NUM_BUCK - 1; i >= 0; i--) {
        const n = metric.dense[i]!;
        if (n) {
          indexes.push(i);
          counts.push(n);
        }
      }
    } else {
      const order = metric.keys!.map((key, k) => k).sort((a, b) => metric.keys![b]! - metric.keys![a]!);
      for (const k of order) {
        indexes.push(metric.keys![k]!);
        counts.push(metric.counts![k]!);
      }
    }
    stats = statisticsOf(indexes, counts, metric.cnt, metric.min, metric.max);
  }
  return {
    count: metric.cnt,
    sum: sumOf(metric),
    min: metric.min,
    max: metric.max,
    avg: sumOf(metric) / metric.cnt,
    median: stats.median,
    p95: stats.p95,
  };
}

function parseOrderBy(orderBy: string): { attribute: string; fn: string } {
  const [attribute = 'Query_time', fn = 'sum'] = orderBy.split(':');
  if (!['sum', 'min', 'max', 'avg', 'cnt'].includes(fn)) {
    throw new RangeError(`--order-by function must be sum, min, max, avg or cnt, not "${fn}"`);
  }
  return { attribute, fn };
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13); // space \t \n \v \f \r
}

/** A compiled attribute-line shape: capture k is the value of attribute `ids[k-1]`. */
interface LineTemplate {
  regex: RegExp;
  ids: number[];
}
const MAX_TEMPLATES = 64;
// Perl's \s and \S on byte strings (JS \s would also match U+00A0).
const SPACE = '[ \\t\\n\\r\\f\\v]';
const NON_SPACE = '[^ \\t\\n\\r\\f\\v]';

/**
 * The value of a plain decimal `\d+(\.\d+)?` of up to 15 digits (exactly `Number(text)`:
 * an integer below 2^53 divided by an exact power of ten is correctly rounded), else -1.
 */
function plainDecimal(text: string): number {
  const n = text.length;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && point < 0 && digits > 0) point = digits;
    else return -1;
  }
  if (digits === 0 || digits > 15 || point === digits) return -1;
  return point < 0 ? mantissa : mantissa / POW10[digits - point]!;
}

/** Removes the backticks pt-query-digest strips from `use \`db\``. */
function stripBackticks(db: string): string {
  return db.charCodeAt(0) === 96 || db.endsWith('`') ? db.replace(/^`|`$/g, '') : db;
}

/** Queries whose fingerprints are cached, at most; the cache is cleared when full. */
const FINGERPRINT_CACHE_SIZE = 20_000;

/** Creates an incremental pt-query-digest-compatible aggregator. */
export function createDigest(options: DigestOptions = {}): Digest {
  const segmentMode = options.segment === true;
  let sawDb = false;
  let sawTs = false;
  let pendingTs = false;
  const maxDistinct = options.maxDistinctValues ?? 100;
  const maxSkipped = options.maxSkipped ?? 1000;
  const attributeIds = new Map<string, number>();
  const attributes: Attribute[] = [];
  // Open-addressed (by name hash) cache of attribute ids for the attribute-line scanner.
  const nameSlots = new Int32Array(4096);
  const classes = new Map<string, ClassState>();
  const globals: (Metric | undefined)[] = [];
  const fingerprints = new Map<string, string>();
  const skipped: SlowLogSkip[] = [];
  let skippedTotal = 0;
  let events = 0;
  let lastDb: string | undefined;
  let lastTs: string | undefined;
  let lastTsRaw: string | undefined;
  let lastTsNorm: string | undefined;
  let tsMin: string | undefined;
  let tsMax: string | undefined;

  // Per-event scratch: the final value of every attribute the event carries (later wins).
  let stamp = 0;
  let stamps = new Int32Array(64);
  let numbers = new Float64Array(64);
  let numeric = new Uint8Array(64);
  const raws: (string | undefined)[] = [];
  const present: number[] = [];
  let evTs: string | undefined;
  let evDb: string | undefined;
  let evSchema: string | undefined;
  let evUser: string | undefined;
  let evHost: string | undefined;

  function resetEvent(): void {
    stamp++;
    present.length = 0;
    evTs = undefined;
    evDb = undefined;
    evSchema = undefined;
    evUser = undefined;
    evHost = undefined;
  }

  function idOf(name: string): number {
    let id = attributeIds.get(name);
    if (id === undefined) {
      id = attributes.length;
      attributes.push({
        name,
        kind: IGNORED.has(name) ? Kind.Ignored : (SPECIAL[name] ?? Kind.Attribute),
        bucketed: BUCKETED.has(name),
        adminZeroed: ADMIN_ZEROED.has(name),
        type: FORCED_TYPE[name],
        nameColon: `${name}:`,
        next: -1,
      });
      attributeIds.set(name, id);
      if (id >= stamps.length) {
        const size = stamps.length * 2;
        const grownStamps = new Int32Array(size);
        grownStamps.set(stamps);
        stamps = grownStamps;
        const grownNumbers = new Float64Array(size);
        grownNumbers.set(numbers);
        numbers = grownNumbers;
        const grownNumeric = new Uint8Array(size);
        grownNumeric.set(numeric);
        numeric = grownNumeric;
      }
    }
    return id;
  }
  const queryTimeId = idOf('Query_time');

  /** Records `name: raw` for the current event. */
  function setRaw(id: number, raw: string): void {
    const attribute = attributes[id]!;
    switch (attribute.kind) {
      case Kind.Ignored:
        return;
      case Kind.Ts:
        evTs = raw;
        return;
      case Kind.Db:
        evDb = raw;
        return;
      case Kind.Schema:
        evSchema = raw;
        return;
      case Kind.User:
        evUser = raw;
        return;
      case Kind.Host:
        evHost = raw;
        return;
      default:
        if (stamps[id] !== stamp) {
          stamps[id] = stamp;
          present.push(id);
        }
        raws[id] = raw;
        numeric[id] = 0;
    }
  }

  // What the last scanAttributeLine call saw, to learn a line template from it.
  const scannedIds: number[] = [];
  let scannedFirst = -1;
  let scannedEmpty = false;
  // Line templates by the text before the line's first colon; see readAttributeLine.
  let templates = new Map<string, LineTemplate[]>();
  let templateCount = 0;

  /** Records one `name: value` pair read through a template. */
  function setPair(id: number, value: string): void {
    const attribute = attributes[id]!;
    if (attribute.kind !== Kind.Attribute) {
      if (attribute.kind !== Kind.Ignored) setRaw(id, value);
      return;
    }
    if (stamps[id] !== stamp) {
      stamps[id] = stamp;
      present.push(id);
    }
    const number = plainDecimal(value);
    if (number >= 0) {
      numeric[id] = 1;
      numbers[id] = number;
      raws[id] = id === queryTimeId ? value : undefined;
    } else {
      numeric[id] = 0;
      raws[id] = value;
    }
  }

  /**
   * An attribute line. Lines of one log repeat a few shapes (MySQL 8's 27 `log_slow_extra`
   * pairs, MariaDB's `Thread_id/Schema/QC_hit` line…) with different values, so after scanning
   * a line once we compile its shape to a regex, `^prefix N1:\s+(\S+)\s+N2:\s+(\S+)…\s*$`,
   * and later lines of that shape are read by one native match. A line that matches the
   * template has exactly the template's pairs under Perl's `m/(\w+):\s+(\S+|\Z)/g` (the prefix
   * holds no pair, each name starts after whitespace and ends at its colon, each value is a
   * whole non-space run), so both paths give the same pairs.
   */
  function readAttributeLine(text: string): void {
    const colon = text.indexOf(':');
    const key = colon < 0 ? text : text.slice(0, colon);
    const list = templates.get(key);
    if (list !== undefined) {
      for (const template of list) {
        const m = template.regex.exec(text);
        if (m !== null) {
          const ids = template.ids;
          for (let k = 0; k < ids.length; k++) setPair(ids[k]!, m[k + 1]!);
          return;
        }
      }
    }
    scanAttributeLine(text);
    if (scannedFirst < 0 || scannedEmpty || scannedIds.length > 64) return;
    const template = compileTemplate(text.slice(0, scannedFirst), scannedIds);
    if (template.regex.exec(text) === null) return; // e.g. trailing text that is not a pair
    if (templateCount >= MAX_TEMPLATES) {
      templates = new Map();
      templateCount = 0;
    }
    templateCount++;
    if (list !== undefined) list.push(template);
    else templates.set(key, [template]);
  }

  function compileTemplate(prefix: string, ids: readonly number[]): LineTemplate {
    let source = `^${prefix.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}`;
    ids.forEach((id, k) => {
      source += `${k === 0 ? '' : `${SPACE}+`}${attributes[id]!.name}:${SPACE}+(${NON_SPACE}+)`;
    });
    return { regex: new RegExp(`${source}${SPACE}*$`), ids: [...ids] };
  }

  /**
   * Every `Name: value` pair of an attribute line, as the parser's `readAttributePairs` reads
   * them (Perl's `m/(\w+):\s+(\S+|\Z)/g`), without building strings for names or for plain
   * decimal values: those are parsed in place (`m / 10^k`, exact for up to 15 digits).
   */
  function scanAttributeLine(text: string): void {
    const n = text.length;
    let i = 0;
    scannedIds.length = 0;
    scannedFirst = -1;
    scannedEmpty = false;
    let previous = -1;
    let predicted = -1;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (!isWordChar(c)) {
        i++;
        continue;
      }
      let id: number;
      let j: number;
      // Lines of one log repeat the same names in the same order: try the name that followed
      // the previous one last time before hashing the word.
      const guess = predicted >= 0 ? attributes[predicted]! : undefined;
      if (
        guess !== undefined &&
        text.startsWith(guess.nameColon, i) &&
        (j = i + guess.name.length) + 1 < n &&
        isSpace(text.charCodeAt(j + 1))
      ) {
        id = predicted;
      } else {
        let hash = c;
        j = i + 1;
        while (j < n && isWordChar((c = text.charCodeAt(j)))) {
          hash = (Math.imul(hash, 31) + c) | 0;
          j++;
        }
        if (!(j + 1 < n && text.charCodeAt(j) === 58 /* : */ && isSpace(text.charCodeAt(j + 1)))) {
          i = j;
          continue;
        }
        // Attribute id: hash slot, confirmed by comparing the name in place.
        const slot = hash & 4095;
        id = nameSlots[slot]! - 1;
        const known = id >= 0 ? attributes[id]!.name : undefined;
        if (known === undefined || known.length !== j - i || !text.startsWith(known, i)) {
          id = idOf(text.slice(i, j));
          nameSlots[slot] = id + 1;
        }
      }
      if (previous >= 0) attributes[previous]!.next = id;
      previous = id;
      if (scannedFirst < 0) scannedFirst = i;
      scannedIds.push(id);
      predicted = attributes[id]!.next;
      let k = j + 2;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      let v = k;
      let mantissa = 0;
      let digits = 0;
      let point = -1;
      let plain = true;
      while (v < n) {
        c = text.charCodeAt(v);
        if (isSpace(c)) break;
        if (c >= 48 && c <= 57) {
          mantissa = mantissa * 10 + (c - 48);
          digits++;
        } else if (c === 46 /* . */ && point < 0 && digits > 0) point = digits;
        else plain = false;
        v++;
      }
      if (v === k) scannedEmpty = true;
      const attribute = attributes[id]!;
      if (attribute.kind === Kind.Attribute) {
        if (stamps[id] !== stamp) {
          stamps[id] = stamp;
          present.push(id);
        }
        if (plain && digits > 0 && digits <= 15 && point !== digits) {
          numeric[id] = 1;
          numbers[id] = point < 0 ? mantissa : mantissa / POW10[digits - point]!;
          raws[id] = id === queryTimeId ? text.slice(k, v) : undefined;
        } else {
          numeric[id] = 0;
          raws[id] = text.slice(k, v);
        }
      } else if (attribute.kind !== Kind.Ignored) {
        setRaw(id, text.slice(k, v));
      }
      i = v;
    }
  }

  function typeOf(attribute: Attribute, raw: string | undefined): AttributeType {
    // `raw` is undefined for values already read as plain decimals, which are numbers.
    return (attribute.type ??=
      raw === undefined || NUMBER_VALUE.test(raw)
        ? 'num'
        : raw === 'Yes' || raw === 'No'
          ? 'bool'
          : 'string');
  }

  function fingerprintOf(query: string): string {
    const key = fingerprintKey(query);
    if (key === undefined) return fingerprint(query);
    let fp = fingerprints.get(key);
    if (fp === undefined) {
      if (fingerprints.size >= FINGERPRINT_CACHE_SIZE) fingerprints.clear();
      fp = detach(fingerprint(key));
      fingerprints.set(detach(key), fp);
    }
    return fp;
  }

  function add(event: SlowLogEvent): void {
    if (!perlTruthy(event.query)) return;
    events++;
    resetEvent();
    if (event instanceof ParsedSlowLogEvent) {
      const ops = event.ops;
      for (let i = 0; i + 1 < ops.length; i += 2) {
        const op = ops[i]!;
        if (op === ATTRIBUTE_LINE_OP) readAttributeLine(ops[i + 1] as string);
        else setRaw(idOf(op), ops[i + 1] as string);
      }
    } else {
      const props = event.properties;
      for (const name in props) setRaw(idOf(name), props[name]!);
    }
    let fp = fingerprintOf(event.query);

    let db = evDb ?? evSchema;
    let dbPending = false;
    if (db !== undefined) {
      lastDb = db;
      sawDb = true;
    } else {
      db = lastDb;
      dbPending = segmentMode && !sawDb;
    }
    let ts = evTs;
    let tsPending = false;
    if (ts !== undefined) {
      lastTs = ts;
      sawTs = true;
    } else {
      ts = lastTs;
      tsPending = segmentMode && !sawTs;
      if (tsPending) pendingTs = true;
    }
    let tsNorm: string | undefined;
    if (ts !== undefined) {
      if (ts !== lastTsRaw) {
        lastTsRaw = ts;
        lastTsNorm = detach(normalizeTimestamp(ts));
      }
      tsNorm = lastTsNorm;
    }
    const adminZero = event.query.startsWith('administrator');

    let state = classes.get(fp);
    if (!state) {
      fp = detach(fp);
      db = db === undefined ? undefined : detach(db);
      state = newClass(fp, event.offset, {
        query: detach(event.query),
        queryTime: undefined,
        ts: tsNorm,
        db,
        line: event.line,
        dbPending,
        tsPending,
      });
      classes.set(fp, state);
    }
    state.count++;
    if (dbPending) state.pendingDb = true;
    if (tsPending) state.pendingTs = true;
    if (event.offset > state.maxOffset) state.maxOffset = event.offset;
    if (tsNorm !== undefined) {
      if (state.tsMin === undefined || tsNorm < state.tsMin) state.tsMin = tsNorm;
      if (state.tsMax === undefined || tsNorm > state.tsMax) state.tsMax = tsNorm;
      if (tsMin === undefined || tsNorm < tsMin) tsMin = tsNorm;
      if (tsMax === undefined || tsNorm > tsMax) tsMax = tsNorm;
    }
    if (db !== undefined) addDistinct(state.dbs, stripBackticks(db));
    if (evUser !== undefined) addDistinct(state.users, evUser);
    if (evHost !== undefined) addDistinct(state.hosts, evHost);

    for (let p = 0; p < present.length; p++) {
      const id = present[p]!;
      const attribute = attributes[id]!;
      let raw = raws[id];
      let isNumeric = numeric[id] === 1;
      let value = numbers[id]!;
      if (adminZero && attribute.adminZeroed) {
        raw = '0';
        isNumeric = true;
        value = 0;
      }
      const type = typeOf(attribute, isNumeric ? undefined : raw);
      if (type === 'num') {
        if (!isNumeric) {
          const text = raw!;
          if (id === queryTimeId) {
            const m = QUERY_TIME_PREFIX.exec(text);
            if (m) raw = m[1]!;
            value = m ? Number(raw) : Number.NaN;
          } else if (PLAIN_NUMBER.test(text)) value = Number(text);
          else {
            const m = PERL_NUMBER.exec(text);
            value = m ? Number(m[1]) : Number.NaN;
          }
          if (Number.isNaN(value)) continue;
        }
        const bucket = attribute.bucketed ? bucketIndex(value) : 0;
        let metric = state.metrics[id];
        if (!metric) state.metrics[id] = metric = newMetric(attribute.bucketed, false);
        addValue(metric, value, bucket);
        let global = globals[id];
        if (!global) globals[id] = global = newMetric(attribute.bucketed, true);
        addValue(global, value, bucket);
        if (id === queryTimeId && value >= metric.max) {
          state.sample = {
            query: detach(event.query),
            queryTime: raw === undefined ? undefined : detach(raw),
            ts: tsNorm === undefined ? undefined : detach(tsNorm),
            db: db === undefined ? undefined : detach(db),
            line: event.line,
            dbPending,
            tsPending,
          };
        }
      } else if (type === 'bool') {
        let flag = state.flags[id];
        if (!flag) state.flags[id] = flag = { yes: 0, count: 0 };
        flag.count++;
        if (!isNumeric && raw === 'Yes') flag.yes++;
      }
    }
  }

  function addDistinct(set: Set<string>, value: string): void {
    if (!set.has(value) && set.size < maxDistinct) set.add(detach(value));
  }

  function rankValue(state: ClassState, attribute: string, fn: string): number | undefined {
    if (attribute === 'query_count' || attribute === 'count') return state.count;
    const id = attributeIds.get(attribute);
    const metric = id === undefined ? undefined : state.metrics[id];
    if (!metric || metric.cnt === 0) return undefined;
    switch (fn) {
      case 'min':
        return metric.min;
      case 'max':
        return metric.max;
      case 'avg':
        return sumOf(metric) / metric.cnt;
      case 'cnt':
        return metric.cnt;
      default:
        return sumOf(metric);
    }
  }

  function toClass(state: ClassState, ranked: boolean): DigestClass {
    const metrics: Record<string, MetricSummary> = {};
    state.metrics.forEach((metric, id) => {
      const summary = summarize(metric);
      if (summary) metrics[attributes[id]!.name] = summary;
    });
    const flags: Record<string, FlagSummary> = {};
    state.flags.forEach((flag, id) => {
      if (flag) flags[attributes[id]!.name] = { ...flag };
    });
    const sample = state.sample;
    return {
      checksum: checksum(state.fingerprint),
      fingerprint: binaryToDisplay(state.fingerprint),
      queryCount: state.count,
      queryTime: metrics.Query_time,
      lockTime: metrics.Lock_time,
      rowsSent: metrics.Rows_sent,
      rowsExamined: metrics.Rows_examined,
      rowsAffected: metrics.Rows_affected,
      metrics,
      flags,
      firstSeen: state.tsMin,
      lastSeen: state.tsMax,
      schemas: [...state.dbs].map(binaryToDisplay).sort(),
      users: [...state.users].map(binaryToDisplay).sort(),
      hosts: [...state.hosts].map(binaryToDisplay).sort(),
      ranked,
      example: {
        sql: binaryToDisplay(sample.query),
        queryTime: sample.queryTime,
        ts: sample.ts,
        schema: sample.db === undefined ? undefined : binaryToDisplay(stripBackticks(sample.db)),
        line: sample.line,
      },
    };
  }

  function globalOf(name: string): Metric | undefined {
    const id = attributeIds.get(name);
    return id === undefined ? undefined : globals[id];
  }

  function result(report: DigestReportOptions = {}): DigestResult {
    const { attribute, fn } = parseOrderBy(report.orderBy ?? 'Query_time:sum');
    const ranked: { state: ClassState; value: number | undefined }[] = [];
    for (const state of classes.values()) {
      ranked.push({ state, value: rankValue(state, attribute, fn) });
    }
    ranked.sort((a, b) => {
      if (a.value === undefined || b.value === undefined) {
        return a.value === b.value ? 0 : a.value === undefined ? 1 : -1;
      }
      if (a.value !== b.value) return b.value - a.value;
      const ao = String(a.state.maxOffset);
      const bo = String(b.state.maxOffset);
      return ao === bo ? 0 : ao < bo ? 1 : -1;
    });
    const limited = report.limit === undefined ? ranked : ranked.slice(0, report.limit);
    const out: DigestClass[] = limited.map(({ state, value }) => toClass(state, value !== undefined));
    return {
      global: {
        queryCount: globalOf('Query_time')?.cnt ?? 0,
        events,
        uniqueQueryCount: classes.size,
        queryTime: summarize(globalOf('Query_time')),
        lockTime: summarize(globalOf('Lock_time')),
        rowsSent: summarize(globalOf('Rows_sent')),
        rowsExamined: summarize(globalOf('Rows_examined')),
        firstSeen: tsMin,
        lastSeen: tsMax,
      },
      classes: out,
      skipped: [...skipped],
      skippedTotal,
    };
  }

  function segment(): DigestSegment {
    return {
      attributes: attributes.map((attribute) => ({ name: attribute.name, type: attribute.type })),
      classes: [...classes.values()],
      globals,
      events,
      skipped,
      skippedTotal,
      lastDb: sawDb ? lastDb : undefined,
      lastTs: sawTs ? lastTs : undefined,
      tsMin,
      tsMax,
      pendingTs,
    };
  }

  function absorb(part: DigestSegment, at: { offset: number; line: number }): boolean {
    // Check first, so that a refusal changes nothing.
    const ids = part.attributes.map((attribute) => attributeIds.get(attribute.name));
    for (let k = 0; k < part.attributes.length; k++) {
      const theirs = part.attributes[k]!.type;
      const id = ids[k];
      const ours = id === undefined ? undefined : attributes[id]!.type;
      if (theirs !== undefined && ours !== undefined && theirs !== ours) return false;
      if (id !== undefined && !mergeable(globals[id], part.globals[k])) return false;
    }
    for (const theirs of part.classes) {
      const ours = classes.get(theirs.fingerprint);
      if (!ours) continue;
      for (let k = 0; k < theirs.metrics.length; k++) {
        const id = ids[k];
        if (id !== undefined && !mergeable(ours.metrics[id], theirs.metrics[k])) return false;
      }
    }

    const idOfPart = part.attributes.map((attribute, k) => {
      const id = idOf(attribute.name);
      attributes[id]!.type ??= part.attributes[k]!.type;
      return id;
    });
    const lineDelta = at.line - 1;
    const inheritedDb = lastDb;
    const inheritedTs = lastTs === undefined ? undefined : detach(normalizeTimestamp(lastTs));
    const seeTs = (state: ClassState | undefined, ts: string | undefined): void => {
      if (ts === undefined) return;
      if (state) {
        if (state.tsMin === undefined || ts < state.tsMin) state.tsMin = ts;
        if (state.tsMax === undefined || ts > state.tsMax) state.tsMax = ts;
      } else {
        if (tsMin === undefined || ts < tsMin) tsMin = ts;
        if (tsMax === undefined || ts > tsMax) tsMax = ts;
      }
    };
    const resolve = (sample: SampleEvent): SampleEvent => ({
      ...sample,
      db: sample.dbPending ? inheritedDb : sample.db,
      ts: sample.tsPending ? inheritedTs : sample.ts,
      line: sample.line + lineDelta,
      dbPending: false,
      tsPending: false,
    });
    const partQueryTime = part.attributes.findIndex((attribute) => attribute.name === 'Query_time');
    for (const theirs of part.classes) {
      let state = classes.get(theirs.fingerprint);
      if (!state) {
        state = newClass(theirs.fingerprint, theirs.maxOffset + at.offset, resolve(theirs.sample));
        classes.set(state.fingerprint, state);
      } else {
        // The example is the last event with the largest Query_time.
        const mine = state.metrics[queryTimeId];
        const their = partQueryTime < 0 ? undefined : theirs.metrics[partQueryTime];
        if (their && their.cnt > 0 && (!mine || mine.cnt === 0 || their.max >= mine.max)) {
          state.sample = resolve(theirs.sample);
        }
      }
      state.count += theirs.count;
      state.maxOffset = Math.max(state.maxOffset, theirs.maxOffset + at.offset);
      if (theirs.pendingTs) seeTs(state, inheritedTs);
      seeTs(state, theirs.tsMin);
      seeTs(state, theirs.tsMax);
      if (theirs.pendingDb && inheritedDb !== undefined) addDistinct(state.dbs, stripBackticks(inheritedDb));
      for (const value of theirs.dbs) addDistinct(state.dbs, value);
      for (const value of theirs.users) addDistinct(state.users, value);
      for (const value of theirs.hosts) addDistinct(state.hosts, value);
      theirs.metrics.forEach((metric, k) => {
        if (!metric) return;
        const id = idOfPart[k]!;
        state.metrics[id] = mergeMetric(state.metrics[id], metric, false);
      });
      theirs.flags.forEach((flag, k) => {
        if (!flag) return;
        const id = idOfPart[k]!;
        const mine = (state.flags[id] ??= { yes: 0, count: 0 });
        mine.yes += flag.yes;
        mine.count += flag.count;
      });
    }
    part.globals.forEach((metric, k) => {
      if (!metric) return;
      const id = idOfPart[k]!;
      globals[id] = mergeMetric(globals[id], metric, true);
    });
    events += part.events;
    if (part.pendingTs) seeTs(undefined, inheritedTs);
    seeTs(undefined, part.tsMin);
    seeTs(undefined, part.tsMax);
    for (const skip of part.skipped) {
      if (skipped.length >= maxSkipped) break;
      skipped.push({ ...skip, line: skip.line + lineDelta, offset: skip.offset + at.offset });
    }
    skippedTotal += part.skippedTotal;
    if (part.lastDb !== undefined) {
      lastDb = part.lastDb;
      sawDb = true;
    }
    if (part.lastTs !== undefined) {
      lastTs = part.lastTs;
      sawTs = true;
    }
    return true;
  }

  return {
    add,
    segment,
    absorb,
    addSkip(skip: SlowLogSkip): void {
      skippedTotal++;
      if (skipped.length < maxSkipped) skipped.push(skip);
    },
    result,
    get events(): number {
      return events;
    },
  };
}
