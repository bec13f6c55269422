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
  /**
   * Longest record held whole in memory. A longer one is still an event: its header and the first
   * {@link LONG_QUERY_HEAD} bytes of its query are kept (the fingerprint comes from those), the
   * rest streams past until its terminator. Default 64 MiB.
   */
  maxRecordLength?: number;
  /**
   * Reproduce pt-query-digest 3.2.1's reading exactly, including where it is wrong (see
   * docs/slowlog.md, "Where pt-query-digest is wrong"). Default false: read what the server wrote.
   */
  ptCompatible?: boolean;
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
/** How much of an over-long record's query is kept (see SlowLogParserOptions.maxRecordLength). */
export const LONG_QUERY_HEAD = 1024 * 1024;
/** Room for the header lines in front of an over-long record's query head. */
const LONG_HEADER_ROOM = 64 * 1024;
const USER_HOST_SLOTS = 256;
const WS = '[ \\t\\n\\r\\f\\v]';
const BANNER = new RegExp(
  `(?:^|(?<=\\n))(?:T[cC][pP]${WS}[pP]ort:${WS}+\\d+|[/A-Z][^\\n]*mysqld,${WS}Version[^\\n]*(?:started${WS}with:|embedded${WS}library)|Time${WS}+Id${WS}+Command)[^\\n]*\\n`,
  'g',
);
/** BANNER plus MariaDB ≥ 10.5's server name (`…/mariadbd, Version: …`), which pt does not know. */
const BANNER_MARIADBD = new RegExp(
  `(?:^|(?<=\\n))(?:T[cC][pP]${WS}[pP]ort:${WS}+\\d+|[/A-Z][^\\n]*(?:mysqld|mariadbd),${WS}Version[^\\n]*(?:started${WS}with:|embedded${WS}library)|Time${WS}+Id${WS}+Command)[^\\n]*\\n`,
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

const CRLF = /\r\n/g;
/** The first header line(s) of an event as servers write them (see headerFollows()). */
const SERVER_HEADER =
  /^(?:# Time: (?:\d{6} {1,2}\d{1,2}:\d\d:\d\d(?:\.\d+)?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?)[ \t]*(?:\n|$)|# User@Host: [^\n]*\[[^\n]*\] @ [^\n]*\[[^\n]*\])/;
const NEED_MORE = Symbol('need-more');
const NO_LOOK_AHEAD = Symbol('no-look-ahead');
const NEXT_HEADER_FOLLOWS = Symbol('next-header-follows');
/** Shared empty list for an outcome's queues (most records queue nothing). */
const NONE: readonly string[] = Object.freeze([]);
type Read = string | undefined | typeof NEED_MORE;

interface Outcome {
  event: SlowLogEvent | undefined;
  skip: string | undefined;
  /** The record's query ends inside a literal: its `;\n#` was not a terminator (strict mode). */
  join: boolean;
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
  return (
    text.includes('ort:', from) ||
    text.includes('Command', from) ||
    text.includes('mysqld,', from) ||
    text.includes('mariadbd,', from)
  );
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

/** Lexer states of {@link lexSql}: outside anything, or inside a quote or comment. */
const LEX_CODE = 0;
const LEX_SINGLE = 1; // '…'
const LEX_DOUBLE = 2; // "…"
const LEX_BACKTICK = 3; // `…`
const LEX_BLOCK_COMMENT = 4; // /* … */
const LEX_LINE_COMMENT = 5; // -- … or # … (ends at a newline)

/** Where {@link lexSql} stopped (it may step one char past `to` to finish a two-char token). */
let lexEnd = 0;

/**
 * MySQL's lexical state after `text[from, to)`, starting in `state`: which quote or comment is
 * open. Backslash escapes count in '…' and "…" (the default sql_mode; NO_BACKSLASH_ESCAPES is not
 * visible in a slow log). Reads at most one char past `to` (for `''`, `*\/`, `\\x`, `--`).
 */
function lexSql(text: string, from: number, to: number, state: number): number {
  let i = from;
  const n = text.length;
  while (i < to) {
    const c = text.charCodeAt(i);
    switch (state) {
      case LEX_CODE:
        if (c === 39 /* ' */) state = LEX_SINGLE;
        else if (c === 34 /* " */) state = LEX_DOUBLE;
        else if (c === 96 /* ` */) state = LEX_BACKTICK;
        else if (c === 35 /* # */) state = LEX_LINE_COMMENT;
        else if (c === 47 /* / */ && i + 1 < n && text.charCodeAt(i + 1) === 42 /* * */) {
          state = LEX_BLOCK_COMMENT;
          i++;
        } else if (c === 45 /* - */ && i + 2 < n && text.charCodeAt(i + 1) === 45) {
          // MySQL: `--` starts a comment only before whitespace or a control char.
          const d = text.charCodeAt(i + 2);
          if (d <= 32) {
            state = LEX_LINE_COMMENT;
            i++;
          }
        }
        break;
      case LEX_SINGLE:
      case LEX_DOUBLE:
      case LEX_BACKTICK: {
        const quote = state === LEX_SINGLE ? 39 : state === LEX_DOUBLE ? 34 : 96;
        if (c === 92 /* \ */ && state !== LEX_BACKTICK) i++;
        else if (c === quote) {
          if (i + 1 < n && text.charCodeAt(i + 1) === quote) i++;
          else state = LEX_CODE;
        }
        break;
      }
      case LEX_BLOCK_COMMENT:
        if (c === 42 /* * */ && i + 1 < n && text.charCodeAt(i + 1) === 47 /* / */) {
          state = LEX_CODE;
          i++;
        }
        break;
      default: // LEX_LINE_COMMENT
        if (c === 10) state = LEX_CODE;
    }
    i++;
  }
  lexEnd = i;
  return state;
}

/** An over-long record being streamed through (see createSlowLogParser's startLongRecord). */
interface LongRecord {
  offset: number;
  line: number;
  ops: readonly (string | typeof ATTRIBUTE_LINE_OP)[];
  /** The statement, compacted: literal runs beyond LITERAL_RUN_KEPT chars are dropped. */
  kept: string[];
  keptLength: number;
  /** Length of the current run of plain chars inside a '…' or "…" literal. */
  run?: number;
  /** More than LONG_QUERY_HEAD bytes were kept: the rest is dropped. */
  cut?: boolean;
}

/** How many chars of a run inside a literal a long record keeps (the fingerprint needs none). */
const LITERAL_RUN_KEPT = 64;

/**
 * {@link lexSql} that also appends `text[from, to)` to `long.kept`, without the chars of a
 * '…'/"…" literal past the first LITERAL_RUN_KEPT of each run of plain chars (quotes and
 * backslashes are all kept, so the literals stay where they were and pt's fingerprint, which
 * turns every literal into `?`, is the same). Stops keeping after LONG_QUERY_HEAD chars.
 */
function compactSql(
  text: string,
  from: number,
  to: number,
  state: number,
  long: LongRecord | undefined,
): number {
  if (long === undefined || long.cut === true) return lexSql(text, from, to, state);
  let run = long.run ?? 0;
  let segment = from;
  let i = from;
  const n = text.length;
  const flush = (until: number): void => {
    if (until > segment) {
      long.kept.push(text.slice(segment, until));
      long.keptLength += until - segment;
    }
  };
  while (i < to) {
    const c = text.charCodeAt(i);
    if (state === LEX_SINGLE || state === LEX_DOUBLE) {
      const quote = state === LEX_SINGLE ? 39 : 34;
      if (c === 92 /* \ */) {
        run = 0;
        i += 2;
        continue;
      }
      if (c === quote) {
        run = 0;
        if (i + 1 < n && text.charCodeAt(i + 1) === quote) i += 2;
        else {
          state = LEX_CODE;
          i++;
        }
        continue;
      }
      if (c === 39 || c === 34) run = 0;
      else if (++run > LITERAL_RUN_KEPT) {
        flush(i);
        // Skip the rest of the run at once.
        let j = i + 1;
        while (j < to) {
          const d = text.charCodeAt(j);
          if (d === 92 || d === 39 || d === 34) break;
          j++;
        }
        i = j;
        segment = j;
        continue;
      }
      i++;
      continue;
    }
    const next = lexSql(text, i, i + 1, state);
    i = lexEnd;
    if (next !== state) run = 0;
    state = next;
  }
  lexEnd = i;
  flush(Math.min(i, n));
  long.run = run;
  if (long.keptLength > LONG_QUERY_HEAD) long.cut = true;
  return state;
}

/** Whether a lexer state means the text so far ends inside a quote or a block comment. */
function lexOpen(state: number): boolean {
  return state !== LEX_CODE && state !== LEX_LINE_COMMENT;
}

/**
 * Whether `query` ends inside a quote or block comment, i.e. the `;\n#` that ended its record
 * was part of a literal. Most queries are decided by native substring searches: without quotes
 * or `/*` nothing can be open, and with only `'` quotes (no backslash, other quote or comment
 * that could hide one) the count of `'` decides (a doubled `''` keeps it even).
 */
function queryEndsOpen(query: string): boolean {
  const single = query.indexOf("'");
  if (single === -1 && !query.includes('"') && !query.includes('`') && !query.includes('/*')) {
    return false;
  }
  if (
    single !== -1 &&
    !query.includes('\\') &&
    !query.includes('"') &&
    !query.includes('`') &&
    !query.includes('/*') &&
    !query.includes('#') &&
    !query.includes('--')
  ) {
    let count = 0;
    for (let i = single; i !== -1; i = query.indexOf("'", i + 1)) count++;
    return (count & 1) === 1;
  }
  // The terminator's ';' is not part of the query; a char past the end reads as NaN (no token).
  return lexOpen(lexSql(query, 0, query.length, LEX_CODE));
}

/**
 * Creates a streaming slow-log parser. Push binary-string chunks of any size; the events
 * and skips are identical whatever the chunking.
 */
export function createSlowLogParser(options: SlowLogParserOptions): SlowLogParser {
  const maxRecordLength = options.maxRecordLength ?? 64 * 1024 * 1024;
  const strict = options.ptCompatible !== true;
  const banner = strict ? BANNER_MARIADBD : BANNER;
  let buf = '';
  let cursor = 0; // position in buf of the next unread char
  let base = 0; // absolute offset of buf[0]
  let line = 1; // line number at cursor
  let scanFrom = 0; // where to resume searching for the record separator
  let ended = false;
  let discarding = false; // inside an over-long record
  let longState = 0; // lexSql state at longPos
  let longPos = 0; // position in buf up to which the long record's statement is lexed
  let long: LongRecord | undefined; // the over-long record being streamed through
  // Chunks that cannot complete anything yet are parked unjoined, so a long record costs O(n).
  let parts: string[] = [];
  let partsLength = 0;
  let tail = ''; // last two chars pushed, to find a separator across a chunk boundary
  let awaiting = RECORD_SEPARATOR; // what the parser is blocked on
  let events = 0;
  const pending: { text: string; offset: number; line: number }[] = [];
  // Line ends: decided by the first line (strict mode). A log copied through Windows has CRLF
  // everywhere, and then no `;\n#` at all: pt-query-digest reads the whole file as one event.
  let lineEnds: 'unknown' | 'lf' | 'crlf' = 'unknown';
  let heldCR = false; // a chunk ended with \r: its \n may start the next one

  /** In a CRLF log, CRLF → LF (offsets are then those of the converted text; lines are unchanged). */
  function normalizeLineEnds(input: string): string {
    if (lineEnds === 'lf') return input;
    let text = heldCR ? '\r' + input : input;
    heldCR = false;
    if (lineEnds === 'unknown') {
      const nl = text.indexOf('\n');
      if (nl === -1) {
        heldCR = text.endsWith('\r');
        return heldCR ? text.slice(0, -1) : text;
      }
      lineEnds = nl > 0 && text.charCodeAt(nl - 1) === 13 ? 'crlf' : 'lf';
      if (lineEnds === 'lf') return text;
    }
    heldCR = text.endsWith('\r');
    if (heldCR) text = text.slice(0, -1);
    return text.includes('\r\n') ? text.replace(CRLF, '\n') : text;
  }

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

  const scratchOutcome: Outcome = { event: undefined, skip: undefined, join: false, front: NONE, back: NONE };

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
    hashed: string | undefined,
    allowJoin: boolean,
  ): Outcome | typeof NEED_MORE {
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
      const chunks = perlSplit(stmt, RECORD_SEPARATOR);
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
    const len = stmt.length;
    let start = 0;
    while (start < len || (start === 0 && len === 0)) {
      let end = stmt.indexOf('\n', start);
      if (end === -1) end = len;
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

    if (!perlTruthy(query)) {
      if (!BLANK_RECORD.test(stmt)) out.skip = 'header lines without a query (partial event)';
      return out;
    }
    if (allowJoin && !admin && queryEndsOpen(query)) {
      out.join = true;
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
          if (!passLongRecord()) return;
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
            startLongRecord();
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
      let outcome = parseRecord(raw, offset, lineNo, hashed, strict && !fromPending);
      // Strict mode: the query ends inside a literal, so the `;\n#` that ended the record may be
      // part of it: unless a server-written header follows (a statement with an unbalanced quote
      // is logged too, as a syntax error), read on to the next `;\n#`.
      while (outcome !== NEED_MORE && outcome.join) {
        const follows = headerFollows();
        if (follows === NEED_MORE) {
          cursor = savedCursor;
          line = savedLine;
          return;
        }
        if (follows) {
          outcome = parseRecord(raw, offset, lineNo, undefined, false);
          break;
        }
        const more = read(RECORD_SEPARATOR, true);
        if (more === NEED_MORE) {
          cursor = savedCursor;
          line = savedLine;
          if (buf.length - cursor > maxRecordLength) {
            startLongRecord();
            break;
          }
          return;
        }
        raw += more ?? '';
        outcome = parseRecord(raw, offset, lineNo, undefined, more !== undefined);
      }
      if (outcome !== NEED_MORE && outcome.join) continue; // became a long record
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

  /**
   * Whether the text at `cursor` (just after a `;\n#`) is a header line the server wrote: a
   * `# Time:` line holding just a whole time, or a `# User@Host: u[u] @ h [ip]` line.
   */
  function headerFollows(): boolean | typeof NEED_MORE {
    const nl = buf.indexOf('\n', cursor);
    if (nl === -1 && !ended && buf.length - cursor < 4096) return NEED_MORE;
    const head = '#' + buf.slice(cursor, nl === -1 ? Math.min(buf.length, cursor + 4096) : nl);
    return SERVER_HEADER.test(head);
  }

  /**
   * A record longer than maxRecordLength without a terminator (at `cursor`): its header is read
   * from the record's head, and passLongRecord() streams through the rest of the statement,
   * keeping a compacted copy (see compactSql) from which its fingerprint is exact in the usual
   * cases; the event is emitted at the record's end.
   */
  function startLongRecord(): void {
    const offset = base + cursor;
    const lineNo = line;
    const head = buf.slice(cursor, Math.min(buf.length, cursor + LONG_HEADER_ROOM));
    const outcome = parseRecord(head, offset, lineNo, undefined, false);
    const event = outcome === NEED_MORE ? undefined : outcome.event;
    discarding = true;
    longState = LEX_CODE;
    longPos = cursor;
    long = undefined;
    if (event === undefined || event.admin) {
      skip(
        lineNo,
        offset,
        `record longer than ${maxRecordLength} bytes without a query in its first ${head.length} bytes; skipped`,
      );
      return;
    }
    long = { offset, line: lineNo, ops: (event as ParsedSlowLogEvent).ops, kept: [], keptLength: 0 };
    longPos = cursor + head.length - event.query.length;
  }

  /**
   * Streams through the rest of a long record up to its terminator: the next `;\n#` (pt), or in
   * strict mode the next one outside a literal (or followed by a server-written header). False
   * when more input is needed.
   */
  function passLongRecord(): boolean {
    let idx = buf.indexOf(RECORD_SEPARATOR, Math.max(cursor, longPos - 1));
    let end = -1;
    while (idx !== -1) {
      if (idx > longPos) advanceLong(idx);
      if (!strict || !lexOpen(longState)) {
        end = idx;
        break;
      }
      const saved = cursor;
      cursor = idx + RECORD_SEPARATOR.length;
      const follows = headerFollows();
      cursor = saved;
      if (follows === NEED_MORE) break;
      if (follows) {
        end = idx;
        break;
      }
      idx = buf.indexOf(RECORD_SEPARATOR, idx + 1);
    }
    if (end === -1) {
      if (!ended) {
        // Keep the last chars unread: a separator may straddle this chunk and the next.
        const safe = Math.max(cursor, buf.length - RECORD_SEPARATOR.length);
        if (safe > longPos) advanceLong(safe);
        const to = Math.max(cursor, Math.min(safe, longPos));
        line += countNewlines(buf, cursor, to);
        cursor = to;
        scanFrom = cursor;
        return false;
      }
      if (buf.length > longPos) advanceLong(buf.length);
      end = buf.length;
    }
    const next = Math.min(buf.length, end + RECORD_SEPARATOR.length);
    line += countNewlines(buf, cursor, next);
    cursor = next;
    scanFrom = cursor;
    discarding = false;
    if (long !== undefined) {
      let query = long.kept.join('');
      if (end === buf.length) query = trimTerminator(query);
      if (long.cut) query += `\n/* sargable: the statement is cut here (${long.keptLength} bytes kept) */`;
      events++;
      options.onEvent(new ParsedSlowLogEvent(long.offset, long.line, query, false, long.ops));
      long = undefined;
    }
    return !ended || cursor < buf.length;
  }

  /** Lexes and compacts the long record's statement from longPos to `to`. */
  function advanceLong(to: number): void {
    const from = longPos;
    longState = compactSql(buf, from, to, longState, long);
    longPos = lexEnd;
  }

  function compact(): void {
    if (cursor > 0) {
      buf = buf.slice(cursor);
      base += cursor;
      scanFrom = Math.max(0, scanFrom - cursor);
      longPos = Math.max(0, longPos - cursor);
      cursor = 0;
    }
  }

  return {
    push(input: string): void {
      if (ended) throw new Error('push() after end()');
      const chunk = strict ? normalizeLineEnds(input) : input;
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
      if (heldCR) {
        heldCR = false;
        parts.push('\r');
        partsLength++;
      }
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
