// Merging a digest segment (a share of a file digested by a helper thread) into a digest.
/*
 * Design note
 * -----------
 * A file read by several threads is cut just after `;\n#`s; each later share is digested as a
 * segment (`createDigest({ segment: true })`): events before its first `use`/`SET timestamp`
 * have no `db`/`ts` of their own and are marked pending, to be resolved with the last ones of
 * what was digested before it here. Shares are absorbed in file order, so `lastDb`/`lastTs` chain
 * from one to the next. Metrics merge exactly (sums are kept as whole units plus millionths), so
 * the merged result equals the one-thread result; a merge that could not be exact (an attribute
 * typed differently in the two parts, histograms that cannot merge) is refused before anything
 * changes, and the caller then reads that share itself (slowlog-parallel.ts).
 */
import { normalizeTimestamp, stripBackticks } from './digest-attributes.js';
import { type ClassColumns, DBS, HOSTS, PENDING_DB, PENDING_TS, USERS } from './class-columns.js';
import type { DigestTables, DigestTotals } from './digest-report.js';
import type { ClassState, DigestSegment, FlagSummary, SampleEvent } from './digest-types.js';
import { type Metric, mergeable, mergeMetric } from './metrics.js';
import { detach } from './text.js';

/** What absorbing needs beyond the tables: the digest's own helpers and settings. */
export interface MergeTarget extends DigestTables {
  /** The aggregated attributes as a string (segments must agree). */
  readonly aggregated: string;
  readonly maxSkipped: number;
  idOf(name: string): number;
  tsBefore(a: string, b: string): boolean;
}

/** The digest's running state that a merge reads and updates. */
export interface MergeTotals extends DigestTotals {
  lastDb: string | undefined;
  lastTs: string | undefined;
  sawDb: boolean;
  sawTs: boolean;
}

/** The classes of a digest as structured-clonable objects, for {@link DigestSegment.classes}. */
export function segmentClasses(cols: ClassColumns): ClassState[] {
  const strings = cols.strings;
  const out: ClassState[] = [];
  for (let c = 0; c < cols.size; c++) {
    const metrics: (Metric | undefined)[] = cols.metrics.map((column) => column?.metric(c));
    const flags: (FlagSummary | undefined)[] = cols.flags.map((column) =>
      column && column.count[c]! > 0 ? { yes: column.yes[c]!, count: column.count[c]! } : undefined,
    );
    out.push({
      fingerprint: cols.fingerprint[c]!,
      count: cols.count[c]!,
      metrics,
      flags,
      dbs: cols.distinct(c, DBS),
      users: cols.distinct(c, USERS),
      hosts: cols.distinct(c, HOSTS),
      tsMin: strings.text(cols.tsMin[c]!),
      tsMax: strings.text(cols.tsMax[c]!),
      maxOffset: cols.maxOffset[c]!,
      sample: {
        query: cols.samples.text(c),
        queryTime: cols.sampleQueryTime[c],
        ts: strings.text(cols.sampleTs[c]!),
        db: strings.text(cols.sampleDb[c]!),
        line: cols.sampleLine[c]!,
        dbPending: (cols.samplePending[c]! & PENDING_DB) !== 0,
        tsPending: (cols.samplePending[c]! & PENDING_TS) !== 0,
      },
      pendingDb: (cols.pending[c]! & PENDING_DB) !== 0,
      pendingTs: (cols.pending[c]! & PENDING_TS) !== 0,
    });
  }
  return out;
}

/**
 * Adds `part` (a segment that started at `at` in the input) to `into`; false, with nothing
 * changed, when the two cannot be merged exactly.
 */
export function absorbSegment(
  into: MergeTarget,
  totals: MergeTotals,
  part: DigestSegment,
  at: { offset: number; line: number },
): boolean {
  const { aggregated, attributeIds, attributes, cols, globals, queryTimeId, skipped, tsBefore } = into;
  const { idOf, maxSkipped } = into;
  const strings = cols.strings;
  let { events, skippedTotal, tsMin, tsMax, lastDb, lastTs, sawDb, sawTs } = totals;
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
    const c = cols.rows.get(theirs.fingerprint);
    if (c === undefined) continue;
    for (let k = 0; k < theirs.metrics.length; k++) {
      const id = ids[k];
      const column = id === undefined ? undefined : cols.metrics[id];
      if (column && theirs.metrics[k]?.inexact && column.inexact(c)) return false;
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
  const seeTs = (c: number | undefined, ts: string | undefined): void => {
    if (ts === undefined) return;
    if (c !== undefined) {
      const min = strings.text(cols.tsMin[c]!);
      if (min === undefined || tsBefore(ts, min)) cols.tsMin[c] = strings.intern(ts);
      const max = strings.text(cols.tsMax[c]!);
      if (max === undefined || tsBefore(max, ts)) cols.tsMax[c] = strings.intern(ts);
    } else {
      if (tsMin === undefined || tsBefore(ts, tsMin)) tsMin = ts;
      if (tsMax === undefined || tsBefore(tsMax, ts)) tsMax = ts;
    }
  };
  const setSample = (c: number, sample: SampleEvent): void => {
    cols.samples.set(c, sample.query);
    cols.sampleQueryTime[c] = sample.queryTime;
    cols.sampleDb[c] = strings.internOptional(sample.dbPending ? inheritedDb : sample.db);
    cols.sampleTs[c] = strings.internOptional(sample.tsPending ? inheritedTs : sample.ts);
    cols.sampleLine[c] = sample.line + lineDelta;
    cols.samplePending[c] = 0;
  };
  const partQueryTime = part.attributes.findIndex((attribute) => attribute.name === 'Query_time');
  for (const theirs of part.classes) {
    let c = cols.rows.get(theirs.fingerprint);
    if (c === undefined) {
      c = cols.add(theirs.fingerprint, theirs.maxOffset + at.offset, theirs.sample.query, 0);
      setSample(c, theirs.sample);
    } else {
      // The example is the last event with the largest Query_time.
      const mine = cols.metrics[queryTimeId];
      const their = partQueryTime < 0 ? undefined : theirs.metrics[partQueryTime];
      if (their && their.cnt > 0 && (!mine || !(mine.cnt[c]! > 0) || their.max >= mine.max[c]!)) {
        setSample(c, theirs.sample);
      }
    }
    cols.count[c]! += theirs.count;
    cols.maxOffset[c] = Math.max(cols.maxOffset[c]!, theirs.maxOffset + at.offset);
    if (theirs.pendingTs) seeTs(c, inheritedTs);
    seeTs(c, theirs.tsMin);
    seeTs(c, theirs.tsMax);
    if (theirs.pendingDb && inheritedDb !== undefined) {
      cols.addDistinct(c, DBS, strings.intern(stripBackticks(inheritedDb)));
    }
    for (const value of theirs.dbs) cols.addDistinct(c, DBS, strings.intern(value));
    for (const value of theirs.users) cols.addDistinct(c, USERS, strings.intern(value));
    for (const value of theirs.hosts) cols.addDistinct(c, HOSTS, strings.intern(value));
    theirs.metrics.forEach((metric, k) => {
      if (!metric) return;
      const id = idOfPart[k]!;
      const column = cols.metric(id, metric.bucketed, attributes[id]!.countsPositive);
      column.store(c, mergeMetric(column.metric(c), metric, false));
    });
    theirs.flags.forEach((flag, k) => {
      if (!flag) return;
      const column = cols.flag(idOfPart[k]!);
      column.yes[c]! += flag.yes;
      column.count[c]! += flag.count;
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
  Object.assign(totals, { events, skippedTotal, tsMin, tsMax, lastDb, lastTs, sawDb, sawTs });
  return true;
}
