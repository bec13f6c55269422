// Text of SQL and schema input, from bytes: a file read whole or a stream (a file, standard input, an
// upload) decoded chunk by chunk. One rule for every input path (CLI files and stdin, schema files the
// UI loads): UTF-8 (a BOM dropped), or UTF-16 with a BOM (what Windows tools write). Anything else that
// is not valid UTF-8 is refused with the byte and its offset and how to convert, rather than read as
// replacement characters that would silently change names and strings. CRLF is text like any other
// (the splitter and the loaders read `\r` as white space); NUL bytes are for the caller to decide.

import { AdvisorError } from '../../shared/errors.js';

const CONVERT_HINT =
  'Convert it to UTF-8 first, e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8 (use the encoding the file was written in), or dump with --default-character-set=utf8mb4.';

/** Text of a whole input's bytes (see the module note); `what` names it in the error. */
export function decodeText(bytes: Uint8Array, what: string): string {
  const decoder = new InputDecoder(what);
  return decoder.decode(bytes) + decoder.end();
}

/**
 * An input decoded as it streams: the first bytes decide the encoding (a BOM), a character cut at a
 * chunk boundary is completed by the next chunk, and a byte that is not UTF-8 is refused with its offset.
 */
export class InputDecoder {
  private decoder: TextDecoder | null = null;
  private offset = 0;
  /** The first bytes, held until there are enough to see a BOM. */
  private head: Uint8Array | null = null;

  constructor(
    private readonly what: string,
    private readonly options: { nulAsSpace?: boolean } = {},
  ) {}

  /** Bytes read so far. */
  get bytes(): number {
    return this.offset + (this.head?.length ?? 0);
  }

  decode(chunk: Uint8Array): string {
    if (!this.decoder) {
      const head: Uint8Array = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      if (head.length < 2) {
        this.head = head;
        return '';
      }
      this.head = null;
      this.decoder = new TextDecoder(
        head[0] === 0xff && head[1] === 0xfe
          ? 'utf-16le'
          : head[0] === 0xfe && head[1] === 0xff
            ? 'utf-16be'
            : 'utf-8',
        { fatal: true },
      );
      chunk = head;
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      throw this.notUtf8(chunk);
    }
    this.offset += chunk.length;
    return this.clean(text);
  }

  /** The rest after the last chunk (an incomplete character at the end is refused). */
  end(): string {
    if (this.head) {
      const head = this.head;
      this.head = null;
      return this.decode(head) + this.end();
    }
    try {
      return this.decoder ? this.clean(this.decoder.decode()) : '';
    } catch {
      throw this.notUtf8(new Uint8Array([0xff]), true);
    }
  }

  private clean(text: string): string {
    if (this.options.nulAsSpace && text.includes('\u0000')) return text.split('\u0000').join(' ');
    return text;
  }

  private notUtf8(chunk: Uint8Array, atEnd = false): AdvisorError {
    const at = atEnd ? 0 : firstInvalidUtf8(chunk);
    const where = atEnd
      ? `it ends inside a character, after ${this.offset} bytes`
      : `byte 0x${(chunk[at] ?? 0).toString(16).padStart(2, '0')} at offset ${this.offset + at} is not valid UTF-8`;
    return new AdvisorError('INVALID_INPUT', `${this.what} is not UTF-8 text (${where}).`, {
      hint: CONVERT_HINT,
    });
  }
}

/** Offset of the first byte that does not start a valid UTF-8 sequence (the length when all are valid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte < 0xe0
          ? 2
          : byte >= 0xe0 && byte < 0xf0
            ? 3
            : byte >= 0xf0 && byte < 0xf5
              ? 4
              : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) if (((bytes[index + next] ?? 0) & 0xc0) !== 0x80) return index;
    index += length;
  }
  return index;
}
