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

import type { ATTRIBUTE_LINE_OP } from './event.js';
import {
  ParsedSlowLogEvent,
  type SlowLogEvent,
  type SlowLogParser,
  type SlowLogParserOptions,
  type SlowLogSkip,
} from './event.js';
import { compactSql, LEX_CODE, lexOpen, lexStop, type LongRecord } from './record-lex.js';
import {
  countNewlines,
  createRecordParser,
  LEADING_WS,
  NEED_MORE,
  NEXT_HEADER,
  NEXT_HEADER_FOLLOWS,
  NO_LOOK_AHEAD,
  type Outcome,
  type Read,
  RECORD_SEPARATOR,
  SERVER_HEADER,
  trimTerminator,
} from './record.js';

// The public surface stays here (index.ts, the digest and capture import it from parser.ts).
export {
  ATTRIBUTE_LINE_OP,
  ParsedSlowLogEvent,
  perlTruthy,
  readAttributePairs,
  type SlowLogEvent,
  type SlowLogParser,
  type SlowLogParserOptions,
  type SlowLogSkip,
} from './event.js';
export { LONG_QUERY_HEAD } from './record-lex.js';

/** Room for the header lines in front of an over-long record's query head. */
const LONG_HEADER_ROOM = 64 * 1024;
const CRLF = /\r\n/g;
/**
 * Creates a streaming slow-log parser. Push binary-string chunks of any size; the events
 * and skips are identical whatever the chunking.
 */
export function createSlowLogParser(options: SlowLogParserOptions): SlowLogParser {
  const maxRecordLength = options.maxRecordLength ?? 64 * 1024 * 1024;
  const strict = options.ptCompatible !== true;
  const parseRecord = createRecordParser(strict, lookAhead, options.commonRecords !== false);
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
    longPos = lexStop();
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
