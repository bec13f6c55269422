// Batching advice for a long UPDATE/DELETE that blocks others: the same statement in primary-key-ordered batches.
/*
 * Design note.
 * The statement is parsed, given `ORDER BY <primary key> LIMIT n` on the AST, printed, and parsed again;
 * only single-table statements with a WHERE clause and a known primary key qualify (the servers reject
 * ORDER BY / LIMIT on multi-table UPDATE/DELETE). What does not qualify is reported with the reason.
 */

import type { AstNode } from '../sql/ast.js';
import { parseStatement, printSql } from '../sql/parse.js';
import type { LockTarget } from './rewrite-types.js';

/** Advice for a long-running UPDATE/DELETE that blocks others: process it in primary-key-ordered batches. */
export interface BatchingAdvice {
  status: 'ok' | 'cannot-rewrite' | 'not-applicable';
  reason?: string;
  /** The statement with `ORDER BY <primary key> LIMIT n`, to run in a loop. */
  sql?: string;
  batchSize: number;
  notes: string[];
}

/**
 * Batching advice for an UPDATE/DELETE blocker: the same statement with `ORDER BY <primary key> LIMIT n`,
 * run until it affects fewer than n rows. Single-table statements only (the servers reject ORDER BY /
 * LIMIT on multi-table UPDATE/DELETE).
 */
export function adviseBatching(
  sql: string,
  target: LockTarget,
  primaryKey: readonly string[],
  batchSize = 1000,
): BatchingAdvice {
  const parsed = parseStatement(sql.trim().replace(/;\s*$/, ''), target.flavor);
  if (!parsed.ok) return { status: 'cannot-rewrite', reason: parsed.message, batchSize, notes: [] };
  const ast = JSON.parse(JSON.stringify(parsed.ast)) as AstNode;
  if (ast.type !== 'update' && ast.type !== 'delete')
    return { status: 'not-applicable', reason: 'Only UPDATE and DELETE are batched.', batchSize, notes: [] };
  const tables = (ast.type === 'delete' ? ast.from : ast.table) as unknown[] | null;
  if (!Array.isArray(tables) || tables.length !== 1 || (tables[0] as AstNode).join) {
    return {
      status: 'cannot-rewrite',
      reason:
        'Multi-table UPDATE/DELETE cannot take ORDER BY or LIMIT; select the primary keys of a batch first, then change those rows.',
      batchSize,
      notes: [],
    };
  }
  if (primaryKey.length === 0) {
    return {
      status: 'cannot-rewrite',
      reason: 'The primary key is unknown; batches need ORDER BY the primary key to be deterministic.',
      batchSize,
      notes: [],
    };
  }
  if (!ast.where) {
    return {
      status: 'cannot-rewrite',
      reason: 'The statement has no WHERE clause: a batched loop would need a key range instead.',
      batchSize,
      notes: [],
    };
  }
  ast.orderby = primaryKey.map((column) => ({
    expr: { type: 'column_ref', table: null, column },
    type: 'ASC',
  }));
  ast.limit = { seperator: '', value: [{ type: 'number', value: batchSize }] };
  const rewritten = printSql(ast, target.flavor);
  const check = parseStatement(rewritten, target.flavor);
  if (!check.ok)
    return {
      status: 'cannot-rewrite',
      reason: `The batched statement does not parse again (${check.message}).`,
      batchSize,
      notes: [],
    };
  return {
    status: 'ok',
    sql: rewritten,
    batchSize,
    notes: [
      `Run it in a loop with autocommit (or COMMIT after each batch) until it changes fewer than ${batchSize} rows: each batch holds its row locks only briefly.`,
      'ORDER BY the primary key keeps batches deterministic (safe for statement-based replication) and walks the table in index order.',
      'Make sure the WHERE columns are indexed, or every batch scans (and locks) from the start of the table.',
    ],
  };
}
