// The digest's classes: per-class state, and the result (ranking and the per-class report).
/*
 * Design note
 * -----------
 * Bounded memory: per class we keep one example, sparse buckets for a fixed set of attributes
 * and at most `maxDistinctValues` schemas/users/hosts, in columns (class-columns.ts). Only the
 * classes a result returns are turned into objects. Ranking is by `attribute:function`
 * (default Query_time:sum), descending; ties go to the class whose largest offset is larger as
 * a string (pt-query-digest 3.2.1's tiebreaker). Classes without the ranking attribute, which
 * pt-query-digest leaves out of its report, come last instead of disappearing.
 */
import { checksum } from '../fingerprint/fingerprint.js';
import { type Attribute, parseOrderBy, stripBackticks } from './digest-attributes.js';
import type { ClassColumns } from './class-columns.js';
import { DBS, HOSTS, USERS } from './class-columns.js';
import type {
  DigestClass,
  DigestReportOptions,
  DigestResult,
  ExecutionSummary,
  FlagSummary,
} from './digest-types.js';
import { decadeHistogram, type Metric, type MetricSummary, summarize } from './metrics.js';
import type { SlowLogSkip } from './parser.js';
import { binaryToDisplay } from './text.js';

/** What the digest has built, as the result and the segment merge read it. */
export interface DigestTables {
  readonly attributes: Attribute[];
  readonly attributeIds: Map<string, number>;
  readonly cols: ClassColumns;
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

function rankValue(tables: DigestTables, c: number, attribute: string, fn: string): number | undefined {
  if (attribute === 'query_count' || attribute === 'count') return tables.cols.count[c];
  const id = tables.attributeIds.get(attribute);
  const column = id === undefined ? undefined : tables.cols.metrics[id];
  if (!column || !(column.cnt[c]! > 0)) return undefined;
  switch (fn) {
    case 'min':
      return column.min[c];
    case 'max':
      return column.max[c];
    case 'avg':
      return column.sum(c) / column.cnt[c]!;
    case 'cnt':
      return column.cnt[c];
    default:
      return column.sum(c);
  }
}

/** Class `c` as a result object. */
export function toClass(tables: DigestTables, c: number, ranked: boolean): DigestClass {
  const { attributes, clampQuantiles, cols, queryTimeId } = tables;
  const strings = cols.strings;
  const metrics: Record<string, MetricSummary> = {};
  cols.metrics.forEach((column, id) => {
    const summary = summarize(column?.metric(c), clampQuantiles);
    if (summary) metrics[attributes[id]!.name] = summary;
  });
  const flags: Record<string, FlagSummary> = {};
  cols.flags.forEach((column, id) => {
    if (column && column.count[c]! > 0) {
      flags[attributes[id]!.name] = { yes: column.yes[c]!, count: column.count[c]! };
    }
  });
  const fingerprint = cols.fingerprint[c]!;
  const sampleDb = strings.text(cols.sampleDb[c]!);
  return {
    execution: executionOf(metrics, flags, metricNamed(tables, c, 'Read_rnd_next')),
    checksum: checksum(fingerprint),
    fingerprint: binaryToDisplay(fingerprint),
    queryCount: cols.count[c]!,
    queryTime: metrics.Query_time,
    lockTime: metrics.Lock_time,
    rowsSent: metrics.Rows_sent,
    rowsExamined: metrics.Rows_examined,
    rowsAffected: metrics.Rows_affected,
    queryTimeHistogram: decadeHistogram(cols.metrics[queryTimeId]?.metric(c)),
    metrics,
    flags,
    firstSeen: strings.text(cols.tsMin[c]!),
    lastSeen: strings.text(cols.tsMax[c]!),
    schemas: cols.distinct(c, DBS).map(binaryToDisplay).sort(),
    users: cols.distinct(c, USERS).map(binaryToDisplay).sort(),
    hosts: cols.distinct(c, HOSTS).map(binaryToDisplay).sort(),
    ranked,
    example: {
      sql: binaryToDisplay(cols.samples.text(c)),
      queryTime: cols.sampleQueryTime[c],
      ts: strings.text(cols.sampleTs[c]!),
      schema: sampleDb === undefined ? undefined : binaryToDisplay(stripBackticks(sampleDb)),
      line: cols.sampleLine[c]!,
    },
  };
}

function metricNamed(tables: DigestTables, c: number, name: string): Metric | undefined {
  const id = tables.attributeIds.get(name);
  return id === undefined ? undefined : tables.cols.metrics[id]?.metric(c);
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
  const { cols, clampQuantiles, kept } = tables;
  const { events, skippedTotal, tsMin, tsMax } = totals;
  const { attribute, fn } = parseOrderBy(report.orderBy ?? 'Query_time:sum');
  if (kept !== undefined && !kept.has(attribute) && attribute !== 'query_count' && attribute !== 'count') {
    throw new RangeError(
      `ranking by ${attribute} needs a digest that aggregates it: createDigest({ orderBy }) or { attributes: 'all' }`,
    );
  }
  const order = rank(tables, attribute, fn);
  const limited = report.limit === undefined ? order : order.slice(0, report.limit);
  const one = (c: number): DigestClass => toClass(tables, c, ranked(tables, c, attribute, fn));
  const out: DigestClass[] = report.lazy === true ? [] : limited.map(one);
  return {
    global: {
      queryCount: globalOf(tables, 'Query_time')?.cnt ?? 0,
      events,
      uniqueQueryCount: cols.size,
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
    ...(report.lazy === true
      ? {
          *eachClass(): Iterable<DigestClass> {
            for (const c of limited) yield one(c);
          },
        }
      : {}),
  };
}

/** Whether class `c` has a value for the ranking attribute (pt-query-digest reports only those). */
export function ranked(tables: DigestTables, c: number, attribute: string, fn: string): boolean {
  return rankValue(tables, c, attribute, fn) !== undefined;
}

/**
 * The classes in report order: by `attribute:fn` descending, classes without a value last; ties
 * go to the class whose largest offset is larger as a string (pt-query-digest 3.2.1).
 */
export function rank(tables: DigestTables, attribute: string, fn: string): number[] {
  const n = tables.cols.size;
  const values = new Float64Array(n);
  const has = new Uint8Array(n);
  const offsets = tables.cols.maxOffset;
  const order: number[] = [];
  for (let c = 0; c < n; c++) {
    const value = rankValue(tables, c, attribute, fn);
    if (value !== undefined) {
      values[c] = value;
      has[c] = 1;
    }
    order.push(c);
  }
  order.sort((a, b) => {
    if (has[a] === 0 || has[b] === 0) return has[a] === has[b] ? 0 : has[a] === 0 ? 1 : -1;
    if (values[a] !== values[b]) return values[b]! - values[a]!;
    return -compareAsStrings(offsets[a]!, offsets[b]!);
  });
  return order;
}

const POWERS = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** Decimal digits of a whole number in [0, 10^16). */
function digits(x: number): number {
  let k = 1;
  while (k < 16 && x >= POWERS[k]!) k++;
  return k;
}

/**
 * `String(x)` compared with `String(y)` (-1, 0, 1) for the offsets of the ranking's tiebreak,
 * without building the strings (a log with many classes has many ties, and one string per class
 * at the end of a digest is ~3 MB at its memory peak): whole numbers with as many digits compare
 * as numbers; otherwise the longer one cut to the shorter one's length decides, and a prefix
 * sorts first.
 */
export function compareAsStrings(x: number, y: number): number {
  if (!(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < 1e15 && y < 1e15)) {
    const a = String(x);
    const b = String(y);
    return a === b ? 0 : a < b ? -1 : 1;
  }
  const dx = digits(x);
  const dy = digits(y);
  if (dx === dy) return x === y ? 0 : x < y ? -1 : 1;
  if (dx < dy) {
    const cut = Math.floor(y / POWERS[dy - dx]!);
    return x < cut ? -1 : x > cut ? 1 : -1;
  }
  const cut = Math.floor(x / POWERS[dx - dy]!);
  return cut < y ? -1 : cut > y ? 1 : 1;
}
