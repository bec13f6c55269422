// Handlers for Apply DDL (see src/shared/api/ddl.ts).

import type { ResultSetHeader } from 'mysql2/promise';
import { checkApplicableDdl } from '../../core/ddl/apply-guard.js';
import type { AppliedStatement, DdlApi } from '../../shared/api/ddl.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../handlers.js';
import { mapMysqlError } from '../services/mysql-errors.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';

export function createDdlHandlers({ connections, workspaces }: Services): DdlApi {
  return {
    async 'ddl.apply'(request) {
      const { target } = connections.get(request.connectionId);
      // Every check runs before a write connection is opened.
      if (request.consent !== true) {
        throw new AdvisorError('CONSENT_REQUIRED', 'Applying DDL needs explicit consent.', {
          hint: 'Apply DDL runs only after the confirmation that shows the exact SQL (consent: true in the API). Nothing was sent to the server.',
        });
      }
      const statements = request.statements.map((statement, index) => {
        const check = checkApplicableDdl(statement);
        if (!check.ok) {
          throw new AdvisorError(
            'INVALID_INPUT',
            `Statement ${index + 1} cannot be applied: ${check.reason}.`,
            {
              hint: 'Apply DDL runs only CREATE INDEX and ALTER TABLE … ADD INDEX / ADD generated COLUMN, one statement per entry. Nothing was sent to the server.',
            },
          );
        }
        return check.sql;
      });
      assertProductionConfirmed(target, request.productionConfirmation, 'Applying DDL');
      const where = { host: target.host, port: target.port, user: target.user };
      return loggedWrite(workspaces, target, { action: 'apply-ddl', sql: statements }, () =>
        // Its own connection, never the guarded read-only analysis session.
        connections.withWriteConnection(request.connectionId, async (connection) => {
          const applied: AppliedStatement[] = [];
          for (const [index, sql] of statements.entries()) {
            const started = performance.now();
            try {
              const [result] = await connection.query<ResultSetHeader>(sql);
              applied.push({
                sql,
                ms: Math.round(performance.now() - started),
                warnings: result.warningStatus ?? 0,
              });
            } catch (error) {
              const mapped = mapMysqlError(error, { ...where, action: 'Applying DDL' });
              const before =
                applied.length === 0
                  ? 'Nothing was changed.'
                  : `${applied.length === 1 ? 'Statement 1 was' : `Statements 1–${applied.length} were`} applied before it (DDL is not transactional).`;
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
      );
    },
  };
}
