// Running EXPLAIN safely on a live server, and what-if verification of suggested indexes.
//
// Safety: plain EXPLAIN never executes the statement (also for UPDATE/DELETE/INSERT), but the
// optimizer evaluates constant subqueries and deterministic functions while planning, so every
// EXPLAIN first passes the statement guard (side-effect built-ins refused; functions that may be
// stored routines only with `allowRoutineCalls`), on whatever connection it runs. EXPLAIN ANALYZE
// (MySQL >= 8.0.18) and MariaDB's ANALYZE FORMAT=JSON do execute it, so they run only for SELECT
// provably free of side effects, only when the caller passes `analyze: true` (UI confirmation /
// --analyze), inside a read-only transaction that is rolled back. Every EXPLAIN is bounded: the
// server's own limit where it has one (MariaDB max_statement_time, MySQL max_execution_time for
// ANALYZE) and a watchdog that stops our statement after `timeoutMs` (default 5 s) or when the
// caller's signal aborts, with KILL QUERY from a second connection (or by closing the connection
// when no killer is given). What-if DDL runs on a separate writable connection, only with
// `allowWhatIf`, only for the DDL shapes the advisor produces, and always cleans up what it added.

import {
  DEFAULT_DDL_LOCK_WAIT_SECONDS,
  isLockWaitTimeout,
  limitLockWait,
  lockTimeoutError,
  metadataLockHolders,
} from './ddl-lock-wait.js';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  comparePlans,
  parsePlan,
  type PlanComparison,
  type PlanReport,
  type PlanSummary,
} from '../../core/explain/index.js';
import { hasPlaceholder } from '../../core/advice/index-ddl.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { flavorName } from '../../core/flavors/names.js';
import { verificationRecord, type VerificationRecord } from '../../core/workspace/model.js';
import { parseStatement } from '../../core/sql/parse.js';
import { lexSql, versionNumber } from '../../core/sql/lexer.js';
import { AdvisorError } from '../../shared/errors.js';
import { connect, queryKiller, type ConnectionTarget, type QueryKiller } from './connection.js';
import { mapMysqlError } from './mysql-errors.js';
import { checkReadOnlyStatement, withGuardOptions } from './statement-guard.js';
import { analyzeApplicableDdl } from '../../core/ddl/apply-guard.js';

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
          ? 'If you trust every function this statement calls (they run with your privileges), explain it again and allow routine calls (CLI: --allow-routines).'
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

/** How long one statement may run, and how to stop it. */
export interface StatementBound {
  timeoutMs: number;
  signal?: AbortSignal;
  killQuery?: QueryKiller;
}

/**
 * Run one statement under a watchdog: after `timeoutMs` (or when `signal` aborts) our own statement
 * is stopped with KILL QUERY (or the connection is closed when no killer is given), and the caller
 * gets TIMEOUT / CANCELLED at once instead of waiting for the server.
 */
export async function boundedQuery<T>(
  connection: Connection,
  statement: string | { sql: string },
  bound: StatementBound,
): Promise<T> {
  if (bound.signal?.aborted) throw new AdvisorError('CANCELLED', 'Cancelled before it ran.');
  const threadId = (connection as { threadId?: number | null }).threadId ?? null;
  let stopped: 'timeout' | 'cancel' | null = null;
  let release: (() => void) | undefined;
  const stop = new Promise<never>((_resolve, reject) => {
    const fire = (why: 'timeout' | 'cancel'): void => {
      if (stopped) return;
      stopped = why;
      const seconds = Math.round(bound.timeoutMs / 100) / 10;
      reject(
        why === 'timeout'
          ? new AdvisorError('TIMEOUT', `Stopped after ${seconds} s: the statement did not finish in time.`, {
              hint: 'The statement was killed on the server (KILL QUERY of our own connection). Raise the time limit if the server is merely slow.',
            })
          : new AdvisorError('CANCELLED', 'Cancelled: the statement was stopped on the server.'),
      );
      const kill = bound.killQuery && threadId !== null ? bound.killQuery(threadId) : undefined;
      void (kill ?? Promise.resolve((connection as { destroy?: () => void }).destroy?.())).catch(() => {
        (connection as { destroy?: () => void }).destroy?.();
      });
    };
    const timer = setTimeout(() => fire('timeout'), bound.timeoutMs);
    const onAbort = (): void => fire('cancel');
    bound.signal?.addEventListener('abort', onAbort, { once: true });
    release = () => {
      clearTimeout(timer);
      bound.signal?.removeEventListener('abort', onAbort);
    };
  });
  stop.catch(() => undefined);
  const run = connection.query(statement as string) as unknown as Promise<[T, unknown]>;
  try {
    const [rows] = await Promise.race([run, stop]);
    return rows;
  } finally {
    release?.();
    // A killed statement still answers (with an error); never leave it unhandled.
    run.catch(() => undefined);
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

export interface WhatIfRequest {
  /** The suggestion's DDL statements (ALTER TABLE … ADD [COLUMN …,] ADD INDEX …). */
  ddl: readonly string[];
  table: string;
  database: string;
  /** EXPLAIN before: the original query. */
  beforeSql: string;
  /** EXPLAIN after: the advised form (rewritten query when the advice changes it), else the original. */
  afterSql: string;
  /** The user marked this connection as allowed for what-if DDL and confirmed. */
  allowWhatIf: boolean;
  threshold?: number;
  /** Seconds the what-if ALTER waits for the table's metadata lock (default 5). */
  lockWaitTimeoutSeconds?: number;
}

export interface WhatIfResult {
  method: 'invisible-index' | 'sandbox';
  before: PlanSummary;
  after: PlanSummary;
  verdict: PlanComparison['verdict'];
  rowsReduction: number | null;
  /** Table size shown before building (information_schema). */
  tableRows: number | null;
  tableBytes: number | null;
  /** What was created and dropped again. */
  created: { indexes: string[]; columns: string[] };
  /** The run as the workspace and the CLI keep it (plan lines before/after, uses the index). */
  record: VerificationRecord;
}

interface TableShape {
  columns: Set<string>;
  indexes: Set<string>;
}

async function tableShape(connection: Connection, database: string, table: string): Promise<TableShape> {
  const [columns] = await connection.query<RowDataPacket[]>(
    'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [database, table],
  );
  const [indexes] = await connection.query<RowDataPacket[]>(
    'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [database, table],
  );
  return {
    columns: new Set(columns.map((row) => String(row.name))),
    indexes: new Set(indexes.map((row) => String(row.name))),
  };
}

/** Size of the table, shown before a what-if build. */
export async function tableSize(
  connection: Connection,
  database: string,
  table: string,
): Promise<{ rows: number | null; bytes: number | null }> {
  const [rows] = await connection.query<RowDataPacket[]>(
    'SELECT TABLE_ROWS AS table_rows, DATA_LENGTH + INDEX_LENGTH AS bytes FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [database, table],
  );
  const row = rows[0];
  return {
    rows: row?.table_rows == null ? null : Number(row.table_rows),
    bytes: row?.bytes == null ? null : Number(row.bytes),
  };
}

/** Make an index-adding ALTER build the index INVISIBLE (MySQL 8): the optimizer ignores it except in our session. */
export function invisibleVariant(ddl: string): string {
  const trimmed = ddl.trim().replace(/;+\s*$/, '');
  return /\bADD\s+(UNIQUE\s+)?(INDEX|KEY)\b/i.test(trimmed) && !/\bINVISIBLE\b/i.test(trimmed)
    ? `${trimmed} INVISIBLE`
    : trimmed;
}

/**
 * Build the suggested index, EXPLAIN before/after, and drop everything it added — also after an error.
 * MySQL 8: the index is created INVISIBLE and only our session (use_invisible_indexes=on) sees it.
 * MariaDB and others: the sandbox path (plain index) on a connection the user marked as allowed.
 */
export async function verifyWhatIf(
  target: ConnectionTarget,
  server: ServerInfo,
  request: WhatIfRequest,
): Promise<WhatIfResult> {
  if (!request.allowWhatIf) {
    throw new AdvisorError(
      'CONSENT_REQUIRED',
      'What-if verification builds a real index on the server, and this connection is not allowed to.',
      {
        hint: 'Mark the connection as a sandbox that allows what-if DDL (or pass --allow-what-if), after checking the table size.',
      },
    );
  }
  assertWhatIfDdl(server, request);
  const method = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
  const killQuery = queryKiller({ ...target, database: request.database });
  const connection = await connect({ ...target, database: request.database }, { readOnly: false });
  const created = { indexes: [] as string[], columns: [] as string[] };
  let autoIncrement: number | null = null;
  let lockWait = DEFAULT_DDL_LOCK_WAIT_SECONDS;
  try {
    // Behind an open transaction the ALTER gives up after a few seconds instead of queueing every
    // later query on the table behind its metadata-lock wait.
    lockWait = await limitLockWait(connection, request.lockWaitTimeoutSeconds);
    autoIncrement = await autoIncrementOf(connection, request.table);
    const size = await tableSize(connection, request.database, request.table);
    const beforeShape = await tableShape(connection, request.database, request.table);
    const before = await explainStatement(connection, server, request.beforeSql, {
      database: request.database,
      killQuery,
    });
    try {
      for (const statement of request.ddl) {
        await connection.query(
          method === 'invisible-index' ? invisibleVariant(statement) : statement.replace(/;+\s*$/, ''),
        );
      }
    } finally {
      const afterShape = await tableShape(connection, request.database, request.table);
      created.indexes = [...afterShape.indexes].filter((name) => !beforeShape.indexes.has(name));
      created.columns = [...afterShape.columns].filter((name) => !beforeShape.columns.has(name));
    }
    await connection.query(`ANALYZE TABLE ${quoteIdentifier(request.table)}`);
    if (method === 'invisible-index')
      await connection.query("SET SESSION optimizer_switch = 'use_invisible_indexes=on'");
    const after = await explainStatement(connection, server, request.afterSql, {
      database: request.database,
      killQuery,
    });
    const comparison = comparePlans(before.plan, after.plan, { threshold: request.threshold ?? 0.5 });
    const record = verificationRecord(
      {
        before: before.plan,
        after: after.plan,
        method,
        verdict: comparison.verdict,
        rowsReduction: comparison.rowsReduction,
        createdIndexes: created.indexes,
        server: `${flavorName(server.flavor)} ${server.version}`,
      },
      new Date().toISOString(),
    );
    return {
      method,
      before: comparison.before,
      after: comparison.after,
      verdict: comparison.verdict,
      rowsReduction: comparison.rowsReduction,
      tableRows: size.rows,
      tableBytes: size.bytes,
      created,
      record,
    };
  } catch (error) {
    if (isLockWaitTimeout(error)) {
      throw lockTimeoutError(error, {
        action: 'What-if verification',
        table: request.table,
        seconds: lockWait,
        holders: await metadataLockHolders(connection, request.database, request.table).catch(() => []),
      });
    }
    throw mapMysqlError(error, { host: target.host, port: target.port, action: 'What-if verification' });
  } finally {
    try {
      await cleanUp(connection, request.table, created, autoIncrement);
    } finally {
      await connection.end().catch(() => undefined);
    }
  }
}

/**
 * What-if builds only what the advisor proposes, on the request's table: index additions and
 * generated columns (ALGORITHM/LOCK allowed), read with the same lexer as Apply DDL. Anything else
 * (a DROP, another table, partitioning …) is refused before a connection is opened.
 */
export function assertWhatIfDdl(
  server: ServerInfo,
  request: Pick<WhatIfRequest, 'ddl' | 'table' | 'database'>,
): void {
  const context = {
    flavor: server.flavor === 'mariadb' ? ('mariadb' as const) : ('mysql' as const),
    version: versionNumber(server.version ?? ''),
  };
  request.ddl.forEach((statement, index) => {
    const analysis = analyzeApplicableDdl(statement, context);
    const problem = !analysis.ok
      ? analysis.reason
      : analysis.target.table.toLowerCase() !== request.table.toLowerCase() ||
          (analysis.target.schema !== null && analysis.target.schema !== request.database)
        ? `it changes ${analysis.table}, not the table being verified (${request.table})`
        : analysis.changes
            .filter(
              (change) => !['add-index', 'add-generated-column', 'algorithm', 'lock'].includes(change.kind),
            )
            .map((change) => `${change.kind.replace(/-/g, ' ')} is not something what-if builds`)[0];
    if (problem) {
      throw new AdvisorError('INVALID_INPUT', `What-if statement ${index + 1} refused: ${problem}.`, {
        hint: 'What-if only builds the index or generated column the advisor suggested (ALTER TABLE … ADD INDEX / ADD generated COLUMN on the analysed table, or CREATE INDEX). Nothing was sent to the server.',
      });
    }
  });
}

/** The table's next AUTO_INCREMENT value as SHOW CREATE TABLE prints it (information_schema may be cached). */
async function autoIncrementOf(connection: Connection, table: string): Promise<number | null> {
  const [rows] = await connection.query<RowDataPacket[]>(`SHOW CREATE TABLE ${quoteIdentifier(table)}`);
  const match = /\bAUTO_INCREMENT=(\d+)/.exec(String(rows[0]?.['Create Table'] ?? ''));
  return match ? Number(match[1]) : null;
}

/**
 * Drop what a what-if build added: indexes first, then generated columns. A table rebuild (MariaDB
 * rebuilds for some of these ALTERs) resets the AUTO_INCREMENT counter to MAX(id)+1, which would
 * change SHOW CREATE TABLE; the counter is put back to the value it had before.
 */
async function cleanUp(
  connection: Connection,
  table: string,
  created: { indexes: string[]; columns: string[] },
  autoIncrement: number | null,
): Promise<void> {
  const clauses = [
    ...created.indexes.map((name) => `DROP INDEX ${quoteIdentifier(name)}`),
    ...created.columns.map((name) => `DROP COLUMN ${quoteIdentifier(name)}`),
  ];
  if (clauses.length === 0) return;
  try {
    await connection.query(`ALTER TABLE ${quoteIdentifier(table)} ${clauses.join(', ')}`);
  } catch (error) {
    throw new AdvisorError(
      'SERVER_ERROR',
      `What-if cleanup failed: run ALTER TABLE ${quoteIdentifier(table)} ${clauses.join(', ')} by hand.`,
      {},
      { cause: error },
    );
  }
  const now = autoIncrement === null ? null : await autoIncrementOf(connection, table);
  if (autoIncrement !== null && now !== autoIncrement) {
    await connection.query(`ALTER TABLE ${quoteIdentifier(table)} AUTO_INCREMENT = ${autoIncrement}`);
  }
}
