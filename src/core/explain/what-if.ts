// Every statement a what-if verification sends to the server, in order: the confirmation lists these and
// the service runs these (src/main/services/explain.ts verifyWhatIf), so the two cannot drift apart.
//
// Design note: the build runs the advisor's own DDL (MySQL 8: with INVISIBLE appended to an added index,
// so only our session, with `use_invisible_indexes=on`, can use it), refreshes the statistics with
// ANALYZE TABLE so the optimizer sees the new index's cardinality, and drops what it added again. The
// drop the service runs is computed from the table's shape before and after the build (so it also
// removes what a failed half-build left); the one listed here is computed from the DDL, and the
// integration test proves both name the same objects on both servers.

import type { Flavor } from '../flavors/capabilities.js';
import { parseAlterTable } from '../export/alter-clauses.js';

export type WhatIfMethod = 'invisible-index' | 'sandbox';

/** The metadata-lock wait the what-if dialog asks for (and lists as its first statement). */
export const WHAT_IF_LOCK_WAIT_SECONDS = 5;

/** One statement of a what-if run. */
export interface WhatIfStep {
  /** `session`: our connection only; `read`: EXPLAIN; `write`: changes the table (and is undone). */
  kind: 'session' | 'read' | 'write';
  sql: string;
  /** What it is for, in a few words. */
  purpose: string;
}

/** What a what-if run needs to list its statements. */
export interface WhatIfStepsInput {
  table: string;
  /** The suggestion's DDL as the handler sends it (after `whatIfDdl`). */
  ddl: readonly string[];
  method: WhatIfMethod;
  flavor: Flavor;
  lockWaitSeconds: number;
  beforeSql: string;
  afterSql: string;
}

/** Quote an identifier with backticks. */
function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** Make an index-adding ALTER build the index INVISIBLE (MySQL 8): the optimizer ignores it except in our session. */
export function invisibleVariant(ddl: string): string {
  const trimmed = ddl.trim().replace(/;+\s*$/, '');
  if (!/\bADD\s+(UNIQUE\s+)?(INDEX|KEY)\b/i.test(trimmed) || /\bINVISIBLE\b/i.test(trimmed)) return trimmed;
  // INVISIBLE is an index option: it goes before a trailing `, ALGORITHM=…, LOCK=…`, not after it.
  const options = /(\s*,\s*(?:ALGORITHM|LOCK)\s*=?\s*\w+)+$/i.exec(trimmed);
  return options ? `${trimmed.slice(0, options.index)} INVISIBLE${options[0]}` : `${trimmed} INVISIBLE`;
}

/** The build statements exactly as sent. */
export function whatIfBuildStatements(ddl: readonly string[], method: WhatIfMethod): string[] {
  return ddl.map((statement) =>
    method === 'invisible-index' ? invisibleVariant(statement) : statement.trim().replace(/;+\s*$/, ''),
  );
}

/** The statements that set up the session after the build (ANALYZE, and the invisible-index switch). */
export function whatIfAfterBuild(table: string, method: WhatIfMethod): WhatIfStep[] {
  return [
    {
      kind: 'write',
      sql: `ANALYZE TABLE ${quoteName(table)}`,
      purpose: 'refresh the table’s index statistics so the optimizer weighs the new index',
    },
    ...(method === 'invisible-index'
      ? [
          {
            kind: 'session' as const,
            sql: "SET SESSION optimizer_switch = 'use_invisible_indexes=on'",
            purpose: 'let this session (only) use the invisible index',
          },
        ]
      : []),
  ];
}

/** The indexes and columns the DDL adds, by name (null: an unnamed index, the server picks its name). */
export function addedObjects(
  ddl: readonly string[],
  flavor: Flavor,
): { indexes: (string | null)[]; columns: string[] } {
  const indexes: (string | null)[] = [];
  const columns: string[] = [];
  for (const statement of ddl) {
    const create = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)/i.exec(statement);
    if (create) {
      indexes.push(create[1]!.replace(/^`|`$/g, '').replace(/``/g, '`'));
      continue;
    }
    const parsed = parseAlterTable(statement, flavor);
    if (!parsed.ok) continue;
    for (const clause of parsed.alter.clauses) {
      if (clause.kind === 'add-index') indexes.push(clause.name);
      if (clause.kind === 'add-column') columns.push(clause.name);
    }
  }
  return { indexes, columns };
}

/** The cleanup statement for what a build added: indexes first, then columns; null when nothing was added. */
export function whatIfCleanup(
  table: string,
  added: { indexes: readonly (string | null)[]; columns: readonly string[] },
): string | null {
  const clauses = [
    ...added.indexes.map((name) => `DROP INDEX ${name === null ? '<the new index>' : quoteName(name)}`),
    ...added.columns.map((name) => `DROP COLUMN ${quoteName(name)}`),
  ];
  return clauses.length === 0 ? null : `ALTER TABLE ${quoteName(table)} ${clauses.join(', ')}`;
}

/** The cleanup statement the DDL will need (what the service runs is computed from the table's shape). */
export function whatIfDropStatement(table: string, ddl: readonly string[], flavor: Flavor): string {
  return (
    whatIfCleanup(table, addedObjects(ddl, flavor)) ??
    `ALTER TABLE ${quoteName(table)} DROP <whatever the statements above added>`
  );
}

/** Every statement of the run, in order. */
export function whatIfSteps(input: WhatIfStepsInput): WhatIfStep[] {
  const invisible = input.method === 'invisible-index';
  return [
    {
      kind: 'session',
      sql: `SET SESSION lock_wait_timeout = ${input.lockWaitSeconds}`,
      purpose: `give up after ${input.lockWaitSeconds} s if another session holds the table’s metadata lock`,
    },
    {
      kind: 'read',
      sql: `SHOW CREATE TABLE ${quoteName(input.table)}`,
      purpose:
        'remember AUTO_INCREMENT, the size, columns and indexes (information_schema) to find and undo what the build adds',
    },
    { kind: 'read', sql: `EXPLAIN ${input.beforeSql}`, purpose: 'the plan before' },
    ...whatIfBuildStatements(input.ddl, input.method).map((sql) => ({
      kind: 'write' as const,
      sql,
      purpose: invisible
        ? 'build the index INVISIBLE: other sessions’ plans cannot use it'
        : 'build the index on this sandbox: every session’s plans may use it until it is dropped',
    })),
    ...whatIfAfterBuild(input.table, input.method),
    { kind: 'read', sql: `EXPLAIN ${input.afterSql}`, purpose: 'the plan after' },
    {
      kind: 'write',
      sql: whatIfDropStatement(input.table, input.ddl, input.flavor),
      purpose:
        'drop what the build added, also after an error (then AUTO_INCREMENT is put back if the rebuild moved it)',
    },
  ];
}
