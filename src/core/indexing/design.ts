// Per-query index design by access path: one index per table of the query, as a DBA designs it.
//
// Design note: for each table the key is built in the order the server can use it:
//   1. equality columns (constants, and for a table read inside a join the join columns), any order
//      among themselves; ordered to line up with an existing index (so it can be extended), then by
//      selectivity when statistics are known;
//   2. IN lists (they seek like equalities but the rows come back per value, so no sort after them);
//   3. either ONE range column, or the ORDER BY / GROUP BY columns when everything before them is an
//      equality (the rows are then read in index order: no filesort, no temporary table). With a LIMIT
//      the sort wins (the scan stops after LIMIT rows), without one the range does;
//   4. when the query reads few other columns of the table, those columns, so the index covers it.
// InnoDB appends the primary key to every secondary index, so primary-key columns are never added at
// the end (ORDER BY id after equalities is already in index order). Before proposing anything the
// design is compared with the table's indexes: an index that seeks the same way serves the query (no
// new index), one that is a left prefix of the design is extended in one ALTER, and nothing is ever
// proposed that duplicates an index or is its left prefix. Server limits (3072 key bytes, 16 key
// parts, TEXT/BLOB prefixes, no JSON) are checked on the designed key.

import { satisfies, parseVersion } from '../flavors/version.js';
import type { IndexInfo, TableInfo } from '../model/schema.js';
import { findColumn, type SchemaModel } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import type { AstNode } from '../sql/ast.js';
import {
  checkFunctionalKeyParts,
  NONDETERMINISTIC_FUNCTIONS,
  quoteIdentifier,
  uniqueName,
} from '../advice/index-ddl.js';
import { blockAccess, type BlockAccess, type ColumnPredicate, type SortItem } from './access.js';
import {
  DEFAULT_TEXT_PREFIX,
  keyPartBytes,
  MAX_KEY_BYTES,
  MAX_KEY_PARTS,
  needsPrefix,
  unindexable,
} from './key-length.js';

/** Why a key part is there. */
export type PartRole = 'equality' | 'join' | 'in' | 'range' | 'sort' | 'group' | 'cover';

export interface DesignedPart {
  /** Column name (schema spelling); absent for an expression. */
  column?: string;
  /** Expression key part (MySQL >= 8.0.13 functional key part), without the outer parentheses. */
  expression?: string;
  prefixLength?: number;
  desc?: boolean;
  role: PartRole;
}

/** The design for one table of the query. */
export interface TableIndexPlan {
  table: string;
  /** The name the query uses for it (alias), when different. */
  alias: string | null;
  /** `only`: single-table query; `driving`: read first in the join; `inner`: looked up per row of the tables before it. */
  role: 'only' | 'driving' | 'inner';
  /**
   * `create`: a new index; `extend`: an existing index is a left prefix of the design and is replaced by
   * it; `served`: an existing index already seeks (and sorts) as the design would; `none`: nothing of
   * this table can use an index in this query.
   */
  verdict: 'create' | 'extend' | 'served' | 'none';
  parts: DesignedPart[];
  indexName: string | null;
  /** Runnable statements (empty unless create/extend). */
  ddl: string[];
  /** The existing index that serves the query (served) or is extended (extend). */
  existingIndex: string | null;
  /** The index holds every column the query reads from the table. */
  covering: boolean;
  /** ORDER BY / GROUP BY is read in index order (no filesort / temporary for it). */
  sortFromIndex: boolean;
  /** Sum of the key parts' lengths in bytes (InnoDB's count), when every part's type is known. */
  keyBytes: number | null;
  /** Why this column order, what it serves, what was left out. */
  notes: string[];
}

export interface QueryIndexPlan {
  /** One entry per base table of the main query block that the schema knows. */
  tables: TableIndexPlan[];
  /** The table the join starts from (joins only). */
  drivingTable: string | null;
  notes: string[];
}

export interface DesignOptions {
  /** Distinct values of a column (from statistics), to order equality columns by selectivity. */
  distinct?: (table: string, column: string) => number | undefined;
  /** Largest number of extra columns appended to make an index covering (default 3). */
  maxCoverColumns?: number;
}

/** Design indexes for one parsed statement. Never throws; undefined when the statement is not a query over known tables. */
export function designQueryIndexes(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  options: DesignOptions = {},
): QueryIndexPlan | undefined {
  if (schema.source === 'none') return undefined;
  let access: BlockAccess | undefined;
  try {
    access = blockAccess(ast, sql, schema, server.database, server.flavor);
  } catch {
    return undefined;
  }
  if (!access || access.tables.length === 0) return undefined;
  const order = joinOrder(access, options);
  const plan: QueryIndexPlan = {
    tables: [],
    drivingTable: access.tables.length > 1 ? (access.tables[order.sequence[0] ?? 0]?.name ?? null) : null,
    notes: [...new Set(access.notes)],
  };
  if (order.why) plan.notes.push(order.why);
  if (access.unknownTables.length > 0)
    plan.notes.push(`No design for ${access.unknownTables.join(', ')}: the schema does not know it.`);
  const placed: number[] = [];
  for (const index of order.sequence) {
    const role: TableIndexPlan['role'] =
      access.tables.length === 1 ? 'only' : placed.length === 0 ? 'driving' : 'inner';
    plan.tables.push(designTable(access, index, placed, role, server, options));
    placed.push(index);
  }
  return plan;
}

const designs = new WeakMap<AstNode, { schema: SchemaModel; plan: QueryIndexPlan | undefined }>();

/**
 * {@link designQueryIndexes} once per parsed statement and schema (the rule IDX001 and the report's
 * `indexPlan` read the same design).
 */
export function designFor(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
): QueryIndexPlan | undefined {
  const known = designs.get(ast);
  if (known && known.schema === schema) return known.plan;
  const plan = designQueryIndexes(ast, sql, schema, server);
  designs.set(ast, { schema, plan });
  return plan;
}

/** Whether the server builds descending key parts (MySQL 8.0; MariaDB 10.8). Older ones parse DESC and ignore it. */
export function descendingKeyParts(server: ServerInfo): boolean {
  const version = parseVersion(server.version);
  if (!version) return false;
  return server.flavor === 'mariadb' ? satisfies(version, '>=10.8') : satisfies(version, '>=8.0.0');
}

/** Filter strength of a table on its own (constant equalities weigh most). */
function strength(access: BlockAccess, index: number): number {
  let score = 0;
  for (const predicate of access.predicates.get(index) ?? []) {
    if (predicate.weak) continue;
    score += predicate.kind === 'equality' ? 4 : predicate.kind === 'in' ? 3 : predicate.closed ? 2 : 1;
  }
  return score;
}

/** Which table drives the join and the order the others follow (each joined to one placed before it). */
function joinOrder(access: BlockAccess, options: DesignOptions): { sequence: number[]; why: string | null } {
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

interface Candidate {
  part: DesignedPart;
  predicate?: ColumnPredicate;
}

function designTable(
  access: BlockAccess,
  index: number,
  placed: readonly number[],
  role: TableIndexPlan['role'],
  server: ServerInfo,
  options: DesignOptions,
): TableIndexPlan {
  const table = access.tables[index]!;
  const info = table.info;
  const notes: string[] = [];
  const plan: TableIndexPlan = {
    table: info.name,
    alias: table.alias && table.alias !== info.name ? table.alias : null,
    role,
    verdict: 'none',
    parts: [],
    indexName: null,
    ddl: [],
    existingIndex: null,
    covering: false,
    sortFromIndex: false,
    keyBytes: null,
    notes,
  };
  const functional = server.capabilities.functionalIndexes;
  const predicates = (access.predicates.get(index) ?? []).filter((predicate) => {
    if (!predicate.expression) return true;
    if (!functional) {
      notes.push(
        `${predicate.expression} wraps a column: ${server.flavor === 'mariadb' ? 'MariaDB' : 'this server'} has no functional key parts, so it stays out of the key (see the function-wrapped advice for an indexed generated column or a rewrite).`,
      );
      return false;
    }
    const upper = predicate.expression.toUpperCase();
    if ([...NONDETERMINISTIC_FUNCTIONS].some((name) => upper.includes(`${name}(`))) return false;
    return (
      checkFunctionalKeyParts({ kind: 'index', parts: [{ expression: predicate.expression }] }, server.flavor)
        .length === 0
    );
  });
  const columnOf = (name: string) => findColumn(info, name);
  const usable = (predicate: ColumnPredicate): boolean => {
    if (predicate.expression) return true;
    const column = columnOf(predicate.column);
    if (!column) return false;
    if (unindexable(column)) {
      notes.push(`${column.name} is ${column.dataType.toUpperCase()}: it cannot be a B-tree key part.`);
      return false;
    }
    return true;
  };
  const keyOf = (predicate: ColumnPredicate) =>
    predicate.expression ? `e:${canonical(predicate.expression)}` : `c:${predicate.column.toLowerCase()}`;

  // 1. Equalities: constants and join columns to the tables placed before this one.
  const equalities = new Map<string, Candidate>();
  for (const predicate of predicates)
    if (predicate.kind === 'equality' && usable(predicate) && !equalities.has(keyOf(predicate)))
      equalities.set(keyOf(predicate), { part: partFor(predicate, 'equality'), predicate });
  const joinColumns: string[] = [];
  for (const join of access.joins) {
    const mine = join.left.table === index ? join.left : join.right.table === index ? join.right : null;
    const other = mine === join.left ? join.right : join.left;
    if (!mine || !placed.includes(other.table)) continue;
    const column = columnOf(mine.column);
    if (!column || unindexable(column)) continue;
    joinColumns.push(column.name);
    if (!equalities.has(`c:${column.name.toLowerCase()}`))
      equalities.set(`c:${column.name.toLowerCase()}`, { part: { column: column.name, role: 'join' } });
  }
  const inLists = new Map<string, Candidate>();
  for (const predicate of predicates)
    if (
      predicate.kind === 'in' &&
      usable(predicate) &&
      !equalities.has(keyOf(predicate)) &&
      !inLists.has(keyOf(predicate))
    )
      inLists.set(keyOf(predicate), { part: partFor(predicate, 'in'), predicate });
  const ranges = predicates.filter(
    (predicate) =>
      predicate.kind === 'range' &&
      usable(predicate) &&
      !equalities.has(keyOf(predicate)) &&
      !inLists.has(keyOf(predicate)),
  );

  // Join columns first (the lookup every row of the outer tables makes; reusable by other joins), then constants.
  const orderEqualities = orderBySelectivity(
    [...equalities.values()].sort((a, b) => Number(b.part.role === 'join') - Number(a.part.role === 'join')),
    info,
    options,
  );
  const orderedEq = alignWithExisting(orderEqualities, info);
  const orderedIn = orderBySelectivity([...inLists.values()], info, options);
  const seekKeys = new Set([...equalities.keys(), ...inLists.keys()]);

  // 3. Sort / group columns (driving or single table only), or one range.
  const descOk = descendingKeyParts(server);
  let sortParts: DesignedPart[] | null = null;
  let sortWhat = '';
  let sortPossible = false;
  if (role !== 'inner') {
    const group = access.groupBy && access.groupBy[0]?.table === index ? access.groupBy : null;
    const orderBy = access.orderBy && access.orderBy[0]?.table === index ? access.orderBy : null;
    let items: SortItem[] | null = null;
    if (group && !access.groupByOther) {
      const sameSet =
        orderBy &&
        orderBy.length === group.length &&
        orderBy.every((item) => group.some((g) => g.column.toLowerCase() === item.column.toLowerCase()));
      items = sameSet ? orderBy : group;
      sortWhat = 'GROUP BY';
    } else if (!access.groupBy && !access.groupByOther && orderBy && !access.orderByOther) {
      items = orderBy;
      sortWhat = 'ORDER BY';
    }
    if (items) {
      const remaining = items.filter((item) => !equalities.has(`c:${item.column.toLowerCase()}`));
      const mixed = new Set(remaining.map((item) => item.desc)).size > 1;
      const usableColumns = remaining.every((item) => {
        const column = columnOf(item.column);
        return column && !unindexable(column) && !needsPrefix(column);
      });
      if (mixed && !descOk)
        notes.push(
          `${sortWhat} mixes ASC and DESC: this server has no descending key parts, so the sort cannot come from an index.`,
        );
      else if (!usableColumns)
        notes.push(`${sortWhat} is on a TEXT/BLOB/JSON column: no index can give its order.`);
      else {
        sortPossible = true;
        const role: PartRole = sortWhat === 'GROUP BY' ? 'group' : 'sort';
        sortParts = remaining.map((item) => ({
          column: columnOf(item.column)!.name,
          role,
          ...(mixed && item.desc ? { desc: true } : {}),
        }));
      }
    }
  }
  const range = pickRange(ranges, info, options);
  let tail: DesignedPart[] = [];
  let sortFromIndex = false;
  if (sortParts && orderedIn.length > 0) {
    notes.push(
      `The IN list on ${orderedIn.map((candidate) => label(candidate.part)).join(', ')} returns rows per value, so the ${sortWhat} still sorts; the index seeks every listed value instead.`,
    );
    sortParts = null;
    sortPossible = false;
  }
  if (sortParts && range && sortParts.length > 0 && sameKey(sortParts[0]!, range)) {
    tail = sortParts.map((part, i) => (i === 0 ? { ...part, role: 'range' as PartRole } : part));
    sortFromIndex = true;
    notes.push(
      `${label(range.part)} is both the range and the first ${sortWhat} column: one index part serves both.`,
    );
  } else if (sortParts && range && access.limit) {
    tail = [...sortParts, { ...range.part }];
    sortFromIndex = true;
    notes.push(
      `${sortWhat} … LIMIT: the ${sortWhat} columns follow the equalities so rows come in index order and the scan stops after LIMIT rows; the range on ${label(range.part)} is checked inside the index.`,
    );
  } else if (range) {
    tail = [range.part];
    if (sortParts && sortParts.length > 0)
      notes.push(
        `The range on ${label(range.part)} narrows the rows read; without a LIMIT that beats reading in ${sortWhat} order, so the ${sortWhat} sorts the (fewer) matching rows.`,
      );
  } else if (sortParts) {
    tail = sortParts;
    sortFromIndex = true;
  } else if (sortPossible) sortFromIndex = true;
  if (sortParts && sortParts.length === 0) sortFromIndex = true;

  let parts: DesignedPart[] = [...orderedEq.map((c) => c.part), ...orderedIn.map((c) => c.part), ...tail];
  for (const part of parts) if (part.column) seekKeys.add(`c:${part.column.toLowerCase()}`);

  // Drop trailing primary-key columns: InnoDB already appends the primary key (in its order).
  const primary = info.indexes.find((candidate) => candidate.primary);
  const primaryColumns = (primary?.parts ?? []).map((part) => (part.column ?? '').toLowerCase());
  let droppedPrimary = false;
  for (let start = 0; start < parts.length && primary; start++) {
    const trailing = parts.slice(start);
    if (trailing.some((part) => !part.column || part.desc || ['equality', 'join', 'in'].includes(part.role)))
      continue;
    const head = new Set(parts.slice(0, start).map((part) => part.column?.toLowerCase()));
    const appended = primaryColumns.filter((name) => !head.has(name));
    if (trailing.every((part, i) => part.column!.toLowerCase() === appended[i])) {
      notes.push(
        `${trailing.map((part) => part.column).join(', ')} ${trailing.length === 1 ? 'is' : 'are'} the primary key, which InnoDB already appends to every secondary index: left out.`,
      );
      parts = parts.slice(0, start);
      droppedPrimary = true;
      break;
    }
  }
  if (parts.length === 0) {
    if (primary && (droppedPrimary || (sortFromIndex && tail.length === 0 && equalities.size > 0))) {
      plan.verdict = 'served';
      plan.existingIndex = primary.name;
      plan.sortFromIndex = sortFromIndex;
      notes.push(`The primary key ${primary.name} already serves this access.`);
    } else if (predicates.length === 0 && joinColumns.length === 0)
      notes.push('Nothing in the query can seek an index on this table.');
    return plan;
  }

  // A unique index whose every column is fixed by equalities: at most one row, nothing to add.
  const unique = info.indexes.find(
    (candidate) =>
      candidate.unique &&
      candidate.visible &&
      candidate.kind === 'btree' &&
      candidate.parts.length > 0 &&
      candidate.parts.every(
        (part) => part.column && !part.prefixLength && equalities.has(`c:${part.column.toLowerCase()}`),
      ),
  );
  if (unique) {
    plan.verdict = 'served';
    plan.existingIndex = unique.name;
    plan.parts = unique.parts.map((part) => ({ column: part.column!, role: 'equality' }));
    notes.push(
      `${unique.primary ? 'The primary key' : `Unique index ${unique.name}`} is fixed by the query's equalities: at most one row is read${role === 'inner' ? ' per row of the tables before it' : ''}.`,
    );
    return plan;
  }

  // 4. Covering columns.
  const referenced = [...(access.referenced.get(index) ?? [])];
  const maxCover = options.maxCoverColumns ?? 3;
  if (
    access.kind === 'select' &&
    !access.star.has(index) &&
    !access.subqueries &&
    !parts.some((part) => part.prefixLength)
  ) {
    const inKey = new Set(parts.filter((part) => part.column).map((part) => part.column!.toLowerCase()));
    const missing = referenced.filter(
      (name) => !inKey.has(name.toLowerCase()) && !primaryColumns.includes(name.toLowerCase()),
    );
    const columns = missing.map((name) => columnOf(name));
    const coverable = columns.every((column) => column && !unindexable(column) && !needsPrefix(column));
    if (missing.length === 0) plan.covering = !parts.some((part) => part.expression);
    else if (
      coverable &&
      missing.length <= maxCover &&
      parts.length + missing.length <= Math.min(MAX_KEY_PARTS, 6)
    ) {
      parts.push(...columns.map((column) => ({ column: column!.name, role: 'cover' as PartRole })));
      plan.covering = true;
      notes.push(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} appended so the index covers the query (no row lookups); ${missing.length === 1 ? 'it is' : 'they are'} not used to seek.`,
      );
    } else if (missing.length > 0)
      notes.push(
        `Not covering: the query reads ${missing.length} more column${missing.length === 1 ? '' : 's'} of ${info.name}${coverable ? '' : ' (some are TEXT/BLOB/JSON)'}.`,
      );
  }

  // Limits: prefixes for TEXT/BLOB, 3072 bytes, 16 parts.
  parts = applyLimits(parts, info, notes);
  plan.parts = parts;
  plan.sortFromIndex = sortFromIndex;
  plan.keyBytes = keyBytesOf(parts, info);
  if (plan.covering)
    plan.covering = referenced.every(
      (name) =>
        primaryColumns.includes(name.toLowerCase()) ||
        parts.some((part) => !part.prefixLength && part.column?.toLowerCase() === name.toLowerCase()),
    );
  // Reading a whole table in index order only to skip a sort pays off with a LIMIT or a covering index.
  if (
    orderedEq.length + orderedIn.length === 0 &&
    !range &&
    !access.limit &&
    !plan.covering &&
    role !== 'inner'
  ) {
    notes.push(
      `Only ${sortWhat || 'the sort'} would use this index and the query reads every row without a LIMIT: a scan and a sort are cheaper than ${info.name}'s rows in index order, so no index is proposed.`,
    );
    plan.parts = [];
    plan.verdict = 'none';
    return plan;
  }

  // Why this order.
  const eqNames = orderedEq.map((candidate) => label(candidate.part));
  if (eqNames.length > 0)
    notes.unshift(
      `${eqNames.join(', ')} first: ${role === 'inner' && joinColumns.length > 0 ? `${joinColumns.join(', ')} ${joinColumns.length === 1 ? 'is' : 'are'} looked up for every row of the tables read before ${info.name}; ` : ''}equality columns seek a single key prefix${options.distinct && eqNames.length > 1 ? ' (most selective first)' : ''}.`,
    );
  if (role === 'inner' && joinColumns.length === 0)
    notes.push(
      `${info.name} has no join equality with the tables before it: it is read as a whole for each of their rows unless its own filters seek.`,
    );

  // Existing indexes: served, extend, or create.
  const seekParts = parts.filter((part) => part.role !== 'cover');
  const serving = info.indexes.find((existing) =>
    serves(existing, seekParts, equalities.size + inLists.size),
  );
  if (serving) {
    plan.verdict = 'served';
    plan.existingIndex = serving.name;
    notes.push(
      `Existing index ${serving.name} already seeks${sortFromIndex && tail.length > 0 ? ' and sorts' : ''} this way: no new index.`,
    );
    return plan;
  }
  const extendable = info.indexes.find(
    (existing) =>
      !existing.unique &&
      !existing.primary &&
      existing.visible &&
      existing.kind === 'btree' &&
      existing.parts.length < parts.length &&
      existing.parts.every((part, i) => samePart(part, parts[i])),
  );
  const taken = info.indexes.map((existing) => existing.name);
  const keySql = partsSql(parts);
  if (extendable) {
    plan.verdict = 'extend';
    plan.existingIndex = extendable.name;
    plan.indexName = extendable.name;
    plan.ddl = [
      `ALTER TABLE ${quoteIdentifier(info.name)} DROP INDEX ${quoteIdentifier(extendable.name)}, ADD INDEX ${quoteIdentifier(extendable.name)} (${keySql}), ALGORITHM=INPLACE, LOCK=NONE;`,
    ];
    notes.push(
      `Extends ${extendable.name} (${extendable.parts.map((part) => part.column ?? part.expression).join(', ')}), a left prefix of this index: one index instead of two, and every query ${extendable.name} served still uses it.`,
    );
    return plan;
  }
  const nameParts = parts.map((part) => part.column ?? 'expr');
  plan.verdict = 'create';
  plan.indexName = uniqueName(`idx_${info.name}_${nameParts.join('_')}`, taken);
  plan.ddl = [
    `ALTER TABLE ${quoteIdentifier(info.name)} ADD INDEX ${quoteIdentifier(plan.indexName)} (${keySql});`,
  ];
  const redundant = info.indexes.filter(
    (existing) =>
      !existing.unique &&
      !existing.primary &&
      existing.parts.length > 0 &&
      existing.parts.every((part, i) => samePart(part, parts[i])),
  );
  if (redundant.length > 0)
    notes.push(
      `Existing index ${redundant.map((existing) => existing.name).join(', ')} becomes a left prefix of this one and can be dropped.`,
    );
  return plan;
}

function partFor(predicate: ColumnPredicate, role: PartRole): DesignedPart {
  return predicate.expression
    ? { expression: predicate.expression, role }
    : { column: predicate.column, role };
}

function label(part: DesignedPart): string {
  return part.column ?? `(${part.expression ?? ''})`;
}

function sameKey(part: DesignedPart, candidate: Candidate): boolean {
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

function canonical(text: string): string {
  return text.replace(/[`\s]/g, '').toLowerCase();
}

function orderBySelectivity(candidates: Candidate[], info: TableInfo, options: DesignOptions): Candidate[] {
  if (!options.distinct) return candidates;
  const distinct = (candidate: Candidate) =>
    candidate.part.column ? (options.distinct?.(info.name, candidate.part.column) ?? 0) : 0;
  return [...candidates].sort((a, b) => distinct(b) - distinct(a));
}

/** Put first the equality columns an existing index starts with, in its order (so it can be extended or reused). */
function alignWithExisting(candidates: Candidate[], info: TableInfo): Candidate[] {
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

function pickRange(
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

function samePart(existing: IndexInfo['parts'][number], part: DesignedPart | undefined): boolean {
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
function serves(existing: IndexInfo, seek: DesignedPart[], unordered: number): boolean {
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

function applyLimits(parts: DesignedPart[], info: TableInfo, notes: string[]): DesignedPart[] {
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

function keyBytesOf(parts: DesignedPart[], info: TableInfo): number | null {
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
 * The statement a what-if run builds for a designed index. An extension (`DROP INDEX i, ADD INDEX i (…)`)
 * is tried as a new index next to the old one (`i_whatif`), so a what-if never drops anything; every
 * other statement is returned unchanged.
 */
export function whatIfDdl(ddl: string): string {
  const match =
    /^\s*ALTER\s+TABLE\s+(`(?:[^`]|``)+`|\S+)\s+DROP\s+INDEX\s+(?:`(?:[^`]|``)+`|\S+)\s*,\s*ADD\s+INDEX\s+(`(?:[^`]|``)+`|[^\s(]+)\s*\(([\s\S]*)\)\s*,\s*ALGORITHM\s*=\s*INPLACE\s*,\s*LOCK\s*=\s*NONE\s*;?\s*$/i.exec(
      ddl,
    );
  if (!match) return ddl;
  const name = (match[2] ?? '').replace(/^`|`$/g, '').replace(/``/g, '`');
  return `ALTER TABLE ${match[1]} ADD INDEX ${quoteIdentifier(`${name.slice(0, 57)}_whatif`)} (${match[3]});`;
}
