// The digest's fingerprint cache: a query's pt-query-digest fingerprint without running the
// fingerprint pipeline for every event.
/*
 * Design note
 * -----------
 * Fingerprints are cached by `fingerprintKey(query)`: the query with comments removed, strings
 * emptied and digit runs shortened, for queries where that provably cannot change the
 * fingerprint (the proof is in its JSDoc). Plain queries (no quote, backslash or comment, see
 * `plainKeyHash`) skip even the key: an open-addressed table by key hash holds one query of each
 * key and its fingerprint, compared in place with `sameKey`. Both caches are bounded: the table
 * is cleared when half full, the key map when it holds FINGERPRINT_CACHE_SIZE keys.
 *
 * A log with many distinct classes whose events are spread out (100,000 classes) gets few hits:
 * then every cached entry is a copy made for nothing that lives long enough to be promoted, and
 * the cleared caches were ~40 MB of old-generation garbage at the peak (and slower than no
 * cache). When a cache fills up with fewer hits than misses since it was last cleared, the next
 * BYPASS_QUERIES queries (doubling while the cache stays useless) go straight to `fingerprint`.
 */
import { fingerprint, fingerprintKey, plainKeyHash, sameKey } from '../fingerprint/fingerprint.js';
import { detach } from './text.js';

/** Slots of the plain-query fingerprint table (a power of two; cleared when half full). */
const PLAIN_SLOTS = 1 << 15;
/** Queries whose fingerprints are cached, at most; the cache is cleared when full. */
const FINGERPRINT_CACHE_SIZE = 20_000;
/** Queries fingerprinted without the cache after it proved useless (doubles each time, up to MAX). */
const BYPASS_QUERIES = 50_000;
const MAX_BYPASS_QUERIES = 1_600_000;

/** `fingerprint(query)`, cached (cached fingerprints and queries are detached copies). */
export function createFingerprintCache(): (query: string) => string {
  const fingerprints = new Map<string, string>();
  // Plain queries (see plainKeyHash): an open-addressed table by key hash holding one query of
  // each key and its fingerprint, so the key string is never built for them.
  const plainHashes = new Int32Array(PLAIN_SLOTS).fill(-1);
  const plainQueries: (string | undefined)[] = new Array<string | undefined>(PLAIN_SLOTS);
  const plainFingerprints: (string | undefined)[] = new Array<string | undefined>(PLAIN_SLOTS);
  let plainCount = 0;
  let hits = 0;
  let misses = 0;
  let bypass = 0;
  let nextBypass = BYPASS_QUERIES;

  /** A cache is full: clears both, and bypasses them for a while when they did not pay. */
  function full(): void {
    if (hits < misses) {
      bypass = nextBypass;
      nextBypass = Math.min(MAX_BYPASS_QUERIES, nextBypass * 2);
    } else nextBypass = BYPASS_QUERIES;
    hits = 0;
    misses = 0;
    plainHashes.fill(-1);
    plainQueries.fill(undefined);
    plainFingerprints.fill(undefined);
    plainCount = 0;
    fingerprints.clear();
  }

  function fingerprintOf(query: string): string {
    if (bypass > 0) {
      bypass--;
      return fingerprint(query);
    }
    const hash = plainKeyHash(query);
    if (hash >= 0) {
      let slot = hash & (PLAIN_SLOTS - 1);
      for (;;) {
        const seen = plainHashes[slot]!;
        if (seen === -1) break;
        if (seen === hash && sameKey(plainQueries[slot]!, query)) {
          hits++;
          return plainFingerprints[slot]!;
        }
        slot = (slot + 1) & (PLAIN_SLOTS - 1);
      }
      misses++;
      if (plainCount >= PLAIN_SLOTS / 2) {
        full();
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
      misses++;
      if (fingerprints.size >= FINGERPRINT_CACHE_SIZE) full();
      fp = detach(fingerprint(key));
      fingerprints.set(detach(key), fp);
    } else hits++;
    return fp;
  }

  return fingerprintOf;
}
