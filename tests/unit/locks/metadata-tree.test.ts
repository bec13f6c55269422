// Metadata-lock wait tree: the server's compatibility rules (sql/mdl.cc), grouping, and the DDL text readers.
import { describe, expect, it } from 'vitest';
import {
  buildMetadataWaitTree,
  ddlTable,
  grantedBlocks,
  inferRequestedMode,
  mdlMode,
  mentionsTable,
  pendingBlocks,
  type MdlLockRow,
  type MdlSession,
} from '../../../src/core/locks/metadata-tree.js';

function session(threadId: number, seconds: number, statement: string | null = null): MdlSession {
  return {
    threadId,
    user: 'app',
    host: 'h',
    db: 'shop',
    command: statement ? 'Query' : 'Sleep',
    state: null,
    seconds,
    statement,
    statementSource: statement ? 'current' : null,
    trxAgeSeconds: statement ? null : 40,
  };
}
const lock = (
  threadId: number,
  mode: string,
  status: 'GRANTED' | 'PENDING',
  table = 'orders',
): MdlLockRow => ({
  threadId,
  schema: 'shop',
  table,
  mode,
  status,
});

describe('MDL compatibility (sql/mdl.cc MDL_object_lock)', () => {
  it('reads both servers’ names', () => {
    expect([
      mdlMode('SHARED_READ'),
      mdlMode('MDL_SHARED_UPGRADABLE'),
      mdlMode('INTENTION_EXCLUSIVE'),
    ]).toEqual(['SR', 'SU', null]);
  });
  it('a granted SHARED_READ blocks EXCLUSIVE but not another reader; a pending EXCLUSIVE queues later readers', () => {
    expect([
      grantedBlocks('X', 'SR'),
      grantedBlocks('SR', 'SR'),
      grantedBlocks('SR', 'SU'),
      grantedBlocks('SU', 'SU'),
      pendingBlocks('SR', 'X'),
      pendingBlocks('SH', 'X'),
      pendingBlocks('SW', 'SNW'),
      pendingBlocks('SR', 'SNW'),
    ]).toEqual([true, false, false, true, true, false, true, false]);
  });
});

describe('buildMetadataWaitTree', () => {
  const sessions = new Map<number, MdlSession>([
    [10, session(10, 60)],
    [11, session(11, 8, 'ALTER TABLE orders ADD COLUMN note INT')],
    [12, session(12, 5, 'SELECT * FROM orders')],
    [13, session(13, 3, 'SELECT COUNT(*) FROM orders')],
    [14, session(14, 90)],
  ]);
  const locks = [
    lock(10, 'SHARED_READ', 'GRANTED'),
    lock(11, 'SHARED_UPGRADABLE', 'GRANTED'),
    lock(11, 'EXCLUSIVE', 'PENDING'),
    lock(12, 'SHARED_READ', 'PENDING'),
    lock(13, 'SHARED_READ', 'PENDING'),
    lock(14, 'SHARED_READ', 'GRANTED', 'other'),
  ];

  it('groups the ALTER with its holder and the readers queued behind it (not behind the holder)', () => {
    const tree = buildMetadataWaitTree(locks, sessions, 'metadata_locks');
    expect(
      tree.map((group) => ({
        waiter: group.waiter.session.threadId,
        holders: group.holders.map((holder) => [holder.session.threadId, holder.mode]),
        queued: group.queued.map((entry) => entry.session.threadId),
      })),
    ).toEqual([{ waiter: 11, holders: [[10, 'SHARED_READ']], queued: [12, 13] }]);
  });

  it('a reader blocked by a granted SHARED_NO_READ_WRITE (LOCK TABLES … WRITE) is its own group', () => {
    const tree = buildMetadataWaitTree(
      [lock(10, 'SHARED_NO_READ_WRITE', 'GRANTED'), lock(12, 'SHARED_READ', 'PENDING')],
      sessions,
      'metadata_locks',
    );
    expect(
      tree.map((group) => [group.waiter.session.threadId, group.holders.map((h) => h.session.threadId)]),
    ).toEqual([[12, [10]]]);
  });
});

describe('reading DDL text (never executed)', () => {
  it.each([
    ['ALTER TABLE orders ADD COLUMN note INT', { schema: null, table: 'orders' }],
    ['alter online table `shop`.`my``t` add index (a)', { schema: 'shop', table: 'my`t' }],
    ['CREATE UNIQUE INDEX ix ON shop.orders (a)', { schema: 'shop', table: 'orders' }],
    ['DROP INDEX ix ON orders', { schema: null, table: 'orders' }],
    ['TRUNCATE TABLE orders', { schema: null, table: 'orders' }],
    ['OPTIMIZE TABLE orders', { schema: null, table: 'orders' }],
    ['SELECT * FROM orders', null],
  ])('%s', (sql, expected) => {
    expect(ddlTable(sql)).toEqual(expected);
  });
  it('infers the requested mode and finds a table mentioned in a statement', () => {
    expect([
      inferRequestedMode('ALTER TABLE t ADD c INT'),
      inferRequestedMode('UPDATE t SET a = 1'),
      inferRequestedMode('SELECT 1'),
      mentionsTable('SELECT id FROM `orders` WHERE id = 2', 'orders'),
      mentionsTable('SELECT id FROM orders_archive', 'orders'),
    ]).toEqual(['EXCLUSIVE', 'SHARED_WRITE', 'SHARED_READ', true, false]);
  });
});
