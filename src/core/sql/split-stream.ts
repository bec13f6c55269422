// Streaming statement splitter: fed a script chunk by chunk, yields each statement as soon as its
// delimiter is read, with the same text and positions `splitStatements` gives for the whole script.
//
// Design note: the same left-to-right state machine as split.ts (code, 'string', "string",
// `identifier`, -- / # line comment, /* block comment */, DELIMITER lines), made resumable: the state
// (inside a quote or comment, the current delimiter, whether the statement has code) survives a chunk
// boundary, and where a decision needs characters not read yet (`-` before `-`, a quote that may be
// doubled, a backslash, the rest of a `DELIMITER` line, a multi-character delimiter) the scan waits for
// the next chunk. Only the text of the statement being read is kept, so memory is bounded by the
// longest statement, not by the script. tests/unit/core/split-stream.test.ts checks it against
// splitStatements on random chunkings.

import type { StatementSlice } from './split.js';

type State = 'code' | 'line' | 'block' | 'quote';

export class StatementStream {
  /** Text from global offset `base` on (the statement being read and what is not scanned yet). */
  private buffer = '';
  private base = 0;
  /** Char code just before `base` (for "DELIMITER at the start of a line"); -1 before the script. */
  private before = -1;
  private index = 0;
  private start = 0;
  private hasCode = false;
  private state: State = 'code';
  private quote = 0;
  private delimiter = ';';
  private delimiterCode = 59;
  /** Line bookkeeping: `lineAt` is the 1-based line of global offset `lineOffset`, starting at `lineStart`. */
  private lineOffset = 0;
  private lineAt = 1;
  private lineStart = 0;
  private ended = false;

  /** Characters read so far. */
  get consumed(): number {
    return this.base + this.buffer.length;
  }

  /** Feed the next chunk; returns the statements it completed. */
  push(chunk: string): StatementSlice[] {
    if (this.ended) throw new Error('StatementStream: push after end');
    this.buffer += chunk;
    const out: StatementSlice[] = [];
    this.scan(false, out);
    this.compact();
    return out;
  }

  /** The end of the script: returns the last statements. */
  end(): StatementSlice[] {
    if (this.ended) return [];
    this.ended = true;
    const out: StatementSlice[] = [];
    this.scan(true, out);
    this.flush(this.consumed, this.consumed, out);
    this.buffer = '';
    return out;
  }

  private charAt(offset: number): number {
    return this.buffer.charCodeAt(offset - this.base);
  }

  private previous(offset: number): number {
    return offset - 1 >= this.base ? this.charAt(offset - 1) : this.before;
  }

  /** Advance the line counter to `offset` (monotonic: statements come in order). */
  private position(offset: number): { line: number; column: number } {
    for (let at = this.lineOffset; at < offset; at++) {
      if (this.charAt(at) === 10) {
        this.lineAt++;
        this.lineStart = at + 1;
      }
    }
    this.lineOffset = Math.max(this.lineOffset, offset);
    return { line: this.lineAt, column: offset - this.lineStart + 1 };
  }

  private flush(end: number, next: number, out: StatementSlice[]): void {
    const raw = this.buffer.slice(this.start - this.base, end - this.base);
    const leading = raw.length - raw.trimStart().length;
    const sql = raw.trim();
    if (sql && this.hasCode) {
      const offset = this.start + leading;
      out.push({ sql, offset, ...this.position(offset) });
    }
    this.start = next;
    this.hasCode = false;
  }

  /** Drop the text before the statement being read (and before the scan position). */
  private compact(): void {
    const cut = Math.min(this.start, this.index, this.consumed);
    if (cut <= this.base) return;
    this.position(cut);
    this.before = this.charAt(cut - 1);
    this.buffer = this.buffer.slice(cut - this.base);
    this.base = cut;
  }

  private scan(final: boolean, out: StatementSlice[]): void {
    const length = this.consumed;
    const buffer = this.buffer;
    const base = this.base;
    let index = this.index;
    scan: while (index < length) {
      if (this.state === 'line') {
        const end = buffer.indexOf('\n', index - base);
        if (end === -1) {
          index = length;
          break;
        }
        index = base + end + 1;
        this.state = 'code';
        continue;
      }
      if (this.state === 'block') {
        const close = buffer.indexOf('*/', index - base);
        if (close === -1) {
          // A `*` at the very end may be closed by the next chunk's `/`.
          index = final ? length : Math.max(index, length - 1);
          break;
        }
        index = base + close + 2;
        this.state = 'code';
        continue;
      }
      if (this.state === 'quote') {
        while (index < length) {
          const char = buffer.charCodeAt(index - base);
          if (char === 92 /* \ */ && this.quote !== 96) {
            if (index + 1 >= length && !final) break scan;
            index += 2;
            continue;
          }
          if (char === this.quote) {
            if (index + 1 >= length && !final) break scan;
            if (buffer.charCodeAt(index + 1 - base) === this.quote) {
              index += 2;
              continue;
            }
            index++;
            this.state = 'code';
            continue scan;
          }
          index++;
        }
        index = length;
        break;
      }
      const code = buffer.charCodeAt(index - base);
      if ((code === 100 || code === 68) && (index === 0 || this.previous(index) === 10)) {
        if (index + 10 > length && !final) break;
        if (/^delimiter\s/i.test(buffer.slice(index - base, index - base + 10))) {
          const lineEnd = buffer.indexOf('\n', index - base);
          if (lineEnd === -1 && !final) break;
          const end = lineEnd === -1 ? length : base + lineEnd;
          const value = buffer.slice(index - base + 9, end - base).trim();
          if (value) {
            this.delimiter = value;
            this.delimiterCode = value.charCodeAt(0);
          }
          this.flush(index, end + 1, out);
          index = end + 1;
          continue;
        }
      }
      if (code === 45 /* - */ || code === 47 /* / */) {
        if (index + 1 >= length && !final) break;
        const next = buffer.charCodeAt(index + 1 - base);
        if (code === 45 && next === 45) {
          if (index + 2 >= length && !final) break;
          if (isSpace(index + 2 < length ? buffer.charCodeAt(index + 2 - base) : 32)) {
            this.state = 'line';
            continue;
          }
        }
        if (code === 47 && next === 42 /* * */) {
          if (index + 2 >= length && !final) break;
          const marker = buffer.charCodeAt(index + 2 - base);
          if (marker === 33 /* ! */ || marker === 43 /* + */) this.hasCode = true;
          this.state = 'block';
          index += 2;
          continue;
        }
      }
      if (code === 35 /* # */) {
        this.state = 'line';
        continue;
      }
      if (code === 39 /* ' */ || code === 34 /* " */ || code === 96 /* ` */) {
        this.hasCode = true;
        this.state = 'quote';
        this.quote = code;
        index++;
        continue;
      }
      if (code === this.delimiterCode) {
        const size = this.delimiter.length;
        if (size > 1 && index + size > length && !final) break;
        if (size === 1 || buffer.startsWith(this.delimiter, index - base)) {
          this.flush(index, index + size, out);
          index += size;
          continue;
        }
      }
      if (!this.hasCode && !isSpace(code)) this.hasCode = true;
      index++;
    }
    this.index = index;
  }
}

/** Statements of a script read as a stream of text chunks (e.g. a decoded fs.createReadStream). */
export async function* streamStatements(chunks: AsyncIterable<string>): AsyncGenerator<StatementSlice> {
  const stream = new StatementStream();
  for await (const chunk of chunks) yield* stream.push(chunk);
  yield* stream.end();
}

/** What `/\s/` matches, without a regular expression per character (ASCII fast path). */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

const WHITESPACE = /\s/;
