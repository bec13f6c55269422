// `sargable locks`: who blocks whom right now, on which rows, with NOWAIT / SKIP LOCKED rewrites.

import { cliConnections, printNotices } from '../connections.js';
import { addToDeadlockHistory, type DeadlockHistoryEntry } from '../../core/locks/deadlock.js';
import type { BlockingNode } from '../../core/locks/tree.js';
import type { LockInfo, TxnInfo } from '../../core/locks/types.js';
import { pollLocks, type LockSnapshot } from '../../main/services/locks.js';
import { parseCommonArgs } from '../args.js';
import { dsnWithPassword } from '../input.js';
import { UsageError, type CliCommand } from '../io.js';

export const usage = `Usage: sargable locks --dsn URL [options]

Show lock waits as a blocking tree (root blockers first), metadata-lock waits and the latest
deadlock, with NOWAIT / SKIP LOCKED rewrites for each waiting locking read.

Options:
  --dsn URL              mysql://user@host:3306/db (needs PROCESS and SELECT on performance_schema)
  --format text|json     output format (default text); JSON is the documented contract (docs/locks.md)
  --watch SECONDS        poll every SECONDS until interrupted (JSON: one object per line)
  --explain              EXPLAIN waiting locking reads and warn when they scan (and lock) whole tables
  --lock-counts          add the blockers' record locks per index (MySQL 8; walks all their locks)
  -h, --help             show this help

Read-only: this command never kills a session. Passwords: --password-file, --ask-password, --login-path or SARGABLE_PASSWORD.`;

/** The CLI JSON of one poll; `deadlocks` lists the distinct deadlocks seen (latest occurrence each). */
export function snapshotJson(snapshot: LockSnapshot, history: readonly DeadlockHistoryEntry[]): unknown {
  return {
    ...snapshot,
    deadlocks: history.map((entry) => ({
      ...entry.latest,
      occurrences: entry.occurrences,
      firstDetectedAt: entry.firstDetectedAt,
    })),
  };
}

export const run: CliCommand = async (argv, io) => {
  const args = parseCommonArgs(
    argv,
    {
      dsn: { type: 'string' },
      watch: { type: 'string' },
      explain: { type: 'boolean' },
      'lock-counts': { type: 'boolean' },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, format } = args;
  if (!values.dsn) throw new UsageError('--dsn is required: sargable locks --dsn mysql://user@host:3306/');
  let watchSeconds: number | null = null;
  if (values.watch !== undefined) {
    watchSeconds = Number(values.watch);
    if (!Number.isFinite(watchSeconds) || watchSeconds < 0.2)
      throw new UsageError('--watch takes a number of seconds (at least 0.2).');
  }

  const connections = cliConnections();
  const opened = await connections.openConnection({
    dsn: dsnWithPassword(values.dsn, io),
  });
  printNotices(opened, io.stderr);
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  try {
    const { connection, server } = connections.get(opened.connectionId);
    let history: DeadlockHistoryEntry[] = [];
    for (;;) {
      // The JSON contract carries every wait's rewrites, so they are computed before printing.
      const snapshot = await pollLocks(connection, server, {
        rewrites: true,
        explain: Boolean(values.explain),
        lockCounts: Boolean(values['lock-counts']),
      });
      for (const deadlock of snapshot.deadlocks) history = addToDeadlockHistory(history, deadlock).history;
      if (format === 'json') {
        io.stdout(
          watchSeconds === null
            ? `${JSON.stringify(snapshotJson(snapshot, history), null, 2)}\n`
            : `${JSON.stringify(snapshotJson(snapshot, history))}\n`,
        );
      } else {
        io.stdout(formatLocksText(snapshot, history));
      }
      if (watchSeconds === null || stopped) break;
      await new Promise((resolve) => setTimeout(resolve, (watchSeconds as number) * 1000));
      if (stopped) break;
    }
  } finally {
    process.removeListener('SIGINT', stop);
    await connections.closeAll();
  }
  return 0;
};

function describeTxn(txn: TxnInfo): string {
  const who = txn.user ? `${txn.user}@${txn.host ?? '?'}` : 'unknown user';
  const parts = [`thread ${txn.threadId ?? '?'}`, who];
  if (txn.trxAgeSeconds !== null) parts.push(`trx age ${txn.trxAgeSeconds} s`);
  if (txn.rowsLocked !== null) parts.push(`${txn.rowsLocked} rows locked`);
  if (txn.rowsModified !== null) parts.push(`${txn.rowsModified} modified`);
  return `trx ${txn.trxId} (${parts.join(', ')})`;
}

function describeLock(lock: LockInfo): string {
  const where = `${lock.schema ?? '?'}.${lock.table ?? '?'}${lock.index ? ` index ${lock.index}` : ''}`;
  const record = lock.values?.length
    ? ` [${lock.values.map((value) => `${value.column ?? '?'}=${value.value ?? 'NULL'}`).join(', ')}]`
    : lock.lockData
      ? ` [${lock.lockData}]`
      : '';
  return `${lock.lockType} ${lock.mode} (${lock.granularity}) on ${where}${record}`;
}

/** Human-readable view: the blocking tree, rewrites, metadata waits, deadlocks and problems. */
export function formatLocksText(snapshot: LockSnapshot, history: readonly DeadlockHistoryEntry[]): string {
  const out: string[] = [`Lock waits at ${snapshot.takenAt} (${snapshot.source}, ${snapshot.elapsedMs} ms)`];
  if (snapshot.roots.length === 0) out.push('  No row-lock waits.');
  const visit = (node: BlockingNode): void => {
    const indent = '  '.repeat(node.depth + 1);
    const head =
      node.depth === 0
        ? `${indent}ROOT ${describeTxn(node.txn)} blocks ${node.blockedCount}`
        : `${indent}└ ${describeTxn(node.txn)} waits ${node.waitSeconds ?? '?'} s for ${node.lock ? describeLock(node.lock) : '?'}`;
    out.push(`${head}${node.inCycle ? '  [deadlock cycle]' : ''}`);
    if (node.txn.statement)
      out.push(
        `${indent}  ${node.txn.statementSource === 'last' ? 'last statement' : 'statement'}: ${node.txn.statement.replace(/\s+/g, ' ')}`,
      );
    if (node.cycleBack) return;
    node.children.forEach(visit);
  };
  snapshot.roots.forEach(visit);
  const seen = new Set<string>();
  for (const wait of snapshot.waits) {
    const sql = wait.waiting.statement;
    if (!sql || seen.has(sql) || wait.rewrites.length === 0) continue;
    seen.add(sql);
    out.push('', `Rewrites for: ${sql.replace(/\s+/g, ' ')}`);
    for (const rewrite of wait.rewrites) {
      out.push(
        `  ${rewrite.kind}${rewrite.recommended ? '' : ' (not recommended here)'}: ${rewrite.sql.replace(/\n/g, ' ')}`,
      );
      for (const note of rewrite.notes) out.push(`    - ${note}`);
    }
    if (wait.footprint) out.push(`  ! ${wait.footprint.message}`);
    if (wait.blockerAdvice?.sql) out.push(`  Blocker batching: ${wait.blockerAdvice.sql}`);
  }
  if (snapshot.lockCounts.length > 0) {
    out.push('', 'Record locks held (per transaction and index):');
    for (const count of snapshot.lockCounts)
      out.push(`  trx ${count.trxId} ${count.schema}.${count.table} ${count.index ?? ''}: ${count.count}`);
  }
  if (snapshot.metadataWaits.length > 0) {
    out.push('', 'Metadata-lock waits:');
    for (const wait of snapshot.metadataWaits) {
      out.push(
        `  thread ${wait.threadId} (${wait.user ?? '?'}) waits ${wait.waitSeconds ?? '?'} s: ${wait.statement ?? ''}`,
      );
      if (wait.queuedBehind?.length)
        out.push(`    queued behind thread ${wait.queuedBehind.join(', ')} (its request goes first)`);
      for (const holder of wait.holders) {
        out.push(
          `    held by thread ${holder.threadId ?? '?'} (${holder.user ?? '?'}${holder.trxAgeSeconds !== null ? `, open trx ${holder.trxAgeSeconds} s` : ''}) ${holder.lockType ?? ''} ${holder.statement ?? ''}`.trimEnd(),
        );
      }
    }
  }
  if (history.length > 0) {
    out.push('', 'Deadlocks seen:');
    for (const entry of history) {
      const deadlock = entry.latest;
      out.push(
        `  ${deadlock.detectedAt ?? '?'} ×${entry.occurrences} [${entry.fingerprint}] victim (${deadlock.victim ?? '?'})`,
      );
      for (const txn of deadlock.transactions)
        out.push(
          `    (${txn.number}) trx ${txn.trxId} thread ${txn.threadId ?? '?'}: ${(txn.statement ?? '').replace(/\s+/g, ' ')}`,
        );
    }
  }
  if (snapshot.problems.length > 0) {
    out.push('', 'Not shown:');
    for (const problem of snapshot.problems) out.push(`  - ${problem.message} Fix: ${problem.fix}`);
  }
  return `${out.join('\n')}\n`;
}
