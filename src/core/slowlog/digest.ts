// Groups slow-log events into pt-query-digest classes (by fingerprint) with its statistics.
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
import { checksum, fingerprint } from '../fingerprint/fingerprint.js';
import type { SlowLogEvent, SlowLogSkip } from './parser.js';
import { perlTruthy } from './parser.js';
import { binaryToDisplay } from './text.js';

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
  readonly events: number;
}

type AttributeType = 'num' | 'bool' | 'string';

interface Metric {
  cnt: number;
  sum: number;
  min: number;
  max: number;
  buckets: Map<number, number> | undefined;
}

interface ClassState {
  fingerprint: string;
  count: number;
  metrics: Map<string, Metric>;
  flags: Map<string, FlagSummary>;
  dbs: Set<string>;
  users: Set<string>;
  hosts: Set<string>;
  tsMin: string | undefined;
  tsMax: string | undefined;
  maxOffset: number;
  sample: SampleEvent;
}

interface SampleEvent {
  query: string;
  queryTime: string | undefined;
  ts: string | undefined;
  db: string | undefined;
  line: number;
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
  'ts',
  'db',
  'Schema',
  'user',
  'host',
  'bytes',
]);
const FORCED_TYPE: Record<string, AttributeType> = { Killed: 'bool' };
const BUCKETED = new Set([
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Rows_affected',
  'Bytes_sent',
]);
const NUMBER_VALUE = /^(?:\d+|[+-]?(?:(?=\d|[.])\d+(?:[.])\d{0,})(?:E[+-]?\d+)?)$/i;
const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;
const QUERY_TIME_PREFIX = /^(\d+(?:\.\d+)?)/;
const PERL_NUMBER = /^[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))/;
const MYSQL_TS = /^(\d\d)(\d\d)(\d\d) +(\d+):(\d+):(\d+)(\.\d+)?$/;
const ADMIN_ZEROED = ['Rows_sent', 'Rows_examined', 'Rows_read', 'Rows_affected'];

// pt-query-digest EventAggregator constants.
const BUCK_SIZE = 1.05;
const BASE_LOG = Math.log(BUCK_SIZE);
const BASE_OFFSET = Math.abs(1 - Math.log(0.000001) / BASE_LOG);
const NUM_BUCK = 1000;
const MIN_BUCK = 0.000001;
const BUCKET_VALUES: number[] = Array.from({ length: NUM_BUCK }, (_, i) =>
  i === 0 ? 0 : BUCK_SIZE ** (i - 1) * MIN_BUCK,
);

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
  if (count === 0 || buckets.size === 0) return { median: 0, p95: 0 };
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
  const indexes = [...buckets.keys()].sort((a, b) => b - a);
  for (const bucket of indexes) {
    const n = buckets.get(bucket) ?? 0;
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

function newMetric(bucketed: boolean): Metric {
  return {
    cnt: 0,
    sum: 0,
    min: Infinity,
    max: -Infinity,
    buckets: bucketed ? new Map() : undefined,
  };
}

function addValue(metric: Metric, value: number): void {
  metric.cnt++;
  metric.sum += value;
  if (value < metric.min) metric.min = value;
  if (value > metric.max) metric.max = value;
  if (metric.buckets) {
    const idx = bucketIndex(value);
    metric.buckets.set(idx, (metric.buckets.get(idx) ?? 0) + 1);
  }
}

function summarize(metric: Metric | undefined): MetricSummary | undefined {
  if (!metric || metric.cnt === 0) return undefined;
  const stats = metric.buckets
    ? bucketStatistics(metric.buckets, metric.cnt, metric.min, metric.max)
    : { median: Number.NaN, p95: Number.NaN };
  return {
    count: metric.cnt,
    sum: metric.sum,
    min: metric.min,
    max: metric.max,
    avg: metric.sum / metric.cnt,
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

function rankValue(state: ClassState, attribute: string, fn: string): number | undefined {
  if (attribute === 'query_count' || attribute === 'count') return state.count;
  const metric = state.metrics.get(attribute);
  if (!metric || metric.cnt === 0) return undefined;
  switch (fn) {
    case 'min':
      return metric.min;
    case 'max':
      return metric.max;
    case 'avg':
      return metric.sum / metric.cnt;
    case 'cnt':
      return metric.cnt;
    default:
      return metric.sum;
  }
}

/** Creates an incremental pt-query-digest-compatible aggregator. */
export function createDigest(options: DigestOptions = {}): Digest {
  const maxDistinct = options.maxDistinctValues ?? 100;
  const maxSkipped = options.maxSkipped ?? 1000;
  const types = new Map<string, AttributeType>();
  const ignoredCache = new Map<string, boolean>();
  const classes = new Map<string, ClassState>();
  const globals = new Map<string, Metric>();
  const skipped: SlowLogSkip[] = [];
  let skippedTotal = 0;
  let events = 0;
  let lastDb: string | undefined;
  let lastTs: string | undefined;
  let tsMin: string | undefined;
  let tsMax: string | undefined;

  function typeOf(name: string, raw: string): AttributeType {
    let type = types.get(name);
    if (type === undefined) {
      type =
        FORCED_TYPE[name] ??
        (NUMBER_VALUE.test(raw) ? 'num' : raw === 'Yes' || raw === 'No' ? 'bool' : 'string');
      types.set(name, type);
    }
    return type;
  }

  function add(event: SlowLogEvent): void {
    const props = event.properties;
    if (!perlTruthy(event.query)) return;
    events++;
    const fp = fingerprint(event.query);

    let db = props.db ?? props.Schema;
    if (db !== undefined) lastDb = db;
    else db = lastDb;
    let ts = props.ts;
    if (ts !== undefined) lastTs = ts;
    else ts = lastTs;
    const tsNorm = ts === undefined ? undefined : normalizeTimestamp(ts);
    const adminZero = event.query.startsWith('administrator');

    let state = classes.get(fp);
    if (!state) {
      state = {
        fingerprint: fp,
        count: 0,
        metrics: new Map(),
        flags: new Map(),
        dbs: new Set(),
        users: new Set(),
        hosts: new Set(),
        tsMin: undefined,
        tsMax: undefined,
        maxOffset: event.offset,
        sample: {
          query: event.query,
          queryTime: undefined,
          ts: tsNorm,
          db,
          line: event.line,
        },
      };
      classes.set(fp, state);
    }
    state.count++;
    if (event.offset > state.maxOffset) state.maxOffset = event.offset;
    if (tsNorm !== undefined) {
      if (state.tsMin === undefined || tsNorm < state.tsMin) state.tsMin = tsNorm;
      if (state.tsMax === undefined || tsNorm > state.tsMax) state.tsMax = tsNorm;
      if (tsMin === undefined || tsNorm < tsMin) tsMin = tsNorm;
      if (tsMax === undefined || tsNorm > tsMax) tsMax = tsNorm;
    }
    if (db !== undefined) addDistinct(state.dbs, stripBackticks(db));
    if (props.user !== undefined) addDistinct(state.users, props.user);
    if (props.host !== undefined) addDistinct(state.hosts, props.host);

    for (const name in props) {
      let ignored = ignoredCache.get(name);
      if (ignored === undefined) ignoredCache.set(name, (ignored = IGNORED.has(name)));
      if (ignored) continue;
      let raw = props[name]!;
      if (adminZero && ADMIN_ZEROED.includes(name)) raw = '0';
      const type = typeOf(name, raw);
      if (type === 'num') {
        let value: number;
        if (name === 'Query_time') {
          const m = QUERY_TIME_PREFIX.exec(raw);
          if (m) raw = m[1]!;
          value = m ? Number(raw) : Number.NaN;
        } else {
          if (PLAIN_NUMBER.test(raw)) value = Number(raw);
          else {
            const m = PERL_NUMBER.exec(raw);
            value = m ? Number(m[1]) : Number.NaN;
          }
        }
        if (Number.isNaN(value)) continue;
        let metric = state.metrics.get(name);
        if (!metric) state.metrics.set(name, (metric = newMetric(BUCKETED.has(name))));
        addValue(metric, value);
        let global = globals.get(name);
        if (!global) globals.set(name, (global = newMetric(BUCKETED.has(name))));
        addValue(global, value);
        if (name === 'Query_time' && value >= metric.max) {
          state.sample = { query: event.query, queryTime: raw, ts: tsNorm, db, line: event.line };
        }
      } else if (type === 'bool') {
        let flag = state.flags.get(name);
        if (!flag) state.flags.set(name, (flag = { yes: 0, count: 0 }));
        flag.count++;
        if (raw === 'Yes') flag.yes++;
      }
    }
  }

  function addDistinct(set: Set<string>, value: string): void {
    if (set.size < maxDistinct || set.has(value)) set.add(value);
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
        queryCount: globals.get('Query_time')?.cnt ?? 0,
        events,
        uniqueQueryCount: classes.size,
        queryTime: summarize(globals.get('Query_time')),
        lockTime: summarize(globals.get('Lock_time')),
        rowsSent: summarize(globals.get('Rows_sent')),
        rowsExamined: summarize(globals.get('Rows_examined')),
        firstSeen: tsMin,
        lastSeen: tsMax,
      },
      classes: out,
      skipped: [...skipped],
      skippedTotal,
    };
  }

  return {
    add,
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

function stripBackticks(db: string): string {
  return db.replace(/^`|`$/g, '');
}

function toClass(state: ClassState, ranked: boolean): DigestClass {
  const metrics: Record<string, MetricSummary> = {};
  for (const [name, metric] of state.metrics) {
    const summary = summarize(metric);
    if (summary) metrics[name] = summary;
  }
  const flags: Record<string, FlagSummary> = {};
  for (const [name, flag] of state.flags) flags[name] = { ...flag };
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
