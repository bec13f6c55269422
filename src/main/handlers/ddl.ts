// Handlers for Apply DDL (see src/shared/api/ddl.ts).

import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { analyzeApplicableDdl, type DdlAnalysis } from '../../core/ddl/apply-guard.js';
import { versionNumber } from '../../core/sql/lexer.js';
import type { AppliedStatement, DdlApi } from '../../shared/api/ddl.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import {
  isLockWaitTimeout,
  limitLockWait,
  lockTimeoutError,
  metadataLockHolders,
} from '../services/ddl-lock-wait.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';
import { WriteRuns } from '../services/write-runs.js';

export function createDdlHandlers({ connections, workspaces, writeRuns }: Services): DdlApi {
  const runs = writeRuns ?? new WriteRuns();
  return {
    async 'ddl.cancel'({ connectionId, runId }) {
      connections.get(connectionId);
      return { cancelled: await runs.cancel(runId, connectionId) };
    },
    async 'ddl.apply'(request) {
      const { target, server } = connections.get(request.connectionId);
      // Read every statement as this server would, under any sql_mode (the write session's may differ).
      const context = {
        flavor: server.flavor === 'mariadb' ? ('mariadb' as const) : ('mysql' as const),
        version: versionNumber(server.version),
      };
      // Every check runs before a write connection is opened.
      if (request.consent !== true) {
        throw new AdvisorError('CONSENT_REQUIRED', 'Applying DDL needs explicit consent.', {
          hint: 'Apply DDL runs only after the confirmation that shows the exact SQL (consent: true in the API). Nothing was sent to the server.',
        });
      }
      const checked = request.statements.map((statement, index) => {
        const check = analyzeApplicableDdl(statement, context);
        if (!check.ok) {
          throw new AdvisorError(
            'INVALID_INPUT',
            `Statement ${index + 1} cannot be applied: ${check.reason}.`,
            {
              hint: 'Apply DDL runs only the changes the advisor proposes: CREATE INDEX and ALTER TABLE … ADD/DROP INDEX, ALTER INDEX … VISIBLE/INVISIBLE, ADD/DROP of a generated COLUMN, ALGORITHM/LOCK; one statement per entry. Nothing was sent to the server.',
            },
          );
        }
        return check;
      });
      const statements = checked.map((check) => check.sql);
      assertProductionConfirmed(target, request.productionConfirmation, 'Applying DDL');
      const where = { host: target.host, port: target.port, user: target.user };
      const run = runs.begin(request.runId, request.connectionId, target);
      const done = (count: number): string =>
        count === 0
          ? 'Nothing was changed.'
          : `${count === 1 ? 'Statement 1 was' : `Statements 1–${count} were`} applied before it (DDL is not transactional).`;
      return loggedWrite(workspaces, target, { action: 'apply-ddl', sql: statements }, () =>
        // Its own connection, never the guarded read-only analysis session.
        connections.withWriteConnection(request.connectionId, async (connection) => {
          run.attach(connection.threadId);
          // A short metadata-lock wait: behind an open transaction the ALTER gives up instead of
          // queueing every later query on the table behind it.
          const seconds = await limitLockWait(connection, request.lockWaitTimeoutSeconds);
          await assertDropsGeneratedColumns(connection, checked);
          const applied: AppliedStatement[] = [];
          for (const [index, sql] of statements.entries()) {
            if (run.cancelled)
              throw new AdvisorError(
                'CANCELLED',
                `Cancelled before statement ${index + 1} of ${statements.length}. ${done(applied.length)}`,
              );
            const started = performance.now();
            try {
              const [result] = await connection.query<ResultSetHeader>(sql);
              applied.push({
                sql,
                ms: Math.round(performance.now() - started),
                warnings: result.warningStatus ?? 0,
              });
            } catch (error) {
              if (run.cancelled)
                throw new AdvisorError(
                  'CANCELLED',
                  `Cancelled: statement ${index + 1} of ${statements.length} was stopped on the server (KILL QUERY). ${done(applied.length)}`,
                  {},
                  { cause: error },
                );
              const check = checked[index];
              const mapped =
                isLockWaitTimeout(error) && check?.ok
                  ? lockTimeoutError(error, {
                      action: 'Applying DDL',
                      table: check.table,
                      seconds,
                      holders: await metadataLockHolders(
                        connection,
                        check.target.schema,
                        check.target.table,
                      ).catch(() => []),
                    })
                  : mapMysqlError(error, { ...where, action: 'Applying DDL' });
              const before = done(applied.length);
              throw new AdvisorError(
                mapped.code === 'INTERNAL' ? 'SERVER_ERROR' : mapped.code,
                `Statement ${index + 1} of ${statements.length} failed: ${mapped.userMessage} ${before}`,
                mapped.details,
                { cause: error },
              );
            }
          }
          return { applied };
        }),
      ).finally(() => run.end());
    },
  };
}

/**
 * DROP COLUMN is accepted only for generated columns (the rollback of an advisor suggestion): the
 * server says which columns are generated, before anything runs.
 */
async function assertDropsGeneratedColumns(connection: Connection, checked: DdlAnalysis[]): Promise<void> {
  for (const [index, check] of checked.entries()) {
    if (!check.ok) continue;
    for (const change of check.changes) {
      if (change.kind !== 'drop-column') continue;
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT EXTRA AS extra, GENERATION_EXPRESSION AS expression FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ?',
        [check.target.schema, check.target.table, change.name],
      );
      const row = rows[0];
      const generated =
        row !== undefined &&
        (/GENERATED|VIRTUAL|STORED|PERSISTENT/i.test(String(row.extra ?? '')) ||
          String(row.expression ?? '') !== '');
      if (row !== undefined && !generated) {
        throw new AdvisorError(
          'INVALID_INPUT',
          `Statement ${index + 1} cannot be applied: ${change.name} is not a generated column, and Apply DDL only drops generated columns (the advisor's own).`,
          { hint: 'Drop regular columns with your own tools. Nothing was sent to the server.' },
        );
      }
    }
  }
}
