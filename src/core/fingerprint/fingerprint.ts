// Query fingerprints and class checksums, byte-for-byte compatible with pt-query-digest 3.2.1.
/*
 * Design note
 * -----------
 * This is a transliteration of Percona Toolkit's `QueryRewriter::fingerprint` (3.2.1). The
 * input is a *binary string*: one JS char per byte of the log (a Latin-1 view, code points
 * 0-255), because pt-query-digest works on undecoded bytes and its checksum is the MD5 of those
 * bytes. Perl's regex semantics on byte strings are reproduced with explicit classes:
 * `\s` is `[ \t\n\r\f\v]` (JS `\s` would also match U+00A0), `.` is `[^\n]` (JS `.` also stops
 * at `\r`), `/s` dot is `[^]`, and lowercasing touches ASCII `A-Z` only.
 *
 * Steps, in order ("return" ends the routine):
 *  1. Shortcuts: mysqldump's `SELECT /*!40001 SQL_NO_CACHE *\/ * FROM \`` → `mysqldump`; a
 *     `/*word.word:N/N*\/` marker → `percona-toolkit`; `administrator command: ` → unchanged;
 *     `call name(` → `call name` lowercased.
 *  2. Multi-row INSERT/REPLACE … VALUES (…),(…) is cut after the first row.
 *  3. Comments: `/*…*\/` (not `/*!`), then `--`/`#` to end of line unless the rest of the
 *     line holds a quote.
 *  4. `use db` (whole text) → `use ?`, returned as is.
 *  5. Strings: drop `\'`/`\"`, then `"…"` → `?`, then `'…'` → `?` (non-greedy, across lines).
 *  6. `true`/`false` → `?`.  7. Number-ish runs `[0-9+-][0-9a-f.xb+-]*` → `?` (also inside
 *     identifiers: `db1` → `db?`).  8. `x?` `b?` `.?` `+?` `-?` → `?`.
 *  9. Trim leading whitespace and one trailing `\n`. 10. Fold runs of ` \n\t\r\f` to one space.
 * 11. ASCII lowercase. 12. `null` → `?`. 13. `in (?,?)`, `values (?),(?)` → `in(?+)` / `values(?+)`.
 * 14. Repeated `select … union [all] select …` → one copy + `/*repeat union[ all]*\/`.
 * 15. First `limit ?[, ?| offset ?]` → `limit ?`. 16. After the first `order by `, delete every
 *     whitespace + `asc` (no word boundary, like the original).
 * The quirks (e.g. `order by a, ascii_col` → `order by a,ii_col`) are deliberate: the class
 * checksum must equal pt-query-digest's. See tests/fixtures/slowlogs/README.md.
 */
import { md5 } from '@noble/hashes/legacy.js';

const MYSQLDUMP_PREFIX = 'SELECT /*!40001 SQL_NO_CACHE */ * FROM `';
const PERCONA_MARKER = /\/\*\w+\.\w+:[0-9]\/[0-9]\*\//;
const CALL = /^[ \t\n\r\f\v]*(call[ \t\n\r\f\v]+[^ \t\n\r\f\v]+)\(/i;
const MULTI_ROW_INSERT =
  /^((?:INSERT|REPLACE)(?: IGNORE)?[ \t\n\r\f\v]+INTO[^]+?VALUES[ \t\n\r\f\v]*\([^]*?\))[ \t\n\r\f\v]*,[ \t\n\r\f\v]*\(/i;
const MULTI_LINE_COMMENT = /\/\*[^!][^]*?\*\//g;
const ONE_LINE_COMMENT = /(?:--|#)[^'"\r\n]*(?=[\r\n]|$)/g;
const USE_DB = /^use [^ \t\n\r\f\v]+(?=\n?$)/i;
const ESCAPED_QUOTE = /\\["']/g;
const DOUBLE_QUOTED = /"[^]*?"/g;
const SINGLE_QUOTED = /'[^]*?'/g;
const BOOLEAN = /\bfalse\b|\btrue\b/gi;
const NUMBER = /[0-9+-][0-9a-f.xb+-]*/g;
const NUMBER_PREFIX = /[xb.+-]\?/g;
const LEADING_SPACE = /^[ \t\n\r\f\v]+/;
const WHITESPACE_RUN = /[ \n\t\r\f]+/g;
const UPPER = /[A-Z]/;
const UPPER_RUN = /[A-Z]+/g;
const NON_ASCII = /[\u0080-\uffff]/;
const NULL_WORD = /\bnull\b/g;
const VALUE_LIST = /\b(in|values?)(?:[ \t\n\r\f\v,]*\([ \t\n\r\f\v?,]*\))+/g;
const REPEATED_UNION =
  /\b(select[ \t\n\r\f\v][^\n]*?)(?:([ \t\n\r\f\v]union(?:[ \t\n\r\f\v]all)?)[ \t\n\r\f\v]\1)+/g;
const LIMIT = /\blimit \?(?:, ?\?| offset \?)?/;
const ORDER_BY = /\border by /i;
const ASC_AFTER_ORDER_BY = /([^\n]+?)[ \t\n\r\f\v]+asc/giy;

/** Lowercases ASCII A-Z only, as Perl's `lc` does on byte strings. */
export function asciiLower(text: string): string {
  if (!UPPER.test(text)) return text;
  // Without chars >= 0x80, toLowerCase changes exactly A-Z.
  return NON_ASCII.test(text) ? text.replace(UPPER_RUN, (run) => run.toLowerCase()) : text.toLowerCase();
}

/**
 * The pt-query-digest 3.2.1 fingerprint of a query (the class key).
 * @param query the query as a binary string (one char per byte of the log).
 */
export function fingerprint(query: string): string {
  if (query.startsWith(MYSQLDUMP_PREFIX)) return 'mysqldump';
  if (PERCONA_MARKER.test(query)) return 'percona-toolkit';
  if (query.startsWith('administrator command: ')) return query;
  const call = CALL.exec(query);
  if (call) return asciiLower(call[1] ?? '');

  let q = query;
  const multiRow = MULTI_ROW_INSERT.exec(q);
  if (multiRow) q = multiRow[1] ?? q;

  if (q.includes('/*')) q = q.replace(MULTI_LINE_COMMENT, '');
  if (q.includes('--') || q.includes('#')) q = q.replace(ONE_LINE_COMMENT, '');
  if (USE_DB.test(q)) return q.replace(USE_DB, 'use ?');

  if (q.includes('\\')) q = q.replace(ESCAPED_QUOTE, '');
  if (q.includes('"')) q = q.replace(DOUBLE_QUOTED, '?');
  if (q.includes("'")) q = q.replace(SINGLE_QUOTED, '?');
  q = q.replace(BOOLEAN, '?');
  q = q.replace(NUMBER, '?');
  q = q.replace(NUMBER_PREFIX, '?');

  q = q.replace(LEADING_SPACE, '');
  if (q.endsWith('\n')) q = q.slice(0, -1);
  q = q.replace(WHITESPACE_RUN, ' ');
  q = asciiLower(q);
  if (q.includes('null')) q = q.replace(NULL_WORD, '?');
  if (q.includes('in') || q.includes('value')) q = q.replace(VALUE_LIST, '$1(?+)');
  if (q.includes('union')) q = q.replace(REPEATED_UNION, '$1 /*repeat$2*/');
  if (q.includes('limit')) q = q.replace(LIMIT, 'limit ?');

  const orderBy = ORDER_BY.exec(q);
  if (orderBy) {
    const start = orderBy.index + orderBy[0].length;
    ASC_AFTER_ORDER_BY.lastIndex = 0;
    q = q.slice(0, start) + q.slice(start).replace(ASC_AFTER_ORDER_BY, '$1');
  }
  return q;
}

// See fingerprintKey. The literal tests are `includes` calls: a native substring search beats an
// alternation regex (which V8 runs char by char) on every event of a log.
function hasComment(text: string): boolean {
  return text.includes('#') || text.includes('/*') || text.includes('--');
}
function hasKeyUnsafe(text: string): boolean {
  return text.includes('"') || text.includes('\\') || hasComment(text);
}
const KEY_UNSAFE_START = /^[ \t\n\r\f\v]*(?:call|use|administrator)/i;
const INSERT_START = /^(?:insert|replace)/i;
const PAIRED_STRING = /'[^']*'/g;
const INSERT_UNSAFE_STRING = /[()]|values/i;
const DIGIT_RUN = /[0-9]+/g;

/**
 * A cache key with `fingerprint(key) === fingerprint(query)`, or undefined when the query is
 * not eligible; queries that differ only in their literals share one key, so the digest
 * computes each fingerprint once. The key is the query with comments removed (as step 3
 * does), every single-quoted string emptied and every digit run shortened to `0`.
 *
 * Why the fingerprint cannot tell the difference. Eligible queries have no `"` or `\`, do not
 * start with call/use/administrator (after whitespace), carry no percona-toolkit marker, and
 * if they have comments they are not INSERT/REPLACE and have no `#`, `/*`, `--` left once
 * comments are removed. Then:
 *  - steps 1-3 either do not apply or, for comments, give exactly the text we start from
 *    (fingerprint(s) = fingerprint(query) for the comment-free s); step 4 (`use`) cannot match;
 *  - escaped and double quotes do not occur; single quotes pair left to right (`'[^]*?'`)
 *    whatever the content, and each pair becomes `?`, so emptying a pair changes nothing; an
 *    unpaired last quote keeps its content in the key;
 *  - INSERT/REPLACE (step 2, before strings) are eligible only if no string holds `(`, `)` or
 *    `values`: the multi-row cut then happens at the same place outside strings in both texts;
 *  - every remaining digit is consumed by the number rule `[0-9+-][0-9a-f.xb+-]*`, a digit run
 *    matches exactly where one digit would (same class; `\b` sees a word char either way) and
 *    becomes the same `?`. No later step sees digits.
 * tests/unit/fingerprint checks the equality over the vectors, the corpus and random queries.
 */
export function fingerprintKey(query: string): string | undefined {
  let text = query;
  const commented = hasComment(text);
  if (commented) {
    if (INSERT_START.test(text) || PERCONA_MARKER.test(text) || text.startsWith(MYSQLDUMP_PREFIX)) {
      return undefined;
    }
    if (text.includes('/*')) text = text.replace(MULTI_LINE_COMMENT, '');
    if (text.includes('--') || text.includes('#')) text = text.replace(ONE_LINE_COMMENT, '');
  }
  // Without comments, `text` is the query, which has none: only `"` and `\` are left to test.
  const unsafe = commented ? hasKeyUnsafe(text) : text.includes('"') || text.includes('\\');
  if (unsafe || KEY_UNSAFE_START.test(text) || KEY_UNSAFE_START.test(query)) {
    return undefined;
  }
  if (text.includes("'")) {
    if (INSERT_START.test(text)) {
      PAIRED_STRING.lastIndex = 0;
      for (let m = PAIRED_STRING.exec(text); m; m = PAIRED_STRING.exec(text)) {
        if (INSERT_UNSAFE_STRING.test(m[0])) {
          PAIRED_STRING.lastIndex = 0;
          return undefined;
        }
      }
    }
    text = text.replace(PAIRED_STRING, "''");
  }
  return text.replace(DIGIT_RUN, '0');
}

/**
 * For a *plain* query — no `'`, `"`, `\`, `#`, `/*` or `--`, and not starting (after
 * whitespace) with call/use/administrator — {@link fingerprintKey} is the query with every
 * digit run shortened to `0` (no comment or string step applies). This returns a 32-bit hash
 * of that key without building it, or -1 when the query is not plain; {@link sameKey} compares
 * two plain queries' keys in place. Together they let a digest find a query's fingerprint
 * without allocating the key string (tests/unit/fingerprint/plain-key.test.ts checks both
 * against fingerprintKey).
 */
export function plainKeyHash(query: string): number {
  const n = query.length;
  let hash = n === 0 ? 0 : 1;
  let inDigits = false;
  let previous = -1; // the previous char (digits included), read once
  for (let i = 0; i < n; i++) {
    const c = query.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (!inDigits) {
        hash = (Math.imul(hash, 31) + 48) | 0;
        inDigits = true;
      }
      previous = c;
      continue;
    }
    inDigits = false;
    if (c === 39 || c === 34 || c === 92 || c === 35) return -1; // ' " \ #
    if ((c === 42 && previous === 47) || (c === 45 && previous === 45)) return -1; // /* or --
    hash = (Math.imul(hash, 31) + c) | 0;
    previous = c;
  }
  if (KEY_UNSAFE_START.test(query)) return -1;
  return hash & 0x7fffffff;
}

/** Whether two plain queries (see {@link plainKeyHash}) have the same key. */
export function sameKey(a: string, b: string): boolean {
  const n = a.length;
  const m = b.length;
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    const xDigit = x >= 48 && x <= 57;
    const yDigit = y >= 48 && y <= 57;
    if (xDigit !== yDigit) return false;
    if (xDigit) {
      do i++;
      while (i < n && a.charCodeAt(i) >= 48 && a.charCodeAt(i) <= 57);
      do j++;
      while (j < m && b.charCodeAt(j) >= 48 && b.charCodeAt(j) <= 57);
      continue;
    }
    if (x !== y) return false;
    i++;
    j++;
  }
  return i === n && j === m;
}

const HEX = '0123456789ABCDEF';

/**
 * pt-query-digest's class checksum (3.0.11+): upper-case hex of the full MD5 of the
 * fingerprint's bytes. Chars above 0xFF (a string that was not read as bytes) are hashed as UTF-8.
 */
export function checksum(fingerprintText: string): string {
  const digest = md5(binaryStringToBytes(fingerprintText));
  let out = '';
  for (const byte of digest) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

/** Bytes of a binary string; any char above 0xFF is encoded as UTF-8 (never throws). */
export function binaryStringToBytes(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x100) bytes.push(c);
    else {
      const cp = text.codePointAt(i) ?? c;
      if (cp > 0xffff) i++;
      if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
      else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
      else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    }
  }
  return Uint8Array.from(bytes);
}
