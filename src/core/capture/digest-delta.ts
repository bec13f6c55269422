// Deltas of performance_schema statement digests between two snapshots, ranked like a digest report.
/*
 * Design note
 * -----------
 * `events_statements_summary_by_digest` counters are cumulative since server start (or since
 * someone truncated the table). We never truncate; a window's activity is `after - before` per
 * (SCHEMA_NAME, DIGEST). Cases, decided per row of the later snapshot:
 *
 *  - in both, no counter went down → `changed` (rows with COUNT_STAR unchanged are dropped);
 *  - only in `after`, FIRST_SEEN at or after the earlier snapshot → `new`: the row *is* the delta;
 *  - only in `after`, first seen before → the earlier snapshot was cut by its row limit and did not
 *    hold it: counted from zero and marked `baselineMissing` (an overestimate, said in a note);
 *  - a counter went down → the row was reset (server restart, TRUNCATE): the later values are
 *    what happened since the reset, marked `reset`;
 *  - only in `before` → the row disappeared (TRUNCATE or restart): a note counts them.
 * A server restart is detected from `Uptime` (later uptime smaller than the window). New digests
 * that found the table full are counted in `Performance_schema_digest_lost` and aggregated into
 * the row with NULL SCHEMA_NAME and DIGEST, which is reported separately as `overflow`.
 *
 * Counters are bigint (picoseconds overflow 2^53 after ~2.5 hours of total latency), converted
 * to numbers only after subtraction. MAX_TIMER_WAIT and QUANTILE_* are lifetime values that a
 * delta cannot window; they are reported as such (`lifetime`). Where the snapshots carry the
 * histogram buckets (MySQL), each class has the window's own p95/p99 too (`window`,
 * window-histogram.ts).
 */
import { checksum, fingerprint } from '../fingerprint/fingerprint.js';
import { mapDigestToFingerprint } from './digest-text.js';
import { WindowHistogram } from './window-histogram.js';
import {
  type CaptureNote,
  type DigestCounter,
  digestCounterColumns,
  type DigestDelta,
  type DigestDeltaClass,
  type DigestDeltaOptions,
  type DigestReset,
  type DigestRow,
  type DigestSnapshot,
  type PreparedRow,
  type PreparedSnapshot,
} from './digest-delta-types.js';

// The public surface stays here (index.ts and top-classes.ts import it from digest-delta.ts).
export {
  type CaptureNote,
  type DigestCounter,
  digestCounterColumns,
  type DigestDelta,
  type DigestDeltaClass,
  type DigestDeltaOptions,
  type DigestDeltaOrder,
  type DigestReset,
  type DigestRow,
  type DigestSnapshot,
  digestDeltaOrders,
  type PreparedRow,
  type PreparedSnapshot,
} from './digest-delta-types.js';

// The capture's own statements (snapshot and status reads), recognised in DIGEST_TEXT.
const OWN_DIGEST =
  /`?performance_schema`?\s*\.\s*`?(?:events_statements_summary_by_digest|events_statements_histogram_by_digest|events_statements_summary_global_by_event_name|prepared_statements_instances|global_status)`?|performance_schema_max_sql_text_length/i;

const PICOS_PER_MS = 1_000_000_000n;

/** Picoseconds → milliseconds (3 decimals, exact for integers up to 2^53 ms). */
export function picosToMs(picos: bigint): number {
  const whole = picos / PICOS_PER_MS;
  const rest = picos % PICOS_PER_MS;
  return Number(whole) + Math.round(Number(rest) / 1_000_000) / 1000;
}

/** Epoch seconds → `2026-01-02T03:04:05.678Z`. */
export function isoTime(epochSeconds: number): string {
  return new Date(Math.round(epochSeconds * 1000)).toISOString();
}

function key(row: DigestRow): string {
  return `${row.schema ?? '\u0000'}\u0001${row.digest ?? '\u0000'}`;
}

/** True for the digest of a statement this capture runs itself. */
export function isOwnDigest(digestText: string | null | undefined): boolean {
  return digestText !== null && digestText !== undefined && OWN_DIGEST.test(digestText);
}

/** Per digest: what the snapshots so far add up to. */
interface Accumulated {
  row: DigestRow;
  counters: Record<DigestCounter, bigint>;
  status: DigestDeltaClass['status'];
  /** Times the row was found reset (TRUNCATE, restart, or dropped and re-created). */
  resets: number;
  /** The window's latency buckets (window-histogram.ts). */
  histogram: WindowHistogram;
}

/**
 * Accumulates the activity of a window over any number of snapshots of one server (the capture
 * polls). Between two consecutive snapshots each row is, independently: unchanged or grown
 * (`after - before`), or reset — a newer FIRST_SEEN (the row was dropped by a TRUNCATE or the
 * digest table's overflow and made again) or a counter that went down — and then its values are
 * what ran since the reset. What a reset digest ran between the last snapshot and the reset
 * cannot be known from the table: it is at most one poll interval, which the notes name.
 */
export class DigestDeltaAccumulator {
  private readonly first: DigestSnapshot;
  private last: DigestSnapshot;
  private readonly acc = new Map<string, Accumulated>();
  private readonly disappeared = new Set<string>();
  private readonly resetsSeen: DigestReset[] = [];
  private restarted = false;
  private baselineMissing = 0;
  private digestLost = 0;
  /** Prepared statements by fingerprint: executions added up over the intervals. */
  private readonly prepared = new Map<
    string,
    { row: PreparedRow; counters: Record<DigestCounter, bigint> }
  >();
  private executions = 0;
  private preparedRead: boolean;
  private perStatement: boolean;

  constructor(first: DigestSnapshot) {
    this.first = first;
    this.last = first;
    this.preparedRead = first.prepared !== undefined;
    this.perStatement = first.prepared?.perStatement ?? true;
  }

  /** Adds the next snapshot (taken after the previous one). */
  add(next: DigestSnapshot): void {
    const prev = this.last;
    const interval = Math.max(0, next.takenAt - prev.takenAt);
    // Uptime counts whole seconds; allow 2 s of rounding and clock skew.
    const restart = next.uptime + 2 < prev.uptime + interval;
    if (restart) this.restarted = true;
    const previous = new Map<string, DigestRow>();
    if (!restart) for (const row of prev.rows) previous.set(key(row), row);
    let resets = 0;
    const seen = new Set<string>();
    for (const row of next.rows) {
      const k = key(row);
      seen.add(k);
      const old = previous.get(k);
      let base: DigestRow['counters'] | undefined;
      let status: DigestDeltaClass['status'] | undefined;
      if (restart) {
        status = 'reset';
        resets++;
      } else if (old) {
        // FIRST_SEEN has microseconds on MySQL, whole seconds on MariaDB.
        const newer = row.firstSeen > old.firstSeen + 0.0005;
        const wentDown = (Object.keys(digestCounterColumns) as DigestCounter[]).some(
          (name) => row.counters[name] < old.counters[name],
        );
        if (newer || wentDown) {
          status = 'reset';
          resets++;
        } else base = old.counters;
      } else if (row.firstSeen >= Math.floor(prev.takenAt)) {
        status = 'new';
      } else if (prev.truncated) {
        status = 'baseline-missing';
        this.baselineMissing++;
      } else if (this.disappeared.has(k) || prev !== this.first) {
        // Gone from a complete snapshot, back now with an older FIRST_SEEN than that snapshot
        // (MariaDB's clock is whole seconds): re-created after a TRUNCATE.
        status = 'reset';
        resets++;
      } else status = 'new';
      const delta = subtract(row.counters, base);
      const entry = this.acc.get(k);
      const histogram = entry?.histogram ?? new WindowHistogram(old?.buckets);
      if (status === 'baseline-missing') histogram.invalidate();
      histogram.add(row.buckets, status === 'new' || status === 'reset', delta.count);
      if (entry) {
        add(entry.counters, delta);
        entry.row = row;
        if (status === 'reset') {
          entry.resets++;
          entry.status = 'reset';
        } else if (status === 'baseline-missing') entry.status = status;
      } else {
        this.acc.set(k, {
          row,
          counters: delta,
          status: status ?? 'changed',
          resets: status === 'reset' ? 1 : 0,
          histogram,
        });
      }
    }
    if (!restart && !next.truncated) {
      for (const row of prev.rows) {
        const k = key(row);
        if (!seen.has(k)) this.disappeared.add(k);
      }
    }
    if (resets > 0) this.resetsSeen.push({ from: prev.takenAt, to: next.takenAt, digests: resets, restart });
    this.digestLost += Math.max(0, next.digestLost - (restart ? 0 : prev.digestLost));
    this.addPrepared(prev.prepared, next.prepared, restart);
    this.last = next;
  }

  /** Prepared statements between two snapshots: per instance, a count that went down is a new one. */
  private addPrepared(
    prev: PreparedSnapshot | undefined,
    next: PreparedSnapshot | undefined,
    restart: boolean,
  ): void {
    if (!prev || !next) {
      this.preparedRead = false;
      return;
    }
    this.perStatement &&= next.perStatement;
    this.executions += Math.max(0, next.executeTotal - (restart ? 0 : prev.executeTotal));
    const before = new Map<string, PreparedRow>();
    if (!restart) for (const row of prev.rows) before.set(row.id, row);
    for (const row of next.rows) {
      const old = before.get(row.id);
      const same =
        old !== undefined && old.sqlText === row.sqlText && old.counters.count <= row.counters.count;
      const delta = subtract(row.counters, same ? old.counters : undefined);
      if (delta.count === 0n) continue;
      const fp = fingerprint(row.sqlText);
      const entry = this.prepared.get(fp);
      if (entry) {
        add(entry.counters, delta);
        if (row.maxTimerWait > entry.row.maxTimerWait) entry.row = row;
      } else this.prepared.set(fp, { row, counters: delta });
    }
  }

  /** The latest snapshot added (the first until one is). */
  latest(): DigestSnapshot {
    return this.last;
  }

  /** The digests that ran during the window so far (their rows of the latest snapshot). */
  activeRows(): DigestRow[] {
    return [...this.acc.values()].filter((entry) => entry.counters.count > 0n).map((entry) => entry.row);
  }

  /** The window's activity so far, ranked. `texts` gives DIGEST_TEXT/QUERY_SAMPLE_TEXT by row. */
  result(options: DigestDeltaOptions = {}, texts?: (row: DigestRow) => Partial<DigestRow>): DigestDelta {
    const hideOwn = options.hideOwn ?? true;
    const classes: DigestDeltaClass[] = [];
    let overflow: DigestDeltaClass | null = null;
    let resetDigests = 0;
    for (const entry of this.acc.values()) {
      if (entry.counters.count === 0n) continue;
      const row = texts ? { ...entry.row, ...texts(entry.row) } : entry.row;
      if (hideOwn && isOwnDigest(row.digestText)) continue;
      const cls = toClass(row, entry.counters, entry.status, options.maxSqlTextLength, entry.histogram);
      if (entry.resets > 0) resetDigests++;
      if (row.digest === null) overflow = cls;
      else classes.push(cls);
    }
    let attributed = 0;
    if (this.preparedRead) {
      for (const { row, counters } of this.prepared.values()) {
        const fp = fingerprint(row.sqlText);
        const cls = toClass(
          {
            schema: null,
            digest: `prepared:${checksum(fp)}`,
            counters,
            maxTimerWait: row.maxTimerWait,
            firstSeen: this.first.takenAt,
            lastSeen: this.last.takenAt,
            digestText: row.sqlText,
            sampleText: row.sqlText,
          },
          counters,
          'prepared',
          undefined,
        );
        cls.fingerprint = { fingerprint: fp, checksum: checksum(fp), source: 'sample', exact: true };
        attributed += cls.count;
        if (!(hideOwn && isOwnDigest(row.sqlText))) classes.push(cls);
      }
    }
    const prepared = this.preparedRead
      ? {
          executions: Math.max(this.executions, attributed),
          attributed,
          missed: Math.max(0, this.executions - attributed),
          perStatement: this.perStatement,
        }
      : null;
    const notes: CaptureNote[] = [];
    const after = this.last;
    const gone = [...this.disappeared].filter(
      (k) => !this.acc.has(k) || this.acc.get(k)!.resets === 0,
    ).length;
    if (this.restarted) {
      notes.push({
        code: 'server-restarted',
        message:
          'The server restarted during the window (Uptime went down): what ran between the last snapshot before the restart and the restart is not counted.',
      });
    }
    const truncations = this.resetsSeen.filter((reset) => !reset.restart);
    if (truncations.length > 0) {
      const spans = truncations
        .map((reset) => `${isoTime(reset.from)} – ${isoTime(reset.to)} (${reset.digests} digest(s))`)
        .join(', ');
      notes.push({
        code: 'counters-reset',
        message: `${resetDigests} digest(s) were reset during the window (TRUNCATE of events_statements_summary_by_digest, or dropped from a full table and made again): detected by a newer FIRST_SEEN or counters going down, and counted as the activity before the reset plus the activity since. What they ran between the last snapshot before the reset and the reset is not known: ${spans}.`,
      });
    }
    if (gone > 0 && !after.truncated) {
      notes.push({
        code: 'digests-disappeared',
        message: `${gone} digest(s) disappeared from the table during the window (TRUNCATE, or dropped when the table was full); their activity up to the last snapshot that still had them is counted.`,
      });
    }
    if (this.digestLost > 0 || overflow) {
      notes.push({
        code: 'digest-table-full',
        message: `The digest table is full: ${this.digestLost} new digest(s) were lost and their statements are summed in one row without a digest. Raise performance_schema_digests_size (needs a restart).`,
      });
    }
    if (this.baselineMissing > 0) {
      notes.push({
        code: 'baseline-missing',
        message: `${this.baselineMissing} digest(s) were not in the first snapshot because it hit its row limit: their numbers are since they were first seen, not for the window. Raise the row limit.`,
      });
    }
    if (prepared && prepared.missed > 0) {
      notes.push({
        code: 'prepared-statements',
        message: prepared.perStatement
          ? `${prepared.missed} of ${prepared.executions} executions of server-side prepared statements (COM_STMT_EXECUTE) are not in the classes: their statements were deallocated between two polls (or prepared_statements_instances was full).`
          : `${prepared.missed} executions of server-side prepared statements (COM_STMT_EXECUTE) ran in the window and are not in the classes: this server counts them only in total (statement/com/Execute), not per statement (prepared_statements_instances.COUNT_EXECUTE stays 0 on MariaDB). The slow log (long_query_time=0) has them per statement.`,
      });
    }
    if (after.truncated) {
      notes.push({
        code: 'snapshot-truncated',
        message:
          'The second snapshot hit its row limit: digests with the least total latency are not shown. Raise the row limit to see all.',
      });
    }
    const orderBy = options.orderBy ?? 'totalMs';
    classes.sort((a, b) => (b[orderBy] ?? -1) - (a[orderBy] ?? -1) || b.totalMs - a.totalMs);
    const totals = classes.reduce(
      (sum, cls) => ({ count: sum.count + cls.count, totalMs: sum.totalMs + cls.totalMs }),
      { count: overflow?.count ?? 0, totalMs: overflow?.totalMs ?? 0 },
    );
    const windowSeconds = Math.max(0, after.takenAt - this.first.takenAt);
    return {
      from: { takenAt: isoTime(this.first.takenAt), uptime: this.first.uptime },
      to: { takenAt: isoTime(after.takenAt), uptime: after.uptime },
      windowSeconds: Math.round(windowSeconds * 1000) / 1000,
      serverRestarted: this.restarted,
      totals: { count: totals.count, totalMs: round3(totals.totalMs), classes: classes.length },
      classes: options.limit === undefined ? classes : classes.slice(0, options.limit),
      overflow,
      digestLost: this.digestLost,
      prepared,
      notes,
    };
  }
}

/** Computes what happened between two snapshots of the same server. */
export function computeDigestDelta(
  before: DigestSnapshot,
  after: DigestSnapshot,
  options: DigestDeltaOptions = {},
): DigestDelta {
  const accumulator = new DigestDeltaAccumulator(before);
  accumulator.add(after);
  return accumulator.result(options);
}

function add(target: Record<DigestCounter, bigint>, delta: Record<DigestCounter, bigint>): void {
  for (const name of Object.keys(digestCounterColumns) as DigestCounter[]) target[name] += delta[name];
}

function subtract(
  now: DigestRow['counters'],
  base: DigestRow['counters'] | undefined,
): Record<DigestCounter, bigint> {
  const out = {} as Record<DigestCounter, bigint>;
  for (const name of Object.keys(digestCounterColumns) as DigestCounter[]) {
    out[name] = now[name] - (base?.[name] ?? 0n);
  }
  return out;
}

/** The window's p95/p99 from its bucket deltas, or null when the window cannot be measured. */
function windowQuantiles(
  histogram: WindowHistogram | undefined,
  maxTimerWait: bigint,
): DigestDeltaClass['window'] {
  const p95 = histogram?.quantile(0.95, maxTimerWait) ?? null;
  if (p95 === null) return null;
  const p99 = histogram!.quantile(0.99, maxTimerWait);
  return { p95Ms: picosToMs(p95), p99Ms: p99 === null ? null : picosToMs(p99) };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function toClass(
  row: DigestRow,
  d: Record<DigestCounter, bigint>,
  status: DigestDeltaClass['status'],
  maxSqlTextLength: number | undefined,
  histogram?: WindowHistogram,
): DigestDeltaClass {
  const count = Number(d.count);
  const totalMs = picosToMs(d.timerWait);
  const rowsSent = Number(d.rowsSent);
  const rowsExamined = Number(d.rowsExamined);
  const digestText = row.digestText ?? null;
  const sampleText = row.sampleText ?? null;
  // QUANTILE_95/99 are the upper bounds of histogram buckets: they can exceed MAX_TIMER_WAIT.
  const maxMs = picosToMs(row.maxTimerWait);
  const quantile = (q: bigint | undefined): number | null =>
    q === undefined ? null : Math.min(maxMs, picosToMs(q));
  return {
    schema: row.schema,
    digest: row.digest,
    digestText,
    status,
    count,
    totalMs,
    avgMs: count > 0 ? round3(totalMs / count) : 0,
    lockMs: picosToMs(d.lockTime),
    errors: Number(d.errors),
    warnings: Number(d.warnings),
    rowsAffected: Number(d.rowsAffected),
    rowsSent,
    rowsExamined,
    examinedPerSent: rowsSent > 0 ? round3(rowsExamined / rowsSent) : null,
    noIndexUsed: Number(d.noIndexUsed),
    noGoodIndexUsed: Number(d.noGoodIndexUsed),
    selectFullJoin: Number(d.selectFullJoin),
    selectFullRangeJoin: Number(d.selectFullRangeJoin),
    selectRange: Number(d.selectRange),
    selectScan: Number(d.selectScan),
    sortMergePasses: Number(d.sortMergePasses),
    sortRows: Number(d.sortRows),
    sortScan: Number(d.sortScan),
    sortRange: Number(d.sortRange),
    tmpTables: Number(d.tmpTables),
    tmpDiskTables: Number(d.tmpDiskTables),
    window: windowQuantiles(histogram, row.maxTimerWait),
    lifetime: {
      maxMs,
      p95Ms: quantile(row.quantile95),
      p99Ms: quantile(row.quantile99),
      firstSeen: isoTime(row.firstSeen),
      lastSeen: isoTime(row.lastSeen),
    },
    sampleText,
    fingerprint:
      row.digest === null
        ? null
        : mapDigestToFingerprint(
            digestText,
            sampleText,
            maxSqlTextLength === undefined ? {} : { maxSqlTextLength },
          ),
  };
}
