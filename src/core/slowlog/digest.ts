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
import { checksum, fingerprint, fingerprintKey, plainKeyHash, sameKey } from '../fingerprint/fingerprint.js';
import type {
  AttributeType,
  ClassState,
  Digest,
  DigestClass,
  DigestOptions,
  DigestReportOptions,
  DigestResult,
  DigestSegment,
  ExecutionSummary,
  FlagSummary,
  SampleEvent,
} from './digest-types.js';
import {
  addValue,
  bucketIndex,
  decadeHistogram,
  mergeable,
  mergeMetric,
  type Metric,
  type MetricSummary,
  newMetric,
  sumOf,
  summarize,
} from './metrics.js';
import type { SlowLogEvent, SlowLogSkip } from './parser.js';
import { ATTRIBUTE_LINE_OP, ParsedSlowLogEvent, perlTruthy } from './parser.js';
import { binaryToDisplay, detach } from './text.js';

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
export { bucketIndex, bucketStatistics, type MetricSummary, QUERY_TIME_BUCKETS } from './metrics.js';

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
  /** Kept in the global totals too (only the ones the result reports). */
  global: boolean;
  /** Fixed by the first value ever seen (pt's EventAggregator), or forced. */
  type: AttributeType | undefined;
  /** `name:`, to confirm a predicted name in place. */
  nameColon: string;
  /** The attribute that followed this one last time on an attribute line, or -1. */
  next: number;
}

const SMALL_DISTINCT = 8;

/** A class seen for the first time: no events counted yet, `sample` as its example. */
function newClass(fingerprint: string, maxOffset: number, sample: SampleEvent): ClassState {
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
/**
 * The attributes aggregated by default: what the results report (the Query_time, Lock_time and
 * Rows_* metrics, and the fields {@link ExecutionSummary} reads).
 */
export const REPORTED_ATTRIBUTES: readonly string[] = Object.freeze([
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Rows_affected',
  'Created_tmp_tables',
  'Created_tmp_disk_tables',
  'Sort_scan_count',
  'Sort_range_count',
  'Read_rnd_next',
  'Tmp_tables',
  'Tmp_disk_tables',
  'Tmp_table',
  'Tmp_table_on_disk',
  'Filesort',
  'Full_scan',
  'Full_join',
]);
const GLOBAL_METRICS = new Set(['Query_time', 'Lock_time', 'Rows_sent', 'Rows_examined']);
const ADMIN_ZEROED = new Set(['Rows_sent', 'Rows_examined', 'Rows_read', 'Rows_affected']);
const NUMBER_VALUE = /^(?:\d+|[+-]?(?:(?=\d|[.])\d+(?:[.])\d{0,})(?:E[+-]?\d+)?)$/i;
const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;
const QUERY_TIME_PREFIX = /^(\d+(?:\.\d+)?)/;
const PERL_NUMBER = /^[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))/;
const MYSQL_TS = /^(\d\d)(\d\d)(\d\d) +(\d+):(\d+):(\d+)(\.\d+)?$/;
// Exact powers of ten: m / POW10[k] is the correctly rounded value of the decimal m·10^-k.
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** pt-query-digest's `parse_timestamp`: `yymmdd h:mm:ss` → `20yy-mm-dd hh:mm:ss`; others unchanged. */
export function normalizeTimestamp(ts: string): string {
  const m = MYSQL_TS.exec(ts);
  if (!m) return ts;
  const two = (s: string | undefined): string => String(Number(s)).padStart(2, '0');
  const seconds = m[7] === undefined ? two(m[6]) : (Number(m[6]) + Number(m[7])).toFixed(6).padStart(9, '0');
  return `${Number(m[1]) + 2000}-${two(m[2])}-${two(m[3])} ${two(m[4])}:${two(m[5])}:${seconds}`;
}

function parseOrderBy(orderBy: string): { attribute: string; fn: string } {
  const [attribute = 'Query_time', fn = 'sum'] = orderBy.split(':');
  if (!['sum', 'min', 'max', 'avg', 'cnt'].includes(fn)) {
    throw new RangeError(`--order-by function must be sum, min, max, avg or cnt, not "${fn}"`);
  }
  return { attribute, fn };
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

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13); // space \t \n \v \f \r
}

/**
 * A compiled attribute-line shape: capture k is the value of attribute `ids[k-1]` (attributes
 * the digest ignores are matched without a capture).
 */
interface LineTemplate {
  regex: RegExp;
  ids: number[];
}
const MAX_TEMPLATES = 64;
const MAX_TEMPLATE_PAIRS = 64;
// Perl's \s and \S on byte strings (JS \s would also match U+00A0).
const SPACE = '[ \\t\\n\\r\\f\\v]';
const NON_SPACE = '[^ \\t\\n\\r\\f\\v]';

/**
 * The value of a plain decimal `\d+(\.\d+)?` of up to 15 digits (exactly `Number(text)`:
 * an integer below 2^53 divided by an exact power of ten is correctly rounded), else -1.
 */
function plainDecimal(text: string): number {
  // Most values in a log are `0`.
  if (text === '0') return 0;
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

/** Slots of the plain-query fingerprint table (a power of two; cleared when half full). */
const PLAIN_SLOTS = 1 << 15;
/** Queries whose fingerprints are cached, at most; the cache is cleared when full. */
const FINGERPRINT_CACHE_SIZE = 20_000;

/** `a` < `b` as strings, as pt-query-digest compares times. */
function tsBeforePt(a: string, b: string): boolean {
  return a < b;
}

/** `a` < `b` as times: `2026-01-02T03:04:05` and `2026-01-02 03:04:05` are the same second. */
function tsBeforeAsTimes(a: string, b: string): boolean {
  if (a.charCodeAt(10) === b.charCodeAt(10)) return a < b;
  const key = (t: string): string =>
    t.charCodeAt(10) === 84 /* T */ ? `${t.slice(0, 10)} ${t.slice(11)}` : t;
  return key(a) < key(b);
}

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
  const classes = new Map<string, ClassState>();
  const globals: (Metric | undefined)[] = [];
  const fingerprints = new Map<string, string>();
  // Plain queries (see plainKeyHash): an open-addressed table by key hash holding one query of
  // each key and its fingerprint, so the key string is never built for them.
  const plainHashes = new Int32Array(PLAIN_SLOTS).fill(-1);
  const plainQueries: (string | undefined)[] = new Array<string | undefined>(PLAIN_SLOTS);
  const plainFingerprints: (string | undefined)[] = new Array<string | undefined>(PLAIN_SLOTS);
  let plainCount = 0;
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
        kind: IGNORED.has(name)
          ? Kind.Ignored
          : (SPECIAL[name] ?? (kept === undefined || kept.has(name) ? Kind.Attribute : Kind.Ignored)),
        bucketed: BUCKETED.has(name),
        adminZeroed: ADMIN_ZEROED.has(name),
        global: GLOBAL_METRICS.has(name),
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
    const template = compileTemplate(text.slice(0, scannedFirst), scannedIds);
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

  function compileTemplate(prefix: string, ids: readonly number[]): LineTemplate {
    let source = `^${prefix.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}`;
    const captured: number[] = [];
    ids.forEach((id, k) => {
      const attribute = attributes[id]!;
      // Values nobody reads are matched, not captured (no string is made for them).
      const value = attribute.kind === Kind.Ignored ? `${NON_SPACE}+` : `(${NON_SPACE}+)`;
      if (attribute.kind !== Kind.Ignored) captured.push(id);
      source += `${k === 0 ? '' : `${SPACE}+`}${attribute.name}:${SPACE}+${value}`;
    });
    return { regex: new RegExp(`${source}${SPACE}*$`), ids: captured };
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
    const hash = plainKeyHash(query);
    if (hash >= 0) {
      let slot = hash & (PLAIN_SLOTS - 1);
      for (;;) {
        const seen = plainHashes[slot]!;
        if (seen === -1) break;
        if (seen === hash && sameKey(plainQueries[slot]!, query)) return plainFingerprints[slot]!;
        slot = (slot + 1) & (PLAIN_SLOTS - 1);
      }
      if (plainCount >= PLAIN_SLOTS / 2) {
        plainHashes.fill(-1);
        plainQueries.fill(undefined);
        plainFingerprints.fill(undefined);
        plainCount = 0;
        slot = hash & (PLAIN_SLOTS - 1);
      }
      const fp = detach(fingerprint(query));
      plainHashes[slot] = hash;
      plainQueries[slot] = detach(query);
      plainFingerprints[slot] = fp;
      plainCount++;
      return fp;
    }
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
        else setRaw(opId(op), ops[i + 1] as string);
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

    let state = classes.get(fp);
    if (!state) {
      fp = detach(fp);
      db = db === undefined ? undefined : detach(db);
      state = newClass(fp, event.offset, {
        query: detach(event.query),
        queryTime: undefined,
        ts: tsNorm === undefined ? undefined : detach(tsNorm),
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
      const newer = tsMax === undefined || tsBefore(tsMax, tsNorm);
      // detach() is called for every event (with '' it returns at once) so that its call site
      // always has type feedback: a call first made after add() is optimised (a new second in
      // `# Time:`) would make V8 throw add()'s optimised code away and compile it again.
      const own = detach(newer ? tsNorm : '');
      if (newer) {
        // The newest time so far (the usual case: logs are written in time order). No class's
        // tsMax is above the global one, and the minimums are set at the first time seen.
        tsMax = own;
        tsMin ??= own;
        state.tsMax = own;
        state.tsMin ??= own;
      } else {
        if (state.tsMin === undefined || tsBefore(tsNorm, state.tsMin)) state.tsMin = detach(tsNorm);
        if (state.tsMax === undefined || tsBefore(state.tsMax, tsNorm)) state.tsMax = detach(tsNorm);
        if (tsMin === undefined || tsBefore(tsNorm, tsMin)) tsMin = detach(tsNorm);
      }
    }
    if (db !== undefined) addDistinct(state, 'dbs', stripBackticks(db));
    if (evUser !== undefined) addDistinct(state, 'users', evUser);
    if (evHost !== undefined) addDistinct(state, 'hosts', evHost);

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
        let metric = state.metrics[id];
        if (!metric) state.metrics[id] = metric = newMetric(attribute.bucketed, false);
        addValue(metric, value, bucket);
        if (attribute.global) {
          let global = globals[id];
          if (!global) globals[id] = global = newMetric(attribute.bucketed, true);
          addValue(global, value, bucket);
        }
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

  /** Adds a distinct schema/user/host to a class (at most `maxDistinct`). */
  function addDistinct(state: ClassState, key: 'dbs' | 'users' | 'hosts', value: string): void {
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
      const summary = summarize(metric, clampQuantiles);
      if (summary) metrics[attributes[id]!.name] = summary;
    });
    const flags: Record<string, FlagSummary> = {};
    state.flags.forEach((flag, id) => {
      if (flag) flags[attributes[id]!.name] = { ...flag };
    });
    const sample = state.sample;
    return {
      execution: executionOf(metrics, flags, metricNamed(state, 'Read_rnd_next')),
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

  function metricNamed(state: ClassState, name: string): Metric | undefined {
    const id = attributeIds.get(name);
    return id === undefined ? undefined : state.metrics[id];
  }

  function globalOf(name: string): Metric | undefined {
    const id = attributeIds.get(name);
    return id === undefined ? undefined : globals[id];
  }

  function result(report: DigestReportOptions = {}): DigestResult {
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
      ranked.push({ state, value: rankValue(state, attribute, fn), offset: String(state.maxOffset) });
    }
    ranked.sort((a, b) => {
      if (a.value === undefined || b.value === undefined) {
        return a.value === b.value ? 0 : a.value === undefined ? 1 : -1;
      }
      if (a.value !== b.value) return b.value - a.value;
      return a.offset === b.offset ? 0 : a.offset < b.offset ? 1 : -1;
    });
    const limited = report.limit === undefined ? ranked : ranked.slice(0, report.limit);
    const out: DigestClass[] = limited.map(({ state, value }) => toClass(state, value !== undefined));
    return {
      global: {
        queryCount: globalOf('Query_time')?.cnt ?? 0,
        events,
        uniqueQueryCount: classes.size,
        queryTime: summarize(globalOf('Query_time'), clampQuantiles),
        lockTime: summarize(globalOf('Lock_time'), clampQuantiles),
        rowsSent: summarize(globalOf('Rows_sent'), clampQuantiles),
        rowsExamined: summarize(globalOf('Rows_examined'), clampQuantiles),
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
      aggregated,
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
    if (part.aggregated !== aggregated) return false;
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
        if (state.tsMin === undefined || tsBefore(ts, state.tsMin)) state.tsMin = ts;
        if (state.tsMax === undefined || tsBefore(state.tsMax, ts)) state.tsMax = ts;
      } else {
        if (tsMin === undefined || tsBefore(ts, tsMin)) tsMin = ts;
        if (tsMax === undefined || tsBefore(tsMax, ts)) tsMax = ts;
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
      if (theirs.pendingDb && inheritedDb !== undefined) {
        addDistinct(state, 'dbs', stripBackticks(inheritedDb));
      }
      for (const value of theirs.dbs) addDistinct(state, 'dbs', value);
      for (const value of theirs.users) addDistinct(state, 'users', value);
      for (const value of theirs.hosts) addDistinct(state, 'hosts', value);
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
    get classCount(): number {
      return classes.size;
    },
  };
}
