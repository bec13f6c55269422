// Maps performance_schema statement digests to pt-query-digest fingerprints and checksums.
/*
 * Design note
 * -----------
 * performance_schema groups statements by (SCHEMA_NAME, DIGEST): a hash of the statement's token
 * stream with literals replaced by `?`. pt-query-digest groups by a fingerprint of the text. The
 * two keys agree often but not always, so a digest gets a fingerprint from the best source:
 *
 *  1. `QUERY_SAMPLE_TEXT` (MySQL >= 8.0.3): a real statement of the digest. Its pt fingerprint and
 *     checksum are exact *for that spelling*, unless the sample was cut at
 *     `performance_schema_max_sql_text_length` (then it is marked approximate).
 *  2. `DIGEST_TEXT` (every server): rebuilt into the text a tidily written statement would have,
 *     then fingerprinted. DIGEST_TEXT is the token stream joined by single spaces, with identifiers
 *     in backticks, keywords upper-case, `(...)` for value lists and `/* , ... *\/` after the first
 *     row of a multi-row INSERT. We drop the backticks, stick `,` `.` `(` `)` to their neighbours
 *     the way people write SQL (`a, b`, `t.c`, `count(*)`), and turn `(...)` into `(?)`, which the
 *     fingerprint folds into `in(?+)` / `values(?+)` like a real list. The result is marked
 *     approximate: pt-query-digest keeps the author's spacing (`v=?` and `v = ?` are two classes
 *     for it, one digest for the server) and backticks, and it lowercases identifiers.
 *
 * One digest can therefore be several pt classes (different spacing or quoting), and a digest
 * text cut at `performance_schema_max_digest_length` (ends in `...`) maps to nothing exact.
 */
import { checksum, fingerprint } from '../fingerprint/fingerprint.js';
import { binaryToDisplay, utf8ToBinaryString } from '../slowlog/text.js';

/** Where a digest's fingerprint came from. */
export type FingerprintSource = 'sample' | 'digest-text';

/** A pt-query-digest class key for a performance_schema digest. */
export interface DigestFingerprint {
  /** pt-query-digest 3.2.1 fingerprint. */
  fingerprint: string;
  /** pt-query-digest's class checksum (32 upper-case hex digits). */
  checksum: string;
  source: FingerprintSource;
  /** True only when fingerprinted from a complete QUERY_SAMPLE_TEXT. */
  exact: boolean;
}

// Keywords after which `(` starts a list or subquery rather than a call's arguments.
const KEEP_SPACE_BEFORE_PAREN = new Set([
  'AS',
  'AND',
  'OR',
  'NOT',
  'ON',
  'IN',
  'FROM',
  'JOIN',
  'WHERE',
  'SELECT',
  'EXISTS',
  'VALUES',
  'VALUE',
  'USING',
  'UNION',
  'ALL',
  'ANY',
  'SOME',
  'SET',
  'INTO',
  'HAVING',
  'BY',
  'THEN',
  'ELSE',
  'WHEN',
  'RETURN',
  'LIKE',
  'IS',
  'TABLE',
  '=',
  '<',
  '>',
  '<=',
  '>=',
  '<>',
  '!=',
  '+',
  '-',
  '*',
  '/',
  ',',
]);

/** A DIGEST_TEXT that performance_schema cut at `performance_schema_max_digest_length`. */
export function isTruncatedDigestText(digestText: string): boolean {
  // `(...)` is a value list and `?, ...` a run of placeholders (`LIMIT ?, ...`), not a cut.
  return /\.\.\.\s*$/.test(digestText) && !/(?:\(\.\.\.\)|\?, \.\.\.)\s*$/.test(digestText);
}

/**
 * Rebuilds a statement from a DIGEST_TEXT (MySQL or MariaDB), written the way people usually
 * write SQL, with `?` for literals. Pure text surgery on the space-separated token stream.
 */
export function statementFromDigestText(digestText: string): string {
  let text = digestText.trim();
  // Multi-row INSERT marker; the fingerprint keeps only the first row anyway.
  text = text.replace(/\s*\/\* , \.\.\. \*\//g, '');
  // Value lists: `(...)` → `(?)`.
  text = text.replace(/\(\.\.\.\)/g, '(?)');
  // A run of placeholders outside parentheses (`LIMIT ?, ...`) is at least two of them.
  text = text.replace(/\?, \.\.\./g, '?, ?');
  const tokens = tokenize(text);
  let out = '';
  let previous = '';
  let beforePrevious = '';
  for (const token of tokens) {
    const bare = token.startsWith('`') ? token.slice(1, -1).replace(/``/g, '`') : token;
    if (out === '') out = bare;
    else if (token === ',' || token === ')' || token === '.' || previous === '.' || previous === '(') {
      out += bare;
    } else if (
      token === '(' &&
      !KEEP_SPACE_BEFORE_PAREN.has(previous.toUpperCase()) &&
      beforePrevious.toUpperCase() !== 'INTO'
    ) {
      out += bare;
    } else out += ` ${bare}`;
    beforePrevious = previous;
    previous = token;
  }
  return out;
}

// Splits on single spaces, keeping backtick-quoted and string tokens whole (they may hold spaces).
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === '`' || c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === c) {
          if (text[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      tokens.push(text.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== ' ') j++;
    tokens.push(text.slice(i, j));
    i = j;
  }
  return tokens;
}

/** pt-query-digest fingerprint of a DIGEST_TEXT via {@link statementFromDigestText} (approximate). */
export function fingerprintFromDigestText(digestText: string): string {
  return fingerprint(statementFromDigestText(digestText));
}

/**
 * The best pt-query-digest class for a digest: from a complete QUERY_SAMPLE_TEXT when there is one,
 * else from DIGEST_TEXT. `null` when neither text is usable (the overflow row, a cut digest text).
 * Texts are JS strings as the driver decoded them; they are hashed as UTF-8 bytes, as a log would be.
 */
export function mapDigestToFingerprint(
  digestText: string | null,
  sampleText: string | null,
  options: { maxSqlTextLength?: number } = {},
): DigestFingerprint | null {
  if (sampleText) {
    const limit = options.maxSqlTextLength;
    const cut = limit !== undefined && limit > 0 && utf8Length(sampleText) >= limit;
    const fp = fingerprint(utf8ToBinaryString(sampleText));
    return { fingerprint: binaryToDisplay(fp), checksum: checksum(fp), source: 'sample', exact: !cut };
  }
  if (!digestText || isTruncatedDigestText(digestText)) return null;
  const fp = fingerprint(utf8ToBinaryString(statementFromDigestText(digestText)));
  return { fingerprint: binaryToDisplay(fp), checksum: checksum(fp), source: 'digest-text', exact: false };
}

function utf8Length(text: string): number {
  return utf8ToBinaryString(text).length;
}
