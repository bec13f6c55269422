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
  type Attribute,
  compileTemplate,
  isSpace,
  isWordChar,
  Kind,
  type LineTemplate,
  MAX_TEMPLATE_PAIRS,
  MAX_TEMPLATES,
  newAttribute,
  normalizeTimestamp,
  parseOrderBy,
  PERL_NUMBER,
  plainDecimal,
  PLAIN_NUMBER,
  POW10,
  QUERY_TIME_PREFIX,
  REPORTED_ATTRIBUTES,
  stripBackticks,
  tsBeforeAsTimes,
  tsBeforePt,
  typeOf,
} from './digest-attributes.js';
import { ClassColumns, DBS, HOSTS, PENDING_DB, PENDING_TS, StringTable, USERS } from './class-columns.js';
import { absorbSegment, type MergeTarget, type MergeTotals, segmentClasses } from './digest-merge.js';
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
  const attributeIds = new Map<string, number>();
  const attributes: Attribute[] = [];
  // Open-addressed (by name hash) cache of attribute ids for the attribute-line scanner.
  const nameSlots = new Int32Array(4096);
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
      attributes.push(newAttribute(name, kept));
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

  // The parser's header names (`ts`, `user`, `host`, `Thread_id`, `timestamp`…) are a few
  // literals: a short list compared by identity costs less than a Map lookup per name.
  const opNames: string[] = [];
  const opIds: number[] = [];
  function opId(name: string): number {
    for (let k = 0; k < opNames.length; k++) if (opNames[k] === name) return opIds[k]!;
    const id = idOf(name);
    if (opNames.length < 16) {
      opNames.push(name);
      opIds.push(id);
    }
    return id;
  }

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
  let lastTemplate: LineTemplate | undefined;

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
    // Most logs have one or two shapes: try the last one that matched before the lookup.
    if (lastTemplate !== undefined && applyTemplate(lastTemplate, text)) return;
    const colon = text.indexOf(':');
    const key = colon < 0 ? text : text.slice(0, colon);
    const list = templates.get(key);
    if (list !== undefined) {
      for (const template of list) {
        if (template !== lastTemplate && applyTemplate(template, text)) {
          lastTemplate = template;
          return;
        }
      }
    }
    scanAttributeLine(text);
    if (scannedFirst < 0 || scannedEmpty || scannedIds.length > MAX_TEMPLATE_PAIRS) return;
    const template = compileTemplate(text.slice(0, scannedFirst), scannedIds, attributes);
    if (template.regex.exec(text) === null) return; // e.g. trailing text that is not a pair
    if (templateCount >= MAX_TEMPLATES) {
      templates = new Map();
      templateCount = 0;
      lastTemplate = undefined;
    }
    templateCount++;
    if (list !== undefined) list.push(template);
    else templates.set(key, [template]);
  }

  /** Reads `text` through `template` when it has that shape; false (nothing set) otherwise. */
  function applyTemplate(template: LineTemplate, text: string): boolean {
    // One native match beats a hand-written scan of the line (measured: 3.6 vs 9.5 µs a line).
    const m = template.regex.exec(text);
    if (m === null) return false;
    const ids = template.ids;
    for (let k = 0; k < ids.length; k++) setPair(ids[k]!, m[k + 1]!);
    return true;
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

  function add(event: SlowLogEvent): void {
    if (!perlTruthy(event.query)) return;
    events++;
    resetEvent();
    if (event instanceof ParsedSlowLogEvent) {
      const ops = event.ops;
      for (let i = 0; i + 1 < ops.length; i += 2) {
        const op = ops[i]!;
        if (op === ATTRIBUTE_LINE_OP) readAttributeLine(ops[i + 1] as string);
        else setRaw(opId(op), ops[i + 1] as string);
      }
    } else {
      const props = event.properties;
      for (const name in props) setRaw(idOf(name), props[name]!);
    }
    const fp = fingerprintOf(event.query);

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
        const min = cols.tsMin[c]!;
        if (min === 0 || (min !== tsId && tsBefore(own, strings.values[min]!))) cols.tsMin[c] = tsId;
        const max = cols.tsMax[c]!;
        if (max === 0 || (max !== tsId && tsBefore(strings.values[max]!, own))) cols.tsMax[c] = tsId;
        if (tsMin === undefined || (own !== tsMin && tsBefore(own, tsMin))) tsMin = own;
      }
    }
    if (db !== undefined) cols.addDistinct(c, DBS, dbIdOf(db));
    if (evUser !== undefined) cols.addDistinct(c, USERS, strings.intern(evUser));
    if (evHost !== undefined) cols.addDistinct(c, HOSTS, strings.intern(evHost));

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
