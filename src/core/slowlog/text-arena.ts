// One text per row (a class's example query), kept as bytes outside the garbage-collected heap.
/*
 * Design note
 * -----------
 * Every class keeps its example query, the last event with its largest Query_time, so with
 * 100,000 classes those are ~100,000 strings that V8's old generation holds, and every new
 * maximum replaces one (the old copy is garbage that only a full GC frees; V8 lets the old
 * generation grow to a few times its live size before that). Queries are binary strings (one
 * char per byte), so they are stored as their bytes in one growing `Uint8Array`, a row's text at
 * [start, start + length) inside its slot of `room` bytes. A new text that fits the row's slot
 * (the usual case: examples of one class differ by a few literal digits) is written in place;
 * a longer one moves the row to the end and leaves a hole. When the holes are a quarter of the
 * arena, it is compacted in place (rows moved down in the order they lie, so no second arena
 * exists at any time); only otherwise does it grow, by half. Reading a text back (`text(row)`)
 * builds the string, which only the reported classes need.
 *
 * Measured on the 110,000-class bench log (bench/slowlog/memory.mjs, 9.0 MB of example text):
 * the arena that doubled past the live bytes and compacted into a fresh copy ended at 17.1 MB
 * (and held two copies while compacting); this one ends at about 1.3× the live bytes.
 */

const INITIAL_BYTES = 1 << 16;
/** Chars per String.fromCharCode call when decoding (stays far below the argument limit). */
const DECODE_CHUNK = 8192;
/** Compact (rather than grow) when the holes are at least this share of the arena. */
const COMPACT_SHARE = 0.25;
const GROWTH = 1.5;

export class TextArena {
  private bytes = new Uint8Array(INITIAL_BYTES);
  private used = 0;
  /** Bytes inside slots (the rest of `used` are holes left by rows that moved). */
  private slotted = 0;
  private start: Float64Array = new Float64Array(0);
  /** A row's text length, and its slot's size (a slot is reused while the texts fit). */
  private length: Uint32Array = new Uint32Array(0);
  private room: Uint32Array = new Uint32Array(0);

  /** Makes room for rows up to `rows` - 1. */
  grow(rows: number): void {
    const start = new Float64Array(rows);
    start.set(this.start);
    this.start = start;
    const length = new Uint32Array(rows);
    length.set(this.length);
    this.length = length;
    const room = new Uint32Array(rows);
    room.set(this.room);
    this.room = room;
  }

  /** Sets a row's text (a binary string: every char below 256). */
  set(row: number, text: string): void {
    const n = text.length;
    let at: number;
    if (n <= this.room[row]!) at = this.start[row]!;
    else {
      // A new slot at the end; the old one becomes a hole.
      this.slotted -= this.room[row]!;
      this.room[row] = 0;
      this.length[row] = 0;
      if (this.used + n > this.bytes.length) this.makeRoom(n);
      at = this.used;
      this.used = at + n;
      this.slotted += n;
      this.start[row] = at;
      this.room[row] = n;
    }
    this.length[row] = n;
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) bytes[at++] = text.charCodeAt(i);
  }

  /** A row's text. */
  text(row: number): string {
    const from = this.start[row]!;
    const to = from + this.length[row]!;
    if (to - from <= DECODE_CHUNK) return String.fromCharCode(...this.bytes.subarray(from, to));
    const parts: string[] = [];
    for (let at = from; at < to; at += DECODE_CHUNK) {
      parts.push(String.fromCharCode(...this.bytes.subarray(at, Math.min(to, at + DECODE_CHUNK))));
    }
    return parts.join('');
  }

  /** Bytes held (the arena's size), for tests and benches. */
  get capacity(): number {
    return this.bytes.length;
  }

  /** Room for `n` more bytes at the end: compacts in place when holes are a large share, else grows. */
  private makeRoom(n: number): void {
    const holes = this.used - this.slotted;
    if (holes >= this.bytes.length * COMPACT_SHARE) this.compact();
    if (this.used + n <= this.bytes.length) return;
    const size = Math.max(INITIAL_BYTES, this.used + n, Math.ceil(this.bytes.length * GROWTH));
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }

  /** Moves every slot down over the holes, in the order the slots lie (each slot shrinks to its text). */
  private compact(): void {
    const rows: number[] = [];
    for (let row = 0; row < this.room.length; row++) if (this.room[row]! > 0) rows.push(row);
    const start = this.start;
    rows.sort((a, b) => start[a]! - start[b]!);
    let at = 0;
    for (const row of rows) {
      const from = start[row]!;
      const length = this.length[row]!;
      if (from !== at) this.bytes.copyWithin(at, from, from + length);
      start[row] = at;
      this.room[row] = length;
      at += length;
    }
    this.used = at;
    this.slotted = at;
  }
}
