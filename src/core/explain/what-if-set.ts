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
  /**
   * `afterSql`: the statement as it runs once the index exists, when that differs (the index keys on a
   * generated column the server does not substitute: MariaDB; core/indexing/generated-columns.ts).
   */
  statements: { index: number; sql: string; afterSql?: string }[];
}

/** The statements of one index's proof, in order. */
export function proofSteps(
  candidate: ProofCandidate,
  method: WhatIfMethod,
  flavor: Flavor,
  lockWaitSeconds: number,
): WhatIfStep[] {
  const explain = (purpose: string, after = false): WhatIfStep[] =>
    candidate.statements.map((statement) => ({
      kind: 'read' as const,
      sql: `EXPLAIN ${((after && statement.afterSql) || statement.sql).trim().replace(/;+\s*$/, '')}`,
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
    ...explain('the plan with the index', true),
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
  /** Set proof only: the indexes its statements picked instead (`table.name`), when it was rejected. */
  redundantBy?: string[];
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

/** "#2 cost 1,204 → 3" (rows when either plan has no cost): what the index saved one statement. */
function savingText(entry: {
  statement: number;
  before: { cost: number | null; rows: number | null };
  after: { cost: number | null; rows: number | null };
}): string {
  return entry.before.cost !== null && entry.after.cost !== null
    ? `#${entry.statement + 1} cost ${number(entry.before.cost)} → ${number(entry.after.cost)}`
    : `#${entry.statement + 1} rows ${number(entry.before.rows)} → ${number(entry.after.rows)}`;
}

/** The verdict from the statements' plans. */
export function proofVerdict(
  candidate: Pick<ProofCandidate, 'key' | 'table' | 'name'>,
  statements: StatementProof[],
  method: WhatIfMethod,
): IndexProof {
  const chosenBy = statements.filter((entry) => entry.chosen).map((entry) => entry.statement);
  const base = { key: candidate.key, table: candidate.table, name: candidate.name, statements, method };
  if (chosenBy.length > 0) {
    const saved = statements.filter((entry) => entry.chosen).map(savingText);
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

// ---- Proof of the whole set together ----
//
// Design note: proving each index alone says whether the optimizer would use it, not whether it still
// does next to the others: (customer_id) is chosen alone, but with (customer_id, status) present the
// optimizer may pick the longer one for every statement, and (customer_id) only costs writes. The set
// proof builds every candidate (INVISIBLE on MySQL 8, seen only by this session once
// `use_invisible_indexes=on`; on the sandbox elsewhere), EXPLAINs every statement once before and once
// with the whole set, and drops them all (also after an error or Cancel). An index no statement picks
// with the set present is rejected, named as made redundant by the index those statements picked instead.

/** One step of the set proof, with what the service needs to read its answer. */
export interface SetProofStep extends WhatIfStep {
  phase: 'session' | 'before' | 'build' | 'analyze' | 'after' | 'drop';
  /** The statement an EXPLAIN is of (before / after). */
  statement?: number;
  /** The candidate a build or drop is of. */
  candidate?: string;
}

/** The statements the candidates serve, each once, in order. */
export function setStatements(
  candidates: readonly ProofCandidate[],
): { index: number; sql: string; afterSql?: string }[] {
  const byIndex = new Map<number, ProofCandidate['statements'][number]>();
  for (const candidate of candidates)
    for (const statement of candidate.statements)
      if (!byIndex.has(statement.index)) byIndex.set(statement.index, statement);
  return [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([index, statement]) => ({
      index,
      sql: statement.sql,
      ...(statement.afterSql ? { afterSql: statement.afterSql } : {}),
    }));
}

/** Every statement of the set proof, in order (the confirmation lists exactly these). */
export function setProofSteps(
  candidates: readonly ProofCandidate[],
  method: WhatIfMethod,
  flavor: Flavor,
  lockWaitSeconds: number,
): SetProofStep[] {
  const statements = setStatements(candidates);
  const tables = [...new Map(candidates.map((c) => [c.table.toLowerCase(), c.table])).values()];
  const explain = (phase: 'before' | 'after', purpose: string): SetProofStep[] =>
    statements.map((statement) => ({
      kind: 'read',
      phase,
      statement: statement.index,
      sql: `EXPLAIN ${((phase === 'after' && statement.afterSql) || statement.sql).trim().replace(/;+\s*$/, '')}`,
      purpose: `#${statement.index + 1}: ${purpose}`,
    }));
  const invisible = method === 'invisible-index';
  return [
    {
      kind: 'session',
      phase: 'session',
      sql: `SET SESSION lock_wait_timeout = ${lockWaitSeconds}`,
      purpose: `give up after ${lockWaitSeconds} s if another session holds a table’s metadata lock`,
    },
    ...(invisible
      ? [
          {
            kind: 'session' as const,
            phase: 'session' as const,
            sql: "SET SESSION optimizer_switch = 'use_invisible_indexes=off'",
            purpose: 'plan “before” as every other session does',
          },
        ]
      : []),
    ...explain('before', 'the plan before'),
    ...candidates.flatMap((candidate) =>
      whatIfBuildStatements(candidate.ddl, method).map((sql): SetProofStep => ({
        kind: 'write',
        phase: 'build',
        candidate: candidate.key,
        sql,
        purpose: invisible
          ? `build ${candidate.name} INVISIBLE: other sessions’ plans cannot use it`
          : `build ${candidate.name} on this sandbox: every session’s plans may use it until it is dropped`,
      })),
    ),
    ...tables.flatMap((table) =>
      whatIfAfterBuild(table, method)
        .filter((step) => step.kind === 'write')
        .map((step): SetProofStep => ({ ...step, phase: 'analyze' })),
    ),
    ...(invisible
      ? [
          {
            kind: 'session' as const,
            phase: 'session' as const,
            sql: "SET SESSION optimizer_switch = 'use_invisible_indexes=on'",
            purpose: 'let this session (only) use the invisible indexes, all of them at once',
          },
        ]
      : []),
    ...explain('after', 'the plan with the whole set'),
    ...[...candidates].reverse().map((candidate): SetProofStep => ({
      kind: 'write',
      phase: 'drop',
      candidate: candidate.key,
      sql: whatIfDropStatement(candidate.table, candidate.ddl, flavor),
      purpose: `drop ${candidate.name} again, also after an error or Cancel (AUTO_INCREMENT is put back if a rebuild moved it)`,
    })),
  ];
}

/** One statement's plan before and with the whole set. */
export interface SetStatementProof {
  statement: number;
  before: { cost: number | null; rows: number | null; keys: string[] };
  after: { cost: number | null; rows: number | null; keys: string[] };
  /** The candidates (keys) whose index the plan with the set uses. */
  uses: string[];
}

/** The set proof's answer: per statement what the optimizer picks, per candidate its verdict. */
export interface SetProofResult {
  statements: SetStatementProof[];
  proofs: IndexProof[];
}

/**
 * Verdicts from the statements' plans. `built` maps each candidate's key to the index names its build
 * created (none: its build failed, `failures` says why). A candidate's own statements carry the plan of
 * its table before and with the set (`lines` reads them).
 */
export function setProofVerdicts(
  candidates: readonly ProofCandidate[],
  built: ReadonlyMap<string, readonly string[]>,
  failures: ReadonlyMap<string, string>,
  statements: readonly SetStatementProof[],
  perTable: (candidate: ProofCandidate, statement: number) => { before: ProofPlan; after: ProofPlan } | null,
  method: WhatIfMethod,
): IndexProof[] {
  const owner = new Map<string, ProofCandidate>();
  for (const candidate of candidates)
    for (const name of built.get(candidate.key) ?? [])
      owner.set(`${candidate.table}.${name}`.toLowerCase(), candidate);
  return candidates.map((candidate): IndexProof => {
    const base = { key: candidate.key, table: candidate.table, name: candidate.name, method };
    const failure = failures.get(candidate.key);
    if (failure !== undefined)
      return {
        ...base,
        status: 'failed',
        chosenBy: [],
        statements: [],
        reason: `The proof could not build it: ${failure}`,
      };
    const own = candidate.statements.flatMap((statement): StatementProof[] => {
      const plans = perTable(candidate, statement.index);
      if (!plans) return [];
      const chosen = statements.some(
        (entry) => entry.statement === statement.index && entry.uses.includes(candidate.key),
      );
      return [{ statement: statement.index, before: plans.before, after: plans.after, chosen }];
    });
    const chosenBy = statements.filter((entry) => entry.uses.includes(candidate.key)).map((e) => e.statement);
    if (chosenBy.length > 0) {
      const saved = statements.filter((entry) => chosenBy.includes(entry.statement)).map(savingText);
      return {
        ...base,
        status: 'chosen',
        chosenBy,
        statements: own,
        reason: `With the whole set present the optimizer picks it for ${chosenBy.map((n) => `#${n + 1}`).join(', ')}: ${saved.join('; ')}.`,
      };
    }
    // What its statements read the table by instead: another candidate of the set, or an existing index.
    const instead = [
      ...new Set(
        own.flatMap((entry) => {
          const key = entry.after.key;
          if (!key) return [];
          const other = owner.get(`${candidate.table}.${key}`.toLowerCase());
          return [other ? `${other.table}.${other.name}` : `the existing ${candidate.table}.${key}`];
        }),
      ),
    ];
    return {
      ...base,
      status: 'rejected',
      chosenBy: [],
      statements: own,
      redundantBy: instead,
      reason:
        instead.length > 0
          ? `With the whole set present the optimizer never picks it: made redundant by ${instead.join(', ')}. Not proposed.`
          : `With the whole set present the optimizer never picks it: ${own.map((entry) => `#${entry.statement + 1} keeps ${entry.after.key ?? 'no index'}${entry.after.access ? ` (${entry.after.access})` : ''}`).join('; ')}. Not proposed.`,
    };
  });
}
