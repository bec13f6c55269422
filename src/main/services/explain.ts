// Running EXPLAIN safely on a live server, and what-if verification of suggested indexes.
//
// Safety: plain EXPLAIN never executes the statement (also for UPDATE/DELETE/INSERT). EXPLAIN ANALYZE
// (MySQL >= 8.0.18) and MariaDB's ANALYZE FORMAT=JSON do execute it, so they run only for SELECT, only
// when the caller passes `analyze: true` (UI confirmation / --analyze), inside a read-only transaction
// that is rolled back, under a time limit. What-if DDL runs on a separate writable connection, only
// with `allowWhatIf`, and always cleans up what it added (diffing the table before and after).

import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  comparePlans,
  parsePlan,
  type PlanComparison,
  type PlanReport,
  type PlanSummary,
} from '../../core/explain/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { flavorName } from '../../core/flavors/names.js';
import { verificationRecord, type VerificationRecord } from '../../core/workspace/model.js';
import { isNode } from '../../core/sql/ast.js';
import { parseStatement } from '../../core/sql/parse.js';
import { AdvisorError } from '../../shared/errors.js';
import { connect, type ConnectionTarget } from './connection.js';
import { mapMysqlError } from './mysql-errors.js';

export type ExplainFormat = 'traditional' | 'json' | 'tree';

export interface ExplainOptions {
  /** Formats to fetch; the plan model is built from the richest one (JSON). Default: json. */
  formats?: readonly ExplainFormat[];
  /** Execute the statement (EXPLAIN ANALYZE / ANALYZE FORMAT=JSON). Needs explicit consent. */
  analyze?: boolean;
  /** Time limit for ANALYZE, in ms (default 10 s). */
  timeoutMs?: number;
  /** Default schema to run in (the query's). */
  database?: string | null;
}

export interface ExplainResult {
  sql: string;
  plan: PlanReport['root'];
  report: PlanReport;
  /** Raw server output per format, for the UI's raw view and the CLI's `raw`. */
  raw: Partial<Record<ExplainFormat | 'analyze', unknown>>;
}

/** Statement types EXPLAIN accepts without executing. */
const EXPLAINABLE = new Set(['select', 'update', 'delete', 'insert', 'replace']);

/** True when the statement still has placeholders (`?`, as digests and prepared statements do). */
export function hasPlaceholders(ast: unknown): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if ((value.type === 'origin' && value.value === '?') || value.type === 'param') {
      found = true;
      return;
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'loc') visit(child);
  };
  visit(ast);
  return found;
}

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
  if (hasPlaceholders(parsed.ast)) {
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
  try {
    if (options.database) await connection.query(`USE ${quoteIdentifier(options.database)}`);
    if (options.analyze) {
      if (kind !== 'select') {
        throw new AdvisorError(
          'UNSUPPORTED',
          'ANALYZE executes the statement, so it is offered only for SELECT.',
        );
      }
      raw.analyze = await runAnalyze(connection, server, sql, options.timeoutMs ?? 10_000);
    }
    for (const format of formats) raw[format] = await runExplain(connection, server, sql, format);
  } catch (error) {
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

async function runExplain(
  connection: Connection,
  server: ServerInfo,
  sql: string,
  format: ExplainFormat,
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
  const [rows] = await connection.query<RowDataPacket[]>(`${prefix} ${sql}`);
  if (format === 'traditional') return rows.map((row) => ({ ...row }));
  const first = rows[0] ?? {};
  const text = String(Object.values(first)[0] ?? '');
  return format === 'json' ? JSON.parse(text) : text;
}

async function runAnalyze(
  connection: Connection,
  server: ServerInfo,
  sql: string,
  timeoutMs: number,
): Promise<unknown> {
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
      const [rows] = await connection.query<RowDataPacket[]>(`EXPLAIN ANALYZE ${sql}`);
      return String(Object.values(rows[0] ?? {})[0] ?? '');
    }
    const seconds = Math.max(0.001, timeoutMs / 1000);
    const [rows] = await connection.query<RowDataPacket[]>(
      `SET STATEMENT max_statement_time=${seconds} FOR ANALYZE FORMAT=JSON ${sql}`,
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
  const method = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
  const connection = await connect({ ...target, database: request.database }, { readOnly: false });
  const created = { indexes: [] as string[], columns: [] as string[] };
  let autoIncrement: number | null = null;
  try {
    autoIncrement = await autoIncrementOf(connection, request.table);
    const size = await tableSize(connection, request.database, request.table);
    const beforeShape = await tableShape(connection, request.database, request.table);
    const before = await explainStatement(connection, server, request.beforeSql, {
      database: request.database,
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
    throw mapMysqlError(error, { host: target.host, port: target.port, action: 'What-if verification' });
  } finally {
    try {
      await cleanUp(connection, request.table, created, autoIncrement);
    } finally {
      await connection.end().catch(() => undefined);
    }
  }
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
