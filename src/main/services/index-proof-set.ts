// Proof of the whole index set together: every candidate built (INVISIBLE on MySQL 8, on the sandbox elsewhere), every statement EXPLAINed before and with the set, all dropped.
//
// Design note: the statements are core/explain/what-if-set.ts's `setProofSteps`, the list the confirmation
// showed, run in order on one writable session. A candidate whose build fails is reported as failed and the
// others are still built; the drop steps are not sent as listed but done by cleanUp per table, from the
// table's shape before the run (as the one-by-one proof and verifyWhatIf do), so whatever was built is
// dropped also after an error or Cancel (the job's abort signal kills our running statement through
// WriteRuns), and the AUTO_INCREMENT counter is put back. Consent is checked as for the one-by-one proof.

import { summarizePlan, type PlanNode } from '../../core/explain/index.js';
import type { WhatIfMethod } from '../../core/explain/what-if.js';
import {
  setProofSteps,
  setProofVerdicts,
  type SetProofResult,
  type SetStatementProof,
} from '../../core/explain/what-if-set.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { planLines } from '../../core/workspace/verification.js';
import { AdvisorError } from '../../shared/errors.js';
import { connect, queryKiller, type ConnectionTarget } from './connection.js';
import { explainStatement } from './explain.js';
import { assertProofAllowed, proofPlan, type ProofRequest } from './index-proof.js';
import { mapMysqlError } from './mysql-errors.js';
import { autoIncrementOf, cleanUp, tableShape, type TableShape } from './what-if.js';

export interface SetProofRequest extends Omit<ProofRequest, 'onProgress'> {
  /** After each statement sent: how many of the steps (drops aside) are done. */
  onProgress?: (done: number, total: number) => void;
}

function keysOf(root: PlanNode): string[] {
  return [...new Set(planLines(root).flatMap((line) => (line.key ? [line.key] : [])))];
}

/** Build the whole set, EXPLAIN every statement before and with it, drop it all. */
export async function proveIndexSetTogether(
  target: ConnectionTarget,
  server: ServerInfo,
  request: SetProofRequest,
): Promise<SetProofResult> {
  assertProofAllowed(server, request);
  const method: WhatIfMethod = server.capabilities.invisibleIndexes ? 'invisible-index' : 'sandbox';
  const flavor = server.flavor === 'mariadb' ? 'mariadb' : 'mysql';
  const steps = setProofSteps(request.candidates, method, flavor, request.lockWaitTimeoutSeconds);
  const running = steps.filter((step) => step.phase !== 'drop');
  const killQuery = queryKiller({ ...target, database: request.database });
  const connection = await connect({ ...target, database: request.database }, { readOnly: false });
  const cancelled = () =>
    new AdvisorError(
      'CANCELLED',
      'Proof cancelled: the running statement was stopped on the server and what it built was dropped.',
    );
  const tables = [...new Map(request.candidates.map((c) => [c.table.toLowerCase(), c.table])).values()];
  const shapes = new Map<string, TableShape>();
  const counters = new Map<string, number | null>();
  const created = new Map<string, { indexes: string[]; columns: string[] }>();
  const built = new Map<string, string[]>();
  const failures = new Map<string, string>();
  const ran: string[] = [];
  try {
    for (const table of tables) {
      counters.set(table, await autoIncrementOf(connection, table));
      shapes.set(table, await tableShape(connection, request.database, table));
      created.set(table, { indexes: [], columns: [] });
    }
    const before = new Map<number, PlanNode>();
    const after = new Map<number, PlanNode>();
    const byKey = new Map(request.candidates.map((candidate) => [candidate.key, candidate]));
    let done = 0;
    for (const step of running) {
      if (request.signal?.aborted) throw cancelled();
      if (step.kind === 'read') {
        const sql = step.sql.replace(/^EXPLAIN\s+/, '');
        const result = await explainStatement(connection, server, sql, {
          database: request.database,
          killQuery,
        });
        (step.phase === 'before' ? before : after).set(step.statement!, result.plan);
      } else if (step.phase === 'build') {
        const candidate = byKey.get(step.candidate!)!;
        if (failures.has(candidate.key)) continue;
        const table = tables.find((name) => name.toLowerCase() === candidate.table.toLowerCase())!;
        const own = created.get(table)!;
        const known = new Set(own.indexes);
        ran.push(step.sql);
        try {
          await connection.query(step.sql);
        } catch (error) {
          if (request.signal?.aborted) throw cancelled();
          failures.set(
            candidate.key,
            mapMysqlError(error, { host: target.host, port: target.port, action: 'Proof' }).message,
          );
        } finally {
          const shape = await tableShape(connection, request.database, table);
          const first = shapes.get(table)!;
          own.indexes = [...shape.indexes].filter((name) => !first.indexes.has(name));
          own.columns = [...shape.columns].filter((name) => !first.columns.has(name));
          built.set(candidate.key, [
            ...(built.get(candidate.key) ?? []),
            ...own.indexes.filter((name) => !known.has(name)),
          ]);
        }
      } else {
        ran.push(step.sql);
        await connection.query(step.sql);
      }
      request.onProgress?.(++done, running.length);
    }
    const owner = new Map<string, string>();
    for (const candidate of request.candidates)
      for (const name of built.get(candidate.key) ?? [])
        owner.set(`${candidate.table}.${name}`.toLowerCase(), candidate.key);
    const statements: SetStatementProof[] = [...before.keys()].map((index) => {
      const planBefore = before.get(index)!;
      const planAfter = after.get(index)!;
      const summaryBefore = summarizePlan(planBefore);
      const summaryAfter = summarizePlan(planAfter);
      const uses = [
        ...new Set(
          planLines(planAfter).flatMap((line) => {
            if (!line.key) return [];
            // A line names its table by alias or name: match the key on any candidate table.
            const keys = request.candidates
              .map((candidate) => owner.get(`${candidate.table}.${line.key}`.toLowerCase()))
              .filter((key): key is string => key !== undefined);
            return keys;
          }),
        ),
      ];
      return {
        statement: index,
        before: { cost: summaryBefore.cost, rows: summaryBefore.rowsExamined, keys: keysOf(planBefore) },
        after: { cost: summaryAfter.cost, rows: summaryAfter.rowsExamined, keys: keysOf(planAfter) },
        uses,
      };
    });
    const proofs = setProofVerdicts(
      request.candidates,
      built,
      failures,
      statements,
      (candidate, index) => {
        const planBefore = before.get(index);
        const planAfter = after.get(index);
        if (!planBefore || !planAfter) return null;
        const names = built.get(candidate.key) ?? [];
        return {
          before: proofPlan(planBefore, candidate.table, names),
          after: proofPlan(planAfter, candidate.table, names),
        };
      },
      method,
    );
    return { statements, proofs };
  } catch (error) {
    if (request.signal?.aborted) throw cancelled();
    throw error instanceof AdvisorError
      ? error
      : mapMysqlError(error, { host: target.host, port: target.port, action: 'Proof' });
  } finally {
    try {
      for (const table of tables)
        await cleanUp(
          connection,
          table,
          created.get(table) ?? { indexes: [], columns: [] },
          counters.get(table) ?? null,
          ran,
        );
    } finally {
      await connection.end().catch(() => undefined);
    }
  }
}
