// Index design for a workload: the smallest set of indexes that serves a weighted list of statements.
//
// Design note: every statement is designed on its own first (design.ts); each table plan that needs a
// new index becomes a "need": its seek parts (equalities/IN as an unordered head, then the range or sort
// columns in order) and its covering columns. Candidates are the needs' own indexes plus merges that put a
// smaller need's equality columns first, so one index `(a, b, c)` serves the needs `(a)` and `(a, b)`.
// Selection is greedy by benefit per byte (Kossmann et al., VLDB 2020: the "Extend"/DB2Advis family):
// a candidate's benefit is the weight (frequency × cost, from the capture) of the statements it newly
// serves, minus a write cost — each index on a table costs every INSERT/UPDATE/DELETE on it, modelled as
// `writeFactor` × the table's write weight in the same input. Selection stops at the budget (index count,
// key bytes) or when no candidate gains more than it costs. A chosen index that became a left prefix of
// another chosen one is dropped; one whose parts start with an existing index extends it instead.

import { findColumn, findTable, type IndexInfo, type SchemaModel, type TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { splitStatements } from '../sql/split.js';
import { quoteIdentifier, uniqueName } from '../advice/index-ddl.js';
import { designQueryIndexes, partsSql, type DesignedPart, type DesignOptions } from './design.js';
import { redundantIndexes, type RedundantIndex } from './hygiene.js';
import { generatedColumnsToAdd, withAddedColumns } from './generated-columns.js';
import { keyPartBytes, MAX_KEY_PARTS } from './key-length.js';

/** One statement of the workload with its weight (frequency × cost from the capture; 1 when unknown). */
export interface WorkloadStatement {
  sql: string;
  weight?: number;
  /** Where it came from (digest checksum, file line …), echoed in the result. */
  label?: string;
}

export interface WorkloadOptions {
  /** At most this many new or extended indexes (default: no limit). */
  maxIndexes?: number;
  /** At most this many key bytes over all chosen indexes (default: no limit). */
  maxKeyBytes?: number;
  /** Share of a table's write weight each index on it costs (default 0.1). */
  writeFactor?: number;
  /** Distinct values of a column from the server's statistics: equality columns are ordered by it. */
  distinct?: DesignOptions['distinct'];
}

export interface WorkloadIndex {
  table: string;
  name: string;
  parts: DesignedPart[];
  verdict: 'create' | 'extend';
  /** The index it replaces (extend). */
  existingIndex: string | null;
  /** Runnable statements. */
  ddl: string[];
  keyBytes: number | null;
  /** Statements (by `index` in `queries`) that will use it. */
  serves: number[];
  /** Weight of the statements it serves. */
  readBenefit: number;
  /** Modelled cost on the table's writes. */
  writeCost: number;
  /** readBenefit − writeCost: the set is ordered by it (estimated time saved). */
  netBenefit: number;
  notes: string[];
  /** Filled by what-if (`sargable indexes --verify`): EXPLAIN of the heaviest statement it serves, before/after. */
  verification?: WorkloadVerification;
  /** Set when what-if shows the optimizer does not pick it: why. */
  rejected?: string;
}

export interface WorkloadVerification {
  /** `queries[].index` of the statement explained. */
  statement: number;
  method?: 'invisible-index' | 'sandbox';
  verdict?: 'improved' | 'unchanged' | 'worse';
  keyBefore?: string | null;
  keyAfter?: string | null;
  rowsBefore?: number | null;
  rowsAfter?: number | null;
  usesIndex?: boolean;
  error?: string;
}

export interface WorkloadQuery {
  index: number;
  sql: string;
  weight: number;
  label?: string;
  kind: string;
  /** Per table of the statement: the index it will use (new, extended or existing) or null. */
  tables: { table: string; uses: string | null; via: 'new' | 'existing' | 'none'; reason?: string }[];
  /** Why the statement was not designed (parse error, unknown table …). */
  error?: string;
  /** The statement naming the generated columns its indexes key on (no functional key parts on the target). */
  rewrittenSql?: string;
  /** The server uses those indexes only for `rewrittenSql` (MariaDB does not substitute): the query must change. */
  queryMustChange?: boolean;
}

export interface WorkloadTable {
  table: string;
  readWeight: number;
  writeWeight: number;
  /** Writes outweigh the reads that need new indexes: every index is weighed against them. */
  writeHeavy: boolean;
}

export interface WorkloadPlan {
  indexes: WorkloadIndex[];
  queries: WorkloadQuery[];
  tables: WorkloadTable[];
  notes: string[];
  /** Existing indexes of the workload's tables that another index makes redundant (hygiene.ts). */
  redundant: RedundantIndex[];
}

interface Need {
  query: number;
  table: string;
  weight: number;
  /** Equality/join/IN parts: any order. */
  head: DesignedPart[];
  /** Range or sort parts, in order. */
  tail: DesignedPart[];
  cover: DesignedPart[];
  keyBytes: number | null;
  parts: DesignedPart[];
}

interface Candidate {
  table: string;
  parts: DesignedPart[];
  keyBytes: number | null;
}

const HEAD_ROLES = new Set(['equality', 'join', 'in']);

/** Design one index set for the workload. Never throws. */
export function designWorkloadIndexes(
  statements: readonly WorkloadStatement[],
  schema: SchemaModel,
  server: ServerInfo,
  options: WorkloadOptions = {},
): WorkloadPlan {
  const writeFactor = options.writeFactor ?? 0.1;
  const queries: WorkloadQuery[] = [];
  const needs: Need[] = [];
  // One generated column per expression and table over the whole workload (generated-columns.ts).
  const generatedNames = new Map<string, string>();
  const tableStats = new Map<string, WorkloadTable>();
  // INSERT/DELETE touch every index of the table; an UPDATE only the indexes holding a column it sets.
  const writes: { table: string; weight: number; columns: Set<string> | null }[] = [];
  const writeCostOf = (table: string, parts: readonly DesignedPart[]): number =>
    writeFactor *
    writes
      .filter((write) => write.table === table.toLowerCase())
      .filter(
        (write) =>
          write.columns === null ||
          parts.some((part) =>
            part.column
              ? write.columns!.has(part.column.toLowerCase())
              : [...write.columns!].some((column) => (part.expression ?? '').toLowerCase().includes(column)),
          ),
      )
      .reduce((sum, write) => sum + write.weight, 0);
  const statsOf = (table: string): WorkloadTable => {
    const key = table.toLowerCase();
    let stats = tableStats.get(key);
    if (!stats) tableStats.set(key, (stats = { table, readWeight: 0, writeWeight: 0, writeHeavy: false }));
    return stats;
  };

  statements.forEach((statement, index) => {
    const weight = statement.weight !== undefined && statement.weight > 0 ? statement.weight : 1;
    const query: WorkloadQuery = {
      index,
      sql: statement.sql,
      weight,
      ...(statement.label === undefined ? {} : { label: statement.label }),
      kind: 'other',
      tables: [],
    };
    queries.push(query);
    const parsed = parseStatement(statement.sql, server.flavor);
    if (!parsed.ok) {
      query.error = parsed.message;
      return;
    }
    const ast = parsed.ast;
    query.kind = String(ast.type ?? 'other').toLowerCase();
    for (const written of writtenTables(ast, schema, server.database)) {
      statsOf(written.table).writeWeight += weight;
      writes.push({ table: written.table.toLowerCase(), weight, columns: written.columns });
    }
    const plan = designQueryIndexes(ast, statement.sql, schema, server, {
      generatedNames,
      ...(options.distinct ? { distinct: options.distinct } : {}),
    });
    if (!plan) {
      if (['select', 'update', 'delete'].includes(query.kind))
        query.error =
          'Not designed: a table is unknown to the schema, or the statement has no plain query block.';
      return;
    }
    if (plan.rewrittenSql) {
      query.rewrittenSql = plan.rewrittenSql;
      query.queryMustChange = plan.queryMustChange ?? false;
    }
    for (const table of plan.tables) {
      statsOf(table.table);
      if (table.verdict === 'served') {
        query.tables.push({ table: table.table, uses: table.existingIndex, via: 'existing' });
        continue;
      }
      if (table.verdict === 'none') {
        query.tables.push({
          table: table.table,
          uses: null,
          via: 'none',
          reason: table.notes.at(-1) ?? 'no index can serve it',
        });
        continue;
      }
      statsOf(table.table).readWeight += weight;
      query.tables.push({ table: table.table, uses: null, via: 'none' });
      needs.push({
        query: index,
        table: table.table,
        weight,
        head: table.parts.filter((part) => HEAD_ROLES.has(part.role)),
        tail: table.parts.filter((part) => !HEAD_ROLES.has(part.role) && part.role !== 'cover'),
        cover: table.parts.filter((part) => part.role === 'cover'),
        keyBytes: table.keyBytes,
        parts: table.parts,
      });
    }
  });

  // Candidates: every need's own index, and merges that lead with a smaller need's equality columns.
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const add = (candidate: Candidate) => {
    const key = `${candidate.table.toLowerCase()}:${candidate.parts.map(partKey).join(',')}`;
    if (seen.has(key) || candidate.parts.length === 0 || candidate.parts.length > MAX_KEY_PARTS) return;
    seen.add(key);
    candidates.push(candidate);
  };
  for (const need of needs) add({ table: need.table, parts: need.parts, keyBytes: need.keyBytes });
  for (const big of needs)
    for (const small of needs) {
      if (big === small || big.table.toLowerCase() !== small.table.toLowerCase()) continue;
      const smallHead = small.head.filter((part) => part.role !== 'in');
      if (smallHead.length === 0 || smallHead.length >= big.head.length) continue;
      if (!smallHead.every((part) => big.head.some((other) => samePart(other, part)))) continue;
      const rest = big.head.filter((part) => !smallHead.some((other) => samePart(other, part)));
      const restOrdered = [
        ...rest.filter((part) => part.role !== 'in'),
        ...rest.filter((part) => part.role === 'in'),
      ];
      const seek = [...smallHead, ...restOrdered, ...big.tail];
      const covers = [...big.cover];
      if (seek.length + covers.length <= 6)
        for (const part of small.cover)
          if (![...seek, ...covers].some((other) => samePart(other, part)) && seek.length + covers.length < 6)
            covers.push(part);
      add({ table: big.table, parts: [...seek, ...covers], keyBytes: sumBytes(big, small) });
    }

  // Size of a candidate in key bytes (+8 per entry for the row pointer); extending an existing index only
  // adds the bytes beyond its parts, since the extended index replaces it.
  const sizeOf = (candidate: Candidate): number => {
    const bytes = candidate.keyBytes ?? 32;
    const info = findTable(schema, candidate.table, server.database);
    const prefix = info?.indexes.find(
      (index) =>
        !index.unique &&
        !index.primary &&
        index.visible &&
        index.kind === 'btree' &&
        index.parts.length < candidate.parts.length &&
        !(server.flavor !== 'mariadb' && index.parts.some((part) => part.expression)) &&
        index.parts.every((part, i) => existingMatches(part, candidate.parts[i])),
    );
    if (!prefix || !info) return bytes + 8;
    const prefixBytes = keyBytesOfParts(candidate.parts.slice(0, prefix.parts.length), info);
    return Math.max(4, bytes - (prefixBytes ?? 0)) + 8;
  };

  // Greedy by benefit per byte.
  const served = new Map<Need, Candidate>();
  const chosen: Candidate[] = [];
  let bytes = 0;
  const maxIndexes = options.maxIndexes ?? Number.POSITIVE_INFINITY;
  const maxBytes = options.maxKeyBytes ?? Number.POSITIVE_INFINITY;
  const rejectedBy = new Map<Need, string>();
  for (;;) {
    if (chosen.length >= maxIndexes) break;
    let best: { candidate: Candidate; gain: number; score: number; newly: Need[] } | undefined;
    for (const candidate of candidates) {
      if (chosen.includes(candidate)) continue;
      const newly = needs.filter(
        (need) =>
          !served.has(need) &&
          need.table.toLowerCase() === candidate.table.toLowerCase() &&
          candidateServes(candidate.parts, need),
      );
      if (newly.length === 0) continue;
      // MySQL: two functional key parts over one expression on a table break the first (key-parts.ts).
      const shared = server.capabilities.functionalIndexes
        ? candidate.parts.find(
            (part) =>
              part.expression &&
              chosen.some(
                (other) =>
                  other.table.toLowerCase() === candidate.table.toLowerCase() &&
                  other.parts.some((mine) => mine.expression && samePart(mine, part)),
              ),
          )
        : undefined;
      if (shared) {
        for (const need of newly)
          if (!rejectedBy.has(need))
            rejectedBy.set(
              need,
              `another chosen index on ${candidate.table} already keys on (${shared.expression}); a second functional key part over it would leave that one unusable for the expression alone`,
            );
        continue;
      }
      const benefit = newly.reduce((sum, need) => sum + need.weight, 0);
      const cost = writeCostOf(candidate.table, candidate.parts);
      const gain = benefit - cost;
      const size = sizeOf(candidate);
      if (gain <= 0) {
        for (const need of newly)
          if (!rejectedBy.has(need))
            rejectedBy.set(need, 'its benefit does not outweigh the write cost on the table');
        continue;
      }
      if (bytes + (candidate.keyBytes ?? 32) > maxBytes) {
        for (const need of newly) rejectedBy.set(need, 'over the key-bytes budget');
        continue;
      }
      const score = gain / size;
      if (!best || score > best.score || (score === best.score && newly.length > best.newly.length))
        best = { candidate, gain, score, newly };
    }
    if (!best) break;
    chosen.push(best.candidate);
    bytes += best.candidate.keyBytes ?? 32;
    for (const need of best.newly) served.set(need, best.candidate);
  }
  if (chosen.length >= maxIndexes)
    for (const need of needs)
      if (!served.has(need) && !rejectedBy.has(need)) rejectedBy.set(need, 'over the index-count budget');

  // A chosen index that is a left prefix of another chosen one is redundant: the longer one serves its needs.
  for (const shorter of [...chosen]) {
    const longer = chosen.find(
      (other) =>
        other !== shorter &&
        other.table.toLowerCase() === shorter.table.toLowerCase() &&
        other.parts.length > shorter.parts.length &&
        shorter.parts.every((part, i) => samePart(part, other.parts[i])),
    );
    if (!longer) continue;
    chosen.splice(chosen.indexOf(shorter), 1);
    for (const [need, candidate] of served) if (candidate === shorter) served.set(need, longer);
  }

  // Names and DDL: extend an existing index that is a left prefix, else create.
  const indexes: WorkloadIndex[] = [];
  const extended = new Set<IndexInfo>();
  const takenByTable = new Map<string, string[]>();
  for (const candidate of chosen) {
    const info = findTable(schema, candidate.table, server.database);
    const existing = info?.indexes ?? [];
    const taken = takenByTable.get(candidate.table.toLowerCase()) ?? existing.map((index) => index.name);
    takenByTable.set(candidate.table.toLowerCase(), taken);
    const prefix = existing.find(
      (index) =>
        !extended.has(index) &&
        !index.unique &&
        !index.primary &&
        index.visible &&
        index.kind === 'btree' &&
        index.parts.length < candidate.parts.length &&
        !(server.flavor !== 'mariadb' && index.parts.some((part) => part.expression)) &&
        index.parts.every((part, i) => existingMatches(part, candidate.parts[i])),
    );
    const tableName = quoteIdentifier(info?.name ?? candidate.table);
    const keySql = partsSql(candidate.parts);
    const mine = needs.filter((need) => served.get(need) === candidate);
    const readBenefit = mine.reduce((sum, need) => sum + need.weight, 0);
    const writeCost = writeCostOf(candidate.table, candidate.parts);
    let entry: WorkloadIndex;
    if (prefix) {
      extended.add(prefix);
      entry = {
        table: info?.name ?? candidate.table,
        name: prefix.name,
        parts: candidate.parts,
        verdict: 'extend',
        existingIndex: prefix.name,
        ddl: [
          `ALTER TABLE ${tableName} DROP INDEX ${quoteIdentifier(prefix.name)}, ADD INDEX ${quoteIdentifier(prefix.name)} (${keySql}), ALGORITHM=INPLACE, LOCK=NONE;`,
        ],
        keyBytes: candidate.keyBytes,
        serves: [],
        readBenefit,
        writeCost,
        netBenefit: readBenefit - writeCost,
        notes: [`Extends ${prefix.name}, a left prefix of it: the statements it served still use it.`],
      };
    } else {
      const name = uniqueName(
        `idx_${info?.name ?? candidate.table}_${candidate.parts.map((part) => part.column ?? 'expr').join('_')}`,
        taken,
      );
      taken.push(name);
      entry = {
        table: info?.name ?? candidate.table,
        name,
        parts: candidate.parts,
        verdict: 'create',
        existingIndex: null,
        ddl: [`ALTER TABLE ${tableName} ADD INDEX ${quoteIdentifier(name)} (${keySql});`],
        keyBytes: candidate.keyBytes,
        serves: [],
        readBenefit,
        writeCost,
        netBenefit: readBenefit - writeCost,
        notes: [],
      };
    }
    entry.serves = [...new Set(mine.map((need) => need.query))].sort((a, b) => a - b);
    if (mine.length > 1)
      entry.notes.push(`One index for ${entry.serves.length} statements: each needs a left part of it.`);
    indexes.push(entry);
    for (const need of mine) {
      const slot = queries[need.query]?.tables.find(
        (table) => table.table.toLowerCase() === need.table.toLowerCase() && table.uses === null,
      );
      if (slot) {
        slot.uses = entry.name;
        slot.via = 'new';
      }
    }
  }
  for (const need of needs) {
    if (served.has(need)) continue;
    const slot = queries[need.query]?.tables.find(
      (table) =>
        table.table.toLowerCase() === need.table.toLowerCase() && table.uses === null && !table.reason,
    );
    if (slot) slot.reason = rejectedBy.get(need) ?? 'not chosen';
  }
  indexes.sort((a, b) => b.netBenefit - a.netBenefit);
  // Generated columns the indexes key on: the first index of the set (in its order) that needs one adds it.
  const addedBy = new Map<string, string>();
  for (const entry of indexes) {
    const columns = generatedColumnsToAdd(entry.table, entry.parts, addedBy, entry.name);
    if (columns.length > 0) {
      entry.ddl = entry.ddl.map((statement) => withAddedColumns(statement, columns));
      entry.notes.push(
        `Adds the VIRTUAL generated column${columns.length === 1 ? '' : 's'} ${columns.map((use) => `${use.name} = ${use.expression}`).join(', ')} in the same ALTER (LOCK=NONE is refused for it: writes wait while the index builds).`,
      );
    }
    const borrowed = entry.parts.filter(
      (part) =>
        part.generated &&
        addedBy.get(`${entry.table.toLowerCase()}|${part.column!.toLowerCase()}`) !== entry.name,
    );
    if (borrowed.length > 0)
      entry.notes.push(
        `Keys on ${borrowed.map((part) => part.column).join(', ')}, added by the ALTER of ${[...new Set(borrowed.map((part) => addedBy.get(`${entry.table.toLowerCase()}|${part.column!.toLowerCase()}`)))].join(', ')}: run that one first.`,
      );
  }

  const tables = [...tableStats.values()].map((stats) => ({
    ...stats,
    writeHeavy: stats.writeWeight > stats.readWeight && stats.writeWeight > 0,
  }));
  const notes: string[] = [];
  for (const table of tables)
    if (table.writeHeavy)
      notes.push(
        `${table.table} is write-heavy in this workload (write weight ${round(table.writeWeight)} against read weight ${round(table.readWeight)} of statements needing an index): every index on it slows its writes.`,
      );
  const redundant = redundantIndexes(
    schema,
    server,
    tables.map((table) => table.table),
  ).filter(
    (entry) => !indexes.some((index) => index.table === entry.table && index.existingIndex === entry.index),
  );
  return { indexes, queries, tables, notes, redundant };
}

function keyBytesOfParts(parts: readonly DesignedPart[], info: TableInfo): number | null {
  let total = 0;
  for (const part of parts) {
    const column = part.column ? findColumn(info, part.column) : undefined;
    const bytes = column ? keyPartBytes(column, info, part.prefixLength) : undefined;
    if (bytes === undefined) return null;
    total += bytes;
  }
  return total;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function sumBytes(a: Need, b: Need): number | null {
  return a.keyBytes === null || b.keyBytes === null ? null : Math.max(a.keyBytes, b.keyBytes);
}

/** Tables an INSERT/REPLACE/UPDATE/DELETE writes, with the columns an UPDATE sets (null: every index). */
function writtenTables(
  ast: Record<string, unknown>,
  schema: SchemaModel,
  database: string | null,
): { table: string; columns: Set<string> | null }[] {
  const type = String(ast.type ?? '').toLowerCase();
  if (!['insert', 'replace', 'update', 'delete'].includes(type)) return [];
  const list = (type === 'delete' ? (ast.table ?? ast.from) : ast.table) as unknown;
  let updated: Set<string> | null = null;
  if (type === 'update' && Array.isArray(ast.set))
    updated = new Set(
      ast.set.flatMap((item) =>
        isNode(item) && typeof item.column === 'string' ? [item.column.toLowerCase()] : [],
      ),
    );
  const written: { table: string; columns: Set<string> | null }[] = [];
  for (const item of Array.isArray(list) ? list : [list]) {
    if (!isNode(item) || typeof item.table !== 'string') continue;
    const info = findTable(schema, item.table, typeof item.db === 'string' ? item.db : database);
    written.push({ table: info?.name ?? item.table, columns: updated });
    if (type !== 'update') break;
  }
  return written;
}

function partKey(part: DesignedPart): string {
  return `${part.column ? `c:${part.column.toLowerCase()}` : `e:${(part.expression ?? '').replace(/[`\s]/g, '').toLowerCase()}`}${part.prefixLength ? `(${part.prefixLength})` : ''}${part.desc ? ' desc' : ''}`;
}

function samePart(a: DesignedPart | undefined, b: DesignedPart | undefined): boolean {
  return Boolean(a && b && partKey(a) === partKey(b));
}

function existingMatches(existing: IndexInfo['parts'][number], part: DesignedPart | undefined): boolean {
  if (!part || part.desc) return false;
  if (existing.expression)
    return Boolean(
      part.expression &&
      existing.expression.replace(/[`\s()]/g, '').toLowerCase() ===
        part.expression.replace(/[`\s()]/g, '').toLowerCase(),
    );
  return Boolean(
    existing.column &&
    part.column &&
    existing.column.toLowerCase() === part.column.toLowerCase() &&
    (existing.prefixLength ?? null) === (part.prefixLength ?? null),
  );
}

/** The candidate seeks as the need does: its first parts are the need's head (any order), then its tail in order. */
function candidateServes(parts: DesignedPart[], need: Need): boolean {
  if (parts.length < need.head.length + need.tail.length) return false;
  const head = parts.slice(0, need.head.length);
  if (!need.head.every((part) => head.some((other) => samePart(other, part)))) return false;
  return need.tail.every((part, i) => samePart(parts[need.head.length + i], part));
}

/** Statements of a query file (split as the analyzer splits scripts), each optionally led by `-- weight: N`. */
export function workloadFromText(text: string): WorkloadStatement[] {
  return splitStatements(text).map((slice) => {
    const match = /^\s*--\s*weight\s*[:=]\s*([0-9.eE+]+)\s*$/im.exec(slice.sql);
    const weight = match ? Number(match[1]) : undefined;
    return {
      sql: slice.sql,
      ...(weight !== undefined && Number.isFinite(weight) && weight > 0 ? { weight } : {}),
      label: `line ${slice.line}`,
    };
  });
}
