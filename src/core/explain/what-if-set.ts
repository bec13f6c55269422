// Proof of a workload's index set: every statement the run sends, per index, and how its EXPLAINs are read.
//
// Design note: each proposed index is proven on its own, one after the other, on one writable session:
// EXPLAIN every statement it is meant to serve, build it (INVISIBLE on MySQL 8, so only this session,
// with `use_invisible_indexes=on`, can use it; a plain index on a server marked as a sandbox elsewhere),
// ANALYZE TABLE, EXPLAIN the same statements again, drop it. An index the optimizer chooses for at least
// one of its statements is proven; one it chooses for none is rejected, with the plan it kept instead.
// The confirmation lists exactly these statements (`proofSteps`), and the service runs these, so the two
// cannot drift apart (as for the single what-if, what-if.ts).

import type { Flavor } from '../flavors/capabilities.js';
import type { PlanLine } from '../workspace/types.js';
import {
  whatIfAfterBuild,
  whatIfBuildStatements,
  whatIfDropStatement,
  type WhatIfMethod,
  type WhatIfStep,
} from './what-if.js';

/** One index of the set to prove, with the statements it serves. */
export interface ProofCandidate {
  /** The view's identity of the index (renderer/state/index-set.ts indexKey). */
  key: string;
  table: string;
  name: string;
  /** The build DDL as what-if sends it (an extension is tried next to the index it extends). */
  ddl: string[];
  statements: { index: number; sql: string }[];
}

/** The statements of one index's proof, in order. */
export function proofSteps(
  candidate: ProofCandidate,
  method: WhatIfMethod,
  flavor: Flavor,
  lockWaitSeconds: number,
): WhatIfStep[] {
  const explain = (purpose: string): WhatIfStep[] =>
    candidate.statements.map((statement) => ({
      kind: 'read' as const,
      sql: `EXPLAIN ${statement.sql.trim().replace(/;+\s*$/, '')}`,
      purpose: `#${statement.index + 1}: ${purpose}`,
    }));
  return [
    {
      kind: 'session',
      sql: `SET SESSION lock_wait_timeout = ${lockWaitSeconds}`,
      purpose: `give up after ${lockWaitSeconds} s if another session holds the table’s metadata lock`,
    },
    ...(method === 'invisible-index'
      ? [
          {
            kind: 'session' as const,
            sql: "SET SESSION optimizer_switch = 'use_invisible_indexes=off'",
            purpose: 'plan “before” as every other session does (the previous index’s proof switched it on)',
          },
        ]
      : []),
    ...explain('the plan before'),
    ...whatIfBuildStatements(candidate.ddl, method).map((sql) => ({
      kind: 'write' as const,
      sql,
      purpose:
        method === 'invisible-index'
          ? 'build the index INVISIBLE: other sessions’ plans cannot use it'
          : 'build the index on this sandbox: every session’s plans may use it until it is dropped',
    })),
    ...whatIfAfterBuild(candidate.table, method),
    ...explain('the plan with the index'),
    {
      kind: 'write',
      sql: whatIfDropStatement(candidate.table, candidate.ddl, flavor),
      purpose: 'drop it again, also after an error (AUTO_INCREMENT is put back if a rebuild moved it)',
    },
  ];
}

/** What one EXPLAIN says about the table the index is for. */
export interface ProofPlan {
  /** The optimizer's estimated cost of the statement (MySQL's query_cost); null where EXPLAIN has none. */
  cost: number | null;
  /** Rows examined over all table accesses (estimate). */
  rows: number | null;
  /** The key the table's access uses (null: none), and its access type. */
  key: string | null;
  access: string | null;
}

/** One statement before and after the index was built. */
export interface StatementProof {
  statement: number;
  before: ProofPlan;
  after: ProofPlan;
  /** The optimizer chose the new index for it. */
  chosen: boolean;
}

/** The verdict on one index. */
export interface IndexProof {
  key: string;
  table: string;
  name: string;
  /** `chosen`: used for at least one statement; `rejected`: for none; `failed`: the run could not tell. */
  status: 'chosen' | 'rejected' | 'failed';
  /** Statement numbers (0-based) whose plan chose it. */
  chosenBy: number[];
  statements: StatementProof[];
  /** In words: who chose it and what it saves, or why it was rejected, or what failed. */
  reason: string;
  method: WhatIfMethod;
}

/**
 * The access of `table` in a plan: the line using one of `created` if any, else the first line of the table
 * (by name or alias), else the first line.
 */
export function tableLine(
  lines: readonly PlanLine[],
  table: string,
  created: readonly string[],
): PlanLine | null {
  const names = new Set(created.map((name) => name.toLowerCase()));
  return (
    lines.find((line) => line.key !== null && names.has(line.key.toLowerCase())) ??
    lines.find((line) => line.table?.toLowerCase() === table.toLowerCase()) ??
    lines[0] ??
    null
  );
}

const number = (value: number | null) => (value === null ? '?' : Math.round(value).toLocaleString('en-US'));

/** The verdict from the statements' plans. */
export function proofVerdict(
  candidate: Pick<ProofCandidate, 'key' | 'table' | 'name'>,
  statements: StatementProof[],
  method: WhatIfMethod,
): IndexProof {
  const chosenBy = statements.filter((entry) => entry.chosen).map((entry) => entry.statement);
  const base = { key: candidate.key, table: candidate.table, name: candidate.name, statements, method };
  if (chosenBy.length > 0) {
    const saved = statements
      .filter((entry) => entry.chosen)
      .map((entry) =>
        entry.before.cost !== null && entry.after.cost !== null
          ? `#${entry.statement + 1} cost ${number(entry.before.cost)} → ${number(entry.after.cost)}`
          : `#${entry.statement + 1} rows ${number(entry.before.rows)} → ${number(entry.after.rows)}`,
      );
    return {
      ...base,
      status: 'chosen',
      chosenBy,
      reason: `The optimizer chose it for ${chosenBy.map((n) => `#${n + 1}`).join(', ')}: ${saved.join('; ')}.`,
    };
  }
  const kept = statements.map(
    (entry) =>
      `#${entry.statement + 1} keeps ${entry.after.key ?? 'no index'}${entry.after.access ? ` (${entry.after.access})` : ''}${entry.after.cost !== null ? `, cost ${number(entry.after.cost)}` : `, ${number(entry.after.rows)} rows`}`,
  );
  return {
    ...base,
    status: 'rejected',
    chosenBy,
    reason: `The optimizer did not choose it for any of its statements: ${kept.join('; ')}. Not proposed.`,
  };
}
