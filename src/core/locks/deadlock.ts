// Parses the LATEST DETECTED DEADLOCK section of SHOW ENGINE INNODB STATUS (MySQL 8 and MariaDB).
/*
 * Design note.
 * A line-oriented state machine over the section between `LATEST DETECTED DEADLOCK` and the next
 * section header (`TRANSACTIONS`, a line of dashes followed by a capitalised title).
 * States: `header` (timestamp line) → per transaction: `txn` (TRANSACTION / tables / lock structs /
 * thread id lines, then the statement, which can span lines until a blank line or a `***` marker)
 * → `lock` blocks. Markers:
 *   MySQL 8:  `*** (n) TRANSACTION:`, `*** (n) HOLDS THE LOCK(S):`, `*** (n) WAITING FOR THIS LOCK TO BE GRANTED:`
 *   MariaDB:  `*** (n) TRANSACTION:`, `*** WAITING FOR THIS LOCK TO BE GRANTED:`, `*** CONFLICTING WITH:`
 *             (MariaDB prints the *other* transaction's conflicting lock; we file it under the
 *             transaction whose `trx id` the lock line names, so held locks end up where they belong.)
 *   MySQL 5.7: `*** (2) HOLDS THE LOCK(S):` only for the second transaction.
 * Lock lines: `RECORD LOCKS space id S page no P n bits B index I of table `db`.`t` trx id T lock_mode …`
 * and `TABLE LOCK table `db`.`t` trx id T lock mode IX`; the physical record dump under a record
 * lock is kept as hex fields. The victim comes from `*** WE ROLL BACK TRANSACTION (n)`.
 * Unknown lines are ignored, so extra lines in newer versions do not break the parse.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { classifyLockMode, modeFromStatusText } from './lock-mode.js';
import type { LockGranularity } from './types.js';

/** One field of a physical record dump (` 0: len 4; hex 80000001; asc     ;;`). */
export interface RecordField {
  position: number;
  /** Hex bytes, or null for `SQL NULL`. */
  hex: string | null;
}

/** A record under a record lock. `supremum` marks the page's supremum pseudo-record. */
export interface DeadlockRecord {
  heapNo: number;
  supremum: boolean;
  fields: RecordField[];
}

/** One lock of a deadlock report, mode translated to data_locks notation (`X,REC_NOT_GAP`). */
export interface DeadlockLock {
  lockType: 'RECORD' | 'TABLE';
  mode: string;
  strength: string;
  granularity: LockGranularity;
  /** The status line's prose, unchanged (`lock_mode X locks rec but not gap waiting`). */
  modeText: string;
  schema: string | null;
  table: string | null;
  index: string | null;
  /** The transaction the lock line names. */
  trxId: string | null;
  waiting: boolean;
  records: DeadlockRecord[];
}

/** One transaction of a deadlock. */
export interface DeadlockTransaction {
  /** The `(n)` of the report. */
  number: number;
  trxId: string;
  activeSeconds: number | null;
  /** What the transaction was doing (`starting index read`, `fetching rows`, …). */
  operationState: string | null;
  threadId: number | null;
  queryId: number | null;
  host: string | null;
  user: string | null;
  /** The thread's state word(s) after user (`updating`, `statistics`, …). */
  threadState: string | null;
  statement: string | null;
  tablesInUse: number | null;
  tablesLocked: number | null;
  lockStructs: number | null;
  rowLocks: number | null;
  undoLogEntries: number | null;
  holds: DeadlockLock[];
  waitsFor: DeadlockLock | null;
}

/** A parsed deadlock. */
export interface Deadlock {
  /** The report's timestamp as printed (`2026-11-21 23:37:23`), server time zone. */
  detectedAt: string | null;
  transactions: DeadlockTransaction[];
  /** The `(n)` rolled back, and its trx id. */
  victim: number | null;
  victimTrxId: string | null;
  /** Stable across repeats of the same deadlock pattern (statements without literals, tables, indexes, modes). */
  fingerprint: string;
}

/** Extract the LATEST DETECTED DEADLOCK section's lines from the full status text (null when absent). */
export function extractDeadlockSection(status: string): string[] | null {
  const lines = status.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === 'LATEST DETECTED DEADLOCK');
  if (start === -1) return null;
  const body: string[] = [];
  for (let i = start + 1; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const next = lines[i + 1] ?? '';
    // A section header is a dashed line, then an upper-case title, then a dashed line.
    if (/^-{3,}$/.test(line) && /^[A-Z][A-Z /]+$/.test(next.trim()) && i > start + 1) break;
    body.push(line);
  }
  return body;
}

/** Parse the latest deadlock from SHOW ENGINE INNODB STATUS text; null when the server has seen none. */
export function parseLatestDeadlock(status: string): Deadlock | null {
  const lines = extractDeadlockSection(status);
  if (!lines) return null;
  const transactions: DeadlockTransaction[] = [];
  let detectedAt: string | null = null;
  let victim: number | null = null;
  let current: DeadlockTransaction | null = null;
  let mode: 'none' | 'txn' | 'statement' | 'holds' | 'waits' | 'conflicts' = 'none';
  let lock: DeadlockLock | null = null;
  let record: DeadlockRecord | null = null;
  const pendingConflicts: DeadlockLock[] = [];
  const statementLines: string[] = [];

  const flushStatement = (): void => {
    if (current && statementLines.length > 0 && current.statement === null) {
      current.statement = statementLines.join('\n').trim() || null;
    }
    statementLines.length = 0;
  };

  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (detectedAt === null && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(line)) {
      detectedAt = line.slice(0, 19);
      continue;
    }
    let match = /^\*\*\* \((\d+)\) TRANSACTION:/.exec(line);
    if (match) {
      flushStatement();
      current = emptyTransaction(Number(match[1]));
      transactions.push(current);
      mode = 'txn';
      lock = null;
      continue;
    }
    match = /^\*\*\* WE ROLL BACK TRANSACTION \((\d+)\)/.exec(line);
    if (match) {
      flushStatement();
      victim = Number(match[1]);
      mode = 'none';
      continue;
    }
    if (/^\*\*\* (\(\d+\) )?HOLDS THE LOCK\(S\):/.test(line)) {
      flushStatement();
      mode = 'holds';
      lock = null;
      continue;
    }
    if (/^\*\*\* (\(\d+\) )?WAITING FOR THIS LOCK TO BE GRANTED:/.test(line)) {
      flushStatement();
      mode = 'waits';
      lock = null;
      continue;
    }
    if (/^\*\*\* CONFLICTING WITH:/.test(line)) {
      flushStatement();
      mode = 'conflicts';
      lock = null;
      continue;
    }
    if (line.startsWith('***')) {
      flushStatement();
      mode = 'none';
      continue;
    }
    if (!current) continue;

    if (mode === 'txn' || mode === 'statement') {
      if (mode === 'statement') {
        if (line.trim() === '') {
          flushStatement();
          mode = 'none';
        } else statementLines.push(raw);
        continue;
      }
      if (readTransactionLine(current, line)) {
        if (/^(MySQL|MariaDB) thread id /.test(line)) mode = 'statement';
        continue;
      }
      continue;
    }

    if (mode === 'holds' || mode === 'waits' || mode === 'conflicts') {
      const parsed = parseLockLine(line);
      if (parsed) {
        lock = parsed;
        record = null;
        if (mode === 'waits') {
          lock.waiting = true;
          current.waitsFor = lock;
        } else if (mode === 'holds') current.holds.push(lock);
        else pendingConflicts.push(lock);
        continue;
      }
      match = /^Record lock, heap no (\d+)/.exec(line);
      if (match && lock) {
        record = { heapNo: Number(match[1]), supremum: false, fields: [] };
        lock.records.push(record);
        continue;
      }
      match = /^\s*(\d+): (?:len \d+; hex ([0-9a-f]*);\s*asc (.*);;|SQL NULL;)/.exec(line);
      if (match && record) {
        const hex = match[2] ?? null;
        record.fields.push({ position: Number(match[1]), hex });
        if (record.fields.length === 1 && hex === '73757072656d756d') record.supremum = true;
      }
    }
  }
  flushStatement();

  // MariaDB: a conflicting lock belongs to the transaction whose trx id it names.
  for (const conflict of pendingConflicts) {
    const owner = transactions.find((txn) => txn.trxId === conflict.trxId);
    if (owner && !owner.holds.some((held) => sameLock(held, conflict))) owner.holds.push(conflict);
  }

  if (transactions.length === 0) return null;
  const victimTrxId = transactions.find((txn) => txn.number === victim)?.trxId ?? null;
  return { detectedAt, transactions, victim, victimTrxId, fingerprint: deadlockFingerprint(transactions) };
}

function emptyTransaction(number: number): DeadlockTransaction {
  return {
    number,
    trxId: '',
    activeSeconds: null,
    operationState: null,
    threadId: null,
    queryId: null,
    host: null,
    user: null,
    threadState: null,
    statement: null,
    tablesInUse: null,
    tablesLocked: null,
    lockStructs: null,
    rowLocks: null,
    undoLogEntries: null,
    holds: [],
    waitsFor: null,
  };
}

/** Fill a transaction from one of its header lines; false when the line is not a header line. */
function readTransactionLine(txn: DeadlockTransaction, line: string): boolean {
  let match = /^TRANSACTION (\d+), ACTIVE (\d+) sec(?:\s+(.*))?$/.exec(line);
  if (match) {
    txn.trxId = match[1] ?? '';
    txn.activeSeconds = Number(match[2]);
    txn.operationState = match[3]?.trim() || null;
    return true;
  }
  match = /^mysql tables in use (\d+), locked (\d+)/.exec(line);
  if (match) {
    txn.tablesInUse = Number(match[1]);
    txn.tablesLocked = Number(match[2]);
    return true;
  }
  if (/lock struct\(s\)/.test(line)) {
    txn.lockStructs = numberAfter(line, /(\d+) lock struct\(s\)/);
    txn.rowLocks = numberAfter(line, /(\d+) row lock\(s\)/);
    txn.undoLogEntries = numberAfter(line, /undo log entries (\d+)/);
    return true;
  }
  match =
    /^(?:MySQL|MariaDB) thread id (\d+), OS thread handle [^,]+, query id (\d+)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(.*))?$/.exec(
      line,
    );
  if (match) {
    txn.threadId = Number(match[1]);
    txn.queryId = Number(match[2]);
    txn.host = match[3] ?? null;
    txn.user = match[4] ?? null;
    txn.threadState = match[5]?.trim() || null;
    return true;
  }
  return false;
}

function numberAfter(line: string, pattern: RegExp): number | null {
  const match = pattern.exec(line);
  return match ? Number(match[1]) : null;
}

function parseLockLine(line: string): DeadlockLock | null {
  let match =
    /^RECORD LOCKS space id \d+ page no \d+ n bits \d+ index (\S+) of table (\S+) trx id (\d+) (.*)$/.exec(
      line,
    );
  if (match) return makeLock('RECORD', match[1] ?? null, match[2] ?? '', match[3] ?? null, match[4] ?? '');
  match = /^TABLE LOCK table (\S+) trx id (\d+) (.*)$/.exec(line);
  if (match) return makeLock('TABLE', null, match[1] ?? '', match[2] ?? null, match[3] ?? '');
  return null;
}

function makeLock(
  lockType: 'RECORD' | 'TABLE',
  index: string | null,
  table: string,
  trxId: string | null,
  modeText: string,
): DeadlockLock {
  const [schema, name] = splitQualifiedName(table);
  const mode = modeFromStatusText(modeText);
  const { strength, granularity } = classifyLockMode(lockType, mode, null, 'innodb_status');
  return {
    lockType,
    mode,
    strength,
    granularity,
    modeText: modeText.trim(),
    schema,
    table: name,
    index: index ? unquote(index) : null,
    trxId,
    waiting: /\bwaiting\b/.test(modeText),
    records: [],
  };
}

/** `` `db`.`t` `` → ['db', 't']. */
function splitQualifiedName(text: string): [string | null, string | null] {
  const parts = text.match(/`(?:[^`]|``)*`|[^.`]+/g) ?? [];
  const names = parts.map(unquote);
  if (names.length >= 2) return [names[0] ?? null, names.slice(1).join('.')];
  return [null, names[0] ?? null];
}

function unquote(name: string): string {
  return name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name;
}

function sameLock(a: DeadlockLock, b: DeadlockLock): boolean {
  return (
    a.lockType === b.lockType &&
    a.mode === b.mode &&
    a.table === b.table &&
    a.index === b.index &&
    a.trxId === b.trxId
  );
}

/** Replace literals by `?` and collapse whitespace (enough to group repeats of one deadlock pattern). */
export function normalizeStatement(sql: string): string {
  return sql
    .replace(/'(?:[^'\\]|\\.|'')*'/g, '?')
    .replace(/"(?:[^"\\]|\\.|"")*"/g, '?')
    .replace(/\b0x[0-9a-f]+\b/gi, '?')
    .replace(/(?<![\w`])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '?')
    .replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(?+)')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Fingerprint of a deadlock: sha256 over each transaction's normalized statement and the
 * table/index/mode of its held and waited locks, transactions sorted, so ids, timestamps, thread
 * ids, literal values and which side was (1) or (2) do not matter.
 */
export function deadlockFingerprint(transactions: readonly DeadlockTransaction[]): string {
  const describe = (lock: DeadlockLock): string =>
    `${lock.lockType}:${lock.schema}.${lock.table}:${lock.index}:${lock.mode}`;
  const signatures = transactions
    .map((txn) =>
      [
        normalizeStatement(txn.statement ?? ''),
        `waits ${txn.waitsFor ? describe(txn.waitsFor) : '-'}`,
        `holds ${[...new Set(txn.holds.map(describe))].sort().join(';')}`,
      ].join('|'),
    )
    .sort();
  return bytesToHex(sha256(utf8ToBytes(signatures.join('\n')))).slice(0, 16);
}

/** Keep a history of distinct deadlocks: adds `deadlock` unless one with the same fingerprint and timestamp is known. */
export function addToDeadlockHistory(
  history: readonly DeadlockHistoryEntry[],
  deadlock: Deadlock,
): { history: DeadlockHistoryEntry[]; added: boolean } {
  const existing = history.find((entry) => entry.fingerprint === deadlock.fingerprint);
  if (existing) {
    if (existing.lastDetectedAt === deadlock.detectedAt) return { history: [...history], added: false };
    const updated = history.map((entry) =>
      entry === existing
        ? {
            ...entry,
            occurrences: entry.occurrences + 1,
            lastDetectedAt: deadlock.detectedAt,
            latest: deadlock,
          }
        : entry,
    );
    return { history: updated, added: true };
  }
  return {
    history: [
      ...history,
      {
        fingerprint: deadlock.fingerprint,
        occurrences: 1,
        firstDetectedAt: deadlock.detectedAt,
        lastDetectedAt: deadlock.detectedAt,
        latest: deadlock,
      },
    ],
    added: true,
  };
}

/** One distinct deadlock pattern seen during a session (the workspace keeps these). */
export interface DeadlockHistoryEntry {
  fingerprint: string;
  occurrences: number;
  firstDetectedAt: string | null;
  lastDetectedAt: string | null;
  latest: Deadlock;
}
