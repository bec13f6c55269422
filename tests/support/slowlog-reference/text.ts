// Frozen reference copy (test only) of the pre-optimisation src/core: Binary strings: one JS char per byte, the lossless view pt-query-digest compatibility needs.

/**
 * Turns bytes into a binary string (char code = byte value). Never throws, whatever the bytes.
 * In Node, `buffer.toString('latin1')` is the same and faster.
 */
export function bytesToBinaryString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return out;
}

/** Encodes a normal (decoded) string as UTF-8 bytes held in a binary string. */
export function utf8ToBinaryString(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    let cp = ch.codePointAt(0) ?? 0xfffd;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate
    if (cp < 0x80) out += ch;
    else if (cp < 0x800) out += String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000)
      out += String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      out += String.fromCharCode(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
  }
  return out;
}

/**
 * Decodes a binary string for display: valid UTF-8 sequences become their characters and any
 * other byte is shown as its Latin-1 character, so latin1 logs and binary junk stay readable.
 */
export function binaryToDisplay(binary: string): string {
  // Fast path: pure ASCII.
  if (!/[\x80-\xff]/.test(binary)) return binary;
  let out = '';
  const n = binary.length;
  for (let i = 0; i < n; i++) {
    const b0 = binary.charCodeAt(i);
    if (b0 < 0x80 || b0 > 0xff) {
      out += binary[i];
      continue;
    }
    const need = b0 >= 0xf0 && b0 <= 0xf4 ? 3 : b0 >= 0xe0 ? 2 : b0 >= 0xc2 && b0 <= 0xdf ? 1 : 0;
    let cp = need === 3 ? b0 & 7 : need === 2 ? b0 & 15 : b0 & 31;
    let ok = need > 0 && i + need < n;
    for (let k = 1; ok && k <= need; k++) {
      const b = binary.charCodeAt(i + k);
      if ((b & 0xc0) !== 0x80 || b > 0xff) ok = false;
      else cp = (cp << 6) | (b & 63);
    }
    const min = need === 3 ? 0x10000 : need === 2 ? 0x800 : 0x80;
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += need;
    } else {
      out += binary[i];
    }
  }
  return out;
}

/**
 * A copy of `text` that does not keep a larger string alive. The parser hands out slices of
 * its read buffer (no copying per record); anything the digest keeps goes through this, so a
 * kept example or fingerprint holds its own bytes, not a whole 1 MiB chunk.
 */
export function detach(text: string): string {
  // V8 copies strings shorter than 13 chars when slicing; for longer ones, slicing a fresh
  // concatenation flattens it into a new string of their own.
  return text.length < 13 ? text : (' ' + text).slice(1);
}
