// Handlers for the locks area (see src/shared/api/locks.ts).

import type { LocksApi } from '../../shared/api/locks.js';
import type { Services } from '../services/index.js';
import { AdvisorError } from '../../shared/errors.js';
import { countRecordLocks, killSession, pollLocks, statementRewrites } from '../services/locks.js';
import { readTransactionsView } from '../services/locks-transactions.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';
import { WorkspaceSessions } from '../services/workspace-sessions.js';
import type { LockProblem, LockSnapshot } from '../../core/locks/snapshot.js';
import { recordDeadlock } from '../../core/workspace/model.js';

export function createLocksHandlers(services: Services): LocksApi {
  const { connections } = services;
  const workspaces =
    services.workspaces ??
    new WorkspaceSessions(services.userDataDir ? { userDataDir: services.userDataDir } : {});

  /**
   * Record the poll's deadlock in the profile's workspace (saved only when it is new or a new
   * occurrence) and attach the kept history. A workspace that cannot be read or written becomes a
   * problem of the view, never a failed poll.
   */
  async function keepDeadlocks(snapshot: LockSnapshot, profileId: string): Promise<LockSnapshot> {
    try {
      const entry = await workspaces.current(profileId);
      let changed = false;
      for (const deadlock of snapshot.deadlocks)
        changed = recordDeadlock(entry.workspace, deadlock) || changed;
      if (changed) await workspaces.persist(entry);
      return { ...snapshot, deadlockHistory: entry.workspace.deadlocks ?? [] };
    } catch (error) {
      const problem: LockProblem = {
        area: 'workspace',
        message: `The deadlock history could not be kept in the workspace: ${error instanceof Error ? error.message : String(error)}`,
        fix: 'Move the damaged workspace file away (the app never overwrites it), or check the permissions of its folder.',
      };
      return { ...snapshot, problems: [...snapshot.problems, problem] };
    }
  }

  return {
    async 'locks.poll'({ connectionId, profileId, limit, lockCounts, explain, rewrites }) {
      const { connection, server, target } = connections.get(connectionId);
      const snapshot = await pollLocks(connection, server, {
        rewrites: rewrites === 'all' ? true : 'lazy',
        ...(limit ? { limit } : {}),
        ...(lockCounts ? { lockCounts } : {}),
        ...(explain ? { explain } : {}),
      });
      return keepDeadlocks(snapshot, profileId ?? target.label);
    },
    async 'locks.rewrites'({ connectionId, sql }) {
      const { server } = connections.get(connectionId);
      return statementRewrites(server, sql);
    },
    async 'locks.counts'({ connectionId, trxIds }) {
      const { connection, server } = connections.get(connectionId);
      if (!server.capabilities.dataLocks)
        throw new AdvisorError(
          'UNSUPPORTED',
          'Record lock counts need performance_schema.data_locks (MySQL >= 8.0.1); this server lists only the locks involved in waits.',
        );
      return countRecordLocks(connection, trxIds);
    },
    async 'locks.transactions'({ connectionId }) {
      const { connection, server } = connections.get(connectionId);
      return readTransactionsView(connection, server);
    },
    async 'locks.kill'({ connectionId, threadId, scope, productionConfirmation }) {
      const { target } = connections.get(connectionId);
      const sql = `KILL ${scope.toUpperCase()} ${threadId}`;
      assertProductionConfirmed(target, productionConfirmation, sql);
      // KILL is an explicit write: its own connection, never the guarded analysis session.
      await loggedWrite(workspaces, target, { action: 'kill', sql: [sql] }, () =>
        connections.withWriteConnection(connectionId, (connection) =>
          killSession(connection, threadId, scope),
        ),
      );
    },
  };
}
