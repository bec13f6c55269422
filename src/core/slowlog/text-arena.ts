// One text per row (a class's example query), kept as bytes outside the garbage-collected heap.
/*
 * Design note
 * -----------
 * Every class keeps its example query, the last event with its largest Query_time, so with
 * 100,000 classes those are ~100,000 strings that V8's old generation holds, and every new
 * maximum replaces one (the old copy is garbage that only a full GC frees; V8 lets the old
 * generation grow to a few times its live size before that). Queries are binary strings (one
 * char per byte), so they are stored as their bytes in one growing `Uint8Array`, a row's text at
 * [start, start + length). A replaced text leaves a hole; when the holes are more than half of
 * the arena it is compacted (rows copied in order into a fresh one). Reading a text back
 * (`text(row)`) builds the string, which only the reported classes need.
 */

const INITIAL_BYTES = 1 << 16;
/** Chars per String.fromCharCode call when decoding (stays far below the argument limit). */
const DECODE_CHUNK = 8192;

export class TextArena {
  private bytes = new Uint8Array(INITIAL_BYTES);
  private used = 0;
  /** Bytes of the texts rows hold now (the rest of `used` are holes). */
  private live = 0;
  private start: Float64Array = new Float64Array(0);
  private length: Float64Array = new Float64Array(0);

  /** Makes room for rows up to `rows` - 1. */
  grow(rows: number): void {
    const start = new Float64Array(rows);
    start.set(this.start);
    this.start = start;
    const length = new Float64Array(rows);
    length.set(this.length);
    this.length = length;
  }

  /** Sets a row's text (a binary string: every char below 256). */
  set(row: number, text: string): void {
    const n = text.length;
    this.live -= this.length[row]!;
    this.length[row] = 0;
    if (this.used + n > this.bytes.length) this.makeRoom(n);
    let at = this.used;
    const bytes = this.bytes;
    this.start[row] = at;
    this.length[row] = n;
    for (let i = 0; i < n; i++) bytes[at++] = text.charCodeAt(i);
    this.used = at;
    this.live += n;
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

  /** Room for `n` more bytes: compacts when holes are most of the arena, else grows. */
  private makeRoom(n: number): void {
    const size = Math.max(INITIAL_BYTES, 2 * (this.live + n));
    const bytes = new Uint8Array(size > this.bytes.length ? size : this.bytes.length);
    let at = 0;
    for (let row = 0; row < this.start.length; row++) {
      const length = this.length[row]!;
      if (length === 0) continue;
      const from = this.start[row]!;
      bytes.set(this.bytes.subarray(from, from + length), at);
      this.start[row] = at;
      at += length;
    }
    this.bytes = bytes;
    this.used = at;
  }
}
