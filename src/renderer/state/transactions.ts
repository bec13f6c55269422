// The Transactions view's filters (processlist) and order (transactions), as pure functions the panel and tests share.
import type { ProcessView, TransactionView } from '../../core/locks/transactions.js';

/** What the processlist shows. */
export interface ProcessFilters {
  /** Hide idle sessions (`Sleep`) that have no open transaction; idle ones in a transaction stay. */
  hideSleeping: boolean;
  /** Hide the server's own threads (`system user`, `event_scheduler`, `Daemon`, replication dumps). */
  hideSystem: boolean;
  /** Matches user, host, db, command, state or statement (case-insensitive). */
  text: string;
  /** Only sessions running at least this many seconds in their state. */
  minSeconds: number;
}

export const defaultProcessFilters: ProcessFilters = {
  hideSleeping: true,
  hideSystem: true,
  text: '',
  minSeconds: 0,
};

const SYSTEM_USERS = new Set(['system user', 'event_scheduler']);
const SYSTEM_COMMANDS = new Set(['Daemon', 'Binlog Dump', 'Binlog Dump GTID']);

/** The processlist rows the filters let through, longest-running first. */
export function filterProcesslist(rows: readonly ProcessView[], filters: ProcessFilters): ProcessView[] {
  const needle = filters.text.trim().toLowerCase();
  return rows
    .filter((row) => !(filters.hideSleeping && row.command === 'Sleep' && row.trxId === null))
    .filter(
      (row) =>
        !(filters.hideSystem && (SYSTEM_USERS.has(row.user ?? '') || SYSTEM_COMMANDS.has(row.command ?? ''))),
    )
    .filter((row) => (row.time ?? 0) >= filters.minSeconds)
    .filter(
      (row) =>
        needle === '' ||
        [row.user, row.host, row.db, row.command, row.state, row.info].some((field) =>
          (field ?? '').toLowerCase().includes(needle),
        ),
    )
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0) || a.id - b.id);
}

/** Transactions that block others first (most blocked), then the oldest. */
export function orderTransactions(rows: readonly TransactionView[]): TransactionView[] {
  return [...rows].sort(
    (a, b) => b.blocking.length - a.blocking.length || (b.ageSeconds ?? 0) - (a.ageSeconds ?? 0),
  );
}
