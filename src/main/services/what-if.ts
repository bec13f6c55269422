// What-if verification of suggested indexes: build, EXPLAIN before/after, drop again.
//
// What-if DDL runs on a separate writable connection, only with `allowWhatIf`, only for the DDL
// shapes the advisor produces (checked with the same lexer as Apply DDL before a connection is
// opened), and always cleans up what it added, also after an error. Both EXPLAINs go through
// explainStatement (explain.ts), so the statement guard and the watchdog apply on this connection too.

import {
  DEFAULT_DDL_LOCK_WAIT_SECONDS,
  isLockWaitTimeout,
  limitLockWait,
  lockTimeoutError,
  metadataLockHolders,
} from './ddl-lock-wait.js';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { comparePlans, type PlanComparison, type PlanSummary } from '../../core/explain/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { flavorName } from '../../core/flavors/names.js';
import { verificationRecord, type VerificationRecord } from '../../core/workspace/model.js';
import { versionNumber } from '../../core/sql/lexer.js';
import { AdvisorError } from '../../shared/errors.js';
import { connect, queryKiller, type ConnectionTarget } from './connection.js';
import { mapMysqlError } from './mysql-errors.js';
import { analyzeApplicableDdl } from '../../core/ddl/apply-guard.js';
import { whatIfAfterBuild, whatIfBuildStatements, whatIfCleanup } from '../../core/explain/what-if.js';
import { explainStatement, quoteIdentifier } from './explain.js';

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
  /** The table the index was built on (the verdict names it). */
  table: string;
  verdict: PlanComparison['verdict'];
  rowsReduction: number | null;
  costReduction: number | null;
  /** Which numbers decided the verdict, in words (core/explain planVerdict). */
  reason: string;
  /** Table size shown before building (information_schema). */
  tableRows: number | null;
  tableBytes: number | null;
  /** What was created and dropped again. */
  created: { indexes: string[]; columns: string[] };
  /** Every statement sent besides reads and EXPLAIN (the confirmation lists the same, core/explain/what-if.ts). */
  ran: string[];
  /** The run as the workspace and the CLI keep it (plan lines before/after, uses the index). */
  record: VerificationRecord;
}

export interface TableShape {
  columns: Set<string>;
  indexes: Set<string>;
}

export async function tableShape(
  connection: Connection,
  database: string,
  table: string,
): Promise<TableShape> {
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
        hint: 'Reconnect with “Allow what-if indexes (sandbox)” checked in the connection dialog (CLI: --allow-what-if), after checking the table size.',
      },
    );
  }
  assertWhatIfDdl(server, request);
  const method = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
  const killQuery = queryKiller({ ...target, database: request.database });
  const connection = await connect({ ...target, database: request.database }, { readOnly: false });
  const created = { indexes: [] as string[], columns: [] as string[] };
  const ran: string[] = [];
  let autoIncrement: number | null = null;
  let lockWait = DEFAULT_DDL_LOCK_WAIT_SECONDS;
  try {
    // Behind an open transaction the ALTER gives up after a few seconds instead of queueing every
    // later query on the table behind its metadata-lock wait.
    lockWait = await limitLockWait(connection, request.lockWaitTimeoutSeconds);
    ran.push(`SET SESSION lock_wait_timeout = ${lockWait}`);
    autoIncrement = await autoIncrementOf(connection, request.table);
    const size = await tableSize(connection, request.database, request.table);
    const beforeShape = await tableShape(connection, request.database, request.table);
    const before = await explainStatement(connection, server, request.beforeSql, {
      database: request.database,
      killQuery,
    });
    try {
      for (const statement of whatIfBuildStatements(request.ddl, method)) {
        ran.push(statement);
        await connection.query(statement);
      }
    } finally {
      const afterShape = await tableShape(connection, request.database, request.table);
      created.indexes = [...afterShape.indexes].filter((name) => !beforeShape.indexes.has(name));
      created.columns = [...afterShape.columns].filter((name) => !beforeShape.columns.has(name));
    }
    for (const step of whatIfAfterBuild(request.table, method)) {
      ran.push(step.sql);
      await connection.query(step.sql);
    }
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
      table: request.table,
      before: comparison.before,
      after: comparison.after,
      verdict: comparison.verdict,
      rowsReduction: comparison.rowsReduction,
      costReduction: comparison.costReduction,
      reason: comparison.reason,
      tableRows: size.rows,
      tableBytes: size.bytes,
      created,
      ran,
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
      await cleanUp(connection, request.table, created, autoIncrement, ran);
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
export async function autoIncrementOf(connection: Connection, table: string): Promise<number | null> {
  const [rows] = await connection.query<RowDataPacket[]>(`SHOW CREATE TABLE ${quoteIdentifier(table)}`);
  const match = /\bAUTO_INCREMENT=(\d+)/.exec(String(rows[0]?.['Create Table'] ?? ''));
  return match ? Number(match[1]) : null;
}

/**
 * Drop what a what-if build added: indexes first, then generated columns. A table rebuild (MariaDB
 * rebuilds for some of these ALTERs) resets the AUTO_INCREMENT counter to MAX(id)+1, which would
 * change SHOW CREATE TABLE; the counter is put back to the value it had before.
 */
export async function cleanUp(
  connection: Connection,
  table: string,
  created: { indexes: string[]; columns: string[] },
  autoIncrement: number | null,
  ran: string[],
): Promise<void> {
  const drop = whatIfCleanup(table, created);
  if (drop === null) return;
  try {
    ran.push(drop);
    await connection.query(drop);
  } catch (error) {
    throw new AdvisorError(
      'SERVER_ERROR',
      `What-if cleanup failed: run ${drop} by hand.`,
      {},
      { cause: error },
    );
  }
  const now = autoIncrement === null ? null : await autoIncrementOf(connection, table);
  if (autoIncrement !== null && now !== autoIncrement) {
    const restore = `ALTER TABLE ${quoteIdentifier(table)} AUTO_INCREMENT = ${autoIncrement}`;
    ran.push(restore);
    await connection.query(restore);
  }
}
