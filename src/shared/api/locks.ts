// API area: live lock waits (blocking tree, metadata locks, deadlocks, rewrites) and kill.

import { z } from 'zod';
import type { LockSnapshot, StatementRewrites } from '../../core/locks/snapshot.js';
import type { TransactionsSnapshot } from '../../core/locks/transactions.js';
import type { LockCount } from '../../core/locks/types.js';
import { productionConfirmationField } from './profiles.js';

const pollSchema = z.object({
  /**
   * The live view leaves rewrites not yet computed out of the poll (`rewritesPending`) and computes them
   * after it returns; `all` computes every one first (slower on the first poll).
   */
  rewrites: z.enum(['lazy', 'all']).optional(),
  connectionId: z.string().min(1),
  /** The workspace profile that keeps the deadlock history (default: the connection's label, as the UI names its session). */
  profileId: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  /** Grouped lock counts per transaction and index (MySQL 8; walks the blockers' locks). */
  lockCounts: z.boolean().optional(),
  /** Add EXPLAIN-based footprint warnings for locking statements. */
  explain: z.boolean().optional(),
});

const rewritesSchema = z.object({
  connectionId: z.string().min(1),
  /** A waiting (or pasted) statement; rewritten for the connection's server. */
  sql: z.string().min(1).max(100_000),
});

const countsSchema = z.object({
  connectionId: z.string().min(1),
  /** InnoDB transaction ids (the blockers of the tree). */
  trxIds: z.array(z.string().regex(/^\d+$/)).min(1).max(200),
});

const transactionsSchema = z.object({
  connectionId: z.string().min(1),
});

const killSchema = z.object({
  connectionId: z.string().min(1),
  threadId: z.number().int().positive(),
  scope: z.enum(['query', 'connection']),
  /** The user confirmed a dialog naming the thread, user and statement. */
  confirmed: z.literal(true),
  /** Production profiles: the profile name the user typed. */
  productionConfirmation: productionConfirmationField,
});

export const locksSchemas = {
  'locks.poll': pollSchema,
  'locks.rewrites': rewritesSchema,
  'locks.counts': countsSchema,
  'locks.kill': killSchema,
  'locks.transactions': transactionsSchema,
} as const;

export interface LocksApi {
  /** One bounded poll of the lock views chosen by the server's capabilities. */
  'locks.poll'(request: z.input<typeof pollSchema>): Promise<LockSnapshot>;
  /** NOWAIT / SKIP LOCKED / WAIT n rewrites of one statement, with the reasons for those not offered (cached per statement). */
  'locks.rewrites'(request: z.input<typeof rewritesSchema>): Promise<StatementRewrites>;
  /** Record locks held per transaction and index (MySQL 8 data_locks; walks every lock of those transactions). */
  'locks.counts'(request: z.input<typeof countsSchema>): Promise<LockCount[]>;
  /**
   * The Transactions view (innotop's T mode): open transactions with age, state, rows locked/modified,
   * last statements and blocking relations, the history list length, the processlist. Read-only.
   */
  'locks.transactions'(request: z.input<typeof transactionsSchema>): Promise<TransactionsSnapshot>;
  /** KILL QUERY / KILL CONNECTION, only after the user confirmed. */
  'locks.kill'(request: z.input<typeof killSchema>): Promise<void>;
}
