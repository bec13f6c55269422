// Locking-read rewrites (NOWAIT, SKIP LOCKED, WAIT n, lock-wait timeout), done on the AST.
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
import type { Flavor } from '../flavors/capabilities.js';
import { parseStatement, printSql, type ParseResult } from '../sql/parse.js';
import type { AstNode } from '../sql/ast.js';
import {
  containsLockingClause,
  findTrailingLocking,
  formatLockingClause,
  type LockingClauseSpec,
} from './locking-clause.js';
import { describeRewrite, lockWaitTimeoutRewrite, waitSecondsOf } from './rewrite-notes.js';
import type {
  LockRewrite,
  LockRewriteKind,
  LockTarget,
  LockingClause,
  LockingReadResult,
  RewriteOptions,
  UnavailableRewrite,
} from './rewrite-types.js';

export type {
  LockRewrite,
  LockRewriteKind,
  LockTarget,
  LockingClause,
  LockingReadResult,
  RewriteOptions,
  UnavailableRewrite,
} from './rewrite-types.js';

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
