// The digest's classes: per-class state, and the result (ranking and the per-class report).
/*
 * Design note
 * -----------
 * Bounded memory: per class we keep one example, sparse buckets for a fixed set of attributes
 * and at most `maxDistinctValues` schemas/users/hosts. Ranking is by `attribute:function`
 * (default Query_time:sum), descending; ties go to the class whose largest offset is larger as
 * a string (pt-query-digest 3.2.1's tiebreaker). Classes without the ranking attribute, which
 * pt-query-digest leaves out of its report, come last instead of disappearing.
 */
import { checksum } from '../fingerprint/fingerprint.js';
import { type Attribute, parseOrderBy, stripBackticks } from './digest-attributes.js';
import type {
  ClassState,
  DigestClass,
  DigestReportOptions,
  DigestResult,
  ExecutionSummary,
  FlagSummary,
  SampleEvent,
} from './digest-types.js';
import { decadeHistogram, type Metric, type MetricSummary, sumOf, summarize } from './metrics.js';
import type { SlowLogSkip } from './parser.js';
import { binaryToDisplay, detach } from './text.js';

/** What the digest has built, as the result and the segment merge read it. */
export interface DigestTables {
  readonly attributes: Attribute[];
  readonly attributeIds: Map<string, number>;
  readonly classes: Map<string, ClassState>;
  /** Global metrics by attribute id. */
  readonly globals: (Metric | undefined)[];
  readonly queryTimeId: number;
  /** The attributes aggregated (undefined: all of them). */
  readonly kept: ReadonlySet<string> | undefined;
  /** Quantiles are clamped to the observed maximum (not in pt-compatible mode). */
  readonly clampQuantiles: boolean;
  readonly skipped: SlowLogSkip[];
}

/** The digest's running totals (scalars of its closure). */
export interface DigestTotals {
  events: number;
  skippedTotal: number;
  tsMin: string | undefined;
  tsMax: string | undefined;
}

const SMALL_DISTINCT = 8;

/** A class seen for the first time: no events counted yet, `sample` as its example. */
export function newClass(fingerprint: string, maxOffset: number, sample: SampleEvent): ClassState {
  return {
    fingerprint,
    count: 0,
    metrics: [],
    flags: [],
    dbs: [],
    users: [],
    hosts: [],
    tsMin: undefined,
    tsMax: undefined,
    maxOffset,
    sample,
    pendingDb: false,
    pendingTs: false,
  };
}

/** Adds a distinct schema/user/host to a class (at most `maxDistinct`). */
export function addDistinct(
  state: ClassState,
  key: 'dbs' | 'users' | 'hosts',
  value: string,
  maxDistinct: number,
): void {
  const set = state[key];
  if (Array.isArray(set)) {
    // Most classes see one schema, user and host: a short array costs far less than a Set
    // (100k classes keep 300k of them); it becomes a Set once it holds SMALL_DISTINCT values.
    if (set.includes(value) || set.length >= maxDistinct) return;
    // concat(): an exact-length array (push() would reserve 16 more slots).
    const grown = set.concat(detach(value));
    state[key] = grown.length >= SMALL_DISTINCT && maxDistinct > SMALL_DISTINCT ? new Set(grown) : grown;
    return;
  }
  if (!set.has(value) && set.size < maxDistinct) set.add(detach(value));
}

/** Sum of the first of `names` that the class has as a metric (null when none). */
function sumOfFirst(metrics: Record<string, MetricSummary>, ...names: string[]): number | null {
  for (const name of names) {
    const metric = metrics[name];
    if (metric) return metric.sum;
  }
  return null;
}

/** See {@link ExecutionSummary}: numeric fields first, then Yes/No ones. */
function executionOf(
  metrics: Record<string, MetricSummary>,
  flags: Record<string, FlagSummary>,
  scanned: Metric | undefined,
): ExecutionSummary {
  const yes = (name: string): number | null => flags[name]?.yes ?? null;
  const scans = metrics.Sort_scan_count;
  const ranges = metrics.Sort_range_count;
  return {
    tmpTables: sumOfFirst(metrics, 'Created_tmp_tables', 'Tmp_tables') ?? yes('Tmp_table'),
    tmpDiskTables:
      sumOfFirst(metrics, 'Created_tmp_disk_tables', 'Tmp_disk_tables') ?? yes('Tmp_table_on_disk'),
    filesorts: scans || ranges ? (scans?.sum ?? 0) + (ranges?.sum ?? 0) : yes('Filesort'),
    fullScans: yes('Full_scan') ?? (scanned && scanned.cnt > 0 ? scanned.positive : null),
    fullJoins: yes('Full_join'),
  };
}

function rankValue(
  tables: DigestTables,
  state: ClassState,
  attribute: string,
  fn: string,
): number | undefined {
  if (attribute === 'query_count' || attribute === 'count') return state.count;
  const id = tables.attributeIds.get(attribute);
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

function toClass(tables: DigestTables, state: ClassState, ranked: boolean): DigestClass {
  const { attributes, clampQuantiles, queryTimeId } = tables;
  const metrics: Record<string, MetricSummary> = {};
  state.metrics.forEach((metric, id) => {
    const summary = summarize(metric, clampQuantiles);
    if (summary) metrics[attributes[id]!.name] = summary;
  });
  const flags: Record<string, FlagSummary> = {};
  state.flags.forEach((flag, id) => {
    if (flag) flags[attributes[id]!.name] = { ...flag };
  });
  const sample = state.sample;
  return {
    execution: executionOf(metrics, flags, metricNamed(tables, state, 'Read_rnd_next')),
    checksum: checksum(state.fingerprint),
    fingerprint: binaryToDisplay(state.fingerprint),
    queryCount: state.count,
    queryTime: metrics.Query_time,
    lockTime: metrics.Lock_time,
    rowsSent: metrics.Rows_sent,
    rowsExamined: metrics.Rows_examined,
    rowsAffected: metrics.Rows_affected,
    queryTimeHistogram: decadeHistogram(state.metrics[queryTimeId]),
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

function metricNamed(tables: DigestTables, state: ClassState, name: string): Metric | undefined {
  const id = tables.attributeIds.get(name);
  return id === undefined ? undefined : state.metrics[id];
}

function globalOf(tables: DigestTables, name: string): Metric | undefined {
  const id = tables.attributeIds.get(name);
  return id === undefined ? undefined : tables.globals[id];
}

/** The digest's result: classes ranked by `report.orderBy`, the global totals, the skips. */
export function digestResult(
  tables: DigestTables,
  totals: DigestTotals,
  report: DigestReportOptions = {},
): DigestResult {
  const { classes, clampQuantiles, kept } = tables;
  const { events, skippedTotal, tsMin, tsMax } = totals;
  const { attribute, fn } = parseOrderBy(report.orderBy ?? 'Query_time:sum');
  if (kept !== undefined && !kept.has(attribute) && attribute !== 'query_count' && attribute !== 'count') {
    throw new RangeError(
      `ranking by ${attribute} needs a digest that aggregates it: createDigest({ orderBy }) or { attributes: 'all' }`,
    );
  }
  // The tiebreaker compares offsets as strings: built once per class, not per comparison
  // (a log with many classes has many ties).
  const ranked: { state: ClassState; value: number | undefined; offset: string }[] = [];
  for (const state of classes.values()) {
    ranked.push({ state, value: rankValue(tables, state, attribute, fn), offset: String(state.maxOffset) });
  }
  ranked.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      return a.value === b.value ? 0 : a.value === undefined ? 1 : -1;
    }
    if (a.value !== b.value) return b.value - a.value;
    return a.offset === b.offset ? 0 : a.offset < b.offset ? 1 : -1;
  });
  const limited = report.limit === undefined ? ranked : ranked.slice(0, report.limit);
  const out: DigestClass[] = limited.map(({ state, value }) => toClass(tables, state, value !== undefined));
  return {
    global: {
      queryCount: globalOf(tables, 'Query_time')?.cnt ?? 0,
      events,
      uniqueQueryCount: classes.size,
      queryTime: summarize(globalOf(tables, 'Query_time'), clampQuantiles),
      lockTime: summarize(globalOf(tables, 'Lock_time'), clampQuantiles),
      rowsSent: summarize(globalOf(tables, 'Rows_sent'), clampQuantiles),
      rowsExamined: summarize(globalOf(tables, 'Rows_examined'), clampQuantiles),
      firstSeen: tsMin,
      lastSeen: tsMax,
    },
    classes: out,
    skipped: [...tables.skipped],
    skippedTotal,
  };
}
