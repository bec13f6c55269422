// ALGORITHM= / LOCK= for a combined ALTER TABLE: the strongest online mode the server accepts for ALL its clauses.
//
// Observed on MySQL 8.0.33 and MariaDB 10.11.19 (tests/integration/export.test.ts proves it again):
// - ADD INDEX on existing columns: ALGORITHM=INPLACE, LOCK=NONE; INSTANT is refused (1845/1846).
// - ADD COLUMN … VIRTUAL alone: ALGORITHM=INSTANT (MySQL >= 8.0.29 as gated, MariaDB >= 10.3).
// - ADD COLUMN … VIRTUAL together with ADD INDEX, and any MySQL functional index (a hidden virtual
//   column): LOCK=NONE is refused (1846 "Try LOCK=SHARED"), INSTANT too; INPLACE + LOCK=SHARED works,
//   so writes wait while the index builds.
// - ADD COLUMN … STORED: INPLACE and INSTANT are refused (1845 "Try ALGORITHM=COPY"); COPY needs
//   LOCK=SHARED (LOCK=NONE: "COPY algorithm requires a lock").
// - Rollback (DROP INDEX …, DROP COLUMN … virtual or stored): ALGORITHM=INPLACE, LOCK=NONE on both.

import type { Capabilities } from '../flavors/capabilities.js';
import type { TablePlan } from './plan.js';

/** The online clause for one statement and what it means for the application. */
export interface OnlineMode {
  algorithm: 'INSTANT' | 'INPLACE' | 'COPY' | null;
  lock: 'NONE' | 'SHARED' | null;
  /** One line for the script comment. */
  effect: string;
  /** Set when the statement blocks writes or rebuilds the table. */
  warning?: string;
}

/** The option text to append (`ALGORITHM=INPLACE, LOCK=NONE`), or empty. */
export function onlineClause(mode: OnlineMode): string {
  return [mode.algorithm && `ALGORITHM=${mode.algorithm}`, mode.lock && `LOCK=${mode.lock}`]
    .filter(Boolean)
    .join(', ');
}

/** Which kinds of change a statement holds. */
export interface StatementShape {
  virtualColumns: number;
  storedColumns: number;
  plainIndexes: number;
  /** Functional indexes, or indexes on columns the same statement adds. */
  expressionIndexes: number;
}

/** The shape of a table's full change set. */
export function shapeOf(table: Pick<TablePlan, 'columns' | 'indexes'>): StatementShape {
  return {
    virtualColumns: table.columns.filter((column) => !column.generated?.stored).length,
    storedColumns: table.columns.filter((column) => column.generated?.stored).length,
    plainIndexes: table.indexes.filter((index) => !index.functional && index.newColumns.length === 0).length,
    expressionIndexes: table.indexes.filter((index) => index.functional || index.newColumns.length > 0)
      .length,
  };
}

/** Choose ALGORITHM/LOCK valid for every clause of a statement with this shape. */
export function onlineModeFor(shape: StatementShape, capabilities: Capabilities): OnlineMode {
  const indexes = shape.plainIndexes + shape.expressionIndexes;
  if (shape.storedColumns > 0)
    return {
      algorithm: 'COPY',
      lock: 'SHARED',
      effect: 'Full table copy (a STORED column): reads continue, writes wait until it finishes.',
      warning:
        'A STORED generated column rebuilds the whole table (ALGORITHM=COPY, LOCK=SHARED): writes are blocked for the duration. Prefer VIRTUAL, or run it with pt-online-schema-change / gh-ost.',
    };
  if (shape.virtualColumns > 0 && indexes === 0)
    return capabilities.instantAddVirtualColumn
      ? { algorithm: 'INSTANT', lock: null, effect: 'Metadata-only change (INSTANT): no rows are touched.' }
      : {
          algorithm: 'INPLACE',
          lock: 'NONE',
          effect: 'In-place change without a rebuild; reads and writes continue.',
        };
  if (!capabilities.onlineAddIndex)
    return {
      algorithm: null,
      lock: null,
      effect: 'The server chooses the algorithm (no online index build on this version).',
      warning: 'This server version has no online index build: the table may be locked while it builds.',
    };
  if (shape.expressionIndexes > 0 || shape.virtualColumns > 0)
    return {
      algorithm: 'INPLACE',
      lock: 'SHARED',
      effect:
        'In-place index build; reads continue, writes wait while it builds (the server refuses LOCK=NONE for an index on a new or hidden virtual column).',
      warning:
        shape.virtualColumns > 0
          ? 'Indexing a VIRTUAL column added in the same statement needs LOCK=SHARED: writes wait while the index builds. On busy tables export it split, the column INSTANT first and then the index with LOCK=NONE (the “Columns first, then indexes” option of the Export panel; --split-online in the CLI), or use pt-online-schema-change / gh-ost.'
          : 'A functional index is built over a hidden virtual column, so the server refuses LOCK=NONE: writes wait while it builds. On busy tables use pt-online-schema-change / gh-ost, or an explicit VIRTUAL generated column (added INSTANT, then indexed with LOCK=NONE).',
    };
  return {
    algorithm: 'INPLACE',
    lock: 'NONE',
    effect: 'In-place index build; reads and writes continue (brief metadata locks at start and end).',
  };
}

/** ALGORITHM/LOCK for the rollback (DROP INDEX / DROP COLUMN): INPLACE, LOCK=NONE where online index builds exist. */
export function rollbackMode(capabilities: Capabilities): OnlineMode {
  return capabilities.onlineAddIndex
    ? { algorithm: 'INPLACE', lock: 'NONE', effect: 'In-place drop; reads and writes continue.' }
    : { algorithm: null, lock: null, effect: 'The server chooses the algorithm.' };
}
