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
 * Only the attributes some result reports are aggregated ({@link REPORTED_ATTRIBUTES}, plus the
 * ranking attribute); pt-query-digest aggregates every attribute of the log (MySQL 8's
 * `log_slow_extra` has 27 per event) although its default report prints a few. `attributes:
 * 'all'` aggregates every one, as pt does (the tests compare both).
 *
 * Bounded memory: per class we keep one example, sparse buckets for a fixed set of attributes
 * and at most `maxDistinctValues` schemas/users/hosts. Ranking is by `attribute:function`
 * (default Query_time:sum), descending; ties go to the class whose largest offset is larger as
 * a string (pt-query-digest 3.2.1's tiebreaker). Classes without the ranking attribute, which
 * pt-query-digest leaves out of its report, come last instead of disappearing.
 */
import {
  normalizeTimestamp,
  parseOrderBy,
  PERL_NUMBER,
  PLAIN_NUMBER,
  QUERY_TIME_PREFIX,
  REPORTED_ATTRIBUTES,
  stripBackticks,
  tsBeforeAsTimes,
  tsBeforePt,
  typeOf,
} from './digest-attributes.js';
import { ClassColumns, DBS, HOSTS, PENDING_DB, PENDING_TS, StringTable, USERS } from './class-columns.js';
import { absorbSegment, type MergeTarget, type MergeTotals, segmentClasses } from './digest-merge.js';
import { EventValues } from './digest-event.js';
import { digestResult, type DigestTables } from './digest-report.js';
import type {
  Digest,
  DigestOptions,
  DigestReportOptions,
  DigestResult,
  DigestSegment,
} from './digest-types.js';
import { addValue, bucketIndex, type Metric, newMetric } from './metrics.js';
import { createFingerprintCache } from './fingerprint-cache.js';
import type { SlowLogEvent, SlowLogSkip } from './parser.js';
import { ATTRIBUTE_LINE_OP, ParsedSlowLogEvent, perlTruthy } from './parser.js';
import { detach } from './text.js';

// The public surface stays here (index.ts and the renderer import it from digest.ts).
export type {
  Digest,
  DigestClass,
  DigestGlobal,
  DigestOptions,
  DigestReportOptions,
  DigestResult,
  DigestSegment,
  ExecutionSummary,
  FlagSummary,
} from './digest-types.js';
export { normalizeTimestamp, REPORTED_ATTRIBUTES } from './digest-attributes.js';
export { bucketIndex, bucketStatistics, type MetricSummary, QUERY_TIME_BUCKETS } from './metrics.js';

/** Creates an incremental pt-query-digest-compatible aggregator. */
export function createDigest(options: DigestOptions = {}): Digest {
  const segmentMode = options.segment === true;
  let sawDb = false;
  let sawTs = false;
  let pendingTs = false;
  const maxDistinct = options.maxDistinctValues ?? 100;
  // The attributes aggregated (undefined: all of them).
  const kept = options.attributes === 'all' ? undefined : new Set(REPORTED_ATTRIBUTES);
  if (kept && options.orderBy !== undefined) kept.add(parseOrderBy(options.orderBy).attribute);
  const aggregated = kept ? [...kept].sort().join(',') : 'all';
  const maxSkipped = options.maxSkipped ?? 1000;
  // pt-query-digest compares its time strings as strings: ISO times (`2026-01-02T03:04:05`)
  // sort after every `2026-01-02 23:59:59` (MySQL 5 / MariaDB `# Time:` lines, normalised) of
  // the same day, so a log with both gets firstSeen after lastSeen. We compare them as times.
  const tsBefore = options.ptCompatible === true ? tsBeforePt : tsBeforeAsTimes;
  const clampQuantiles = options.ptCompatible !== true;
  // Strings kept once: times, schemas, users, hosts (see class-columns.ts).
  const strings = new StringTable();
  const cols = new ClassColumns(strings, maxDistinct);
  const globals: (Metric | undefined)[] = [];
  const fingerprintOf = createFingerprintCache();
  const skipped: SlowLogSkip[] = [];
  let skippedTotal = 0;
  let events = 0;
  let lastDb: string | undefined;
  let lastTs: string | undefined;
  let lastTsRaw: string | undefined;
  let lastTsNorm: string | undefined;
  let tsMin: string | undefined;
  let tsMax: string | undefined;
  let lastTsText: string | undefined;
  let lastTsId = 0;
  let lastDbText: string | undefined;
  let lastDbId = 0;

  const values = new EventValues(kept);
  const { attributes, attributeIds, queryTimeId } = values;
  const idOf = (name: string): number => values.idOf(name);
  const tables: DigestTables = {
    attributes,
    attributeIds,
    cols,
    globals,
    queryTimeId,
    kept,
    clampQuantiles,
    skipped,
  };
  const merger: MergeTarget = { ...tables, aggregated, maxSkipped, idOf, tsBefore };

  function add(event: SlowLogEvent): void {
    if (!perlTruthy(event.query)) return;
    events++;
    values.reset();
    if (event instanceof ParsedSlowLogEvent) {
      const ops = event.ops;
      for (let i = 0; i + 1 < ops.length; i += 2) {
        const op = ops[i]!;
        if (op === ATTRIBUTE_LINE_OP) values.readAttributeLine(ops[i + 1] as string);
        else values.setRaw(values.opId(op), ops[i + 1] as string);
      }
    } else {
      const props = event.properties;
      for (const name in props) values.setRaw(values.idOf(name), props[name]!);
    }
    const fp = fingerprintOf(event.query);

    let db = values.db ?? values.schema;
    let dbPending = false;
    if (db !== undefined) {
      lastDb = db;
      sawDb = true;
    } else {
      db = lastDb;
      dbPending = segmentMode && !sawDb;
    }
    let ts = values.ts;
    let tsPending = false;
    if (ts !== undefined) {
      lastTs = ts;
      sawTs = true;
    } else {
      ts = lastTs;
      tsPending = segmentMode && !sawTs;
      if (tsPending) pendingTs = true;
    }
    // A slice of the log for ISO times (normalizeTimestamp leaves those as they are), so it is
    // detached only where it is kept; MySQL 5 times repeat (one per second) and are cached.
    let tsNorm: string | undefined;
    if (ts !== undefined) {
      if (ts.charCodeAt(4) === 45 /* - */) tsNorm = ts;
      else {
        if (ts !== lastTsRaw) {
          lastTsRaw = ts;
          lastTsNorm = detach(normalizeTimestamp(ts));
        }
        tsNorm = lastTsNorm;
      }
    }
    const adminZero = event.query.startsWith('administrator');

    let c = cols.rows.get(fp);
    if (c === undefined) {
      c = cols.add(detach(fp), event.offset, event.query, event.line);
      cols.sampleTs[c] = tsNorm === undefined ? 0 : tsIdOf(tsNorm);
      cols.sampleDb[c] = db === undefined ? 0 : strings.intern(db);
      cols.samplePending[c] = (dbPending ? PENDING_DB : 0) | (tsPending ? PENDING_TS : 0);
    }
    cols.count[c]!++;
    if (dbPending) cols.pending[c]! |= PENDING_DB;
    if (tsPending) cols.pending[c]! |= PENDING_TS;
    if (event.offset > cols.maxOffset[c]!) cols.maxOffset[c] = event.offset;
    let tsId = 0;
    if (tsNorm !== undefined) {
      tsId = tsIdOf(tsNorm);
      const own = strings.values[tsId]!;
      if (tsMax === undefined || (own !== tsMax && tsBefore(tsMax, own))) {
        // The newest time so far (the usual case: logs are written in time order). No class's
        // tsMax is above the global one, and the minimums are set at the first time seen.
        tsMax = own;
        tsMin ??= own;
        cols.tsMax[c] = tsId;
        if (cols.tsMin[c] === 0) cols.tsMin[c] = tsId;
      } else {
        // The newest time so far (`own === tsMax`, the usual case) is before no minimum.
        const newest = own === tsMax;
        const min = cols.tsMin[c]!;
        if (min === 0 || (!newest && min !== tsId && tsBefore(own, strings.values[min]!)))
          cols.tsMin[c] = tsId;
        const max = cols.tsMax[c]!;
        if (max === 0 || (max !== tsId && tsBefore(strings.values[max]!, own))) cols.tsMax[c] = tsId;
        if (tsMin === undefined || (!newest && own !== tsMin && tsBefore(own, tsMin))) tsMin = own;
      }
    }
    if (db !== undefined) cols.addDistinct(c, DBS, dbIdOf(db));
    if (values.user !== undefined) cols.addDistinct(c, USERS, strings.intern(values.user));
    if (values.host !== undefined) cols.addDistinct(c, HOSTS, strings.intern(values.host));

    const { present, raws, numeric, numbers } = values;
    for (let p = 0; p < present.length; p++) {
      const id = present[p]!;
      const attribute = attributes[id]!;
      let raw = raws[id];
      let isNumeric = numeric[id] === 1;
      let value = numbers[id]!;
      // Read even when not needed: a property first read after add() is optimised (the first
      // administrator command) would throw its optimised code away.
      const zeroed = attribute.adminZeroed;
      if (adminZero && zeroed) {
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
        const column = cols.metrics[id] ?? cols.metric(id, attribute.bucketed, attribute.countsPositive);
        column.add(c, value, bucket);
        if (attribute.global) {
          let global = globals[id];
          if (!global) globals[id] = global = newMetric(attribute.bucketed, true);
          addValue(global, value, bucket);
        }
        if (id === queryTimeId && value >= column.max[c]!) {
          cols.samples.set(c, event.query);
          cols.sampleQueryTime[c] = raw === undefined ? undefined : detach(raw);
          cols.sampleTs[c] = tsId;
          cols.sampleDb[c] = db === undefined ? 0 : strings.intern(db);
          cols.sampleLine[c] = event.line;
          cols.samplePending[c] = (dbPending ? PENDING_DB : 0) | (tsPending ? PENDING_TS : 0);
        }
      } else if (type === 'bool') {
        const flag = cols.flags[id] ?? cols.flag(id);
        flag.count[c]!++;
        if (!isNumeric && raw === 'Yes') flag.yes[c]!++;
      }
    }
  }

  /** A time's id, the last one cached (one second's events share one string: `!==` tests identity). */
  function tsIdOf(ts: string): number {
    if (ts !== lastTsText) {
      lastTsId = strings.intern(ts);
      lastTsText = ts;
    }
    return lastTsId;
  }

  /** The id of a `use`/Schema db with its backticks stripped (the last one is cached). */
  function dbIdOf(db: string): number {
    if (db !== lastDbText) {
      lastDbId = strings.intern(stripBackticks(db));
      lastDbText = detach(db);
    }
    return lastDbId;
  }

  function result(report: DigestReportOptions = {}): DigestResult {
    return digestResult(tables, { events, skippedTotal, tsMin, tsMax }, report);
  }

  function segment(): DigestSegment {
    return {
      aggregated,
      attributes: attributes.map((attribute) => ({ name: attribute.name, type: attribute.type })),
      classes: segmentClasses(cols),
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
    const totals: MergeTotals = { events, skippedTotal, tsMin, tsMax, lastDb, lastTs, sawDb, sawTs };
    if (!absorbSegment(merger, totals, part, at)) return false;
    ({ events, skippedTotal, tsMin, tsMax, lastDb, lastTs, sawDb, sawTs } = totals);
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
    get classCount(): number {
      return cols.size;
    },
  };
}
