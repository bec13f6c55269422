// Index drops in the export: the hygiene items (unused, duplicate, left-prefix-redundant indexes) accepted in the Index set view.
//
// Design note: a drop item's DDL is the final `ALTER TABLE t DROP INDEX i`; the export decides the steps
// from the server. Step 1 (the default) hides the index — `ALTER INDEX i INVISIBLE` on MySQL 8,
// `ALTER INDEX i IGNORED` on MariaDB >= 10.6: instant, the index is still maintained, the optimizer stops
// using it, and the rollback (`VISIBLE` / `NOT IGNORED`) undoes it at once. The DROP is the later step: the
// script names it in a comment, and the export's "drop step" (`dropStep`) renders it, with a rollback that
// re-creates the index with its key as the schema has it (and hidden again when it was hidden). Servers
// without invisible/ignored indexes get the DROP directly.
//
// A drop is exported only against the current schema and the current foreign keys: without them nobody
// can say whether the index is still there, what its key was (for the rollback), or whether a FOREIGN KEY
// needs it. The primary key and UNIQUE indexes are constraints and are never dropped; an index that is the
// only one (after every drop of this export) starting with a FOREIGN KEY's columns — on the child table,
// or the referenced columns on the parent — is refused: InnoDB would refuse the DROP (ERROR 1553), while
// it accepts INVISIBLE/IGNORED on it, so step 1 would hide an index that step 2 can never drop.

import type { IndexInfo, TableInfo } from '../model/schema.js';
import type { KeyPart } from './alter-clauses.js';

/** A FOREIGN KEY: its columns on its (child) table, and the parent's columns it references. */
export interface ForeignKeyRef {
  table: string;
  name: string;
  columns: string[];
  referencedTable?: string;
  referencedColumns?: string[];
}

/** An existing index the export hides (step 1) or drops (the drop step). */
export interface PlannedDrop {
  name: string;
  unique: boolean;
  /** The key as the schema has it (for the rollback's re-create). */
  parts: KeyPart[];
  /** Visible in the schema now; false when step 1 already ran (INVISIBLE / IGNORED). */
  visible: boolean;
  itemIds: string[];
  remarks: string[];
}

/** The table and index an item's DDL drops (`ALTER TABLE t DROP INDEX i` alone), or why it is not one. */
export function droppedIndex(
  ddl: readonly string[],
): { table: string; schema: string | null; index: string } | string {
  const statement = ddl.find((text) => /\bDROP\s+(INDEX|KEY)\b/i.test(text));
  const match = statement
    ? /^\s*ALTER\s+TABLE\s+((?:`(?:[^`]|``)+`|[A-Za-z0-9_$]+)(?:\s*\.\s*(?:`(?:[^`]|``)+`|[A-Za-z0-9_$]+))?)\s+DROP\s+(?:INDEX|KEY)\s+(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)\s*(?:,\s*ALGORITHM\s*=\s*\w+\s*)?(?:,\s*LOCK\s*=\s*\w+\s*)?;?\s*$/i.exec(
        statement,
      )
    : null;
  if (!match) return 'its DDL is not one ALTER TABLE … DROP INDEX';
  const unquote = (text: string) => (text.startsWith('`') ? text.slice(1, -1).replace(/``/g, '`') : text);
  const names = match[1]!.split(/\s*\.\s*(?=`|[A-Za-z0-9_$])/).map(unquote);
  const table = names.length === 2 ? names[1]! : names[0]!;
  return { table, schema: names.length === 2 ? names[0]! : null, index: unquote(match[2]!) };
}

const startsWith = (index: IndexInfo, columns: readonly string[]) =>
  columns.length > 0 &&
  columns.every((column, i) => index.parts[i]?.column?.toLowerCase() === column.toLowerCase());

/**
 * Why `index` must not be dropped from `info`, or undefined. `alsoDropped` are the other indexes of this
 * table the same export drops (a FOREIGN KEY must keep one index after all of them).
 */
export function dropRefusal(
  info: TableInfo,
  index: IndexInfo,
  foreignKeys: readonly ForeignKeyRef[],
  alsoDropped: ReadonlySet<string>,
): string | undefined {
  if (index.primary) return `${info.name}.${index.name} is the PRIMARY KEY: never dropped`;
  if (index.unique) return `${info.name}.${index.name} is a UNIQUE constraint: never dropped as hygiene`;
  const remaining = info.indexes.filter(
    (other) => other !== index && other.kind === 'btree' && !alsoDropped.has(other.name.toLowerCase()),
  );
  const table = info.name.toLowerCase();
  for (const key of foreignKeys) {
    const sides: { columns: string[]; role: string }[] = [];
    if (key.table.toLowerCase() === table) sides.push({ columns: key.columns, role: 'its columns' });
    if (key.referencedTable?.toLowerCase() === table && key.referencedColumns)
      sides.push({ columns: key.referencedColumns, role: 'the columns it references' });
    for (const side of sides) {
      if (!startsWith(index, side.columns)) continue;
      if (remaining.some((other) => startsWith(other, side.columns))) continue;
      return `${info.name}.${index.name} is the only index on ${side.role} (${side.columns.join(', ')}) of FOREIGN KEY ${key.name}: InnoDB refuses to drop it (ERROR 1553), and hiding it first would only leave a step that cannot run`;
    }
  }
  return undefined;
}

/** The schema's key of an existing index, as export key parts. */
export function keyOf(index: IndexInfo): KeyPart[] {
  return index.parts.map((part) =>
    part.expression
      ? { expression: part.expression, descending: false }
      : { column: part.column ?? '', prefixLength: part.prefixLength, descending: false },
  );
}
