// API area: live lock waits (blocking tree, metadata locks, deadlocks, rewrites) and kill.

import { z } from 'zod';
import type { LockSnapshot } from '../../core/locks/snapshot.js';
import { productionConfirmationField } from './profiles.js';

const pollSchema = z.object({
  connectionId: z.string().min(1),
  limit: z.number().int().min(1).max(1000).optional(),
  /** Grouped lock counts per transaction and index (MySQL 8; walks the blockers' locks). */
  lockCounts: z.boolean().optional(),
  /** Add EXPLAIN-based footprint warnings for locking statements. */
  explain: z.boolean().optional(),
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
  'locks.kill': killSchema,
} as const;

export interface LocksApi {
  /** One bounded poll of the lock views chosen by the server's capabilities. */
  'locks.poll'(request: z.input<typeof pollSchema>): Promise<LockSnapshot>;
  /** KILL QUERY / KILL CONNECTION, only after the user confirmed. */
  'locks.kill'(request: z.input<typeof killSchema>): Promise<void>;
}
