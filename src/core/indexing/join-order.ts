// Join order for the index design: which table drives the join and the order the others follow.
//
// Design note: the driving table is the one the ORDER BY … LIMIT is on (read in index order, the join stops
// after LIMIT rows) when its own filters are as strong as any; otherwise the table whose own filters narrow
// it most (constant equalities weigh most), then the fewest rows. The optional side of an outer join never
// drives. Every following table is one joined to a table already placed, so it is looked up by its join
// columns (design-table.ts indexes those for it).

import type { BlockAccess } from './access.js';
import type { DesignOptions } from './design-types.js';

/** Above any sum of predicate weights: a table read as one row by a unique key always comes first. */
const CONST_TABLE = 1000;

/**
 * Filter strength of a table on its own (constant equalities weigh most). A table whose constant
 * equalities cover every column of a primary or unique key (NOT NULL) is read first by both servers (a
 * "const" table: one row, read before the join starts), whatever the other tables' filters.
 */
function strength(access: BlockAccess, index: number): number {
  let score = 0;
  const predicates = access.predicates.get(index) ?? [];
  const bound = new Set(
    predicates
      .filter((predicate) => predicate.kind === 'equality' && !predicate.expression)
      .map((predicate) => predicate.column.toLowerCase()),
  );
  const info = access.tables[index]?.info;
  const unique = info?.indexes.some(
    (candidate) =>
      candidate.unique &&
      candidate.visible &&
      candidate.parts.length > 0 &&
      candidate.parts.every((part) => {
        const name = part.column?.toLowerCase();
        if (!name || part.prefixLength || !bound.has(name)) return false;
        const column = info.columns.find((c) => c.name.toLowerCase() === name);
        return column !== undefined && !column.nullable;
      }),
  );
  if (unique) score += CONST_TABLE;
  for (const predicate of predicates) {
    if (predicate.weak) continue;
    score += predicate.kind === 'equality' ? 4 : predicate.kind === 'in' ? 3 : predicate.closed ? 2 : 1;
  }
  return score;
}

/** Which table drives the join and the order the others follow (each joined to one placed before it). */
export function joinOrder(
  access: BlockAccess,
  options: DesignOptions,
): { sequence: number[]; why: string | null } {
  const count = access.tables.length;
  if (count === 1) return { sequence: [0], why: null };
  const eligible = access.tables.map((table) => table.outer === null);
  const sortTable = access.limit && access.orderBy ? access.orderBy[0]?.table : undefined;
  let driver: number;
  let why: string;
  const scores = access.tables.map((_table, index) => strength(access, index));
  const rows = access.tables.map((table) => table.info.rowsEstimate ?? Number.POSITIVE_INFINITY);
  if (sortTable !== undefined && eligible[sortTable] && scores[sortTable]! >= Math.max(...scores) - 0) {
    driver = sortTable;
    why = `${access.tables[driver]!.name} drives the join: ORDER BY … LIMIT is on its columns, so it is read in index order and the join stops after LIMIT rows.`;
  } else {
    const candidates = access.tables
      .map((_table, index) => index)
      .filter((index) => eligible[index])
      .sort(
        (a, b) =>
          scores[b]! - scores[a]! ||
          rows[a]! - rows[b]! ||
          access.tables[a]!.position - access.tables[b]!.position,
      );
    driver = candidates[0] ?? 0;
    const name = access.tables[driver]!.name;
    why =
      scores[driver]! > 0
        ? `${name} drives the join: its own filters narrow it most, and every other table is then looked up by its join columns.`
        : Number.isFinite(rows[driver]!) && rows[driver]! < Math.max(...rows.filter(Number.isFinite))
          ? `${name} drives the join: no table has its own filter and it has the fewest rows.`
          : `${name} drives the join: no table has its own filter, so it is read in full and the others are looked up by their join columns.`;
    if (access.tables.some((table) => table.outer !== null))
      why += ' The optional side of an outer join is always read after the table it joins.';
  }
  void options;
  const sequence = [driver];
  while (sequence.length < count) {
    const connected = access.tables
      .map((_table, index) => index)
      .filter((index) => !sequence.includes(index))
      .filter((index) =>
        access.joins.some(
          (join) =>
            (join.left.table === index && sequence.includes(join.right.table)) ||
            (join.right.table === index && sequence.includes(join.left.table)),
        ),
      );
    const pool =
      connected.length > 0 ? connected : access.tables.map((_t, i) => i).filter((i) => !sequence.includes(i));
    pool.sort((a, b) => scores[b]! - scores[a]! || access.tables[a]!.position - access.tables[b]!.position);
    sequence.push(pool[0]!);
  }
  return { sequence, why };
}
