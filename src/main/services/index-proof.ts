// Proof of a workload's index set on the server: each index built invisibly (or on the sandbox), its statements EXPLAINed before and after, dropped.
//
// Design note: the statements are core/explain/what-if-set.ts's `proofSteps`, the list the confirmation
// showed. One writable session runs every index in turn; whatever an index's build added is dropped before
// the next one starts, also after an error, and the AUTO_INCREMENT counter is put back (what-if.ts
// cleanUp). An index whose run fails is reported as failed (with the server's message) and the next one
// goes on; Cancel (the job's abort signal) kills our running statement (KILL QUERY through WriteRuns),
// drops what was built, and ends the job. Consent is checked here as in verifyWhatIf: the connection must
// allow what-if and the user must have confirmed.

import { summarizePlan } from '../../core/explain/index.js';
import type { WhatIfMethod } from '../../core/explain/what-if.js';
import {
  proofSteps,
  proofVerdict,
  tableLine,
  type IndexProof,
  type ProofCandidate,
  type ProofPlan,
  type StatementProof,
} from '../../core/explain/what-if-set.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import type { PlanNode } from '../../core/explain/index.js';
import { planLines } from '../../core/workspace/verification.js';
import { AdvisorError } from '../../shared/errors.js';
import { connect, queryKiller, type ConnectionTarget } from './connection.js';
import { explainStatement } from './explain.js';
import { mapMysqlError } from './mysql-errors.js';
import { assertWhatIfDdl, autoIncrementOf, cleanUp, tableShape } from './what-if.js';

export interface ProofRequest {
  database: string;
  candidates: ProofCandidate[];
  /** The connection allows what-if DDL and the user confirmed the listed statements. */
  allowWhatIf: boolean;
  lockWaitTimeoutSeconds: number;
  signal?: AbortSignal;
  /** After each index: how many are done, and the verdict so far. */
  onProgress?: (done: number, proofs: readonly IndexProof[]) => void;
}

/** Cost, rows and the table's key and access type in one EXPLAIN (`created`: the what-if index names). */
export function proofPlan(root: PlanNode, table: string, created: readonly string[]): ProofPlan {
  const summary = summarizePlan(root);
  const line = tableLine(planLines(root), table, created);
  return {
    cost: summary.cost,
    rows: summary.rowsExamined,
    key: line?.key ?? null,
    access: line?.type ?? null,
  };
}

/** Refuse before anything runs: no consent, or DDL that is not an index build on its own table. */
export function assertProofAllowed(
  server: ServerInfo,
  request: Pick<ProofRequest, 'allowWhatIf' | 'candidates' | 'database'>,
): void {
  if (!request.allowWhatIf)
    throw new AdvisorError(
      'CONSENT_REQUIRED',
      'Proving the index set builds real indexes on the server, and this connection is not allowed to.',
      {
        hint: 'Reconnect with “Allow what-if indexes (sandbox)” checked in the connection dialog, after checking the table sizes.',
      },
    );
  for (const candidate of request.candidates)
    assertWhatIfDdl(server, { ddl: candidate.ddl, table: candidate.table, database: request.database });
}

/** Prove each candidate in turn; resolves with one verdict per candidate (in order). */
export async function proveIndexSet(
  target: ConnectionTarget,
  server: ServerInfo,
  request: ProofRequest,
): Promise<IndexProof[]> {
  assertProofAllowed(server, request);
  const method: WhatIfMethod = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
  const flavor = server.flavor === 'mariadb' ? 'mariadb' : 'mysql';
  const killQuery = queryKiller({ ...target, database: request.database });
  const connection = await connect({ ...target, database: request.database }, { readOnly: false });
  const proofs: IndexProof[] = [];
  const cancelled = () =>
    new AdvisorError(
      'CANCELLED',
      'Proof cancelled: the running statement was stopped on the server and what it built was dropped.',
    );
  try {
    for (const candidate of request.candidates) {
      if (request.signal?.aborted) throw cancelled();
      const steps = proofSteps(candidate, method, flavor, request.lockWaitTimeoutSeconds);
      const explains = steps.filter((step) => step.kind === 'read');
      const half = explains.length / 2;
      const created = { indexes: [] as string[], columns: [] as string[] };
      const ran: string[] = [];
      const autoIncrement = await autoIncrementOf(connection, candidate.table);
      const beforeShape = await tableShape(connection, request.database, candidate.table);
      try {
        const before: PlanNode[] = [];
        const after: PlanNode[] = [];
        // Every step but the last (the drop: cleanUp below, from the table's shape, as verifyWhatIf does).
        for (const step of steps.slice(0, -1)) {
          if (request.signal?.aborted) throw cancelled();
          if (step.kind === 'read') {
            const plans = before.length < half ? before : after;
            const statement = candidate.statements[plans.length]!;
            const sql = plans === after && statement.afterSql ? statement.afterSql : statement.sql;
            const result = await explainStatement(connection, server, sql, {
              database: request.database,
              killQuery,
            });
            plans.push(result.plan);
            continue;
          }
          ran.push(step.sql);
          const building = step.kind === 'write' && !/^ANALYZE\b/i.test(step.sql);
          try {
            await connection.query(step.sql);
          } finally {
            if (building) {
              const shape = await tableShape(connection, request.database, candidate.table);
              created.indexes = [...shape.indexes].filter((name) => !beforeShape.indexes.has(name));
              created.columns = [...shape.columns].filter((name) => !beforeShape.columns.has(name));
            }
          }
        }
        const statements: StatementProof[] = candidate.statements.map((statement, i) => {
          const planBefore = proofPlan(before[i]!, candidate.table, created.indexes);
          const planAfter = proofPlan(after[i]!, candidate.table, created.indexes);
          const names = new Set(created.indexes.map((name) => name.toLowerCase()));
          return {
            statement: statement.index,
            before: planBefore,
            after: planAfter,
            chosen: planLines(after[i]!).some(
              (line) => line.key !== null && names.has(line.key.toLowerCase()),
            ),
          };
        });
        proofs.push(proofVerdict(candidate, statements, method));
      } catch (error) {
        if (request.signal?.aborted) throw cancelled();
        const shown = mapMysqlError(error, { host: target.host, port: target.port, action: 'Proof' });
        proofs.push({
          key: candidate.key,
          table: candidate.table,
          name: candidate.name,
          status: 'failed',
          chosenBy: [],
          statements: [],
          reason: `The proof could not run: ${shown.message}`,
          method,
        });
      } finally {
        await cleanUp(connection, candidate.table, created, autoIncrement, ran);
      }
      request.onProgress?.(proofs.length, proofs);
    }
    return proofs;
  } finally {
    await connection.end().catch(() => undefined);
  }
}
