// Streaming MySQL/Percona/MariaDB slow-log parser that mirrors pt-query-digest's SlowLogParser.
/*
 * Design note
 * -----------
 * Input is a *binary string* (one char per byte, see `bytesToBinaryString`), pushed in chunks of
 * any size; `end()` flushes. Memory is bounded by the longest record (capped by
 * `maxRecordLength`) plus one chunk, so a multi-GB log streams through.
 *
 * The state machine is pt-query-digest 3.2.1's `SlowLogParser::parse_event`, transliterated:
 *
 *  1. Records. The stream is cut after every `;\n#` (Perl's `$/`). A record that still holds a
 *     server banner (`… mysqld, Version: … started with:`, `Tcp port: N …`, `Time Id Command`)
 *     has those lines deleted and is split again on `;\n#`; the extra pieces go to a pending
 *     queue that is read before the stream. A leading `#` is put back when missing, and a
 *     trailing `;\n` / `;\n#` (plus at most one newline) is removed.
 *  2. Header lines, top to bottom. A line starting with `#`, `use ` or `SET timestamp|insert_id|
 *     last_insert_id` is a header candidate; the first rule that matches applies: `# Time:` (ts,
 *     once; the same line may carry User@Host), `# User@Host:` (once, anywhere in the line;
 *     Id gives Thread_id), `# administrator command: X` (the query), `# Name: value …` attribute
 *     lines (every `Name: value` pair, values stay raw strings), `use db` (once), `SET a=b,…`
 *     (once). The first non-candidate line starts the query, which runs verbatim to the end of
 *     the record.
 *  3. A record whose last line is a header and that has no query reads ahead to the next
 *     `;\n`: a capitalised `Word: ` there means the next event's header follows (this event's
 *     query becomes `/* No query *\/`, and that text plus the rest up to `;\n#` is queued);
 *     otherwise the text read ahead is the query (an administrator statement). At end of input
 *     the event is dropped. While more input may come, a record that needs this look-ahead is
 *     parked until it is available, so chunk boundaries never change the result.
 *
 * Deliberate additions (pt-query-digest has no equivalent): every dropped or partial record is
 * reported through `onSkip` with its line and a reason, and a record longer than
 * `maxRecordLength` without a terminator is skipped (pt-query-digest would hold it in memory).
 */

/** One slow-log entry with a query, as pt-query-digest's SlowLogParser would return it. */
export interface SlowLogEvent {
  /** Offset (bytes, when the input is a binary string) of the record the event came from. */
  readonly offset: number;
  /** 1-based line of the record start. */
  readonly line: number;
  /** The statement text, verbatim (binary string). Never empty. */
  readonly query: string;
  /** True for `# administrator command:` lines and other statements read ahead without a header. */
  readonly admin: boolean;
  /**
   * Every header property as a raw string, by its log name: `ts`, `user`, `host`, `ip`,
   * `Thread_id`, `db` (from `use`), `Schema`, `Query_time`, `Lock_time`, `Rows_sent`, … and the
   * pairs of the `SET` line (`timestamp`, `insert_id`). Later duplicates win, as in Perl.
   */
  readonly properties: Readonly<Record<string, string>>;
}

/** Marks an attribute line (`# Name: value …`) in {@link ParsedSlowLogEvent.ops}. */
export const ATTRIBUTE_LINE_OP: unique symbol = Symbol('attribute-line');

/**
 * The parser's event. Header properties are kept as the ordered list of what the header lines
 * set (`ops`: name/value pairs, or {@link ATTRIBUTE_LINE_OP} followed by a whole attribute line)
 * and turned into `properties` only when someone asks; the digest reads `ops` directly, which
 * saves building a 30-key object per event for `log_slow_extra` logs.
 */
export class ParsedSlowLogEvent implements SlowLogEvent {
  private props: Record<string, string> | undefined;
  constructor(
    readonly offset: number,
    readonly line: number,
    readonly query: string,
    readonly admin: boolean,
    /** Header operations in log order; later values win, as in Perl. */
    readonly ops: readonly (string | typeof ATTRIBUTE_LINE_OP)[],
  ) {}

  get properties(): Readonly<Record<string, string>> {
    if (this.props === undefined) {
      const props = Object.create(null) as Record<string, string>;
      const ops = this.ops;
      for (let i = 0; i + 1 < ops.length; i += 2) {
        const op = ops[i]!;
        const value = ops[i + 1] as string;
        if (op === ATTRIBUTE_LINE_OP) readAttributePairs(value, props);
        else props[op] = value;
      }
      this.props = props;
    }
    return this.props;
  }

  toJSON(): SlowLogEvent {
    return {
      offset: this.offset,
      line: this.line,
      query: this.query,
      admin: this.admin,
      properties: this.properties,
    };
  }
}

/** A record that was not turned into an event, with where it was and why. */
export interface SlowLogSkip {
  /** The file, when the caller digests several. */
  readonly file?: string;
  readonly line: number;
  readonly offset: number;
  readonly reason: string;
}

/** Options for {@link createSlowLogParser}. */
export interface SlowLogParserOptions {
  onEvent(event: SlowLogEvent): void;
  onSkip?(skip: SlowLogSkip): void;
  /** Longest record kept in memory; longer ones are skipped and reported. Default 64 MiB. */
  maxRecordLength?: number;
}

/** An incremental parser: push chunks, then end. */
export interface SlowLogParser {
  push(chunk: string): void;
  end(): void;
  /** Characters (bytes for binary input) consumed so far. */
  readonly consumed: number;
  /** Characters pushed so far. */
  readonly received: number;
  /** Events emitted so far. */
  readonly events: number;
  /** Line number (1-based) of the next unread char. */
  readonly line: number;
  /**
   * True when everything pushed has been read and nothing is queued or waiting for more input:
   * a fresh parser given the rest of the input (its offsets and lines shifted by `consumed`
   * and `line - 1`) then yields exactly the events and skips this one would.
   */
  readonly atRecordBoundary: boolean;
}

const RECORD_SEPARATOR = ';\n#';
const USER_HOST_SLOTS = 256;
const WS = '[ \\t\\n\\r\\f\\v]';
const BANNER = new RegExp(
  `(?:^|(?<=\\n))(?:T[cC][pP]${WS}[pP]ort:${WS}+\\d+|[/A-Z][^\\n]*mysqld,${WS}Version[^\\n]*(?:started${WS}with:|embedded${WS}library)|Time${WS}+Id${WS}+Command)[^\\n]*\\n`,
  'g',
);
const USER_HOST_LINE = new RegExp(
  `# User@Host: ([^\\[]+|\\[[^\\[]+\\])[^\\n]*?@ ([^ \\t\\n\\r\\f\\v]*) \\[([^\\n]*)\\]${WS}*(?:Id:${WS}*(\\d+))?`,
);
const ATTRIBUTE_LINE = /^# +[A-Z][A-Za-z_]+: [^ \t\n\r\f\v]/;
const EMPTY_SCHEMA = new RegExp(`Schema:${WS}+\\w+: `);
const SCHEMA_PREFIX = new RegExp(`Schema:${WS}+`);
const USE_LINE = /^use ([^;]+)/;
const SET_LINE = new RegExp(`^SET${WS}+([^;]*)`);
const SET_SPLIT = new RegExp(`,|${WS}*=${WS}*`);
const LEADING_WS = new RegExp(`^${WS}+`);
const LEADING_HASH_WS = new RegExp(`^#${WS}+`);
const NEXT_HEADER = new RegExp(`^${WS}*[A-Z][a-z_]+: `);
const BLANK_RECORD = new RegExp(`^[#${WS.slice(1, -1)}]*$`);

const NEED_MORE = Symbol('need-more');
const NO_LOOK_AHEAD = Symbol('no-look-ahead');
const NEXT_HEADER_FOLLOWS = Symbol('next-header-follows');
/** Shared empty list for an outcome's queues (most records queue nothing). */
const NONE: readonly string[] = Object.freeze([]);
type Read = string | undefined | typeof NEED_MORE;

interface Outcome {
  event: SlowLogEvent | undefined;
  skip: string | undefined;
  front: readonly string[];
  back: readonly string[];
}

/** Perl truthiness of a string: neither empty nor "0". */
export function perlTruthy(value: string | undefined): value is string {
  return value !== undefined && value !== '' && value !== '0';
}

/** Perl `split`: like String#split but trailing empty fields are removed. */
function perlSplit(text: string, separator: string | RegExp): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function trimTerminator(stmt: string): string {
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
  return text.includes('ort:', from) || text.includes('Command', from) || text.includes('mysqld,', from);
}

/**
 * False when BANNER cannot match `record`. Every BANNER alternative starts a line with `T`, `/`
 * or `A-Z` and stays on that line, so lines starting with `#` (the bulk of a record's bytes:
 * header and attribute lines) cannot hold one; the first line is always looked at, and the
 * rest from the first line that does not start with `#`.
 */
function mayHoldBanner(record: string): boolean {
  const firstEnd = record.indexOf('\n');
  // The first line's only line start is the record's start: a banner there starts with `/` or
  // A-Z (a record read after `;\n#` usually starts with a space: ` Time: …`).
  const c = record.charCodeAt(0);
  if (c === 47 /* / */ || (c >= 65 && c <= 90)) {
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

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let i = text.indexOf('\n', from);
  while (i !== -1 && i < to) {
    count++;
    i = text.indexOf('\n', i + 1);
  }
  return count;
}

/**
 * Creates a streaming slow-log parser. Push binary-string chunks of any size; the events
 * and skips are identical whatever the chunking.
 */
export function createSlowLogParser(options: SlowLogParserOptions): SlowLogParser {
  const maxRecordLength = options.maxRecordLength ?? 64 * 1024 * 1024;
  let buf = '';
  let cursor = 0; // position in buf of the next unread char
  let base = 0; // absolute offset of buf[0]
  let line = 1; // line number at cursor
  let scanFrom = 0; // where to resume searching for the record separator
  let ended = false;
  let discarding = false; // inside an over-long record
  // Chunks that cannot complete anything yet are parked unjoined, so a long record costs O(n).
  let parts: string[] = [];
  let partsLength = 0;
  let tail = ''; // last two chars pushed, to find a separator across a chunk boundary
  let awaiting = RECORD_SEPARATOR; // what the parser is blocked on
  let events = 0;
  const pending: { text: string; offset: number; line: number }[] = [];

  // `# User@Host:` lines repeat (one per connection): parse each distinct line once. A
  // direct-mapped cache (slot from the line's length and last chars, confirmed by `===`) costs
  // less than hashing a fresh slice of the buffer for a Map.
  const userHostLines: (string | undefined)[] = new Array<string | undefined>(USER_HOST_SLOTS);
  const userHostValues: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(
    USER_HOST_SLOTS,
  );
  function userHostPairs(text: string): readonly string[] | undefined {
    const n = text.length;
    let hash = n;
    for (let i = n > 24 ? n - 24 : 0; i < n; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    const slot = hash & (USER_HOST_SLOTS - 1);
    if (userHostLines[slot] === text) return userHostValues[slot];
    // Match on a copy of the line: the cached values would otherwise be slices of the read
    // buffer and keep a whole chunk alive per slot.
    const own = text.length < 13 ? text : (' ' + text).slice(1);
    const m = USER_HOST_LINE.exec(own);
    const pairs: string[] | undefined = m ? [] : undefined;
    if (m && pairs) setUserHost(pairs, m);
    userHostLines[slot] = own;
    userHostValues[slot] = pairs;
    return pairs;
  }

  const scratchOutcome: Outcome = { event: undefined, skip: undefined, front: NONE, back: NONE };

  function skip(lineNo: number, offset: number, reason: string): void {
    options.onSkip?.({ line: lineNo, offset, reason });
  }

  /** Reads up to and including `sep` from the stream (Perl `<$fh>` with `$/ = sep`). */
  function read(sep: string, useScanHint = false): Read {
    const from = useScanHint ? Math.max(cursor, scanFrom) : cursor;
    const idx = buf.indexOf(sep, from);
    if (idx === -1) {
      if (useScanHint) scanFrom = Math.max(cursor, buf.length - sep.length + 1);
      if (!ended) {
        awaiting = sep;
        return NEED_MORE;
      }
      if (cursor >= buf.length) return undefined;
      const rest = buf.slice(cursor);
      line += countNewlines(buf, cursor, buf.length);
      cursor = buf.length;
      return rest;
    }
    const end = idx + sep.length;
    const text = buf.slice(cursor, end);
    line += countNewlines(buf, cursor, end);
    cursor = end;
    return text;
  }

  /**
   * `hashed`, when given, is `'#' + raw` as a slice of the buffer (the `#` the previous record
   * separator ended with), which saves copying every record to prepend it.
   */
  function parseRecord(
    raw: string,
    offset: number,
    lineNo: number,
    hashed?: string,
  ): Outcome | typeof NEED_MORE {
    // One outcome object per parser: drain() reads it before the next record.
    const out = scratchOutcome;
    out.event = undefined;
    out.skip = undefined;
    out.front = NONE;
    out.back = NONE;
    let stmt = raw;
    let banner = false;
    if (mayHoldBanner(stmt) && BANNER.test(stmt)) {
      BANNER.lastIndex = 0;
      banner = true;
      stmt = stmt.replace(BANNER, '');
      const chunks = perlSplit(stmt, RECORD_SEPARATOR);
      if (chunks.length > 1) {
        stmt = chunks[0] ?? '';
        out.front = chunks.slice(1);
      }
    }
    BANNER.lastIndex = 0;
    if (!stmt.startsWith('#')) {
      const own = banner || hashed === undefined;
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
    const len = stmt.length;
    let start = 0;
    while (start < len || (start === 0 && len === 0)) {
      let end = stmt.indexOf('\n', start);
      if (end === -1) end = len;
      if (!isHeaderCandidate(stmt, start)) {
        query = stmt.slice(start);
        break;
      }
      let text = stmt.slice(start, end);
      const pos = end;
      let m: RegExpExecArray | null;
      let userHost: readonly string[] | undefined;
      let setTimestamp: string | undefined;
      let ts: string | undefined;
      if (!gotTs && (ts = timeOfLine(text)) !== undefined) {
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

    if (!perlTruthy(query)) {
      if (!BLANK_RECORD.test(stmt)) out.skip = 'header lines without a query (partial event)';
      return out;
    }
    out.event = new ParsedSlowLogEvent(offset, lineNo, query, admin, ops);
    return out;
  }

  /**
   * pt's read-ahead after a record whose last line is a header (step 3 of the design note):
   * the query (an administrator statement), NEXT_HEADER_FOLLOWS when the next event's header
   * follows (queued on `out.back`; the query is then `/* No query *\/`), NEED_MORE, or
   * NO_LOOK_AHEAD when `needed` is false.
   * A truncated end of input sets `out.skip` and returns ''.
   */
  function lookAhead(
    needed: boolean,
    out: Outcome,
    ops: (string | typeof ATTRIBUTE_LINE_OP)[],
  ): string | typeof NEED_MORE | typeof NO_LOOK_AHEAD | typeof NEXT_HEADER_FOLLOWS {
    if (!needed) return NO_LOOK_AHEAD;
    const ahead = read(';\n');
    if (ahead === NEED_MORE) return NEED_MORE;
    if (ahead === undefined) {
      out.skip = 'truncated event at end of input: header lines without a query';
      return '';
    }
    if (NEXT_HEADER.test(ahead)) {
      const rest = read(RECORD_SEPARATOR);
      if (rest === NEED_MORE) return NEED_MORE;
      out.back = [ahead + (rest ?? '')];
      ops.push('bytes', '0');
      return NEXT_HEADER_FOLLOWS;
    }
    const l = ahead.endsWith(';\n') ? ahead.slice(0, -2) : ahead;
    return l.replace(LEADING_WS, '');
  }

  function drain(): void {
    for (;;) {
      const fromPending = pending[0];
      const savedCursor = cursor;
      const savedLine = line;
      let raw: string;
      let hashed: string | undefined;
      let offset: number;
      let lineNo: number;
      if (fromPending) {
        ({ text: raw, offset, line: lineNo } = fromPending);
      } else {
        if (discarding) {
          const idx = buf.indexOf(RECORD_SEPARATOR, Math.max(cursor, scanFrom));
          if (idx === -1) {
            line += countNewlines(buf, cursor, buf.length);
            cursor = buf.length;
            scanFrom = cursor;
            return;
          }
          line += countNewlines(buf, cursor, idx + RECORD_SEPARATOR.length);
          cursor = idx + RECORD_SEPARATOR.length;
          discarding = false;
          continue;
        }
        offset = base + cursor;
        lineNo = line;
        const recordStart = cursor;
        const r = read(RECORD_SEPARATOR, true);
        // Computed for every record although only NEED_MORE needs it: arithmetic first run after
        // drain() is optimised (at the end of the first chunk) would throw that code away.
        const tooLong = buf.length - cursor > maxRecordLength;
        if (r === NEED_MORE) {
          if (tooLong) {
            skip(
              line,
              base + cursor,
              `record longer than ${maxRecordLength} bytes without a ";\\n#" terminator; skipped`,
            );
            discarding = true;
            continue;
          }
          return;
        }
        if (r === undefined) return;
        raw = r;
        if (recordStart > 0 && buf.charCodeAt(recordStart - 1) === 35 /* # */) {
          hashed = buf.slice(recordStart - 1, recordStart + r.length);
        }
      }
      const outcome = parseRecord(raw, offset, lineNo, hashed);
      const withinLimit = buf.length - cursor <= maxRecordLength; // see tooLong
      if (outcome === NEED_MORE) {
        if (withinLimit) {
          cursor = savedCursor;
          line = savedLine;
          return;
        }
        // The look-ahead found no terminator within the limit: give up on this record only.
        if (fromPending) pending.shift();
        skip(
          lineNo,
          offset,
          `no ";\\n" within ${maxRecordLength} bytes after a header without a query; skipped`,
        );
        continue;
      }
      if (fromPending) pending.shift();
      if (outcome.front.length > 0) {
        pending.unshift(...outcome.front.map((text) => ({ text, offset, line: lineNo })));
      }
      if (outcome.back.length > 0) {
        for (const text of outcome.back) pending.push({ text, offset: base + savedCursor, line: savedLine });
      }
      if (outcome.skip) skip(lineNo, offset, outcome.skip);
      if (outcome.event) {
        events++;
        options.onEvent(outcome.event);
      }
    }
  }

  function compact(): void {
    if (cursor > 0) {
      buf = buf.slice(cursor);
      base += cursor;
      scanFrom = Math.max(0, scanFrom - cursor);
      cursor = 0;
    }
  }

  return {
    push(chunk: string): void {
      if (ended) throw new Error('push() after end()');
      if (chunk === '') return;
      // Only the separator's first chars can come from the previous chunk: probing `tail` plus
      // the chunk's head and then the chunk itself never copies the (large) chunk.
      const found =
        chunk.includes(awaiting) || (tail + chunk.slice(0, awaiting.length - 1)).includes(awaiting);
      tail = chunk.length >= 2 ? chunk.slice(-2) : (tail + chunk).slice(-2);
      if (!discarding && !found && buf.length - cursor + partsLength + chunk.length <= maxRecordLength) {
        parts.push(chunk);
        partsLength += chunk.length;
        return;
      }
      parts.push(chunk);
      buf = buf.length === 0 && parts.length === 1 ? chunk : buf + parts.join('');
      parts = [];
      partsLength = 0;
      drain();
      compact();
    },
    end(): void {
      if (ended) return;
      ended = true;
      if (parts.length > 0) buf += parts.join('');
      parts = [];
      partsLength = 0;
      drain();
      compact();
    },
    get consumed(): number {
      return base + cursor;
    },
    get received(): number {
      return base + buf.length + partsLength;
    },
    get events(): number {
      return events;
    },
    get line(): number {
      return line;
    },
    get atRecordBoundary(): boolean {
      return !ended && !discarding && pending.length === 0 && parts.length === 0 && cursor === buf.length;
    },
  };
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13); // space \t \n \v \f \r
}

/**
 * Every `Name: value` pair of an attribute line: Perl's `m/(\w+):\s+(\S+|\Z)/g`, hand-rolled
 * because it runs for every header line. A word run either matches as a whole or not at all,
 * so scanning run by run finds the same leftmost matches.
 */
export function readAttributePairs(text: string, props: Record<string, string>): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isWordChar(text.charCodeAt(j))) j++;
    if (j + 1 < n && text.charCodeAt(j) === 58 /* : */ && isSpace(text.charCodeAt(j + 1))) {
      let k = j + 2;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      let v = k;
      while (v < n && !isSpace(text.charCodeAt(v))) v++;
      props[text.slice(i, j)] = text.slice(k, v);
      i = v;
    } else {
      i = j;
    }
  }
}

function setUserHost(ops: string[], m: RegExpExecArray): void {
  const user = m[1] ?? '';
  const ip = m[3] ?? '';
  const host = m[2] ?? '';
  ops.push('user', user, 'host', perlTruthy(host) ? host : ip, 'ip', ip);
  if (perlTruthy(m[4])) ops.push('Thread_id', m[4]);
}

/** Parses a whole log held in memory (tests, small files). */
export function parseSlowLog(text: string): { events: SlowLogEvent[]; skipped: SlowLogSkip[] } {
  const events: SlowLogEvent[] = [];
  const skipped: SlowLogSkip[] = [];
  const parser = createSlowLogParser({
    onEvent: (event) => events.push(event),
    onSkip: (s) => skipped.push(s),
  });
  parser.push(text);
  parser.end();
  return { events, skipped };
}
