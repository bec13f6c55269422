// Transactions view: the processlist filters and the transaction order.
import { describe, expect, it } from 'vitest';
import type { ProcessView, TransactionView } from '../../../src/core/locks/transactions.js';
import {
  killShown,
  relate,
  withoutGoneSessions,
  type TransactionsSnapshot,
} from '../../../src/core/locks/transactions.js';
import {
  defaultProcessFilters,
  filterProcesslist,
  orderTransactions,
} from '../../../src/renderer/state/transactions.js';

const row = (id: number, patch: Partial<ProcessView>): ProcessView => ({
  id,
  user: 'app',
  host: '10.0.0.5:5000',
  db: 'shop',
  command: 'Query',
  time: 0,
  state: null,
  info: null,
  trxId: null,
  ...patch,
});

describe('filterProcesslist', () => {
  const rows = [
    row(1, { command: 'Sleep', time: 100 }),
    row(2, { command: 'Sleep', time: 50, trxId: '42' }),
    row(3, { user: 'event_scheduler', command: 'Daemon', time: 900 }),
    row(4, { time: 7, info: 'SELECT * FROM orders', state: 'executing' }),
    row(5, { time: 2, user: 'report', info: 'SELECT 1' }),
  ];
  it('hides sleepers without a transaction and the server’s own threads by default, longest first', () => {
    expect(filterProcesslist(rows, defaultProcessFilters).map((r) => r.id)).toEqual([2, 4, 5]);
  });
  it('shows everything with the filters off, and filters by text and time', () => {
    const all = { ...defaultProcessFilters, hideSleeping: false, hideSystem: false };
    expect(filterProcesslist(rows, all).map((r) => r.id)).toEqual([3, 1, 2, 4, 5]);
    expect(filterProcesslist(rows, { ...all, text: 'ORDERS' }).map((r) => r.id)).toEqual([4]);
    expect(filterProcesslist(rows, { ...all, text: 'report' }).map((r) => r.id)).toEqual([5]);
    expect(filterProcesslist(rows, { ...all, minSeconds: 60 }).map((r) => r.id)).toEqual([3, 1]);
  });
});

describe('relate and orderTransactions', () => {
  it('puts the transaction that blocks others first, each relation once per kind', () => {
    const relations = relate([
      { waiting: 2, blocking: 1, kind: 'row' },
      { waiting: 2, blocking: 1, kind: 'row' },
      { waiting: 3, blocking: 1, kind: 'metadata' },
      { waiting: 4, blocking: 4, kind: 'row' },
    ]);
    expect(relations.get(1)).toEqual({
      blockedBy: [],
      blocking: [
        { threadId: 2, kind: 'row' },
        { threadId: 3, kind: 'metadata' },
      ],
    });
    expect(relations.get(2)?.blockedBy).toEqual([{ threadId: 1, kind: 'row' }]);
    expect(relations.has(4)).toBe(false);
    const trx = (threadId: number, ageSeconds: number): TransactionView =>
      ({
        trxId: String(threadId),
        threadId,
        ageSeconds,
        blocking: relations.get(threadId)?.blocking ?? [],
        blockedBy: relations.get(threadId)?.blockedBy ?? [],
      }) as TransactionView;
    expect(orderTransactions([trx(2, 5), trx(9, 500), trx(1, 10)]).map((t) => t.threadId)).toEqual([1, 9, 2]);
  });
});

describe('after a kill', () => {
  const trx = (threadId: number | null) => ({ threadId, trxId: `t${threadId}` });
  it('drops transactions whose session left the (complete) processlist; keeps sessionless ones', () => {
    const rows = [trx(7), trx(8), trx(0), trx(null)];
    expect(withoutGoneSessions(rows, new Set([8]), true).map((r) => r.threadId)).toEqual([8, 0, null]);
    // A processlist cut at its limit or not read cannot say a session is gone.
    expect(withoutGoneSessions(rows, new Set([8]), false)).toEqual(rows);
  });
  it('KILL CONNECTION shows when the session and its transaction are gone; KILL QUERY when it stops running the statement', () => {
    const snapshot = (processlist: ProcessView[], threads: number[]): TransactionsSnapshot => ({
      takenAt: '',
      historyListLength: 0,
      transactions: threads.map((threadId) => ({ threadId }) as TransactionView),
      processlist,
      problems: [],
      elapsedMs: 0,
    });
    const running = row(7, { info: 'UPDATE t SET a = 1', command: 'Query' });
    const rollingBack = row(7, { command: 'Killed', info: null });
    expect(killShown(snapshot([running], [7]), 7, 'connection', null)).toBe(false);
    expect(killShown(snapshot([rollingBack], [7]), 7, 'connection', null)).toBe(false);
    expect(killShown(snapshot([], [7]), 7, 'connection', null)).toBe(false);
    expect(killShown(snapshot([], []), 7, 'connection', null)).toBe(true);
    expect(killShown(snapshot([running], [7]), 7, 'query', 'UPDATE t SET a = 1')).toBe(false);
    expect(killShown(snapshot([row(7, { command: 'Sleep' })], [7]), 7, 'query', 'UPDATE t SET a = 1')).toBe(
      true,
    );
    expect(killShown(snapshot([row(7, { info: 'SELECT 2' })], [7]), 7, 'query', 'UPDATE t SET a = 1')).toBe(
      true,
    );
  });
});
