// NOWAIT / SKIP LOCKED rewrites of waiting statements (cached per server and statement text across polls,
// computed in the background for the live view) and the EXPLAIN-based lock footprint of a statement.

import type { Connection } from 'mysql2/promise';
import { rewriteLockingRead } from '../../core/locks/rewrite.js';
import { assessLockFootprint, type LockFootprintWarning } from '../../core/locks/footprint.js';
import { AdvisorError } from '../../shared/errors.js';
import { assertViewsSafe, DEFAULT_EXPLAIN_TIMEOUT_MS } from './explain.js';
import { boundedQuery } from './bounded-query.js';
import { checkReadOnlyStatement } from './statement-guard.js';
import type { StatementRewrites } from '../../core/locks/snapshot.js';
import { type LockServer, type Row, num, str } from './locks-shared.js';

const REWRITE_CACHE_SIZE = 500;
/** Rewrites per server and statement text, shared by all polls (oldest evicted first). */
const rewriteCache = new Map<string, StatementRewrites>();
/** Statements waiting for their rewrites to be computed in the background (key → work). */
const rewriteQueue = new Map<string, () => void>();
let rewriteWorker: ReturnType<typeof setImmediate> | null = null;

function rewriteKey(server: LockServer, sql: string): string {
  return `${server.flavor}|${JSON.stringify(server.capabilities)}|${sql}`;
}

/** Rewrites already computed for this server and statement, or undefined. */
export function cachedStatementRewrites(server: LockServer, sql: string): StatementRewrites | undefined {
  return rewriteCache.get(rewriteKey(server, sql));
}

/**
 * NOWAIT / SKIP LOCKED / WAIT n rewrites of one statement for this server (`locks.rewrites`), cached.
 * Parsing costs a few milliseconds per statement (node-sql-parser; the first call in a process also
 * loads the grammar, ≈ 150 ms), which is why the live poll does not do it inline.
 */
export function statementRewrites(server: LockServer, sql: string): StatementRewrites {
  const key = rewriteKey(server, sql);
  const cached = rewriteCache.get(key);
  if (cached) return cached;
  const result = rewriteLockingRead(sql, server);
  const value: StatementRewrites = {
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
    rewrites: result.rewrites.map(({ kind, sql: text, notes, snippet, errorCode, recommended }) => ({
      kind,
      sql: text,
      notes,
      snippet,
      errorCode,
      recommended,
    })),
    unavailable: result.unavailable,
  };
  if (rewriteCache.size >= REWRITE_CACHE_SIZE) {
    const oldest = rewriteCache.keys().next().value;
    if (oldest !== undefined) rewriteCache.delete(oldest);
  }
  rewriteCache.set(key, value);
  rewriteQueue.delete(key);
  return value;
}

/** Forget every cached rewrite (the bench uses it to measure cold polls). */
export function clearRewriteCache(): void {
  rewriteCache.clear();
  rewriteQueue.clear();
}

/** Compute rewrites after the current poll returned: one statement per event-loop turn, never blocking a poll for long. */
export function scheduleRewrites(server: LockServer, statements: Iterable<string>): void {
  for (const sql of statements) {
    const key = rewriteKey(server, sql);
    if (!rewriteCache.has(key) && !rewriteQueue.has(key) && rewriteQueue.size < REWRITE_CACHE_SIZE)
      rewriteQueue.set(key, () => void statementRewrites(server, sql));
  }
  const step = (): void => {
    rewriteWorker = null;
    const next = rewriteQueue.entries().next().value;
    if (!next) return;
    rewriteQueue.delete(next[0]);
    next[1]();
    if (rewriteQueue.size > 0) rewriteWorker = setImmediate(step);
  };
  if (rewriteWorker === null && rewriteQueue.size > 0) rewriteWorker = setImmediate(step);
}

/** EXPLAIN a statement in a schema and assess whether it locks a wide range (changes the connection's default schema). */
export async function explainLockFootprint(
  conn: Connection,
  server: LockServer,
  sql: string,
  schema: string | null,
): Promise<LockFootprintWarning | null> {
  // SQL captured from another session is hostile input: never EXPLAINed when the optimizer could
  // run a function with our privileges (stored routines, SLEEP, locks …). The user sees why.
  const verdict = checkReadOnlyStatement(`EXPLAIN ${sql}`, {
    context: { flavor: server.flavor === 'mariadb' ? 'mariadb' : 'mysql' },
  });
  if (!verdict.allowed) {
    throw new AdvisorError('CONSENT_REQUIRED', `Not explained automatically: ${verdict.reason}.`, {
      hint: 'The statement comes from another session. EXPLAIN can run the functions it calls with your privileges; explain it yourself in the Plan panel if you trust them.',
    });
  }
  if (schema) await conn.query(`USE \`${schema.replace(/`/g, '``')}\``);
  await assertViewsSafe(conn, server, sql);
  const timeoutMs = DEFAULT_EXPLAIN_TIMEOUT_MS;
  const statement = server.capabilities.maxStatementTime
    ? `SET STATEMENT max_statement_time=${(timeoutMs / 1000 + 1).toFixed(3)} FOR EXPLAIN ${sql}`
    : `EXPLAIN ${sql}`;
  const plan = await boundedQuery<Row[]>(conn, statement, { timeoutMs });
  return assessLockFootprint(sql, server, {
    explain: plan.map((row) => ({
      table: str(row.table),
      type: str(row.type),
      key: str(row.key),
      rows: num(row.rows),
    })),
  });
}
