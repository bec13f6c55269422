// Key-part helpers of the index design: matching parts with existing indexes, ordering equality columns,
// choosing the range column, the server's key limits, and the key part list as DDL.
//
// Design note: a column part matches an existing index part by name and prefix length; an expression part
// by its canonical form (expression-key.ts: the server's stored spelling and ours give the same key). An existing index serves a design when its first parts are the design's equality/IN
// columns in any order and the rest follow in order. Limits: TEXT/BLOB get a prefix (and end the key),
// at most 16 parts, at most 3072 key bytes (covering columns dropped first, then the widest string part
// prefixed).

import { satisfies, parseVersion } from '../flavors/version.js';
import type { IndexInfo, TableInfo } from '../model/schema.js';
import { findColumn } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { quoteIdentifier } from '../advice/index-ddl.js';
import type { ColumnPredicate } from './access.js';
import { expressionKey } from './expression-key.js';
import type { Candidate, DesignedPart, DesignOptions, PartRole } from './design-types.js';
import {
  DEFAULT_TEXT_PREFIX,
  keyPartBytes,
  MAX_KEY_BYTES,
  MAX_KEY_PARTS,
  needsPrefix,
} from './key-length.js';

/** Whether the server builds descending key parts (MySQL 8.0; MariaDB 10.8). Older ones parse DESC and ignore it. */
export function descendingKeyParts(server: ServerInfo): boolean {
  const version = parseVersion(server.version);
  if (!version) return false;
  return server.flavor === 'mariadb' ? satisfies(version, '>=10.8') : satisfies(version, '>=8.0.0');
}

export function partFor(predicate: ColumnPredicate, role: PartRole): DesignedPart {
  return predicate.expression
    ? { expression: predicate.expression, role }
    : { column: predicate.column, role };
}

export function label(part: DesignedPart): string {
  return part.column ?? `(${part.expression ?? ''})`;
}

export function sameKey(part: DesignedPart, candidate: Candidate): boolean {
  return (
    Boolean(
      part.column &&
      candidate.part.column &&
      part.column.toLowerCase() === candidate.part.column.toLowerCase(),
    ) ||
    Boolean(
      part.expression &&
      candidate.part.expression &&
      canonical(part.expression) === canonical(candidate.part.expression),
    )
  );
}

/** The expression's canonical key (expression-key.ts): equal for the server's stored form and ours. */
export function canonical(text: string): string {
  return expressionKey(text);
}

export function orderBySelectivity(
  candidates: Candidate[],
  info: TableInfo,
  options: DesignOptions,
): Candidate[] {
  if (!options.distinct) return candidates;
  const distinct = (candidate: Candidate) =>
    candidate.part.column ? (options.distinct?.(info.name, candidate.part.column) ?? 0) : 0;
  return [...candidates].sort((a, b) => distinct(b) - distinct(a));
}

/** Put first the equality columns an existing index starts with, in its order (so it can be extended or reused). */
export function alignWithExisting(candidates: Candidate[], info: TableInfo): Candidate[] {
  let best: Candidate[] = [];
  for (const existing of info.indexes) {
    if (!existing.visible || existing.kind !== 'btree') continue;
    const run: Candidate[] = [];
    for (const part of existing.parts) {
      const match = candidates.find(
        (candidate) => !run.includes(candidate) && samePart(part, candidate.part),
      );
      if (!match) break;
      run.push(match);
    }
    if (run.length > best.length) best = run;
  }
  return [...best, ...candidates.filter((candidate) => !best.includes(candidate))];
}

export function pickRange(
  ranges: ColumnPredicate[],
  info: TableInfo,
  options: DesignOptions,
): Candidate | undefined {
  const strong = ranges.filter((predicate) => !predicate.weak);
  if (strong.length === 0) return undefined;
  // Bounded on both ends counts as closed even when written as two predicates.
  const key = (predicate: ColumnPredicate) =>
    predicate.expression ? `e:${canonical(predicate.expression)}` : `c:${predicate.column.toLowerCase()}`;
  const byKey = new Map<string, ColumnPredicate[]>();
  for (const predicate of strong)
    byKey.set(key(predicate), [...(byKey.get(key(predicate)) ?? []), predicate]);
  const scored = [...byKey.values()].map((group) => ({
    predicate: group[0]!,
    closed: group.some((predicate) => predicate.closed) || group.length > 1,
    distinct: group[0]!.expression ? 0 : (options.distinct?.(info.name, group[0]!.column) ?? 0),
  }));
  scored.sort((a, b) => Number(b.closed) - Number(a.closed) || b.distinct - a.distinct);
  const chosen = scored[0]!.predicate;
  return { part: partFor(chosen, 'range'), predicate: chosen };
}

export function samePart(existing: IndexInfo['parts'][number], part: DesignedPart | undefined): boolean {
  if (!part) return false;
  if (existing.expression)
    return Boolean(part.expression && canonical(existing.expression) === canonical(part.expression));
  if (!existing.column || !part.column) return false;
  if ((existing.prefixLength ?? null) !== (part.prefixLength ?? null)) return false;
  return existing.column.toLowerCase() === part.column.toLowerCase();
}

/**
 * An existing index serves the design when its first `unordered` parts are the design's equality/IN
 * columns in any order, and the following parts are the design's range or sort columns in order.
 */
export function serves(existing: IndexInfo, seek: DesignedPart[], unordered: number): boolean {
  if (!existing.visible || existing.kind !== 'btree' || existing.parts.length < seek.length) return false;
  const head = seek.slice(0, unordered);
  const used = new Set<number>();
  for (let i = 0; i < head.length; i++) {
    const match = head.findIndex((part, j) => !used.has(j) && samePart(existing.parts[i]!, part));
    if (match < 0) return false;
    used.add(match);
  }
  const tail = seek.slice(unordered);
  if (tail.some((part) => part.desc)) return false; // descending parts: the model does not keep directions
  return tail.every((part, i) => samePart(existing.parts[unordered + i]!, part));
}

export function applyLimits(parts: DesignedPart[], info: TableInfo, notes: string[]): DesignedPart[] {
  let result: DesignedPart[] = [];
  for (const part of parts) {
    if (part.column) {
      const column = findColumn(info, part.column);
      if (column && needsPrefix(column)) {
        result.push({ ...part, prefixLength: DEFAULT_TEXT_PREFIX });
        notes.push(
          `${column.name} is ${column.dataType.toUpperCase()}: indexed on its first ${DEFAULT_TEXT_PREFIX} characters (a prefix cannot sort or cover; check COUNT(DISTINCT LEFT(${column.name}, ${DEFAULT_TEXT_PREFIX})) against COUNT(DISTINCT ${column.name})). Key parts after it are left out.`,
        );
        break;
      }
    }
    result.push(part);
  }
  if (result.length > MAX_KEY_PARTS) {
    notes.push(`Cut to ${MAX_KEY_PARTS} key parts, the server's limit.`);
    result = result.slice(0, MAX_KEY_PARTS);
  }
  let bytes = keyBytesOf(result, info);
  while (
    bytes !== null &&
    bytes > MAX_KEY_BYTES &&
    result.length > 1 &&
    result[result.length - 1]!.role === 'cover'
  ) {
    result = result.slice(0, -1);
    bytes = keyBytesOf(result, info);
    if (bytes !== null && bytes <= MAX_KEY_BYTES)
      notes.push(`Covering columns dropped to stay within ${MAX_KEY_BYTES} key bytes.`);
  }
  if (bytes !== null && bytes > MAX_KEY_BYTES) {
    // Prefix the widest string part so the key fits.
    const widest = result
      .map((part, i) => ({ part, i, column: part.column ? findColumn(info, part.column) : undefined }))
      .filter((entry) => entry.column && /char|binary/i.test(entry.column.dataType))
      .sort((a, b) => (keyPartBytes(b.column!, info) ?? 0) - (keyPartBytes(a.column!, info) ?? 0))[0];
    if (widest) {
      const own = keyPartBytes(widest.column!, info) ?? 0;
      const perChar = own / Math.max(1, Number(/\((\d+)\)/.exec(widest.column!.columnType)?.[1] ?? 1));
      const room = MAX_KEY_BYTES - (bytes - own);
      const chars = Math.floor(room / Math.max(1, perChar));
      if (chars > 0) {
        result = result.slice(0, widest.i + 1);
        result[widest.i] = { ...widest.part, prefixLength: chars };
        notes.push(
          `${widest.column!.name} is indexed on its first ${chars} characters to stay within ${MAX_KEY_BYTES} key bytes.`,
        );
      }
    }
  }
  return result;
}

export function keyBytesOf(parts: DesignedPart[], info: TableInfo): number | null {
  let total = 0;
  for (const part of parts) {
    if (!part.column) return null;
    const column = findColumn(info, part.column);
    const bytes = column ? keyPartBytes(column, info, part.prefixLength) : undefined;
    if (bytes === undefined) return null;
    total += bytes;
  }
  return total;
}

/** Key part list for DDL: columns (with prefix and DESC), expressions in their own parentheses. */
export function partsSql(parts: readonly DesignedPart[]): string {
  return parts
    .map((part) =>
      part.column
        ? `${quoteIdentifier(part.column)}${part.prefixLength ? `(${part.prefixLength})` : ''}${part.desc ? ' DESC' : ''}`
        : `(${part.expression ?? ''})${part.desc ? ' DESC' : ''}`,
    )
    .join(', ');
}

/**
 * The statement a what-if run builds for a designed index. An extension (`DROP INDEX i, ADD INDEX i (…)`,
 * possibly after the `ADD COLUMN` of a generated column it keys on) is tried as a new index next to the
 * old one (`i_whatif`), so a what-if never drops anything; every other statement is returned unchanged.
 */
export function whatIfDdl(ddl: string): string {
  const match =
    /^\s*ALTER\s+TABLE\s+(`(?:[^`]|``)+`|\S+)\s+((?:ADD\s+COLUMN\s[\s\S]*?,\s*)?)DROP\s+INDEX\s+(?:`(?:[^`]|``)+`|\S+)\s*,\s*ADD\s+INDEX\s+(`(?:[^`]|``)+`|[^\s(]+)\s*\(([\s\S]*)\)\s*,\s*ALGORITHM\s*=\s*INPLACE\s*,\s*LOCK\s*=\s*(?:NONE|SHARED)\s*;?\s*$/i.exec(
      ddl,
    );
  if (!match) return ddl;
  const name = (match[3] ?? '').replace(/^`|`$/g, '').replace(/``/g, '`');
  return `ALTER TABLE ${match[1]} ${match[2] ?? ''}ADD INDEX ${quoteIdentifier(`${name.slice(0, 57)}_whatif`)} (${match[4]});`;
}

/**
 * Existing indexes of the table (other than `replaced`) that already key on one of the design's
 * expressions as a functional key part. MySQL keeps one hidden generated column per functional key part
 * and substitutes a query's expression by only one of them: a second functional key part over the same
 * expression makes the first index unusable for queries on the expression alone (measured on 8.0.33).
 */
export function clashingExpressions(
  parts: readonly DesignedPart[],
  info: TableInfo,
  replaced: IndexInfo | undefined,
): { index: IndexInfo; expression: string }[] {
  const result: { index: IndexInfo; expression: string }[] = [];
  for (const part of parts) {
    if (!part.expression) continue;
    const key = canonical(part.expression);
    const holder = info.indexes.find(
      (existing) =>
        existing !== replaced &&
        existing.parts.some((other) => other.expression && canonical(other.expression) === key),
    );
    if (holder) result.push({ index: holder, expression: part.expression });
  }
  return result;
}
