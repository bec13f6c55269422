// Classifies InnoDB lock mode strings (data_locks / INNODB_LOCKS / InnoDB status) without hard-coding them.

import type { LockGranularity, LockInfo } from './types.js';

/**
 * How precise a source's mode strings are. performance_schema.data_locks (MySQL >= 8.0.1) separates
 * `X` (next-key) from `X,REC_NOT_GAP` (record only); INNODB_LOCKS (MariaDB, MySQL 5.7) prints `X` for both.
 */
export type ModeSource = 'data_locks' | 'innodb_locks' | 'innodb_status';

/**
 * Classify a lock mode. Flags are read as a set (`X,GAP,INSERT_INTENTION` → insert-intention), so new
 * combinations the server may print still land in a sensible class instead of a lookup miss.
 */
export function classifyLockMode(
  lockType: string,
  mode: string,
  lockData: string | null,
  source: ModeSource,
): { strength: string; granularity: LockGranularity } {
  const parts = mode
    .split(/[,\s]+/)
    .map((part) => part.trim().toUpperCase())
    .filter(Boolean);
  const strength = parts[0] ?? '';
  if (lockType.toUpperCase() === 'TABLE') return { strength, granularity: 'table' };
  if (lockType.toUpperCase() !== 'RECORD') return { strength, granularity: 'unknown' };
  const flags = new Set(parts.slice(1));
  if (flags.has('INSERT_INTENTION')) return { strength, granularity: 'insert-intention' };
  if (flags.has('GAP')) return { strength, granularity: 'gap' };
  if (flags.has('REC_NOT_GAP')) return { strength, granularity: 'record' };
  // A next-key lock on the supremum pseudo-record covers only the gap after the last record.
  if (lockData === 'supremum pseudo-record') return { strength, granularity: 'gap' };
  if (source === 'innodb_locks') return { strength, granularity: 'record-or-next-key' };
  return { strength, granularity: 'next-key' };
}

/** Build a LockInfo from the raw columns of any lock source. */
export function makeLockInfo(
  raw: {
    lockType: string;
    mode: string;
    schema: string | null;
    table: string | null;
    index: string | null;
    lockData: string | null;
  },
  source: ModeSource,
): LockInfo {
  const { strength, granularity } = classifyLockMode(raw.lockType, raw.mode, raw.lockData, source);
  return { ...raw, lockType: raw.lockType.toUpperCase(), strength, granularity };
}

/**
 * InnoDB status prints modes as prose (`lock_mode X locks rec but not gap waiting`, `lock mode S locks gap
 * before rec`, `lock_mode X insert intention`); translate to the data_locks notation.
 */
export function modeFromStatusText(text: string): string {
  const match = /lock[_ ]mode\s+([A-Z_-]+)/i.exec(text);
  const strength = (match?.[1] ?? '').toUpperCase();
  const flags: string[] = [];
  if (/locks gap before rec/i.test(text)) flags.push('GAP');
  if (/locks rec but not gap/i.test(text)) flags.push('REC_NOT_GAP');
  if (/insert intention/i.test(text)) flags.push('INSERT_INTENTION');
  return [strength, ...flags].join(',');
}
