// One slow-log record → one event: pt-query-digest's header-line rules (SlowLogParser::parse_event).
/*
 * Design note
 * -----------
 * A record is the text up to and including a `;\n#`. A record that still holds a server banner
 * (`… mysqld, Version: … started with:`, `Tcp port: N …`, `Time Id Command`) has those lines
 * deleted and is split again on `;\n#`; the extra pieces are queued (`Outcome.front`). A leading
 * `#` is put back when missing, and a trailing `;\n` / `;\n#` (plus at most one newline) is
 * removed. Then the header lines, top to bottom: a line starting with `#`, `use ` or `SET
 * timestamp|insert_id|last_insert_id` is a header candidate; the first rule that matches applies:
 * `# Time:` (ts, once; the same line may carry User@Host), `# User@Host:` (once, anywhere in the
 * line; Id gives Thread_id), `# administrator command: X` (the query), `# Name: value …` attribute
 * lines (kept whole, see ParsedSlowLogEvent.ops), `use db` (once), `SET a=b,…` (once). The first
 * non-candidate line starts the query, which runs verbatim to the end of the record. A record
 * whose last line is a header and that has no query asks the stream to read ahead
 * ({@link LookAhead}, step 3 of the design note in parser.ts).
 *
 * Strict mode (the default; `ptCompatible` turns it off) differs where pt is wrong: the server
 * writes its `SET timestamp=…;` line last, so what follows it is the statement; a query that ends
 * inside a literal asks the stream to join the next record (`Outcome.join`); MariaDB ≥ 10.5's
 * `mariadbd` banner is recognised.
 *
 * Speed: most records are what a server writes, `[# Time: …]`, `# User@Host: …`, attribute
 * lines, `[use db;]`, `SET timestamp=N;`, the query. `commonRecord` reads exactly that shape with
 * fewer tests than the general loop (about 12 % of a digest's CPU on a sysbench log) and hands
 * anything else back to it; tests/unit/slowlog/common-record.test.ts compares both readings.
 */
import { ATTRIBUTE_LINE_OP, ParsedSlowLogEvent, perlTruthy, type SlowLogEvent } from './event.js';
import { queryEndsOpen } from './record-lex.js';
import { detach } from './text.js';

export const RECORD_SEPARATOR = ';\n#';
/** The first header line(s) of an event as servers write them (see headerFollows()). */
export const SERVER_HEADER =
  /^(?:# Time: (?:\d{6} {1,2}\d{1,2}:\d\d:\d\d(?:\.\d+)?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?)[ \t]*(?:\n|$)|# User@Host: [^\n]*\[[^\n]*\] @ [^\n]*\[[^\n]*\](?:[ \t]+Id:[ \t]+\d+)?[ \t]*(?:\n|$))/;
/**
 * Slots of the `# User@Host:` line cache (direct-mapped), and the most distinct lines remembered
 * behind it. A line holds the connection id, so a busy server has hundreds of distinct lines at a
 * time (the generated bench log: 576): with 256 slots hashed from the line's end, 82 % of its
 * events missed the cache and matched the line's regex again; now 10 % miss the slot and are found
 * in the map.
 */
const USER_HOST_SLOTS = 4096;
const USER_HOST_SEEN = 4096;
const USER_HOST_SEEN_BYPASS = 100_000;
export const WS = '[ \\t\\n\\r\\f\\v]';
const BANNER = new RegExp(
  `(?:^|(?<=\\n))(?:T[cC][pP]${WS}[pP]ort:${WS}+\\d+|[/A-Z][^\\n]*mysqld,${WS}Version[^\\n]*(?:started${WS}with:|embedded${WS}library)|Time${WS}+Id${WS}+Command)[^\\n]*\\n`,
  'g',
);
/**
 * BANNER plus what pt does not know: MariaDB ≥ 10.5's server name (`…/mariadbd, Version: …`) and
 * Windows servers' (`c:\xampp\mysql\bin\mysqld.exe, Version: …`, also a lower-case drive).
 */
const BANNER_MARIADBD = new RegExp(
  `(?:^|(?<=\\n))(?:T[cC][pP]${WS}[pP]ort:${WS}+\\d+|[/A-Za-z][^\\n]*(?:mysqld|mariadbd)(?:\\.exe)?,${WS}Version[^\\n]*(?:started${WS}with:|embedded${WS}library)|Time${WS}+Id${WS}+Command)[^\\n]*\\n`,
  'g',
);
const USER_HOST_LINE = new RegExp(
  `# User@Host: ([^\\[]+|\\[[^\\[]+\\])[^\\n]*?@ ([^ \\t\\n\\r\\f\\v]*) \\[([^\\n]*)\\]${WS}*(?:Id:${WS}*(\\d+))?`,
);
const ATTRIBUTE_LINE = /^# +[A-Z][A-Za-z_]+: [^ \t\n\r\f\v]/;
const EMPTY_SCHEMA = new RegExp(`Schema:${WS}+\\w+: `);
const SCHEMA_PREFIX = new RegExp(`Schema:${WS}+`);
const USE_LINE = /^use ([^;]+)/;
/** MySQL's Slow_log_throttle summary line (`throttle: %10lu 'index not used' warning(s) suppressed.`). */
const THROTTLE_SUMMARY = /^throttle: +(\d+) '[^'\n]*' warning\(s\) suppressed\.$/;
/** Whether a record's statement is MySQL's throttle summary (see the end of parseRecord). */
function isThrottleSummary(query: string): boolean {
  return query.charCodeAt(0) === 116 /* t */ && THROTTLE_SUMMARY.test(query);
}
const SET_LINE = new RegExp(`^SET${WS}+([^;]*)`);
const SET_SPLIT = new RegExp(`,|${WS}*=${WS}*`);
export const LEADING_WS = new RegExp(`^${WS}+`);
const LEADING_HASH_WS = new RegExp(`^#${WS}+`);
export const NEXT_HEADER = new RegExp(`^${WS}*[A-Z][a-z_]+: `);
const BLANK_RECORD = new RegExp(`^[#${WS.slice(1, -1)}]*$`);

export const NEED_MORE = Symbol('need-more');
export const NO_LOOK_AHEAD = Symbol('no-look-ahead');
export const NEXT_HEADER_FOLLOWS = Symbol('next-header-follows');
/** Shared empty list for an outcome's queues (most records queue nothing). */
export const NONE: readonly string[] = Object.freeze([]);
export type Read = string | undefined | typeof NEED_MORE;

export interface Outcome {
  event: SlowLogEvent | undefined;
  skip: string | undefined;
  /** The record's query ends inside a literal: its `;\n#` was not a terminator (strict mode). */
  join: boolean;
  front: readonly string[];
  back: readonly string[];
}

/** Perl `split`: like String#split but trailing empty fields are removed. */
/** Pieces of a `;\n#` split glued back where the next piece does not start with a server header. */
function rejoinUnlessHeader(chunks: string[]): string[] {
  const out: string[] = [chunks[0]!];
  for (const chunk of chunks.slice(1)) {
    if (SERVER_HEADER.test('#' + chunk)) out.push(chunk);
    else out[out.length - 1] += RECORD_SEPARATOR + chunk;
  }
  return out;
}

export function perlSplit(text: string, separator: string | RegExp): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export function trimTerminator(stmt: string): string {
  // Perl: s/;\n#?\Z// (\Z also matches before one final newline); leftmost match wins.
  const n = stmt.length;
  if (stmt.endsWith(';\n#\n')) return stmt.slice(0, n - 4) + '\n';
  if (stmt.endsWith(';\n#')) return stmt.slice(0, n - 3);
  if (stmt.endsWith(';\n\n')) return stmt.slice(0, n - 3) + '\n';
  if (stmt.endsWith(';\n')) return stmt.slice(0, n - 2);
  return stmt;
}

/**
 * Whether the line starting at `at` is a header candidate. No prefix tested holds a newline, so
 * none can match across the line's end.
 */
function isHeaderCandidate(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 35 /* # */) return true;
  if (c === 117 /* u */) return text.startsWith('use ', at);
  if (c === 83 /* S */)
    return (
      text.startsWith('SET timestamp', at) ||
      text.startsWith('SET insert_id', at) ||
      text.startsWith('SET last_insert_id', at)
    );
  return false;
}

function isTimeChar(c: number, iso: boolean): boolean {
  return (c >= 48 && c <= 57) || c === 58 || c === 32 || (iso && (c === 45 || c === 84)); // 0-9 : space (- T)
}

/** How many chars of a line {@link timeOfLine} reads at most. */
const TIME_KEY_LENGTH = 27;

/** `^# Time: ((?:[0-9: ]{15})|(?:[-0-9: T]{19}))` on a line: the time, else undefined. */
function timeOfLine(line: string): string | undefined {
  if (!line.startsWith('# Time: ')) return undefined;
  const n = line.length;
  let k = 8;
  while (k < 23 && k < n && isTimeChar(line.charCodeAt(k), false)) k++;
  if (k === 23) return line.slice(8, 23);
  k = 8;
  while (k < 27 && k < n && isTimeChar(line.charCodeAt(k), true)) k++;
  return k === 27 ? line.slice(8, 27) : undefined;
}

/** Whether `text` from `from` on holds a literal that every BANNER alternative contains. */
function hasBannerWord(text: string, from = 0): boolean {
  return (
    text.includes('ort:', from) ||
    text.includes('Command', from) ||
    text.includes('mysqld,', from) ||
    text.includes('mariadbd,', from) ||
    text.includes('d.exe,', from)
  );
}

/**
 * False when BANNER cannot match `record`. Every BANNER alternative starts a line with `T`, `/`
 * or a letter and stays on that line, so lines starting with `#` (the bulk of a record's bytes:
 * header and attribute lines) cannot hold one; the first line is always looked at, and the
 * rest from the first line that does not start with `#`.
 */
function mayHoldBanner(record: string): boolean {
  const firstEnd = record.indexOf('\n');
  // The first line's only line start is the record's start: a banner there starts with `/` or
  // a letter (a lower-case Windows drive in strict mode; a record read after `;\n#` usually
  // starts with a space: ` Time: …`).
  const c = record.charCodeAt(0);
  if (c === 47 /* / */ || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
    if (firstEnd === -1) return hasBannerWord(record);
    if (hasBannerWord(record.slice(0, firstEnd))) return true;
  } else if (firstEnd === -1) return false;
  let p = firstEnd + 1;
  while (p < record.length && record.charCodeAt(p) === 35 /* # */) {
    const end = record.indexOf('\n', p);
    if (end === -1) return false;
    p = end + 1;
  }
  return p < record.length && hasBannerWord(record, p);
}

/** `SET timestamp=(\d+)(?:;|$)` at the start of `line`: the digits, else undefined. */
function timestampOfSetLine(line: string): string | undefined {
  if (!line.startsWith('SET timestamp=')) return undefined;
  const n = line.length;
  let i = 14;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  if (i === 14 || (i < n && line.charCodeAt(i) !== 59) /* ; */) return undefined;
  return line.slice(14, i);
}

export function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let i = text.indexOf('\n', from);
  while (i !== -1 && i < to) {
    count++;
    i = text.indexOf('\n', i + 1);
  }
  return count;
}

function setUserHost(ops: string[], m: RegExpExecArray): void {
  const user = m[1] ?? '';
  const ip = m[3] ?? '';
  const host = m[2] ?? '';
  ops.push('user', user, 'host', perlTruthy(host) ? host : ip, 'ip', ip);
  if (perlTruthy(m[4])) ops.push('Thread_id', m[4]);
}

/**
 * pt's read-ahead after a record whose last line is a header (step 3 of the design note in
 * parser.ts), done by the stream: see lookAhead in createSlowLogParser.
 */
export type LookAhead = (
  needed: boolean,
  out: Outcome,
  ops: (string | typeof ATTRIBUTE_LINE_OP)[],
) => string | typeof NEED_MORE | typeof NO_LOOK_AHEAD | typeof NEXT_HEADER_FOLLOWS;

/** Parses one record (see {@link createRecordParser}). */
export type RecordParser = (
  raw: string,
  offset: number,
  lineNo: number,
  hashed: string | undefined,
  allowJoin: boolean,
) => Outcome | typeof NEED_MORE;

/**
 * The record parser of one stream. Its outcome object is reused: the caller reads it before
 * parsing the next record.
 */
export function createRecordParser(
  strict: boolean,
  lookAhead: LookAhead,
  commonRecords = true,
): RecordParser {
  const banner = strict ? BANNER_MARIADBD : BANNER;

  // `# User@Host:` lines repeat (one per connection): parse each distinct line once. A
  // direct-mapped cache (slot from the line's length, the 8 chars after `# User@Host: ` and the
  // last 24, confirmed by `===`) costs less than hashing a fresh slice of the buffer for a Map;
  // a line that lost its slot to another one is found in `userHostSeen` (bounded) instead of
  // being matched again.
  const userHostLines: (string | undefined)[] = new Array<string | undefined>(USER_HOST_SLOTS);
  const userHostValues: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(
    USER_HOST_SLOTS,
  );
  const userHostSeen = new Map<string, readonly string[] | undefined>();
  let seenHits = 0;
  let seenMisses = 0;
  let seenBypass = 0;
  function userHostPairs(text: string): readonly string[] | undefined {
    const n = text.length;
    let hash = n;
    for (let i = 13; i < 21 && i < n; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    for (let i = n > 24 ? n - 24 : 0; i < n; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    const slot = (hash ^ (hash >>> 15)) & (USER_HOST_SLOTS - 1);
    if (userHostLines[slot] === text) {
      seenHits++;
      return userHostValues[slot];
    }
    // Match on a copy of the line: the cached values would otherwise be slices of the read
    // buffer and keep a whole chunk alive per slot.
    const own = text.length < 13 ? text : (' ' + text).slice(1);
    let pairs: string[] | undefined;
    const seen = seenBypass > 0 ? undefined : userHostSeen.get(own);
    if (seen !== undefined || (seenBypass === 0 && userHostSeen.has(own))) {
      pairs = seen as string[] | undefined;
      seenHits++;
    } else {
      const m = USER_HOST_LINE.exec(own);
      pairs = m ? [] : undefined;
      if (m && pairs) setUserHost(pairs, m);
      if (seenBypass > 0) {
        seenBypass--;
        return pairs;
      } else {
        // A log whose lines hardly repeat (a new connection per statement) would fill the slots
        // and the map with lines kept just long enough to be promoted to the old generation: when
        // the map fills up with fewer hits (slot or map) than misses, both are left alone for the
        // next USER_HOST_SEEN_BYPASS lines.
        seenMisses++;
        if (userHostSeen.size >= USER_HOST_SEEN) {
          if (seenHits < seenMisses) seenBypass = USER_HOST_SEEN_BYPASS;
          seenHits = 0;
          seenMisses = 0;
          userHostSeen.clear();
        }
        if (seenBypass === 0) userHostSeen.set(own, pairs);
      }
    }
    userHostLines[slot] = own;
    userHostValues[slot] = pairs;
    return pairs;
  }

  // `# Time:` lines of one second share their first 27 chars (`# Time: 2026-01-02T03:04:05`,
  // the part timeOfLine reads): the last such prefix and its time are kept, so most time lines
  // cost one native comparison, and the events of one second carry the same (detached) string.
  let timeKey = '';
  let timeValue = '';
  function timeOf(text: string): string | undefined {
    // timeOfLine reads chars 0-26 at most (fewer when the line is shorter): a line of 27 chars
    // or more that starts with a cached 27-char key has its time; a shorter key must be equal.
    if (
      timeKey !== '' &&
      (timeKey.length === TIME_KEY_LENGTH ? text.startsWith(timeKey) : text === timeKey)
    ) {
      return timeValue;
    }
    const ts = timeOfLine(text);
    if (ts !== undefined) {
      timeKey = detach(text.length > TIME_KEY_LENGTH ? text.slice(0, TIME_KEY_LENGTH) : text);
      timeValue = detach(ts);
    }
    return ts;
  }

  const scratchOutcome: Outcome = { event: undefined, skip: undefined, join: false, front: NONE, back: NONE };

  /**
   * The common record, read with fewer tests than the general loop: `hashed` (`#` + the record
   * up to its `;\n#`) is `[# Time: …\n]# User@Host: …\n(# Name: value …\n)+[use db;\n]SET
   * timestamp=N;\n` then a query that does not start with `#`. The event is the one the general
   * loop makes of it (strict mode, the record read from the stream); anything else, or anything
   * the general loop would treat specially (a banner word, a query ending inside a literal, a
   * header line no rule reads), gives undefined and the general loop reads the record.
   */
  function commonRecord(hashed: string, offset: number, lineNo: number): Outcome | undefined {
    const n = hashed.length;
    // Ends with `;\n#` (then trimTerminator cuts exactly those three chars).
    if (
      hashed.charCodeAt(n - 1) !== 35 ||
      hashed.charCodeAt(n - 2) !== 10 ||
      hashed.charCodeAt(n - 3) !== 59
    ) {
      return undefined;
    }
    const ops: (string | typeof ATTRIBUTE_LINE_OP)[] = [];
    let start = 0;
    let end = hashed.indexOf('\n');
    if (end < 0) return undefined;
    if (hashed.charCodeAt(2) === 84 /* T */) {
      const text = hashed.slice(0, end);
      const ts = timeOf(text);
      // Not a time line, or one that also holds User@Host: the general loop.
      if (ts === undefined || (text.length >= 36 && text.includes('# User@Host: '))) return undefined;
      ops.push('ts', ts);
      start = end + 1;
      end = hashed.indexOf('\n', start);
      if (end < 0) return undefined;
    }
    if (!hashed.startsWith('# User@Host: ', start)) return undefined;
    const pairs = userHostPairs(hashed.slice(start, end));
    if (pairs === undefined) return undefined;
    for (let k = 0; k < pairs.length; k++) ops.push(pairs[k]!);
    start = end + 1;
    let attributeLines = 0;
    while (hashed.charCodeAt(start) === 35 /* # */) {
      end = hashed.indexOf('\n', start);
      if (end < 0) return undefined;
      let text = hashed.slice(start, end);
      if (!ATTRIBUTE_LINE.test(text)) return undefined;
      if (text.includes('Schema:') && EMPTY_SCHEMA.test(text)) text = text.replace(SCHEMA_PREFIX, '');
      ops.push(ATTRIBUTE_LINE_OP, text);
      attributeLines++;
      start = end + 1;
    }
    if (attributeLines === 0) return undefined;
    // No BANNER match can start on the lines from here on (the ones above start with `#`).
    if (hasBannerWord(hashed, start)) return undefined;
    if (hashed.charCodeAt(start) === 117 /* u */) {
      end = hashed.indexOf('\n', start);
      if (end < 0 || !hashed.startsWith('use ', start)) return undefined;
      const m = USE_LINE.exec(hashed.slice(start, end));
      if (m === null) return undefined;
      ops.push('db', m[1] ?? '');
      start = end + 1;
    }
    if (!hashed.startsWith('SET timestamp=', start)) return undefined;
    end = hashed.indexOf('\n', start);
    if (end < 0) return undefined;
    const stamp = timestampOfSetLine(hashed.slice(start, end));
    if (stamp === undefined) return undefined;
    ops.push('timestamp', stamp);
    start = end + 1;
    if (start >= n - 3 || hashed.charCodeAt(start) === 35 /* # */) return undefined;
    const out = scratchOutcome;
    out.event = undefined;
    out.skip = undefined;
    out.join = false;
    out.front = NONE;
    out.back = NONE;
    return finish(out, hashed.slice(start, n - 3), false, ops, true, hashed, offset, lineNo);
  }

  /**
   * The end of a record's reading, the same for both readings: the event, or why there is none
   * (no query, a query that ends inside a literal or comment, MySQL's throttle summary).
   */
  function finish(
    out: Outcome,
    query: string | undefined,
    admin: boolean,
    ops: (string | typeof ATTRIBUTE_LINE_OP)[],
    allowJoin: boolean,
    stmt: string,
    offset: number,
    lineNo: number,
  ): Outcome {
    if (!perlTruthy(query)) {
      if (!BLANK_RECORD.test(stmt)) out.skip = 'header lines without a query (partial event)';
      return out;
    }
    if (allowJoin && !admin && queryEndsOpen(query)) {
      out.join = true;
      return out;
    }
    // MySQL's log_throttle_queries_not_using_indexes writes `throttle: N 'index not used'
    // warning(s) suppressed.` as a statement of user `[] @ []`: no statement ran as that text; N
    // statements were not logged. Reported as a skip (pt-query-digest makes it a query class).
    if (strict && isThrottleSummary(query)) {
      out.skip = `MySQL's throttle summary, not a statement: ${query.replace(THROTTLE_SUMMARY, '$1')} statement(s) not using indexes ran and were not logged (log_throttle_queries_not_using_indexes)`;
      return out;
    }
    out.event = new ParsedSlowLogEvent(offset, lineNo, query, admin, ops);
    return out;
  }

  /**
   * `hashed`, when given, is `'#' + raw` as a slice of the buffer (the `#` the previous record
   * separator ended with), which saves copying every record to prepend it.
   */
  function parseRecord(
    raw: string,
    offset: number,
    lineNo: number,
    hashed: string | undefined,
    allowJoin: boolean,
  ): Outcome | typeof NEED_MORE {
    if (allowJoin && strict && hashed !== undefined && commonRecords) {
      const common = commonRecord(hashed, offset, lineNo);
      if (common !== undefined) return common;
    }
    // One outcome object per parser: drain() reads it before the next record.
    const out = scratchOutcome;
    out.event = undefined;
    out.skip = undefined;
    out.join = false;
    out.front = NONE;
    out.back = NONE;
    let stmt = raw;
    let hadBanner = false;
    if (mayHoldBanner(stmt) && banner.test(stmt)) {
      banner.lastIndex = 0;
      hadBanner = true;
      stmt = stmt.replace(banner, '');
      let chunks = perlSplit(stmt, RECORD_SEPARATOR);
      // Strict: the stream splits a record only where a header the server wrote follows (a `;\n#`
      // inside a literal, or `# administrator command:` after `SET timestamp`, stays in the record);
      // the pieces of a record that held a banner are rejoined by the same rule.
      if (strict && chunks.length > 1) chunks = rejoinUnlessHeader(chunks);
      if (chunks.length > 1) {
        stmt = chunks[0] ?? '';
        out.front = chunks.slice(1);
      }
    }
    banner.lastIndex = 0;
    if (!stmt.startsWith('#')) {
      const own = hadBanner || hashed === undefined;
      // The concatenation runs for every record (with '' it allocates nothing): a record that
      // starts a pushed chunk (no `hashed`) would otherwise be the first to run it, long after
      // parseRecord() is optimised, and throw that code away.
      const joined = '#' + (own ? stmt : '');
      stmt = own ? joined : hashed!;
    }
    stmt = trimTerminator(stmt);

    const ops: (string | typeof ATTRIBUTE_LINE_OP)[] = [];
    let query: string | undefined;
    let admin = false;
    let gotTs = false;
    let gotUh = false;
    let gotAc = false;
    let gotDb = false;
    let gotSet = false;
    let foundArg = false;
    let inWarnings = false;
    const len = stmt.length;
    let start = 0;
    while (start < len || (start === 0 && len === 0)) {
      let end = stmt.indexOf('\n', start);
      if (end === -1) end = len;
      // MariaDB's `# Warnings` block (log_slow_verbosity=warnings) comes after every other header
      // line and holds each message verbatim, user values and their newlines included: until the
      // server's `use`/`SET` lines, a line is message text, whatever it looks like. A record that
      // ends in it was cut at a `;\n#` inside a message: read on (strict mode).
      if (inWarnings && !gotSet && (stmt.charCodeAt(start) === 35 || !isHeaderCandidate(stmt, start))) {
        if (allowJoin && end >= len) {
          out.join = true;
          return out;
        }
        start = end + 1;
        continue;
      }
      // The server writes its `SET timestamp=…;` line last, just before the statement: what
      // follows is the statement even when it looks like a header (the user's own `SET
      // timestamp=…`, `use x`, a leading `# comment`). pt-query-digest reads it as header.
      // (`# administrator command: X` lines come after it too, and are the statement.)
      if (
        !isHeaderCandidate(stmt, start) ||
        (gotSet && strict && !stmt.startsWith('# administrator command: ', start))
      ) {
        query = stmt.slice(start);
        break;
      }
      let text = stmt.slice(start, end);
      const pos = end;
      let m: RegExpExecArray | null;
      let userHost: readonly string[] | undefined;
      let setTimestamp: string | undefined;
      let ts: string | undefined;
      if (!gotTs && (ts = timeOf(text)) !== undefined) {
        ops.push('ts', ts);
        gotTs = true;
        let pairs: readonly string[] | undefined;
        if (!gotUh && text.includes('# User@Host: ') && (pairs = userHostPairs(text))) {
          ops.push(...pairs);
          gotUh = true;
        }
      } else if (!gotUh && text.includes('# User@Host: ') && (userHost = userHostPairs(text))) {
        ops.push(...userHost);
        gotUh = true;
      } else if (!gotAc && text.startsWith('# administrator command:')) {
        query = text.replace(LEADING_HASH_WS, '');
        admin = true;
        foundArg = true;
        gotAc = true;
      } else if (ATTRIBUTE_LINE.test(text)) {
        if (text.includes('Schema:') && EMPTY_SCHEMA.test(text)) text = text.replace(SCHEMA_PREFIX, '');
        ops.push(ATTRIBUTE_LINE_OP, text);
      } else if (!gotDb && (m = USE_LINE.exec(text))) {
        ops.push('db', m[1] ?? '');
        gotDb = true;
      } else if (!gotSet && (setTimestamp = timestampOfSetLine(text)) !== undefined) {
        ops.push('timestamp', setTimestamp); // the common case of the general rule below
        gotSet = true;
      } else if (!gotSet && (m = SET_LINE.exec(text))) {
        const parts = perlSplit(m[1] ?? '', SET_SPLIT);
        for (let i = 0; i + 1 < parts.length; i += 2) ops.push(parts[i] ?? '', parts[i + 1] ?? '');
        gotSet = true;
      } else if (strict && text === '# Warnings') {
        inWarnings = true;
      }

      // The server's SET line was the record's last line: the statement starts with a line
      // that begins with '#' (it ended the record): read on, unless a server header follows.
      if (allowJoin && gotSet && pos === len && !foundArg) {
        out.join = true;
        return out;
      }
      // Called for every line although it acts only on a last header line without a query:
      // a call first made after parseRecord() is optimised would throw that code away.
      const ahead = lookAhead(!foundArg && pos === len, out, ops);
      if (ahead === NEED_MORE) return NEED_MORE;
      if (ahead !== NO_LOOK_AHEAD) {
        if (out.skip !== undefined) return out;
        if (ahead === NEXT_HEADER_FOLLOWS) query = '/* No query */';
        else {
          query = ahead;
          admin = true;
        }
        foundArg = true;
      }
      start = end + 1;
    }

    return finish(out, query, admin, ops, allowJoin, stmt, offset, lineNo);
  }

  return parseRecord;
}
