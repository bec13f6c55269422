// Merging a digest segment (the second half of a file, digested by a helper thread) into a digest.
/*
 * Design note
 * -----------
 * A file read by two threads is cut just after a `;\n#`; the second half is digested as a
 * segment (`createDigest({ segment: true })`): events before its first `use`/`SET timestamp`
 * have no `db`/`ts` of their own and are marked pending, to be resolved with the first half's
 * last ones here. Metrics merge exactly (sums are kept as whole units plus millionths), so the
 * merged result equals the one-thread result; a merge that could not be exact (an attribute
 * typed differently in the two halves, histograms that cannot merge) is refused before
 * anything changes, and the caller then reads the rest itself.
 */
import { normalizeTimestamp, stripBackticks } from './digest-attributes.js';
import { addDistinct, type DigestTables, type DigestTotals, newClass } from './digest-report.js';
import type { ClassState, DigestSegment, SampleEvent } from './digest-types.js';
import { mergeable, mergeMetric } from './metrics.js';
import { detach } from './text.js';

/** What absorbing needs beyond the tables: the digest's own helpers and settings. */
export interface MergeTarget extends DigestTables {
  /** The aggregated attributes as a string (segments must agree). */
  readonly aggregated: string;
  readonly maxDistinct: number;
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
  const { aggregated, attributeIds, attributes, classes, globals, queryTimeId, skipped, tsBefore } = into;
  const { idOf, maxDistinct, maxSkipped } = into;
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
      addDistinct(state, 'dbs', stripBackticks(inheritedDb), maxDistinct);
    }
    for (const value of theirs.dbs) addDistinct(state, 'dbs', value, maxDistinct);
    for (const value of theirs.users) addDistinct(state, 'users', value, maxDistinct);
    for (const value of theirs.hosts) addDistinct(state, 'hosts', value, maxDistinct);
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
  Object.assign(totals, { events, skippedTotal, tsMin, tsMax, lastDb, lastTs, sawDb, sawTs });
  return true;
}
