// Locking-read rewrites (NOWAIT, SKIP LOCKED, WAIT n, lock-wait timeout) and lock advice, done on the AST.
/*
 * Design note.
 * node-sql-parser 5.4 keeps a SELECT's locking clause as one string on the select node:
 * `locking_read: "FOR UPDATE" | "LOCK IN SHARE MODE" | "FOR UPDATE NOWAIT" | "FOR UPDATE WAIT 5" | …`
 * (original spelling and case kept). In a UNION without parentheses a trailing clause sits on the
 * last branch (`_next`), as the server binds it; parenthesised branches and subqueries carry their
 * own. A clause written after LIMIT's position (`FOR UPDATE LIMIT 1`) is kept as `_limit`; both
 * servers reject that order, so we move it to `limit`.
 * The rewrite walks every select node, replaces the option part of each locking clause, prints
 * with sqlify, re-parses, and checks that the re-parsed AST equals the round-tripped original in
 * everything but the locking clauses. Anything the parser cannot represent is reported as
 * "cannot rewrite" with the reason, never patched as text:
 *   - `FOR SHARE` (MySQL 8 syntax) does not parse in 5.4; MySQL's `LOCK IN SHARE MODE` takes no
 *     NOWAIT/SKIP LOCKED (ERROR 1064 on 8.0.33), so a shared lock on MySQL cannot be rewritten here;
 *   - `FOR UPDATE OF t`, and NOWAIT combined with SKIP LOCKED, do not parse.
 * The session `innodb_lock_wait_timeout` alternative does not change the statement, so it is offered
 * even when the statement cannot be rewritten (when it still looks like a locking read).
 */

import type { Capabilities, Flavor } from '../flavors/capabilities.js';
import { parseStatement, printSql, type AstNode } from '../sql/parse.js';

/** Kinds of rewrite; the CLI JSON's `rewrites[].kind`. */
export type LockRewriteKind = 'nowait' | 'skip-locked' | 'wait' | 'lock-wait-timeout';

/** One offered rewrite with its caveats and an application snippet. */
export interface LockRewrite {
  kind: LockRewriteKind;
  sql: string;
  notes: string[];
  /** JavaScript (mysql2) showing how the application handles the error or the empty result. */
  snippet: string;
  /** The error a lock conflict raises with this rewrite (3572 or 1205), when it fails instead of waiting. */
  errorCode: number | null;
  /** False when the rewrite would be wrong for this statement (e.g. SKIP LOCKED on an aggregate). */
  recommended: boolean;
}

/** A rewrite the target or the parser does not allow, and why. */
export interface UnavailableRewrite {
  kind: LockRewriteKind;
  reason: string;
}

/** The lock strength and option of one locking clause. */
export interface LockingClause {
  /** As written: `FOR UPDATE`, `LOCK IN SHARE MODE`, `FOR UPDATE NOWAIT`, … */
  text: string;
  strength: 'update' | 'share';
  option: 'none' | 'nowait' | 'skip-locked' | 'wait';
}

/** Result of {@link rewriteLockingRead}. */
export interface LockingReadResult {
  /** `ok`: parsed and rewritten; `cannot-rewrite`: a locking read the parser cannot handle; `not-locking-read`. */
  status: 'ok' | 'cannot-rewrite' | 'not-locking-read';
  /** Why it could not be rewritten (parse error, unsupported syntax). */
  reason?: string;
  clauses: LockingClause[];
  rewrites: LockRewrite[];
  unavailable: UnavailableRewrite[];
}

/** The server a rewrite is made for. `ServerInfo` satisfies it. */
export interface LockTarget {
  flavor: Flavor;
  capabilities: Capabilities;
}

/** Options for {@link rewriteLockingRead}. */
export interface RewriteOptions {
  /** Seconds for MariaDB `WAIT n` (default 5). */
  waitSeconds?: number;
  /** Seconds for the session innodb_lock_wait_timeout alternative (default 1, the minimum). */
  lockWaitTimeoutSeconds?: number;
}

const LOCKING_TEXT = /\bFOR\s+(?:UPDATE|SHARE)\b|\bLOCK\s+IN\s+SHARE\s+MODE\b/i;

/**
 * Offer NOWAIT / SKIP LOCKED / WAIT n rewrites of one locking read (`SELECT … FOR UPDATE`, `FOR SHARE`,
 * `LOCK IN SHARE MODE`), each only when `target.capabilities` allow it, else the session
 * `innodb_lock_wait_timeout` alternative. Never throws.
 */
export function rewriteLockingRead(
  sql: string,
  target: LockTarget,
  options: RewriteOptions = {},
): LockingReadResult {
  const caps = target.capabilities;
  const trimmed = sql.trim().replace(/;\s*$/, '');
  const parsed = parseStatement(trimmed, target.flavor);
  const looksLocking = LOCKING_TEXT.test(trimmed);
  if (!parsed.ok) {
    if (!looksLocking) return { status: 'not-locking-read', clauses: [], rewrites: [], unavailable: [] };
    const reason = /\bFOR\s+SHARE\b/i.test(trimmed)
      ? `The SQL parser (node-sql-parser 5.4) cannot read FOR SHARE, so this statement cannot be rewritten safely. ${parsed.message}`
      : `The SQL parser cannot read this statement, so it cannot be rewritten safely. ${parsed.message}`;
    const fallback = lockWaitTimeoutRewrite(trimmed, target, options);
    return { status: 'cannot-rewrite', reason, clauses: [], rewrites: [fallback], unavailable: [] };
  }

  const original = parsed.ast;
  const selects = lockingSelects(original);
  if (selects.length === 0) return { status: 'not-locking-read', clauses: [], rewrites: [], unavailable: [] };
  const clauses = selects.map((node) => describeClause(String(node.locking_read)));

  // The original printed and parsed again: the reference every rewrite is compared with (parsed once;
  // node-sql-parser takes ~15-20 ms per parse).
  let memo: { ok: true; ast: AstNode } | { ok: false; reason: string } | undefined;
  const roundTrip = (): { ok: true; ast: AstNode } | { ok: false; reason: string } => {
    if (memo) return memo;
    try {
      const again = parseStatement(printSql(original, target.flavor), target.flavor);
      memo = again.ok
        ? { ok: true, ast: again.ast }
        : {
            ok: false,
            reason: `The statement does not survive a print/parse round trip (${again.message}).`,
          };
    } catch (error) {
      memo = { ok: false, reason: `The SQL printer could not print the statement (${messageOf(error)}).` };
    }
    return memo;
  };
  const rewrites: LockRewrite[] = [];
  const unavailable: UnavailableRewrite[] = [];
  const hasShare = clauses.some((clause) => clause.strength === 'share');
  const aggregates = containsAggregate(original);

  const attempt = (
    kind: Exclude<LockRewriteKind, 'lock-wait-timeout'>,
    option: string,
    gate: boolean,
    gateReason: string,
  ): void => {
    if (!gate) {
      unavailable.push({ kind, reason: gateReason });
      return;
    }
    if (clauses.every((clause) => clause.option === optionOf(kind))) {
      unavailable.push({ kind, reason: `The statement already uses ${option}.` });
      return;
    }
    if (hasShare && target.flavor !== 'mariadb') {
      unavailable.push({
        kind,
        reason: `MySQL accepts ${option} only after FOR SHARE (LOCK IN SHARE MODE takes no options), and the SQL parser (node-sql-parser 5.4) cannot read FOR SHARE, so this rewrite cannot be checked. Write FOR SHARE ${option} by hand.`,
      });
      return;
    }
    const result = applyOption(original, target.flavor, option, roundTrip);
    if (!result.ok) {
      unavailable.push({ kind, reason: result.reason });
      return;
    }
    rewrites.push(
      describeRewrite(kind, result.sql, target, options, { aggregates, movedLimit: result.movedLimit }),
    );
  };

  const version = (need: string): string => `Needs ${need}.`;
  attempt('nowait', 'NOWAIT', caps.nowait, version('MySQL >= 8.0.1 or MariaDB >= 10.3'));
  attempt('skip-locked', 'SKIP LOCKED', caps.skipLocked, version('MySQL >= 8.0.1 or MariaDB >= 10.6'));
  if (caps.waitN) attempt('wait', `WAIT ${waitSecondsOf(options)}`, true, '');
  const failsFastAlready = clauses.every((clause) => clause.option === 'nowait');
  if (!failsFastAlready && !rewrites.some((rewrite) => rewrite.kind === 'nowait'))
    rewrites.push(lockWaitTimeoutRewrite(trimmed, target, options));
  return { status: 'ok', clauses, rewrites, unavailable };
}

function optionOf(kind: Exclude<LockRewriteKind, 'lock-wait-timeout'>): LockingClause['option'] {
  return kind;
}

function waitSecondsOf(options: RewriteOptions): number {
  return Math.max(0, Math.floor(options.waitSeconds ?? 5));
}

/** Every select node (top level, union branches, subqueries, derived tables) that has a locking clause. */
function lockingSelects(ast: unknown): AstNode[] {
  const found: AstNode[] = [];
  walk(ast, (node) => {
    if (node.type === 'select' && typeof node.locking_read === 'string' && node.locking_read.trim() !== '')
      found.push(node);
  });
  return found;
}

function walk(value: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const node = value as AstNode;
  visit(node);
  for (const [key, child] of Object.entries(node)) if (key !== 'loc') walk(child, visit);
}

/** Classify a locking clause string as the parser keeps it. */
export function describeClause(text: string): LockingClause {
  const upper = text.toUpperCase().replace(/\s+/g, ' ').trim();
  const strength = upper.startsWith('FOR UPDATE') ? 'update' : 'share';
  const option = /\bNOWAIT\b/.test(upper)
    ? 'nowait'
    : /\bSKIP LOCKED\b/.test(upper)
      ? 'skip-locked'
      : /\bWAIT \d+/.test(upper)
        ? 'wait'
        : 'none';
  return { text, strength, option };
}

function baseOf(clause: string): string {
  const upper = clause.toUpperCase().replace(/\s+/g, ' ').trim();
  return upper.startsWith('FOR UPDATE')
    ? 'FOR UPDATE'
    : upper.startsWith('FOR SHARE')
      ? 'FOR SHARE'
      : 'LOCK IN SHARE MODE';
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Strip parser positions and set every locking clause to its base, for comparing statements. */
function comparable(ast: unknown): string {
  const copy = clone(ast);
  walk(copy, (node) => {
    delete node.loc;
    if (node.type === 'select' && typeof node.locking_read === 'string')
      node.locking_read = baseOf(node.locking_read);
  });
  return JSON.stringify(copy);
}

function applyOption(
  original: AstNode,
  flavor: Flavor,
  option: string,
  roundTrip: () => { ok: true; ast: AstNode } | { ok: false; reason: string },
): { ok: true; sql: string; movedLimit: boolean } | { ok: false; reason: string } {
  const copy = clone(original);
  let movedLimit = false;
  walk(copy, (node) => {
    if (node.type !== 'select' || typeof node.locking_read !== 'string' || node.locking_read.trim() === '')
      return;
    node.locking_read = `${baseOf(node.locking_read)} ${option}`;
    // `… FOR UPDATE LIMIT n` is rejected by both servers: LIMIT goes before the locking clause.
    if (node._limit && !node.limit) {
      node.limit = node._limit;
      delete node._limit;
      movedLimit = true;
    }
  });
  let sql: string;
  try {
    sql = printSql(copy, flavor);
  } catch (error) {
    return {
      ok: false,
      reason: `The SQL printer could not print the rewritten statement (${messageOf(error)}).`,
    };
  }
  const reparsed = parseStatement(sql, flavor);
  if (!reparsed.ok)
    return {
      ok: false,
      reason: `The rewritten statement does not parse again (${reparsed.message}); not offered.`,
    };
  const roundTripped = roundTrip();
  if (!roundTripped.ok) return roundTripped;
  const roundTripAst = clone(roundTripped.ast);
  if (movedLimit) {
    walk(roundTripAst, (node) => {
      if (node._limit && !node.limit) {
        node.limit = node._limit;
        delete node._limit;
      }
    });
  }
  if (comparable(roundTripAst) !== comparable(reparsed.ast)) {
    return { ok: false, reason: 'Re-parsing the rewrite changed more than the locking clause; not offered.' };
  }
  const expected = `${option}`.toUpperCase();
  const clausesOk = lockingSelects(reparsed.ast).every((node) =>
    String(node.locking_read).toUpperCase().replace(/\s+/g, ' ').endsWith(expected),
  );
  if (!clausesOk)
    return {
      ok: false,
      reason: `The re-parsed statement does not carry ${option} on every locking clause; not offered.`,
    };
  return { ok: true, sql, movedLimit };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function containsAggregate(ast: AstNode): boolean {
  let found = false;
  walk(ast, (node) => {
    if (node.type === 'aggr_func') found = true;
    if (node.type === 'select' && (node.groupby || node.distinct)) {
      const groupby = node.groupby as { columns?: unknown } | unknown[] | null;
      if (
        node.distinct ||
        (Array.isArray(groupby)
          ? groupby.length > 0
          : Boolean(groupby && (groupby as { columns?: unknown }).columns))
      )
        found = true;
    }
  });
  return found;
}

function describeRewrite(
  kind: Exclude<LockRewriteKind, 'lock-wait-timeout'>,
  sql: string,
  target: LockTarget,
  options: RewriteOptions,
  facts: { aggregates: boolean; movedLimit: boolean },
): LockRewrite {
  const code = target.capabilities.nowaitErrorCode ?? 1205;
  const notes: string[] = [];
  let snippet = '';
  let errorCode: number | null = null;
  let recommended = true;
  if (kind === 'nowait') {
    errorCode = code;
    notes.push(
      code === 3572
        ? 'Fails at once with ERROR 3572 (ER_LOCK_NOWAIT) when a candidate row is locked, instead of waiting up to innodb_lock_wait_timeout seconds.'
        : 'Fails at once with ERROR 1205 when a candidate row is locked (MariaDB uses the lock-wait-timeout code for NOWAIT).',
      'Only the statement fails; the transaction stays open: retry after a short back-off or tell the user the record is busy.',
    );
    snippet = errorSnippet(
      sql,
      code,
      'The row is locked by another transaction: report "busy" or retry after a back-off.',
    );
  } else if (kind === 'wait') {
    errorCode = 1205;
    notes.push(
      `Waits at most ${waitSecondsOf(options)} s for the lock, then fails with ERROR 1205 (MariaDB WAIT n).`,
      'Only the statement fails; the transaction stays open.',
    );
    snippet = errorSnippet(sql, 1205, 'Still locked after the wait: report "busy" or retry later.');
  } else {
    notes.push(
      'Returns only rows no other transaction has locked; locked rows are silently skipped, so the result is non-deterministic.',
      'Use it for work queues (each worker claims different rows). Never for reads whose correctness needs every row: totals, counts, uniqueness or existence checks.',
      'Unsafe for statement-based binary logging (binlog_format=STATEMENT): replicas may lock and change different rows. Use ROW or MIXED.',
      'An empty result means "nothing unlocked right now", not "nothing matches".',
    );
    if (facts.aggregates) {
      recommended = false;
      notes.unshift(
        'Not for this statement: it aggregates (COUNT/SUM/GROUP BY/DISTINCT), and skipped rows would silently change the result.',
      );
    }
    snippet = [
      'await conn.beginTransaction();',
      `const [rows] = await conn.query(${JSON.stringify(sql)});`,
      'if (rows.length === 0) {',
      '  await conn.commit(); // nothing unlocked right now: back off, then poll again',
      '} else {',
      '  // process the claimed rows; they stay locked until COMMIT',
      '  await conn.commit();',
      '}',
    ].join('\n');
  }
  if (facts.movedLimit)
    notes.push('LIMIT was moved before the locking clause, where both servers require it.');
  return { kind, sql, notes, snippet, errorCode, recommended };
}

function errorSnippet(sql: string, code: number, comment: string): string {
  return [
    'try {',
    `  const [rows] = await conn.query(${JSON.stringify(sql)});`,
    '  // … work with the locked rows, then COMMIT',
    '} catch (err) {',
    `  if (err.errno === ${code}) {`,
    `    // ${comment}`,
    '  } else {',
    '    throw err;',
    '  }',
    '}',
  ].join('\n');
}

function lockWaitTimeoutRewrite(sql: string, target: LockTarget, options: RewriteOptions): LockRewrite {
  const seconds = Math.max(1, Math.floor(options.lockWaitTimeoutSeconds ?? 1));
  const notes = [
    `Lowers this session's innodb_lock_wait_timeout to ${seconds} s (1 is the minimum): the statement then fails with ERROR 1205 after that time instead of the default 50 s.`,
    'The setting stays for the whole session until reset; the statement itself is unchanged.',
  ];
  if (!target.capabilities.nowait)
    notes.unshift(
      'This server has no NOWAIT (MySQL >= 8.0.1, MariaDB >= 10.3); a short lock wait timeout is the closest alternative.',
    );
  const statement = `SET SESSION innodb_lock_wait_timeout = ${seconds};\n${sql};\nSET SESSION innodb_lock_wait_timeout = DEFAULT;`;
  return {
    kind: 'lock-wait-timeout',
    sql: statement,
    notes,
    snippet: [
      `await conn.query('SET SESSION innodb_lock_wait_timeout = ${seconds}');`,
      'try {',
      `  const [rows] = await conn.query(${JSON.stringify(sql)});`,
      '} catch (err) {',
      '  if (err.errno !== 1205) throw err;',
      '  // waited too long: report "busy" or retry later',
      '} finally {',
      "  await conn.query('SET SESSION innodb_lock_wait_timeout = DEFAULT');",
      '}',
    ].join('\n'),
    errorCode: 1205,
    recommended: true,
  };
}

/** Advice for a long-running UPDATE/DELETE that blocks others: process it in primary-key-ordered batches. */
export interface BatchingAdvice {
  status: 'ok' | 'cannot-rewrite' | 'not-applicable';
  reason?: string;
  /** The statement with `ORDER BY <primary key> LIMIT n`, to run in a loop. */
  sql?: string;
  batchSize: number;
  notes: string[];
}

/**
 * Batching advice for an UPDATE/DELETE blocker: the same statement with `ORDER BY <primary key> LIMIT n`,
 * run until it affects fewer than n rows. Single-table statements only (the servers reject ORDER BY /
 * LIMIT on multi-table UPDATE/DELETE).
 */
export function adviseBatching(
  sql: string,
  target: LockTarget,
  primaryKey: readonly string[],
  batchSize = 1000,
): BatchingAdvice {
  const parsed = parseStatement(sql.trim().replace(/;\s*$/, ''), target.flavor);
  if (!parsed.ok) return { status: 'cannot-rewrite', reason: parsed.message, batchSize, notes: [] };
  const ast = clone(parsed.ast);
  if (ast.type !== 'update' && ast.type !== 'delete')
    return { status: 'not-applicable', reason: 'Only UPDATE and DELETE are batched.', batchSize, notes: [] };
  const tables = (ast.type === 'delete' ? ast.from : ast.table) as unknown[] | null;
  if (!Array.isArray(tables) || tables.length !== 1 || (tables[0] as AstNode).join) {
    return {
      status: 'cannot-rewrite',
      reason:
        'Multi-table UPDATE/DELETE cannot take ORDER BY or LIMIT; select the primary keys of a batch first, then change those rows.',
      batchSize,
      notes: [],
    };
  }
  if (primaryKey.length === 0) {
    return {
      status: 'cannot-rewrite',
      reason: 'The primary key is unknown; batches need ORDER BY the primary key to be deterministic.',
      batchSize,
      notes: [],
    };
  }
  if (!ast.where) {
    return {
      status: 'cannot-rewrite',
      reason: 'The statement has no WHERE clause: a batched loop would need a key range instead.',
      batchSize,
      notes: [],
    };
  }
  ast.orderby = primaryKey.map((column) => ({
    expr: { type: 'column_ref', table: null, column },
    type: 'ASC',
  }));
  ast.limit = { seperator: '', value: [{ type: 'number', value: batchSize }] };
  const rewritten = printSql(ast, target.flavor);
  const check = parseStatement(rewritten, target.flavor);
  if (!check.ok)
    return {
      status: 'cannot-rewrite',
      reason: `The batched statement does not parse again (${check.message}).`,
      batchSize,
      notes: [],
    };
  return {
    status: 'ok',
    sql: rewritten,
    batchSize,
    notes: [
      `Run it in a loop with autocommit (or COMMIT after each batch) until it changes fewer than ${batchSize} rows: each batch holds its row locks only briefly.`,
      'ORDER BY the primary key keeps batches deterministic (safe for statement-based replication) and walks the table in index order.',
      'Make sure the WHERE columns are indexed, or every batch scans (and locks) from the start of the table.',
    ],
  };
}

/** Evidence about how a locking statement reads its table(s). */
export interface LockFootprintEvidence {
  /** EXPLAIN rows: `type` (access type), `key`, `rows`, `table` as EXPLAIN prints them. */
  explain?: readonly { table: string | null; type: string | null; key: string | null; rows: number | null }[];
  /** Record locks the statement's transaction holds (data_locks count, or trx_rows_locked). */
  locksHeld?: number | null;
  /** Rows the statement returned or changed. */
  rowsReturned?: number | null;
}

/** A warning that a locking statement locks far more than it returns. */
export interface LockFootprintWarning {
  reason: 'full-scan' | 'full-index-scan' | 'locks-exceed-rows';
  table: string | null;
  /** The predicate columns to index (the Advisor builds the index DDL). */
  columns: string[];
  message: string;
}

/**
 * Flag a locking read/UPDATE/DELETE whose access path is a full or wide scan (EXPLAIN `type` ALL or
 * index), or whose transaction holds far more record locks than rows returned; return the
 * predicate columns to index. Null when nothing points at a wide scan.
 */
export function assessLockFootprint(
  sql: string,
  target: LockTarget,
  evidence: LockFootprintEvidence,
): LockFootprintWarning | null {
  const parsed = parseStatement(sql.trim().replace(/;\s*$/, ''), target.flavor);
  const columnsByTable = parsed.ok ? predicateColumns(parsed.ast) : new Map<string | null, string[]>();
  const columnsFor = (table: string | null): string[] => {
    const exact = table ? columnsByTable.get(table) : undefined;
    const unqualified = columnsByTable.get(null) ?? [];
    return [...new Set([...(exact ?? []), ...unqualified])];
  };
  for (const row of evidence.explain ?? []) {
    const type = (row.type ?? '').toUpperCase();
    if (type === 'ALL' || type === 'INDEX') {
      const reason = type === 'ALL' ? 'full-scan' : 'full-index-scan';
      const columns = columnsFor(row.table);
      return {
        reason,
        table: row.table,
        columns,
        message: `${type === 'ALL' ? 'Full table scan' : 'Full index scan'} of ${row.table ?? 'the table'}: a locking read locks every row it scans (about ${row.rows ?? '?'} rows), not only the rows it returns. ${
          columns.length > 0
            ? `Index ${columns.join(', ')} so only the candidate rows are locked.`
            : 'Index the predicate columns so only the candidate rows are locked.'
        }`,
      };
    }
  }
  const locks = evidence.locksHeld ?? null;
  const rows = evidence.rowsReturned ?? null;
  // An index range locks about two records per row (secondary + primary) plus the next key; more than
  // that points at a scan. The seed's 5 locks for 2 rows is the indexed case and must not be flagged.
  if (locks !== null && rows !== null && locks > 2 * Math.max(rows, 1) + 2) {
    const [table, columns] = [...columnsByTable.entries()].find(([name]) => name !== null) ?? [
      null,
      columnsFor(null),
    ];
    return {
      reason: 'locks-exceed-rows',
      table,
      columns: [...new Set([...columns, ...(columnsByTable.get(null) ?? [])])],
      message: `${locks} record locks for ${rows} rows: the statement locks far more than it returns, a sign of a scan. Index the predicate columns so only the candidate rows are locked.`,
    };
  }
  return null;
}

/** Column names in the WHERE of the statement's own query blocks, keyed by table (aliases resolved; null = unqualified). */
export function predicateColumns(ast: AstNode): Map<string | null, string[]> {
  const result = new Map<string | null, string[]>();
  const blocks: AstNode[] = [];
  for (let node: AstNode | undefined = ast; node; node = node._next as AstNode | undefined) blocks.push(node);
  for (const block of blocks) {
    const aliases = new Map<string, string>();
    const sources = (
      Array.isArray(block.from) ? block.from : Array.isArray(block.table) ? block.table : []
    ) as AstNode[];
    for (const source of sources) {
      if (typeof source.table === 'string') {
        aliases.set(source.table, source.table);
        if (typeof source.as === 'string') aliases.set(source.as, source.table);
      }
    }
    const single =
      sources.length === 1 && typeof sources[0]?.table === 'string' ? (sources[0].table as string) : null;
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      const node = value as AstNode;
      if (node.type === 'select' || 'ast' in node) return; // subqueries lock on their own
      if (node.type === 'column_ref' && typeof node.column === 'string') {
        const qualifier = typeof node.table === 'string' ? node.table : null;
        const table = qualifier ? (aliases.get(qualifier) ?? qualifier) : single;
        const list = result.get(table) ?? [];
        if (!list.includes(node.column)) list.push(node.column);
        result.set(table, list);
        return;
      }
      for (const [key, child] of Object.entries(node)) if (key !== 'loc') visit(child);
    };
    visit(block.where);
  }
  return result;
}
