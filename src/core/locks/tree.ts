// Builds the blocking forest (root blockers first, waiters under them) from waiter → blocker pairs.
/*
 * Design note.
 * The input is a list of edges `waiting → blocking` (one per pair, as data_lock_waits and
 * INNODB_LOCK_WAITS report them). A root is a blocker that is not itself waiting. Each root is
 * expanded depth-first: a node's children are the transactions waiting on it; a waiter blocked by
 * several transactions appears under each of them (the DBA must see every path to it).
 * Cycles: when every transaction of a component waits (a deadlock in progress, e.g. with
 * innodb_deadlock_detect=OFF, or a snapshot taken between detection and rollback), there is no
 * natural root. We pick the oldest transaction of the cycle as the root, mark the nodes `inCycle`,
 * and never revisit a transaction already on the current path, so the walk always terminates.
 * Roots are ordered by how many sessions they block (transitively), then by transaction age.
 */

import type { LockInfo, TxnInfo, WaitRow } from './types.js';

/** One transaction in the forest. */
export interface BlockingNode {
  txn: TxnInfo;
  /** 0 for a root blocker, 1 for its direct waiters, … */
  depth: number;
  /** The lock this node waits for on its parent (null for a root). */
  lock: LockInfo | null;
  /** Seconds this node has waited on its parent (null for a root). */
  waitSeconds: number | null;
  /** Sessions blocked by this node, directly or through others (each transaction counted once). */
  blockedCount: number;
  /** Part of a wait cycle (deadlock in progress). */
  inCycle: boolean;
  /** The node's waiter is already shown higher on this path (a cycle closes here); it is not expanded. */
  cycleBack?: boolean;
  children: BlockingNode[];
}

/** The whole picture: roots first, plus the cycles found. */
export interface BlockingForest {
  roots: BlockingNode[];
  /** Transaction ids of each wait cycle (a deadlock in progress). */
  cycles: string[][];
  /** Deepest depth in the forest (2 for a chain of three sessions). */
  maxDepth: number;
}

/** Build the blocking forest from wait rows. Deterministic for a given input order. */
export function buildBlockingForest(waits: readonly WaitRow[]): BlockingForest {
  const txns = new Map<string, TxnInfo>();
  const waitersOf = new Map<string, WaitRow[]>();
  const blockersOf = new Map<string, Set<string>>();
  for (const wait of waits) {
    txns.set(wait.waiting.trxId, mergeTxn(txns.get(wait.waiting.trxId), wait.waiting));
    txns.set(wait.blocking.trxId, mergeTxn(txns.get(wait.blocking.trxId), wait.blocking));
    if (wait.waiting.trxId === wait.blocking.trxId) continue;
    const list = waitersOf.get(wait.blocking.trxId) ?? [];
    if (!list.some((row) => row.waiting.trxId === wait.waiting.trxId)) list.push(wait);
    waitersOf.set(wait.blocking.trxId, list);
    const blockers = blockersOf.get(wait.waiting.trxId) ?? new Set<string>();
    blockers.add(wait.blocking.trxId);
    blockersOf.set(wait.waiting.trxId, blockers);
  }

  const cycles = findCycles([...txns.keys()], waitersOf);
  const inCycle = new Set(cycles.flat());

  const rootIds = [...txns.keys()].filter((id) => waitersOf.has(id) && !blockersOf.has(id));
  // Components with no natural root are cycles (or hang off one): root them at the cycle's oldest member.
  const reached = new Set<string>();
  for (const id of rootIds) collectReachable(id, waitersOf, reached);
  for (const cycle of cycles) {
    if (cycle.some((id) => reached.has(id))) continue;
    const oldest = [...cycle].sort((a, b) => compareAge(txns.get(a), txns.get(b)) || a.localeCompare(b))[0];
    if (oldest === undefined) continue;
    rootIds.push(oldest);
    collectReachable(oldest, waitersOf, reached);
  }

  let maxDepth = 0;
  const expand = (id: string, depth: number, via: WaitRow | null, path: Set<string>): BlockingNode => {
    maxDepth = Math.max(maxDepth, depth);
    const txn = txns.get(id) as TxnInfo;
    const node: BlockingNode = {
      txn,
      depth,
      lock: via?.lock ?? null,
      waitSeconds: via?.waitSeconds ?? null,
      blockedCount: countBlocked(id, waitersOf),
      inCycle: inCycle.has(id),
      children: [],
    };
    if (path.has(id)) {
      node.cycleBack = true;
      return node;
    }
    path.add(id);
    for (const row of waitersOf.get(id) ?? [])
      node.children.push(expand(row.waiting.trxId, depth + 1, row, path));
    path.delete(id);
    return node;
  };

  const roots = rootIds
    .map((id) => expand(id, 0, null, new Set()))
    .sort(
      (a, b) =>
        b.blockedCount - a.blockedCount || compareAge(a.txn, b.txn) || a.txn.trxId.localeCompare(b.txn.trxId),
    );
  return { roots, cycles, maxDepth };
}

/** Flatten the forest depth-first (what a text view or a table prints). */
export function flattenForest(forest: BlockingForest): BlockingNode[] {
  const out: BlockingNode[] = [];
  const visit = (node: BlockingNode): void => {
    out.push(node);
    node.children.forEach(visit);
  };
  forest.roots.forEach(visit);
  return out;
}

function mergeTxn(previous: TxnInfo | undefined, next: TxnInfo): TxnInfo {
  if (!previous) return next;
  const merged: TxnInfo = { ...previous };
  for (const key of Object.keys(next) as (keyof TxnInfo)[]) {
    if (merged[key] === null && next[key] !== null)
      (merged as unknown as Record<string, unknown>)[key] = next[key];
  }
  return merged;
}

/** Older first; unknown ages last. */
function compareAge(a: TxnInfo | undefined, b: TxnInfo | undefined): number {
  const ageA = a?.trxAgeSeconds ?? -1;
  const ageB = b?.trxAgeSeconds ?? -1;
  return ageB - ageA;
}

function collectReachable(id: string, waitersOf: Map<string, WaitRow[]>, seen: Set<string>): void {
  const stack = [id];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const row of waitersOf.get(current) ?? []) stack.push(row.waiting.trxId);
  }
}

function countBlocked(id: string, waitersOf: Map<string, WaitRow[]>): number {
  const seen = new Set<string>();
  collectReachable(id, waitersOf, seen);
  seen.delete(id);
  return seen.size;
}

/** Strongly connected components with more than one member (Tarjan, iterative over small graphs). */
function findCycles(ids: readonly string[], waitersOf: Map<string, WaitRow[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  const strongConnect = (id: string): void => {
    index.set(id, counter);
    low.set(id, counter);
    counter += 1;
    stack.push(id);
    onStack.add(id);
    for (const row of waitersOf.get(id) ?? []) {
      const next = row.waiting.trxId;
      if (!index.has(next)) {
        strongConnect(next);
        low.set(id, Math.min(low.get(id) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(id, Math.min(low.get(id) as number, index.get(next) as number));
      }
    }
    if (low.get(id) === index.get(id)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== id);
      if (component.length > 1) result.push(component.sort());
    }
  };
  for (const id of ids) if (!index.has(id)) strongConnect(id);
  return result;
}
