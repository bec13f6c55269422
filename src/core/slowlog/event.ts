// The slow-log parser's output: events, skips, the parser's interface and options.
/*
 * Design note
 * -----------
 * An event's header properties are pt-query-digest's: every `Name: value` pair of the header
 * lines as a raw string (later duplicates win, as in Perl), plus `ts`, `user`, `host`, `ip`,
 * `Thread_id`, `db` and the pairs of the `SET` line. The parser does not build them: it records
 * what each header line set, in order ({@link ParsedSlowLogEvent.ops}), and `properties` is built
 * only on demand; the digest reads `ops` directly.
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
   * `LONG_QUERY_HEAD` (1 MiB) bytes of its query are kept (the fingerprint comes from those), the
   * rest streams past until its terminator. Default 64 MiB.
   */
  maxRecordLength?: number;
  /**
   * Reproduce pt-query-digest 3.2.1's reading exactly, including where it is wrong (see
   * docs/slowlog.md, "Where pt-query-digest is wrong"). Default false: read what the server wrote.
   */
  ptCompatible?: boolean;
  /**
   * Read the common record shape (time, user, attribute lines, `SET timestamp`, query) through
   * its shortcut (default true). Its events are the general reading's; tests turn it off to
   * prove that (tests/unit/slowlog/common-record.test.ts).
   */
  commonRecords?: boolean;
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

/** Perl truthiness of a string: neither empty nor "0". */
export function perlTruthy(value: string | undefined): value is string {
  return value !== undefined && value !== '' && value !== '0';
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
