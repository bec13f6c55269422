// The metadata-lock wait tree: the waiting DDL, the sessions holding the lock it needs, the sessions queued behind it.
/*
 * Design note.
 * Input: the metadata locks on tables, one row per session, lock mode and status (GRANTED or PENDING),
 * as performance_schema.metadata_locks reports them on MySQL, or as the service assembles them on
 * MariaDB (METADATA_LOCK_INFO lists granted locks only; pending requests then come from the
 * processlist state "Waiting for table metadata lock" and are marked inferred).
 * Who blocks whom follows the server's own rules (sql/mdl.cc, MDL_object_lock): a pending request
 * waits for every GRANTED lock of another session that its mode is incompatible with (the "granted"
 * matrix), and for every EARLIER pending request of another session that has priority over it (the
 * "waiting" matrix: a pending EXCLUSIVE makes every later SHARED_READ wait, even though the granted
 * SHARED_READ of an open transaction would not). That is why the flat view was wrong: it listed every
 * granted lock on the table as "held by", so a reader queued behind an ALTER was shown as blocked by
 * the transaction the ALTER waits for, and by the ALTER's own SHARED_UPGRADABLE.
 * A group is one request that waits for granted locks (usually the DDL): its holders are the sessions
 * whose granted locks conflict with it; its queue is every later request that waits, directly or
 * through another queued request, for it. Queue order is the wait time (longest first): the tables
 * carry no queue position. The session whose kill would unblock the group is its holder.
 */

/** Metadata lock modes (MDL_object_lock types; SWLP is MySQL's SHARED_WRITE_LOW_PRIO). */
export type MdlMode = 'S' | 'SH' | 'SR' | 'SW' | 'SWLP' | 'SU' | 'SRO' | 'SNW' | 'SNRW' | 'X';

const MODE_NAMES: Record<string, MdlMode> = {
  SHARED: 'S',
  SHARED_HIGH_PRIO: 'SH',
  SHARED_READ: 'SR',
  SHARED_WRITE: 'SW',
  SHARED_WRITE_LOW_PRIO: 'SWLP',
  SHARED_UPGRADABLE: 'SU',
  SHARED_READ_ONLY: 'SRO',
  SHARED_NO_WRITE: 'SNW',
  SHARED_NO_READ_WRITE: 'SNRW',
  EXCLUSIVE: 'X',
};

/** `SHARED_READ` (MySQL) or `MDL_SHARED_READ` (MariaDB) → `SR`; null for a type we do not model. */
export function mdlMode(name: string | null | undefined): MdlMode | null {
  if (!name) return null;
  return MODE_NAMES[name.toUpperCase().replace(/^MDL_/, '')] ?? null;
}

const ALL: readonly MdlMode[] = ['S', 'SH', 'SR', 'SW', 'SWLP', 'SU', 'SRO', 'SNW', 'SNRW', 'X'];

/** Granted modes that make a request of the key's mode wait (mdl.cc m_granted_incompatible). */
const GRANTED_INCOMPATIBLE: Record<MdlMode, readonly MdlMode[]> = {
  S: ['X'],
  SH: ['X'],
  SR: ['X', 'SNRW'],
  SW: ['X', 'SNRW', 'SNW', 'SRO'],
  SWLP: ['X', 'SNRW', 'SNW', 'SRO'],
  SU: ['X', 'SNRW', 'SNW', 'SU'],
  SRO: ['X', 'SNRW', 'SW', 'SWLP'],
  SNW: ['X', 'SNRW', 'SNW', 'SU', 'SW', 'SWLP'],
  SNRW: ['X', 'SNRW', 'SNW', 'SRO', 'SU', 'SW', 'SWLP', 'SR'],
  X: ALL,
};

/** Earlier pending modes a request of the key's mode must let go first (mdl.cc m_waiting_incompatible). */
const WAITING_INCOMPATIBLE: Record<MdlMode, readonly MdlMode[]> = {
  S: ['X'],
  SH: [],
  SR: ['X', 'SNRW'],
  SW: ['X', 'SNRW', 'SNW'],
  SWLP: ['X', 'SNRW', 'SNW', 'SRO'],
  SU: ['X'],
  SRO: ['X', 'SNRW', 'SW', 'SWLP'],
  SNW: ['X'],
  SNRW: ['X'],
  X: [],
};

/** True when a granted lock of mode `granted` (another session's) makes a request of mode `request` wait. */
export function grantedBlocks(request: MdlMode, granted: MdlMode): boolean {
  return GRANTED_INCOMPATIBLE[request].includes(granted);
}

/** True when an earlier pending request of mode `pending` (another session's) goes before `request`. */
export function pendingBlocks(request: MdlMode, pending: MdlMode): boolean {
  return WAITING_INCOMPATIBLE[request].includes(pending);
}

/** One metadata lock (granted or requested) of one session on one table. */
export interface MdlLockRow {
  threadId: number;
  schema: string | null;
  table: string | null;
  /** The server's name: `SHARED_READ`, `EXCLUSIVE`, `MDL_SHARED_UPGRADABLE`, … */
  mode: string;
  status: 'GRANTED' | 'PENDING';
  /** Not read from the server's lock table: inferred from the processlist (and the statement). */
  inferred?: boolean;
}

/** A session in the tree, as the processlist and INNODB_TRX describe it. */
export interface MdlSession {
  threadId: number;
  user: string | null;
  host: string | null;
  db: string | null;
  /** Processlist COMMAND (`Query`, `Sleep`, …). */
  command: string | null;
  /** Processlist STATE (`Waiting for table metadata lock`, …). */
  state: string | null;
  /** Seconds in the current state (processlist TIME): for a waiter, how long it has waited. */
  seconds: number | null;
  /** The running statement, or the last one of an idle session (see `statementSource`). */
  statement: string | null;
  statementSource: 'current' | 'last' | null;
  /** Seconds since its InnoDB transaction started; null without an open transaction. */
  trxAgeSeconds: number | null;
}

/** One session's part in a group: the mode it holds (holders) or requests (waiter, queue). */
export interface MdlParticipant {
  session: MdlSession;
  /** The server's mode name, or null when not known (an inferred holder). */
  mode: string | null;
  /** Attributed by inference (open transaction, processlist state), not by the server's lock table. */
  inferred: boolean;
}

/** A waiting request (usually DDL), who holds what it needs, and who queues behind it. */
export interface MetadataWaitGroup {
  schema: string | null;
  table: string | null;
  waiter: MdlParticipant;
  holders: MdlParticipant[];
  queued: MdlParticipant[];
  /** Where the locks come from: MySQL's metadata_locks, MariaDB's METADATA_LOCK_INFO, or inferred. */
  source: 'metadata_locks' | 'metadata_lock_info' | 'inferred';
}

const unknownSession = (threadId: number): MdlSession => ({
  threadId,
  user: null,
  host: null,
  db: null,
  command: null,
  state: null,
  seconds: null,
  statement: null,
  statementSource: null,
  trxAgeSeconds: null,
});

/**
 * Group the metadata locks into wait groups (see the design note). Locks of a mode that is not
 * modelled are ignored; a pending request no granted lock explains gets a group with no holders.
 */
export function buildMetadataWaitTree(
  locks: readonly MdlLockRow[],
  sessions: ReadonlyMap<number, MdlSession>,
  source: MetadataWaitGroup['source'],
): MetadataWaitGroup[] {
  const sessionOf = (threadId: number): MdlSession => sessions.get(threadId) ?? unknownSession(threadId);
  const objects = new Map<string, MdlLockRow[]>();
  for (const lock of locks) {
    if (!mdlMode(lock.mode)) continue;
    const key = JSON.stringify([lock.schema, lock.table]);
    objects.set(key, [...(objects.get(key) ?? []), lock]);
  }
  const groups: MetadataWaitGroup[] = [];
  for (const rows of objects.values()) {
    const granted = rows.filter((row) => row.status === 'GRANTED');
    // Longest wait first: the server's queue order is not exposed.
    const pending = rows
      .filter((row) => row.status === 'PENDING')
      .sort(
        (a, b) =>
          (sessionOf(b.threadId).seconds ?? 0) - (sessionOf(a.threadId).seconds ?? 0) ||
          a.threadId - b.threadId,
      );
    const aheadOf = new Map<MdlLockRow, MdlLockRow[]>();
    pending.forEach((request, index) => {
      const mode = mdlMode(request.mode) as MdlMode;
      aheadOf.set(
        request,
        pending
          .slice(0, index)
          .filter(
            (other) =>
              other.threadId !== request.threadId && pendingBlocks(mode, mdlMode(other.mode) as MdlMode),
          ),
      );
    });
    for (const request of pending) {
      const mode = mdlMode(request.mode) as MdlMode;
      const blockers = granted.filter(
        (lock) => lock.threadId !== request.threadId && grantedBlocks(mode, mdlMode(lock.mode) as MdlMode),
      );
      const aheads = aheadOf.get(request) ?? [];
      // Queued only behind other requests: shown in their group's queue.
      if (blockers.length === 0 && aheads.length > 0) continue;
      const holders = new Map<number, MdlParticipant>();
      for (const lock of blockers) {
        const held = holders.get(lock.threadId);
        // One entry per session, with its strongest conflicting mode.
        if (!held || strength(lock.mode) > strength(held.mode))
          holders.set(lock.threadId, {
            session: sessionOf(lock.threadId),
            mode: lock.inferred ? null : lock.mode,
            inferred: lock.inferred === true,
          });
      }
      const queue = new Set<MdlLockRow>();
      for (const other of pending) {
        const behind = aheadOf.get(other) ?? [];
        if (other !== request && behind.some((ahead) => ahead === request || queue.has(ahead)))
          queue.add(other);
      }
      groups.push({
        schema: request.schema,
        table: request.table,
        waiter: {
          session: sessionOf(request.threadId),
          mode: request.mode,
          inferred: request.inferred === true,
        },
        holders: [...holders.values()],
        queued: [...queue].map((row) => ({
          session: sessionOf(row.threadId),
          mode: row.mode,
          inferred: row.inferred === true,
        })),
        source,
      });
    }
  }
  // The group blocking the most sessions first, then the longest wait.
  return groups.sort(
    (a, b) =>
      b.queued.length - a.queued.length || (b.waiter.session.seconds ?? 0) - (a.waiter.session.seconds ?? 0),
  );
}

function strength(mode: string | null): number {
  const parsed = mdlMode(mode);
  return parsed ? ALL.indexOf(parsed) : -1;
}

/** Statements that take an exclusive metadata lock on their table while they run (DDL). */
const DDL = /^\s*(?:\/\*.*?\*\/\s*)*(ALTER|CREATE|DROP|TRUNCATE|RENAME|OPTIMIZE|REPAIR|ANALYZE|LOCK)\b/is;

/** True when a statement is DDL-like (it requests an exclusive metadata lock). */
export function isDdlStatement(sql: string | null): boolean {
  return sql !== null && DDL.test(sql);
}

/**
 * The metadata lock a waiting statement most likely requests, from its text alone (MariaDB without
 * lock instrumentation): DDL → EXCLUSIVE, a write → SHARED_WRITE, anything else → SHARED_READ.
 */
export function inferRequestedMode(sql: string | null): string {
  if (isDdlStatement(sql)) return 'EXCLUSIVE';
  return sql !== null && /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql) ? 'SHARED_WRITE' : 'SHARED_READ';
}

/**
 * The table a DDL statement names (`ALTER TABLE [db.]t`, `CREATE INDEX i ON t`, `DROP TABLE t`,
 * `TRUNCATE [TABLE] t`, `RENAME TABLE t TO …`, `OPTIMIZE/ANALYZE/REPAIR TABLE t`), or null. Only
 * read, never executed: the text belongs to another session.
 */
export function ddlTable(sql: string | null): { schema: string | null; table: string } | null {
  if (!sql) return null;
  const name = '(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)';
  const qualified = `${name}(?:\\s*\\.\\s*${name})?`;
  const patterns = [
    new RegExp(`^\\s*ALTER\\s+(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE\\s+(?:IF\\s+EXISTS\\s+)?${qualified}`, 'i'),
    new RegExp(
      `^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:ONLINE\\s+|OFFLINE\\s+)?(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${name}(?:\\s+USING\\s+\\w+)?\\s+ON\\s+${qualified}`,
      'i',
    ),
    new RegExp(`^\\s*DROP\\s+INDEX\\s+(?:IF\\s+EXISTS\\s+)?${name}\\s+ON\\s+${qualified}`, 'i'),
    new RegExp(
      `^\\s*(?:DROP\\s+(?:TEMPORARY\\s+)?TABLE\\s+(?:IF\\s+EXISTS\\s+)?|TRUNCATE\\s+(?:TABLE\\s+)?|RENAME\\s+TABLE\\s+|(?:OPTIMIZE|ANALYZE|REPAIR)\\s+(?:NO_WRITE_TO_BINLOG\\s+|LOCAL\\s+)?TABLE\\s+)${qualified}`,
      'i',
    ),
  ];
  const unquote = (part: string | undefined): string | null =>
    part === undefined ? null : part.startsWith('`') ? part.slice(1, -1).replace(/``/g, '`') : part;
  for (const [index, pattern] of patterns.entries()) {
    const match = pattern.exec(sql);
    if (!match) continue;
    // CREATE/DROP INDEX capture the index name first.
    const [first, second] = index === 1 || index === 2 ? [match[2], match[3]] : [match[1], match[2]];
    const a = unquote(first);
    const b = unquote(second);
    if (!a) return null;
    return b ? { schema: a, table: b } : { schema: null, table: a };
  }
  return null;
}

/** True when `sql` names `table` as an identifier (plain or backquoted, case-insensitive). */
export function mentionsTable(sql: string | null, table: string): boolean {
  if (!sql) return false;
  const escaped = table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_$])\`?${escaped}\`?($|[^A-Za-z0-9_$])`, 'i').test(sql);
}
