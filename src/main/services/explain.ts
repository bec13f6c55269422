// Running EXPLAIN safely on a live server.
//
// Safety: plain EXPLAIN never executes the statement (also for UPDATE/DELETE/INSERT), but the
// optimizer evaluates constant subqueries and deterministic functions while planning, so every
// EXPLAIN first passes the statement guard (side-effect built-ins refused; functions that may be
// stored routines only with `allowRoutineCalls`), on whatever connection it runs. EXPLAIN ANALYZE
// (MySQL >= 8.0.18) and MariaDB's ANALYZE FORMAT=JSON do execute it, so they run only for SELECT
// provably free of side effects, only when the caller passes `analyze: true` (UI confirmation /
// --analyze), inside a read-only transaction that is rolled back. Every EXPLAIN is bounded: the
// server's own limit where it has one (MariaDB max_statement_time, MySQL max_execution_time for
// ANALYZE) and the watchdog of bounded-query.ts. What-if verification of suggested indexes, which
// runs EXPLAIN before and after a build, is in what-if.ts.

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { parsePlan, type PlanReport } from '../../core/explain/index.js';
import { hasPlaceholder } from '../../core/advice/index-ddl.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { parseStatement } from '../../core/sql/parse.js';
import { lexSql, versionNumber } from '../../core/sql/lexer.js';
import { AdvisorError } from '../../shared/errors.js';
import type { QueryKiller } from './connection.js';
import { mapMysqlError } from './mysql-errors.js';
import { checkReadOnlyStatement, withGuardOptions } from './statement-guard.js';
import { boundedQuery, type StatementBound } from './bounded-query.js';

export type ExplainFormat = 'traditional' | 'json' | 'tree';

export interface ExplainOptions {
  /** Formats to fetch; the plan model is built from the richest one (JSON). Default: json. */
  formats?: readonly ExplainFormat[];
  /** Execute the statement (EXPLAIN ANALYZE / ANALYZE FORMAT=JSON). Needs explicit consent. */
  analyze?: boolean;
  /** Time limit per EXPLAIN statement, in ms (default {@link DEFAULT_EXPLAIN_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Default schema to run in (the query's). */
  database?: string | null;
  /** The user chose to plan a statement that calls functions that may be stored routines. */
  allowRoutineCalls?: boolean;
  /** Cancel: stops the statement on the server. */
  signal?: AbortSignal;
  /** Stops our statement on the server (KILL QUERY from a second connection); see {@link queryKiller}. */
  killQuery?: QueryKiller;
}

/** Default bound of one EXPLAIN statement. */
export const DEFAULT_EXPLAIN_TIMEOUT_MS = 5_000;

export interface ExplainResult {
  sql: string;
  plan: PlanReport['root'];
  report: PlanReport;
  /** Raw server output per format, for the UI's raw view and the CLI's `raw`. */
  raw: Partial<Record<ExplainFormat | 'analyze', unknown>>;
}

/** Statement types EXPLAIN accepts without executing. */
const EXPLAINABLE = new Set(['select', 'update', 'delete', 'insert', 'replace']);

/** Check a statement can be explained; throws AdvisorError with what to do otherwise. */
export function checkExplainable(sql: string, server: ServerInfo): { kind: string } {
  const parsed = parseStatement(sql, server.flavor);
  if (!parsed.ok) {
    throw new AdvisorError('PARSE_FAILED', parsed.message, {
      hint: 'Fix the statement; EXPLAIN needs valid SQL.',
    });
  }
  const kind = String(parsed.ast.type ?? '').toLowerCase();
  if (!EXPLAINABLE.has(kind)) {
    throw new AdvisorError(
      'UNSUPPORTED',
      `EXPLAIN works on SELECT, UPDATE, DELETE, INSERT and REPLACE, not ${kind.toUpperCase() || 'this statement'}.`,
    );
  }
  if (hasPlaceholder(parsed.ast)) {
    throw new AdvisorError(
      'INVALID_INPUT',
      'The statement has placeholders (?): fill in example values before EXPLAIN.',
      {
        hint: 'Captured digests replace literals with ?. Use the sample query, or type values typical for the application.',
      },
    );
  }
  return { kind };
}

/** Run EXPLAIN on the analysis connection. Never executes the statement unless `analyze` is set. */
export async function explainStatement(
  connection: Connection,
  server: ServerInfo,
  sql: string,
  options: ExplainOptions = {},
): Promise<ExplainResult> {
  const { kind } = checkExplainable(sql, server);
  const formats = options.formats ?? ['json'];
  const raw: ExplainResult['raw'] = {};
  if (options.analyze && kind !== 'select') {
    throw new AdvisorError(
      'UNSUPPORTED',
      'ANALYZE executes the statement, so it is offered only for SELECT.',
    );
  }
  assertSafeToExplain(sql, server, options);
  const bound: StatementBound = {
    timeoutMs: options.timeoutMs ?? DEFAULT_EXPLAIN_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.killQuery ? { killQuery: options.killQuery } : {}),
  };
  const guard = options.allowRoutineCalls ? { allowRoutineCalls: true } : {};
  try {
    if (options.database) await connection.query(`USE ${quoteIdentifier(options.database)}`);
    if (!options.allowRoutineCalls || options.analyze) await assertViewsSafe(connection, server, sql);
    if (options.analyze) raw.analyze = await runAnalyze(connection, server, sql, bound);
    for (const format of formats)
      raw[format] = await runExplain(connection, server, sql, format, bound, guard);
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw mapMysqlError(error, { action: 'EXPLAIN' });
  }
  const source = raw.analyze ?? raw.json ?? raw.tree ?? raw.traditional;
  const hint = raw.analyze
    ? {
        flavor: server.flavor,
        format: server.flavor === 'mariadb' ? ('analyze-json' as const) : ('analyze' as const),
      }
    : { flavor: server.flavor };
  const parsed = parsePlan(source as string | object, hint);
  if (!parsed.ok)
    throw new AdvisorError('PARSE_FAILED', `The server's plan could not be read: ${parsed.error.message}`);
  return { sql, plan: parsed.report.root, report: parsed.report, raw };
}

/**
 * The statement guard's verdict on `EXPLAIN sql` (and on `sql` itself for ANALYZE), on any
 * connection: the what-if connection is writable and not guarded, so this is checked here too.
 */
export function assertSafeToExplain(
  sql: string,
  server: ServerInfo,
  options: { analyze?: boolean; allowRoutineCalls?: boolean } = {},
): void {
  const context = {
    flavor: server.flavor === 'mariadb' ? ('mariadb' as const) : ('mysql' as const),
    version: versionNumber(server.version),
  };
  const statement = options.analyze ? `EXPLAIN ANALYZE ${sql}` : `EXPLAIN ${sql}`;
  const verdict = checkReadOnlyStatement(statement, {
    context,
    ...(options.allowRoutineCalls && !options.analyze ? { allowRoutineCalls: true } : {}),
  });
  if (verdict.allowed) return;
  const routine = /stored function|loadable function/.test(verdict.reason);
  throw new AdvisorError(
    options.analyze ? 'UNSUPPORTED' : 'CONSENT_REQUIRED',
    `Not explained: ${verdict.reason}. The optimizer can run functions while it plans, with your privileges.`,
    {
      hint:
        routine && !options.analyze
          ? 'If you trust every function this statement calls (they run with your privileges), explain it again allowing routine calls (the Plan panel’s “I trust these functions” button; CLI: --allow-routines).'
          : 'Remove the call or clause from the statement, or explain it on a sandbox server.',
    },
  );
}

/**
 * Views run their definition when a statement reads them (and the optimizer may evaluate its
 * constant parts while planning), with the privileges of whoever invokes an INVOKER view. So every
 * view the statement may name is looked up, and its definition must pass the same function check
 * as the statement (nested views too, up to 8 levels). A definition we cannot read is refused.
 */
export async function assertViewsSafe(
  connection: Connection,
  server: { flavor: string; version?: string },
  sql: string,
): Promise<void> {
  const context = {
    flavor: server.flavor === 'mariadb' ? ('mariadb' as const) : ('mysql' as const),
    version: versionNumber(server.version ?? ''),
    ansiQuotes: false,
    noBackslashEscapes: false,
  };
  const seen = new Set<string>();
  let pending = [sql];
  for (let depth = 0; depth < 8 && pending.length > 0; depth += 1) {
    const names = new Set<string>();
    for (const text of pending) {
      const lexed = lexSql(text, context);
      if (!lexed.ok) continue;
      for (const token of lexed.tokens) {
        if (token.kind === 'word' || token.kind === 'quoted') names.add(token.value.toLowerCase());
      }
    }
    pending = [];
    const candidates = [...names].filter((name) => !seen.has(name));
    if (candidates.length === 0) break;
    candidates.forEach((name) => seen.add(name));
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT TABLE_SCHEMA AS db, TABLE_NAME AS name, VIEW_DEFINITION AS definition FROM information_schema.VIEWS WHERE LOWER(TABLE_NAME) IN (${candidates.map(() => '?').join(', ')})`,
      candidates,
    );
    for (const row of rows) {
      const definition = String(row.definition ?? '');
      const view = `${String(row.db)}.${String(row.name)}`;
      if (definition.trim() === '') {
        throw new AdvisorError(
          'CONSENT_REQUIRED',
          `Not explained: it may read the view ${view}, whose definition Sargable cannot see (it could call functions that run with your privileges).`,
          { hint: 'Grant SHOW VIEW, or explain the statement on a sandbox server.' },
        );
      }
      const verdict = checkReadOnlyStatement(`EXPLAIN ${definition}`, { context });
      if (!verdict.allowed) {
        throw new AdvisorError(
          'CONSENT_REQUIRED',
          `Not explained: it may read the view ${view}, and reading it would run code: ${verdict.reason}.`,
          {
            hint: "The view's definition runs when the statement reads it, with the privileges of the caller for an INVOKER view. Explain it on a sandbox server if you need the plan.",
          },
        );
      }
      pending.push(definition);
    }
  }
}

async function runExplain(
  connection: Connection,
  server: ServerInfo,
  sql: string,
  format: ExplainFormat,
  bound: StatementBound,
  guard: { allowRoutineCalls?: boolean },
): Promise<unknown> {
  if (format === 'tree' && !server.capabilities.explainTree) {
    throw new AdvisorError(
      'UNSUPPORTED',
      `FORMAT=TREE needs MySQL 8.0.16 or later; this is ${server.flavor} ${server.version}.`,
    );
  }
  // Always name the format: MySQL 8.0.32+ has a configurable default (explain_format).
  const prefix =
    format === 'json'
      ? 'EXPLAIN FORMAT=JSON'
      : format === 'tree'
        ? 'EXPLAIN FORMAT=TREE'
        : server.flavor === 'mariadb'
          ? 'EXPLAIN'
          : 'EXPLAIN FORMAT=TRADITIONAL';
  // MariaDB bounds any statement itself; MySQL's max_execution_time covers SELECT only, not EXPLAIN.
  // The server's limit is a second wall: a little later than the watchdog, which says why it stopped.
  const statement = server.capabilities.maxStatementTime
    ? `SET STATEMENT max_statement_time=${(bound.timeoutMs / 1000 + 1).toFixed(3)} FOR ${prefix} ${sql}`
    : `${prefix} ${sql}`;
  const rows = await boundedQuery<RowDataPacket[]>(connection, withGuardOptions(statement, guard), bound);
  if (format === 'traditional') return rows.map((row) => ({ ...row }));
  const first = rows[0] ?? {};
  const text = String(Object.values(first)[0] ?? '');
  return format === 'json' ? JSON.parse(text) : text;
}

async function runAnalyze(
  connection: Connection,
  server: ServerInfo,
  sql: string,
  bound: StatementBound,
): Promise<unknown> {
  const timeoutMs = bound.timeoutMs;
  if (!server.capabilities.explainAnalyze && !server.capabilities.analyzeFormatJson) {
    throw new AdvisorError(
      'UNSUPPORTED',
      `ANALYZE is not available on ${server.flavor} ${server.version} (MySQL needs 8.0.18+).`,
    );
  }
  await connection.query('START TRANSACTION READ ONLY');
  try {
    if (server.capabilities.explainAnalyze) {
      await connection.query(`SET SESSION max_execution_time = ${Math.max(1, Math.round(timeoutMs))}`);
      const rows = await boundedQuery<RowDataPacket[]>(connection, `EXPLAIN ANALYZE ${sql}`, bound);
      return String(Object.values(rows[0] ?? {})[0] ?? '');
    }
    const seconds = Math.max(0.001, timeoutMs / 1000);
    const rows = await boundedQuery<RowDataPacket[]>(
      connection,
      `SET STATEMENT max_statement_time=${seconds} FOR ANALYZE FORMAT=JSON ${sql}`,
      bound,
    );
    return JSON.parse(String(Object.values(rows[0] ?? {})[0] ?? '{}'));
  } finally {
    await connection.query('ROLLBACK').catch(() => undefined);
    if (server.capabilities.explainAnalyze)
      await connection.query('SET SESSION max_execution_time = DEFAULT').catch(() => undefined);
  }
}

/** Quote an identifier with backticks. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
