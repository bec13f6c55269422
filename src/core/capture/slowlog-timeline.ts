// A line scanner that turns slow-log text into a workload timeline (events and query time per time bucket).
/*
 * Design note
 * -----------
 * The digest (src/core/slowlog) keeps per-class statistics only, not when each event ran. The
 * timeline needs one timestamp per event, so this scanner reads the same text alongside it and
 * looks at three kinds of lines only, by their first characters:
 *
 *   `# Time: …`          MySQL 5.7+ ISO (`2023-11-01T12:00:00.123456Z`, or without the zone when
 *                        log_timestamps=SYSTEM), MySQL 5.1-5.6 / MariaDB `yymmdd h:mm:ss`. MariaDB
 *                        and old MySQL write it only when the second changes, so it is inherited.
 *   `# Query_time: N`    starts an event (every MySQL, Percona and MariaDB event has this line).
 *   `SET timestamp=N;`   the event's own epoch seconds; preferred over `# Time:` when present.
 *
 * An event ends at the next `# Query_time:` line or at the end of input; it is placed at its
 * `SET timestamp` if it had one, else at the last `# Time:` seen. Times without a zone are read as
 * UTC (the log does not say which zone it used). Events that have no `# Query_time:` line
 * (statements read ahead without a header) are not counted here; the digest still counts them.
 * Text is pushed in chunks of any size; a line split across chunks is carried over.
 */
import { createTimeline, type TimelineOptions, type WorkloadTimeline } from './timeline.js';

/** Incremental scanner: push text chunks, then `end()`. */
export interface SlowLogTimelineScanner {
  push(text: string): void;
  end(): WorkloadTimeline;
}

const ISO_TS = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(Z|[+-]\d\d:?\d\d)?/;
const MYSQL_TS = /^(\d\d)(\d\d)(\d\d)\s+(\d{1,2}):(\d\d):(\d\d)/;

/** A `# Time:` value → epoch seconds (UTC when the value has no zone), or undefined. */
export function parseLogTime(value: string): number | undefined {
  const text = value.trim();
  const iso = ISO_TS.exec(text);
  if (iso) {
    const [, y, mo, d, h, mi, s, zone] = iso;
    let epoch = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
    if (zone && zone !== 'Z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      epoch -= sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60);
    }
    return Number.isFinite(epoch) ? epoch : undefined;
  }
  const old = MYSQL_TS.exec(text);
  if (old) {
    const [, y, mo, d, h, mi, s] = old;
    const epoch =
      Date.UTC(2000 + Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
    return Number.isFinite(epoch) ? epoch : undefined;
  }
  return undefined;
}

/** Creates a scanner; `options.maxBuckets` bounds the timeline (default 240). */
export function createSlowLogTimelineScanner(options: TimelineOptions = {}): SlowLogTimelineScanner {
  const timeline = createTimeline(options);
  let carry = '';
  let lastTime: number | undefined;
  let open = false;
  let eventTime: number | undefined;
  let eventSeconds = 0;

  function close(): void {
    if (open) timeline.add(eventTime ?? lastTime, eventSeconds);
    open = false;
    eventTime = undefined;
    eventSeconds = 0;
  }

  function line(text: string, from: number, to: number): void {
    const first = text.charCodeAt(from);
    if (first === 35 /* # */) {
      if (text.startsWith('# Query_time:', from)) {
        close();
        open = true;
        const value = Number.parseFloat(text.slice(from + 13, Math.min(to, from + 40)));
        eventSeconds = Number.isFinite(value) ? value : 0;
      } else if (text.startsWith('# Time:', from)) {
        const parsed = parseLogTime(text.slice(from + 7, to));
        if (parsed !== undefined) lastTime = parsed;
      }
    } else if (first === 83 /* S */ && open && text.startsWith('SET timestamp=', from)) {
      const value = Number.parseInt(text.slice(from + 14, Math.min(to, from + 40)), 10);
      if (Number.isFinite(value)) eventTime = value;
    }
  }

  return {
    push(chunk) {
      const text = carry === '' ? chunk : carry + chunk;
      let start = 0;
      for (;;) {
        const newline = text.indexOf('\n', start);
        if (newline === -1) break;
        if (newline > start) line(text, start, newline);
        start = newline + 1;
      }
      // Keep at most one unterminated line (bounded: a huge single-line statement is cut to 64 KiB,
      // which only ever holds query text, never a line this scanner reads).
      carry = text.slice(start);
      if (carry.length > 65_536) carry = carry.slice(0, 64);
    },
    end() {
      if (carry !== '') line(carry, 0, carry.length);
      carry = '';
      close();
      return timeline.result();
    },
  };
}
