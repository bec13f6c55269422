// Render a table's index drops: the safe step (INVISIBLE / IGNORED) or the drop step, and their rollbacks.
//
// Design note (drops.ts says which drops are planned): the safe step is one metadata-only statement per
// table, `ALTER TABLE t ALTER INDEX i INVISIBLE` (MySQL 8) or `… IGNORED` (MariaDB >= 10.6), with no
// ALGORITHM/LOCK (the server changes only the dictionary); its rollback makes the index VISIBLE / NOT IGNORED
// again. The later DROP is named in a comment and rendered by the drop step (`dropStep`), online
// (INPLACE, LOCK=NONE); its rollback re-creates the index with its key from the schema, hidden again when
// it was hidden, so SHOW CREATE TABLE comes back as it was. On servers without hidden indexes the drop
// step is the only step.

import type { Capabilities } from '../flavors/capabilities.js';
import { keyPartsText, quoteName } from './alter-clauses.js';
import type { PlannedDrop } from './drops.js';
import { onlineModeFor, rollbackMode, type OnlineMode } from './online-ddl.js';
import type { TablePlan } from './plan.js';

/** One statement of the drops, as clauses (joined by the renderer) with its online mode. */
export interface DropStatement {
  clauses: string[];
  mode: OnlineMode;
}

const HIDE_MODE: OnlineMode = {
  algorithm: null,
  lock: null,
  effect:
    'Metadata only: the optimizer stops using the index at once; it is still maintained, so undoing it is instant.',
};

/** The server's word for a hidden index, or null when it has none (then the DROP is the only step). */
export function hiddenWord(capabilities: Capabilities): { hide: string; show: string } | null {
  if (capabilities.invisibleIndexes) return { hide: 'INVISIBLE', show: 'VISIBLE' };
  if (capabilities.ignoredIndexes) return { hide: 'IGNORED', show: 'NOT IGNORED' };
  return null;
}

function label(drop: PlannedDrop): string {
  return `INDEX ${quoteName(drop.name)} (${keyPartsText(drop.parts)})`;
}

/** Comment lines and statements for the forward script. */
export function forwardDrops(
  table: TablePlan,
  capabilities: Capabilities,
  dropStep: boolean,
): { comments: string[]; statements: DropStatement[] } {
  if (table.drops.length === 0) return { comments: [], statements: [] };
  const word = hiddenWord(capabilities);
  const comments: string[] = [];
  const why = (drop: PlannedDrop) =>
    table.items
      .filter((item) => drop.itemIds.includes(item.id))
      .flatMap((item) => item.notes.slice(0, 1))
      .map((note) => `--   Why: ${note}`);
  if (word && !dropStep) {
    const hidden = table.drops.filter((drop) => drop.visible);
    for (const drop of table.drops) {
      comments.push(
        drop.visible
          ? `-- - ${label(drop)}: step 1 of 2, ${word.hide} first (undo: ALTER INDEX … ${word.show})`
          : `-- = ${label(drop)} is already ${word.hide} (step 1 ran): export with the drop step to drop it`,
        ...why(drop),
        `--   Step 2, after watching the workload: ALTER TABLE ${quoteName(table.table)} DROP INDEX ${quoteName(drop.name)}, ALGORITHM=INPLACE, LOCK=NONE; (export with the drop step: it comes with a rollback that re-creates the index)`,
      );
    }
    return {
      comments,
      statements:
        hidden.length === 0
          ? []
          : [
              {
                clauses: hidden.map((drop) => `ALTER INDEX ${quoteName(drop.name)} ${word.hide}`),
                mode: HIDE_MODE,
              },
            ],
    };
  }
  for (const drop of table.drops) {
    comments.push(`-- - ${label(drop)}: dropped`, ...why(drop));
    if (word && drop.visible)
      comments.push(
        `--   WARNING: it was not made ${word.hide} first; the safe order is the export without the drop step, a quiet period, then this.`,
      );
  }
  return {
    comments,
    statements: [
      {
        clauses: table.drops.map((drop) => `DROP INDEX ${quoteName(drop.name)}`),
        mode: rollbackMode(capabilities),
      },
    ],
  };
}

/**
 * Statements of the rollback: show the hidden indexes again (VISIBLE on a visible index changes nothing),
 * or re-create the dropped ones as the schema had them.
 */
export function rollbackDrops(
  table: TablePlan,
  capabilities: Capabilities,
  dropStep: boolean,
): DropStatement[] {
  if (table.drops.length === 0) return [];
  const word = hiddenWord(capabilities);
  if (word && !dropStep)
    // Every planned drop, also one step 1 already hid: a rollback exported after step 1 still undoes it.
    return [
      {
        clauses: [...table.drops].reverse().map((drop) => `ALTER INDEX ${quoteName(drop.name)} ${word.show}`),
        mode: HIDE_MODE,
      },
    ];
  const clauses = [...table.drops]
    .reverse()
    .map(
      (drop) =>
        `ADD ${drop.unique ? 'UNIQUE ' : ''}INDEX ${quoteName(drop.name)} (${keyPartsText(drop.parts)})${!drop.visible && word ? ` ${word.hide}` : ''}`,
    );
  const functional = table.drops.filter((drop) => drop.parts.some((part) => 'expression' in part)).length;
  const mode = onlineModeFor(
    {
      virtualColumns: 0,
      storedColumns: 0,
      plainIndexes: clauses.length - functional,
      expressionIndexes: functional,
    },
    capabilities,
  );
  return [{ clauses, mode }];
}
