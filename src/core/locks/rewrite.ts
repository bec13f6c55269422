// Locking-read rewrites (NOWAIT, SKIP LOCKED, WAIT n, lock-wait timeout) and lock advice, done on the AST.
/*
 * Design note.
 * A statement is read through the "tolerant path" (`parseLockingStatement`): the trailing locking
 * clauses of the top-level query (`… FOR SHARE OF t NOWAIT`, see locking-clause.ts) are recognized
 * on tokens and cut off, and only the query before them goes to node-sql-parser 5.4, which cannot
 * read `FOR SHARE` or `OF t`. Locking clauses inside parentheses (subqueries, parenthesised UNION
 * branches) stay with the parser, which keeps each as one string on its select node:
 * `locking_read: "FOR UPDATE" | "LOCK IN SHARE MODE" | "FOR UPDATE NOWAIT" | …`. A clause written
 * after LIMIT's position (`FOR UPDATE LIMIT 1`) is not trailing; the parser keeps it as `_limit` and
 * both servers reject that order, so we move it to `limit`.
 *
 * A rewrite sets the option on every clause: inner clauses on the AST, trailing ones re-emitted in the
 * target's grammar after the printed query (`sqlify`). Per server (checked on 8.0.33 and 10.11):
 *   - MySQL >= 8.0.1: `FOR UPDATE | FOR SHARE [OF t, …] [NOWAIT | SKIP LOCKED]`; `LOCK IN SHARE MODE`
 *     takes no option (ERROR 1064), so it is re-emitted as `FOR SHARE`, the same shared lock;
 *   - MariaDB: `FOR UPDATE | LOCK IN SHARE MODE [NOWAIT | SKIP LOCKED | WAIT n]`; no FOR SHARE and no
 *     OF (1064), so `FOR SHARE` becomes `LOCK IN SHARE MODE` and an OF list cannot be rewritten.
 * Each rewrite is parsed again through the same tolerant path and must equal the round-tripped
 * original in everything but the locking clauses, and carry the option on every clause. What cannot
 * be represented (an inner `LOCK IN SHARE MODE` on MySQL, whose FOR SHARE the parser cannot read) is
 * reported with the reason, never patched as text. The session `innodb_lock_wait_timeout`
 * alternative does not change the statement, so it is offered even when the statement cannot be
 * rewritten (when it still looks like a locking read).
 * Cost: one parse of the query, one print, one parse of the printed query (shared by all options
 * when only trailing clauses change).
 */

import type { Capabilities, Flavor } from '../flavors/capabilities.js';
import { parseStatement, printSql, type ParseResult } from '../sql/parse.js';
import type { AstNode } from '../sql/ast.js';
import {
  containsLockingClause,
  findTrailingLocking,
  formatLockingClause,
  type LockingClauseSpec,
} from './locking-clause.js';

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
  /** As written: `FOR UPDATE`, `LOCK IN SHARE MODE`, `FOR UPDATE NOWAIT`, `FOR SHARE OF t SKIP LOCKED`, … */
  text: string;
  strength: 'update' | 'share';
  option: 'none' | 'nowait' | 'skip-locked' | 'wait';
  /** `OF` tables (trailing clauses only; the parser reads no OF). */
  of?: string[];
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

/** A statement read through the tolerant path: the parsed query plus its trailing locking clauses. */
export type LockingParse =
  | { ok: true; ast: AstNode; trailing: LockingClauseSpec[] }
  | { ok: false; message: string; trailing: LockingClauseSpec[] };

/**
 * Parse a statement whose trailing locking clauses the SQL parser may not read (`FOR SHARE`, `OF t`):
 * the clauses are recognized on tokens and the query before them is parsed. `parse` defaults to
 * {@link parseStatement}; pass a memoizing one to share work.
 */
export function parseLockingStatement(
  sql: string,
  flavor: Flavor,
  parse: (text: string, flavor: Flavor) => ParseResult = parseStatement,
): LockingParse {
  const trailing = findTrailingLocking(sql);
  const parsed = parse(trailing ? trailing.query : sql, flavor);
  const clauses = trailing?.clauses ?? [];
  if (!parsed.ok) return { ok: false, message: parsed.message, trailing: clauses };
  if (trailing && parsed.ast.type !== 'select')
    return { ok: false, message: 'Only a SELECT takes a locking clause.', trailing: clauses };
  return { ok: true, ast: parsed.ast, trailing: clauses };
}

/**
 * Offer NOWAIT / SKIP LOCKED / WAIT n rewrites of one locking read (`SELECT … FOR UPDATE`, `FOR SHARE`,
 * `FOR UPDATE OF t`, `LOCK IN SHARE MODE`), each only when `target.capabilities` allow it, else the
 * session `innodb_lock_wait_timeout` alternative. Never throws.
 */
export function rewriteLockingRead(
  sql: string,
  target: LockTarget,
  options: RewriteOptions = {},
): LockingReadResult {
  const caps = target.capabilities;
  const trimmed = sql.trim().replace(/;\s*$/, '');
  // Parses within one call are memoized: the rewrites of trailing clauses share their printed query.
  const parses = new Map<string, ParseResult>();
  const parse = (text: string, flavor: Flavor): ParseResult => {
    let result = parses.get(text);
    if (!result) parses.set(text, (result = parseStatement(text, flavor)));
    return result;
  };
  const parsed = parseLockingStatement(trimmed, target.flavor, parse);
  if (!parsed.ok) {
    if (parsed.trailing.length === 0 && !containsLockingClause(trimmed))
      return { status: 'not-locking-read', clauses: [], rewrites: [], unavailable: [] };
    const reason = `The SQL parser cannot read this statement${parsed.trailing.length > 0 ? ' (without its locking clause)' : ''}, so it cannot be rewritten safely. ${parsed.message}`;
    const fallback = lockWaitTimeoutRewrite(trimmed, target, options);
    return {
      status: 'cannot-rewrite',
      reason,
      clauses: parsed.trailing.map(clauseOf),
      rewrites: [fallback],
      unavailable: [],
    };
  }

  const original = parsed.ast;
  const trailing = parsed.trailing;
  const inner = lockingSelects(original);
  if (inner.length === 0 && trailing.length === 0)
    return { status: 'not-locking-read', clauses: [], rewrites: [], unavailable: [] };
  const clauses = [
    ...inner.map((node) => describeClause(String(node.locking_read))),
    ...trailing.map(clauseOf),
  ];

  // The original printed (sqlify mutates its input, so a copy) and parsed again: the reference every
  // rewrite is compared with. When only trailing clauses change, the rewrite prints the same query.
  let printed: string | undefined;
  const printOriginal = (): string => (printed ??= printSql(clone(original), target.flavor));
  let memo: { ok: true; ast: AstNode } | { ok: false; reason: string } | undefined;
  const roundTrip = (): { ok: true; ast: AstNode } | { ok: false; reason: string } => {
    if (memo) return memo;
    try {
      const again = parse(printOriginal(), target.flavor);
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
  const innerShare = inner.some((node) => describeClause(String(node.locking_read)).strength === 'share');
  const aggregates = containsAggregate(original);
  const mysqlGrammar = caps.forShare;

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
    if (innerShare && target.flavor !== 'mariadb') {
      unavailable.push({
        kind,
        reason: `MySQL accepts ${option} only after FOR SHARE (LOCK IN SHARE MODE takes no options), and the SQL parser (node-sql-parser 5.4) cannot read FOR SHARE inside parentheses, so this rewrite cannot be checked. Write FOR SHARE ${option} by hand.`,
      });
      return;
    }
    const emitted = emitTrailing(trailing, option, mysqlGrammar);
    if (!emitted.ok) {
      unavailable.push({ kind, reason: emitted.reason });
      return;
    }
    const result = applyOption(original, target.flavor, option, emitted.clauses, {
      expectedClauses: clauses.length,
      printOriginal,
      roundTrip,
      parse,
    });
    if (!result.ok) {
      unavailable.push({ kind, reason: result.reason });
      return;
    }
    rewrites.push(
      describeRewrite(kind, result.sql, target, options, {
        aggregates,
        movedLimit: result.movedLimit,
        notes: emitted.notes,
      }),
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

function clauseOf(spec: LockingClauseSpec): LockingClause {
  return {
    text: spec.text,
    strength: spec.strength,
    option: spec.option,
    ...(spec.of.length > 0 ? { of: spec.of } : {}),
  };
}

/** Trailing clauses with `option`, spelled in the target's grammar (MySQL >= 8.0.1 or MariaDB). */
function emitTrailing(
  trailing: readonly LockingClauseSpec[],
  option: string,
  mysqlGrammar: boolean,
): { ok: true; clauses: LockingClauseSpec[]; notes: string[] } | { ok: false; reason: string } {
  const notes = new Set<string>();
  const clauses: LockingClauseSpec[] = [];
  for (const clause of trailing) {
    let syntax = clause.syntax;
    if (mysqlGrammar && syntax === 'lock-in-share-mode') {
      syntax = 'for-share';
      notes.add(
        `MySQL takes ${option} only after FOR SHARE (LOCK IN SHARE MODE accepts no option), so LOCK IN SHARE MODE is written as FOR SHARE: the same shared lock.`,
      );
    } else if (!mysqlGrammar && syntax === 'for-share') {
      syntax = 'lock-in-share-mode';
      notes.add('MariaDB has no FOR SHARE: LOCK IN SHARE MODE takes the same shared lock.');
    }
    if (!mysqlGrammar && clause.of.length > 0)
      return {
        ok: false,
        reason: `MariaDB has no OF in locking clauses (ERROR 1064): remove OF ${clause.of.join(', ')} (the lock then covers every table the query reads) before adding ${option}.`,
      };
    const text = formatLockingClause(syntax, clause.of, option);
    const parsedOption = optionFromText(option);
    const { waitSeconds: _previous, ...rest } = clause;
    const seconds = Number(/WAIT (\d+)/.exec(option)?.[1]);
    clauses.push({
      ...rest,
      syntax,
      text,
      option: parsedOption,
      ...(parsedOption === 'wait' ? { waitSeconds: seconds } : {}),
    });
  }
  return { ok: true, clauses, notes: [...notes] };
}

function optionFromText(option: string): LockingClauseSpec['option'] {
  return describeClause(`FOR UPDATE ${option}`).option;
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
  for (const key in node) if (key !== 'loc') walk(node[key], visit);
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
  return upper.startsWith('FOR UPDATE') ? 'FOR UPDATE' : 'LOCK IN SHARE MODE';
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Strip parser positions and locking clauses, for comparing statements. The clauses are compared on
 * their own: a top-level clause the parser kept (`FOR UPDATE LIMIT 1`) is trailing in the rewrite.
 */
function comparable(ast: unknown): string {
  const copy = clone(ast);
  walk(copy, (node) => {
    delete node.loc;
    if (node.type === 'select') node.locking_read = null;
  });
  return JSON.stringify(copy);
}

function sameClauses(a: readonly LockingClauseSpec[], b: readonly LockingClauseSpec[]): boolean {
  const key = (clauses: readonly LockingClauseSpec[]): string =>
    JSON.stringify(clauses.map((clause) => [clause.syntax, clause.of, clause.option, clause.waitSeconds]));
  return key(a) === key(b);
}

function applyOption(
  original: AstNode,
  flavor: Flavor,
  option: string,
  trailing: readonly LockingClauseSpec[],
  context: {
    expectedClauses: number;
    printOriginal: () => string;
    roundTrip: () => { ok: true; ast: AstNode } | { ok: false; reason: string };
    parse: (text: string, flavor: Flavor) => ParseResult;
  },
): { ok: true; sql: string; movedLimit: boolean } | { ok: false; reason: string } {
  const { roundTrip, parse } = context;
  const hasInner = lockingSelects(original).length > 0;
  const copy = hasInner ? clone(original) : original;
  let movedLimit = false;
  if (hasInner) {
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
  }
  let sql: string;
  try {
    sql = hasInner ? printSql(copy, flavor) : context.printOriginal();
  } catch (error) {
    return {
      ok: false,
      reason: `The SQL printer could not print the rewritten statement (${messageOf(error)}).`,
    };
  }
  if (trailing.length > 0) sql = `${sql} ${trailing.map((clause) => clause.text).join(' ')}`;
  const reparsed = parseLockingStatement(sql, flavor, parse);
  if (!reparsed.ok)
    return {
      ok: false,
      reason: `The rewritten statement does not parse again (${reparsed.message}); not offered.`,
    };
  if (trailing.length > 0 && !sameClauses(reparsed.trailing, trailing))
    return {
      ok: false,
      reason: `The re-parsed statement does not end with ${trailing.map((clause) => clause.text).join(' ')}; not offered.`,
    };
  const roundTripped = roundTrip();
  if (!roundTripped.ok) return roundTripped;
  const roundTripAst = movedLimit ? clone(roundTripped.ast) : roundTripped.ast;
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
  const wanted = optionFromText(option);
  const after = [
    ...lockingSelects(reparsed.ast).map((node) => describeClause(String(node.locking_read))),
    ...reparsed.trailing,
  ];
  if (after.length !== context.expectedClauses || !after.every((clause) => clause.option === wanted))
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
  facts: { aggregates: boolean; movedLimit: boolean; notes: readonly string[] },
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
  notes.push(...facts.notes);
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
  const parsed = parseLockingStatement(sql.trim().replace(/;\s*$/, ''), target.flavor);
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
      for (const key in node) if (key !== 'loc') visit(node[key]);
    };
    visit(block.where);
  }
  return result;
}
