// Lock footprint: a locking statement that locks far more rows than it returns (a scan), and what to index.
/*
 * Design note.
 * The evidence is the server's: EXPLAIN's access type (ALL or index means every scanned row is locked)
 * and the record locks the statement's transaction holds against the rows it returned. The predicate
 * columns come from the statement's own WHERE (read through the tolerant path of rewrite.ts, so
 * `FOR SHARE OF t` parses), aliases resolved; the Advisor builds the index DDL from them.
 */

import type { AstNode } from '../sql/ast.js';
import { parseLockingStatement } from './rewrite.js';
import type { LockTarget } from './rewrite-types.js';

/** Evidence about how a locking statement reads its table(s). */
export interface LockFootprintEvidence {
  /** EXPLAIN rows: `type` (access type), `key`, `rows`, `table` as EXPLAIN prints them. */
  explain?: readonly { table: string | null; type: string | null; key: string | null; rows: number | null }[];
  /** Record locks the statement's transaction holds (data_locks count, or trx_rows_locked). */
  locksHeld?: number | null;
  /** Rows the statement returned or changed. */
  rowsReturned?: number | null;
}

/** A warning that a locking statement locks far more than it returns. */
export interface LockFootprintWarning {
  reason: 'full-scan' | 'full-index-scan' | 'locks-exceed-rows';
  table: string | null;
  /** The predicate columns to index (the Advisor builds the index DDL). */
  columns: string[];
  message: string;
}

/**
 * Flag a locking read/UPDATE/DELETE whose access path is a full or wide scan (EXPLAIN `type` ALL or
 * index), or whose transaction holds far more record locks than rows returned; return the
 * predicate columns to index. Null when nothing points at a wide scan.
 */
export function assessLockFootprint(
  sql: string,
  target: LockTarget,
  evidence: LockFootprintEvidence,
): LockFootprintWarning | null {
  const parsed = parseLockingStatement(sql.trim().replace(/;\s*$/, ''), target.flavor);
  const columnsByTable = parsed.ok ? predicateColumns(parsed.ast) : new Map<string | null, string[]>();
  const columnsFor = (table: string | null): string[] => {
    const exact = table ? columnsByTable.get(table) : undefined;
    const unqualified = columnsByTable.get(null) ?? [];
    return [...new Set([...(exact ?? []), ...unqualified])];
  };
  for (const row of evidence.explain ?? []) {
    const type = (row.type ?? '').toUpperCase();
    if (type === 'ALL' || type === 'INDEX') {
      const reason = type === 'ALL' ? 'full-scan' : 'full-index-scan';
      const columns = columnsFor(row.table);
      return {
        reason,
        table: row.table,
        columns,
        message: `${type === 'ALL' ? 'Full table scan' : 'Full index scan'} of ${row.table ?? 'the table'}: a locking read locks every row it scans (about ${row.rows ?? '?'} rows), not only the rows it returns. ${
          columns.length > 0
            ? `Index ${columns.join(', ')} so only the candidate rows are locked.`
            : 'Index the predicate columns so only the candidate rows are locked.'
        }`,
      };
    }
  }
  const locks = evidence.locksHeld ?? null;
  const rows = evidence.rowsReturned ?? null;
  // An index range locks about two records per row (secondary + primary) plus the next key; more than
  // that points at a scan. The seed's 5 locks for 2 rows is the indexed case and must not be flagged.
  if (locks !== null && rows !== null && locks > 2 * Math.max(rows, 1) + 2) {
    const [table, columns] = [...columnsByTable.entries()].find(([name]) => name !== null) ?? [
      null,
      columnsFor(null),
    ];
    return {
      reason: 'locks-exceed-rows',
      table,
      columns: [...new Set([...columns, ...(columnsByTable.get(null) ?? [])])],
      message: `${locks} record locks for ${rows} rows: the statement locks far more than it returns, a sign of a scan. Index the predicate columns so only the candidate rows are locked.`,
    };
  }
  return null;
}

/** Column names in the WHERE of the statement's own query blocks, keyed by table (aliases resolved; null = unqualified). */
export function predicateColumns(ast: AstNode): Map<string | null, string[]> {
  const result = new Map<string | null, string[]>();
  const blocks: AstNode[] = [];
  for (let node: AstNode | undefined = ast; node; node = node._next as AstNode | undefined) blocks.push(node);
  for (const block of blocks) {
    const aliases = new Map<string, string>();
    const sources = (
      Array.isArray(block.from) ? block.from : Array.isArray(block.table) ? block.table : []
    ) as AstNode[];
    for (const source of sources) {
      if (typeof source.table === 'string') {
        aliases.set(source.table, source.table);
        if (typeof source.as === 'string') aliases.set(source.as, source.table);
      }
    }
    const single =
      sources.length === 1 && typeof sources[0]?.table === 'string' ? (sources[0].table as string) : null;
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      const node = value as AstNode;
      if (node.type === 'select' || 'ast' in node) return; // subqueries lock on their own
      if (node.type === 'column_ref' && typeof node.column === 'string') {
        const qualifier = typeof node.table === 'string' ? node.table : null;
        const table = qualifier ? (aliases.get(qualifier) ?? qualifier) : single;
        const list = result.get(table) ?? [];
        if (!list.includes(node.column)) list.push(node.column);
        result.set(table, list);
        return;
      }
      for (const key in node) if (key !== 'loc') visit(node[key]);
    };
    visit(block.where);
  }
  return result;
}
