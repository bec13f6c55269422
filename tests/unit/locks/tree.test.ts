// Blocking forest: roots first, depth, several blockers, and cycles that must terminate.
import { describe, expect, it } from 'vitest';
import { buildBlockingForest, flattenForest, type BlockingForest } from '../../../src/core/locks/tree.js';
import type { LockInfo, TxnInfo, WaitRow } from '../../../src/core/locks/types.js';

function txn(trxId: string, trxAgeSeconds: number): TxnInfo {
  return {
    trxId,
    threadId: Number(trxId),
    user: 'app',
    host: 'h',
    statement: null,
    statementSource: null,
    trxAgeSeconds,
    rowsLocked: null,
    rowsModified: null,
    state: null,
  };
}
const lock: LockInfo = {
  lockType: 'RECORD',
  mode: 'X,REC_NOT_GAP',
  strength: 'X',
  granularity: 'record',
  schema: 'db',
  table: 'product',
  index: 'PRIMARY',
  lockData: '3',
};
function wait(waiting: TxnInfo, blocking: TxnInfo, waitSeconds = 1): WaitRow {
  return { waiting, blocking, lock, waitSeconds };
}

/** Compact shape: "id@depth[+]" per node in display order, with cycle marks. */
function shape(forest: BlockingForest): string[] {
  return flattenForest(forest).map(
    (node) => `${node.txn.trxId}@${node.depth}${node.inCycle ? '~' : ''}${node.cycleBack ? '^' : ''}`,
  );
}

describe('buildBlockingForest', () => {
  const a = txn('10', 60);
  const b = txn('11', 30);
  const c = txn('12', 5);
  const d = txn('13', 50);

  it('puts the root blocker first and a three-session chain at depth 2', () => {
    const forest = buildBlockingForest([wait(c, b), wait(b, a)]);
    expect({
      shape: shape(forest),
      maxDepth: forest.maxDepth,
      cycles: forest.cycles,
      blocked: forest.roots[0]?.blockedCount,
    }).toEqual({
      shape: ['10@0', '11@1', '12@2'],
      maxDepth: 2,
      cycles: [],
      blocked: 2,
    });
  });

  it('orders roots by sessions blocked, and shows a waiter under each of its blockers', () => {
    const forest = buildBlockingForest([wait(b, d), wait(c, a), wait(c, d)]);
    expect(shape(forest)).toEqual(['13@0', '11@1', '12@1', '10@0', '12@1']);
  });

  it('terminates on a wait cycle and roots it at the oldest member', () => {
    const forest = buildBlockingForest([wait(a, b), wait(b, c), wait(c, a), wait(d, c)]);
    expect({ shape: shape(forest), cycles: forest.cycles }).toEqual({
      shape: ['10@0~', '12@1~', '11@2~', '10@3~^', '13@2'],
      cycles: [['10', '11', '12']],
    });
  });

  it('is empty without waits', () => {
    expect(buildBlockingForest([])).toEqual({ roots: [], cycles: [], maxDepth: 0 });
  });
});
