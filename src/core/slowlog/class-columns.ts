// The digest's classes as a column store: one row per class, typed arrays and interned strings.
/*
 * Design note
 * -----------
 * A class is a row number. What a class holds besides its metrics (metric-columns.ts) is kept
 * in columns indexed by that number: count and largest offset (`Float64Array`), first and last
 * time, example time and schema (ids into one {@link StringTable}: a log has few distinct
 * seconds, schemas, users and hosts, and each is kept once), the example's line, and the
 * pending-inheritance bits of segment digests. The fingerprint (the key of `rows`) and the
 * example's Query_time text are arrays of detached strings; example queries are bytes in a
 * {@link TextArena}.
 *
 * Distinct schemas/users/hosts (at most `maxDistinctValues` each, the first ones seen) are linked
 * lists of string ids, newest first, in one `Int32Array` of (value, next) nodes: most classes
 * have one of each.
 *
 * All columns grow together (see GROWTH); a row is never removed.
 */
import { FlagColumn, grownFloat64, grownInt32, grownUint8, MetricColumn } from './metric-columns.js';
import { TextArena } from './text-arena.js';
import { detach } from './text.js';

/** Which list of distinct values. */
export const DBS = 0;
export const USERS = 1;
export const HOSTS = 2;

/** Pending bits (segment digests). */
export const PENDING_DB = 1;
export const PENDING_TS = 2;

/** Strings kept once, by id (0 stands for undefined, so that a fresh zeroed column means none). */
export class StringTable {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [''];

  /** The id of `text`, adding a detached copy when new. */
  intern(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.values.length;
      const own = detach(text);
      this.values.push(own);
      this.ids.set(own, id);
    }
    return id;
  }

  /** The id of `text`, or 0 for undefined. */
  internOptional(text: string | undefined): number {
    return text === undefined ? 0 : this.intern(text);
  }

  /** The string of an id (undefined for 0). */
  text(id: number): string | undefined {
    return id === 0 ? undefined : this.values[id];
  }
}

const INITIAL_CAPACITY = 1024;
/**
 * Columns grow by half (doubling left up to half of each column unused, and every old array is
 * garbage until the next full GC). No column is filled with a non-zero default, so the room not
 * yet used is zero pages that the OS maps only when written: 0 means none (string ids start at
 * 1, a metric's count tells whether its min/max are set).
 */
export const GROWTH = 1.5;

/** Every class of a digest. */
export class ClassColumns {
  /** Classes so far (rows 0 … size-1, in the order they were first seen). */
  size = 0;
  private capacity = INITIAL_CAPACITY;
  readonly rows = new Map<string, number>();
  readonly fingerprint: string[] = [];
  count: Float64Array = new Float64Array(INITIAL_CAPACITY);
  maxOffset: Float64Array = new Float64Array(INITIAL_CAPACITY);
  /** Ids in `strings`. */
  tsMin: Int32Array = new Int32Array(INITIAL_CAPACITY);
  tsMax: Int32Array = new Int32Array(INITIAL_CAPACITY);
  /** PENDING_DB | PENDING_TS: some event of the class inherits db / ts from the earlier part. */
  pending: Uint8Array = new Uint8Array(INITIAL_CAPACITY);
  /** The example: the last event with the class's largest Query_time. */
  /** Example queries (bytes outside the heap, see text-arena.ts). */
  readonly samples = new TextArena();
  readonly sampleQueryTime: (string | undefined)[] = [];
  sampleTs: Int32Array = new Int32Array(INITIAL_CAPACITY);
  sampleDb: Int32Array = new Int32Array(INITIAL_CAPACITY);
  sampleLine: Float64Array = new Float64Array(INITIAL_CAPACITY);
  /** PENDING_DB | PENDING_TS of the example itself. */
  samplePending: Uint8Array = new Uint8Array(INITIAL_CAPACITY);
  /** Heads and lengths of the three distinct-value lists (DBS, USERS, HOSTS) of each class. */
  private distinctHead: Int32Array = new Int32Array(3 * INITIAL_CAPACITY);
  private distinctLength: Int32Array = new Int32Array(3 * INITIAL_CAPACITY);
  /** (string id, next node) pairs. */
  private nodes: Int32Array = new Int32Array(4 * INITIAL_CAPACITY);
  /** Node 0 is a sentinel: a next (or head) of 0 ends the list. */
  private nodesUsed = 2;
  /** By attribute id. */
  readonly metrics: (MetricColumn | undefined)[] = [];
  readonly flags: (FlagColumn | undefined)[] = [];

  constructor(
    readonly strings: StringTable,
    private readonly maxDistinct: number,
  ) {
    this.samples.grow(INITIAL_CAPACITY);
  }

  /** A new class with `query` as its example (no events counted yet); returns its row. */
  add(fingerprint: string, maxOffset: number, query: string, line: number): number {
    const c = this.size;
    if (c === this.capacity) this.grow(Math.ceil(this.capacity * GROWTH));
    this.size = c + 1;
    this.rows.set(fingerprint, c);
    this.fingerprint.push(fingerprint);
    this.maxOffset[c] = maxOffset;
    this.samples.set(c, query);
    this.sampleQueryTime.push(undefined);
    this.sampleTs[c] = 0;
    this.sampleDb[c] = 0;
    this.sampleLine[c] = line;
    return c;
  }

  private grow(capacity: number): void {
    this.capacity = capacity;
    this.count = grownFloat64(this.count, capacity);
    this.maxOffset = grownFloat64(this.maxOffset, capacity);
    this.tsMin = grownInt32(this.tsMin, capacity);
    this.tsMax = grownInt32(this.tsMax, capacity);
    this.pending = grownUint8(this.pending, capacity);
    this.sampleTs = grownInt32(this.sampleTs, capacity);
    this.sampleDb = grownInt32(this.sampleDb, capacity);
    this.sampleLine = grownFloat64(this.sampleLine, capacity);
    this.samples.grow(capacity);
    this.samplePending = grownUint8(this.samplePending, capacity);
    this.distinctHead = grownInt32(this.distinctHead, 3 * capacity);
    this.distinctLength = grownInt32(this.distinctLength, 3 * capacity);
    for (const column of this.metrics) column?.grow(capacity);
    for (const column of this.flags) column?.grow(capacity);
  }

  /** The metric column of an attribute, made on first use. */
  metric(id: number, bucketed: boolean, countsPositive: boolean): MetricColumn {
    return (this.metrics[id] ??= new MetricColumn(bucketed, countsPositive, this.capacity));
  }

  /** The flag column of an attribute, made on first use. */
  flag(id: number): FlagColumn {
    return (this.flags[id] ??= new FlagColumn(this.capacity));
  }

  /** Adds a distinct value (a string id) to a class's list (DBS, USERS, HOSTS), up to maxDistinct. */
  addDistinct(c: number, list: number, value: number): void {
    const slot = 3 * c + list;
    const length = this.distinctLength[slot]!;
    let node = this.distinctHead[slot]!;
    while (node !== 0) {
      if (this.nodes[node] === value) return;
      node = this.nodes[node + 1]!;
    }
    if (length >= this.maxDistinct) return;
    const at = this.nodesUsed;
    if (at + 2 > this.nodes.length) {
      const grown = new Int32Array(Math.ceil(this.nodes.length * GROWTH));
      grown.set(this.nodes);
      this.nodes = grown;
    }
    this.nodesUsed = at + 2;
    // Newest first: distinct() reverses.
    this.nodes[at] = value;
    this.nodes[at + 1] = this.distinctHead[slot]!;
    this.distinctHead[slot] = at;
    this.distinctLength[slot] = length + 1;
  }

  /** A class's distinct values of one list, in the order they were first seen. */
  distinct(c: number, list: number): string[] {
    const out: string[] = [];
    for (let node = this.distinctHead[3 * c + list]!; node !== 0; node = this.nodes[node + 1]!) {
      out.push(this.strings.values[this.nodes[node]!]!);
    }
    return out.reverse();
  }
}
